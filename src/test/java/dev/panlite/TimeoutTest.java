package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Query timeouts and cancel(): both through sqlite3_interrupt, told apart by the exception. */
class TimeoutTest {
    /** Never ends on its own: only an interrupt stops it. */
    static final String ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
    /** The same with a parameter, for PreparedStatement. */
    static final String ENDLESS_PARAM = "WITH RECURSIVE c(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
    /** Bounded but long enough (a few hundred ms) to be interrupted if a stale interrupt were around. */
    static final String LONG_BOUNDED =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) FROM c";
    static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir, "synchronous=OFF");
    }

    @AfterEach
    void close() throws Exception {
        // abort: interrupts a query a failed test may have left running, so closing cannot hang
        Thread[] closer = new Thread[1];
        c.abort(task -> {
            closer[0] = new Thread(task, "timeout-test-closer");
            closer[0].setDaemon(true);
            closer[0].start();
        });
        if (closer[0] != null) {
            closer[0].join(LIMIT.toMillis());
            assertFalse(closer[0].isAlive(), "closing the connection hung");
        }
        assertTrue(c.isClosed());
    }

    private void assertConnectionWorks() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 6 * 7")) {
            assertTrue(rs.next());
            assertEquals(42, rs.getInt(1));
        }
        // no timeout now: a long query must run to its end, not meet a stale interrupt or timer
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(LONG_BOUNDED)) {
            assertTrue(rs.next());
            assertEquals(300000, rs.getInt(1));
        }
        try (PreparedStatement ps = c.prepareStatement(LONG_BOUNDED); ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            assertEquals(300000, rs.getInt(1));
        }
    }

    private static void assertTimedOut(SQLException e) {
        assertInstanceOf(SQLTimeoutException.class, e, e::toString);
        assertEquals(9, e.getErrorCode(), e::toString);
    }

    @Test
    void statementTimeout() throws SQLException {
        SQLException e = assertTimeoutPreemptively(LIMIT, () -> ErrorsTest.expectSql(() -> {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(1);
                s.executeQuery(ENDLESS).close();
            }
        }));
        assertTimedOut(e);
        assertConnectionWorks();
    }

    @Test
    void statementTimeoutViaExecute() throws SQLException {
        SQLException e = assertTimeoutPreemptively(LIMIT, () -> ErrorsTest.expectSql(() -> {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(1);
                s.execute("CREATE TABLE t(x); " + ENDLESS);
            }
        }));
        assertTimedOut(e);
        assertConnectionWorks();
    }

    @Test
    void preparedStatementTimeout() throws SQLException {
        SQLException e = assertTimeoutPreemptively(LIMIT, () -> ErrorsTest.expectSql(() -> {
            try (PreparedStatement ps = c.prepareStatement(ENDLESS_PARAM)) {
                ps.setQueryTimeout(1);
                ps.setInt(1, 1);
                ps.executeQuery().close();
            }
        }));
        assertTimedOut(e);
        assertConnectionWorks();
        // the same cached statement text again, without a timeout, runs to its end
        try (PreparedStatement ps = c.prepareStatement(
                "WITH RECURSIVE c(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) FROM c")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(300000, rs.getInt(1));
            }
        }
    }

    @Test
    void preparedUpdateTimeout() throws SQLException {
        TestDb.exec(c, "CREATE TABLE t(x)");
        SQLException e = assertTimeoutPreemptively(LIMIT, () -> ErrorsTest.expectSql(() -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c")) {
                ps.setQueryTimeout(1);
                ps.executeUpdate();
            }
        }));
        assertTimedOut(e);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "the interrupted INSERT must be rolled back");
        }
        assertConnectionWorks();
    }

    @Test
    void timeoutWhileReadingRows() throws SQLException {
        // the timeout also covers the steps that next() takes (a slow row in the middle of a result)
        SQLException e = assertTimeoutPreemptively(LIMIT, () -> ErrorsTest.expectSql(() -> {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(1);
                try (ResultSet rs = s.executeQuery("SELECT 1 UNION ALL SELECT * FROM (" + ENDLESS + ")")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
            }
        }));
        assertTimedOut(e);
        assertConnectionWorks();
    }

    // A timeout that fired after its statement ended (it must not interrupt a later one), and one that
    // never fires (nothing is left behind): engine.StaleTimeoutTest, with a signal instead of a clock.

    @Test
    void cancelFromAnotherThread() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        try (Statement s = c.createStatement()) {
            Thread runner = new Thread(() -> {
                try {
                    started.countDown();
                    s.executeQuery(ENDLESS).close();
                    outcome.set(new AssertionError("the endless query returned"));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }, "timeout-test-runner");
            runner.setDaemon(true);
            runner.start();
            assertTrue(started.await(30, TimeUnit.SECONDS));
            // keep cancelling until the query is over: a cancel before the step begins has nothing to stop
            long deadline = System.currentTimeMillis() + LIMIT.toMillis();
            while (runner.isAlive() && System.currentTimeMillis() < deadline) {
                s.cancel();
                runner.join(50);
            }
            assertFalse(runner.isAlive(), "cancel() did not stop the query");
        }
        Throwable t = outcome.get();
        SQLException e = assertInstanceOf(SQLException.class, t, () -> "runner ended with " + t);
        assertFalse(e instanceof SQLTimeoutException, "cancel is not a timeout: " + e);
        assertEquals("57014", e.getSQLState(), e::toString);
        assertEquals(9, e.getErrorCode(), e::toString);
        assertConnectionWorks();
    }

    @Test
    void cancelAfterATimeoutIsNotATimeout() throws Exception {
        // a timeout earlier on the connection must not make a later cancel look like a timeout
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            assertTimedOut(assertTimeoutPreemptively(LIMIT, () -> ErrorsTest.expectSql(() -> s.executeQuery(ENDLESS))));
        }
        try (PreparedStatement ps = c.prepareStatement(ENDLESS_PARAM)) {
            ps.setInt(1, 1);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread runner = new Thread(() -> {
                try {
                    ps.executeQuery().close();
                    outcome.set(new AssertionError("the endless query returned"));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }, "timeout-test-runner-2");
            runner.setDaemon(true);
            runner.start();
            long deadline = System.currentTimeMillis() + LIMIT.toMillis();
            while (runner.isAlive() && System.currentTimeMillis() < deadline) {
                ps.cancel();
                runner.join(50);
            }
            assertFalse(runner.isAlive(), "cancel() did not stop the query");
            Throwable t = outcome.get();
            SQLException e = assertInstanceOf(SQLException.class, t, () -> "runner ended with " + t);
            assertFalse(e instanceof SQLTimeoutException, "cancel is not a timeout: " + e);
            assertEquals("57014", e.getSQLState());
        }
        assertConnectionWorks();
    }

    @Test
    void noTimeoutNoThreads() throws SQLException {
        TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)");
        // warm up everything that may start threads of its own (class loading, the helper)
        runUntimed(10);
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        runUntimed(1000);
        Set<Thread> after = new HashSet<>(Thread.getAllStackTraces().keySet());
        after.removeAll(before);
        after.removeIf(t -> !t.isAlive());
        assertTrue(after.isEmpty(), () -> "queries without a timeout started threads: " + after);
    }

    /** The names of the threads that appeared in a {@link TimeoutThreadsChild} JVM that ran to its end. */
    private static List<String> threadsIn(ChildJvm.Output child) {
        child.assertSameEngine();
        assertTrue(child.text().lines().anyMatch("done"::equals), () -> "child JVM did not finish its work:\n" + child.text());
        return child.text().lines().filter(l -> l.startsWith("thread=")).map(l -> l.substring("thread=".length())).toList();
    }

    @Test
    void noTimeoutNoSchedulerThreadInAFreshJvm() throws Exception {
        // two fresh JVMs side by side: without a timeout, and (the control) with one
        Process timed = ChildJvm.of(TimeoutThreadsChild.class).args("timed").start();
        List<String> untimed = threadsIn(ChildJvm.of(TimeoutThreadsChild.class).run());
        assertTrue(untimed.isEmpty(), () -> "1000 statements without a timeout started threads: " + untimed);
        List<String> seen = threadsIn(ChildJvm.finish(timed));
        assertTrue(seen.contains("panlite-query-timeout"), () -> "the scheduler thread was not seen: " + seen);
    }

    private void runUntimed(int n) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)");
             PreparedStatement select = c.prepareStatement("SELECT count(*) FROM t WHERE v < ?");
             Statement s = c.createStatement()) {
            for (int i = 0; i < n; i++) {
                insert.setInt(1, i);
                insert.executeUpdate();
                select.setInt(1, i);
                try (ResultSet rs = select.executeQuery()) {
                    assertTrue(rs.next());
                }
                try (ResultSet rs = s.executeQuery("SELECT max(v) FROM t")) {
                    assertTrue(rs.next());
                    assertNotNull(rs.getObject(1));
                }
            }
        }
    }

    @Test
    void negativeTimeoutIsRejected() throws SQLException {
        try (Statement s = c.createStatement()) {
            ErrorsTest.expectSql(() -> s.setQueryTimeout(-1));
            assertEquals(0, s.getQueryTimeout());
        }
    }
}
