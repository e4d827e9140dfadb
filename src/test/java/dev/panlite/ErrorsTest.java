package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.function.Executable;

/** What each failure looks like to JDBC code: subclass, SQLState, vendor code, message. */
class ErrorsTest {
    @TempDir
    Path dir;

    Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir, "foreign_keys=true");
        TestDb.exec(c,
                "CREATE TABLE parent(id INTEGER PRIMARY KEY)",
                "CREATE TABLE t(id INTEGER PRIMARY KEY, u TEXT UNIQUE, nn TEXT NOT NULL DEFAULT 'x',"
                        + " pos INTEGER CHECK (pos > 0), pid INTEGER REFERENCES parent(id))",
                "INSERT INTO parent VALUES (1)",
                "INSERT INTO t(id, u, pos) VALUES (1, 'a', 1)");
    }

    @AfterEach
    void close() throws SQLException {
        if (c != null) {
            c.close();
        }
    }

    /** Runs {@code sql} both as a Statement and as a PreparedStatement; both must fail alike. */
    private SQLException[] failBothWays(String sql) {
        SQLException viaStatement = expectSql(() -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate(sql);
            }
        });
        SQLException viaPrepared = expectSql(() -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.executeUpdate();
            }
        });
        return new SQLException[] {viaStatement, viaPrepared};
    }

    /** Asserts {@code action} throws an SQLException (and nothing else) and returns it. */
    static SQLException expectSql(Executable action) {
        try {
            action.execute();
        } catch (SQLException e) {
            return e;
        } catch (Throwable t) {
            throw new AssertionError("expected an SQLException, got " + t, t);
        }
        return fail("expected an SQLException, nothing was thrown");
    }

    private static void assertConstraint(SQLException e, String state, int extended, String codeName, String sqliteText) {
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, e, e::toString);
        assertEquals(state, e.getSQLState(), e::toString);
        assertTrue(e.getSQLState().startsWith("23"), e::toString);
        assertEquals(19, e.getErrorCode(), e::toString);
        SqliteError s = assertInstanceOf(SqliteError.class, e, e::toString);
        assertEquals(extended, s.extendedCode(), e::toString);
        assertEquals(codeName, s.codeName(), e::toString);
        assertTrue(e.getMessage().contains(sqliteText), "SQLite's text missing: " + e.getMessage());
        assertTrue(e.getMessage().contains(codeName), "code name missing: " + e.getMessage());
    }

    /**
     * A table wider than the connection's column limit (limit_column set low): SQLite reports a
     * malformed schema (SQLITE_CORRUPT), which is not XX001, "the file is corrupt": 54011, saying why.
     */
    @Test
    void aTableWiderThanTheColumnLimitIsNotACorruptFile() throws SQLException {
        TestDb.exec(c, "CREATE TABLE wide(a, b, c, d, e, f, g, h, i, j)");
        try (Connection low = TestDb.open(dir, "limit_column=8")) { // sqlite_schema itself has 5
            SQLException e = expectSql(() -> TestDb.queryLong(low, "SELECT count(*) FROM wide"));
            assertEquals("54011", e.getSQLState(), e.getMessage());
            assertEquals(11, e.getErrorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("The file is not corrupt"), e.getMessage());
            assertTrue(e.getMessage().contains("limit_column"), e.getMessage());
        }
        assertEquals(0, TestDb.queryLong(c, "SELECT count(*) FROM wide"), "the file is fine");
    }

    @Test
    void uniqueViolation() {
        for (SQLException e : failBothWays("INSERT INTO t(id, u, pos) VALUES (2, 'a', 1)")) {
            assertConstraint(e, "23505", 2067, "SQLITE_CONSTRAINT_UNIQUE", "UNIQUE constraint failed: t.u");
        }
    }

    @Test
    void primaryKeyViolation() {
        // an INTEGER PRIMARY KEY is the rowid: SQLite reports it as PRIMARYKEY
        for (SQLException e : failBothWays("INSERT INTO t(id, u, pos) VALUES (1, 'b', 1)")) {
            assertConstraint(e, "23505", 1555, "SQLITE_CONSTRAINT_PRIMARYKEY", "UNIQUE constraint failed: t.id");
        }
    }

    @Test
    void primaryKeyViolationWithParameters() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(id, u, pos) VALUES (?, ?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "zz");
            ps.setInt(3, 5);
            SQLException e = expectSql(ps::executeUpdate);
            assertConstraint(e, "23505", 1555, "SQLITE_CONSTRAINT_PRIMARYKEY", "UNIQUE constraint failed: t.id");
            // the statement is usable again after the failure
            ps.setInt(1, 2);
            assertEquals(1, ps.executeUpdate());
        }
    }

    @Test
    void notNullViolation() {
        for (SQLException e : failBothWays("INSERT INTO t(id, u, nn, pos) VALUES (3, 'c', NULL, 1)")) {
            assertConstraint(e, "23502", 1299, "SQLITE_CONSTRAINT_NOTNULL", "NOT NULL constraint failed: t.nn");
        }
    }

    @Test
    void checkViolation() {
        for (SQLException e : failBothWays("INSERT INTO t(id, u, pos) VALUES (3, 'c', -1)")) {
            assertConstraint(e, "23514", 275, "SQLITE_CONSTRAINT_CHECK", "CHECK constraint failed");
        }
    }

    @Test
    void foreignKeyViolation() {
        for (SQLException e : failBothWays("INSERT INTO t(id, u, pos, pid) VALUES (3, 'c', 1, 99)")) {
            assertConstraint(e, "23503", 787, "SQLITE_CONSTRAINT_FOREIGNKEY", "FOREIGN KEY constraint failed");
        }
    }

    @Test
    void busyIsTransient() throws SQLException {
        try (Connection holder = TestDb.open(dir); Connection waiter = TestDb.open(dir, "busy_timeout=0")) {
            holder.setAutoCommit(false);
            TestDb.exec(holder, "INSERT INTO parent VALUES (2)"); // holds the write lock until commit
            try {
                for (Executable write : new Executable[] {
                        () -> TestDb.exec(waiter, "INSERT INTO parent VALUES (3)"),
                        () -> {
                            try (PreparedStatement ps = waiter.prepareStatement("INSERT INTO parent VALUES (4)")) {
                                ps.executeUpdate();
                            }
                        }}) {
                    SQLException e = expectSql(write);
                    assertInstanceOf(SQLTransientException.class, e, e::toString);
                    assertEquals(5, e.getErrorCode(), e::toString);
                    assertTrue(e.getMessage().contains("SQLITE_BUSY"), e.getMessage());
                }
            } finally {
                holder.rollback();
            }
            // once the lock is gone the same connection writes
            TestDb.exec(waiter, "INSERT INTO parent VALUES (5)");
        }
    }

    @Test
    void busyAtCommitLeavesTheTransactionToRetry() throws SQLException {
        try (Connection reader = TestDb.open(dir); Connection writer = TestDb.open(dir, "busy_timeout=0")) {
            writer.setAutoCommit(false);
            TestDb.exec(writer, "INSERT INTO parent VALUES (30)");
            try (Statement s = reader.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM parent")) {
                assertTrue(rs.next()); // the open read holds a shared lock: the commit cannot write
                SQLException e = expectSql(writer::commit);
                assertInstanceOf(SQLTransientException.class, e, e::toString);
                assertEquals(5, e.getErrorCode(), e::toString);
            }
            writer.commit(); // the reader is done: the same transaction commits now
            writer.setAutoCommit(true);
        }
        try (Connection check = TestDb.open(dir); Statement s = check.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM parent WHERE id = 30")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
        }
    }

    @Test
    void lockedTableInSharedCacheIsTransient() throws SQLException {
        String url = "jdbc:sqlite:file:errors_test_" + System.nanoTime() + "?mode=memory&cache=shared";
        try (Connection a = new Driver().connect(url, new Properties());
             Connection b = new Driver().connect(url, new Properties())) {
            TestDb.exec(a, "CREATE TABLE s(x)", "INSERT INTO s VALUES (1), (2)");
            try (Statement st = a.createStatement(); ResultSet rs = st.executeQuery("SELECT x FROM s")) {
                assertTrue(rs.next()); // a reads s: b may not change it
                SQLException e = expectSql(() -> TestDb.exec(b, "DROP TABLE s"));
                assertInstanceOf(SQLTransientException.class, e, e::toString);
                assertEquals(6, e.getErrorCode(), e::toString);
            }
        }
    }

    private static void assertSyntax(SQLException e) {
        assertInstanceOf(SQLSyntaxErrorException.class, e, e::toString);
        assertNotNull(e.getSQLState(), e::toString);
        assertTrue(e.getSQLState().startsWith("42"), "SQLState " + e.getSQLState() + ": " + e);
        assertEquals(1, e.getErrorCode(), e::toString);
    }

    @Test
    void syntaxErrorViaStatement() {
        SQLException e = expectSql(() -> TestDb.exec(c, "SELEC 1"));
        assertSyntax(e);
        assertTrue(e.getMessage().contains("syntax error"), e.getMessage());
    }

    @Test
    void syntaxErrorViaPrepareStatement() {
        SQLException e = expectSql(() -> c.prepareStatement("SELEC 1").close());
        assertSyntax(e);
        assertTrue(e.getMessage().contains("syntax error"), e.getMessage());
    }

    @Test
    void missingTableViaStatement() {
        SQLException e = expectSql(() -> {
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT * FROM no_such_table").close();
            }
        });
        assertSyntax(e);
        assertTrue(e.getMessage().contains("no such table"), e.getMessage());
    }

    @Test
    void missingTableViaStatementAfterAnotherStatement() {
        // the failing statement is not the first of the text
        SQLException e = expectSql(() -> TestDb.exec(c, "INSERT INTO parent VALUES (7); DELETE FROM no_such_table"));
        assertSyntax(e);
        assertTrue(e.getMessage().contains("no such table"), e.getMessage());
    }

    @Test
    void missingTableViaPrepareStatement() {
        SQLException e = expectSql(() -> c.prepareStatement("SELECT * FROM no_such_table").close());
        assertSyntax(e);
        assertTrue(e.getMessage().contains("no such table"), e.getMessage());
    }

    @Test
    void missingColumnIsSyntaxError() {
        assertSyntax(expectSql(() -> TestDb.exec(c, "SELECT no_such_column FROM t")));
        assertSyntax(expectSql(() -> c.prepareStatement("SELECT no_such_column FROM t").close()));
    }

    @Test
    void plainRuntimeErrorIsNotASyntaxError() {
        // SQLITE_ERROR raised while stepping (integer overflow in row 2), not while compiling
        String sql = "SELECT abs(x) FROM (SELECT 1 AS x UNION ALL SELECT -9223372036854775807 - 1)";
        for (Executable run : new Executable[] {
                () -> {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        while (rs.next()) {
                            rs.getLong(1);
                        }
                    }
                },
                () -> {
                    try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rs.getLong(1);
                        }
                    }
                },
                () -> TestDb.exec(c, "CREATE TABLE big AS " + sql)}) {
            SQLException e = expectSql(run);
            assertFalse(e instanceof SQLSyntaxErrorException, e::toString);
            assertEquals(1, e.getErrorCode(), e::toString);
            assertTrue(e.getMessage().contains("integer overflow"), e.getMessage());
        }
    }

    @Test
    void readOnlyByOpenMode() throws SQLException {
        try (Connection ro = TestDb.open(dir, "open_mode=1")) {
            assertTrue(ro.isReadOnly());
            try (ResultSet rs = ro.createStatement().executeQuery("SELECT count(*) FROM t")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
            SQLException e = expectSql(() -> TestDb.exec(ro, "INSERT INTO parent VALUES (10)"));
            assertEquals(8, e.getErrorCode(), e::toString);
            SQLException p = expectSql(() -> {
                try (PreparedStatement ps = ro.prepareStatement("INSERT INTO parent VALUES (11)")) {
                    ps.executeUpdate();
                }
            });
            assertEquals(8, p.getErrorCode(), p::toString);
        }
    }

    @Test
    void readOnlyByUriMode() throws SQLException {
        String url = "jdbc:sqlite:file:" + dir.resolve("test.db") + "?mode=ro";
        try (Connection ro = new Driver().connect(url, new Properties())) {
            SQLException e = expectSql(() -> TestDb.exec(ro, "DELETE FROM parent"));
            assertEquals(8, e.getErrorCode(), e::toString);
            assertTrue(e.getMessage().contains("SQLITE_READONLY"), e.getMessage());
        }
    }

    @Test
    void badParameterIndex() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT ? + ?")) {
            expectSql(() -> ps.setInt(3, 1));
            expectSql(() -> ps.setInt(0, 1));
            expectSql(() -> ps.setInt(-1, 1));
            expectSql(() -> ps.setString(99, "x"));
            expectSql(() -> ps.setNull(3, java.sql.Types.INTEGER));
            expectSql(() -> ps.setObject(3, 1));
            expectSql(() -> ps.setBytes(3, new byte[] {1}));
            expectSql(() -> ps.setLong(Integer.MAX_VALUE, 1L));
        }
        try (PreparedStatement none = c.prepareStatement("SELECT 1")) {
            expectSql(() -> none.setInt(1, 1));
        }
    }

    @Test
    void badColumnIndex() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1, 2")) {
            expectSql(() -> rs.getInt(1)); // before next()
            assertTrue(rs.next());
            expectSql(() -> rs.getInt(0));
            expectSql(() -> rs.getInt(3));
            expectSql(() -> rs.getString(-1));
            expectSql(() -> rs.getInt("no_such_label"));
            assertFalse(rs.next());
            expectSql(() -> rs.getInt(1)); // after the last row
        }
    }

    @Test
    void executeUpdateOnAQuery() throws SQLException {
        try (Statement s = c.createStatement()) {
            expectSql(() -> s.executeUpdate("SELECT * FROM t"));
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM t")) {
            expectSql(ps::executeUpdate);
            expectSql(ps::executeLargeUpdate);
        }
    }

    @Test
    void executeQueryOnAnInsert() throws SQLException {
        try (Statement s = c.createStatement()) {
            expectSql(() -> s.executeQuery("INSERT INTO parent VALUES (20)"));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO parent VALUES (21)")) {
            expectSql(ps::executeQuery);
        }
    }

    @Test
    void closedConnection() throws SQLException {
        Statement s = c.createStatement();
        PreparedStatement ps = c.prepareStatement("SELECT ?");
        c.close();
        assertTrue(c.isClosed());
        expectSql(c::createStatement);
        expectSql(() -> c.prepareStatement("SELECT 1"));
        expectSql(() -> c.setAutoCommit(false));
        expectSql(c::getAutoCommit);
        expectSql(c::commit);
        expectSql(c::rollback);
        expectSql(c::getMetaData);
        expectSql(c::setSavepoint);
        expectSql(() -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
        expectSql(() -> s.execute("SELECT 1"));
        expectSql(() -> s.executeQuery("SELECT 1"));
        expectSql(() -> s.executeUpdate("DELETE FROM t"));
        expectSql(ps::executeQuery);
        expectSql(() -> ps.setInt(1, 1));
        expectSql(ps::execute);
        c.close(); // idempotent
        s.close();
        ps.close();
    }

    @Test
    void closedStatement() throws SQLException {
        Statement s = c.createStatement();
        s.close();
        assertTrue(s.isClosed());
        expectSql(() -> s.execute("SELECT 1"));
        expectSql(() -> s.executeQuery("SELECT 1"));
        expectSql(() -> s.executeUpdate("DELETE FROM t"));
        expectSql(() -> s.addBatch("DELETE FROM t"));
        expectSql(s::executeBatch);
        expectSql(s::getResultSet);
        expectSql(s::getUpdateCount);
        expectSql(s::getMoreResults);
        expectSql(() -> s.setQueryTimeout(1));
        expectSql(() -> s.setMaxRows(1));
        expectSql(s::getGeneratedKeys);
        expectSql(s::cancel);
        s.close(); // idempotent
    }

    @Test
    void closedPreparedStatement() throws SQLException {
        PreparedStatement ps = c.prepareStatement("SELECT ? AS v");
        ps.close();
        assertTrue(ps.isClosed());
        expectSql(ps::executeQuery);
        expectSql(ps::executeUpdate);
        expectSql(ps::execute);
        expectSql(() -> ps.setInt(1, 1));
        expectSql(() -> ps.setString(1, "x"));
        expectSql(() -> ps.setObject(1, 1));
        expectSql(ps::clearParameters);
        expectSql(ps::addBatch);
        expectSql(ps::executeBatch);
        expectSql(ps::getMetaData);
        expectSql(ps::getParameterMetaData);
        ps.close(); // idempotent
    }

    @Test
    void closedResultSet() throws SQLException {
        try (Statement s = c.createStatement()) {
            ResultSet rs = s.executeQuery("SELECT 1 AS v");
            rs.close();
            assertTrue(rs.isClosed());
            expectSql(rs::next);
            expectSql(() -> rs.getInt(1));
            expectSql(() -> rs.getString("v"));
            expectSql(() -> rs.getObject(1));
            expectSql(rs::getMetaData);
            expectSql(rs::wasNull);
            expectSql(() -> rs.findColumn("v"));
            rs.close(); // idempotent
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 AS v")) {
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            ps.close(); // closes the result set with it
            expectSql(rs::next);
            expectSql(() -> rs.getInt(1));
        }
    }

    @Test
    void resultSetAfterConnectionClosed() throws SQLException {
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1 AS v UNION ALL SELECT 2");
        assertTrue(rs.next());
        PreparedStatement ps = c.prepareStatement("SELECT 1 AS v UNION ALL SELECT 2");
        ResultSet prs = ps.executeQuery();
        assertTrue(prs.next());
        c.close();
        expectSql(rs::next);
        expectSql(() -> rs.getInt(1));
        expectSql(prs::next);
        expectSql(() -> prs.getLong(1));
        expectSql(() -> prs.getString(1));
        rs.close();
        prs.close();
    }

    @Test
    void missingDirectoryNamesThePath() {
        Path missing = dir.resolve("no-such-dir").resolve("x.db");
        assertFalse(Files.exists(missing.getParent()));
        SQLException e = expectSql(() -> new Driver().connect("jdbc:sqlite:" + missing, new Properties()));
        assertEquals(14, e.getErrorCode(), e::toString);
        assertTrue(e.getMessage().contains(missing.toString()), "path not named: " + e.getMessage());
        assertTrue(e.getMessage().contains("SQLITE_CANTOPEN"), e.getMessage());
        assertFalse(Files.exists(missing.getParent()), "the directory must not be created");
    }

    @Test
    void misspelledSettingIsNamed() {
        SQLException e = expectSql(() -> TestDb.open(dir, "busy_timout=10"));
        assertTrue(e.getMessage().contains("busy_timout"), e.getMessage());
        assertTrue(e.getMessage().contains("busy_timeout"), "no suggestion: " + e.getMessage());
        Properties p = new Properties();
        p.setProperty("jornal_mode", "WAL");
        SQLException fromProps = expectSql(() -> new Driver().connect(TestDb.url(dir, "test.db", ""), p));
        assertTrue(fromProps.getMessage().contains("jornal_mode"), fromProps.getMessage());
    }

    @Test
    void invalidSettingValueIsNamed() {
        SQLException e = expectSql(() -> TestDb.open(dir, "busy_timeout=soon"));
        assertTrue(e.getMessage().contains("busy_timeout"), e.getMessage());
        assertTrue(e.getMessage().contains("soon"), e.getMessage());
    }
}
