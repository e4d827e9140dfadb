package dev.panlite.engine;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;

/**
 * One {@code sqlite3_blob*}: incremental I/O on one value, without copying it whole. It belongs to
 * its connection: every call runs under the connection's lock after a closed check, the handle is
 * zeroed when freed, and the connection closes every handle still open when it closes (SQLite
 * cannot close a connection with open blobs).
 */
public final class BlobHandle {
    private final Database db;
    private final int length;
    private final boolean writable;
    private long handle; // 0 once closed
    BlobHandle next; // the connection's list of open blobs
    BlobHandle prev;

    BlobHandle(Database db, long handle, boolean writable) {
        this.db = db;
        this.handle = handle;
        this.writable = writable;
        this.length = Sqlite.blobBytes(handle); // fixed for the handle's life: blob I/O cannot resize
    }

    /** The size in bytes. No native call: it cannot change while the handle is open. */
    public int length() {
        return length;
    }

    public boolean writable() {
        return writable;
    }

    /** Reads {@code n} bytes at {@code offset} into {@code into[at..]}; takes the lock. */
    public void read(int offset, byte[] into, int at, int n) throws SQLException {
        io(false, offset, into, at, n);
    }

    /** Writes {@code from[at..at+n)} at {@code offset}; takes the lock. */
    public void write(int offset, byte[] from, int at, int n) throws SQLException {
        io(true, offset, from, at, n);
    }

    private void io(boolean write, int offset, byte[] bytes, int at, int n) throws SQLException {
        try (var held = db.hold()) {
            check();
            int rc = write ? db.scratch().blobWrite(handle, offset, bytes, at, n)
                    : db.scratch().blobRead(handle, offset, bytes, at, n);
            if (rc != Sqlite.OK) {
                throw db.error(rc, null, ResultCodes.Phase.EXECUTE);
            }
        }
    }

    private void check() throws SQLException {
        db.checkOpen();
        if (handle == 0) {
            throw new SQLException("The blob is closed (free() was called)", SqlState.FUNCTION_SEQUENCE_ERROR);
        }
    }

    public boolean isClosed() {
        return handle == 0 || db.isClosed();
    }

    /** Closes the handle (idempotent); takes the lock. */
    public void close() {
        try (var held = db.hold()) {
            closeLocked();
        }
    }

    /** Lock held. */
    void closeLocked() {
        if (handle != 0) {
            long h = handle;
            handle = 0;
            db.blobs().untrack(this);
            Sqlite.blobClose(h);
        }
    }

    /** Opens {@code schema.table.column} of row {@code rowid}. Lock held. */
    static BlobHandle open(Database db, String schema, String table, String column, long rowid, boolean writable)
            throws SQLException {
        LibraryFunctions.require("sqlite3_blob_open", "blob I/O");
        Scratch.OpenedBlob opened = Scratch.blobOpen(db.handle(), schema, table, column, rowid, writable);
        if (opened.rc() != Sqlite.OK) {
            SQLException e = db.error(opened.rc(), null, ResultCodes.Phase.EXECUTE);
            if (opened.blob() != 0) {
                Sqlite.blobClose(opened.blob());
            }
            throw e;
        }
        return new BlobHandle(db, opened.blob(), writable);
    }
}
