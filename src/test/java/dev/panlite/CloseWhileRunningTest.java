package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * close, abort and cancel from another thread while a statement steps: the running call finishes
 * or fails with an SQLException, and native memory is freed only once it has left SQLite.
 */
class CloseWhileRunningTest {
    /** A query that runs until interrupted: a function tells when it is inside SQLite. */
    private static final String ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
            + "SELECT count(*) FROM n WHERE started(i) >= 0";

    @TempDir
    Path dir;

    private static Connection withStartSignal(Connection c, CountDownLatch started) throws SQLException {
        c.unwrap(PanliteConnection.class).createFunction("started", 1, false, args -> {
            started.countDown();
            return 1;
        });
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"close", "abort", "cancel", "closeStatement"})
    void stopARunningQueryFromAnotherThread(String how) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Connection c = withStartSignal(TestDb.open(dir), started);
        PreparedStatement ps = c.prepareStatement(ENDLESS);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Throwable> query = pool.submit(() -> {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new AssertionError("an endless query returned");
                } catch (Throwable t) {
                    return t;
                }
            });
            assertTrue(started.await(60, TimeUnit.SECONDS), "the query never started");
            switch (how) {
                case "close" -> c.close(); // interrupts, then frees under the lock
                case "abort" -> {
                    ExecutorService closer = Executors.newSingleThreadExecutor();
                    c.abort(closer); // returns at once; the closing happens when the query has left
                    assertTrue(c.isClosed());
                    closer.shutdown();
                    assertTrue(closer.awaitTermination(60, TimeUnit.SECONDS));
                }
                case "cancel" -> ps.cancel();
                default -> {
                    ps.cancel();
                    ps.close();
                }
            }
            Throwable outcome = query.get(60, TimeUnit.SECONDS);
            assertTrue(outcome instanceof SQLException, "not an SQLException: " + outcome);
            if (how.equals("cancel")) { // the connection lives on
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 42")) {
                    assertTrue(rs.next());
                    assertEquals(42, rs.getInt(1));
                }
            }
        } finally {
            pool.shutdownNow();
            c.close();
        }
        assertTrue(c.isClosed());
    }

    @Test
    void readersOfAClosedConnectionGetSqlExceptions() throws Exception {
        Connection c = TestDb.open(dir);
        TestDb.exec(c, "CREATE TABLE t(x)", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 1000) "
                + "INSERT INTO t SELECT i FROM n");
        PreparedStatement ps = c.prepareStatement("SELECT x, x * 2 AS twice FROM t");
        ResultSet rs = ps.executeQuery();
        assertTrue(rs.next());
        java.sql.ResultSetMetaData meta = rs.getMetaData(); // a copy: readable after close
        c.close();
        assertEquals("twice", meta.getColumnLabel(2));
        for (ThrowingCall call : new ThrowingCall[] {rs::next, () -> rs.getInt(1), () -> rs.findColumn("twice"),
                rs::getMetaData, () -> rs.getString("x"), ps::executeQuery}) {
            try {
                call.run();
                fail("a call on a closed connection succeeded");
            } catch (SQLException expected) {
                assertFalse(expected.getMessage().isEmpty());
            }
        }
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }
}
