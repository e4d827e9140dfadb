package dev.panlite.fuzz;

import dev.panlite.PanliteConnectionPoolDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import javax.sql.ConnectionEvent;
import javax.sql.ConnectionEventListener;
import javax.sql.PooledConnection;

/**
 * A pooled connection's lifecycle, held against a new connection: a first borrower does random
 * things through its handle (a transaction begun with SQL and never committed, PRAGMAs, ATTACH,
 * TEMP tables, JDBC setters, a result set left open) and closes it; the next borrower's handle must
 * be in the state a new connection is in, and an auto-commit write through it must be committed at
 * once (a new connection sees it). Each difference is a finding, keyed to the defect it is.
 */
final class DiffPool {
    private DiffPool() {}

    record Finding(String key, String message) {}

    /** PRAGMAs a borrower may set and a new connection has at their defaults (each read back by the probe). */
    static final String[][] PRAGMAS = {
        {"query_only", "1"}, {"foreign_keys", "1"}, {"recursive_triggers", "1"}, {"defer_foreign_keys", "1"},
        {"reverse_unordered_selects", "1"}, {"automatic_index", "0"}, {"cache_size", "-123"}, {"temp_store", "2"},
        {"cell_size_check", "1"}, {"ignore_check_constraints", "1"}, {"legacy_alter_table", "1"}, {"read_uncommitted", "1"},
    };

    /** What the first borrower may do. */
    private enum Action {
        SQL_BEGIN, SQL_BEGIN_IMMEDIATE, SQL_SAVEPOINT, INSERT, JDBC_TX, PRAGMA, ATTACH, TEMP_TABLE, READ_ONLY, ISOLATION,
        HOLDABILITY, OPEN_RESULT, SQL_COMMIT
    }

    /**
     * One lifecycle on {@code file} (a copy of the seed's database; {@code table} is one of its
     * tables). {@code listing} gets the reproduction.
     */
    static List<Finding> run(Random r, Path file, String table, StringBuilder listing) throws SQLException {
        List<Finding> findings = new ArrayList<>();
        String url = "jdbc:sqlite:" + file;
        PanliteConnectionPoolDataSource ds = new PanliteConnectionPoolDataSource(url);
        PooledConnection pc = ds.getPooledConnection();
        List<String> events = new ArrayList<>();
        pc.addConnectionEventListener(new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                events.add("closed");
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                events.add("error " + (event.getSQLException() == null ? "" : event.getSQLException().getSQLState()));
            }
        });
        listing.append("  pc = new PanliteConnectionPoolDataSource(url).getPooledConnection(); h1 = pc.getConnection()\n");
        boolean sqlTx = false;
        try {
            Connection h1 = pc.getConnection();
            int n = 1 + r.nextInt(6);
            Action[] actions = Action.values();
            for (int i = 0; i < n; i++) {
                Action a = actions[r.nextInt(actions.length)];
                String did = act(h1, a, r, table);
                sqlTx |= a == Action.SQL_BEGIN || a == Action.SQL_BEGIN_IMMEDIATE || a == Action.SQL_SAVEPOINT;
                listing.append("  h1: ").append(did).append('\n');
            }
            SQLException closeFailed = null;
            try {
                h1.close();
                listing.append("  h1.close() -> events ").append(events).append('\n');
            } catch (SQLException e) {
                closeFailed = e;
                listing.append("  h1.close() threw ").append(DiffRunner.exception(e)).append(" ").append(e.getMessage())
                        .append(" -> events ").append(events).append('\n');
            }
            if (events.isEmpty()) {
                findings.add(new Finding(sqlTx ? "3" : null, "closing the handle sent no event"));
                return findings;
            }
            if (!events.get(events.size() - 1).equals("closed")) {
                return findings; // connectionErrorOccurred: a pool drops this connection, nothing more to hold it to
            }
            if (closeFailed != null) { // what the next borrower finds then is this defect's consequence
                findings.add(new Finding("3", "h1.close() threw " + DiffRunner.exception(closeFailed) + " ("
                        + closeFailed.getMessage() + "), yet the pool was told connectionClosed: it reuses a connection"
                        + " whose reset did not complete"));
                return findings;
            }
            Connection h2;
            try {
                h2 = pc.getConnection();
            } catch (SQLException e) {
                findings.add(new Finding(sqlTx ? "3" : null, "h1's close sent connectionClosed, yet the next getConnection() threw "
                        + DiffRunner.exception(e) + ": " + e.getMessage()));
                return findings;
            }
            listing.append("  h2 = pc.getConnection(); its state compared with a new connection's (ds.getConnection())\n");
            Map<String, String> pooled = probe(h2);
            Map<String, String> fresh;
            try (Connection c = ds.getConnection()) {
                fresh = probe(c);
            }
            for (Map.Entry<String, String> e : fresh.entrySet()) {
                String got = pooled.get(e.getKey());
                if (!e.getValue().equals(got)) {
                    findings.add(new Finding(keyOf(e.getKey(), sqlTx), "the next borrower's " + e.getKey() + " is " + got
                            + ", a new connection's " + e.getValue()));
                }
            }
            // an auto-commit write through the next borrower's handle is committed: a new connection sees it
            long before = count(url, table);
            listing.append("  h2: INSERT INTO " + table + " DEFAULT VALUES (auto-commit); a new connection counts the rows\n");
            boolean inserted;
            try (Statement s = h2.createStatement()) {
                s.executeUpdate("INSERT INTO " + table + " DEFAULT VALUES");
                inserted = true;
            } catch (SQLException e) {
                inserted = false;
                findings.add(new Finding(pooled.getOrDefault("pragma query_only", "").equals(fresh.get("pragma query_only")) ? null : "13",
                        "the next borrower's auto-commit INSERT failed (a new connection's would not): "
                                + DiffRunner.exception(e) + ": " + e.getMessage()));
            }
            if (inserted) {
                long after = count(url, table);
                if (after != before + 1) {
                    findings.add(new Finding("2", "the next borrower's auto-commit INSERT returned, but a new connection counts "
                            + after + " rows, not " + (before + 1) + ": it was not committed"));
                }
            }
            h2.close();
        } finally {
            pc.close();
        }
        return findings;
    }

    private static String keyOf(String probe, boolean sqlTx) {
        if (probe.equals("SQLite in a transaction") || probe.equals("autoCommit")) {
            return "2";
        }
        if (probe.startsWith("pragma ") || probe.equals("databases") || probe.equals("temp tables")) {
            return "13";
        }
        return sqlTx ? "3" : null; // a JDBC setting left over: the reset failed (item 3) or forgot it
    }

    private static String act(Connection h, Action a, Random r, String table) {
        String what = switch (a) {
            case SQL_BEGIN -> "execute(\"BEGIN\")";
            case SQL_BEGIN_IMMEDIATE -> "execute(\"BEGIN IMMEDIATE\")";
            case SQL_SAVEPOINT -> "execute(\"SAVEPOINT s\")";
            case INSERT -> "executeUpdate(\"INSERT INTO " + table + " DEFAULT VALUES\")";
            case JDBC_TX -> "setAutoCommit(false); INSERT INTO " + table + " DEFAULT VALUES";
            case PRAGMA -> {
                String[] p = PRAGMAS[r.nextInt(PRAGMAS.length)];
                yield "execute(\"PRAGMA " + p[0] + " = " + p[1] + "\")";
            }
            case ATTACH -> "execute(\"ATTACH DATABASE ':memory:' AS aux" + r.nextInt(3) + "\")";
            case TEMP_TABLE -> "execute(\"CREATE TEMP TABLE IF NOT EXISTS tt(a); INSERT INTO tt VALUES (1)\")";
            case READ_ONLY -> "setReadOnly(true)";
            case ISOLATION -> "setTransactionIsolation(TRANSACTION_READ_UNCOMMITTED)";
            case HOLDABILITY -> "setHoldability(CLOSE_CURSORS_AT_COMMIT)";
            case OPEN_RESULT -> "executeQuery(\"SELECT * FROM " + table + "\").next(), left open";
            case SQL_COMMIT -> "execute(\"COMMIT\")";
        };
        try {
            switch (a) {
                case SQL_BEGIN -> exec(h, "BEGIN");
                case SQL_BEGIN_IMMEDIATE -> exec(h, "BEGIN IMMEDIATE");
                case SQL_SAVEPOINT -> exec(h, "SAVEPOINT s");
                case INSERT -> exec(h, "INSERT INTO " + table + " DEFAULT VALUES");
                case JDBC_TX -> {
                    h.setAutoCommit(false);
                    exec(h, "INSERT INTO " + table + " DEFAULT VALUES");
                }
                case PRAGMA, ATTACH -> exec(h, what.substring("execute(\"".length(), what.length() - 2));
                case TEMP_TABLE -> {
                    exec(h, "CREATE TEMP TABLE IF NOT EXISTS tt(a)");
                    exec(h, "INSERT INTO tt VALUES (1)");
                }
                case READ_ONLY -> h.setReadOnly(true);
                case ISOLATION -> h.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
                case HOLDABILITY -> h.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
                case OPEN_RESULT -> h.createStatement().executeQuery("SELECT * FROM " + table).next();
                case SQL_COMMIT -> exec(h, "COMMIT");
            }
            return what;
        } catch (SQLException e) {
            return what + " threw " + DiffRunner.exception(e) + " (" + e.getMessage() + ")";
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** What a new connection has and a borrower may change, as text. */
    static Map<String, String> probe(Connection c) throws SQLException {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("autoCommit", String.valueOf(c.getAutoCommit()));
        m.put("readOnly", String.valueOf(c.isReadOnly()));
        m.put("transactionIsolation", String.valueOf(c.getTransactionIsolation()));
        m.put("holdability", String.valueOf(c.getHoldability()));
        try (Statement s = c.createStatement()) {
            for (String[] p : PRAGMAS) {
                try (ResultSet rs = s.executeQuery("PRAGMA " + p[0])) {
                    m.put("pragma " + p[0], rs.next() ? rs.getString(1) : "(no row)");
                }
            }
            TreeSet<String> dbs = new TreeSet<>();
            // temp: listed once a TEMP table was ever made; what it holds is the next probe's
            try (ResultSet rs = s.executeQuery("SELECT name FROM pragma_database_list WHERE name <> 'temp'")) {
                while (rs.next()) {
                    dbs.add(rs.getString(1));
                }
            }
            m.put("databases", dbs.toString());
            StringBuilder temp = new StringBuilder();
            List<String> names = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT name FROM temp.sqlite_schema WHERE type = 'table' ORDER BY name")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String n : names) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM temp.\"" + n + "\"")) {
                    rs.next();
                    temp.append(n).append(" (").append(rs.getLong(1)).append(" rows) ");
                }
            }
            m.put("temp tables", temp.toString().strip());
            // SQLite's own transaction state: BEGIN fails inside a transaction (and changes nothing); else undo it
            String inTx;
            if (c.getAutoCommit()) {
                try {
                    s.execute("BEGIN DEFERRED");
                    s.execute("ROLLBACK");
                    inTx = "false";
                } catch (SQLException e) {
                    inTx = "true (" + e.getMessage() + ")";
                }
            } else {
                inTx = "(auto-commit off)";
            }
            m.put("SQLite in a transaction", inTx);
        }
        return m;
    }

    private static long count(String url, String table) throws SQLException {
        try (Connection c = new dev.panlite.Driver().connect(url, new java.util.Properties());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
