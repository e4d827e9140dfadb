package dev.panlite;

import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

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

    /** How long the helpers below wait at most: a hang guard, not a timing. */
    public static final long GUARD_MILLIS = 60_000;

    /**
     * The engine's side of {@code c} (a connection of this driver, or a pooled handle of one), for a
     * test that looks at its state. It does not keep {@code c} reachable.
     */
    public static Engine engine(Connection c) throws Exception {
        java.lang.reflect.Field db = dev.panlite.jdbc.JdbcConnection.class.getDeclaredField("db");
        db.setAccessible(true);
        return new Engine(db.get(c.unwrap(dev.panlite.jdbc.JdbcConnection.class)));
    }

    /** See {@link #engine}. */
    public static final class Engine {
        private final dev.panlite.engine.Database db;
        private final ReentrantLock lock; // what every native call on the connection takes

        private Engine(Object db) throws Exception {
            this.db = (dev.panlite.engine.Database) db;
            java.lang.reflect.Field lock = dev.panlite.engine.Database.class.getDeclaredField("lock");
            lock.setAccessible(true);
            this.lock = (ReentrantLock) lock.get(db);
        }

        /** Closed, or closing. */
        public boolean isClosed() {
            return db.isClosed();
        }

        /** Waits until a close another thread is carrying out is done (it holds the connection's lock throughout). */
        public void awaitCloseDone() {
            try (var held = db.hold()) {
                // taking the lock is the wait
            }
        }

        /**
         * Waits until {@code t} is queued for the connection's lock (true) or has ended without (false):
         * the signal that a thread needs the connection another thread holds, rather than the thread's
         * state (a thread parks for other reasons too). Fails when neither happens within the guard.
         */
        public boolean awaitQueued(Thread t) throws InterruptedException {
            long deadline = System.nanoTime() + GUARD_MILLIS * 1_000_000;
            while (!lock.hasQueuedThread(t)) {
                if (!t.isAlive()) {
                    return false;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError(t.getName() + " neither waits for the connection nor ended:" + TestThreads.stack(t));
                }
                Thread.sleep(1);
            }
            return true;
        }
    }

    /** {@link Engine#awaitQueued} on {@code c}. */
    public static boolean awaitQueued(Connection c, Thread t) throws Exception {
        return engine(c).awaitQueued(t);
    }

    /**
     * Holds {@code c}'s connection on another thread, inside a function ({@code hold()}) a query of
     * that thread calls, from the return of this method until {@link ConnectionHold#close}: what
     * another thread then does on the connection must wait for it, or not need it. Fails (rather than
     * hangs) when the holder does not get there; {@link ConnectionHold#close} rethrows what it threw.
     */
    public static ConnectionHold holdConnection(Connection c) throws Exception {
        return new ConnectionHold(c);
    }

    /** See {@link #holdConnection}. */
    public static final class ConnectionHold implements AutoCloseable {
        private final CountDownLatch inside = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final TestThreads holder = new TestThreads();
        private final Engine engine;
        private volatile boolean held;

        private ConnectionHold(Connection c) throws Exception {
            engine = engine(c);
            c.unwrap(PanliteConnection.class).createFunction("hold", 0, false, args -> {
                held = true;
                inside.countDown();
                if (!release.await(GUARD_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the ConnectionHold was not closed within the guard");
                }
                return 1;
            });
            holder.start("connection-holder", () -> {
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT hold()").close();
                } finally {
                    inside.countDown(); // failed before hold(): the constructor must not wait for it
                }
            });
            boolean there = inside.await(GUARD_MILLIS, TimeUnit.MILLISECONDS);
            if (!there || !held) {
                release.countDown();
                holder.join(); // rethrows what the holder threw
                throw new AssertionError(there ? "the holder's query ended without calling hold()"
                        : "the holder did not reach hold() within the guard");
            }
        }

        /** {@link Engine#awaitQueued} on the held connection. */
        public boolean awaitQueued(Thread t) throws InterruptedException {
            return engine.awaitQueued(t);
        }

        /** Lets the holder's query end, waits for it, and rethrows what it threw. */
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
    /** The names PRAGMA database_list gives, in order, separated by spaces ("main", "main temp"). */
    public static String databaseList(Connection c) throws SQLException {
        StringBuilder names = new StringBuilder();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM pragma_database_list")) {
            while (rs.next()) {
                names.append(names.isEmpty() ? "" : " ").append(rs.getString(1));
            }
        }
        return names.toString();
    }

    public static String queryString(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getString(1));
    }

    /** The first column of the one row {@code sql} returns, as getObject gives it. */
    public static Object queryObject(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getObject(1));
    }
}
