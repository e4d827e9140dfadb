package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.engine.Reclaimer;
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

/** A connection that becomes unreachable without close() is closed by the Reclaimer: rolled back, finalized, closed. */
class LeakedConnectionTest {
    @TempDir
    Path dir;

    /** Opens a connection, begins a write transaction with a statement and a result set open, and drops it all. */
    private void leakOne(String query) throws SQLException {
        Connection c = TestDb.open(dir, query);
        c.setAutoCommit(false);
        Statement s = c.createStatement();
        s.executeUpdate("INSERT INTO t VALUES (99)"); // holds the write lock until rolled back
        ResultSet rs = c.prepareStatement("SELECT x FROM t").executeQuery();
        rs.next();
    }

    /** Collects garbage until {@code done} holds; gives up after a minute (a hang guard, not a timing). */
    private static void collectUntil(java.util.function.BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 600 && !done.getAsBoolean(); i++) {
            System.gc();
            Thread.sleep(100);
        }
    }

    @Test
    void aLeakedConnectionIsRolledBackAndClosed() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        int before = Reclaimer.openConnections();
        leakOne("busy_timeout=0");
        assertEquals(before + 1, Reclaimer.openConnections());
        collectUntil(() -> Reclaimer.openConnections() == before);
        assertEquals(before, Reclaimer.openConnections());
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
        leakOne("busy_timeout=0");
        try (Connection c = TestDb.open(dir, "busy_timeout=60000"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t VALUES (1)");
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
                SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
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
            int before = Reclaimer.openConnections();
            leakOne("leak_warning=true");
            collectUntil(() -> Reclaimer.openConnections() == before);
            synchronized (handler) {
                assertEquals(1, records.size());
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
