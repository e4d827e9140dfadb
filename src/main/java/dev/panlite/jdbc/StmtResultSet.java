package dev.panlite.jdbc;

import dev.panlite.engine.Held;
import static dev.panlite.ffi.Sqlite.BLOB;
import static dev.panlite.ffi.Sqlite.FLOAT;
import static dev.panlite.ffi.Sqlite.INTEGER;
import static dev.panlite.ffi.Sqlite.NULL;
import static dev.panlite.ffi.Sqlite.TEXT;

import dev.panlite.engine.Database;
import dev.panlite.engine.ResultCodes;
import dev.panlite.engine.RowBatch;
import dev.panlite.engine.Stmt;
import dev.panlite.ffi.Sqlite;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * A result set reading a live SQLite statement. Rows are read ahead in batches ({@link RowBatch}):
 * one downcall, under the connection lock, steps up to N rows and copies their values into Java
 * arrays, and the getters read those with no lock and no downcall. N is the fetch size when one is
 * set; else the first row is the one execute copied with its step ({@link Stmt#stepCopying}: a point
 * query's whole row in one downcall), and the fills after it take 8, 32, then {@link RowBatch#DEFAULT_ROWS} rows; never
 * more than setMaxRows leaves, nor than the buffer holds. A row with a text or blob over the value limit, a row of
 * more columns than the buffer has cells, and every row when {@code -Dpanlite.rowBatch=false}, is read in place:
 * under the lock, straight from sqlite3_column_*.
 *
 * <p>What reading ahead keeps as it was: an error of the k-th step is thrown by the next() that
 * reaches row k (the fill stops there and keeps it); a statement whose steps run Java callbacks is
 * read one row per next(); a cancel or timeout that comes while rows are held is thrown by the next
 * next(), as the step it would have interrupted would; conversions are SQLite's own. Inside a
 * transaction that has changed the database, each fill reads only the row the reader moves to (as a
 * fetch size of 1): a rollback, ROLLBACK TO or ROLLBACK as SQL then finds no row read ahead from the
 * changes it undoes, and the reader goes on from the restored database as it would in place.
 * Discarding held rows at the rollback instead would skip them: the statement has stepped past them.
 */
final class StmtResultSet extends AbstractResultSet {
    private static final int GROWTH = 4;
    private static final int SECOND_ROWS = 8;

    private final JdbcConnection connection;
    private final Database db;
    private final Stmt stmt;
    private final boolean ownsStmt; // release on close (Statement.execute); else reset for reuse
    private final RowBatch batch; // null: every row is read in place
    private int pendingStep; // the first step, already taken by execute; 0 once consumed
    private String[] labels;
    private int at = -1; // the current row's index in the batch; -1: read in place (the statement is on it)
    private int next; // the batch's next row to hand out
    private byte follow = RowBatch.PENDING; // what comes after the batch's rows (before the first: the first step's row)
    private int nextFill = SECOND_ROWS; // rows of the next fill when no fetch size is set
    private int interruptsSeen; // the connection's interrupt count the rows held are known to be clear of
    private volatile boolean cancelled; // Statement.cancel came while none of its steps ran: the next one is cancelled

    /**
     * {@code firstRowTaken}: the first step was {@link Stmt#stepCopying}, so the batch holds its row
     * (or says it is to be read in place).
     */
    StmtResultSet(JdbcStatement statement, Stmt stmt, int firstStep, boolean firstRowTaken, boolean ownsStmt,
            long maxRows) {
        super(statement, statement.connection.dates(), maxRows);
        this.connection = statement.connection;
        this.db = connection.db;
        this.stmt = stmt;
        this.ownsStmt = ownsStmt;
        this.pendingStep = firstStep;
        this.fetchSize = statement.fetchSize;
        if (JdbcStatement.batching) {
            batch = stmt.rowBatch();
            if (firstRowTaken && firstStep == Sqlite.ROW) {
                follow = batch.end(); // MORE: the row is held; PENDING: it is read in place
                interruptsSeen = batch.interruptsAtFill();
            } else {
                batch.clear();
                follow = firstStep == Sqlite.ROW ? RowBatch.PENDING : RowBatch.DONE;
                interruptsSeen = db.interrupts().count(); // a cancel from now on is one the rows held must answer for
            }
        } else {
            batch = null;
        }
    }

    /**
     * Batched: the checks the lock would have made, without it (nothing native is read): the
     * connection is open, and this thread is not inside a change hook or inside this statement's
     * own step. In place: the connection lock, as before.
     */
    @Override
    void enter() throws SQLException {
        if (batch == null) {
            connection.lockOpen();
            if (stmt.running()) { // a callback inside this statement's own step reads or moves it
                db.unlock();
                throw Errors.runningInCallback();
            }
            return;
        }
        if (connection.isClosed()) {
            throw Errors.connectionClosed();
        }
        if (db.isLockedByMe()) { // only this thread's own callbacks can be running here
            db.checkNotInHook();
            if (stmt.running()) {
                throw Errors.runningInCallback();
            }
        }
    }

    @Override
    boolean running() {
        return stmt.running();
    }

    @Override
    void enterForClose() {
        db.lock();
    }

    @Override
    void exit() {
        if (batch == null) {
            db.unlock();
        }
    }

    @Override
    void exitForClose() {
        db.unlock();
    }

    /** Takes the lock to read the row the statement is on; false when enter() already holds it. */
    private boolean lockInPlace() throws SQLException {
        if (batch == null) {
            return false;
        }
        connection.lockOpen();
        if (closed || stmt.running() || stmt.handle() == 0) {
            db.unlock();
            throw closed || stmt.handle() == 0 ? Errors.closed("result set") : Errors.runningInCallback();
        }
        return true;
    }

    // ------------------------------------------------------------------ moving

    @Override
    boolean advance() throws SQLException {
        if (batch == null) {
            return stepInPlace();
        }
        boolean first = pendingStep != 0;
        pendingStep = 0;
        if (!first && follow != RowBatch.FAILED && (cancelled || db.interrupts().count() != interruptsSeen)) {
            return replayInterrupt(); // the step this next() stands for would have been interrupted
        }
        if (next < batch.rows()) {
            at = next++;
            return true;
        }
        at = -1;
        if (first && follow == RowBatch.PENDING && fetchSize <= 0) {
            // The first row, which execute already stepped to, is read in place: a point query then
            // costs what it did without a batch (a copy of one row costs more than its few getters).
            follow = RowBatch.MORE;
            return true;
        }
        switch (follow) {
            case RowBatch.DONE:
                return false;
            case RowBatch.FAILED:
                return failHere();
            case RowBatch.PENDING:
                return fill(true);
            default:
                return fill(false);
        }
    }

    /** Without a batch: one step, as before. The lock is held (enter). */
    private boolean stepInPlace() throws SQLException {
        int rc = pendingStep;
        if (rc != 0) {
            pendingStep = 0;
        } else if (cancelled) { // Statement.cancel between steps: this step is the one it stops
            cancelled = false;
            rc = Sqlite.INTERRUPT;
        } else {
            int timeout = statement.queryTimeout;
            int execution = db.interrupts().begin(statement, timeout);
            try {
                rc = stmt.step();
            } finally {
                db.interrupts().end(execution);
            }
        }
        if (rc == Sqlite.ROW) {
            return true;
        }
        if (rc == Sqlite.DONE) {
            return false;
        }
        SQLException e = db.error(rc, stmt.sql(), ResultCodes.Phase.EXECUTE);
        stmt.reset();
        throw e;
    }

    /** Rows the next fill may read: the fetch size or the growing default, within setMaxRows and the buffer. */
    private int fillSize() {
        int n = fetchSize > 0 ? fetchSize : nextFill;
        if (fetchSize <= 0) {
            nextFill = Math.min(RowBatch.DEFAULT_ROWS, nextFill * GROWTH);
        }
        n = Math.min(n, RowBatch.capacity(stmt.columnCount()));
        if (maxRows > 0) {
            n = (int) Math.min(n, maxRows - row);
        }
        return Math.max(1, n);
    }

    /** Reads the next rows in one downcall; with {@code copyCurrent} the statement is on the first of them. */
    private boolean fill(boolean copyCurrent) throws SQLException {
        try (var held = connection.lockOpen()) {
            if (closed) {
                throw Errors.closed("result set");
            }
            if (stmt.running()) {
                throw Errors.runningInCallback();
            }
            int limit = fillSize();
            int timeout = statement.queryTimeout;
            int execution = db.interrupts().begin(statement, limit > 1 || !copyCurrent ? timeout : 0); // one row copied: no step to time
            int rc;
            try {
                rc = stmt.fill(copyCurrent, limit);
            } finally {
                db.interrupts().end(execution);
            }
            next = 0;
            follow = batch.end();
            interruptsSeen = batch.interruptsAtFill();
            if (follow == RowBatch.FAILED) {
                SQLException e = db.error(rc, stmt.sql(), ResultCodes.Phase.EXECUTE);
                if (batch.rows() == 0) { // the error is this row's: now, as a step would
                    batch.clear();
                    stmt.reset();
                    follow = RowBatch.MORE; // as before: a next() after an error steps the reset statement again
                    throw e;
                }
                batch.fail(e); // thrown when the reader reaches that row
            }
            if (batch.rows() > 0) {
                at = next++;
                return true;
            }
            if (follow == RowBatch.PENDING) { // a row too large to copy: read in place
                follow = RowBatch.MORE;
                return true;
            }
            return false;
        }
    }

    /** The reader reached the row whose step failed during the fill: its error, then the reset, as a step gives. */
    private boolean failHere() throws SQLException {
        try (var held = connection.lockOpen()) {
            SQLException e = batch.failure();
            if (e == null) {
                // another thread sharing this result set reached that row first, got its error and reset the
                // statement (follow is MORE again): this reader steps on, as a second step would in place
                return fill(false);
            }
            batch.clear();
            follow = RowBatch.MORE;
            stmt.reset();
            throw e;
        }
    }

    /**
     * Statement.cancel while none of this result set's steps runs (any thread): its next step fails
     * as interrupted. Only this result set: sqlite3_interrupt now would stop whatever else runs on
     * the connection (Interrupts).
     */
    void cancelledWhileIdle() {
        cancelled = true;
    }

    /**
     * A cancel (of this statement), or an abort, or an interrupt left in force by an engine that
     * cannot clear it, came while rows were held: the step that would have fetched the next row
     * would have been interrupted, so that is what the reader gets.
     */
    private boolean replayInterrupt() throws SQLException {
        try (var held = connection.lockOpen()) {
            SQLException e = db.error(Sqlite.INTERRUPT, stmt.sql(), ResultCodes.Phase.EXECUTE);
            interruptsSeen = db.interrupts().count();
            cancelled = false;
            batch.clear();
            next = 0;
            at = -1;
            follow = RowBatch.MORE;
            stmt.reset();
            throw e;
        }
    }

    @Override
    void release() {
        if (batch != null) {
            batch.clear();
            at = -1;
            next = 0;
        }
        if (db.isClosed()) {
            return; // the connection finalized everything
        }
        if (ownsStmt) {
            db.release(stmt); // finalized, or cached when Statement.execute ran its text before
        } else if (!statement.closed) {
            stmt.reset(); // ends the read so the statement holds no lock; bindings stay for re-execution
        } // else the closing statement resets and clears the handle in one crossing as it returns it
    }

    @Override
    boolean emptyBeforeFirst() {
        return pendingStep == Sqlite.DONE; // the first step, taken at execution, found no row
    }

    @Override
    int columnCount() {
        return stmt.columnCount();
    }

    @Override
    String columnLabel(int column) throws SQLException {
        String[] l = labels;
        if (l == null) {
            boolean locked = lockInPlace();
            try {
                String[] names = new String[stmt.columnCount()];
                for (int i = 0; i < names.length; i++) {
                    names[i] = stmt.columnName(i);
                }
                labels = l = names;
            } finally {
                if (locked) {
                    db.unlock();
                }
            }
        }
        return l[column];
    }

    // ------------------------------------------------------------------ getters of a held value: the fast path

    // A getter of a value held in the batch, read as its own storage class (or NULL), is answered
    // here with one check of the result set and one of the batch (experiment 052); anything else
    // (a conversion, a row read in place, an error to throw) goes the general way, AbstractResultSet's
    // getter, which gives the same for these values. The checks are enterColumn's: open, on a row,
    // the connection open, not inside a callback of this connection.

    /** {@link #held} of a NULL: the getter answers its NULL value (wasNull set). */
    private static final int HELD_NULL = -2;

    /**
     * Where the current row's value is in the batch, when it is held and of storage class
     * {@code type} (wasNull set false); {@link #HELD_NULL} when it is a held NULL (wasNull set true);
     * -1 for the general path: not held, another class, or a check the general getter must make.
     */
    private int held(int columnIndex, int type) {
        int i = heldIndex(columnIndex);
        if (i < 0) {
            return -1;
        }
        int t = batch.typeAt(i);
        if (t == type) {
            wasNull = false;
            return i;
        }
        if (t == NULL) {
            wasNull = true;
            return HELD_NULL;
        }
        return -1;
    }

    /** Where the current row's value is in the batch when it is held and every check passes; else -1. */
    private int heldIndex(int columnIndex) {
        int r = at;
        return r < 0 || closed || !onRow || connection.isClosed() || db.isLockedByMe() ? -1 : batch.index(r, columnIndex - 1);
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        int i = held(columnIndex, INTEGER);
        return i >= 0 ? (int) batch.cellAt(i) // sqlite3_column_int: the 64-bit value cut to 32 bits
                : i == HELD_NULL ? 0 : super.getInt(columnIndex);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        int i = held(columnIndex, INTEGER);
        return i >= 0 ? batch.cellAt(i) : i == HELD_NULL ? 0 : super.getLong(columnIndex);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        int i = held(columnIndex, FLOAT);
        return i >= 0 ? Double.longBitsToDouble(batch.cellAt(i)) : i == HELD_NULL ? 0 : super.getDouble(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        int i = held(columnIndex, INTEGER);
        return i >= 0 ? batch.cellAt(i) != 0 : i != HELD_NULL && super.getBoolean(columnIndex);
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        int i = held(columnIndex, TEXT);
        return i >= 0 ? batch.textAt(i) : i == HELD_NULL ? null : super.getString(columnIndex);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        int i = held(columnIndex, BLOB);
        return i >= 0 ? batch.bytesAt(i) : i == HELD_NULL ? null : super.getBytes(columnIndex);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        int i = heldIndex(columnIndex);
        if (i < 0) {
            return super.getObject(columnIndex);
        }
        int type = batch.typeAt(i);
        wasNull = type == NULL;
        switch (type) {
            case NULL:
                return null;
            case INTEGER:
                long v = batch.cellAt(i);
                return v == (int) v ? (Object) (int) v : (Object) v;
            case FLOAT:
                return Double.longBitsToDouble(batch.cellAt(i));
            case TEXT:
                return batch.textAt(i);
            default:
                return batch.bytesAt(i);
        }
    }

    // ------------------------------------------------------------------ values: from the batch, or in place

    @Override
    int valueType(int column) throws SQLException {
        int r = at;
        if (r >= 0) {
            return batch.type(r, column);
        }
        boolean locked = lockInPlace();
        try {
            return stmt.columnType(column);
        } finally {
            if (locked) {
                db.unlock();
            }
        }
    }

    @Override
    long longValue(int column) throws SQLException {
        int r = at;
        if (r >= 0) {
            switch (batch.type(r, column)) {
                case INTEGER:
                    return batch.cell(r, column);
                case FLOAT:
                    return (long) Double.longBitsToDouble(batch.cell(r, column)); // saturates as sqlite3RealToI64
                case NULL:
                    return 0;
                default:
                    try (var held = connection.lockOpen()) {
                        return batch.convertLong(db, r, column);
                    }
            }
        }
        boolean locked = lockInPlace();
        try {
            return stmt.columnLong(column);
        } finally {
            if (locked) {
                db.unlock();
            }
        }
    }

    @Override
    int intValue(int column) throws SQLException {
        if (at >= 0) {
            return (int) longValue(column); // sqlite3_column_int is the 64-bit value cut to 32 bits
        }
        boolean locked = lockInPlace();
        try {
            return stmt.columnInt(column);
        } finally {
            if (locked) {
                db.unlock();
            }
        }
    }

    @Override
    double doubleValue(int column) throws SQLException {
        int r = at;
        if (r >= 0) {
            switch (batch.type(r, column)) {
                case FLOAT:
                    return Double.longBitsToDouble(batch.cell(r, column));
                case INTEGER:
                    return (double) batch.cell(r, column);
                case NULL:
                    return 0;
                default:
                    try (var held = connection.lockOpen()) {
                        return batch.convertDouble(db, r, column);
                    }
            }
        }
        boolean locked = lockInPlace();
        try {
            return stmt.columnDouble(column);
        } finally {
            if (locked) {
                db.unlock();
            }
        }
    }

    @Override
    String textValue(int column) throws SQLException {
        int r = at;
        if (r >= 0) {
            switch (batch.type(r, column)) {
                case TEXT:
                    return batch.text(r, column);
                case INTEGER:
                    return Long.toString(batch.cell(r, column)); // SQLite's %lld
                case NULL:
                    return null;
                default: // a REAL's rendering, a blob's bytes as text: SQLite's
                    byte[] utf8;
                    try (var held = connection.lockOpen()) {
                        utf8 = batch.convertText(db, r, column);
                    }
                    return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
            }
        }
        boolean locked = lockInPlace();
        try {
            return stmt.columnTextAsStepped(column);
        } finally {
            if (locked) {
                db.unlock();
            }
        }
    }

    @Override
    byte[] blobValue(int column) throws SQLException {
        int r = at;
        if (r >= 0) {
            switch (batch.type(r, column)) {
                case BLOB:
                    return batch.bytes(r, column);
                case INTEGER:
                    return Long.toString(batch.cell(r, column)).getBytes(StandardCharsets.US_ASCII);
                case TEXT:
                    return batch.bytes(r, column); // its UTF-8, as read in place
                case NULL:
                    return null;
                default: // a REAL's rendering: SQLite's
                    try (var held = connection.lockOpen()) {
                        return batch.convertBlob(db, r, column);
                    }
            }
        }
        boolean locked = lockInPlace();
        try {
            return stmt.columnBytesAsStepped(column);
        } finally {
            if (locked) {
                db.unlock();
            }
        }
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        try (var held = connection.lockOpen()) {
            if (stmt.running()) {
                throw Errors.runningInCallback();
            }
            checkOpen();
            return JdbcResultSetMetaData.of(db, stmt, rowClasses()); // the current values' classes, if on a row
        }
    }
}
