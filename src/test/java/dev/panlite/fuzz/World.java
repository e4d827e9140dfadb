package dev.panlite.fuzz;

import dev.panlite.PanliteConnectionPoolDataSource;
import dev.panlite.PanliteDataSource;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Map;
import javax.sql.PooledConnection;
import java.util.Properties;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything the fuzz threads share: pools of JDBC objects, the files they use, and the findings
 * (any Throwable that is not an SQLException, each kind printed once with its stack trace).
 */
final class World {
    final Path dir;
    /** False when the run skips the "vtab." group: then no SQL creates a virtual table. */
    volatile boolean virtualTables = true;
    final PrintStream out;
    final Slots<Connection> connections = new Slots<>(5);
    final Slots<Statement> statements = new Slots<>(8);
    final Slots<PreparedStatement> prepared = new Slots<>(8);
    final Slots<ResultSet> results = new Slots<>(8);
    final Slots<Blob> blobs = new Slots<>(4);
    final Slots<Savepoint> savepoints = new Slots<>(4);
    /** Database images from serialize(), for deserialize() on any connection. */
    final Slots<byte[]> images = new Slots<>(3);
    final Slots<dev.panlite.ChangeListener> listeners = new Slots<>(4);
    /** float[] vectors bound by reference (setObject keeps the array) that vec.mutate changes meanwhile. */
    final Slots<float[]> vectors = new Slots<>(3);
    /** Physical connections of PanliteConnectionPoolDataSource, whose logical handles are in {@link #connections}. */
    final Slots<PooledConnection> pooled = new Slots<>(3);
    final Queue<PooledConnection> openedPooled = new ConcurrentLinkedQueue<>();
    /** Every connection opened and not deliberately leaked: closed at the end of the run. */
    final Queue<Connection> opened = new ConcurrentLinkedQueue<>();
    final AtomicLong leaked = new AtomicLong();
    /** The fuzz threads, for actions that interrupt one. */
    volatile Thread[] workers = new Thread[0];
    final AtomicLong sqlExceptions = new AtomicLong();
    final AtomicLong misuse = new AtomicLong();
    final AtomicLong actions = new AtomicLong();
    final AtomicLong findings = new AtomicLong();
    private final Map<String, AtomicLong> findingKinds = new ConcurrentHashMap<>();
    /** Actions run, by group (the name's prefix up to its dot): the summary shows that each group ran. */
    private final Map<String, java.util.concurrent.atomic.LongAdder> groups = new ConcurrentHashMap<>();

    World(Path dir, PrintStream out) {
        this.dir = dir;
        this.out = out;
    }

    /** The SQLite files of the run: two shared databases and a few backup targets. */
    String file(int i) {
        return dir.resolve("db" + i + ".sqlite").toString();
    }

    /** A URL to one of the run's files or to memory, with settings that make misuse show sooner. */
    String url(Random r) {
        int draw = r.nextInt(5);
        String target = switch (draw) {
            case 0, 1 -> file(0);
            case 2 -> file(1);
            default -> ":memory:";
        };
        String url = "jdbc:sqlite:" + target + (r.nextBoolean() ? "?busy_timeout=50" : "?busy_timeout=0&stmt_cache_size=" + r.nextInt(4))
                // one memory database in two is UTF-16 (no draw of its own): its rows holding a blob are read in place
                + (draw == 4 ? "&encoding=UTF-16le" : "")
                + (r.nextBoolean() ? "" : "&wal_autocheckpoint=" + r.nextInt(3) + "&wal_size_mark=" + (1 + r.nextInt(4)));
        // one draw, as before litestream_socket was added, so the seeds of earlier findings still replay
        return url + switch (r.nextInt(4)) {
            case 0 -> "&leak_warning=true";
            // a socket nobody listens on: the background request fails, back-pressure must then never wait
            case 1 -> "&litestream_socket=" + dir.resolve("no-litestream.sock") + "&litestream_sync_pages=1000"
                    + "&litestream_wait_pages=1000";
            default -> "";
        };
    }

    /** Opens a connection one of the ways an application does, to a file or to memory. */
    Connection open(Random r) throws SQLException {
        String url = url(r);
        Connection c = switch (r.nextInt(4)) {
            case 0 -> DriverManager.getConnection(url);
            case 1 -> new PanliteDataSource(url).getConnection();
            case 2 -> {
                PooledConnection pc = new PanliteConnectionPoolDataSource(url).getPooledConnection();
                pooled.put(r, pc);
                openedPooled.add(pc);
                yield pc.getConnection(); // a logical handle, closed by close() without closing pc
            }
            default -> new dev.panlite.Driver().connect(url, new Properties());
        };
        opened.add(c);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, a, b TEXT, c REAL, d BLOB)");
            s.execute("INSERT INTO t(a, b, c, d) VALUES (1, 'one', 1.5, x'01'), (2, 'two', NULL, NULL), "
                    + "(NULL, 'Ünïcödé', -0.0, x''), (9223372036854775807, '', 1e308, zeroblob(100))");
        } catch (SQLException e) {
            sqlException(e); // busy or locked by another thread's transaction: used as it is
        }
        return c;
    }

    /**
     * Records a Throwable that a JDBC call should not have thrown. The first of each kind (class and
     * the top frames) is printed in full; the rest are counted.
     */
    void finding(String where, Throwable t) {
        findings.incrementAndGet();
        StringBuilder key = new StringBuilder(t.getClass().getName());
        StackTraceElement[] frames = t.getStackTrace();
        for (int i = 0; i < Math.min(3, frames.length); i++) {
            key.append(' ').append(frames[i]);
        }
        AtomicLong n = findingKinds.computeIfAbsent(key.toString(), k -> new AtomicLong());
        if (n.getAndIncrement() == 0) {
            java.io.StringWriter w = new java.io.StringWriter();
            t.printStackTrace(new java.io.PrintWriter(w));
            synchronized (out) {
                out.println("FINDING in " + where + ": " + w.toString().strip().replace("\n", "\n    | "));
                out.flush();
            }
        }
    }

    private final Map<String, AtomicLong> sqlExceptionKinds = new ConcurrentHashMap<>();

    /** Counts an expected SQLException, by the start of its message (the summary shows the commonest). */
    void sqlException(java.sql.SQLException e) {
        sqlExceptions.incrementAndGet();
        String m = String.valueOf(e.getMessage());
        if ((e.getErrorCode() & 0xff) == 21 && (m.contains("API misuse") || m.contains("out of sequence"))) {
            // SQLITE_MISUSE in SQLite's own words: it caught a bad call (the driver uses code 21 for
            // "no statement in the SQL" too, which is fine)
            // (an SQLException all the same: reported, not failed on)
            if (misuse.getAndIncrement() < 3) {
                java.io.StringWriter w = new java.io.StringWriter();
                e.printStackTrace(new java.io.PrintWriter(w));
                synchronized (out) {
                    out.println("SQLITE_MISUSE: " + w.toString().strip().replace("\n", "\n    | "));
                }
            }
        }
        int cut = m.length();
        for (int i = 0; i < m.length(); i++) {
            char ch = m.charAt(i);
            if (ch == '(' || ch == ':' || ch == '"' || ch == '\'' || Character.isDigit(ch)) {
                cut = i;
                break;
            }
        }
        sqlExceptionKinds.computeIfAbsent(m.substring(0, Math.min(cut, 60)).strip(), k -> new AtomicLong()).incrementAndGet();
    }

    /** The commonest SQLException messages, to see which actions mostly fail. */
    java.util.List<String> commonSqlExceptions(int n) {
        return sqlExceptionKinds.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue().get(), a.getValue().get()))
                .limit(n).map(e -> e.getValue() + " " + e.getKey()).toList();
    }

    /** Counts one action of {@code name} (e.g. "vec.knn" for group "vec."). */
    void ran(String name) {
        int dot = name.indexOf('.');
        groups.computeIfAbsent(dot < 0 ? name : name.substring(0, dot + 1), k -> new java.util.concurrent.atomic.LongAdder()).increment();
    }

    /** "conn.=123 vec.=45 ...", by group name. */
    String actionsByGroup() {
        return new java.util.TreeMap<>(groups).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().sum())
                .collect(java.util.stream.Collectors.joining(" "));
    }

    /** One line per kind of finding with its count, for the summary. */
    Map<String, AtomicLong> findingKinds() {
        return findingKinds;
    }
}
