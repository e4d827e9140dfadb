package dev.panlite;

import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Opening test databases: a real SQLite file in a JUnit temp directory, through the driver. */
public final class TestDb {
    private TestDb() {}

    /** The URL of {@code name} in {@code dir}, with an optional query string ("" for none). */
    public static String url(Path dir, String name, String query) {
        return "jdbc:sqlite:" + dir.resolve(name) + (query == null || query.isEmpty() ? "" : "?" + query);
    }

    /** A connection to {@code test.db} in {@code dir}. */
    public static Connection open(Path dir) throws SQLException {
        return open(dir, "");
    }

    /** A connection to {@code test.db} in {@code dir} with settings in {@code query} (e.g. "stmt_cache_size=0"). */
    public static Connection open(Path dir, String query) throws SQLException {
        return new Driver().connect(url(dir, "test.db", query), new Properties());
    }

    /**
     * Holds {@code c}'s connection on another thread, inside a function ({@code hold()}) a query of
     * that thread calls, from the return of this method until {@link ConnectionHold#close}: what
     * another thread then does on the connection must wait for it, or not need it.
     */
    public static ConnectionHold holdConnection(Connection c) throws Exception {
        return new ConnectionHold(c);
    }

    /** See {@link #holdConnection}. */
    public static final class ConnectionHold implements AutoCloseable {
        private final java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        private final Thread holder;

        private ConnectionHold(Connection c) throws Exception {
            c.unwrap(PanliteConnection.class).createFunction("hold", 0, false, args -> {
                inside.countDown();
                release.await();
                return 1;
            });
            holder = new Thread(() -> {
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT hold()").close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            holder.start();
            inside.await();
        }

        /**
         * Waits until {@code t} parks (waiting for the connection, or anything else) or ends, and says
         * which: a thread that needs the connection parks while it is held.
         */
        public static Thread.State parkedOrEnded(Thread t) {
            Thread.State state;
            while ((state = t.getState()) != Thread.State.WAITING && state != Thread.State.TERMINATED) {
                Thread.onSpinWait();
            }
            return state;
        }

        /** Lets the holder's query end, and waits for it. */
        @Override
        public void close() throws InterruptedException {
            release.countDown();
            holder.join();
        }
    }

    /** Runs each SQL text (each may hold several statements). */
    public static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        }
    }

    /** Reads one value of the current row. */
    public interface Column<T> {
        T get(ResultSet rs) throws SQLException;
    }

    /** What {@code column} reads from the one row {@code sql} returns; fails on no row or on a second. */
    public static <T> T queryOne(Connection c, String sql, Column<T> column) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), () -> "no row from " + sql);
            T value = column.get(rs);
            assertFalse(rs.next(), () -> "more than one row from " + sql);
            return value;
        }
    }

    /** The first column of the one row {@code sql} returns, as a long. */
    public static long queryLong(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getLong(1));
    }

    /** The first column of the one row {@code sql} returns, as a String. */
    public static String queryString(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getString(1));
    }

    /** The first column of the one row {@code sql} returns, as getObject gives it. */
    public static Object queryObject(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getObject(1));
    }
}
