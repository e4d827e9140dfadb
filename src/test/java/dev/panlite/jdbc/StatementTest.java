package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** java.sql.Statement as the JDBC 4.3 javadoc describes it, against a real SQLite file. */
class StatementTest {
    @TempDir
    Path dir;

    Connection conn;

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        TestDb.exec(conn, "CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER UNIQUE)");
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
    }

    private long scalar(String sql) throws SQLException {
        return TestDb.queryLong(conn, sql);
    }

    private List<Long> column(ResultSet rs) throws SQLException {
        List<Long> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getLong(1));
        }
        return out;
    }

    // ------------------------------------------------------------------ update counts

    @Test
    void insertSelectOfThreeRowsCountsThree() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(3, s.executeUpdate("INSERT INTO t(x) SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3"));
            assertEquals(3, scalar("SELECT count(*) FROM t"));
        }
    }

    @Test
    void updateCountIsRowsMatched() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("INSERT INTO t(x) VALUES (1),(2),(3),(4)");
            assertEquals(2, s.executeUpdate("UPDATE t SET x = x + 10 WHERE x > 2"));
            assertEquals(0, s.executeUpdate("UPDATE t SET x = 0 WHERE x = 999"));
            assertEquals(1, s.executeUpdate("DELETE FROM t WHERE x = 1"));
        }
    }

    @Test
    void executeLargeUpdateCounts() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(2L, s.executeLargeUpdate("INSERT INTO t(x) VALUES (1),(2)"));
            assertEquals(2L, s.getLargeUpdateCount());
            assertEquals(2L, s.executeLargeUpdate("DELETE FROM t"));
        }
    }

    @Test
    void ddlCountsZeroEvenAfterAnInsert() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(3, s.executeUpdate("INSERT INTO t(x) VALUES (1),(2),(3)"));
            assertEquals(0, s.executeUpdate("CREATE TABLE u(a)"));
            assertEquals(0, s.executeUpdate("CREATE INDEX u_a ON u(a)"));
            assertEquals(0, s.executeUpdate("DROP TABLE u"));
            assertFalse(s.execute("CREATE TABLE v(a)"));
            assertEquals(0, s.getUpdateCount());
        }
    }

    @Test
    void deleteAfterInsertInOneTextGivesTheDeleteCount() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (1),(2),(3); DELETE FROM t WHERE x = 2"));
            assertEquals(2, scalar("SELECT count(*) FROM t"));
            // a DELETE matching nothing after an INSERT: its count, 0, not the INSERT's
            assertEquals(0, s.executeUpdate("INSERT INTO t(x) VALUES (7); DELETE FROM t WHERE x = 999"));
            assertEquals(3, scalar("SELECT count(*) FROM t"));
        }
    }

    // ------------------------------------------------------------------ several statements in one text

    @Test
    void textWithSeveralStatementsRunsAllOfThem() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertFalse(s.execute("CREATE TABLE a(x); INSERT INTO a VALUES(1); INSERT INTO a VALUES(2)"));
            assertEquals(2, scalar("SELECT count(*) FROM a"), "all ran at execute, though only the first result was read");
            assertEquals(0, s.getUpdateCount(), "the first result is the CREATE TABLE's");
        }
    }

    /** Every result of the current execution, JDBC's way: counts as Long, a result set as its first column's values. */
    private List<Object> results(Statement s, boolean rows) throws SQLException {
        List<Object> out = new ArrayList<>();
        while (true) {
            if (rows) {
                out.add(column(s.getResultSet()));
            } else {
                long count = s.getLargeUpdateCount();
                if (count == -1) {
                    return out;
                }
                out.add(count);
            }
            rows = s.getMoreResults();
        }
    }

    /** Issue 27 item 14: one result per statement, in order, also for the updates before a query and in a row. */
    @ParameterizedTest(name = "autoCommit={0}")
    @ValueSource(booleans = {true, false})
    void everyStatementOfATextIsOneResultInOrder(boolean autoCommit) throws SQLException {
        conn.setAutoCommit(autoCommit);
        try (Statement s = conn.createStatement()) {
            boolean rows = s.execute("INSERT INTO t(x) VALUES (1), (2); UPDATE t SET x = x + 10; CREATE TABLE u(a);"
                    + " SELECT x FROM t ORDER BY x; DELETE FROM t WHERE x = 11; UPDATE t SET x = 0 WHERE 0;"
                    + " INSERT INTO u VALUES (1); -- the end");
            assertEquals(List.of(2L, 2L, 0L, List.of(11L, 12L), 1L, 0L, 1L), results(s, rows));
            assertNull(s.getResultSet());
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
        }
        if (!autoCommit) {
            conn.commit();
        }
        assertEquals(List.of(12L), column(conn.createStatement().executeQuery("SELECT x FROM t")));
    }

    @Test
    void theStatementsUpToTheFirstQueryRunAtExecuteTheOthersWhenGetMoreResultsPassesIt() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertFalse(s.execute("INSERT INTO t(x) VALUES (1); INSERT INTO t(x) VALUES (2), (3);"
                    + " SELECT count(*) FROM t; INSERT INTO t(x) VALUES (4)"));
            assertEquals(3, scalar("SELECT count(*) FROM t"), "both inserts before the query ran at execute");
            assertEquals(1, s.getUpdateCount());
            assertFalse(s.getMoreResults());
            assertEquals(2, s.getUpdateCount());
            assertTrue(s.getMoreResults());
            assertEquals(List.of(3L), column(s.getResultSet()));
            assertEquals(3, scalar("SELECT count(*) FROM t"), "the insert after the query waits for getMoreResults");
            assertFalse(s.getMoreResults());
            assertEquals(1, s.getUpdateCount());
            assertEquals(4, scalar("SELECT count(*) FROM t"));
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void executeQueryAnswersTheFirstQueryOfATextAfterTheStatementsBeforeIt() throws SQLException {
        try (Statement s = conn.createStatement()) {
            ResultSet rs = s.executeQuery("INSERT INTO t(x) VALUES (1); SELECT x FROM t; INSERT INTO t(x) VALUES (2)");
            assertEquals(List.of(1L), column(rs));
            assertEquals(1, scalar("SELECT count(*) FROM t"), "the INSERT after the query waits for getMoreResults");
            assertFalse(s.getMoreResults());
            assertEquals(1, s.getUpdateCount());
            assertThrows(SQLException.class, () -> s.executeQuery("INSERT INTO t(x) VALUES (3); INSERT INTO t(x) VALUES (4)"));
            assertEquals(4, scalar("SELECT count(*) FROM t"), "a text without a query ran whole before executeQuery said so");
            assertNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void aFailingStatementFailsTheExecutionAndLeavesNoResult() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertThrows(SQLException.class, () -> s.execute(
                    "INSERT INTO t(x) VALUES (1); INSERT INTO no_such_table VALUES (1); SELECT 1; INSERT INTO t(x) VALUES (2)"));
            assertEquals(1, scalar("SELECT count(*) FROM t"), "what ran before the failing statement stays");
            assertNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
            assertFalse(s.getMoreResults());
        }
    }

    /** JDBC allows refusing KEEP_CURRENT_RESULT while supportsMultipleOpenResults is false; it used to close silently. */
    @Test
    void keepCurrentResultIsRefusedAsTheMetadataSays() throws SQLException {
        assertFalse(conn.getMetaData().supportsMultipleOpenResults());
        try (Statement s = conn.createStatement()) {
            assertTrue(s.execute("SELECT 1; SELECT 2"));
            ResultSet first = s.getResultSet();
            assertThrows(SQLFeatureNotSupportedException.class, () -> s.getMoreResults(Statement.KEEP_CURRENT_RESULT));
            assertFalse(first.isClosed(), "the refused call changed nothing");
            assertEquals(List.of(1L), column(first));
            assertTrue(s.getMoreResults(Statement.CLOSE_ALL_RESULTS));
            assertTrue(first.isClosed());
            assertEquals(List.of(2L), column(s.getResultSet()));
        }
    }

    /** Issue 27 item 12: a query anywhere in the text is refused before any statement of it runs. */
    @ParameterizedTest(name = "autoCommit={0}")
    @ValueSource(booleans = {true, false})
    void executeUpdateRefusesATextHoldingAQueryBeforeRunningAnyOfIt(boolean autoCommit) throws SQLException {
        conn.setAutoCommit(autoCommit);
        try (Statement s = conn.createStatement()) {
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t(x) VALUES (1); SELECT 1; INSERT INTO t(x) VALUES (2)"));
            assertTrue(e.getMessage().contains("none of it ran"), e.getMessage());
            assertThrows(SQLException.class, () -> s.executeLargeUpdate("UPDATE t SET x = 1; VALUES (1)"));
            assertEquals(0, scalar("SELECT count(*) FROM t"));
            s.addBatch("INSERT INTO t(x) VALUES (3)");
            s.addBatch("INSERT INTO t(x) VALUES (4); SELECT x FROM t");
            BatchUpdateException b = assertThrows(BatchUpdateException.class, s::executeBatch);
            assertArrayEquals(new int[] {1}, b.getUpdateCounts());
            assertEquals(List.of(3L), column(conn.createStatement().executeQuery("SELECT x FROM t")));
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (5); INSERT INTO t(x) VALUES (6)"), "still usable");
            if (!autoCommit) {
                conn.commit();
            }
        }
        assertEquals(3, scalar("SELECT count(*) FROM t"));
    }

    @Test
    void executeUpdateRunsATextWhoseSemicolonsEndNoStatement() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (length('a; SELECT 1')) -- ; SELECT 2"));
            // the look ahead prepares the trigger whole: the SELECT in its body is no query of the text
            assertEquals(1, s.executeUpdate("CREATE TABLE log(v); CREATE TRIGGER tr AFTER INSERT ON t BEGIN"
                    + " INSERT INTO log VALUES (new.x); SELECT 1; END; INSERT INTO t(x) VALUES (7)"));
            assertEquals(1, scalar("SELECT count(*) FROM log"));
            // PRAGMA and RETURNING return rows but are no queries: they run
            assertEquals(2, s.executeUpdate("PRAGMA user_version = 7; INSERT INTO t(x) VALUES (8), (9) RETURNING id;"
                    + " PRAGMA user_version"));
            assertEquals(7, scalar("PRAGMA user_version"));
            assertEquals(4, scalar("SELECT count(*) FROM t"));
            // a PRAGMA that returns rows after another statement is no query either (adversarial review:
            // it was judged by the text's first statement, so the INSERT ran and then the PRAGMA was refused)
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (101); PRAGMA table_info(t)"));
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (102); PRAGMA integrity_check; PRAGMA user_version"));
            assertEquals(6, scalar("SELECT count(*) FROM t"));
        }
    }

    /**
     * The README's limit: a query SQLite can prepare only once an earlier statement of the text ran
     * (it reads a table the text creates) is refused when it is reached, after the statements before it.
     */
    @Test
    void executeUpdateRefusesAQueryOfATableTheTextCreatesWhenItIsReached() throws SQLException {
        try (Statement s = conn.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
                    "CREATE TABLE a(x); INSERT INTO a VALUES (1); SELECT x FROM a; INSERT INTO a VALUES (2)"));
            assertTrue(e.getMessage().contains("the statements before it ran"), e.getMessage());
            assertEquals(1, scalar("SELECT count(*) FROM a"));
            assertNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    /** The README's rule: the count of the last INSERT, UPDATE or DELETE that ran; 0 when none changed a row. */
    @Test
    void theUpdateCountOfSeveralStatementsIsTheLastWritesCount() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(3, s.executeUpdate("CREATE TABLE a(x); INSERT INTO a VALUES (1), (2), (3); CREATE TABLE b(y)"),
                    "DDL after the INSERT does not count");
            assertEquals(0, s.executeUpdate("INSERT INTO a VALUES (4), (5); DELETE FROM a WHERE 0"),
                    "the last write changed no row");
            assertEquals(0, s.executeUpdate("CREATE TABLE c(z); PRAGMA user_version = 3"), "no INSERT, UPDATE or DELETE");
        }
    }

    @Test
    void trailingWhitespaceCommentsAndSemicolonsAreFine() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertFalse(s.execute("CREATE TABLE a(x); INSERT INTO a VALUES(1);;  \n -- done\n /* end */ ; \n\t"));
            assertEquals(1, scalar("SELECT count(*) FROM a"));
            assertEquals(1, s.executeUpdate("INSERT INTO a VALUES(2); -- trailing comment"));
            assertEquals(1, s.executeUpdate("/* leading */ INSERT INTO a VALUES(3) /* trailing */;"));
            assertEquals(3, scalar("SELECT count(*) FROM a"));
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void queryInTheMiddleBecomesTheResultAndTheRestRunsOnGetMoreResults() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertFalse(s.execute("INSERT INTO t(x) VALUES (1); SELECT x FROM t ORDER BY x; INSERT INTO t(x) VALUES (2)"));
            assertEquals(1, s.getUpdateCount(), "the INSERT's count comes first");
            assertTrue(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
            ResultSet rs = s.getResultSet();
            assertNotNull(rs);
            // only the statements up to the query have run
            assertEquals(1, scalar("SELECT count(*) FROM t"));
            assertEquals(List.of(1L), column(rs));

            assertFalse(s.getMoreResults());
            assertTrue(rs.isClosed(), "getMoreResults() closes the current result set");
            assertNull(s.getResultSet());
            assertEquals(1, s.getUpdateCount());
            assertEquals(2, scalar("SELECT count(*) FROM t"));

            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
            assertNull(s.getResultSet());
        }
    }

    @Test
    void twoQueriesInOneTextGiveTwoResultSets() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertTrue(s.execute("SELECT 1; SELECT 2 UNION ALL SELECT 3;"));
            assertEquals(List.of(1L), column(s.getResultSet()));
            assertTrue(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
            assertEquals(List.of(2L, 3L), column(s.getResultSet()));
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void queryFollowedOnlyByACommentHasNoMoreResults() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertTrue(s.execute("SELECT 1; -- nothing after this"));
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount(), "a comment is not a statement: no update count follows the query");
            assertTrue(s.execute("SELECT 1; /* nothing */ ;"));
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void errorInTheTailSurfacesOnGetMoreResults() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertTrue(s.execute("SELECT 1; INSERT INTO no_such_table VALUES (1); INSERT INTO t(x) VALUES (1)"));
            assertEquals(List.of(1L), column(s.getResultSet()));
            assertThrows(SQLException.class, s::getMoreResults);
            assertEquals(0, scalar("SELECT count(*) FROM t"), "nothing after the failing statement runs");
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (2)"));
        }
    }

    @Test
    void errorWhileSteppingSurfacesOnNext() throws SQLException {
        try (Statement s = conn.createStatement()) {
            ResultSet rs = s.executeQuery(
                    "SELECT CASE WHEN column1 = 2 THEN abs(-9223372036854775807 - 1) ELSE column1 END FROM (VALUES (1), (2))");
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
            SQLException e = assertThrows(SQLException.class, rs::next);
            assertTrue(e.getMessage().contains("integer overflow"), e.getMessage());
            rs.close();
            try (ResultSet again = s.executeQuery("SELECT 5")) {
                assertTrue(again.next());
                assertEquals(5, again.getInt(1));
            }
        }
    }

    @Test
    void executeQueryOnTextWithoutAQueryThrows() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertThrows(SQLException.class, () -> s.executeQuery("CREATE TABLE b(x)"));
            assertThrows(SQLException.class, () -> s.executeQuery("INSERT INTO t(x) VALUES (5)"));
            // the statement is usable afterwards
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
        }
    }

    @Test
    void executeUpdateOnASelectThrows() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertThrows(SQLException.class, () -> s.executeUpdate("SELECT 1"));
            assertThrows(SQLException.class, () -> s.executeUpdate("  /* c */ select * from t"));
            assertThrows(SQLException.class, () -> s.executeLargeUpdate("VALUES (1)"));
            assertThrows(SQLException.class, () -> s.executeUpdate("WITH q AS (SELECT 1) SELECT * FROM q"));
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (5)"));
        }
    }

    @Test
    void executeUpdateOnPragmaWorks() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(0, s.executeUpdate("PRAGMA user_version = 5"));
            assertEquals(5, scalar("PRAGMA user_version"));
        }
    }

    @Test
    void executeUpdateOnInsertReturningCountsTheRows() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(2, s.executeUpdate("INSERT INTO t(x) VALUES (1),(2) RETURNING id"));
            assertEquals(2, scalar("SELECT count(*) FROM t"));
        }
    }

    @Test
    void executeQueryOnInsertReturningGivesTheRows() throws SQLException {
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("INSERT INTO t(id, x) VALUES (10, 1), (11, 2) RETURNING id")) {
            assertEquals(List.of(10L, 11L), column(rs));
        }
        assertEquals(2, scalar("SELECT count(*) FROM t"));
    }

    @Test
    void executeUpdateStopsAtAQueryInItsTextAndSaysSo() throws SQLException {
        try (Statement s = conn.createStatement()) {
            // refused before any of it runs (issue 27 item 12: the INSERT before the query used to commit), and the caller is told
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t(x) VALUES (1); SELECT 1; INSERT INTO t(x) VALUES (20)"));
            assertTrue(e.getMessage().contains("executeUpdate cannot run a text holding a query"), e::toString);
            try (ResultSet rs = s.executeQuery("SELECT x FROM t ORDER BY x")) {
                assertEquals(List.of(), column(rs), "nothing ran");
            }
        }
    }

    // ------------------------------------------------------------------ batches

    @Test
    void batchGivesCountPerStatement() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.addBatch("INSERT INTO t(x) VALUES (1),(2),(3)");
            s.addBatch("UPDATE t SET x = x * 10 WHERE x >= 2");
            s.addBatch("CREATE TABLE b(y)");
            s.addBatch("DELETE FROM t WHERE x = 999");
            assertArrayEquals(new int[] {3, 2, 0, 0}, s.executeBatch());
            assertEquals(51, scalar("SELECT sum(x) FROM t")); // 1 + 20 + 30
            assertEquals(1, scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'b'"));
        }
    }

    @Test
    void batchValuesAreApplied() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.addBatch("INSERT INTO t(x) VALUES (1),(2),(3)");
            s.addBatch("UPDATE t SET x = x * 10 WHERE x >= 2");
            assertArrayEquals(new long[] {3, 2}, s.executeLargeBatch());
            assertEquals(51, scalar("SELECT sum(x) FROM t"));
            // the batch is empty once executed
            assertArrayEquals(new int[0], s.executeBatch());
        }
    }

    @Test
    void failingBatchEntryGivesCountsOfTheEntriesBefore() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.addBatch("INSERT INTO t(x) VALUES (1)");
            s.addBatch("INSERT INTO t(x) VALUES (2),(3)");
            s.addBatch("INSERT INTO t(x) VALUES (1)"); // UNIQUE violation
            s.addBatch("INSERT INTO t(x) VALUES (4)");
            BatchUpdateException e = assertThrows(BatchUpdateException.class, s::executeBatch);
            assertArrayEquals(new int[] {1, 2}, e.getUpdateCounts());
            assertArrayEquals(new long[] {1, 2}, e.getLargeUpdateCounts());
            assertEquals(3, scalar("SELECT count(*) FROM t"));
        }
    }

    @Test
    void clearBatchEmptiesIt() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.addBatch("INSERT INTO t(x) VALUES (1)");
            s.addBatch("INSERT INTO t(x) VALUES (2)");
            s.clearBatch();
            assertArrayEquals(new int[0], s.executeBatch());
            assertEquals(0, scalar("SELECT count(*) FROM t"));
            s.addBatch("INSERT INTO t(x) VALUES (3)");
            assertArrayEquals(new int[] {1}, s.executeBatch());
            assertEquals(1, scalar("SELECT count(*) FROM t"));
        }
    }

    // ------------------------------------------------------------------ generated keys

    @Test
    void generatedKeysWhenAsked() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("INSERT INTO t(id, x) VALUES (41, 0)");
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (7)", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertTrue(keys.next());
                assertEquals(42L, keys.getLong(1));
                assertEquals(scalar("SELECT id FROM t WHERE x = 7"), keys.getLong(1));
                assertFalse(keys.next());
            }
            assertFalse(s.execute("INSERT INTO t(x) VALUES (8)", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertTrue(keys.next());
                assertEquals(43L, keys.getLong(1));
            }
        }
    }

    @Test
    void withGetGeneratedKeysFalseNoKeysUnlessAsked() throws SQLException {
        try (Connection off = TestDb.open(dir, "jdbc.get_generated_keys=false"); Statement s = off.createStatement()) {
            s.executeUpdate("INSERT INTO t(x) VALUES (7)");
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
            s.executeUpdate("INSERT INTO t(x) VALUES (8)", Statement.NO_GENERATED_KEYS);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
            // asking once does not make the next execution return keys
            s.executeUpdate("INSERT INTO t(x) VALUES (9)", Statement.RETURN_GENERATED_KEYS);
            s.executeUpdate("INSERT INTO t(x) VALUES (10)");
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
        }
    }

    @Test
    void anUpdateGeneratesNoKeys() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("INSERT INTO t(x) VALUES (1)", Statement.RETURN_GENERATED_KEYS);
            assertEquals(1, s.executeUpdate("UPDATE t SET x = 5", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertFalse(keys.next(), "an UPDATE inserts no row: the earlier INSERT's rowid is not its key");
            }
            assertEquals(1, s.executeUpdate("DELETE FROM t", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
        }
    }

    @Test
    void badAutoGeneratedKeysFlagThrows() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t(x) VALUES (1)", 12345));
        }
    }

    // ------------------------------------------------------------------ limits and properties

    @Test
    void maxRowsLimitsTheRows() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("INSERT INTO t(x) VALUES (1),(2),(3),(4),(5)");
            s.setMaxRows(2);
            assertEquals(2, s.getMaxRows());
            try (ResultSet rs = s.executeQuery("SELECT x FROM t ORDER BY x")) {
                assertEquals(List.of(1L, 2L), column(rs));
            }
            s.setMaxRows(0);
            try (ResultSet rs = s.executeQuery("SELECT x FROM t ORDER BY x")) {
                assertEquals(5, column(rs).size());
            }
            s.setLargeMaxRows(3);
            assertEquals(3L, s.getLargeMaxRows());
            try (ResultSet rs = s.executeQuery("SELECT x FROM t ORDER BY x")) {
                assertEquals(3, column(rs).size());
            }
        }
    }

    @Test
    void fetchSizeIsKept() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(0, s.getFetchSize());
            s.setFetchSize(50);
            assertEquals(50, s.getFetchSize());
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertEquals(50, rs.getFetchSize(), "a result set starts with its statement's fetch size");
                rs.setFetchSize(7);
                assertEquals(7, rs.getFetchSize());
            }
        }
    }

    @Test
    void queryTimeoutIsKept() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(0, s.getQueryTimeout());
            s.setQueryTimeout(30);
            assertEquals(30, s.getQueryTimeout());
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
        }
    }

    @Test
    void invalidArgumentsThrow() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertThrows(SQLException.class, () -> s.setMaxRows(-1));
            assertThrows(SQLException.class, () -> s.setLargeMaxRows(-1));
            assertThrows(SQLException.class, () -> s.setQueryTimeout(-1));
            assertThrows(SQLException.class, () -> s.setFetchSize(-1));
            assertThrows(SQLException.class, () -> s.setMaxFieldSize(-1));
            assertThrows(SQLException.class, () -> s.execute(null));
            assertThrows(SQLException.class, () -> s.executeQuery(null));
            assertThrows(SQLException.class, () -> s.executeUpdate(null));
            assertThrows(SQLException.class, () -> s.executeLargeUpdate(null));
            assertThrows(SQLException.class, () -> s.addBatch(null));
            assertThrows(SQLException.class, () -> s.getMoreResults(99));
            assertEquals(0, s.getMaxRows());
            assertEquals(0, s.getQueryTimeout());
            assertEquals(0, s.getFetchSize());
        }
    }

    @Test
    void badSqlThrowsAndTheStatementStaysUsable() throws SQLException {
        try (Statement s = conn.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SELEC 1"));
            assertTrue(e.getMessage().contains("syntax"), e.getMessage());
            assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO nope VALUES (1)"));
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES (1)"));
        }
    }

    // ------------------------------------------------------------------ the results protocol

    @Test
    void resultsProtocolAfterAnUpdate() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertFalse(s.execute("INSERT INTO t(x) VALUES (1),(2)"));
            assertNull(s.getResultSet());
            assertEquals(2, s.getUpdateCount());
            assertFalse(s.getMoreResults());
            assertNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void resultsProtocolAfterAQuery() throws SQLException {
        try (Statement s = conn.createStatement()) {
            ResultSet rs = s.executeQuery("SELECT 1");
            assertSame(rs, s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
            assertFalse(s.getMoreResults(Statement.CLOSE_CURRENT_RESULT));
            assertTrue(rs.isClosed());
            assertNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
        }
    }

    @Test
    void newStatementHasNoResults() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
            assertFalse(s.getMoreResults());
        }
    }

    @Test
    void closeOnCompletionClosesTheStatementWithItsResultSet() throws SQLException {
        Statement s = conn.createStatement();
        assertFalse(s.isCloseOnCompletion());
        s.closeOnCompletion();
        assertTrue(s.isCloseOnCompletion());
        ResultSet rs = s.executeQuery("SELECT 1");
        assertTrue(rs.next());
        assertFalse(s.isClosed());
        rs.close();
        assertTrue(s.isClosed());
        assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1"));
    }

    @Test
    void withoutCloseOnCompletionTheStatementStaysOpen() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeQuery("SELECT 1").close();
            assertFalse(s.isClosed());
        }
    }

    @Test
    void reExecutingClosesThePreviousResultSet() throws SQLException {
        try (Statement s = conn.createStatement()) {
            ResultSet first = s.executeQuery("SELECT 1");
            assertTrue(first.next());
            ResultSet second = s.executeQuery("SELECT 2");
            assertTrue(first.isClosed());
            assertThrows(SQLException.class, first::next);
            assertTrue(second.next());
            assertEquals(2, second.getInt(1));
            s.executeUpdate("INSERT INTO t(x) VALUES (1)");
            assertTrue(second.isClosed());
        }
    }

    @Test
    void closingTheStatementClosesItsResultSet() throws SQLException {
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1");
        s.close();
        assertTrue(s.isClosed());
        assertTrue(rs.isClosed());
        assertThrows(SQLException.class, rs::next);
        s.close(); // closing twice is a no-op
    }

    @Test
    void closedStatementThrows() throws SQLException {
        Statement s = conn.createStatement();
        s.close();
        assertThrows(SQLException.class, () -> s.execute("SELECT 1"));
        assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t(x) VALUES (1)"));
        assertThrows(SQLException.class, s::getResultSet);
        assertThrows(SQLException.class, s::getUpdateCount);
        assertThrows(SQLException.class, () -> s.setMaxRows(1));
        assertThrows(SQLException.class, () -> s.addBatch("SELECT 1"));
        assertThrows(SQLException.class, s::executeBatch);
    }

    @Test
    void statementOfAClosedConnectionIsClosed() throws SQLException {
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1");
        conn.close();
        assertTrue(s.isClosed());
        assertThrows(SQLException.class, () -> s.execute("SELECT 1"));
        assertThrows(SQLException.class, rs::next);
        conn = TestDb.open(dir); // for @AfterEach
    }

    @Test
    void getConnectionReturnsTheConnection() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertSame(conn, s.getConnection());
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertSame(s, rs.getStatement());
            }
        }
    }
}
