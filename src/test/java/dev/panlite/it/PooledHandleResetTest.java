package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ChangeListener;
import dev.panlite.PanliteConnection;
import dev.panlite.PanliteConnectionPoolDataSource;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A logical handle of a pooled connection puts back everything its user changed when it closes, so
 * the next borrower starts as on a new connection (HikariCP's dirty bits do the same for its pool).
 */
class PooledHandleResetTest {
    @TempDir
    Path dir;

    PooledConnection pooled;
    final DataSourceTest.Events events = new DataSourceTest.Events();

    @BeforeEach
    void open() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "test.db", "busy_timeout=0")).getPooledConnection();
        pooled.addConnectionEventListener(events);
    }

    @AfterEach
    void close() throws SQLException {
        pooled.close();
    }

    /** The rows of t, as another connection (not the pool's) sees them: what is committed. */
    private String committedRows() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            return TestDb.queryString(c, "SELECT coalesce(group_concat(x, ','), '') FROM (SELECT x FROM t ORDER BY x)");
        }
    }

    // ---------------------------------------------------------------- a transaction begun by SQL (issue 27, item 2)

    /**
     * A borrower in auto-commit mode begins a transaction with SQL and closes its handle inside it.
     * The reset asked JDBC's flag (auto-commit on) and left SQLite in the transaction: the next
     * borrower's auto-commit INSERT returned normally and was never committed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"BEGIN; INSERT INTO t VALUES (1)", "BEGIN|INSERT INTO t VALUES (1)",
            "BEGIN IMMEDIATE|INSERT INTO t VALUES (1)", "SAVEPOINT s|INSERT INTO t VALUES (1)"})
    void aTransactionBegunBySqlIsRolledBackWhenTheHandleCloses(String texts) throws SQLException {
        try (Connection first = pooled.getConnection()) {
            TestDb.exec(first, texts.split("\\|"));
            assertTrue(first.getAutoCommit(), "JDBC's flag says auto-commit: SQLite says otherwise");
        }
        try (Connection next = pooled.getConnection()) {
            assertTrue(next.getAutoCommit());
            TestDb.exec(next, "INSERT INTO t VALUES (2)");
        }
        assertEquals("2", committedRows(), "the first borrower's row rolled back, the next one's committed");
        assertEquals(List.of("closed", "closed"), events.seen);
    }

    // ---------------------------------------------------------------- a reset that fails (issue 27, item 3)

    /**
     * A reset that fails must not be reported as a clean close: the pool would hand out a connection
     * half put back (its next getConnection threw, the one after gave the previous borrower's
     * read-only flag). Here a progress handler set on the physical connection ({@code unwrap}: the
     * reset leaves it, as HikariCP would) interrupts every statement, so the reset's PRAGMA fails.
     */
    @Test
    void aResetThatFailsClosesThePhysicalConnectionAndTellsThePool() throws SQLException {
        Connection first = pooled.getConnection();
        PanliteConnection physical = first.unwrap(PanliteConnection.class);
        first.setReadOnly(true);
        physical.setProgressHandler(1, () -> 1);
        SQLException e = assertThrows(SQLException.class, first::close, "the reset failed: close says so");
        assertTrue(e.getSQLState().startsWith("08"), e::toString);
        assertTrue(first.isClosed(), "the handle is closed all the same, not half");
        assertTrue(physical.isClosed(), "the physical connection, half reset, is closed");
        assertEquals(List.of("error"), events.seen, "the pool hears of an error, not of a clean close");
        assertSame(e, events.errors.get(0));
        SQLException again = assertThrows(SQLException.class, pooled::getConnection, "never handed out again");
        assertEquals("08003", again.getSQLState());
        first.close(); // a second close does nothing
        assertEquals(List.of("error"), events.seen);
    }

    /** abort() through a handle closes the physical connection: the pool hears of an error (adversarial review: it heard nothing). */
    /** The reset of a handle that used no TEMP table opens no TEMP database (D2: SQLite 3.40 opened it). */
    @Test
    void aResetOpensNoTempDatabase() throws SQLException {
        for (int i = 0; i < 2; i++) {
            try (Connection c = pooled.getConnection()) {
                TestDb.exec(c, "PRAGMA foreign_keys = ON"); // a setting: the reset has work to do
                assertEquals("main", TestDb.queryString(c, "SELECT group_concat(name, ' ') FROM pragma_database_list"),
                        "borrow " + i);
            }
        }
    }

    @Test
    void abortingAHandleTellsThePoolTheConnectionIsGone() throws SQLException {
        Connection first = pooled.getConnection();
        TestDb.exec(first, "BEGIN; INSERT INTO t VALUES (7)");
        first.abort(Runnable::run);
        assertTrue(first.isClosed());
        assertEquals(List.of("error"), events.seen);
        assertEquals("08003", events.errors.get(0).getSQLState());
        assertThrows(SQLException.class, pooled::getConnection, "never handed out again");
        first.abort(Runnable::run); // aborting it again does nothing
        first.close();
        assertEquals(List.of("error"), events.seen);
        assertEquals("", committedRows());
    }

    /** The same with a transaction begun by SQL that the reset's ROLLBACK fails to end: nothing of it is committed. */
    @Test
    void aResetWhoseRollbackFailsCommitsNothing() throws SQLException {
        Connection first = pooled.getConnection();
        TestDb.exec(first, "BEGIN; INSERT INTO t VALUES (1)");
        first.unwrap(PanliteConnection.class).setProgressHandler(1, () -> 1);
        assertThrows(SQLException.class, first::close);
        assertEquals(List.of("error"), events.seen);
        assertThrows(SQLException.class, pooled::getConnection);
        assertEquals("", committedRows());
    }

    /**
     * The handle's own handlers go before the reset runs a statement: a progress handler set through
     * the handle that stops every statement would otherwise fail the reset's ROLLBACK and PRAGMA.
     */
    @Test
    void theBorrowersHandlersGoBeforeTheResetRunsAStatement() throws SQLException {
        Connection first = pooled.getConnection();
        first.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        TestDb.exec(first, "BEGIN; INSERT INTO t VALUES (1)");
        ((PanliteConnection) first).setProgressHandler(1, () -> 1);
        first.close(); // its ROLLBACK and PRAGMA read_uncommitted run after the handler is gone
        assertEquals(List.of("closed"), events.seen);
        try (Connection next = pooled.getConnection()) {
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, next.getTransactionIsolation());
            TestDb.exec(next, "INSERT INTO t VALUES (2)");
        }
        assertEquals("2", committedRows());
    }

    // ---------------------------------------------------------------- what SQL changed (issue 27, item 13)

    @Test
    void queryOnlySetBySqlDoesNotReachTheNextBorrower() throws SQLException {
        try (Connection first = pooled.getConnection()) {
            TestDb.exec(first, "PRAGMA query_only = 1");
            assertThrows(SQLException.class, () -> TestDb.exec(first, "INSERT INTO t VALUES (1)"));
        }
        try (Connection next = pooled.getConnection()) {
            assertFalse(next.isReadOnly());
            TestDb.exec(next, "INSERT INTO t VALUES (2)"); // every write failed here
            assertEquals(0, TestDb.queryLong(next, "PRAGMA query_only"));
        }
        assertEquals("2", committedRows());
    }

    /** A per-connection setting a borrower changed with SQL is back to its value at open for the next one. */
    @ParameterizedTest
    @CsvSource({"foreign_keys, 1, 0", "recursive_triggers, 1, 0", "synchronous, 0, 1", "cache_size, 77, 78",
            "locking_mode, exclusive, normal", "busy_timeout, 10000, 20000", "temp_store, 2, 1",
            "reverse_unordered_selects, 1, 0", "automatic_index, 0, 1", "secure_delete, 1, 0",
            "legacy_alter_table, 1, 0", "ignore_check_constraints, 1, 0", "read_uncommitted, 1, 0",
            "cell_size_check, 1, 0", "journal_size_limit, 4096, 8192", "max_page_count, 100000, 200000"})
    void aSettingChangedBySqlComesBack(String pragma, String value, String otherwise) throws SQLException {
        String atOpen;
        try (Connection first = pooled.getConnection()) {
            atOpen = TestDb.queryString(first, "PRAGMA " + pragma);
            value = value.equals(atOpen) ? otherwise : value; // a change whatever the engine's default (or the URL's)
            TestDb.exec(first, "PRAGMA " + pragma + " = " + value);
            assertEquals(value, TestDb.queryString(first, "PRAGMA " + pragma), "the borrower's PRAGMA took effect");
        }
        try (Connection next = pooled.getConnection()) {
            assertEquals(atOpen, TestDb.queryString(next, "PRAGMA " + pragma));
        }
    }

    /** Back to the value the connection was configured with, not SQLite's default. */
    @Test
    void aSettingComesBackToItsConfiguredValue() throws SQLException {
        PooledConnection configured = new PanliteConnectionPoolDataSource(TestDb.url(dir, "test.db", "foreign_keys=true"))
                .getPooledConnection();
        try {
            try (Connection first = configured.getConnection()) {
                TestDb.exec(first, "PRAGMA foreign_keys = OFF");
            }
            try (Connection next = configured.getConnection()) {
                assertEquals(1, TestDb.queryLong(next, "PRAGMA foreign_keys"));
            }
        } finally {
            configured.close();
        }
    }

    /** case_sensitive_like cannot be read back: what LIKE does tells. */
    @Test
    void caseSensitiveLikeComesBack() throws SQLException {
        try (Connection first = pooled.getConnection()) {
            TestDb.exec(first, "PRAGMA case_sensitive_like = 1");
            assertEquals(0, TestDb.queryLong(first, "SELECT 'a' LIKE 'A'"));
        }
        try (Connection next = pooled.getConnection()) {
            assertEquals(1, TestDb.queryLong(next, "SELECT 'a' LIKE 'A'"));
        }
    }

    @Test
    void anAttachedDatabaseIsDetached() throws SQLException {
        String attach = "ATTACH DATABASE '" + dir.resolve("aux.db") + "' AS aux";
        try (Connection first = pooled.getConnection()) {
            TestDb.exec(first, attach, "CREATE TABLE aux.a(x)", "INSERT INTO aux.a VALUES (1)");
        }
        try (Connection next = pooled.getConnection()) {
            assertEquals("main", TestDb.queryString(next,
                    "SELECT group_concat(name) FROM pragma_database_list WHERE name <> 'temp'"));
            assertThrows(SQLException.class, () -> TestDb.queryLong(next, "SELECT count(*) FROM aux.a"));
            TestDb.exec(next, attach); // the name is free again
            assertEquals(1, TestDb.queryLong(next, "SELECT count(*) FROM aux.a"));
        }
    }

    @Test
    void tempTablesViewsTriggersAndTheirRowsAreGone() throws SQLException {
        try (Connection first = pooled.getConnection()) {
            TestDb.exec(first, "CREATE TEMP TABLE secrets(s)", "INSERT INTO secrets VALUES ('first borrower''s')",
                    "CREATE TEMPORARY VIEW v AS SELECT s FROM secrets",
                    "CREATE TEMP TRIGGER copy AFTER INSERT ON t BEGIN INSERT INTO secrets VALUES (new.x); END",
                    "CREATE INDEX temp_index ON secrets(s)");
        }
        try (Connection next = pooled.getConnection()) {
            assertEquals(0, TestDb.queryLong(next, "SELECT count(*) FROM temp.sqlite_master"));
            TestDb.exec(next, "INSERT INTO t VALUES (1)"); // no trigger copies it anywhere
            TestDb.exec(next, "CREATE TEMP TABLE secrets(s)"); // the name is free again
            assertEquals(0, TestDb.queryLong(next, "SELECT count(*) FROM secrets"));
        }
        assertEquals(List.of("closed", "closed"), events.seen);
    }

    /**
     * Putting back costs statements; a handle whose SQL could change none of it closes without
     * running any (a progress handler on the physical connection counts the instructions run).
     */
    @Test
    void aHandleWhoseSqlChangedNothingClosesWithoutRunningAStatement() throws SQLException {
        AtomicInteger steps = new AtomicInteger();
        try (Connection first = pooled.getConnection()) {
            first.unwrap(PanliteConnection.class).setProgressHandler(1, () -> { steps.incrementAndGet(); return 0; });
        }
        Connection clean = pooled.getConnection();
        TestDb.exec(clean, "INSERT INTO t VALUES (1)", "SELECT x FROM t", "UPDATE t SET x = 2");
        clean.setAutoCommit(false);
        TestDb.exec(clean, "INSERT INTO t VALUES (3)");
        clean.commit();
        int before = steps.get();
        assertTrue(before > 0, "the handler counts");
        clean.close();
        assertEquals(before, steps.get(), "the close ran no statement");

        Connection dirty = pooled.getConnection();
        TestDb.exec(dirty, "CREATE TEMP TABLE scratch(x)");
        before = steps.get();
        dirty.close();
        assertTrue(steps.get() > before, "a TEMP table is looked for, and dropped");
        assertEquals(List.of("closed", "closed", "closed"), events.seen);
    }

    /** A main database replaced by deserialize cannot be put back: the pool is told, the connection closed. */
    @Test
    void aMainDatabaseReplacedByDeserializeIsNotHandedOutAgain() throws SQLException {
        byte[] image;
        try (Connection c = TestDb.open(dir)) {
            image = c.unwrap(PanliteConnection.class).serialize("main");
        }
        Connection first = pooled.getConnection();
        try {
            ((PanliteConnection) first).deserialize("main", image);
        } catch (SQLFeatureNotSupportedException older) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "deserialize needs a newer SQLite: " + older.getMessage());
        }
        assertThrows(SQLException.class, first::close);
        assertEquals(List.of("error"), events.seen);
        assertThrows(SQLException.class, pooled::getConnection);
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
            // The driver keeps no type map: a non-empty one is refused, and the map it gives is the
            // caller's own copy, so what a borrower puts in it reaches nobody.
            assertThrows(SQLFeatureNotSupportedException.class, () -> first.setTypeMap(Map.of("T", String.class)));
            first.setTypeMap(new HashMap<>());
            first.getTypeMap().put("T", String.class);
            first.setSchema("temp");
            first.setNetworkTimeout(Runnable::run, 1234);
            assertEquals("temp", first.getSchema());
            assertEquals(Map.of(), first.getTypeMap());
        }
        try (Connection next = pooled.getConnection()) {
            assertNull(next.getClientInfo("ApplicationName"));
            assertEquals(new Properties(), next.getClientInfo());
            assertEquals(Map.of(), next.getTypeMap());
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
            p.setBusyHandler((attempts, waited) -> {
                busyAsked.incrementAndGet();
                return false;
            });
            TestDb.exec(first, "INSERT INTO t VALUES (1)");
            assertBusyHandlerAsked(first, 1); // it was in force for the first borrower
        }
        int seenChanges = changes.get();
        int seenProgress = progress.get();
        assertTrue(seenChanges > 0 && seenProgress > 0);
        try (Connection next = pooled.getConnection()) {
            TestDb.exec(next, "INSERT INTO t VALUES (2)");
            assertBusyHandlerAsked(next, 1); // the write below waits as a new connection's would, without it
        }
        assertEquals(seenChanges, changes.get(), "the first borrower's listener heard nothing of the next one");
        assertEquals(seenProgress, progress.get(), "nor its progress handler");
    }

    private final AtomicInteger busyAsked = new AtomicInteger();

    /**
     * While another connection holds a write transaction, a write through {@code c} fails (the pool's
     * URL has busy_timeout=0 here, so without a busy handler it fails at once too); the count of
     * times the first borrower's busy handler was asked must then be {@code expected}.
     */
    private void assertBusyHandlerAsked(Connection c, int expected) throws SQLException {
        try (Connection holder = TestDb.open(dir)) {
            holder.setAutoCommit(false);
            TestDb.exec(holder, "INSERT INTO t VALUES (0)"); // holds the write lock until the rollback
            assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t VALUES (-1)"));
            holder.rollback();
        }
        assertEquals(expected, busyAsked.get(), "how often the first borrower's busy handler was asked");
    }
}
