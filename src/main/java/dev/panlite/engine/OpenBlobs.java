package dev.panlite.engine;

import java.sql.SQLException;

/**
 * The incremental blob handles open on one connection: SQLite cannot close a connection with blobs
 * open, and replacing a database (deserialize) under one would leave it dangling. Lock held.
 */
public final class OpenBlobs {
    private final Database database;
    private BlobHandle first;

    OpenBlobs(Database database) {
        this.database = database;
    }

    /** Opens incremental I/O on one value. */
    public BlobHandle open(String schema, String table, String column, long rowid, boolean writable)
            throws SQLException {
        assert database.isLockedByMe();
        BlobHandle blob = BlobHandle.open(database, schema, table, column, rowid, writable);
        blob.next = first;
        if (first != null) {
            first.prev = blob;
        }
        first = blob;
        return blob;
    }

    boolean any() {
        return first != null;
    }

    /** Called by BlobHandle when it closes. */
    void untrack(BlobHandle blob) {
        assert database.isLockedByMe();
        if (blob.prev != null) {
            blob.prev.next = blob.next;
        } else if (first == blob) {
            first = blob.next;
        }
        if (blob.next != null) {
            blob.next.prev = blob.prev;
        }
        blob.next = null;
        blob.prev = null;
    }

    /** Connection close: every blob goes first. */
    void closeAll() {
        while (first != null) {
            first.closeLocked();
        }
    }
}
