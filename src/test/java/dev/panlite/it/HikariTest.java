package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import dev.panlite.TestThreads;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver behind HikariCP: what a pool needs from setReadOnly, setAutoCommit, isValid, abort and close. */
class HikariTest {
    @TempDir
    Path dir;

    /** The configuration shown in README.md, section "Use it with… / HikariCP", with the file in a temp folder. */
    HikariConfig config() {
        HikariConfig config = new HikariConfig();
        config.setDriverClassName("dev.panlite.Driver");
        config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("app.db")
                + "?journal_mode=WAL&busy_timeout=10000&transaction_mode=IMMEDIATE");
        config.setMaximumPoolSize(4);
        return config;
    }

    /** {@link #config()} with one connection: a second borrow gets the same one unless it was evicted. */
    HikariConfig poolOfOne() {
        HikariConfig config = config();
        config.setMaximumPoolSize(1);
        return config;
    }

    static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        }
    }

    /**
     * 8 threads through a pool of 4 for about 2 seconds: writers increment a counter by
     * read-modify-write in a transaction (and log each increment), readers check in one read
     * transaction that counter and log agree. No update may be lost.
     */
    @Test
    void eightThreadsThroughAPoolOfFourLoseNoUpdate() throws Exception {
        try (HikariDataSource pool = new HikariDataSource(config())) {
            try (Connection c = pool.getConnection()) {
                exec(c, "CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
                        "CREATE TABLE log(id INTEGER PRIMARY KEY, thread INTEGER NOT NULL)",
                        "INSERT INTO counter VALUES (1, 0)");
            }
            AtomicLong committed = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            long deadline = System.nanoTime() + 2_000_000_000L;
            TestThreads threads = new TestThreads();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                threads.start("worker-" + t, () -> {
                    while (System.nanoTime() < deadline) {
                        if (thread % 2 == 0) {
                            increment(pool, thread);
                            committed.incrementAndGet();
                        } else {
                            checkConsistentRead(pool);
                            reads.incrementAndGet();
                        }
                    }
                });
            }
            threads.join();
            assertTrue(committed.get() > 0 && reads.get() > 0);
            try (Connection c = pool.getConnection()) {
                assertEquals(committed.get(), TestDb.queryLong(c, "SELECT n FROM counter WHERE id = 1"));
                assertEquals(committed.get(), TestDb.queryLong(c, "SELECT count(*) FROM log"));
            }
            assertEquals(0, pool.getHikariPoolMXBean().getActiveConnections());
        }
    }

    private static void increment(HikariDataSource pool, int thread) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            long n;
            try (PreparedStatement read = c.prepareStatement("SELECT n FROM counter WHERE id = 1");
                 ResultSet rs = read.executeQuery()) {
                rs.next();
                n = rs.getLong(1);
            }
            try (PreparedStatement write = c.prepareStatement("UPDATE counter SET n = ? WHERE id = 1");
                 PreparedStatement log = c.prepareStatement("INSERT INTO log(thread) VALUES (?)")) {
                write.setLong(1, n + 1);
                write.executeUpdate();
                log.setInt(1, thread);
                log.executeUpdate();
            }
            c.commit();
        }
    }

    private static void checkConsistentRead(HikariDataSource pool) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            long n = TestDb.queryLong(c, "SELECT n FROM counter WHERE id = 1");
            long logged = TestDb.queryLong(c, "SELECT count(*) FROM log");
            assertEquals(n, logged, "one read transaction sees one snapshot");
            c.commit();
        }
    }

    /** What a borrower changes is undone when the connection goes back to the pool. */
    @Test
    void connectionStateIsResetOnReturn() throws SQLException {
        try (HikariDataSource pool = new HikariDataSource(poolOfOne())) {
            PanliteConnection physical;
            try (Connection c = pool.getConnection()) {
                physical = c.unwrap(PanliteConnection.class);
                exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
                c.setReadOnly(true);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
                c.setAutoCommit(false);
                exec(c, "SELECT * FROM t"); // a read transaction left open at return
            }
            try (Connection c = pool.getConnection()) {
                assertSame(physical, c.unwrap(PanliteConnection.class), "the same physical connection");
                assertTrue(c.getAutoCommit());
                assertFalse(c.isReadOnly());
                assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation());
                exec(c, "INSERT INTO t VALUES (2)"); // writable again
                assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
                assertEquals(0, TestDb.queryLong(c, "PRAGMA read_uncommitted"));
                assertEquals(0, TestDb.queryLong(c, "PRAGMA query_only"));
            }
            try (Connection c = pool.getConnection()) {
                c.setAutoCommit(false);
                exec(c, "INSERT INTO t VALUES (3)"); // never committed: Hikari rolls it back on return
            }
            try (Connection c = pool.getConnection()) {
                assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            }
        }
    }

    /**
     * A connection that died while idle is found by isValid when borrowed, closed and replaced.
     * HikariCP skips that check for connections used in the last 500 ms; the system property (read
     * when a pool is created) turns the window off (-1: even within the same millisecond) so the
     * test needs no sleep.
     */
    @Test
    void aDeadIdleConnectionIsDetectedAndReplaced() throws SQLException {
        HikariConfig config = config();
        config.setMaximumPoolSize(1);
        HikariDataSource pool;
        System.setProperty("com.zaxxer.hikari.aliveBypassWindowMs", "-1");
        try {
            pool = new HikariDataSource(config);
        } finally {
            System.clearProperty("com.zaxxer.hikari.aliveBypassWindowMs");
        }
        try (pool) {
            PanliteConnection dead;
            Connection c = pool.getConnection();
            dead = c.unwrap(PanliteConnection.class);
            dead.close(); // the physical connection dies behind the pool's back
            // HikariCP's reset on return (clearWarnings) meets the closed connection and passes its error on;
            // the 08 SQLState (a connection exception) makes HikariCP evict the connection meanwhile
            SQLException e = assertThrows(java.sql.SQLNonTransientConnectionException.class, c::close);
            assertEquals("08003", e.getSQLState(), e::toString);
            try (Connection fresh = pool.getConnection()) {
                assertNotSame(dead, fresh.unwrap(PanliteConnection.class));
                assertTrue(fresh.isValid(1));
                assertEquals(1, TestDb.queryLong(fresh, "SELECT 1"));
            }
            assertEquals(1, pool.getHikariPoolMXBean().getTotalConnections());
        }
    }

    /** A connection failing with a class 08 SQLState (connection exception) is evicted at once. */
    @Test
    void aConnectionFailingWithAConnectionExceptionIsEvicted() throws SQLException {
        try (HikariDataSource pool = new HikariDataSource(poolOfOne())) {
            PanliteConnection dead;
            try (Connection c = pool.getConnection()) {
                dead = c.unwrap(PanliteConnection.class);
                dead.close();
                SQLException e = assertThrows(SQLException.class, () -> exec(c, "SELECT 1"));
                assertTrue(e.getSQLState().startsWith("08"), e.getSQLState() + ": " + e);
            }
            try (Connection fresh = pool.getConnection()) {
                assertNotSame(dead, fresh.unwrap(PanliteConnection.class));
                assertEquals(1, TestDb.queryLong(fresh, "SELECT 1"));
            }
        }
    }

    /**
     * A feature SQLite lacks is no reason to drop the connection: HikariCP evicts on SQLState 0A000
     * (its ProxyConnection.checkException list), so "not supported" is SQLFeatureNotSupportedException
     * with HYC00, SQL/CLI's "optional feature not implemented".
     */
    @Test
    void aFeatureNotSupportedKeepsTheConnectionInThePool() throws SQLException {
        try (HikariDataSource pool = new HikariDataSource(poolOfOne())) {
            PanliteConnection physical;
            try (Connection c = pool.getConnection();
                 Statement s = c.createStatement();
                 PreparedStatement ps = c.prepareStatement("SELECT ?")) {
                physical = c.unwrap(PanliteConnection.class);
                for (org.junit.jupiter.api.function.Executable notSupported : List.<org.junit.jupiter.api.function.Executable>of(
                        () -> s.setCursorName("c"),
                        () -> ps.setArray(1, null),
                        () -> {
                            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                                rs.previous();
                            }
                        })) {
                    java.sql.SQLFeatureNotSupportedException e =
                            assertThrows(java.sql.SQLFeatureNotSupportedException.class, notSupported);
                    assertEquals("HYC00", e.getSQLState(), e.toString());
                }
            }
            try (Connection c = pool.getConnection()) {
                assertSame(physical, c.unwrap(PanliteConnection.class), "not evicted");
                assertEquals(1, TestDb.queryLong(c, "SELECT 1"));
            }
        }
    }

    /** A read-only pool: HikariCP calls setReadOnly(true) on each new connection, which must not throw. */
    @Test
    void readOnlyPool() throws SQLException {
        try (HikariDataSource writer = new HikariDataSource(config())) {
            try (Connection c = writer.getConnection()) {
                exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
            }
            HikariConfig config = config();
            config.setReadOnly(true);
            try (HikariDataSource readers = new HikariDataSource(config)) {
                try (Connection c = readers.getConnection()) {
                    assertTrue(c.isReadOnly());
                    assertEquals(1, TestDb.queryLong(c, "SELECT count(*) FROM t"));
                    SQLException e = assertThrows(SQLException.class, () -> exec(c, "INSERT INTO t VALUES (2)"));
                    assertEquals(8, e.getErrorCode(), "SQLITE_READONLY: " + e);
                    c.setReadOnly(false); // the borrower may change it; the pool puts it back
                }
                try (Connection c = readers.getConnection()) {
                    assertTrue(c.isReadOnly());
                    assertThrows(SQLException.class, () -> exec(c, "DELETE FROM t"));
                }
                try (Connection c = writer.getConnection()) {
                    exec(c, "INSERT INTO t VALUES (3)"); // the writer pool is not affected
                }
                try (Connection c = readers.getConnection()) {
                    assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
                }
            }
            // The file itself opened read-only (open_mode=1, SQLITE_OPEN_READONLY) behind a read-only pool.
            HikariConfig fileReadOnly = config();
            fileReadOnly.setJdbcUrl("jdbc:sqlite:" + dir.resolve("app.db") + "?open_mode=1");
            fileReadOnly.setReadOnly(true);
            try (HikariDataSource readers = new HikariDataSource(fileReadOnly);
                 Connection c = readers.getConnection()) {
                assertTrue(c.isReadOnly());
                assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
                assertThrows(SQLException.class, () -> exec(c, "INSERT INTO t VALUES (4)"));
            }
        }
    }

    /** Closing the pool closes every physical connection, idle ones and one still borrowed (through abort). */
    @Test
    void shutdownClosesEveryPhysicalConnection() throws SQLException {
        HikariConfig config = config();
        config.setMinimumIdle(4);
        HikariDataSource pool = new HikariDataSource(config);
        List<Connection> borrowed = new ArrayList<>();
        List<PanliteConnection> physical = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Connection c = pool.getConnection();
            borrowed.add(c);
            physical.add(c.unwrap(PanliteConnection.class));
        }
        assertEquals(4, physical.stream().distinct().count());
        for (int i = 0; i < 3; i++) {
            borrowed.get(i).close();
        }
        exec(borrowed.get(3), "CREATE TABLE IF NOT EXISTS t(x)"); // the last one stays borrowed
        pool.close();
        for (PanliteConnection p : physical) {
            assertTrue(p.isClosed(), "physical connection left open: " + p);
        }
        assertTrue(pool.isClosed());
        assertThrows(SQLException.class, pool::getConnection);
    }

    /** HikariCP's other way in: dataSourceClassName plus the DataSource's bean properties. */
    @Test
    void dataSourceClassNameWithBeanProperties() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setDataSourceClassName("dev.panlite.PanliteDataSource");
        config.addDataSourceProperty("url", "jdbc:sqlite:" + dir.resolve("app.db"));
        config.addDataSourceProperty("journalMode", "WAL");
        config.addDataSourceProperty("busyTimeout", "10000");
        config.addDataSourceProperty("foreignKeys", "true");
        config.setUsername("ignored"); // pools pass the user; SQLite has none (a password is an encryption key)
        config.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(config); Connection c = pool.getConnection();
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                rs.next();
                assertEquals("wal", rs.getString(1));
            }
            assertEquals(10000, c.unwrap(PanliteConnection.class).config().busyTimeoutMillis());
            assertEquals(1, TestDb.queryLong(c, "PRAGMA foreign_keys"));
        }
    }
}
