package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;

/**
 * SQLite's own conversion of a value held in Java ({@link RowBatch}) for the getters whose answer
 * SQLite computes: a number from text or a blob (sqlite3Atoi64 and sqlite3AtoF, which read '12abc'
 * as 12), a REAL as text, text as blob bytes (the database's encoding). The value is bound to a
 * private {@code SELECT ?1} and read back with the same sqlite3_column_* call the getter would have
 * made on the row, so the answer is the same, on whichever SQLite is loaded. One statement per
 * connection, prepared on first use, finalized with the connection. Every method: lock held, after
 * a closed check. The statement reads no table and calls no function, so it takes no lock in the
 * file and no callback runs inside it (a progress handler may, but it cannot use the connection).
 */
final class Conversions {
    private static final String SQL = "SELECT ?1";

    private final Database db;
    private Stmt select;

    Conversions(Database db) {
        this.db = db;
    }

    long toLong(int type, long cell, byte[] bytes) throws SQLException {
        return convert(type, cell, bytes, Sqlite::columnLong);
    }

    double toDouble(int type, long cell, byte[] bytes) throws SQLException {
        return convert(type, cell, bytes, Sqlite::columnDouble);
    }

    byte[] toText(int type, long cell, byte[] bytes) throws SQLException {
        return convert(type, cell, bytes, Sqlite::columnTextBytes);
    }

    byte[] toBlob(int type, long cell, byte[] bytes) throws SQLException {
        return convert(type, cell, bytes, Sqlite::columnBlob);
    }

    /** How the value is read back: the sqlite3_column_* call the getter would have made on the row. */
    private interface Read<T> {
        T read(long handle, int column);
    }

    private <T> T convert(int type, long cell, byte[] bytes, Read<T> read) throws SQLException {
        long h = start(type, cell, bytes);
        try {
            return read.read(h, 0);
        } finally {
            end(h);
        }
    }

    /** Finalizes the statement (before a deserialize replaces the schema it points into); lock held. */
    void close() {
        if (select != null) {
            select.finalizeNow();
            select = null;
        }
    }

    /** Binds the value and steps to the row holding it; returns the handle. */
    private long start(int type, long cell, byte[] bytes) throws SQLException {
        assert db.isLockedByMe();
        db.checkOpen();
        if (select == null || select.handle == 0) {
            select = db.preparePersistent(SQL);
        }
        long h = select.handle;
        int rc = switch (type) {
            case Sqlite.INTEGER -> Sqlite.bindLong(h, 1, cell);
            case Sqlite.FLOAT -> Sqlite.bindDouble(h, 1, Double.longBitsToDouble(cell));
            case Sqlite.TEXT -> Sqlite.bindText(h, 1, bytes, bytes.length);
            case Sqlite.BLOB -> Sqlite.bindBlob(h, 1, bytes, bytes.length);
            default -> Sqlite.bindNull(h, 1);
        };
        if (rc == Sqlite.OK) {
            rc = Sqlite.step(h);
        }
        if (rc != Sqlite.ROW) {
            SQLException e = db.error(rc, SQL, ResultCodes.Phase.EXECUTE);
            end(h);
            throw e;
        }
        return h;
    }

    private static void end(long h) {
        Sqlite.reset(h);
        Sqlite.clearBindings(h); // lets a bound text or blob go
    }
}
