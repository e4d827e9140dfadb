package dev.panlite.engine;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * Loading an SQLite extension into one connection at run time (PanliteConnection.loadExtension and
 * the {@code load_extensions} setting). Loading is enabled for the one C call that loads, with
 * {@code SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION}, which leaves SQL's {@code load_extension()}
 * refused: no SQL text can name a library to run. What was enabled before (the
 * {@code enable_load_extension} setting turns both on) is put back after the call. An extension
 * stays loaded for the life of the connection (SQLite has no unload); a pooled connection keeps it
 * across borrowers.
 */
public final class Extensions {
    private Extensions() {}

    /** One library to load and its entry point (null: SQLite's default rule, from the file's name). */
    public record Library(String path, String entryPoint) {}

    /**
     * Loads {@code library}, a relative path taken from the working directory (never searched for
     * on the library path), calling {@code entryPoint} (null: SQLite's default rule,
     * {@code sqlite3_<name>_init}, else {@code sqlite3_extension_init}). {@code what} names the
     * caller in errors. Lock held.
     */
    public static void load(Database database, Path library, String entryPoint, String what) throws SQLException {
        assert database.isLockedByMe();
        database.checkOpen();
        Path file = library.toAbsolutePath();
        LibraryFunctions.require("sqlite3_load_extension", what + " of '" + file + "'");
        if (database.inCallback()) {
            // the entry point registers functions and modules: never under a statement of this connection
            throw ResultCodes.exception(Sqlite.MISUSE, what + " cannot run inside a callback of this connection:"
                    + " an extension's entry point changes the functions and modules a running statement uses"
                    + " (loading '" + file + "')", null, ResultCodes.Phase.EXECUTE);
        }
        long db = database.handle();
        int before = Sqlite.dbConfig(db, Sqlite.DBCONFIG_ENABLE_LOAD_EXTENSION, -1);
        if (before != 1 && Sqlite.dbConfig(db, Sqlite.DBCONFIG_ENABLE_LOAD_EXTENSION, 1) != 1) {
            throw ResultCodes.exception(Sqlite.ERROR, what + ": the loaded SQLite (" + Sqlite.libversion()
                    + ") refused SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION (loading '" + file + "')", null,
                    ResultCodes.Phase.EXECUTE);
        }
        Scratch.Loaded loaded;
        String connectionMessage = null;
        try {
            loaded = database.scratch().loadExtension(db, file, entryPoint);
            if (loaded.rc() != Sqlite.OK) {
                // an entry point that fails often leaves its reason only on the connection (a function
                // it could not register while statements are active), not in the message it returns
                connectionMessage = Sqlite.errmsg(db);
            }
        } finally {
            if (before != 1) {
                Sqlite.dbConfig(db, Sqlite.DBCONFIG_ENABLE_LOAD_EXTENSION, 0); // for that one call only
            }
        }
        if (loaded.rc() != Sqlite.OK) {
            // SQLite's message is about the last name it tried (the path with its suffix added): say what
            // the path itself is when SQLite could not open it
            String which = loaded.opened() ? "" : java.nio.file.Files.notExists(file) ? " (no such file)"
                    : " (not a shared library this process can load)";
            String message = loaded.message() != null ? loaded.message() : Sqlite.errstr(loaded.rc());
            if (message.strip().endsWith(":") && connectionMessage != null && !connectionMessage.isBlank()
                    && !connectionMessage.equals(Sqlite.errstr(Sqlite.OK))) {
                message = message.strip() + " " + connectionMessage; // "error during initialization: " said nothing
            }
            throw ResultCodes.exception(loaded.rc(), "Cannot load the extension '" + file + "'" + which
                    + (entryPoint == null ? "" : " (entry point " + entryPoint + ")") + ": " + message, null,
                    ResultCodes.Phase.EXECUTE);
        }
    }
}
