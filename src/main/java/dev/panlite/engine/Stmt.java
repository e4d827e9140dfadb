package dev.panlite.engine;

import dev.panlite.ffi.Fused;
import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;

/**
 * One {@code sqlite3_stmt*} and what is known about it. Every method must be called with the owning
 * {@link Database}'s lock held (asserted). A statement that came from the cache goes back there
 * when its user is done ({@link Database#release}); any other is finalized.
 *
 * <p>Re-entrancy: step, reset and finalize can run Java callbacks (functions, collations, hooks),
 * and code in a callback holds the same lock. While a downcall on this statement is in progress
 * ({@link #running()}), a second step, reset or bind on it is refused with SQLITE_MISUSE before it
 * reaches SQLite, and a finalize is deferred until the downcall returns: SQLite never sees a
 * statement freed or restarted under its own feet.
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
    private RowBatch rowBatch; // rows read ahead by a result set; kept with the statement like its bindings
    private boolean callsBack; // a step of this statement ran a Java callback: rows are then read one by one
    private int callbackNamesSeen; // how many registered callback names the text was checked against
    private boolean clearPending; // clearParameters ran: SQLite's bindings are cleared at the next flush
    private boolean stepped; // stepped since the last reset: reset has work to do
    private byte writes; // 0 not yet known, 1 yes, -1 no: see writes()
    private byte query; // 0 not yet known, 1 yes, -1 no: see isQuery()
    private byte explains; // 0 not yet known, 1 yes, -1 no: see explains()
    private byte session; // 0 not yet known, 1 yes, -1 no: see mayChangeSession()
    boolean commit; // the transaction statements' COMMIT: SQLITE_BUSY on it may always be retried
    BusyTimeoutPragma busyTimeout; // PRAGMA busy_timeout, answered by the driver (SELECT ?1): Database.busyTimeoutStatement
    boolean writesFile; // its program writes a database file, whatever the file's state (FileWrites): kept once known
    private int running; // downcalls on this statement in progress (a callback inside one may come back here)
    private boolean finalizeWhenIdle; // finalize was asked for while running: done when the downcall returns
    // SQLite's counters of the last execution, read and zeroed where it ended (StatementDiagnostics.ended)
    boolean internal; // BEGIN, COMMIT, ROLLBACK kept by the connection: never scan, never counted
    int fullscanSteps;
    int sorts;
    int autoindexes;
    int vmSteps;
    Stmt prevLive; // the connection's list of every statement it prepared (Database.register)
    Stmt nextLive;

    Stmt(Database db, long handle, String sql, boolean cacheable) {
        assert db.isLockedByMe();
        this.db = db;
        this.handle = handle;
        this.sql = sql;
        this.sqlHash = sql.hashCode();
        this.cacheable = cacheable;
        this.columnCount = Sqlite.columnCount(handle);
        db.register(this);
    }

    /**
     * An EXPLAIN or EXPLAIN QUERY PLAN: stepped only by {@link ExplainRows}, in the lock hold that
     * prepared it, and never cached.
     */
    public boolean explains() {
        if (explains == 0 && handle != 0) { // asked once (a crossing), kept with the cached statement; lock held
            boolean explain = EXPLAIN_KNOWN_BY_SQLITE ? Sqlite.stmtIsexplain(handle)
                    : SqlText.firstKeyword(Sqlite.sql(handle)).equals("EXPLAIN"); // below 3.28: its own text
            explains = (byte) (explain ? 1 : -1);
        }
        return explains > 0;
    }

    private static final boolean EXPLAIN_KNOWN_BY_SQLITE = Sqlite.has("sqlite3_stmt_isexplain");

    /** Whether its text could change a setting, attach a database or make a TEMP object ({@link SqlText#mayChangeSession}); read once. */
    boolean mayChangeSession() {
        if (session == 0) {
            session = (byte) (SqlText.mayChangeSession(sql) ? 1 : -1);
        }
        return session > 0;
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

    /** True while a step, reset or finalize of this statement is in progress on the lock holder's stack. */
    public boolean running() {
        return running > 0;
    }

    /**
     * Reads the column count again: after a schema change (ALTER TABLE, DROP + CREATE) SQLite
     * re-prepares the statement on its next step, and a {@code SELECT *} may have a new shape.
     */
    public void refreshColumnCount() {
        assert db.isLockedByMe();
        columnCount = Sqlite.columnCount(handle);
    }

    /**
     * True for INSERT, UPDATE, DELETE and REPLACE (also behind WITH): the statements whose row count
     * sqlite3_changes reports. Whether it writes is SQLite's answer (sqlite3_stmt_readonly), so a
     * query whose text names {@code updated_at} is no update; the keyword only tells DML from DDL.
     * Decided once and kept with the cached statement. Lock held the first time.
     */
    public boolean changesRows() {
        if (changesRows == 0) {
            changesRows = (byte) (writes() && SqlText.isDml(sql) ? 1 : -1);
        }
        return changesRows > 0;
    }

    /**
     * A query as executeUpdate refuses it (JDBC: it produces a result set): returns rows and, by
     * SQLite's answer, changes nothing. EXPLAIN and PRAGMA, whose rows are reports (and which may
     * write: PRAGMA user_version = 5), are run out instead. Lock held.
     */
    public boolean isQuery() {
        if (query == 0) { // asked once, kept with the cached statement
            query = (byte) (columnCount > 0 && !writes() && !Sqlite.stmtIsexplain(handle)
                    && !SqlText.firstKeyword(sql).equals("PRAGMA") ? 1 : -1);
        }
        return query > 0;
    }

    /** True for INSERT and REPLACE (also behind WITH): the statements that generate keys. Decided once. */
    public boolean insertsRows() {
        if (insertsRows == 0) {
            insertsRows = (byte) (SqlText.isInsert(sql) ? 1 : -1);
        }
        return insertsRows > 0;
    }

    public int parameterCount() {
        if (parameterCount < 0) { // asked once, under the lock (a PreparedStatement asks when it is made)
            assert db.isLockedByMe();
            parameterCount = busyTimeout != null ? 0 : Sqlite.bindParameterCount(handle); // its ?1 is the driver's
        }
        return parameterCount;
    }

    Bindings bindings() {
        if (bindings == null) {
            bindings = new Bindings(parameterCount());
        }
        return bindings;
    }

    /**
     * sqlite3_step: ROW, DONE, or an error code (turned into an exception by the caller with
     * {@link Database#error}); MISUSE when a callback inside this statement's own downcall tries to
     * step it again. The first step of an execution goes through the write path (the write gate,
     * SQLITE_BUSY retried in Java).
     */
    public int step() {
        return step(false);
    }

    /**
     * {@link #step()} that also copies the row it lands on into {@link #rowBatch()}, in the same
     * downcall: a query's first step, whose reader then makes no downcall for that row's values
     * (experiment 051). {@link RowBatch#rows()} is 1 when the row was copied; 0 with
     * {@link RowBatch#PENDING} when it was not (a value over the limit, a schema change that reshaped
     * the result, or SQLITE_BUSY waited out by plain steps): the reader then reads it in place.
     */
    public int stepCopying() {
        return step(true);
    }

    private int step(boolean copy) {
        assert db.isLockedByMe();
        if (running > 0 || handle == 0) {
            return Sqlite.MISUSE;
        }
        boolean first = !stepped;
        if (first) {
            db.session().executing(this);
        }
        stepped = true;
        int calls = db.scratch().callbacks().calls();
        running++;
        try {
            int rc = first ? db.writeAccess().firstStep(this, copy) : copy ? stepAndCopy() : Sqlite.step(handle);
            return db.callbackFailed() ? Sqlite.ERROR : rc; // a collation threw: Database.error reports it
        } finally {
            if (db.scratch().callbacks().calls() != calls) {
                callsBack = true;
            }
            idle();
        }
    }

    /**
     * True when the program of this statement (EXPLAIN) names a function or collation registered with
     * Java code: a view or a column's declared collation can bring one in that the text does not name.
     * Asked once per statement while such names exist; true also when EXPLAIN cannot say.
     */
    private boolean programCallsBack() {
        byte[] text = ("EXPLAIN " + sql).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        dev.panlite.ffi.Scratch scratch = db.scratch();
        int rc = scratch.prepare(db.handle(), text, 0, text.length, 0);
        long explain = scratch.preparedStmt();
        if (explain == 0) {
            return true;
        }
        try {
            if (rc != Sqlite.OK) {
                return true;
            }
            while ((rc = Sqlite.step(explain)) == Sqlite.ROW) {
                String p4 = Sqlite.columnText(explain, 5); // addr, opcode, p1, p2, p3, p4: e.g. "counted(1)", or a collation's name
                if (p4 != null && scratch.mentionsCallback(p4)) {
                    return true;
                }
            }
            return rc != Sqlite.DONE;
        } finally {
            Sqlite.finalizeStmt(explain);
        }
    }

    /** The rows this statement's result set reads ahead into, made on first use and kept with the statement. */
    public RowBatch rowBatch() {
        if (rowBatch == null) {
            rowBatch = new RowBatch();
        }
        return rowBatch;
    }

    /**
     * Reads up to {@code maxRows} rows into {@link #rowBatch()} in one downcall (with
     * {@code copyCurrent}, the row the statement is on first, without a step). A statement whose
     * text or program (EXPLAIN) names a function or collation registered with Java code, or whose steps ran a Java
     * callback (a user function, a progress handler), is read one row per call from then on, so
     * callbacks run when the reader moves, as without a batch; a fill that meets one anyway (a
     * progress handler) stops at that row. Returns ROW, DONE or the error code, as {@link Fused#fillRows}; MISUSE
     * when a callback inside this statement's own downcall tries it.
     */
    public int fill(boolean copyCurrent, int maxRows) {
        assert db.isLockedByMe();
        if (running > 0 || handle == 0) {
            rowBatch().refuse();
            return Sqlite.MISUSE;
        }
        dev.panlite.ffi.Callbacks callbacks = db.scratch().callbacks();
        int names = db.scratch().callbackNameCount();
        if (!callsBack && names != callbackNamesSeen) { // a function or collation registered since: does the text name one?
            callbackNamesSeen = names;
            callsBack = db.scratch().mentionsCallback(sql) || programCallsBack();
        }
        boolean blobs = db.conversions().blobsReadAhead();
        int calls = callbacks.calls();
        int interrupts = db.interrupts().count();
        stepped = true;
        running++;
        dev.panlite.ffi.RowBuffer buffer = db.scratch().holdRows();
        try {
            int rc = Fused.fillRows(db.handle(), handle, columnCount, copyCurrent, callsBack ? 1 : maxRows, blobs, buffer);
            rowBatch().take(buffer, columnCount, rc, interrupts);
            return rc;
        } finally {
            db.scratch().releaseRows();
            if (callbacks.calls() != calls) {
                callsBack = true;
            }
            idle();
        }
    }

    /**
     * One step and a copy of the row it lands on, in one downcall (lock held, running); the column
     * count is read again, as after any first step. A step that re-prepared the statement with
     * another number of columns (a schema change under SELECT *) leaves its row in place.
     */
    int stepAndCopy() {
        int interrupts = db.interrupts().count();
        dev.panlite.ffi.RowBuffer buffer = db.scratch().holdRows();
        try {
            int copied = columnCount;
            int rc = Fused.fillRows(db.handle(), handle, copied, false, 1, db.conversions().blobsReadAhead(), buffer);
            columnCount = buffer.columnCount(); // as after any first step (refreshColumnCount), read by the same downcall
            if (columnCount != copied) {
                rowBatch().inPlace();
            } else {
                rowBatch().take(buffer, copied, rc, interrupts);
            }
            return rc;
        } finally {
            db.scratch().releaseRows();
        }
    }

    /** A statement the fused exec already stepped once: its next step is not a first one. */
    void markStepped() {
        stepped = true;
    }

    /**
     * Whether the statement may write the database file, as SQLite says: sqlite3_stmt_readonly false,
     * and not an EXPLAIN (which reports on a write without making it). Asked once. Lock held the first time.
     */
    public boolean writes() {
        if (writes == 0) {
            writes = (byte) (Sqlite.stmtReadonly(handle) || Sqlite.stmtIsexplain(handle) ? -1 : 1);
        }
        return writes > 0;
    }

    boolean isCommit() {
        return commit;
    }

    /** Ends the current execution (bindings stay, for re-execution). Returns reset's code. */
    public int reset() {
        assert db.isLockedByMe();
        if (!stepped) {
            return Sqlite.OK;
        }
        if (running > 0 || handle == 0) {
            return Sqlite.MISUSE;
        }
        StatementDiagnostics.Report report = db.diagnostics().ended(this);
        stepped = false;
        running++;
        int rc;
        try {
            rc = Sqlite.reset(handle);
        } finally {
            idle();
            db.writeAccess().afterReset(this); // an auto-commit write is over: the gate goes
        }
        if (report != null) {
            db.diagnostics().report(report, rc);
        }
        return rc;
    }

    /** A downcall on this statement returned: a finalize asked for meanwhile happens now. */
    private void idle() {
        if (--running == 0 && finalizeWhenIdle) {
            finalizeNow();
        }
    }

    /**
     * Returns the statement to its initial state with no parameters bound: one crossing with the
     * native helper, and only clear_bindings when it was not stepped since the last reset.
     */
    public int resetAndClear() {
        assert db.isLockedByMe();
        if (running > 0 || handle == 0) {
            return Sqlite.MISUSE;
        }
        clearPending = false;
        clearBatch(); // a batch never executed does not reach the next user
        if (bindings != null) {
            bindings.clear();
        }
        // batch rows run in C (runBatch) leave their counts for here
        StatementDiagnostics.Report report = stepped || batch != null ? db.diagnostics().ended(this) : null;
        int rc;
        if (!stepped) {
            rc = Sqlite.clearBindings(handle);
        } else {
            stepped = false;
            running++;
            try {
                rc = Fused.resetClear(handle);
            } finally {
                idle();
                db.writeAccess().afterReset(this);
            }
        }
        if (report != null) {
            db.diagnostics().report(report, rc);
        }
        return rc;
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

    /**
     * Hands SQLite the values set since the last flush; call with the lock held, before stepping.
     * Throws for a value Panlite refuses to bind ({@link Bindings#flush}).
     */
    public int flushBindings() throws SQLException {
        assert db.isLockedByMe();
        if (running > 0 || handle == 0) {
            return Sqlite.MISUSE; // SQLite refuses binding a running statement too; never reach it
        }
        if (clearPending) {
            clearPending = false;
            Sqlite.clearBindings(handle);
        }
        return bindings == null ? Sqlite.OK : bindings.flush(handle);
    }

    /** Binds one batch row; the recorded values no longer match SQLite's and are re-bound at the next flush. */
    int bindRow(BatchRows rows, int row) {
        assert db.isLockedByMe();
        if (running > 0 || handle == 0) {
            return Sqlite.MISUSE;
        }
        clearPending = false; // a row binds every parameter
        if (bindings != null) {
            bindings.markAllDirty();
        }
        return rows.bind(handle, row);
    }

    /**
     * Runs batch rows from {@code from} on in one downcall ({@link Fused#runBatch}): as many as fit in
     * the row buffer, each bound, stepped to the end and reset; their update counts and last
     * rowids go to {@code counts} and (when not null) {@code rowids} at their index.
     * Only inside a transaction with no event recording ({@link WriteAccess#plainFirstSteps}), for
     * INSERT, UPDATE, DELETE and REPLACE; otherwise, or when row {@code from} alone does not fit,
     * returns -1 and runs nothing (the caller runs the row the plain way). Else returns DONE with
     * {@link BatchRows#completed()} rows run, or the code of the row after those, which is left
     * stepped (reset() then ends it) or, for a failed bind, unstepped.
     */
    public int runBatch(BatchRows rows, int from, long[] counts, long[] rowids) {
        assert db.isLockedByMe();
        if (running > 0 || handle == 0) {
            return Sqlite.MISUSE;
        }
        if (!RowBatch.ENABLED || stepped || !changesRows() || !db.writeAccess().plainFirstSteps()) {
            return -1;
        }
        dev.panlite.ffi.RowBuffer buffer = db.scratch().holdRows();
        running++;
        try {
            int n = rows.put(buffer, from);
            if (n == 0) {
                return -1;
            }
            clearPending = false; // every parameter of a row is bound
            if (bindings != null) {
                bindings.markAllDirty();
            }
            int rc = Fused.runBatch(db.handle(), handle, rows.width(), n, changesRows(), buffer);
            int done = rc == Sqlite.DONE ? n : buffer.rows();
            for (int i = 0; i < done; i++) {
                counts[from + i] = buffer.changes(i);
                if (rowids != null) {
                    rowids[from + i] = buffer.rowid(i);
                }
            }
            rows.completed = done;
            stepped = rc != Sqlite.DONE; // a failing row is reset by the caller's error path
            return rc;
        } finally {
            db.scratch().releaseRows();
            idle();
        }
    }

    // --- reading the current row (0-based columns, as SQLite counts)

    public int columnType(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnType(handle, column);
    }

    public int columnInt(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnInt(handle, column);
    }

    public long columnLong(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnLong(handle, column);
    }

    public double columnDouble(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnDouble(handle, column);
    }

    public String columnText(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnText(handle, column);
    }

    public byte[] columnBlob(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnBlob(handle, column);
    }

    // A getter of a row read in place must leave the value as it was stepped: SQLite converts the
    // value it holds, so sqlite3_column_text of a BLOB would make it read as TEXT from then on (and,
    // in a UTF-16 database, hold other bytes), and a later getter of the row would see that (D1 in
    // docs/fuzz-findings-2026-11-27.md). These two read every storage class as a row read ahead does.

    /**
     * The value as text, as sqlite3_column_text gives it, without converting a BLOB in place: a copy
     * of it is converted ({@link Sqlite#columnTextOfCopy}), which runs no SQL and no callback. Null
     * for NULL.
     */
    public String columnTextAsStepped(int column) {
        assert db.isLockedByMe();
        if (Sqlite.columnType(handle, column) == Sqlite.BLOB) {
            byte[] utf8 = Sqlite.columnTextOfCopy(handle, column);
            return utf8 == null ? null : new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
        }
        return Sqlite.columnText(handle, column); // TEXT, a number or NULL: still read as what it was
    }

    /**
     * The value as bytes: a BLOB's own, a TEXT's UTF-8 (whatever the database's encoding, as for a
     * row read ahead), a number's text. Null for NULL.
     */
    public byte[] columnBytesAsStepped(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnType(handle, column) == Sqlite.TEXT
                ? Sqlite.columnTextBytes(handle, column)
                : Sqlite.columnBlob(handle, column);
    }

    public String columnName(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnName(handle, column);
    }

    public String columnDecltype(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnDecltype(handle, column);
    }

    public String columnTableName(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnTableName(handle, column);
    }

    public String columnOriginName(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnOriginName(handle, column);
    }

    public String columnDatabaseName(int column) {
        assert db.isLockedByMe();
        return Sqlite.columnDatabaseName(handle, column);
    }

    /**
     * Finalizes now, or when the downcall in progress on this statement returns; the handle is
     * zeroed under the lock, so every later call on this object is refused instead of reaching
     * freed memory.
     */
    void finalizeNow() {
        assert db.isLockedByMe();
        if (handle == 0) {
            return;
        }
        if (running > 0) {
            finalizeWhenIdle = true;
            return;
        }
        StatementDiagnostics.Report report = (stepped || batch != null) && !db.isClosed() ? db.diagnostics().ended(this) : null;
        long h = handle;
        handle = 0;
        db.unregister(this);
        running++; // finalize can run callbacks (an aggregate's xFinal): they must not come back here
        int rc;
        try {
            rc = Sqlite.finalizeStmt(h);
        } finally {
            running--;
            db.writeAccess().afterReset(this);
        }
        if (report != null) {
            db.diagnostics().report(report, rc);
        }
    }

    /**
     * SQLite's counters of this statement: full-scan steps, sorts, automatic indexes and VM steps of
     * the execution in progress (so far), else of the last one (since it was prepared, with
     * statement_diagnostics=false, which never zeroes them); then reprepares and runs since it was
     * prepared, and the bytes it holds now (those three 0 once it is finalized). Lock held.
     */
    public long[] counters() {
        assert db.isLockedByMe();
        if (handle == 0) {
            return new long[] {fullscanSteps, sorts, autoindexes, vmSteps, 0, 0, 0};
        }
        boolean live = stepped || !db.diagnostics().enabled() || internal;
        return new long[] {
                live ? Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_FULLSCAN_STEP, false) : fullscanSteps,
                live ? Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_SORT, false) : sorts,
                live ? Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_AUTOINDEX, false) : autoindexes,
                live ? Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_VM_STEP, false) : vmSteps,
                Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_REPREPARE, false),
                Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_RUN, false),
                Sqlite.stmtStatus(handle, Sqlite.STMTSTATUS_MEMUSED, false)};
    }
}
