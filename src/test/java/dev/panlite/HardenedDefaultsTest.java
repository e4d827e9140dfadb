package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's hardening for files that may come from elsewhere, on by default (issue 31): each default
 * refuses what SQLite's guidance says, with the error an application meets, and each setting
 * restores SQLite's own behaviour.
 */
class HardenedDefaultsTest {
    @TempDir
    Path dir;

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    @Test
    void theDefaultsAreInForce() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            assertEquals("0", one(c, "PRAGMA trusted_schema"));
            assertEquals("1", one(c, "PRAGMA cell_size_check"));
        }
        try (Connection c = TestDb.open(dir, "trusted_schema=true&cell_size_check=false")) {
            assertEquals("1", one(c, "PRAGMA trusted_schema"));
            assertEquals("0", one(c, "PRAGMA cell_size_check"));
        }
    }

    @Test
    void defensiveRefusesWritingTheSchemaBySql() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(x)");
            s.execute("PRAGMA writable_schema = ON"); // ignored in defensive mode
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("UPDATE sqlite_schema SET sql = 'CREATE TABLE t(y)' WHERE name = 't'"));
            assertTrue(e.getMessage().contains("may not be modified"), e::getMessage);
            assertEquals("delete", one(c, "PRAGMA journal_mode = OFF"), "journal_mode=OFF by SQL is refused");
        }
        try (Connection c = TestDb.open(dir, "defensive=false"); Statement s = c.createStatement()) {
            s.execute("PRAGMA writable_schema = ON");
            assertEquals(1, s.executeUpdate("UPDATE sqlite_schema SET sql = 'CREATE TABLE t(x, y)' WHERE name = 't'"));
            s.execute("PRAGMA writable_schema = OFF");
            assertEquals("off", one(c, "PRAGMA journal_mode = OFF"));
        }
    }

    @Test
    void anUntrustedSchemaCannotCallAFunctionWithSideEffects() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            c.unwrap(PanliteConnection.class).createFunction("side_effect", 1, false, args -> args[0]);
            assertEquals("7", one(c, "SELECT side_effect(7)"), "called directly, as the application does");
            s.execute("CREATE VIEW v AS SELECT side_effect(42) AS x"); // what a crafted file could hold
            SQLException e = assertThrows(SQLException.class, () -> one(c, "SELECT x FROM v"));
            assertTrue(e.getMessage().contains("unsafe use of side_effect()"), e::getMessage);
        }
        try (Connection c = TestDb.open(dir, "trusted_schema=true")) {
            c.unwrap(PanliteConnection.class).createFunction("side_effect", 1, false, args -> args[0]);
            assertEquals("42", one(c, "SELECT x FROM v"));
        }
    }

    @Test
    void doubleQuotedStringsAreIdentifiersInDml() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(a)");
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (\"abc\")"));
            assertTrue(e.getMessage().matches("(?s)no such column: \"?abc\"?.*"), e::getMessage); // 3.54 adds advice
            assertEquals("x", one(c, "SELECT 'x'"));
        }
        try (Connection c = TestDb.open(dir, "dqs_dml=true"); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (\"abc\")"));
            assertEquals("abc", one(c, "SELECT \"abc\""));
        }
    }

    @Test
    void doubleQuotedStringsAreIdentifiersInDdl() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(a)");
            SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE INDEX i ON t(\"nosuch\")"));
            assertTrue(e.getMessage().matches("(?s)no such column: \"?nosuch\"?.*"), e::getMessage);
            s.execute("CREATE INDEX i ON t(\"a\")"); // a quoted identifier is fine
        }
        try (Connection c = TestDb.open(dir, "dqs_ddl=true"); Statement s = c.createStatement()) {
            s.execute("CREATE INDEX j ON t(\"nosuch\")"); // SQLite's default: a constant string
        }
    }
}
