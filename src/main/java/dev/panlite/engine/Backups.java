package dev.panlite.engine;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;

/**
 * Whole databases in and out of one connection: SQLite's online backup (and restore), and
 * serialize/deserialize to and from bytes. Every method runs with the connection's lock held.
 */
public final class Backups {
    /**
     * The oldest SQLite deserialize is offered on: SQLite 3.40.1 (Debian 12's) crashed in
     * sqlite3SchemaToIndex on later prepares after a deserialize, in 1 of about 9 misuse-fuzz runs, with
     * no statement open (F21); 3.54.1 never did.
     */
    static final int DESERIALIZE_SINCE = 3_054_000;
    private static final String DESERIALIZE_SINCE_TEXT = "3.54.0";

    private final Database database;

    Backups(Database database) {
        this.database = database;
    }

    /**
     * The incumbent's {@code backup to FILE} / {@code restore from FILE}: SQLite's online backup of
     * schema {@code schema} into the file, or from it.
     */
    public void backup(String schema, String file, boolean restore) throws SQLException {
        backup(schema, file, restore, -1, null);
    }

    /**
     * Online backup of {@code schema} to {@code file} (or, with {@code restore}, from it), in steps of
     * {@code pagesPerStep} pages, telling {@code progress} after each.
     */
    public void backup(String schema, String file, boolean restore, int pagesPerStep, Scratch.Progress progress)
            throws SQLException {
        assert database.isLockedByMe();
        if (restore) {
            refuseInCallback("restore");
            database.session().changed(); // "restore temp from ..." fills the TEMP schema
        }
        Scratch scratch = database.scratch();
        // the progress callback runs while the sqlite3_backup* points into this connection: counted as a
        // callback, so closing the connection from it waits until the backup is finished; and a restore's
        // destination is this connection, which SQLite forbids using until the restore ends: refused there
        Scratch.Progress counted = progress == null ? null
                : restore ? (remaining, pages) -> scratch.callbacks().runForbiddingUse(() -> progress.report(remaining, pages))
                : (remaining, pages) -> scratch.callbacks().runInside(() -> progress.report(remaining, pages));
        Scratch.Copied copied;
        try {
            copied = Scratch.backup(database.handle(), schema, file, restore, database.writeAccess().busyTimeoutMillis(),
                    pagesPerStep, counted); // busy_timeout now: PRAGMA busy_timeout may have changed it
        } catch (RuntimeException | Error stopped) { // thrown by the progress callback: the copy stopped there
            throw new SQLException((restore ? "restore from '" : "backup to '") + file
                    + "' stopped: its progress callback threw " + stopped, SqlState.GENERAL_ERROR, stopped);
        }
        if (copied.rc() != Sqlite.OK) {
            throw ResultCodes.exception(copied.rc(), copied.message() + " (" + (restore ? "restore from '" : "backup to '")
                    + file + "')", null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** sqlite3_serialize: the bytes of {@code schema}. */
    public byte[] serialize(String schema) throws SQLException {
        assert database.isLockedByMe();
        LibraryFunctions.require("sqlite3_serialize", "serialize");
        byte[] image = Scratch.serialize(database.handle(), schema);
        if (image == null) {
            throw ResultCodes.exception(Sqlite.ERROR, "Cannot serialize schema '" + schema
                    + "': no such database, or out of memory", null, ResultCodes.Phase.EXECUTE);
        }
        return image;
    }

    /** sqlite3_deserialize: {@code schema} becomes an in-memory database holding {@code image}. */
    public void deserialize(String schema, byte[] image) throws SQLException {
        assert database.isLockedByMe();
        refuseInCallback("deserialize");
        LibraryFunctions.require("sqlite3_deserialize", "deserialize");
        if (Database.libraryVersionNumber() < DESERIALIZE_SINCE) {
            throw new java.sql.SQLFeatureNotSupportedException("deserialize needs SQLite " + DESERIALIZE_SINCE_TEXT
                    + " or newer (the bundled engine); this is " + Database.libraryVersion() + ", which the misuse"
                    + " fuzz crashed after a deserialize", SqlState.FEATURE_NOT_SUPPORTED); // not 0A000: HikariCP evicts on it
        }
        long db = database.handle();
        // sqlite3_deserialize closes the schema's old b-tree under any statement still reading it (its
        // cursors would dangle: found by the misuse fuzz): refuse while one runs or a blob is open
        if (database.blobs().any()) {
            throw ResultCodes.exception(Sqlite.BUSY, "deserialize: a blob of this connection is open; free() it first",
                    null, ResultCodes.Phase.EXECUTE);
        }
        for (long s = Sqlite.nextStmt(db, 0); s != 0; s = Sqlite.nextStmt(db, s)) {
            if (Sqlite.stmtBusy(s)) {
                throw ResultCodes.exception(Sqlite.BUSY, "deserialize: a statement of this connection is still"
                        + " running (an open ResultSet?); close it first", null, ResultCodes.Phase.EXECUTE);
            }
        }
        // Statements prepared before a deserialize keep pointers into the schema it replaces; SQLite 3.40.1
        // later crashed on them, and on fresh prepares after them (misuse fuzz F21). So the idle ones (the
        // statement cache, the transaction statements) are finalized, and the caller's own must be closed.
        if (database.transactions().inTransaction()) {
            throw ResultCodes.exception(Sqlite.BUSY, "deserialize: a transaction is open; commit or roll it back first",
                    null, ResultCodes.Phase.EXECUTE);
        }
        String open = database.finalizeIdleStatements();
        if (open != null) {
            throw ResultCodes.exception(Sqlite.BUSY, "deserialize: this connection has open statements ("
                    + open + " ...); close them first", null, ResultCodes.Phase.EXECUTE);
        }
        database.session().changed(); // the schema is another database now
        int rc = Scratch.deserialize(db, schema, image);
        if (rc != Sqlite.OK) {
            throw database.error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** Replacing a database under a running statement (from one of its callbacks) is refused. */
    private void refuseInCallback(String what) throws SQLException {
        if (database.inCallback()) {
            throw ResultCodes.exception(Sqlite.MISUSE, what + " cannot run inside a callback of this connection:"
                    + " it would replace the database the running statement reads", null, ResultCodes.Phase.EXECUTE);
        }
    }
}
