package dev.panlite.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.Driver;
import dev.panlite.SqliteError;
import dev.panlite.fault.FaultVfs.Kind;
import dev.panlite.fault.FaultVfs.Loss;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shim itself: each control fires (a fault that does not fire fails here), its error reaches the
 * caller as SQLite returns it, the counts agree with where a fault fires, and a power cut leaves what
 * was asked of the unsynced writes.
 */
class FaultVfsTest {
    @TempDir
    Path dir;

    private Path db;

    @BeforeEach
    void register() throws SQLException {
        assumeTrue(FaultVfs.unavailable() == null, FaultVfs.unavailable());
        try (Connection c = new Driver().connect("jdbc:sqlite::memory:?enable_load_extension=true", new Properties())) {
            FaultVfs.register(c);
        }
        db = dir.resolve("test.db");
    }

    @AfterEach
    void clear() {
        if (FaultVfs.unavailable() == null) {
            FaultVfs.disarm();
            if (FaultVfs.dead()) {
                FaultVfs.powerRestore(Loss.KEEP_ALL, 0);
            }
            FaultVfs.record(false);
        }
    }

    private Connection open(String parameters) throws SQLException {
        return new Driver().connect(FaultVfs.url(db, parameters), new Properties());
    }

    private static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /** A table with a row, in journal mode {@code mode}, then closed: the next open reads it from the file. */
    private void create(String mode) throws SQLException {
        try (Connection c = open("journal_mode=" + mode)) {
            exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
        }
    }

    /** What fails when the first call of {@code kind} in {@code action} fails (the fault must fire once). */
    private SQLException firstCallFails(Kind kind, int error, Action action) throws SQLException {
        synchronized (FaultVfs.LOCK) {
            FaultVfs.arm(kind, 1, false, error);
            SQLException thrown = null;
            try {
                action.run();
            } catch (SQLException e) {
                thrown = e;
            } finally {
                FaultVfs.disarm();
            }
            assertEquals(1, FaultVfs.fired(), kind + ": the fault did not fire");
            return thrown;
        }
    }

    private interface Action {
        void run() throws SQLException;
    }

    private static void assertCode(int expected, SQLException e) {
        assertTrue(e != null, "no SQLException, expected code " + expected);
        assertTrue(e instanceof SqliteError, () -> "not an SqliteError: " + e);
        assertEquals(expected, ((SqliteError) e).extendedCode(), e::getMessage);
    }

    @Test
    void theVfsIsTheOneConnectionsUse() throws SQLException {
        FaultVfs.resetCounts();
        create("DELETE");
        assertTrue(FaultVfs.count(Kind.OPEN) > 0, "no open went through the shim");
        assertTrue(FaultVfs.count(Kind.WRITE) > 0, "no write went through the shim");
    }

    @Test
    void openFails() throws SQLException {
        SQLException e = firstCallFails(Kind.OPEN, FaultVfs.DEFAULT_ERROR, () -> open("").close());
        assertCode(FaultVfs.Codes.CANTOPEN, e);
    }

    @Test
    void readFails() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_READ,
                    firstCallFails(Kind.READ, FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
            assertEquals(1, count(c, "SELECT count(*) FROM t"), "the next read works");
        }
    }

    @Test
    void shortReadZeroFillsHalf() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            // page 1 read short: its second half is zeros, which SQLite cannot tell from a shorter
            // file; whatever SQLite makes of it, the call fired and the connection goes on
            firstCallFails(Kind.READ, FaultVfs.SHORT_READ, () -> count(c, "SELECT count(*) FROM t"));
        }
        assertThrows(IllegalArgumentException.class, () -> FaultVfs.arm(Kind.WRITE, 1, false, FaultVfs.SHORT_READ),
                "a short read is a read's error only");
    }

    @Test
    void writeFailsWithTheCodeChosen() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_WRITE,
                    firstCallFails(Kind.WRITE, FaultVfs.DEFAULT_ERROR, () -> exec(c, "INSERT INTO t VALUES (2)")));
            assertCode(FaultVfs.Codes.FULL,
                    firstCallFails(Kind.WRITE, FaultVfs.Codes.FULL, () -> exec(c, "INSERT INTO t VALUES (3)")));
            exec(c, "INSERT INTO t VALUES (4)");
            assertEquals(2, count(c, "SELECT count(*) FROM t"));
        }
    }

    @Test
    void truncateFails() throws SQLException {
        create("TRUNCATE");
        try (Connection c = open("journal_mode=TRUNCATE")) {
            assertCode(FaultVfs.Codes.IOERR_TRUNCATE,
                    firstCallFails(Kind.TRUNCATE, FaultVfs.DEFAULT_ERROR, () -> exec(c, "INSERT INTO t VALUES (2)")));
        }
    }

    @Test
    void syncFails() throws SQLException {
        create("DELETE");
        try (Connection c = open("synchronous=FULL")) {
            assertCode(FaultVfs.Codes.IOERR_FSYNC,
                    firstCallFails(Kind.SYNC, FaultVfs.DEFAULT_ERROR, () -> exec(c, "INSERT INTO t VALUES (2)")));
        }
    }

    @Test
    void fileSizeFails() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_FSTAT,
                    firstCallFails(Kind.FILE_SIZE, FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void lockFails() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_LOCK,
                    firstCallFails(Kind.LOCK, FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void unlockFailsAndSqliteGoesOn() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            // SQLite ignores a failed unlock after a read (pager_unlock): the fault fires, the read returns
            firstCallFails(Kind.UNLOCK, FaultVfs.DEFAULT_ERROR, () -> assertEquals(1, count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void checkReservedLockFails() throws SQLException {
        create("PERSIST"); // the journal file stays: each read asks whether it is hot
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_CHECKRESERVEDLOCK, firstCallFails(Kind.CHECK_RESERVED_LOCK,
                    FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void accessFails() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_ACCESS,
                    firstCallFails(Kind.ACCESS, FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void deleteFails() throws SQLException {
        create("DELETE");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_DELETE,
                    firstCallFails(Kind.DELETE, FaultVfs.DEFAULT_ERROR, () -> exec(c, "INSERT INTO t VALUES (2)")));
        }
    }

    @Test
    void shmMapFails() throws SQLException {
        create("WAL");
        try (Connection c = open("")) {
            assertCode(FaultVfs.Codes.IOERR_SHMMAP,
                    firstCallFails(Kind.SHM_MAP, FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void shmLockFails() throws SQLException {
        create("WAL");
        try (Connection c = open("")) {
            count(c, "SELECT count(*) FROM t");
            assertCode(FaultVfs.Codes.IOERR_SHMLOCK,
                    firstCallFails(Kind.SHM_LOCK, FaultVfs.DEFAULT_ERROR, () -> count(c, "SELECT count(*) FROM t")));
        }
    }

    @Test
    void persistentFailsEveryCallUntilDisarmed() throws SQLException {
        create("DELETE");
        synchronized (FaultVfs.LOCK) {
            try (Connection c = open("")) {
                FaultVfs.arm(Kind.WRITE, 1, true, FaultVfs.Codes.FULL);
                for (int i = 0; i < 3; i++) {
                    SQLException e = assertThrows(SQLException.class, () -> exec(c, "INSERT INTO t VALUES (2)"));
                    assertCode(FaultVfs.Codes.FULL, e);
                }
                assertTrue(FaultVfs.fired() >= 3, "fired " + FaultVfs.fired());
                FaultVfs.disarm();
                exec(c, "INSERT INTO t VALUES (2)");
                assertEquals(2, count(c, "SELECT count(*) FROM t"));
            }
        }
    }

    /** The count of a kind is where its fault fires: the Cth call of a run of C calls fails, a (C+1)th never comes. */
    @Test
    void countsAgreeWithWhereFaultsFire() throws Exception {
        create("DELETE");
        byte[] start = Files.readAllBytes(db); // each run starts from the same file, so makes the same calls
        synchronized (FaultVfs.LOCK) {
            for (Kind kind : new Kind[] {Kind.OPEN, Kind.WRITE, Kind.SYNC, Kind.DELETE, Kind.READ, Kind.LOCK}) {
                FaultVfs.resetCounts();
                reset(start);
                commits(3);
                long calls = FaultVfs.count(kind);
                assertTrue(calls > 0, kind + " was never called");
                reset(start);
                FaultVfs.arm(kind, calls + 1, false, FaultVfs.DEFAULT_ERROR);
                commits(3);
                assertEquals(0, FaultVfs.fired(), kind + ": a call past the count");
                reset(start);
                FaultVfs.arm(kind, calls, false, FaultVfs.DEFAULT_ERROR);
                try {
                    commits(3);
                } catch (SQLException expected) {
                    // the last call failed: what SQLite makes of it is the sweeps' business
                }
                assertEquals(1, FaultVfs.fired(), kind + ": the last counted call did not fail");
                FaultVfs.disarm();
            }
        }
        // exact where SQLite's behaviour is fixed: each auto-commit in DELETE mode opens and deletes one journal
        reset(start);
        FaultVfs.resetCounts();
        commits(3);
        assertEquals(3, FaultVfs.count(Kind.DELETE));
        assertEquals(1 + 3, FaultVfs.count(Kind.OPEN), "the database, then a journal per commit");
    }

    /** The file as it was, and no journal a failed run left behind. */
    private void reset(byte[] start) throws java.io.IOException {
        Files.write(db, start);
        Files.deleteIfExists(dir.resolve("test.db-journal"));
    }

    private void commits(int n) throws SQLException {
        try (Connection c = open("synchronous=FULL")) {
            for (int i = 0; i < n; i++) {
                exec(c, "INSERT INTO t VALUES (" + (10 + i) + ")");
            }
        }
    }

    @Test
    void powerCutFailsEverythingAfterIt() throws SQLException {
        create("DELETE");
        synchronized (FaultVfs.LOCK) {
            FaultVfs.record(true);
            try (Connection c = open("")) {
                FaultVfs.arm(Kind.WRITE, 1, false, FaultVfs.POWER_CUT);
                assertThrows(SQLException.class, () -> exec(c, "INSERT INTO t VALUES (2)"));
                assertTrue(FaultVfs.dead());
                FaultVfs.resetCounts();
                assertThrows(SQLException.class, () -> count(c, "SELECT count(*) FROM t"), "nothing works after a cut");
                assertEquals(1, FaultVfs.fired(), "the cut is one fault; what fails after it is the cut's doing");
                assertThrows(IllegalStateException.class, () -> FaultVfs.powerRestore(Loss.DROP_ALL, 1),
                        "no restore while a handle is open");
            }
            assertEquals(0, FaultVfs.openFiles());
            FaultVfs.powerRestore(Loss.DROP_ALL, 1);
            assertFalse(FaultVfs.dead());
        }
        try (Connection c = open("")) {
            assertEquals(1, count(c, "SELECT count(*) FROM t"));
            assertEquals("ok", integrity(c));
        }
    }

    /**
     * With synchronous=OFF nothing is ever synced: DROP_ALL takes the file back to where recording
     * began, KEEP_ALL keeps every commit, TORN keeps some sectors (the same ones for the same seed).
     */
    @Test
    void lossLeavesWhatWasAsked() throws Exception {
        create("DELETE");
        byte[] start = Files.readAllBytes(db);
        assertEquals(start.length, restoredSize(Loss.DROP_ALL, 1, start));
        assertEquals(20, rowsAfter(Loss.KEEP_ALL, 1, start) - 1, "KEEP_ALL: every row");
        byte[] torn1 = tornImage(7, start);
        byte[] torn2 = tornImage(7, start);
        assertTrue(java.util.Arrays.equals(torn1, torn2), "the same seed tears the same sectors");
        assertFalse(java.util.Arrays.equals(torn1, start), "a torn file is not the synced one");
    }

    /** Writes 20 unsynced commits, cuts at the next write, restores with loss and seed. */
    private void unsyncedCommitsThenCut(Loss loss, long seed, byte[] start) throws Exception {
        Files.write(db, start);
        synchronized (FaultVfs.LOCK) {
            FaultVfs.record(true);
            try (Connection c = open("synchronous=OFF&cache_size=-64")) {
                exec(c, "PRAGMA journal_mode=MEMORY");
                for (int i = 0; i < 20; i++) {
                    exec(c, "INSERT INTO t VALUES (zeroblob(3000))"); // the same bytes each run
                }
                FaultVfs.arm(Kind.WRITE, 1, false, FaultVfs.POWER_CUT);
                assertThrows(SQLException.class, () -> exec(c, "INSERT INTO t VALUES (2)"));
            }
            FaultVfs.powerRestore(loss, seed);
            FaultVfs.record(false);
        }
    }

    private long restoredSize(Loss loss, long seed, byte[] start) throws Exception {
        unsyncedCommitsThenCut(loss, seed, start);
        assertTrue(java.util.Arrays.equals(start, Files.readAllBytes(db)), "DROP_ALL: the file as recording began");
        return Files.size(db);
    }

    private long rowsAfter(Loss loss, long seed, byte[] start) throws Exception {
        unsyncedCommitsThenCut(loss, seed, start);
        try (Connection c = open("")) {
            assertEquals("ok", integrity(c));
            return count(c, "SELECT count(*) FROM t");
        }
    }

    private byte[] tornImage(long seed, byte[] start) throws Exception {
        unsyncedCommitsThenCut(Loss.TORN, seed, start);
        return Files.readAllBytes(db);
    }

    private static String integrity(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }
}
