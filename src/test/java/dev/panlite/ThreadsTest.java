package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One connection shared by several threads: calls serialise on the connection lock, and closing
 * it under their feet gives SQLExceptions, never a crash or another kind of exception.
 */
class ThreadsTest {
    static final int THREADS = 8;
    static final long JOIN_MILLIS = 60_000;
    /** No fsync per auto-commit: the tests count rows, they do not pull the plug. */
    static final String FAST = "synchronous=OFF";

    @TempDir
    Path dir;

    /** What each of {@link #start}'s threads runs, given its index. */
    interface Body {
        void run(int index) throws Exception;
    }

    /** Starts {@code n} threads running {@code body(i)}, all released together; join rethrows what they threw. */
    static TestThreads start(int n, Body body) {
        CyclicBarrier go = new CyclicBarrier(n);
        TestThreads threads = new TestThreads();
        for (int i = 0; i < n; i++) {
            int index = i;
            threads.start("threads-test-" + i, () -> {
                go.await(30, TimeUnit.SECONDS);
                body.run(index);
            });
        }
        return threads;
    }

    @Test
    void hammeredConnectionClosedMidway() throws Exception {
        Connection c = TestDb.open(dir, FAST);
        TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, n INTEGER)");
        AtomicInteger done = new AtomicInteger();
        AtomicInteger afterClose = new AtomicInteger();
        CountDownLatch enoughWork = new CountDownLatch(200);
        int iterations = 400;

        TestThreads workers = start(THREADS, index -> {
            for (int i = 0; i < iterations; i++) {
                try {
                    switch ((index + i) % 6) {
                        case 0 -> {
                            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v, n) VALUES (?, ?)")) {
                                ps.setString(1, "t" + index + "-" + i);
                                ps.setInt(2, i);
                                ps.executeUpdate();
                            }
                        }
                        case 1 -> {
                            try (Statement s = c.createStatement()) {
                                s.execute("INSERT INTO t(v, n) VALUES ('s', " + i + ")");
                            }
                        }
                        case 2 -> {
                            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, v, n FROM t")) {
                                int rows = 0;
                                while (rs.next() && rows++ < 50) {
                                    rs.getLong(1);
                                    rs.getString(2);
                                    rs.getObject(3);
                                }
                            }
                        }
                        case 3 -> {
                            try (PreparedStatement ps = c.prepareStatement("SELECT count(*), max(n) FROM t WHERE n >= ?")) {
                                ps.setInt(1, i / 2);
                                try (ResultSet rs = ps.executeQuery()) {
                                    rs.next();
                                    rs.getLong(1);
                                    rs.getMetaData().getColumnCount();
                                }
                            }
                        }
                        case 4 -> {
                            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v, n) VALUES (?, ?)")) {
                                for (int b = 0; b < 3; b++) {
                                    ps.setString(1, "b");
                                    ps.setInt(2, b);
                                    ps.addBatch();
                                }
                                ps.executeBatch();
                            }
                        }
                        default -> {
                            // several statements in one text, and a query read to its end
                            try (Statement s = c.createStatement()) {
                                // one result per statement, in order (README): the UPDATE's count, then the query
                                assertFalse(s.execute("UPDATE t SET n = n + 1 WHERE id = " + i + "; SELECT v FROM t LIMIT 3"));
                                assertTrue(s.getUpdateCount() >= 0);
                                assertTrue(s.getMoreResults());
                                try (ResultSet rs = s.getResultSet()) {
                                    while (rs.next()) {
                                        rs.getString(1);
                                    }
                                }
                                assertFalse(s.getMoreResults());
                                assertEquals(-1, s.getUpdateCount());
                            }
                        }
                    }
                    done.incrementAndGet();
                    enoughWork.countDown();
                } catch (SQLException e) { // the closed connection's error; other kinds fail the test
                    if (c.isClosed()) {
                        afterClose.incrementAndGet();
                    }
                }
            }
        });
        workers.start("threads-test-closer", () -> {
            enoughWork.await(30, TimeUnit.SECONDS);
            c.close();
        });
        workers.join(); // anything but an SQLException from a JDBC call fails here
        assertTrue(c.isClosed(), "the closer did not close the connection");
        assertTrue(done.get() >= 200, "too little work before the close: " + done.get());
        assertTrue(afterClose.get() > 0, "no thread ran into the closed connection; close was not mid-way");
        // the file is intact and holds what was committed
        try (Connection check = TestDb.open(dir, FAST); Statement s = check.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            assertTrue(rs.next());
            assertEquals("ok", rs.getString(1));
        }
    }

    private static long count(Connection c) throws SQLException {
        return TestDb.queryLong(c, "SELECT count(*) FROM t");
    }

    @Test
    void ownStatementsOnASharedConnectionAddUp() throws Exception {
        int n = 200;
        try (Connection c = TestDb.open(dir, FAST)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, thread INTEGER, i INTEGER, UNIQUE(thread, i))");
            TestThreads threads = start(THREADS, index -> {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(thread, i) VALUES (?, ?)")) {
                    for (int i = 0; i < n; i++) {
                        ps.setInt(1, index);
                        ps.setInt(2, i);
                        assertEquals(1, ps.executeUpdate());
                    }
                }
            });
            threads.join();
            assertEquals((long) THREADS * n, count(c));
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT thread, count(*) FROM t GROUP BY thread ORDER BY thread")) {
                for (int t = 0; t < THREADS; t++) {
                    assertTrue(rs.next());
                    assertEquals(t, rs.getInt(1));
                    assertEquals(n, rs.getInt(2));
                }
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void oneSharedPreparedStatementAddsUp() throws Exception {
        int n = 200;
        try (Connection c = TestDb.open(dir, FAST)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)");
            try (PreparedStatement shared = c.prepareStatement("INSERT INTO t(v) VALUES (42)");
                 Statement sharedText = c.createStatement()) {
                TestThreads threads = start(THREADS, index -> {
                    for (int i = 0; i < n; i++) {
                        assertEquals(1, shared.executeUpdate());
                        assertEquals(1, sharedText.executeUpdate("INSERT INTO t(v) VALUES (7)"));
                    }
                });
                threads.join();
            }
            assertEquals(2L * THREADS * n, count(c));
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sum(v = 42), sum(v = 7) FROM t")) {
                assertTrue(rs.next());
                assertEquals((long) THREADS * n, rs.getLong(1));
                assertEquals((long) THREADS * n, rs.getLong(2));
            }
        }
    }

    @Test
    void transactionsFromSeveralThreadsAddUp() throws Exception {
        // explicit transactions interleaving on one connection still leave every row committed
        int n = 100;
        try (Connection c = TestDb.open(dir, FAST)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)");
            c.setAutoCommit(false);
            TestThreads threads = start(THREADS, index -> {
                for (int i = 0; i < n; i++) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                        ps.setInt(1, i);
                        ps.executeUpdate();
                    }
                    if (i % 10 == index) {
                        c.commit(); // commits whatever the other threads inserted too
                    }
                }
            });
            threads.join();
            c.commit();
            c.setAutoCommit(true);
            try (Connection other = TestDb.open(dir, FAST)) {
                assertEquals((long) THREADS * n, count(other), "rows committed, as another connection sees them");
            }
        }
    }

    @Test
    void resultSetReadWhileAnotherThreadCloses() throws Exception {
        Connection c = TestDb.open(dir, FAST);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(
                "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x, 'row ' || x FROM n");
        CountDownLatch reading = new CountDownLatch(1);
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        AtomicInteger rowsRead = new AtomicInteger();
        Thread reader = new Thread(() -> {
            try {
                // an endless result: only the close can end this loop
                while (rs.next()) {
                    rs.getLong(1);
                    rs.getString(2);
                    if (rowsRead.incrementAndGet() == 1000) {
                        reading.countDown();
                    }
                }
                readerFailure.set(new AssertionError("next() returned false on an endless query"));
            } catch (Throwable t) {
                readerFailure.set(t);
            }
        }, "threads-test-reader");
        reader.setDaemon(true);
        reader.start();
        assertTrue(reading.await(30, TimeUnit.SECONDS), "the reader did not start reading");
        c.close();
        reader.join(JOIN_MILLIS);
        assertFalse(reader.isAlive(), () -> "reader still running: " + TestThreads.stack(reader));
        Throwable t = readerFailure.get();
        assertNotNull(t);
        assertInstanceOf(SQLException.class, t, () -> "reader ended with " + t);
        assertTrue(rs.isClosed(), "closing the connection closes its result sets");
        // everything stays safe to touch afterwards
        ErrorsTest.expectSql(rs::next);
        ErrorsTest.expectSql(() -> rs.getString(2));
        rs.close();
        s.close();
    }

    @Test
    void preparedResultSetReadWhileAnotherThreadCloses() throws Exception {
        Connection c = TestDb.open(dir, FAST);
        PreparedStatement ps = c.prepareStatement(
                "WITH RECURSIVE n(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM n) SELECT x, randomblob(16) FROM n");
        ps.setInt(1, 1);
        ResultSet rs = ps.executeQuery();
        CountDownLatch reading = new CountDownLatch(1);
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            int rows = 0;
            try {
                while (rs.next()) {
                    rs.getLong(1);
                    rs.getBytes(2);
                    if (++rows == 1000) {
                        reading.countDown();
                    }
                }
                readerFailure.set(new AssertionError("next() returned false on an endless query"));
            } catch (Throwable t) {
                readerFailure.set(t);
            }
        }, "threads-test-prepared-reader");
        reader.setDaemon(true);
        reader.start();
        assertTrue(reading.await(30, TimeUnit.SECONDS), "the reader did not start reading");
        c.close();
        reader.join(JOIN_MILLIS);
        assertFalse(reader.isAlive(), () -> "reader still running: " + TestThreads.stack(reader));
        Throwable t = readerFailure.get();
        assertInstanceOf(SQLException.class, t, () -> "reader ended with " + t);
        ps.close();
    }
}
