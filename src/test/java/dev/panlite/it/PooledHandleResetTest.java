package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ChangeListener;
import dev.panlite.PanliteConnection;
import dev.panlite.PanliteConnectionPoolDataSource;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A logical handle of a pooled connection puts back everything its user changed when it closes, so
 * the next borrower starts as on a new connection (HikariCP's dirty bits do the same for its pool).
 */
class PooledHandleResetTest {
    @TempDir
    Path dir;

    PooledConnection pooled;

    @BeforeEach
    void open() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "test.db", "")).getPooledConnection();
    }

    @AfterEach
    void close() throws SQLException {
        pooled.close();
    }

    @Test
    void readOnlyDoesNotReachTheNextBorrower() throws SQLException {
        try (Connection first = pooled.getConnection()) {
            first.setReadOnly(true);
            assertTrue(first.isReadOnly());
        }
        try (Connection next = pooled.getConnection()) {
            assertFalse(next.isReadOnly());
            TestDb.exec(next, "INSERT INTO t VALUES (1)"); // failed with SQLITE_READONLY before
        }
    }

    @Test
    void isolationAndHoldabilityComeBack() throws SQLException {
        int isolation;
        int holdability;
        try (Connection first = pooled.getConnection()) {
            isolation = first.getTransactionIsolation();
            holdability = first.getHoldability();
            first.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            first.setHoldability(holdability == ResultSet.CLOSE_CURSORS_AT_COMMIT
                    ? ResultSet.HOLD_CURSORS_OVER_COMMIT : ResultSet.CLOSE_CURSORS_AT_COMMIT);
            assertEquals(Connection.TRANSACTION_READ_UNCOMMITTED, first.getTransactionIsolation());
        }
        try (Connection next = pooled.getConnection()) {
            assertEquals(isolation, next.getTransactionIsolation());
            assertEquals(holdability, next.getHoldability());
            try (Statement s = next.createStatement(); ResultSet rs = s.executeQuery("PRAGMA read_uncommitted")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getInt(1), "SQLite's read_uncommitted is off again");
            }
        }
    }

    @Test
    void clientInfoTypeMapSchemaAndNetworkTimeoutComeBack() throws SQLException {
        try (Connection first = pooled.getConnection()) {
            first.setClientInfo("ApplicationName", "first borrower");
            first.setTypeMap(new HashMap<>());
            first.setSchema("temp");
            first.setNetworkTimeout(Runnable::run, 1234);
            assertEquals("temp", first.getSchema());
        }
        try (Connection next = pooled.getConnection()) {
            assertNull(next.getClientInfo("ApplicationName"));
            assertEquals(new Properties(), next.getClientInfo());
            assertTrue(next.getTypeMap().isEmpty());
            assertEquals("main", next.getSchema());
            assertEquals(0, next.getNetworkTimeout());
        }
    }

    @Test
    void warningsAreCleared() throws SQLException {
        try (Connection first = pooled.getConnection()) {
            first.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY).close();
            assertTrue(first.getWarnings() != null, "the driver warns that it used TYPE_FORWARD_ONLY");
        }
        try (Connection next = pooled.getConnection()) {
            assertNull(next.getWarnings());
        }
    }

    @Test
    void theBorrowersHandlersAndListenersGo() throws SQLException {
        AtomicInteger changes = new AtomicInteger();
        AtomicInteger progress = new AtomicInteger();
        try (Connection first = pooled.getConnection()) {
            PanliteConnection p = (PanliteConnection) first; // the handle's own extras (unwrap gives the physical one)
            p.addChangeListener(new ChangeListener() {
                @Override
                public void rowChanged(Kind kind, String schema, String table, long rowId) {
                    changes.incrementAndGet();
                }
            });
            p.setProgressHandler(1, () -> { progress.incrementAndGet(); return 0; }); // counts, never stops
            p.setBusyHandler((attempts, waited) -> false);
            TestDb.exec(first, "INSERT INTO t VALUES (1)");
        }
        int seenChanges = changes.get();
        int seenProgress = progress.get();
        assertTrue(seenChanges > 0 && seenProgress > 0);
        try (Connection next = pooled.getConnection()) {
            TestDb.exec(next, "INSERT INTO t VALUES (2)");
        }
        assertEquals(seenChanges, changes.get(), "the first borrower's listener heard nothing of the next one");
        assertEquals(seenProgress, progress.get(), "nor its progress handler");
    }
}
