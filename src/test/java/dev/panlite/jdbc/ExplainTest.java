package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An EXPLAIN lists its statement's program, whose operands point at the schema's tables and
 * indexes; a schema reset frees them and an EXPLAIN never notices (it runs no OP_Transaction). The
 * misuse fuzz crashed the JVM listing a freed table's name (F29). So an EXPLAIN is listed to its end
 * at execution, from a statement prepared then (engine.ExplainRows).
 */
class ExplainTest {
    @TempDir
    java.nio.file.Path dir;

    private static final String EXPLAIN = "EXPLAIN INSERT INTO old_t(a) VALUES (1)";

    /** Another connection drops the table, this one sees it: the rows held and the next execution. */
    @Test
    void anExplainOutlivesNoSchemaReset() throws SQLException {
        try (Connection a = TestDb.open(dir); Connection b = TestDb.open(dir)) {
            TestDb.exec(a, "CREATE TABLE old_t(a)", "CREATE INDEX old_i ON old_t(a)");
            PreparedStatement ps = a.prepareStatement(EXPLAIN);
            ps.setFetchSize(1);
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            TestDb.exec(b, "DROP TABLE old_t", "CREATE TABLE fresh_u(x, y, z)", "CREATE TABLE fresh_v(q)");
            TestDb.exec(a, "SELECT count(*) FROM sqlite_schema"); // this connection reloads its schema
            for (int i = 0; i < 40; i++) { // new schema objects, in what was the old table's memory
                TestDb.exec(a, "CREATE TEMP TABLE IF NOT EXISTS temp_" + i + "(a, b)");
            }
            List<String> named = new ArrayList<>();
            while (rs.next()) {
                String opcode = rs.getString("opcode");
                if (opcode.equals("Insert")) { // its P4 is the table
                    named.add(opcode + " " + rs.getString("p4"));
                }
            }
            assertEquals(List.of("Insert old_t"), named, "the program as it was when executed");
            // executed again: listed from a statement prepared now, which finds no table old_t
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertTrue(e.getMessage().contains("no such table: old_t"), e.getMessage());
            try (Statement s = a.createStatement()) {
                assertThrows(SQLException.class, () -> s.executeQuery(EXPLAIN));
            }
        }
    }

    /** The rows read at execution are the rows SQLite lists, through every way to execute. */
    @Test
    void explainReadsAsSqliteListsIt() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
            List<String> prepared = rows(c.prepareStatement("EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = ?").executeQuery());
            assertEquals(1, prepared.size(), prepared.toString());
            assertTrue(prepared.get(0).contains("SEARCH t USING INTEGER PRIMARY KEY"), prepared.toString());
            try (Statement s = c.createStatement()) {
                List<String> text = rows(s.executeQuery("EXPLAIN SELECT b FROM t"));
                assertTrue(text.size() > 3 && text.get(0).startsWith("0|Init|"), text.toString());
                s.setMaxRows(2);
                assertEquals(2, rows(s.executeQuery("EXPLAIN SELECT b FROM t")).size());
                assertEquals(0, s.executeUpdate("EXPLAIN SELECT b FROM t"));
                assertTrue(s.execute("EXPLAIN SELECT b FROM t; SELECT 7"));
                assertTrue(s.getMoreResults());
                try (ResultSet rs = s.getResultSet()) {
                    assertTrue(rs.next());
                    assertEquals(7, rs.getInt(1));
                    assertFalse(rs.next());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN SELECT b FROM t")) {
                assertEquals(0, ps.executeUpdate());
                assertTrue(ps.execute());
                assertTrue(ps.getResultSet().next());
                assertEquals("Init", ps.getResultSet().getString(2));
            }
        }
    }

    /**
     * An EXPLAIN's rows are its statement's result: closing them tells the statement, which with
     * closeOnCompletion closes and gives its native statement back to the cache. That is the
     * connection's to guard: the close waits for a thread that holds the connection (inside a
     * function here). It closed under the rows' own guard only (the misuse fuzz: an AssertionError
     * in Database.release, seeds 127 and 160), touching a native statement another thread's call
     * could be using.
     */
    @Test
    void closingAnExplainsRowsWaitsForTheConnection() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(a)");
            PreparedStatement ps = c.prepareStatement("EXPLAIN SELECT a FROM t");
            ps.closeOnCompletion();
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            Throwable[] failed = new Throwable[1];
            Thread closer = new Thread(() -> {
                try {
                    rs.close();
                } catch (Throwable e) {
                    failed[0] = e;
                }
            });
            try (TestDb.ConnectionHold hold = TestDb.holdConnection(c)) {
                closer.start();
                assertTrue(hold.awaitQueued(closer), () -> "the close did not wait for the connection: " + failed[0]);
            }
            closer.join();
            assertEquals(null, failed[0]);
            assertTrue(rs.isClosed());
            assertTrue(ps.isClosed(), "closeOnCompletion");
            assertEquals(List.of("0"), rows(c.prepareStatement("SELECT count(*) FROM t").executeQuery()));
        }
    }

    private static List<String> rows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }
}
