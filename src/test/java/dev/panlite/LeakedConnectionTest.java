package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.engine.Reclaimer;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection that becomes unreachable without close() is closed by the Reclaimer: rolled back,
 * finalized, closed. Each test follows the very connection it leaked (its engine object, which does
 * not keep it reachable), never the process-wide count a chance collection of another connection
 * could satisfy.
 */
class LeakedConnectionTest {
    @TempDir
    Path dir;

    /** A connection the test dropped: what tells whether it was reclaimed, never the connection itself. */
    private record Leaked(WeakReference<Connection> connection, TestDb.Engine db) {}

    /** Opens a connection, begins a write transaction with a statement and a result set open, and drops it all. */
    private Leaked leakOne(String query) throws Exception {
        Connection c = TestDb.open(dir, query);
        c.setAutoCommit(false);
        Statement s = c.createStatement();
        s.executeUpdate("INSERT INTO t VALUES (99)"); // holds the write lock until rolled back
        ResultSet rs = c.prepareStatement("SELECT x FROM t").executeQuery();
        rs.next();
        return new Leaked(new WeakReference<>(c), TestDb.engine(c));
    }

    /**
     * Collects until the leaked connection is unreachable (the test's own weak reference is cleared:
     * the collection that did it also enqueued the Reclaimer's reference), then waits for the
     * Reclaimer to close that connection, without collecting any more. Fails if it never does (a
     * hang guard, not a timing).
     */
    private static void awaitReclaimed(Leaked leaked) throws InterruptedException {
        long deadline = System.nanoTime() + TestDb.GUARD_MILLIS * 1_000_000;
        while (leaked.connection().get() != null) {
            assertTrue(System.nanoTime() - deadline < 0, "the leaked connection stayed reachable (the test keeps it?)");
            System.gc();
            Thread.sleep(10);
        }
        while (!leaked.db().isClosed()) {
            assertTrue(System.nanoTime() - deadline < 0, "the Reclaimer did not close the leaked connection");
            Thread.sleep(10);
        }
        leaked.db().awaitCloseDone();
    }

    @Test
    void aLeakedConnectionIsRolledBackAndClosed() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        Leaked leaked = leakOne("busy_timeout=0");
        assertFalse(leaked.db().isClosed());
        try (Connection c = TestDb.open(dir, "busy_timeout=0"); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (1)"), "the leaked one holds the write lock");
        }
        awaitReclaimed(leaked);
        try (Connection c = TestDb.open(dir, "busy_timeout=0"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t VALUES (1)"); // the leaked write lock is gone
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE x = 99")) {
                rs.next();
                assertEquals(0, rs.getInt(1)); // rolled back
            }
        }
    }

    /**
     * A connection leaked inside a write transaction holds the write gate; a writer queued behind it
     * gets the gate once the leaked one is reclaimed, without anyone else asking for a collection
     * (Reclaimer: the waiting writer asks after a second). Before, it timed out (the heap of a test
     * JVM is rarely collected within its busy_timeout).
     */
    @Test
    void aWriterQueuedBehindALeakedWriteTransactionGetsTheGate() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        Leaked leaked = leakOne("busy_timeout=0");
        try (Connection c = TestDb.open(dir, "busy_timeout=60000"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t VALUES (1)");
            assertTrue(leaked.db().isClosed(), "the writer got the gate, but not from the leaked connection's close");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE x = 99")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the leaked transaction was rolled back");
            }
        }
    }

    /** A holder that is still reachable keeps its transaction, however long a writer waits behind it. */
    @Test
    void aReachableHolderKeepsItsTransaction() throws Exception {
        try (Connection holder = TestDb.open(dir)) {
            TestDb.exec(holder, "CREATE TABLE t(x)");
            holder.setAutoCommit(false);
            TestDb.exec(holder, "INSERT INTO t VALUES (7)");
            try (Connection c = TestDb.open(dir, "busy_timeout=2500"); Statement s = c.createStatement()) {
                SQLException e = assertThrows(SQLException.class,
                        () -> s.executeUpdate("INSERT INTO t VALUES (1)"));
                assertTrue(e.getMessage().contains("write gate"), e.toString());
            }
            holder.commit();
            try (Statement s = holder.createStatement(); ResultSet rs = s.executeQuery("SELECT x FROM t")) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
        }
    }

    @Test
    void leakWarningNamesWhereTheConnectionWasOpened() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger(Reclaimer.class.getName());
        logger.addHandler(handler);
        try {
            awaitReclaimed(leakOne("leak_warning=true")); // logged before the close
            synchronized (handler) {
                assertEquals(1, records.size(), () -> "records: " + records);
                LogRecord r = records.get(0);
                assertTrue(r.getMessage().contains("never closed"), r.getMessage());
                StackTraceElement[] where = r.getThrown().getStackTrace();
                assertTrue(java.util.Arrays.stream(where).anyMatch(e -> e.getMethodName().equals("leakOne")));
            }
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void closedConnectionsLeaveNothingToReclaim() throws Exception {
        int before = Reclaimer.openConnections();
        for (int i = 0; i < 10; i++) {
            try (Connection c = TestDb.open(dir)) {
                TestDb.exec(c, "SELECT 1");
            }
        }
        assertEquals(before, Reclaimer.openConnections());
    }
}
