package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** java.sql.Connection as the JDBC 4.3 javadoc describes it, on a real SQLite file. */
class ConnectionTest {
    @TempDir
    Path dir;

    private Connection conn;

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        TestDb.exec(conn, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    @AfterEach
    void close() throws SQLException {
        if (conn != null) {
            conn.close();
        }
    }

    private static long count(Connection c, String table) throws SQLException {
        return TestDb.queryLong(c, "SELECT count(*) FROM " + table);
    }

    private static void assertWorks(Statement s) throws SQLException {
        assertEquals(1, s.executeUpdate("INSERT INTO t(v) VALUES ('x')"));
        try (ResultSet rs = s.executeQuery("SELECT v FROM t ORDER BY id DESC LIMIT 1")) {
            assertTrue(rs.next());
            assertEquals("x", rs.getString(1));
            assertFalse(rs.next());
        }
    }

    private static long singleKey(Statement s) throws SQLException {
        try (ResultSet keys = s.getGeneratedKeys()) {
            assertTrue(keys.next(), "one generated key expected");
            long key = keys.getLong(1);
            assertFalse(keys.next());
            return key;
        }
    }

    private static long maxId(Connection c) throws SQLException {
        return TestDb.queryLong(c, "SELECT max(id) FROM t");
    }

    // ------------------------------------------------------------------ creating statements

    @Test
    void everyCreateStatementOverloadGivesAWorkingStatement() throws SQLException {
        try (Statement a = conn.createStatement();
                Statement b = conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
                Statement c = conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
                        ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
            assertWorks(a);
            assertWorks(b);
            assertWorks(c);
            assertSame(conn, a.getConnection());
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, b.getResultSetType());
            assertEquals(ResultSet.CONCUR_READ_ONLY, b.getResultSetConcurrency());
        }
        assertNull(conn.getWarnings(), "supported options give no warning");
        assertEquals(3, count(conn, "t"));
    }

    @Test
    void everyPrepareStatementOverloadGivesAWorkingStatement() throws SQLException {
        String insert = "INSERT INTO t(v) VALUES (?)";
        try (PreparedStatement p = conn.prepareStatement(insert)) {
            p.setString(1, "a");
            assertEquals(1, p.executeUpdate());
        }
        try (PreparedStatement p = conn.prepareStatement(insert, ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY)) {
            p.setString(1, "b");
            assertEquals(1, p.executeUpdate());
        }
        try (PreparedStatement p = conn.prepareStatement(insert, ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY, ResultSet.CLOSE_CURSORS_AT_COMMIT)) {
            p.setString(1, "c");
            assertEquals(1, p.executeUpdate());
        }
        assertNull(conn.getWarnings());
        try (PreparedStatement p = conn.prepareStatement("SELECT v FROM t ORDER BY id")) {
            try (ResultSet rs = p.executeQuery()) {
                List<String> seen = new ArrayList<>();
                while (rs.next()) {
                    seen.add(rs.getString(1));
                }
                assertEquals(List.of("a", "b", "c"), seen);
            }
        }
    }

    @Test
    void prepareStatementWithReturnGeneratedKeysReturnsTheRowid() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO t(v) VALUES (?)",
                Statement.RETURN_GENERATED_KEYS)) {
            p.setString(1, "k1");
            assertEquals(1, p.executeUpdate());
            assertEquals(maxId(conn), singleKey(p));
            p.setString(1, "k2");
            assertEquals(1, p.executeUpdate());
            assertEquals(maxId(conn), singleKey(p));
        }
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO t(v) VALUES (?)",
                Statement.NO_GENERATED_KEYS)) {
            p.setString(1, "k3");
            assertEquals(1, p.executeUpdate());
            try (ResultSet keys = p.getGeneratedKeys()) {
                assertTrue(keys.next(), "the incumbent's way: an insert answers anyway (jdbc.get_generated_keys)");
                assertEquals(maxId(conn), keys.getLong(1));
            }
        }
    }

    @Test
    void prepareStatementWithColumnIndexesOrNamesReturnsTheKey() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO t(v) VALUES (?)", new int[] {1})) {
            p.setString(1, "i");
            assertEquals(1, p.executeUpdate());
            assertEquals(maxId(conn), singleKey(p));
        }
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO t(v) VALUES (?)", new String[] {"id"})) {
            p.setString(1, "n");
            assertEquals(1, p.executeUpdate());
            try (ResultSet keys = p.getGeneratedKeys()) {
                assertTrue(keys.next());
                assertEquals(maxId(conn), keys.getLong("id"));
            }
        }
        assertEquals(2, count(conn, "t"));
    }

    @Test
    void statementExecuteWithGeneratedKeysReturnsTheRowid() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t(v) VALUES ('a')", Statement.RETURN_GENERATED_KEYS));
            assertEquals(maxId(conn), singleKey(s));
            assertEquals(1, s.executeUpdate("INSERT INTO t(v) VALUES ('b')", new int[] {1}));
            assertEquals(maxId(conn), singleKey(s));
            assertEquals(1, s.executeUpdate("INSERT INTO t(v) VALUES ('c')", new String[] {"id"}));
            assertEquals(maxId(conn), singleKey(s));
        }
    }

    @Test
    void unsupportedResultSetTypesWarnOnTheConnectionAndStillWork() throws SQLException {
        assertNull(conn.getWarnings());
        try (Statement s = conn.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)) {
            SQLWarning w = conn.getWarnings();
            assertNotNull(w, "TYPE_SCROLL_INSENSITIVE must leave a warning on the connection");
            assertWorks(s);
        }
        conn.clearWarnings();
        assertNull(conn.getWarnings());
        try (Statement s = conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)) {
            assertNotNull(conn.getWarnings(), "CONCUR_UPDATABLE must leave a warning on the connection");
            assertWorks(s);
        }
        conn.clearWarnings();
        try (PreparedStatement p = conn.prepareStatement("SELECT count(*) FROM t", ResultSet.TYPE_SCROLL_SENSITIVE,
                ResultSet.CONCUR_UPDATABLE, ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
            assertNotNull(conn.getWarnings());
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
        conn.clearWarnings();
        try (PreparedStatement p = conn.prepareStatement("SELECT 7", ResultSet.TYPE_SCROLL_INSENSITIVE,
                ResultSet.CONCUR_READ_ONLY)) {
            assertNotNull(conn.getWarnings());
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
        }
    }

    @Test
    void invalidConstantsThrow() {
        assertThrows(SQLException.class, () -> conn.createStatement(12345, ResultSet.CONCUR_READ_ONLY));
        assertThrows(SQLException.class, () -> conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, 12345));
        assertThrows(SQLException.class,
                () -> conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, 12345));
        assertThrows(SQLException.class, () -> conn.prepareStatement("SELECT 1", 12345, ResultSet.CONCUR_READ_ONLY));
        assertThrows(SQLException.class, () -> conn.prepareStatement("SELECT 1", ResultSet.TYPE_FORWARD_ONLY, 12345));
        assertThrows(SQLException.class, () -> conn.prepareStatement("SELECT 1", ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY, 12345));
        assertThrows(SQLException.class, () -> conn.prepareStatement("INSERT INTO t(v) VALUES (1)", 12345));
    }

    @Test
    void invalidSqlInPrepareThrowsAndLeavesTheConnectionUsable() throws SQLException {
        assertThrows(SQLException.class, () -> conn.prepareStatement("SELEKT nonsense"));
        assertThrows(SQLException.class, () -> conn.prepareStatement(null));
        try (Statement s = conn.createStatement()) {
            assertWorks(s);
        }
    }

    @Test
    void prepareCallIsNotSupported() {
        assertThrows(java.sql.SQLFeatureNotSupportedException.class, () -> conn.prepareCall("CALL x()"));
    }

    // ------------------------------------------------------------------ auto-commit

    @Test
    void autoCommitIsOnByDefaultAndCommitOrRollbackThenThrow() throws SQLException {
        assertTrue(conn.getAutoCommit());
        assertThrows(SQLException.class, conn::commit);
        assertThrows(SQLException.class, conn::rollback);
        conn.setAutoCommit(false);
        assertFalse(conn.getAutoCommit());
        conn.setAutoCommit(true);
        assertTrue(conn.getAutoCommit());
        assertThrows(SQLException.class, conn::commit);
    }

    @Test
    void autoCommitWritesAreVisibleToAnotherConnectionAtOnce() throws SQLException {
        try (Connection other = TestDb.open(dir)) {
            TestDb.exec(conn, "INSERT INTO t(v) VALUES ('now')");
            assertEquals(1, count(other, "t"));
        }
    }

    // ------------------------------------------------------------------ close

    @Test
    void closeAndIsClosed() throws SQLException {
        assertFalse(conn.isClosed());
        conn.close();
        assertTrue(conn.isClosed());
        conn.close(); // a second close is a no-op
        assertTrue(conn.isClosed());
    }

    @Test
    void closingTheConnectionClosesItsStatementsAndResultSets() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('a'), ('b'), ('c')");
        Statement plain = conn.createStatement();
        ResultSet plainRows = plain.executeQuery("SELECT id, v FROM t ORDER BY id");
        assertTrue(plainRows.next());
        PreparedStatement prepared = conn.prepareStatement("SELECT v FROM t WHERE id > ?");
        prepared.setInt(1, 0);
        ResultSet preparedRows = prepared.executeQuery();
        assertTrue(preparedRows.next());
        PreparedStatement insert = conn.prepareStatement("INSERT INTO t(v) VALUES (?)");
        Statement idle = conn.createStatement();

        conn.close();

        for (Statement s : List.of(plain, prepared, insert, idle)) {
            assertTrue(s.isClosed(), "statement closed with its connection");
        }
        assertTrue(plainRows.isClosed(), "result set closed with its connection");
        assertTrue(preparedRows.isClosed(), "result set closed with its connection");

        // using them fails with SQLException, never NPE or a crash
        assertThrows(SQLException.class, plainRows::next);
        assertThrows(SQLException.class, () -> plainRows.getInt(1));
        assertThrows(SQLException.class, () -> plainRows.getString("v"));
        assertThrows(SQLException.class, plainRows::getMetaData);
        assertThrows(SQLException.class, preparedRows::next);
        assertThrows(SQLException.class, () -> preparedRows.getString(1));
        assertThrows(SQLException.class, () -> plain.executeQuery("SELECT 1"));
        assertThrows(SQLException.class, () -> plain.execute("SELECT 1"));
        assertThrows(SQLException.class, () -> plain.executeUpdate("DELETE FROM t"));
        assertThrows(SQLException.class, () -> idle.executeQuery("SELECT 1"));
        assertThrows(SQLException.class, plain::getResultSet);
        assertThrows(SQLException.class, plain::getUpdateCount);
        assertThrows(SQLException.class, plain::getMoreResults);
        assertThrows(SQLException.class, () -> plain.addBatch("SELECT 1"));
        assertThrows(SQLException.class, plain::getGeneratedKeys);
        assertThrows(SQLException.class, () -> plain.setQueryTimeout(1));
        assertThrows(SQLException.class, plain::getConnection);
        assertThrows(SQLException.class, prepared::executeQuery);
        assertThrows(SQLException.class, () -> prepared.setInt(1, 2));
        assertThrows(SQLException.class, () -> insert.setString(1, "x"));
        assertThrows(SQLException.class, insert::executeUpdate);
        assertThrows(SQLException.class, insert::execute);
        assertThrows(SQLException.class, insert::addBatch);
        assertThrows(SQLException.class, insert::executeBatch);
        assertThrows(SQLException.class, insert::clearParameters);
        assertThrows(SQLException.class, insert::getMetaData);
        assertThrows(SQLException.class, insert::getParameterMetaData);
        // closing them again is allowed
        plainRows.close();
        preparedRows.close();
        plain.close();
        prepared.close();
        insert.close();
        idle.close();
    }

    @Test
    void closingTheConnectionClosesGeneratedKeyResultSets() throws SQLException {
        PreparedStatement p = conn.prepareStatement("INSERT INTO t(v) VALUES ('k')", Statement.RETURN_GENERATED_KEYS);
        p.executeUpdate();
        ResultSet keys = p.getGeneratedKeys();
        conn.close();
        assertTrue(p.isClosed());
        assertTrue(keys.isClosed(), "a result set of a closed statement is closed");
        assertThrows(SQLException.class, keys::next);
    }

    @Test
    void closedConnectionLeavesOtherConnectionsAlone() throws SQLException {
        try (Connection other = TestDb.open(dir)) {
            conn.close();
            TestDb.exec(other, "INSERT INTO t(v) VALUES ('still')");
            assertEquals(1, count(other, "t"));
        }
    }

    // ------------------------------------------------------------------ isValid, warnings

    @Test
    void isValidIsTrueWhenOpenFalseWhenClosedAndRejectsANegativeTimeout() throws SQLException {
        assertTrue(conn.isValid(0));
        assertTrue(conn.isValid(5));
        assertThrows(SQLException.class, () -> conn.isValid(-1));
        conn.close();
        assertFalse(conn.isValid(0));
        assertFalse(conn.isValid(5));
    }

    @Test
    void warningsAreClearedByClearWarnings() throws SQLException {
        assertNull(conn.getWarnings());
        conn.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_UPDATABLE).close();
        SQLWarning w = conn.getWarnings();
        assertNotNull(w);
        int chained = 0;
        for (SQLWarning each = w; each != null; each = each.getNextWarning()) {
            chained++;
        }
        assertEquals(2, chained, "one warning for the type, one for the concurrency");
        conn.clearWarnings();
        assertNull(conn.getWarnings());
    }

    // ------------------------------------------------------------------ holdability

    @Test
    void holdabilityCanBeSetAndReadAndRejectsUnknownValues() throws SQLException {
        int initial = conn.getHoldability();
        assertTrue(initial == ResultSet.HOLD_CURSORS_OVER_COMMIT || initial == ResultSet.CLOSE_CURSORS_AT_COMMIT);
        conn.setHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT);
        assertEquals(ResultSet.HOLD_CURSORS_OVER_COMMIT, conn.getHoldability());
        try (Statement s = conn.createStatement()) {
            assertEquals(ResultSet.HOLD_CURSORS_OVER_COMMIT, s.getResultSetHoldability());
        }
        conn.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
        assertEquals(ResultSet.CLOSE_CURSORS_AT_COMMIT, conn.getHoldability());
        assertThrows(SQLException.class, () -> conn.setHoldability(12345));
        assertEquals(ResultSet.CLOSE_CURSORS_AT_COMMIT, conn.getHoldability(), "a rejected value changes nothing");
    }

    // ------------------------------------------------------------------ read-only

    @Test
    void readOnlyBlocksWritesButNotReadsAndCanBeUndone() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('before')");
        assertFalse(conn.isReadOnly());
        conn.setReadOnly(true);
        assertTrue(conn.isReadOnly());
        assertThrows(SQLException.class, () -> TestDb.exec(conn, "INSERT INTO t(v) VALUES ('blocked')"));
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            p.setString(1, "blocked too");
            assertThrows(SQLException.class, p::executeUpdate);
        }
        assertEquals(1, count(conn, "t"), "reads still work and nothing was written");
        conn.setReadOnly(false);
        assertFalse(conn.isReadOnly());
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('after')");
        assertEquals(2, count(conn, "t"));
    }

    @Test
    void readOnlyCannotChangeInsideAnOpenTransaction() throws SQLException {
        conn.setAutoCommit(false);
        conn.setReadOnly(true); // nothing ran yet: no transaction is open, so this is allowed
        assertTrue(conn.isReadOnly());
        conn.setReadOnly(false);
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('in tx')"); // the transaction is open now
        assertThrows(SQLException.class, () -> conn.setReadOnly(true));
        assertFalse(conn.isReadOnly(), "the failed switch changed nothing");
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('still writable')");
        conn.commit();
        conn.setReadOnly(true);
        assertTrue(conn.isReadOnly());
        assertThrows(SQLException.class, () -> TestDb.exec(conn, "INSERT INTO t(v) VALUES ('blocked')"));
        conn.rollback();
        assertEquals(2, count(conn, "t"));
    }

    @Test
    void aConnectionOpenedReadOnlyCannotBeMadeWritable() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('x')");
        try (Connection ro = TestDb.open(dir, "open_mode=1")) {
            assertTrue(ro.isReadOnly());
            assertEquals(1, count(ro, "t"));
            assertThrows(SQLException.class, () -> ro.setReadOnly(false));
            assertTrue(ro.isReadOnly());
            assertThrows(SQLException.class, () -> TestDb.exec(ro, "INSERT INTO t(v) VALUES ('no')"));
            ro.setReadOnly(true); // no change: allowed
        }
        assertEquals(1, count(conn, "t"));
    }

    // ------------------------------------------------------------------ isolation

    private static int pragmaReadUncommitted(Connection c) throws SQLException {
        return (int) TestDb.queryLong(c, "PRAGMA read_uncommitted");
    }

    @Test
    void isolationIsSerializableByDefaultAndAcceptsTheStandardLevels() throws SQLException {
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, conn.getTransactionIsolation());
        assertEquals(0, pragmaReadUncommitted(conn));

        conn.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        assertEquals(Connection.TRANSACTION_READ_UNCOMMITTED, conn.getTransactionIsolation());
        assertEquals(1, pragmaReadUncommitted(conn));

        conn.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        assertEquals(Connection.TRANSACTION_READ_COMMITTED, conn.getTransactionIsolation());
        assertEquals(0, pragmaReadUncommitted(conn));

        conn.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        assertEquals(Connection.TRANSACTION_REPEATABLE_READ, conn.getTransactionIsolation());

        conn.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, conn.getTransactionIsolation());
        assertEquals(0, pragmaReadUncommitted(conn));
    }

    @Test
    void isolationNoneAndUnknownLevelsAreRejected() throws SQLException {
        assertThrows(SQLException.class, () -> conn.setTransactionIsolation(Connection.TRANSACTION_NONE));
        assertThrows(SQLException.class, () -> conn.setTransactionIsolation(12345));
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, conn.getTransactionIsolation());
    }

    // ------------------------------------------------------------------ schema, catalog, timeouts, abort

    @Test
    void schemaIsMainAndCatalogIsNull() throws SQLException {
        assertEquals("main", conn.getSchema());
        conn.setSchema("main");
        assertEquals("main", conn.getSchema());
        assertNull(conn.getCatalog());
        conn.setCatalog("whatever"); // SQLite has no catalogs: silently ignored
        assertNull(conn.getCatalog());
    }

    @Test
    void networkTimeoutCanBeSetAndRead() throws SQLException {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            conn.setNetworkTimeout(executor, 1234);
            assertEquals(1234, conn.getNetworkTimeout());
            conn.setNetworkTimeout(executor, 0);
            assertEquals(0, conn.getNetworkTimeout());
            assertThrows(SQLException.class, () -> conn.setNetworkTimeout(executor, -1));
            assertTrue(conn.isValid(0));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void abortClosesTheConnection() throws Exception {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('x')");
        conn.setAutoCommit(false);
        TestDb.exec(conn, "INSERT INTO t(v) VALUES ('uncommitted')");
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            conn.abort(executor);
            executor.shutdown();
            assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), "the abort task ran");
        } finally {
            executor.shutdownNow();
        }
        assertTrue(conn.isClosed());
        assertThrows(SQLException.class, conn::createStatement);
        conn.abort(Runnable::run); // abort on a closed connection is a no-op
        try (Connection other = TestDb.open(dir)) {
            assertEquals(1, count(other, "t"), "the aborted transaction was rolled back");
        }
    }

    @Test
    void abortWithoutAnExecutorThrows() throws SQLException {
        assertThrows(SQLException.class, () -> conn.abort(null));
        assertFalse(conn.isClosed());
    }

    // ------------------------------------------------------------------ odds and ends

    @Test
    void nativeSqlReturnsTheText() throws SQLException {
        String sql = "SELECT {fn now()} FROM t WHERE v = '?'";
        assertEquals(sql, conn.nativeSQL(sql));
        assertEquals("SELECT 1", conn.nativeSQL("SELECT 1"));
    }

    @Test
    void clientInfoCanBeSetAndRead() throws SQLException {
        assertNull(conn.getClientInfo("ApplicationName"));
        conn.setClientInfo("ApplicationName", "panlite-test");
        assertEquals("panlite-test", conn.getClientInfo("ApplicationName"));
        assertEquals("panlite-test", conn.getClientInfo().getProperty("ApplicationName"));
        Properties props = new Properties();
        props.setProperty("ClientUser", "alice");
        conn.setClientInfo(props);
        assertEquals("alice", conn.getClientInfo("ClientUser"));
        assertNull(conn.getClientInfo("ApplicationName"), "setClientInfo(Properties) replaces everything");
        conn.setClientInfo("ClientUser", null);
        assertNull(conn.getClientInfo("ClientUser"));
    }

    @Test
    void unwrapsToPanliteConnection() throws SQLException {
        assertTrue(conn.isWrapperFor(PanliteConnection.class));
        assertTrue(conn.isWrapperFor(Connection.class));
        PanliteConnection p = conn.unwrap(PanliteConnection.class);
        assertSame(conn, p);
        assertNotNull(p.sqliteVersion());
        assertNotNull(p.config());
        assertTrue(p.preparedStatementCount() >= 0);
    }

    @Test
    void unwrapToAnUnrelatedInterfaceThrows() throws SQLException {
        assertFalse(conn.isWrapperFor(ResultSet.class));
        assertFalse(conn.isWrapperFor(Runnable.class));
        assertThrows(SQLException.class, () -> conn.unwrap(ResultSet.class));
        assertThrows(SQLException.class, () -> conn.unwrap(Runnable.class));
    }

    @Test
    void typeMapIsEmptyAndLobsCanBeCreated() throws SQLException {
        assertTrue(conn.getTypeMap().isEmpty());
        assertNotNull(conn.createBlob());
        assertNotNull(conn.createClob());
        assertNotNull(conn.createNClob());
    }

    // ------------------------------------------------------------------ closed connection

    interface Call {
        void run(Connection c) throws Exception;
    }

    @Test
    void everyMethodOnAClosedConnectionThrowsSqlException() throws SQLException {
        Savepoint[] sp = new Savepoint[1];
        conn.setAutoCommit(false);
        sp[0] = conn.setSavepoint("s");
        Properties props = new Properties();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Map<String, Call> calls = new java.util.LinkedHashMap<>();
        calls.put("createStatement()", Connection::createStatement);
        calls.put("createStatement(2)", c -> c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY));
        calls.put("createStatement(3)", c -> c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
                ResultSet.CLOSE_CURSORS_AT_COMMIT));
        calls.put("prepareStatement", c -> c.prepareStatement("SELECT 1"));
        calls.put("prepareStatement(keys)", c -> c.prepareStatement("SELECT 1", Statement.RETURN_GENERATED_KEYS));
        calls.put("prepareStatement(int[])", c -> c.prepareStatement("SELECT 1", new int[] {1}));
        calls.put("prepareStatement(String[])", c -> c.prepareStatement("SELECT 1", new String[] {"id"}));
        calls.put("prepareStatement(2)", c -> c.prepareStatement("SELECT 1", ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY));
        calls.put("prepareStatement(3)", c -> c.prepareStatement("SELECT 1", ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY, ResultSet.CLOSE_CURSORS_AT_COMMIT));
        calls.put("prepareCall", c -> c.prepareCall("CALL x()"));
        calls.put("nativeSQL", c -> c.nativeSQL("SELECT 1"));
        calls.put("setAutoCommit(true)", c -> c.setAutoCommit(true));
        calls.put("setAutoCommit(false)", c -> c.setAutoCommit(false));
        calls.put("getAutoCommit", Connection::getAutoCommit);
        calls.put("commit", Connection::commit);
        calls.put("rollback", Connection::rollback);
        calls.put("rollback(sp)", c -> c.rollback(sp[0]));
        calls.put("setSavepoint()", Connection::setSavepoint);
        calls.put("setSavepoint(name)", c -> c.setSavepoint("x"));
        calls.put("releaseSavepoint", c -> c.releaseSavepoint(sp[0]));
        calls.put("getMetaData", Connection::getMetaData);
        calls.put("setReadOnly", c -> c.setReadOnly(true));
        calls.put("isReadOnly", Connection::isReadOnly);
        calls.put("setCatalog", c -> c.setCatalog("x"));
        calls.put("getCatalog", Connection::getCatalog);
        calls.put("setTransactionIsolation", c -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
        calls.put("getTransactionIsolation", Connection::getTransactionIsolation);
        calls.put("getWarnings", Connection::getWarnings);
        calls.put("clearWarnings", Connection::clearWarnings);
        calls.put("getTypeMap", Connection::getTypeMap);
        calls.put("setTypeMap", c -> c.setTypeMap(new HashMap<>()));
        calls.put("setHoldability", c -> c.setHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT));
        calls.put("getHoldability", Connection::getHoldability);
        calls.put("createClob", Connection::createClob);
        calls.put("createBlob", Connection::createBlob);
        calls.put("createNClob", Connection::createNClob);
        calls.put("createSQLXML", Connection::createSQLXML);
        calls.put("createArrayOf", c -> c.createArrayOf("INTEGER", new Object[] {1}));
        calls.put("createStruct", c -> c.createStruct("x", new Object[] {1}));
        calls.put("setClientInfo(name)", c -> c.setClientInfo("ApplicationName", "x"));
        calls.put("setClientInfo(props)", c -> c.setClientInfo(props));
        calls.put("getClientInfo(name)", c -> c.getClientInfo("ApplicationName"));
        calls.put("getClientInfo()", Connection::getClientInfo);
        calls.put("setSchema", c -> c.setSchema("main"));
        calls.put("getSchema", Connection::getSchema);
        calls.put("setNetworkTimeout", c -> c.setNetworkTimeout(executor, 10));
        calls.put("getNetworkTimeout", Connection::getNetworkTimeout);
        calls.put("preparedStatementCount", c -> c.unwrap(PanliteConnection.class).preparedStatementCount());
        calls.put("statementCacheStats", c -> c.unwrap(PanliteConnection.class).statementCacheStats());
        conn.close();
        List<String> failures = new ArrayList<>();
        try {
            for (Map.Entry<String, Call> call : calls.entrySet()) {
                try {
                    call.getValue().run(conn);
                    failures.add(call.getKey() + ": no exception");
                } catch (SQLException expected) {
                    // as JDBC says
                } catch (Throwable t) {
                    failures.add(call.getKey() + ": " + t);
                }
            }
        } finally {
            executor.shutdownNow();
        }
        if (!failures.isEmpty()) {
            fail("On a closed connection these did not throw SQLException: " + failures);
        }
        // the few that JDBC allows on a closed connection
        assertTrue(conn.isClosed());
        assertFalse(conn.isValid(1));
        conn.close();
    }

    // ------------------------------------------------------------------ DriverManager

    @Test
    void theServiceFileRegistersTheDriver() {
        boolean found = false;
        for (java.sql.Driver d : ServiceLoader.load(java.sql.Driver.class)) {
            found |= d instanceof dev.panlite.Driver;
        }
        assertTrue(found, "META-INF/services/java.sql.Driver names dev.panlite.Driver");
    }

    @Test
    void driverManagerFindsTheDriverAndIgnoresTheUser() throws SQLException {
        String url = TestDb.url(dir, "dm.db", "");
        assertTrue(DriverManager.getDriver(url) instanceof dev.panlite.Driver);
        try (Connection c = DriverManager.getConnection(url, "scott", "")) { // an empty password is no key
            assertTrue(c.isWrapperFor(PanliteConnection.class));
            TestDb.exec(c, "CREATE TABLE x(a)", "INSERT INTO x VALUES (1)");
            assertEquals(1, count(c, "x"));
        }
        Properties info = new Properties();
        info.setProperty("user", "scott");
        try (Connection c = DriverManager.getConnection(url, info)) {
            assertEquals(1, count(c, "x"), "the same file");
        }
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(1, count(c, "x"));
        }
    }
}
