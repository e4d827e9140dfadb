package dev.panlite.engine;

import dev.panlite.ffi.OptionalFunctions;
import java.sql.SQLFeatureNotSupportedException;

/**
 * The check a feature makes before it calls a C function the loaded library may lack (an SQLite
 * older than the function, a build that omits it, a fork: see {@code ffi.OptionalFunctions}).
 */
final class LibraryFunctions {
    /** SQL/CLI's "optional feature not implemented", as everywhere in the driver (not 0A000: pools evict on it). */

    private LibraryFunctions() {}

    /** Throws, naming {@code function} and the library, when the loaded library does not export it. */
    static void require(String function, String feature) throws SQLFeatureNotSupportedException {
        String missing = OptionalFunctions.missing(function);
        if (missing != null) {
            throw new SQLFeatureNotSupportedException(feature + " needs " + missing, SqlState.FEATURE_NOT_SUPPORTED);
        }
    }
}
