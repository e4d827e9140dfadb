package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process-wide counters metrics read (PanliteStats): statement cache, executions, connections,
 * slow statements. The write gate and busy waits are checked where ContentionTest makes them happen.
 * Deltas are exact: the suite runs one test at a time.
 */
class PanliteStatsTest {
    @TempDir
    Path dir;

    private static void run(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.execute();
        }
    }

    @Test
    void statementCacheCountsOfOpenAndClosedConnectionsAddUp() throws SQLException {
        PanliteStats before = PanliteStats.snapshot();
        PanliteStats opened;
        try (Connection c = TestDb.open(dir, "stmt_cache_size=2")) {
            opened = PanliteStats.snapshot();
            assertEquals(1, opened.connectionsOpened() - before.connectionsOpened());
            // (the reclaimer may close a connection an earlier test leaked at any time: open counts only go down by themselves)
            assertTrue(opened.connectionsOpen() >= 1 && opened.connectionsOpen() <= before.connectionsOpen() + 1);
            run(c, "SELECT 1"); // miss
            run(c, "SELECT 1"); // hit
            run(c, "SELECT 2"); // miss
            run(c, "SELECT 3"); // miss: the cache is full, SELECT 1 goes
            PanliteStats open = PanliteStats.snapshot();
            assertEquals(1, open.cacheHits() - before.cacheHits());
            assertEquals(3, open.cacheMisses() - before.cacheMisses());
            assertEquals(1, open.cacheEvictions() - before.cacheEvictions());
            assertEquals(4, open.executions() - opened.executions()); // after the open: its settings run statements too
            assertEquals(c.unwrap(PanliteConnection.class).statementCacheStats().hits(), open.cacheHits() - before.cacheHits());
        }
        PanliteStats closed = PanliteStats.snapshot(); // the closed connection's counts stay in the totals
        assertEquals(1, closed.cacheHits() - before.cacheHits());
        assertEquals(3, closed.cacheMisses() - before.cacheMisses());
        assertEquals(1, closed.cacheEvictions() - before.cacheEvictions());
        assertEquals(4, closed.executions() - opened.executions());
        assertTrue(closed.connectionsOpen() <= opened.connectionsOpen() - 1);
    }

    @Test
    void statementsAreCountedAsSlowOnlyWhileAThresholdIsSet() throws SQLException {
        assertEquals(Duration.ZERO, PanliteStats.slowStatementThreshold());
        try (Connection c = TestDb.open(dir)) {
            PanliteStats before = PanliteStats.snapshot();
            run(c, "SELECT 1");
            TestDb.exec(c, "CREATE TABLE t(x)");
            assertEquals(before.slowStatements(), PanliteStats.snapshot().slowStatements());
            PanliteStats.setSlowStatementThreshold(Duration.ofNanos(1)); // every statement takes that long
            try {
                run(c, "SELECT 1");
                TestDb.exec(c, "INSERT INTO t VALUES (1)"); // Statement.execute's own path
                assertEquals(2, PanliteStats.snapshot().slowStatements() - before.slowStatements());
                PanliteStats.setSlowStatementThreshold(Duration.ofHours(1));
                run(c, "SELECT 1");
                assertEquals(2, PanliteStats.snapshot().slowStatements() - before.slowStatements());
            } finally {
                PanliteStats.setSlowStatementThreshold(Duration.ZERO);
            }
            assertEquals(5, PanliteStats.snapshot().executions() - before.executions());
        }
        assertThrows(IllegalArgumentException.class, () -> PanliteStats.setSlowStatementThreshold(Duration.ofNanos(-1)));
    }
}
