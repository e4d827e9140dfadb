import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The release smoke test (smoke-platforms.sh runs it on every platform's JVM, with only the
 * driver's jar beside it): the engine is extracted from the jar into args[0]/native and loaded, a
 * database file is opened, FTS5 answers a MATCH, sqlite-vec a KNN query (and the engine's log line
 * names it), a transaction rolls back and another commits, and
 * the native helper compiled into the engine is the one in use (its DEBUG line is logged, no
 * "not used" line). Prints "SMOKE OK ..." or fails with a stack trace and exit code 1.
 */
public final class Smoke {
    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        List<String> log = new ArrayList<>();
        Logger panlite = Logger.getLogger("dev.panlite");
        panlite.setLevel(Level.ALL); // the helper says it loaded at DEBUG (FINE)
        Handler recorder = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                log.add(r.getLevel() + " " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        recorder.setLevel(Level.ALL);
        panlite.addHandler(recorder);

        String url = "jdbc:sqlite:" + work.resolve("smoke.db") + "?journal_mode=WAL";
        String version;
        String vec;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            version = one(s, "SELECT sqlite_version()");
            s.execute("CREATE VIRTUAL TABLE docs USING fts5(body)");
            s.execute("INSERT INTO docs(body) VALUES ('the quick brown fox'), ('a lazy dog'), ('brown bread')");
            check("2".equals(one(s, "SELECT count(*) FROM docs WHERE docs MATCH 'brown'")), "FTS5 MATCH");
            // sqlite-vec, compiled into the engine and registered at open (vector_search is on by default)
            vec = one(s, "SELECT vec_version()");
            s.execute("CREATE VIRTUAL TABLE items USING vec0(embedding float[4])");
            s.execute("INSERT INTO items(rowid, embedding) VALUES (1, '[0.5, 1.5, -2.25, 3]'), (2, '[10, 10, 10, 10]'),"
                    + " (3, '[0.5, 1.5, -2.25, 4]')");
            check("1,3".equals(all(s, "SELECT rowid FROM items WHERE embedding MATCH '[0.5, 1.5, -2.25, 3.25]' AND k = 2"
                    + " ORDER BY distance")), "sqlite-vec KNN over a vec0 table");
            // 64-bit words: the differing bits are in the high half (a 32-bit popcount would miss them)
            check("3".equals(one(s, "SELECT CAST(vec_distance_hamming(vec_bit(X'0000000000000000'),"
                    + " vec_bit(X'0000000001020400')) AS INTEGER)")), "sqlite-vec Hamming distance of 64-bit words");
            s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT)");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(x) VALUES ('rolled back')");
            c.rollback();
            try (var ps = c.prepareStatement("INSERT INTO t(x) VALUES (?)")) {
                for (int i = 0; i < 100; i++) {
                    ps.setString(1, "row " + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
            check("100".equals(one(s, "SELECT count(*) FROM t")), "transaction: 100 rows committed, 1 rolled back");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            check("100".equals(one(s, "SELECT count(*) FROM t")), "the file kept its rows");
        }
        String engine = find(log, "Panlite uses the bundled SQLite");
        check(engine != null, "the bundled engine was loaded: " + log);
        check(engine.contains(work.resolve("native").toString()), "extracted from the jar into " + work.resolve("native")
                + ": " + engine);
        check(engine.endsWith(", with sqlite-vec " + vec + " compiled in"), "the engine line names sqlite-vec: " + engine);
        check(find(log, "Panlite native helper loaded") != null, "the helper is in use: " + log);
        check(find(log, "not used") == null, "nothing native left unused: " + log);
        try (var files = Files.list(work.resolve("native"))) {
            System.out.println("SMOKE OK " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                    + " java " + System.getProperty("java.version") + " SQLite " + version + " sqlite-vec " + vec + " extracted "
                    + files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    private static String one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The first column of every row, joined with commas. */
    private static String all(Statement s, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return String.join(",", values);
    }

    private static String find(List<String> log, String part) {
        synchronized (log) {
            return log.stream().filter(l -> l.contains(part)).findFirst().orElse(null);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("smoke test failed: " + what);
        }
    }
}
