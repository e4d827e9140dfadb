package dev.panlite.engine;

import dev.panlite.ffi.Fused;
import dev.panlite.ffi.Sqlite;

/**
 * One {@code sqlite3_stmt*} and what is known about it. Every method must be called with the owning
 * {@link Database}'s lock held. A statement that came from the cache goes back there when its
 * user is done ({@link Database#release}); any other is finalized.
 */
public final class Stmt {
    final Database db;
    final String sql;
    final int sqlHash;
    final boolean cacheable;
    long handle;
    private int columnCount;
    private byte changesRows; // 0 not yet known, 1 yes, -1 no: see changesRows()
    private byte insertsRows; // 0 not yet known, 1 yes, -1 no: see insertsRows()
    private int parameterCount = -1; // asked of SQLite on first use: plain Statement.execute never needs it
    private Bindings bindings; // parameter values recorded in Java, bound at flushBindings; made on first use
    private BatchRows batch; // rows of a PreparedStatement batch; kept with the statement like its bindings
    private boolean clearPending; // clearParameters ran: SQLite's bindings are cleared at the next flush
    private boolean stepped; // stepped since the last reset: reset has work to do

    Stmt(Database db, long handle, String sql, boolean cacheable) {
        this.db = db;
        this.handle = handle;
        this.sql = sql;
        this.sqlHash = sql.hashCode();
        this.cacheable = cacheable;
        this.columnCount = Sqlite.columnCount(handle);
    }

    public Database database() {
        return db;
    }

    public String sql() {
        return sql;
    }

    public long handle() {
        return handle;
    }

    public int columnCount() {
        return columnCount;
    }

    /**
     * Reads the column count again: after a schema change (ALTER TABLE, DROP + CREATE) SQLite
     * re-prepares the statement on its next step, and a {@code SELECT *} may have a new shape.
     */
    public void refreshColumnCount() {
        columnCount = Sqlite.columnCount(handle);
    }

    /**
     * True for INSERT, UPDATE, DELETE and REPLACE (also behind WITH): the statements whose row count
     * sqlite3_changes reports. Decided once from the text and kept with the cached statement.
     */
    public boolean changesRows() {
        if (changesRows == 0) {
            changesRows = (byte) (SqlText.modifiesRows(sql) ? 1 : -1);
        }
        return changesRows > 0;
    }

    /** True for INSERT and REPLACE (also behind WITH): the statements that generate keys. Decided once. */
    public boolean insertsRows() {
        if (insertsRows == 0) {
            insertsRows = (byte) (SqlText.isInsert(sql) ? 1 : -1);
        }
        return insertsRows > 0;
    }

    public int parameterCount() {
        if (parameterCount < 0) {
            parameterCount = Sqlite.bindParameterCount(handle);
        }
        return parameterCount;
    }

    Bindings bindings() {
        if (bindings == null) {
            bindings = new Bindings(parameterCount());
        }
        return bindings;
    }

    /** sqlite3_step: ROW, DONE, or an error code (turned into an exception by the caller). */
    public int step() {
        stepped = true;
        return Sqlite.step(handle);
    }

    /** Ends the current execution (bindings stay, for re-execution). Returns reset's code. */
    public int reset() {
        if (!stepped) {
            return Sqlite.OK;
        }
        stepped = false;
        return Sqlite.reset(handle);
    }

    /**
     * Returns the statement to its initial state with no parameters bound: one crossing with the
     * native helper, and only clear_bindings when it was not stepped since the last reset.
     */
    public int resetAndClear() {
        clearPending = false;
        clearBatch(); // a batch never executed does not reach the next user
        if (bindings != null) {
            bindings.clear();
        }
        if (!stepped) {
            return Sqlite.clearBindings(handle);
        }
        stepped = false;
        return Fused.resetClear(handle);
    }

    /** Unbinds every parameter (NULL); SQLite's side follows at the next flush, after a reset. */
    public void clearBindings() {
        if (bindings != null) {
            bindings.clear();
        }
        clearPending = true;
    }

    // --- binding (1-based indexes, as SQLite and JDBC count)

    /**
     * The parameter values, recorded in Java and bound at the next {@link #flushBindings()}.
     * Writing them is plain Java, so JDBC setters need no lock; the caller checks the index.
     */
    public Bindings parameters() {
        return bindings();
    }

    /** The batch rows of this statement, made at the first addBatch and kept with the statement. */
    public BatchRows batch() {
        if (batch == null) {
            batch = new BatchRows(parameterCount());
        }
        return batch;
    }

    /** Drops the batch rows (keeping their arrays for the next batch). */
    public void clearBatch() {
        if (batch != null) {
            batch.clear();
        }
    }

    /** Hands SQLite the values set since the last flush; call with the lock held, before stepping. */
    public int flushBindings() {
        if (clearPending) {
            clearPending = false;
            Sqlite.clearBindings(handle);
        }
        return bindings == null ? Sqlite.OK : bindings.flush(handle);
    }

    /** Binds one batch row; the recorded values no longer match SQLite's and are re-bound at the next flush. */
    int bindRow(BatchRows rows, int row) {
        clearPending = false; // a row binds every parameter
        if (bindings != null) {
            bindings.markAllDirty();
        }
        return rows.bind(handle, row);
    }

    // --- reading the current row (0-based columns, as SQLite counts)

    public int columnType(int column) {
        return Sqlite.columnType(handle, column);
    }

    public int columnInt(int column) {
        return Sqlite.columnInt(handle, column);
    }

    public long columnLong(int column) {
        return Sqlite.columnLong(handle, column);
    }

    public double columnDouble(int column) {
        return Sqlite.columnDouble(handle, column);
    }

    public String columnText(int column) {
        return Sqlite.columnText(handle, column);
    }

    public byte[] columnBlob(int column) {
        return Sqlite.columnBlob(handle, column);
    }

    public String columnName(int column) {
        return Sqlite.columnName(handle, column);
    }

    public String columnDecltype(int column) {
        return Sqlite.columnDecltype(handle, column);
    }

    public String columnTableName(int column) {
        return Sqlite.columnTableName(handle, column);
    }

    public String columnOriginName(int column) {
        return Sqlite.columnOriginName(handle, column);
    }

    public String columnDatabaseName(int column) {
        return Sqlite.columnDatabaseName(handle, column);
    }

    /** Finalizes now; the handle is gone afterwards. */
    void finalizeNow() {
        if (handle != 0) {
            Sqlite.finalizeStmt(handle);
            handle = 0;
        }
    }
}
