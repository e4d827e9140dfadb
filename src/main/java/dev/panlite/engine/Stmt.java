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
    private int parameterCount = -1; // asked of SQLite on first use: plain Statement.execute never needs it
    private Bindings bindings; // what is bound now, so a batch can replay it; made at the first bind
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

    public int parameterCount() {
        if (parameterCount < 0) {
            parameterCount = Sqlite.bindParameterCount(handle);
        }
        return parameterCount;
    }

    private Bindings bindings() {
        if (bindings == null) {
            bindings = new Bindings(parameterCount());
        }
        return bindings;
    }

    /** True when the statement makes no direct change to the database file. */
    public boolean readOnly() {
        return Sqlite.stmtReadonly(handle);
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
        if (bindings != null) {
            bindings.clear();
        }
        if (!stepped) {
            return Sqlite.clearBindings(handle);
        }
        stepped = false;
        return Fused.resetClear(handle);
    }

    /** Unbinds every parameter (NULL), leaving execution state alone. */
    public void clearBindings() {
        if (bindings != null) {
            bindings.clear();
        }
        Sqlite.clearBindings(handle);
    }

    // --- binding (1-based indexes, as SQLite and JDBC count); each value is also recorded

    public int bindNull(int index) {
        bindings().setNull(index);
        return Sqlite.bindNull(handle, index);
    }

    public int bindInt(int index, int value) {
        bindings().setLong(index, value);
        return Sqlite.bindInt(handle, index, value);
    }

    public int bindLong(int index, long value) {
        bindings().setLong(index, value);
        return Sqlite.bindLong(handle, index, value);
    }

    public int bindDouble(int index, double value) {
        bindings().setDouble(index, value);
        return Sqlite.bindDouble(handle, index, value);
    }

    public int bindText(int index, byte[] utf8) {
        bindings().setText(index, utf8);
        return Sqlite.bindText(handle, index, utf8, utf8.length);
    }

    public int bindBlob(int index, byte[] bytes) {
        bindings().setBlob(index, bytes);
        return Sqlite.bindBlob(handle, index, bytes, bytes.length);
    }

    /** A copy of what is bound now (for addBatch). */
    public Bindings snapshot() {
        return bindings().copy();
    }

    /** Binds every value of {@code recorded}; returns the first failing code, or OK. */
    public int bindAll(Bindings recorded) {
        return recorded.bindTo(this);
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
