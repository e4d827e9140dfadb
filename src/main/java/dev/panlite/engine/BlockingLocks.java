package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import dev.panlite.ffi.SqliteLibrary;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * {@code setlk_timeout}: SQLite's blocking locks (sqlite3_setlk_timeout, docs/experiments/041), an
 * experiment kept behind a setting. With them SQLite waits for a lock held by another process inside
 * the call, in the kernel (F_SETLKW), which the driver otherwise never lets it do (DESIGN.md: waits
 * are Java-side parks). A library without the function (before 3.50) or built without
 * SQLITE_ENABLE_SETLK_TIMEOUT (where the function does nothing) refuses the setting with the reason.
 */
final class BlockingLocks {
    private BlockingLocks() {}

    /** At open, lock held: sets the timeout when {@code millis} is positive. */
    static void apply(Database database, int millis) throws SQLException {
        if (millis <= 0) {
            return;
        }
        LibraryFunctions.require("sqlite3_setlk_timeout", "setlk_timeout"); // HYC00 naming the library
        if (!database.returnsRow("SELECT 1 WHERE sqlite_compileoption_used('ENABLE_SETLK_TIMEOUT')")) {
            throw new SQLFeatureNotSupportedException("setlk_timeout: the loaded SQLite (" + Sqlite.libversion() + ", "
                    + SqliteLibrary.loadedFrom() + ") was built without SQLITE_ENABLE_SETLK_TIMEOUT, so"
                    + " sqlite3_setlk_timeout would do nothing; tools/build-sqlite-setlk.sh builds one that has it", SqlState.FEATURE_NOT_SUPPORTED);
        }
        int rc = Sqlite.setlkTimeout(database.handle(), millis);
        if (rc != Sqlite.OK) {
            throw database.error(rc, "sqlite3_setlk_timeout(" + millis + ")", ResultCodes.Phase.EXECUTE);
        }
    }
}
