package dev.panlite.engine;

import dev.panlite.ffi.Fused;
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
    /**
     * The main schema is not empty, so a schema row was read and SQLite never changes ENC(db) on this
     * connection again. Not temp's: reading temp.sqlite_schema makes SQLite 3.40 open the TEMP
     * database, which PRAGMA database_list then lists (D2 in docs/fuzz-findings-2026-11-27.md); a
     * connection with TEMP tables only asks again.
     */
    private static final String FIXED_SQL = "SELECT EXISTS (SELECT 1 FROM main.sqlite_schema)";
    /** The encoding: a PRAGMA, which no table or view of the application can stand in for (as for pragma_encoding). */
    private static final String ENCODING_SQL = "PRAGMA encoding";

    private final Database db;
    private Stmt select;
    private byte utf8; // 0 not known (or not fixed yet), 1 fixed as UTF-8, -1 fixed as UTF-16

    /**
     * Whether a fill may copy BLOB values: their conversions here then give what SQLite gives in
     * place. That holds where the database's text encoding is UTF-8, as a copy keeps no encoding:
     * elsewhere sqlite3_column_text of a blob converts its bytes from the encoding its value carries
     * (the database's for a stored blob, UTF-8 for a computed zeroblob), so a row holding a blob is
     * read in place. The bundled engine's helper reads the encoding itself, per row ({@link
     * Fused#readsEncoding}); otherwise it is asked here once it is fixed, and until then (an empty
     * schema) asked at each fill and answered no. It is never asked while a statement runs (see
     * {@link #anyStatementRunning}): no, until then. A failing question (an authorizer that denies it, a
     * progress handler that interrupts it) also answers no: the rows are then read in place, which
     * is never wrong. The question's statements are finalized at once: none of the connection's
     * statements stays behind for it. Lock held.
     */
    boolean blobsReadAhead() {
        if (Fused.readsEncoding() || utf8 > 0) {
            return true;
        }
        if (utf8 < 0 || anyStatementRunning()) {
            return false;
        }
        String fixed = FileWrites.firstValue(db, FIXED_SQL, 0);
        if (!"1".equals(fixed)) {
            return false; // read in place (see above)
        }
        String encoding = FileWrites.firstValue(db, ENCODING_SQL, 0);
        if (encoding == null) {
            return false; // read in place (see above)
        }
        boolean isUtf8 = encoding.equals("UTF-8");
        utf8 = (byte) (isUtf8 ? 1 : -1);
        return isUtf8;
    }

    /**
     * Whether a statement of the connection is between its first step and its reset. The question
     * above reads the schema, which a connection's first statements (reading no table) have not
     * loaded; loading it then sets ENC(db), and a running statement's text literals would read as the
     * new encoding from its next row on ("abc" came back as "\u6261" in a UTF-16 file).
     */
    private boolean anyStatementRunning() {
        long handle = db.handle();
        for (long s = Sqlite.nextStmt(handle, 0); s != 0; s = Sqlite.nextStmt(handle, s)) {
            if (Sqlite.stmtBusy(s)) {
                return true;
            }
        }
        return false;
    }

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
