package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The driver finds {@code PRAGMA busy_timeout} in SQL text before SQLite sees it
 * ({@link BusyTimeoutPragma}), so it must read every spelling as SQLite does: each form below runs
 * on a raw connection of the loaded SQLite (which then sets its own timeout), and the driver's
 * reading must give the same timeout and the same end of statement.
 */
class BusyTimeoutPragmaParseTest {
    private static final int BEFORE = 1000; // SQLite's timeout before each form runs

    private Scratch scratch;
    private long db;

    @BeforeEach
    void open() {
        scratch = new Scratch();
        Scratch.Opened opened = Scratch.open(":memory:", Sqlite.OPEN_READWRITE | Sqlite.OPEN_CREATE
                | Sqlite.OPEN_NOMUTEX | Sqlite.OPEN_EXRESCODE);
        db = opened.db();
        assertEquals(Sqlite.OK, opened.rc());
    }

    @AfterEach
    void close() {
        assertEquals(Sqlite.OK, Sqlite.closeV2(db));
        scratch.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "PRAGMA busy_timeout",
        "PRAGMA busy_timeout = 250",
        "  pragma BUSY_TIMEOUT=250;",
        "PRAGMA busy_timeout = 250; SELECT 1",
        "PRAGMA main.busy_timeout(0x10)",
        "PRAGMA temp . \"busy_timeout\" = '77'",
        "PRAGMA [busy_timeout] = `78`",
        "PRAGMA 'busy_timeout' = 79",
        "PRAGMA busy_timeout = -5",
        "PRAGMA busy_timeout = - 5",
        "PRAGMA busy_timeout = +6",
        "PRAGMA busy_timeout = 0",
        "PRAGMA busy_timeout = 2147483647",
        "PRAGMA busy_timeout = 1.5e3",
        "PRAGMA busy_timeout = '12abc'",
        "PRAGMA busy_timeout = 0x7fffffff",
        "PRAGMA busy_timeout = 007",
        "/* a */ PRAGMA -- b\n busy_timeout /* c */ = /* d */ 42 /* e */ ; -- f",
        "PRAGMA busy_timeout('9')",
        "PRAGMA busy_timeout = \"10\"",
    })
    void readsEveryFormAsSqliteDoes(String sql) {
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        assertTrue(BusyTimeoutPragma.mentioned(utf8, 0));
        BusyTimeoutPragma ours = BusyTimeoutPragma.at(utf8, 0);
        assertNotNull(ours, sql);
        assertFalse(ours.malformed(), sql);

        Sqlite.busyTimeout(db, BEFORE);
        int rc = scratch.prepare(db, utf8, 0, utf8.length, 0);
        assertEquals(Sqlite.OK, rc, () -> sql + ": " + Sqlite.errmsg(db));
        int tail = scratch.tailOffset();
        long stmt = scratch.preparedStmt();
        assertEquals(Sqlite.ROW, Sqlite.step(stmt));
        Sqlite.finalizeStmt(stmt);
        int expected = (int) sqliteTimeout();
        Sqlite.busyTimeout(db, 0);

        assertEquals(expected, ours.value() == null ? BEFORE : ours.millis(), sql);
        assertEquals(tail, ours.end(), sql + ": where the next statement starts");
    }

    /**
     * A value that is no 32-bit integer sets nothing, as SQLite 3.54 (the bundled engine, and the
     * incumbent's) reads it; SQLite 3.47 and older set such a value as 0.
     */
    @ParameterizedTest
    @ValueSource(strings = {"PRAGMA busy_timeout = 99999999999", "PRAGMA busy_timeout = 2147483648",
        "PRAGMA busy_timeout = .5", "PRAGMA busy_timeout = abc", "PRAGMA busy_timeout = ON",
        "PRAGMA busy_timeout = 0x80000000", "PRAGMA busy_timeout = ''"})
    void aValueThatIsNoIntegerSetsNothing(String sql) {
        BusyTimeoutPragma ours = BusyTimeoutPragma.at(sql.getBytes(StandardCharsets.UTF_8), 0);
        assertNotNull(ours, sql);
        assertFalse(ours.malformed(), sql);
        assertNull(ours.value(), sql);
    }

    /** Forms SQLite refuses: the driver refuses them too, before SQLite could half-parse one. */
    @ParameterizedTest
    @ValueSource(strings = {
        "PRAGMA busy_timeout =",
        "PRAGMA busy_timeout = 5 6",
        "PRAGMA busy_timeout(5",
        "PRAGMA busy_timeout = -abc",
        "PRAGMA busy_timeout 5",
        "PRAGMA busy_timeout = ; SELECT 1",
    })
    void refusesWhatSqliteRefuses(String sql) {
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        BusyTimeoutPragma ours = BusyTimeoutPragma.at(utf8, 0);
        assertNotNull(ours, sql);
        assertTrue(ours.malformed(), sql);
        int rc = scratch.prepare(db, utf8, 0, utf8.length, 0);
        if (scratch.preparedStmt() != 0) {
            Sqlite.finalizeStmt(scratch.preparedStmt());
        }
        assertNotEquals(Sqlite.OK, rc, sql + ": SQLite accepted it");
        Sqlite.busyTimeout(db, 0);
    }

    @Test
    void otherStatementsAreNotIt() {
        for (String sql : new String[] {"PRAGMA busy_timeouts = 5", "PRAGMA foreign_keys", "SELECT busy_timeout FROM t",
                "PRAGMA busy", "CREATE TABLE busy_timeout(busy_timeout)", "PRAGMA main.foreign_keys = busy_timeout"}) {
            assertNull(BusyTimeoutPragma.at(sql.getBytes(StandardCharsets.UTF_8), 0), sql);
        }
        assertTrue(BusyTimeoutPragma.mentioned("select x_BUSY_Timeout".getBytes(StandardCharsets.UTF_8), 0));
        assertFalse(BusyTimeoutPragma.mentioned("PRAGMA busytimeout".getBytes(StandardCharsets.UTF_8), 0));
        assertFalse(BusyTimeoutPragma.mentioned("busy_timeout; SELECT 1".getBytes(StandardCharsets.UTF_8), 1));
        byte[] text = "SELECT 1;  ; PRAGMA busy_timeout = 3; SELECT 2".getBytes(StandardCharsets.UTF_8);
        BusyTimeoutPragma second = BusyTimeoutPragma.at(text, "SELECT 1;".length());
        assertEquals(3, second.value(), "found after empty statements");
        assertEquals(" SELECT 2", new String(text, second.end(), text.length - second.end(), StandardCharsets.UTF_8));
    }

    /** SQLite's own timeout, as its PRAGMA reads it. */
    private long sqliteTimeout() {
        byte[] read = "PRAGMA busy_timeout".getBytes(StandardCharsets.UTF_8);
        assertEquals(Sqlite.OK, scratch.prepare(db, read, 0, read.length, 0));
        long stmt = scratch.preparedStmt();
        try {
            assertEquals(Sqlite.ROW, Sqlite.step(stmt));
            return Sqlite.columnLong(stmt, 0);
        } finally {
            Sqlite.finalizeStmt(stmt);
        }
    }
}
