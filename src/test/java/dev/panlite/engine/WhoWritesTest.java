package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import dev.panlite.TestThreads;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    /**
     * {@code c} opens while the holder holds the gate, with the README's URL: opening runs its
     * settings (journal_mode=WAL on a WAL file changes nothing, so it must not queue either).
     */
    @BeforeEach
    void open() throws SQLException {
        holder = TestDb.open(dir, "journal_mode=WAL");
        TestDb.exec(holder, "CREATE TABLE t(id INTEGER PRIMARY KEY, is_deleted INTEGER DEFAULT 0, updated_at INTEGER,"
                + " last_insert INTEGER)", "INSERT INTO t(id) VALUES (1), (2), (3)",
                "CREATE VIEW v AS SELECT id FROM t",
                "CREATE TRIGGER v_insert INSTEAD OF INSERT ON v BEGIN INSERT INTO t(id) VALUES (new.id); END");
        holder.setAutoCommit(false);
        TestDb.exec(holder, "UPDATE t SET updated_at = 1 WHERE id = 1"); // holds the gate until rollback
        gate = WriteGate.forFile(dir.resolve("test.db").toString());
        assertTrue(gate.isHeld());
        c = TestDb.open(dir, "busy_timeout=0&journal_mode=WAL&synchronous=NORMAL");
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
        "PRAGMA journal_mode",
        "PRAGMA journal_mode = WAL",
        "PRAGMA main.journal_mode = wal",
        "PRAGMA temp.journal_mode = MEMORY",
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
        "PRAGMA journal_mode = DELETE",
        "INSERT INTO temp.writes_t VALUES (14)",
    })
    void writersQueueForTheGate(String sql) throws SQLException {
        // a TEMP table whose trigger writes the file: SQLite's program for the INSERT says so
        TestDb.exec(c, "CREATE TEMP TABLE writes_t(id)",
                "CREATE TEMP TRIGGER writes_t_insert AFTER INSERT ON writes_t BEGIN INSERT INTO t(id) VALUES (new.id); END");
        try (Statement s = c.createStatement()) {
            assertQueued(assertThrows(SQLException.class, () -> s.execute(sql), sql), sql);
        }
        TestDb.exec(c, "BEGIN", "ROLLBACK"); // a refused BEGIN IMMEDIATE left no transaction open
        try (PreparedStatement p = c.prepareStatement(sql)) {
            assertQueued(assertThrows(SQLException.class, p::execute, sql), sql);
        }
    }

    /**
     * A TEMP table is this connection's alone (no file another connection shares): writing only it
     * never queues for the gate, in auto-commit mode, by Statement and by PreparedStatement (issue 27).
     */
    @Test
    void tempTablesNeverWaitForTheGate() throws SQLException {
        // a TEMP trigger that writes no file adds a program to the statement's: still no file written
        // (adversarial review: the trigger's program read as "writes")
        TestDb.exec(c, "CREATE TEMP TABLE x(a)", "CREATE TEMP TRIGGER xt AFTER INSERT ON x BEGIN SELECT 1; END",
                "INSERT INTO temp.x VALUES (1)", "INSERT INTO x VALUES (2)",
                "UPDATE x SET a = a + 10", "CREATE INDEX temp.x_a ON x(a)", "CREATE TEMP VIEW xv AS SELECT a FROM x",
                "INSERT INTO temp.x SELECT id FROM main.t", "DELETE FROM x WHERE a = 12",
                "CREATE TEMP TABLE y AS SELECT * FROM t");
        try (PreparedStatement p = c.prepareStatement("INSERT INTO temp.x VALUES (?)")) {
            for (int i = 20; i < 23; i++) {
                p.setInt(1, i);
                assertEquals(1, p.executeUpdate());
            }
        }
        assertEquals(7, TestDb.queryLong(c, "SELECT count(*) FROM x"));
        assertEquals(3, TestDb.queryLong(c, "SELECT count(*) FROM y"));
        TestDb.exec(c, "DROP VIEW xv", "DROP TABLE temp.x", "DROP TABLE y");
        assertEquals(0, gate.queued(), "nobody queued");
    }

    /**
     * A transaction begun by SQL (deferred) that wrote only TEMP holds no lock on the file: its first
     * write to the file may wait for the holder's transaction like any first write (it failed at once,
     * "read before it wrote", as the TEMP schema's state counted as the file's). One that read the
     * file first still fails at once: waiting there could deadlock.
     */
    @Test
    void aTransactionThatWroteOnlyTempWaitsForTheFile() throws Exception {
        TestDb.exec(c, "CREATE TEMP TABLE x(a)");
        CountDownLatch waiting = new CountDownLatch(1);
        c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
            waiting.countDown();
            return waited.toSeconds() < 60; // a hang guard
        });
        TestThreads threads = new TestThreads();
        threads.start("holder", () -> {
            if (waiting.await(60, TimeUnit.SECONDS)) {
                holder.rollback(); // lets the gate and SQLite's lock go
            }
        });
        TestDb.exec(c, "BEGIN", "INSERT INTO temp.x VALUES (1)");
        TestDb.exec(c, "INSERT INTO t(id) VALUES (50)"); // waits until the holder rolls back
        TestDb.exec(c, "COMMIT");
        threads.join();
        assertEquals(0, waiting.getCount(), "the write never met the holder's lock: the test tested nothing");
        assertEquals(1, TestDb.queryLong(c, "SELECT count(*) FROM t WHERE id = 50"));
    }

    @Test
    void aTransactionThatReadTheFileFailsAtOnce() throws SQLException {
        TestDb.exec(c, "CREATE TEMP TABLE x(a)");
        c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
            throw new AssertionError("asked to wait where waiting could deadlock");
        });
        TestDb.exec(c, "BEGIN", "INSERT INTO temp.x VALUES (1)", "SELECT count(*) FROM t");
        SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t(id) VALUES (51)"));
        assertTrue(e.getMessage().contains("read before it wrote"), e.getMessage());
        TestDb.exec(c, "ROLLBACK");
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
            assertFalse(s.execute("PRAGMA foreign_keys = ON; INSERT INTO t(id) VALUES (21); SELECT 1 WHERE 0"));
            assertFalse(s.getMoreResults()); // one result per statement: the PRAGMA's, the INSERT's, the query
            assertEquals(1, s.getUpdateCount());
            assertTrue(s.getMoreResults());
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
