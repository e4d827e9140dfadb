package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * setlk_timeout (SQLite's blocking locks, docs/experiments/041): applied where the loaded SQLite can
 * (sqlite3_setlk_timeout and a build with SQLITE_ENABLE_SETLK_TIMEOUT: tools/build-sqlite-setlk.sh),
 * refused with the reason where it cannot (the bundled engine, Debian's 3.40.1), never silently ignored.
 */
class BlockingLocksTest {
    @TempDir
    Path dir;

    @Test
    void setlkTimeoutIsAppliedWhereTheLibraryCanAndRefusedWithTheReasonWhereItCannot() throws Exception {
        boolean capable;
        String version;
        try (Connection c = TestDb.open(dir, "setlk_timeout=0")) { // 0: off, opens on any library
            capable = TestDb.queryLong(c, "SELECT sqlite_compileoption_used('ENABLE_SETLK_TIMEOUT')") == 1
                    && TestDb.queryString(c, "SELECT sqlite_version()").compareTo("3.50") >= 0;
            version = TestDb.queryString(c, "SELECT sqlite_version()");
        }
        if (capable) {
            try (Connection c = TestDb.open(dir, "setlk_timeout=1000&journal_mode=WAL")) {
                TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
                assertEquals(1, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            }
        } else {
            SQLFeatureNotSupportedException e = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> TestDb.open(dir, "setlk_timeout=1000").close());
            assertTrue(e.getMessage().contains("setlk_timeout") && e.getMessage().contains(version)
                    && (e.getMessage().contains("SQLITE_ENABLE_SETLK_TIMEOUT") || e.getMessage().contains("no sqlite3_setlk_timeout")),
                    e.getMessage());
        }
    }
}
