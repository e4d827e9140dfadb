package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a connection never waits for another connection's write transaction (issue 27, item 5):
 * a setting takes the write gate only when it must write the file. With the README's URL
 * ({@code journal_mode=WAL}) on a file that is already WAL, the setting changes nothing; it queued
 * for the gate, so a pool could not open a connection while a transaction was open.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OpenWhileWritingTest {
    @TempDir
    Path dir;

    /** A connection holding a write transaction (and so the gate) on a WAL file. */
    private Connection writerInTransaction() throws SQLException {
        try (Connection setup = TestDb.open(dir, "journal_mode=WAL")) {
            TestDb.exec(setup, "CREATE TABLE IF NOT EXISTS t(a)", "INSERT INTO t VALUES (1)");
        }
        Connection writer = TestDb.open(dir, "journal_mode=WAL");
        writer.setAutoCommit(false);
        TestDb.exec(writer, "INSERT INTO t VALUES (2)");
        return writer;
    }

    @Test
    void connectionsWithTheReadmeUrlOpenAndReadWhileAnotherWrites() throws SQLException {
        try (Connection writer = writerInTransaction()) {
            for (String url : new String[] {"journal_mode=WAL&busy_timeout=0",
                    "journal_mode=wal&synchronous=NORMAL&foreign_keys=true&busy_timeout=0"}) {
                try (Connection reader = TestDb.open(dir, url)) {
                    assertEquals(1, TestDb.queryLong(reader, "SELECT count(*) FROM t"), url);
                    assertEquals("wal", TestDb.queryString(reader, "PRAGMA journal_mode"), url);
                }
            }
            writer.commit();
        }
    }

    /** A setting that must write the file (leaving WAL needs SQLite's exclusive lock) still queues, and gives up at busy_timeout=0. */
    @Test
    void aSettingThatMustWriteTheFileStillQueues() throws SQLException {
        try (Connection writer = writerInTransaction()) {
            SQLException e = assertThrows(SQLException.class, () -> TestDb.open(dir, "journal_mode=DELETE&busy_timeout=0").close());
            assertTrue(e.getMessage().contains("for the write gate"), e.getMessage());
            writer.commit();
        }
        try (Connection c = TestDb.open(dir, "journal_mode=DELETE&busy_timeout=0")) {
            assertEquals("delete", TestDb.queryString(c, "PRAGMA journal_mode"), "with the gate free, the setting applies");
        }
    }
}
