package dev.panlite.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.Driver;
import dev.panlite.SqliteError;
import dev.panlite.fault.FaultVfs.Kind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Panlite reports when I/O fails: each case here is one the fault sweeps found. */
class FaultErrorsTest {
    @TempDir
    Path dir;

    @BeforeEach
    void register() throws SQLException {
        assumeTrue(FaultVfs.unavailable() == null, FaultVfs.unavailable());
        try (Connection c = new Driver().connect("jdbc:sqlite::memory:?enable_load_extension=true", new Properties())) {
            FaultVfs.register(c);
        }
    }

    @AfterEach
    void clear() {
        if (FaultVfs.unavailable() == null) {
            FaultVfs.disarm();
        }
    }

    private Connection open() throws SQLException {
        return new Driver().connect(FaultVfs.url(dir.resolve("test.db"), "journal_mode=DELETE"), new Properties());
    }

    /**
     * A journal that cannot be opened fails the statement with SQLITE_CANTOPEN: an I/O error
     * (58030). It was class 08 ("unable to connect"), which tells a pool the connection is gone,
     * so it evicted a connection that works (the sweeps: autocommit-inserts, DELETE, open:error@2).
     */
    @Test
    void aJournalThatCannotBeOpenedIsAnIoErrorNotALostConnection() throws SQLException {
        try (Connection c = open(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(x)");
            SQLException e;
            synchronized (FaultVfs.LOCK) {
                FaultVfs.arm(Kind.OPEN, 1, false, FaultVfs.DEFAULT_ERROR); // the journal, at the next write
                e = assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (1)"));
                FaultVfs.disarm();
                assertEquals(1, FaultVfs.fired());
            }
            assertEquals(FaultVfs.Codes.CANTOPEN, ((SqliteError) e).extendedCode(), e::toString);
            assertEquals("58030", e.getSQLState(), e::toString);
            assertFalse(e instanceof java.sql.SQLNonTransientConnectionException, e::toString);
            assertTrue(c.isValid(5));
            s.execute("INSERT INTO t VALUES (2)");
        }
    }

    /** A database file that cannot be opened: no connection, class 08 as before. */
    @Test
    void aDatabaseThatCannotBeOpenedIsNoConnection() {
        SQLException e;
        synchronized (FaultVfs.LOCK) {
            FaultVfs.arm(Kind.OPEN, 1, false, FaultVfs.DEFAULT_ERROR);
            e = assertThrows(SQLException.class, this::open);
            FaultVfs.disarm();
        }
        assertEquals(FaultVfs.Codes.CANTOPEN, ((SqliteError) e).extendedCode(), e::toString);
        assertEquals("08001", e.getSQLState(), e::toString);
    }
}
