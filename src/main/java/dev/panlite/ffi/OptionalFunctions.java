package dev.panlite.ffi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The C functions the driver binds that a library it accepts may lack, and what provides each: a
 * newer SQLite than the oldest the driver loads (3.37.0, {@link SqliteLibrary}), or a build that
 * does not omit them (the {@code SQLITE_OMIT_*} and {@code SQLITE_ENABLE_*} compile options), or a
 * fork. A missing optional function never stops the driver from loading; the feature that needs it
 * fails with an SQLException naming the function and the library (engine.LibraryFunctions), or
 * does without (the error offset, EXPLAIN detection, result-column origins). Every other function
 * {@link Sqlite} binds is required: a library without one is refused at the first connection, with
 * the names of what it lacks.
 *
 * <p>Versions are those of SQLite's release history (sqlite.org/changes.html, each function's page).
 */
public final class OptionalFunctions {
    /** Function name: what provides it (shown in the error). */
    static final Map<String, String> SINCE = Map.ofEntries(
            Map.entry("sqlite3_setlk_timeout", "SQLite 3.50.0, does nothing in builds without SQLITE_ENABLE_SETLK_TIMEOUT"),
            Map.entry("sqlite3_error_offset", "SQLite 3.38.0"),
            Map.entry("sqlite3_is_interrupted", "SQLite 3.41.0"),
            Map.entry("sqlite3_stmt_isexplain", "SQLite 3.28.0"),
            Map.entry("sqlite3_create_window_function", "SQLite 3.25.0, not in builds with SQLITE_OMIT_WINDOWFUNC"),
            Map.entry("sqlite3_serialize", "SQLite 3.23.0, not in builds with SQLITE_OMIT_DESERIALIZE"),
            Map.entry("sqlite3_deserialize", "SQLite 3.23.0, not in builds with SQLITE_OMIT_DESERIALIZE"),
            Map.entry("sqlite3_column_table_name", "builds with SQLITE_ENABLE_COLUMN_METADATA"),
            Map.entry("sqlite3_column_origin_name", "builds with SQLITE_ENABLE_COLUMN_METADATA"),
            Map.entry("sqlite3_column_database_name", "builds with SQLITE_ENABLE_COLUMN_METADATA"),
            Map.entry("sqlite3_table_column_metadata", "builds with SQLITE_ENABLE_COLUMN_METADATA"),
            Map.entry("sqlite3_enable_load_extension", "builds without SQLITE_OMIT_LOAD_EXTENSION"),
            Map.entry("sqlite3_load_extension", "builds without SQLITE_OMIT_LOAD_EXTENSION"),
            Map.entry("sqlite3_wal_hook", "builds without SQLITE_OMIT_WAL"),
            Map.entry("sqlite3_wal_checkpoint_v2", "builds without SQLITE_OMIT_WAL"),
            Map.entry("sqlite3_blob_open", "builds without SQLITE_OMIT_INCRBLOB"),
            Map.entry("sqlite3_blob_read", "builds without SQLITE_OMIT_INCRBLOB"),
            Map.entry("sqlite3_blob_write", "builds without SQLITE_OMIT_INCRBLOB"),
            Map.entry("sqlite3_blob_bytes", "builds without SQLITE_OMIT_INCRBLOB"),
            Map.entry("sqlite3_blob_close", "builds without SQLITE_OMIT_INCRBLOB"),
            Map.entry("sqlite3_progress_handler", "builds without SQLITE_OMIT_PROGRESS_CALLBACK"),
            Map.entry("sqlite3_key", "SQLCipher and SQLite3MultipleCiphers"));

    /** Whether the library exports each function asked about (a feature asks on every use: no symbol lookup each time). */
    private static final Map<String, Boolean> PRESENT = new ConcurrentHashMap<>();

    private static final List<String> MISSING_REQUIRED = Collections.synchronizedList(new ArrayList<>());

    private OptionalFunctions() {}

    /** Called by {@link Sqlite}'s binding for each function the loaded library does not export. */
    static void noteMissing(String name) {
        if (!SINCE.containsKey(name)) {
            MISSING_REQUIRED.add(name);
        }
    }

    /**
     * Null when the loaded library exports {@code function}; otherwise a sentence for the error of the
     * feature that needs it: the function, what provides it, and the library loaded.
     */
    public static String missing(String function) {
        if (SqliteLibrary.lookup() == null || PRESENT.computeIfAbsent(function, Sqlite::has)) {
            return null;
        }
        String since = SINCE.get(function);
        return function + (since == null ? "" : " (" + since + ")") + ", which the loaded " + SqliteLibrary.describe()
                + " does not have";
    }

    /**
     * Null when the loaded library has every function the driver requires; otherwise why the driver
     * cannot use it (checked before the first connection opens).
     */
    static String missingRequired() {
        return Required.ERROR;
    }

    /** Computed once, after {@link Sqlite} has bound every function (its initialisation notes the missing ones). */
    private static final class Required {
        static final String ERROR = compute();

        private static String compute() {
            Sqlite.has("sqlite3_open_v2"); // initialises Sqlite: every bind has run
            return MISSING_REQUIRED.isEmpty() ? null : message();
        }
    }

    private static String message() {
        return "Panlite cannot use the " + SqliteLibrary.describe() + ": it lacks the C function"
                + (MISSING_REQUIRED.size() == 1 ? " " : "s ") + String.join(", ", MISSING_REQUIRED)
                + ", which Panlite needs (SQLite 3.37 and newer, built without SQLITE_OMIT_* options that remove them,"
                + " have them).";
    }
}
