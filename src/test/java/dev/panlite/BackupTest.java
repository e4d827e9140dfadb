package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.engine.SqlText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The incumbent's "backup to FILE" and "restore from FILE" commands, on SQLite's online backup. */
class BackupTest {
    @TempDir
    Path dir;

    private static long count(Connection c) throws SQLException {
        return TestDb.queryLong(c, "SELECT count(*) FROM t");
    }

    @Test
    void backupToAFileThenRestoreFromIt() throws SQLException {
        Path copy = dir.resolve("copy.db");
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2), (3)");
            assertFalse(s.execute("backup to " + copy));
            assertEquals(0, s.getUpdateCount());
            assertTrue(Files.exists(copy));
            try (Connection b = new Driver().connect("jdbc:sqlite:" + copy, new Properties())) {
                assertEquals(3, count(b), "the backup holds the data");
            }
            TestDb.exec(c, "DELETE FROM t");
            assertEquals(0, count(c));
            s.executeUpdate("restore from '" + copy + "'");
            assertEquals(3, count(c), "restored");
        }
    }

    @Test
    void aNamedSchemaAndQuotedFileNames() throws SQLException {
        Path copy = dir.resolve("with space.db");
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
            s.executeUpdate("BACKUP main TO \"" + copy + "\";");
            try (Connection b = new Driver().connect("jdbc:sqlite:" + copy, new Properties())) {
                assertEquals(1, count(b));
            }
        }
    }

    @Test
    void failuresAreSqlExceptions() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class,
                    () -> s.execute("restore from " + dir.resolve("missing/nothing.db")));
            assertTrue(e.getMessage().contains("nothing.db"), e.getMessage());
            assertThrows(SQLException.class, () -> s.execute("backup nosuchschema to " + dir.resolve("x.db")));
        }
    }

    @Test
    void onlyTheTwoCommandsAreRecognised() {
        assertEquals("main", SqlText.backupCommand("backup to a.db")[0]);
        assertEquals("a.db", SqlText.backupCommand("  restore from 'a.db' ; ")[1]);
        assertEquals("aux", SqlText.backupCommand("backup aux to a.db")[0]);
        assertNull(SqlText.backupCommand("backup from a.db"));
        assertNull(SqlText.backupCommand("restore to a.db"));
        assertNull(SqlText.backupCommand("SELECT 'backup to x'"));
        assertNull(SqlText.backupCommand("REPLACE INTO t VALUES (1)"));
    }
}
