package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "Does this statement write?" is SQLite's answer for each statement (sqlite3_stmt_readonly,
 * sqlite3_stmt_isexplain), never a guess from the SQL text. Another connection holds the write
 * gate (a write transaction) and this one has busy_timeout=0: a reader runs at once, a writer fails
 * at once saying it waited for the write gate (not for "another process": it did not go around the
 * gate to SQLite's lock).
 */
class WhoWritesTest {
    @TempDir
    Path dir;

    Connection holder;
    Connection c;
    WriteGate gate;

    @BeforeEach
    void open() throws SQLException {
        holder = TestDb.open(dir);
        TestDb.exec(holder, "CREATE TABLE t(id INTEGER PRIMARY KEY, is_deleted INTEGER DEFAULT 0, updated_at INTEGER,"
                + " last_insert INTEGER)", "INSERT INTO t(id) VALUES (1), (2), (3)",
                "CREATE VIEW v AS SELECT id FROM t",
                "CREATE TRIGGER v_insert INSTEAD OF INSERT ON v BEGIN INSERT INTO t(id) VALUES (new.id); END");
        c = TestDb.open(dir, "busy_timeout=0");
        holder.setAutoCommit(false);
        TestDb.exec(holder, "UPDATE t SET updated_at = 1 WHERE id = 1"); // holds the gate until rollback
        gate = WriteGate.forFile(dir.resolve("test.db").toString());
        assertTrue(gate.isHeld());
    }

    @AfterEach
    void close() throws SQLException {
        holder.rollback();
        holder.close();
        c.close();
        gate.unref();
    }

    /** Reads: each runs while another connection holds the gate, by Statement.execute and by a PreparedStatement. */
    @ParameterizedTest
    @ValueSource(strings = {
        "WITH x AS (SELECT id FROM t WHERE is_deleted = 0) SELECT count(*) FROM x",
        "SELECT updated_at, last_insert, is_deleted FROM t",
        "SELECT 'INSERT INTO t VALUES (9)', 'DELETE', 'UPDATE' AS replace_me",
        "/* DELETE FROM t */ SELECT 1",
        "-- UPDATE t SET id = 0\nSELECT 1",
        "SELECT id AS \"delete\", id AS [insert] FROM t",
        "EXPLAIN INSERT INTO t(id) VALUES (9)",
        "EXPLAIN QUERY PLAN DELETE FROM t WHERE id > 1",
        "PRAGMA table_info(t)",
        "PRAGMA user_version",
        "SELECT * FROM v WHERE id > 0",
        "VALUES (1), (2)",
    })
    void readersNeverWaitForTheGate(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            assertTrue(s.execute(sql), sql);
            try (ResultSet rs = s.getResultSet()) {
                assertTrue(rs.next(), sql);
            }
        }
        try (PreparedStatement p = c.prepareStatement(sql); ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next(), sql);
        }
    }

    /** Writes, however their text reads: each queues for the gate (and, with busy_timeout=0, gives up there). */
    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t(id) VALUES (10)",
        "INSERT INTO t(id) VALUES (11) RETURNING id",
        "WITH x AS (SELECT 12 AS id) INSERT INTO t(id) SELECT id FROM x",
        "UPDATE t SET updated_at = 2",
        "DELETE FROM t WHERE is_deleted = 1",
        "REPLACE INTO t(id) VALUES (3)",
        "INSERT INTO v(id) VALUES (13)",
        "PRAGMA user_version = 7",
        "CREATE TABLE u(a)",
        "CREATE TRIGGER t_upd AFTER UPDATE ON t BEGIN SELECT 1; END",
        "BEGIN IMMEDIATE",
        "/* SELECT */ DELETE FROM t",
    })
    void writersQueueForTheGate(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            assertQueued(assertThrows(SQLException.class, () -> s.execute(sql), sql), sql);
        }
        TestDb.exec(c, "BEGIN", "ROLLBACK"); // a refused BEGIN IMMEDIATE left no transaction open
        try (PreparedStatement p = c.prepareStatement(sql)) {
            assertQueued(assertThrows(SQLException.class, p::execute, sql), sql);
        }
    }

    /** Several statements in one text: each is gated on its own, however the text begins. */
    @Test
    void eachStatementOfATextIsGatedOnItsOwn() throws SQLException {
        try (Statement s = c.createStatement()) {
            assertTrue(s.execute("SELECT 1; INSERT INTO t(id) VALUES (20)"));
            assertQueued(assertThrows(SQLException.class, s::getMoreResults), "the INSERT after SELECT 1");
        }
        try (Statement s = c.createStatement()) {
            // a PRAGMA that reads runs first, then the INSERT queues
            assertQueued(assertThrows(SQLException.class,
                    () -> s.execute("PRAGMA foreign_keys = ON; INSERT INTO t(id) VALUES (21)")), "PRAGMA; INSERT");
            assertEquals(3, count(), "nothing of the refused text was written");
        }
        holder.rollback(); // the gate is free: the same texts run
        try (Statement s = c.createStatement()) {
            assertTrue(s.execute("SELECT 1; INSERT INTO t(id) VALUES (20)"));
            assertFalse(s.getMoreResults());
            assertEquals(1, s.getUpdateCount());
            assertTrue(s.execute("PRAGMA foreign_keys = ON; INSERT INTO t(id) VALUES (21); SELECT 1 WHERE 0"));
            assertFalse(s.getResultSet().next());
            assertEquals(5, count());
            assertFalse(gate.isHeld(), "each auto-commit write let the gate go");
        }
    }

    /** executeUpdate refuses a query whatever words it holds, and its count is never an earlier statement's. */
    @Test
    void executeUpdateKnowsAQueryAndCountsOnlyWrites() throws SQLException {
        holder.rollback();
        String query = "WITH x AS (SELECT updated_at FROM t) SELECT * FROM x";
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t(id) VALUES (?)");
                PreparedStatement q = c.prepareStatement(query);
                Statement s = c.createStatement()) {
            for (int i = 30; i < 33; i++) {
                insert.setInt(1, i);
                insert.addBatch();
            }
            insert.executeBatch();
            assertEquals(3, s.executeUpdate("UPDATE t SET updated_at = 5 WHERE id >= 30"), "changes() is 3 now");
            assertTrue(assertThrows(SQLException.class, q::executeUpdate).getMessage().contains("cannot run a query"));
            assertTrue(assertThrows(SQLException.class, () -> s.executeUpdate(query)).getMessage()
                    .contains("cannot run a query"));
            assertEquals(0, s.executeUpdate("PRAGMA user_version = 5"), "a PRAGMA changes no rows");
            assertEquals(0, s.executeUpdate("CREATE TABLE w(a)"), "DDL changes no rows");
            try (PreparedStatement explain = c.prepareStatement("EXPLAIN UPDATE t SET updated_at = 6")) {
                assertEquals(0, explain.executeUpdate(), "EXPLAIN changes nothing");
            }
            assertEquals(3, s.executeUpdate("UPDATE t SET is_deleted = 1 WHERE id >= 30"));
        }
    }

    private static void assertQueued(SQLException e, String sql) {
        assertTrue(e.getMessage().contains("for the write gate"), sql + ": " + e.getMessage());
    }

    private long count() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
