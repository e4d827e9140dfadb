package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransientException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transactions (issue "Transactions"): lazy begin, commit/rollback, savepoints, failure paths,
 * transaction modes and the cached BEGIN/COMMIT/ROLLBACK statements. Most tests run twice: with
 * the transaction statements cached (the default) and with {@code cache_tx_statements=false}.
 */
class TransactionTest {
    private static final int SQLITE_BUSY = 5;

    @TempDir
    Path dir;

    /** A connection to the shared test file with cache_tx_statements set and more settings in {@code extra}. */
    private Connection open(boolean cacheTx, String extra) throws SQLException {
        String query = "cache_tx_statements=" + cacheTx + (extra.isEmpty() ? "" : "&" + extra);
        return TestDb.open(dir, query);
    }

    private Connection open(boolean cacheTx) throws SQLException {
        return open(cacheTx, "");
    }

    /** A second connection that fails at once when the file is locked. */
    private Connection other() throws SQLException {
        return TestDb.open(dir, "busy_timeout=0");
    }

    private void createTable() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        }
    }

    private static long count(Connection c) throws SQLException {
        return TestDb.queryLong(c, "SELECT count(*) FROM t");
    }

    private static List<String> values(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM t ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static void insert(Connection c, String v) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            p.setString(1, v);
            assertEquals(1, p.executeUpdate());
        }
    }

    /** Takes and drops an exclusive lock on {@code c}: throws SQLITE_BUSY when anyone holds a lock. */
    private static void lockExclusively(Connection c) throws SQLException {
        TestDb.exec(c, "BEGIN EXCLUSIVE; COMMIT");
    }

    private static void assertBusy(SQLException e) {
        assertInstanceOf(SQLTransientException.class, e, "BUSY is transient: " + e);
        assertEquals(SQLITE_BUSY, e.getErrorCode(), "error code SQLITE_BUSY: " + e);
    }

    // ------------------------------------------------------------------ (1) lazy begin

    @ParameterizedTest(name = "cache_tx_statements={0}, transaction_mode={1}")
    @CsvSource({"true, DEFERRED", "false, DEFERRED", "true, IMMEDIATE", "false, IMMEDIATE"})
    void autoCommitOffHoldsNoLockUntilAStatementRuns(boolean cacheTx, String mode) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx, "journal_mode=DELETE&transaction_mode=" + mode); Connection c2 = other()) {
            c1.setAutoCommit(false);
            assertFalse(c1.getAutoCommit());

            // nothing ran on c1: no lock, no snapshot
            insert(c2, "from c2");
            lockExclusively(c2);

            // the first statement opens the transaction, and sees what c2 wrote before it
            assertEquals(1, count(c1));
            assertFalse(c1.getAutoCommit());
            SQLException busy = assertThrows(SQLException.class, () -> lockExclusively(c2),
                    "c1's transaction holds a lock now");
            assertBusy(busy);

            insert(c1, "from c1");
            assertEquals(2, count(c1));
            assertEquals(1, count(c2), "c1's write is not visible before commit");
            c1.commit();
            assertEquals(2, count(c2), "c1's write is visible after commit");
            assertEquals(List.of("from c2", "from c1"), values(c2));

            // after commit the connection is idle again: no lock until the next statement
            lockExclusively(c2);
            assertFalse(c1.getAutoCommit());
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void afterRollbackTheConnectionHoldsNoLock(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            insert(c1, "gone");
            assertThrows(SQLException.class, () -> lockExclusively(c2));
            c1.rollback();
            lockExclusively(c2);
            assertEquals(0, count(c2));
            assertEquals(0, count(c1));
            c1.commit();
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void batchesAndMultiStatementTextRunInsideTheTransaction(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            try (PreparedStatement p = c1.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                p.setString(1, "p1");
                p.addBatch();
                p.setString(1, "p2");
                p.addBatch();
                assertEquals(2, p.executeBatch().length);
            }
            assertEquals(0, count(c2), "a prepared batch is not auto-committed");
            c1.rollback();
            try (Statement s = c1.createStatement()) {
                s.addBatch("INSERT INTO t(v) VALUES ('s1')");
                s.addBatch("INSERT INTO t(v) VALUES ('s2')");
                assertEquals(2, s.executeBatch().length);
            }
            assertEquals(0, count(c2), "a statement batch is not auto-committed");
            c1.rollback();
            try (Statement s = c1.createStatement()) {
                assertTrue(s.execute("SELECT 1; INSERT INTO t(v) VALUES ('m1'); INSERT INTO t(v) VALUES ('m2')"));
                assertFalse(s.getMoreResults());
                assertFalse(s.getMoreResults());
            }
            assertEquals(0, count(c2), "multi-statement text is not auto-committed");
            assertEquals(List.of("m1", "m2"), values(c1));
            c1.commit();
            assertEquals(List.of("m1", "m2"), values(c2));
        }
    }

    // ------------------------------------------------------------------ (2) commit/rollback with nothing open

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void commitAndRollbackWithNoOpenTransactionDoNothing(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            c1.commit();
            c1.rollback();
            c1.commit();
            assertFalse(c1.getAutoCommit());
            lockExclusively(c2); // no transaction was begun by them
            insert(c1, "x");
            c1.commit();
            c1.commit(); // a second commit has nothing to do
            c1.rollback(); // and neither has a rollback: the row stays
            assertEquals(1, count(c2));
        }
    }

    // ------------------------------------------------------------------ (3) setAutoCommit(true) commits

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void switchingAutoCommitOnInsideATransactionCommits(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            insert(c1, "a");
            insert(c1, "b");
            assertEquals(0, count(c2));
            c1.setAutoCommit(true);
            assertTrue(c1.getAutoCommit());
            assertEquals(2, count(c2));
            lockExclusively(c2); // and nothing is held any more
            // setAutoCommit(true) when already on is a no-op
            c1.setAutoCommit(true);
            insert(c1, "c");
            assertEquals(3, count(c2), "auto-commit writes are visible at once");
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void setAutoCommitFalseTwiceKeepsTheTransaction(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            insert(c1, "a");
            c1.setAutoCommit(false); // no change: no commit
            assertEquals(0, count(c2));
            c1.rollback();
            assertEquals(0, count(c1));
        }
    }

    // ------------------------------------------------------------------ (4) savepoints

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void rollbackToASavepointUndoesOnlyLaterChanges(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            insert(c1, "a");
            Savepoint first = c1.setSavepoint();
            insert(c1, "b");
            Savepoint second = c1.setSavepoint("second");
            insert(c1, "c");
            c1.rollback(second);
            assertEquals(List.of("a", "b"), values(c1));
            insert(c1, "d");
            c1.rollback(first);
            assertEquals(List.of("a"), values(c1));
            assertThrows(SQLException.class, () -> c1.rollback(second), "rolled back past: no longer valid");
            // the savepoint rolled back to stays valid
            insert(c1, "e");
            c1.rollback(first);
            assertEquals(List.of("a"), values(c1));
            insert(c1, "f");
            assertEquals(0, count(c2), "nothing committed yet");
            c1.commit();
            assertEquals(List.of("a", "f"), values(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void aSavepointAsFirstStatementBeginsTheTransaction(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            Savepoint sp = c1.setSavepoint();
            insert(c1, "a");
            c1.rollback(sp);
            insert(c1, "b");
            c1.releaseSavepoint(sp);
            // releasing the outermost savepoint must not have committed: the JDBC transaction is still open
            assertEquals(0, count(c2));
            assertFalse(c1.getAutoCommit());
            insert(c1, "c");
            c1.rollback();
            assertEquals(0, count(c1));
            assertEquals(0, count(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void releasedSavepointsAndSavepointsAfterCommitAreInvalid(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx)) {
            c1.setAutoCommit(false);
            insert(c1, "a");
            Savepoint outer = c1.setSavepoint("outer");
            insert(c1, "b");
            Savepoint inner = c1.setSavepoint("inner");
            insert(c1, "c");
            c1.releaseSavepoint(inner);
            assertThrows(SQLException.class, () -> c1.rollback(inner));
            assertThrows(SQLException.class, () -> c1.releaseSavepoint(inner));
            assertEquals(List.of("a", "b", "c"), values(c1), "release keeps the changes");
            c1.releaseSavepoint(outer); // releasing it also releases nothing else left
            assertThrows(SQLException.class, () -> c1.rollback(outer));
            assertEquals(List.of("a", "b", "c"), values(c1));

            Savepoint beforeCommit = c1.setSavepoint();
            insert(c1, "d");
            c1.commit();
            assertThrows(SQLException.class, () -> c1.rollback(beforeCommit), "the savepoint ended with its transaction");
            assertThrows(SQLException.class, () -> c1.releaseSavepoint(beforeCommit));

            Savepoint beforeRollback = c1.setSavepoint();
            insert(c1, "e");
            c1.rollback();
            assertThrows(SQLException.class, () -> c1.rollback(beforeRollback));
            assertEquals(List.of("a", "b", "c", "d"), values(c1));

            // a savepoint of a transaction that already ended stays invalid in the next transaction
            insert(c1, "f");
            assertThrows(SQLException.class, () -> c1.rollback(beforeCommit));
            assertEquals(List.of("a", "b", "c", "d", "f"), values(c1), "the failed rollback(sp) undid nothing");
            c1.commit();
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void savepointAfterSetAutoCommitTrueIsInvalid(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx)) {
            c1.setAutoCommit(false);
            Savepoint sp = c1.setSavepoint();
            insert(c1, "a");
            c1.setAutoCommit(true);
            assertThrows(SQLException.class, () -> c1.rollback(sp));
            c1.setAutoCommit(false);
            insert(c1, "b");
            assertThrows(SQLException.class, () -> c1.rollback(sp));
            c1.commit();
            assertEquals(List.of("a", "b"), values(c1));
        }
    }

    /**
     * setAutoCommit(true) follows SQLite's state, not the flag: a transaction SQL text began while
     * auto-commit was on is committed, and SQLite is in auto-commit mode afterwards, as
     * getAutoCommit() says (the call was a no-op and the later auto-commit writes were never committed).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void setAutoCommitTrueCommitsATransactionBegunBySql(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            TestDb.exec(c1, "BEGIN; INSERT INTO t(v) VALUES ('begun by SQL')");
            assertTrue(c1.getAutoCommit());
            c1.setAutoCommit(true);
            TestDb.exec(c1, "INSERT INTO t(v) VALUES ('auto-commit')");
            assertEquals(List.of("begun by SQL", "auto-commit"), values(c2), "both are committed");
        }
    }

    @Test
    void savepointIdAndNameAreExclusive() throws SQLException {
        createTable();
        try (Connection c1 = TestDb.open(dir)) {
            c1.setAutoCommit(false);
            Savepoint unnamed = c1.setSavepoint();
            Savepoint unnamed2 = c1.setSavepoint();
            Savepoint named = c1.setSavepoint("mine");
            assertEquals("mine", named.getSavepointName());
            assertThrows(SQLException.class, named::getSavepointId);
            assertThrows(SQLException.class, unnamed::getSavepointName);
            assertTrue(unnamed.getSavepointId() != unnamed2.getSavepointId(), "ids are distinct");
            c1.rollback();
        }
    }

    @Test
    void savepointWithAutoCommitOnThrows() throws SQLException {
        createTable();
        try (Connection c1 = TestDb.open(dir); Connection c2 = other()) {
            assertThrows(SQLException.class, c1::setSavepoint);
            assertThrows(SQLException.class, () -> c1.setSavepoint("x"));
            assertTrue(c1.getAutoCommit());
            lockExclusively(c2); // the failed calls left no transaction open
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void savepointNamesWithQuotesWork(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx)) {
            c1.setAutoCommit(false);
            insert(c1, "a");
            String name = "it's a \"quoted\" name; DROP TABLE t; --";
            Savepoint sp = c1.setSavepoint(name);
            assertEquals(name, sp.getSavepointName());
            insert(c1, "b");
            Savepoint sp2 = c1.setSavepoint("\"");
            insert(c1, "c");
            c1.rollback(sp2);
            assertEquals(List.of("a", "b"), values(c1));
            c1.rollback(sp);
            assertEquals(List.of("a"), values(c1));
            c1.releaseSavepoint(sp);
            c1.commit();
            assertEquals(List.of("a"), values(c1));
        }
    }

    @Test
    void aSavepointOfAnotherConnectionIsRejected() throws SQLException {
        createTable();
        // deferred: two IMMEDIATE transactions on one file would queue one behind the other
        try (Connection c1 = TestDb.open(dir, "transaction_mode=DEFERRED");
                Connection c2 = TestDb.open(dir, "transaction_mode=DEFERRED")) {
            c1.setAutoCommit(false);
            c2.setAutoCommit(false);
            Savepoint foreign = c2.setSavepoint("same");
            c1.setSavepoint("same");
            assertThrows(SQLException.class, () -> c1.rollback(foreign));
            c1.rollback();
            c2.rollback();
        }
    }

    // ------------------------------------------------------------------ (5) failure paths

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void commitFailingWithBusyLeavesTheTransactionOpenToRetry(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection seed = TestDb.open(dir)) {
            TestDb.exec(seed, "INSERT INTO t(v) VALUES ('r1'), ('r2'), ('r3'), ('r4'), ('r5')");
        }
        try (Connection c1 = open(cacheTx, "journal_mode=DELETE&busy_timeout=0");
                Connection c2 = TestDb.open(dir, "journal_mode=DELETE")) {
            c1.setAutoCommit(false);
            insert(c1, "new");

            Statement reader = c2.createStatement();
            ResultSet rows = reader.executeQuery("SELECT v FROM t ORDER BY id");
            assertTrue(rows.next());
            assertEquals("r1", rows.getString(1)); // c2 holds a SHARED lock while the read is open

            SQLException e = assertThrows(SQLException.class, c1::commit);
            assertBusy(e);
            assertFalse(c1.getAutoCommit());
            assertEquals(6, count(c1), "the transaction is still open with its change");

            SQLException again = assertThrows(SQLException.class, c1::commit, "still blocked");
            assertBusy(again);

            assertTrue(rows.next());
            rows.close();
            reader.close();

            c1.commit();
            assertEquals(6, count(c2));
            assertEquals("new", values(c2).get(5));
            // the connection goes on normally
            insert(c1, "after");
            c1.commit();
            assertEquals(7, count(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void setAutoCommitTrueFailingWithBusyKeepsAutoCommitOff(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection seed = TestDb.open(dir)) {
            TestDb.exec(seed, "INSERT INTO t(v) VALUES ('r1'), ('r2'), ('r3')");
        }
        try (Connection c1 = open(cacheTx, "journal_mode=DELETE&busy_timeout=0");
                Connection c2 = TestDb.open(dir, "journal_mode=DELETE")) {
            c1.setAutoCommit(false);
            insert(c1, "new");
            try (Statement reader = c2.createStatement();
                    ResultSet rows = reader.executeQuery("SELECT v FROM t ORDER BY id")) {
                assertTrue(rows.next());
                assertBusy(assertThrows(SQLException.class, () -> c1.setAutoCommit(true)));
                assertFalse(c1.getAutoCommit(), "the failed commit left auto-commit off");
            }
            c1.setAutoCommit(true);
            assertTrue(c1.getAutoCommit());
            assertEquals(4, count(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void rollbackAfterAFailedStatementUndoesEarlierChanges(boolean cacheTx) throws SQLException {
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            TestDb.exec(c1, "CREATE TABLE u(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
            c1.setAutoCommit(false);
            TestDb.exec(c1, "INSERT INTO u(v) VALUES ('a')");
            try (PreparedStatement p = c1.prepareStatement("INSERT INTO u(v) VALUES (?)")) {
                p.setString(1, "b");
                p.executeUpdate();
                p.setString(1, "a");
                assertThrows(SQLIntegrityConstraintViolationException.class, p::executeUpdate);
            }
            assertThrows(SQLIntegrityConstraintViolationException.class,
                    () -> TestDb.exec(c1, "INSERT INTO u(v) VALUES ('b')"));
            c1.rollback();
            try (Statement s = c1.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM u")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getInt(1), "the earlier inserts were rolled back too");
            }
            c1.commit();
            lockExclusively(c2);
            // the connection is fully usable afterwards
            TestDb.exec(c1, "INSERT INTO u(v) VALUES ('a')");
            c1.commit();
            try (Statement s = c2.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM u")) {
                assertTrue(rs.next());
                assertEquals("a", rs.getString(1));
                assertFalse(rs.next());
            }
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void closeWithAnOpenTransactionRollsItBack(boolean cacheTx) throws SQLException {
        createTable();
        Connection c1 = open(cacheTx);
        c1.setAutoCommit(false);
        insert(c1, "lost");
        PreparedStatement open = c1.prepareStatement("SELECT v FROM t");
        ResultSet rows = open.executeQuery();
        assertTrue(rows.next());
        c1.close();
        try (Connection again = TestDb.open(dir); Connection c2 = other()) {
            assertEquals(0, count(again));
            lockExclusively(c2); // nothing left locked
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void insertOrRollbackEndsTheTransactionAndTheNextStatementBeginsAFreshOne(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setAutoCommit(false);
            TestDb.exec(c1, "INSERT INTO t(id, v) VALUES (1, 'a')");
            SQLException e = assertThrows(SQLException.class,
                    () -> TestDb.exec(c1, "INSERT OR ROLLBACK INTO t(id, v) VALUES (1, 'dup')"));
            assertInstanceOf(SQLIntegrityConstraintViolationException.class, e);
            assertFalse(c1.getAutoCommit(), "JDBC auto-commit stays off");
            lockExclusively(c2); // SQLite rolled back: no lock held
            assertEquals(0, count(c2));

            assertTrue(e.getMessage().contains("SQLite rolled back the transaction"), e::getMessage);
            // until rollback(), no statement runs as part of the lost transaction, and commit() says so:
            // a retried commit() returned normally while the work was gone (the fault sweeps, issue 29)
            assertThrows(SQLTransactionRollbackException.class, () -> insert(c1, "x"));
            SQLException lost = assertThrows(SQLTransactionRollbackException.class, c1::commit);
            assertEquals("40000", lost.getSQLState());
            c1.commit(); // reported once: there is nothing left to commit

            // the next statement begins a fresh transaction (not auto-committed)
            insert(c1, "b");
            assertEquals(List.of("b"), values(c1));
            assertEquals(0, count(c2), "the new transaction is not committed yet");
            c1.commit();
            assertEquals(List.of("b"), values(c2));

            // rollback() after SQLite's own rollback ends it quietly
            TestDb.exec(c1, "INSERT INTO t(id, v) VALUES (10, 'c')");
            assertThrows(SQLException.class,
                    () -> TestDb.exec(c1, "INSERT OR ROLLBACK INTO t(id, v) VALUES (10, 'dup')"));
            c1.rollback();
            c1.commit();
            assertEquals(List.of("b"), values(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void onConflictRollbackConstraintEndsTheTransaction(boolean cacheTx) throws SQLException {
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            TestDb.exec(c1, "CREATE TABLE r(id INTEGER PRIMARY KEY, v TEXT UNIQUE ON CONFLICT ROLLBACK)");
            c1.setAutoCommit(false);
            Savepoint sp = c1.setSavepoint();
            try (PreparedStatement p = c1.prepareStatement("INSERT INTO r(v) VALUES (?)")) {
                p.setString(1, "x");
                p.executeUpdate();
                p.setString(1, "x");
                assertThrows(SQLIntegrityConstraintViolationException.class, p::executeUpdate);
                assertThrows(SQLException.class, () -> c1.rollback(sp), "the savepoint went with the transaction");
                p.setString(1, "y");
                assertThrows(SQLTransactionRollbackException.class, p::executeUpdate, "refused until rollback()");
                c1.rollback();
                assertEquals(1, p.executeUpdate(), "a fresh transaction began");
            }
            try (Statement s = c2.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM r")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getInt(1), "not committed yet");
            }
            c1.commit();
            try (Statement s = c2.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM r")) {
                assertTrue(rs.next());
                assertEquals("y", rs.getString(1));
                assertFalse(rs.next());
            }
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void rollbackWithAnOpenResultSetUndoesTheChanges(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            insert(c1, "kept");
            c1.setAutoCommit(false);
            insert(c1, "undone");
            try (PreparedStatement p = c1.prepareStatement("SELECT v FROM t ORDER BY id")) {
                ResultSet rows = p.executeQuery();
                assertTrue(rows.next());
                c1.rollback();
                rows.close();
            }
            assertEquals(List.of("kept"), values(c1));
            c1.commit();
            lockExclusively(c2);
            assertEquals(List.of("kept"), values(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void withHoldCursorsOverCommitAResultSetStaysReadableAfterCommit(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT);
            c1.setAutoCommit(false);
            insert(c1, "a");
            insert(c1, "b");
            insert(c1, "c");
            try (PreparedStatement p = c1.prepareStatement("SELECT v FROM t ORDER BY id");
                    ResultSet rows = p.executeQuery()) {
                assertTrue(rows.next());
                assertEquals("a", rows.getString(1));
                c1.commit();
                assertEquals(3, count(c2), "committed with the cursor open");
                assertFalse(rows.isClosed());
                assertTrue(rows.next());
                assertEquals("b", rows.getString(1));
                assertTrue(rows.next());
                assertEquals("c", rows.getString(1));
                assertFalse(rows.next());
            }
            c1.commit();
            lockExclusively(c2); // the finished cursor holds nothing
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void withCloseCursorsAtCommitCommitClosesOpenResultSets(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            c1.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
            c1.setAutoCommit(false);
            insert(c1, "a");
            insert(c1, "b");
            PreparedStatement p = c1.prepareStatement("SELECT v FROM t ORDER BY id");
            ResultSet rows = p.executeQuery();
            assertTrue(rows.next());
            c1.commit();
            assertTrue(rows.isClosed(), "JDBC: CLOSE_CURSORS_AT_COMMIT closes result sets at commit");
            assertThrows(SQLException.class, rows::next);
            lockExclusively(c2); // and the closed cursor no longer holds SQLite's read lock
            assertFalse(p.isClosed(), "only the result set closes, not its statement");
            p.close();
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void aSavepointFromATransactionSqliteEndedIsInvalidInTheNextOne(boolean cacheTx) throws SQLException {
        try (Connection c1 = open(cacheTx)) {
            TestDb.exec(c1, "CREATE TABLE r(id INTEGER PRIMARY KEY, v TEXT UNIQUE ON CONFLICT ROLLBACK)");
            c1.setAutoCommit(false);
            Savepoint old = c1.setSavepoint("a");
            TestDb.exec(c1, "INSERT INTO r(v) VALUES ('x')");
            assertThrows(SQLException.class, () -> TestDb.exec(c1, "INSERT INTO r(v) VALUES ('x')"));
            // SQLite ended that transaction: refused until rollback(); the next statement then begins another
            assertThrows(SQLTransactionRollbackException.class, () -> TestDb.exec(c1, "INSERT INTO r(v) VALUES ('y')"));
            c1.rollback();
            TestDb.exec(c1, "INSERT INTO r(v) VALUES ('y')");
            c1.setSavepoint("a");
            TestDb.exec(c1, "INSERT INTO r(v) VALUES ('z')");
            assertThrows(SQLException.class, () -> c1.rollback(old), "the old savepoint ended with its transaction");
            try (Statement s = c1.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM r")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1), "rollback(old) must not roll back to the new savepoint of the same name");
            }
            c1.rollback();
        }
    }

    // ------------------------------------------------------------------ (6) transaction modes

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void immediateTakesTheWriteLockAtTheFirstStatementEvenARead(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx, "journal_mode=WAL&transaction_mode=IMMEDIATE"); Connection c2 = other()) {
            c1.setAutoCommit(false);
            insert(c2, "before"); // lazy: nothing taken yet
            assertEquals(1, count(c1)); // a read begins the transaction: BEGIN IMMEDIATE
            SQLException e = assertThrows(SQLException.class, () -> insert(c2, "blocked"));
            assertBusy(e);
            assertEquals(1, count(c2), "readers still read in WAL mode");
            c1.commit();
            insert(c2, "after");
            assertEquals(2, count(c2));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void deferredTakesNoWriteLockForARead(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx, "journal_mode=WAL&transaction_mode=DEFERRED"); Connection c2 = other()) {
            c1.setAutoCommit(false);
            assertEquals(0, count(c1)); // a read transaction with a snapshot, no write lock
            insert(c2, "meanwhile");
            assertEquals(1, count(c2));
            assertEquals(0, count(c1), "c1 reads its snapshot: the transaction is open");
            c1.commit();
            assertEquals(1, count(c1));
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void exclusiveModeKeepsOthersOutUntilCommit(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx, "journal_mode=DELETE&transaction_mode=EXCLUSIVE"); Connection c2 = other()) {
            c1.setAutoCommit(false);
            lockExclusively(c2); // lazy even in EXCLUSIVE mode: nothing is locked before the first statement
            assertEquals(0, count(c2));
            assertEquals(0, count(c1)); // BEGIN EXCLUSIVE
            assertBusy(assertThrows(SQLException.class, () -> count(c2)));
            c1.commit();
            assertEquals(0, count(c2));
            lockExclusively(c2); // and nothing after commit until the next statement
        }
    }

    // ------------------------------------------------------------------ (7) the cached transaction statements

    private static int liveStatements(Connection c) throws SQLException {
        return c.unwrap(PanliteConnection.class).preparedStatementCount();
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void transactionStatementsAreCachedAndDoNotLeak(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx, "stmt_cache_size=0")) {
            assertEquals(0, liveStatements(c1));
            c1.setAutoCommit(false);
            TestDb.exec(c1, "INSERT INTO t(v) VALUES ('a')");
            c1.commit();
            if (cacheTx) {
                assertEquals(2, liveStatements(c1), "BEGIN and COMMIT stay prepared");
            } else {
                assertEquals(0, liveStatements(c1), "nothing stays prepared without the cache");
            }
            TestDb.exec(c1, "INSERT INTO t(v) VALUES ('b')");
            c1.rollback();
            int afterOneOfEach = liveStatements(c1);
            if (cacheTx) {
                assertEquals(3, afterOneOfEach, "BEGIN, COMMIT and ROLLBACK");
            } else {
                assertEquals(0, afterOneOfEach);
            }
            for (int i = 0; i < 200; i++) {
                TestDb.exec(c1, "INSERT INTO t(v) VALUES ('x')");
                if (i % 2 == 0) {
                    c1.commit();
                } else {
                    c1.rollback();
                }
                try (Statement s = c1.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                    assertTrue(rs.next());
                }
                c1.commit();
            }
            assertEquals(afterOneOfEach, liveStatements(c1), "no statement leaked over 200 transactions");
            assertEquals(101, count(c1));
            c1.commit();
        }
    }

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void preparedStatementsInManyTransactionsDoNotLeak(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx)) {
            c1.setAutoCommit(false);
            insert(c1, "first");
            c1.rollback();
            insert(c1, "first");
            c1.commit();
            int baseline = liveStatements(c1);
            assertEquals((cacheTx ? 3 : 0) + 1, baseline, "tx statements plus the one cached INSERT");
            for (int i = 0; i < 100; i++) {
                insert(c1, "v" + i);
                try (PreparedStatement p = c1.prepareStatement("SELECT count(*) FROM t WHERE v = ?")) {
                    p.setString(1, "v" + i);
                    try (ResultSet rs = p.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(1, rs.getInt(1));
                    }
                }
                if (i % 3 == 0) {
                    c1.rollback();
                } else {
                    c1.commit();
                }
            }
            assertEquals(baseline + 1, liveStatements(c1), "only the cached SELECT was added");
            assertEquals(1 + 66, count(c1));
            c1.commit();
        }
    }

    // ------------------------------------------------------------------ (8) Spring-style use

    @ParameterizedTest(name = "cache_tx_statements={0}")
    @ValueSource(booleans = {true, false})
    void springStyleTransactionsRepeatedOnOneConnection(boolean cacheTx) throws SQLException {
        createTable();
        try (Connection c1 = open(cacheTx); Connection c2 = other()) {
            for (int i = 0; i < 100; i++) {
                c1.setAutoCommit(false);
                insert(c1, "row" + i);
                try (PreparedStatement p = c1.prepareStatement("SELECT count(*) FROM t")) {
                    try (ResultSet rs = p.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(i + 1, rs.getInt(1));
                    }
                }
                c1.commit();
                c1.setAutoCommit(true);
                assertTrue(c1.getAutoCommit());
            }
            assertEquals(100, count(c2));
            lockExclusively(c2);
            assertNotNull(c1.unwrap(PanliteConnection.class));
            assertTrue(liveStatements(c1) <= 32 + 3);
        }
    }
}
