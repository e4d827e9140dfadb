package dev.panlite.engine;

import dev.panlite.ffi.RowBuffer;
import dev.panlite.ffi.Sqlite;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * Rows of a query read ahead in one downcall ({@link Stmt#fill}), held in Java arrays so that the
 * getters read them with no lock and no downcall. Each value is kept in its storage class, as
 * sqlite3_column_type gave it: an integer, a double (its bits), UTF-8 text or blob bytes, or NULL.
 * Reading a value as its own class, or an integer or NULL as anything, is exact in Java; any other
 * conversion (getInt on text, getString on a REAL, anything of a blob) is SQLite's own, computed by
 * {@link Conversions} so that it gives what sqlite3_column_* gave on the row.
 *
 * <p>Owned by its {@link Stmt} (kept with a cached statement, like its bindings, so a repeated query
 * allocates no new arrays) and filled only under the connection's lock by the one result set reading
 * that statement. Rows are held beyond the one the reader is on only while no transaction of the
 * connection has changed the database (the fill checks it, {@code Fused.fillRows}): rows read
 * ahead are then the database as a rollback or a ROLLBACK TO restores it, and never outlive them. Another thread reading while it is refilled (a misuse) may see a value of another
 * row, never freed memory: every read checks its bounds and throws SQLException when they do not hold.
 *
 * <p>What follows the rows held ({@link #end()}): {@link #MORE} (the statement is on the last row
 * copied; the next fill steps), {@link #PENDING} (the statement is on a row not copied, because a
 * text or blob is over {@link RowBuffer#VALUE_LIMIT}, the row has more columns than the buffer has
 * cells, or the batch was full: it is read in place),
 * {@link #DONE}, or {@link #FAILED} (the step after the rows held failed: {@link #failure()} is the
 * error, thrown when the reader reaches that row).
 */
public final class RowBatch {
    /**
     * {@code -Dpanlite.rowBatch=false} reads every row in place (one lock and downcall per getter),
     * as before batching; for benchmarks and tests that compare both paths.
     */
    public static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty("panlite.rowBatch", "").strip());

    /** Rows per fill once a result has grown, when setFetchSize gave none (docs/experiments/050). */
    public static final int DEFAULT_ROWS = 64;

    public static final byte MORE = 0;
    public static final byte PENDING = 1;
    public static final byte DONE = 2;
    public static final byte FAILED = 3;

    private byte[] types = new byte[0];
    private long[] cells = new long[0];
    private byte[] heap = new byte[0];
    private int cols;
    private int rows;
    private byte end;
    private SQLException failure;
    private int interrupts;

    /**
     * The most rows one fill may read with {@code cols} columns: at least 1, for a row wider than the
     * buffer too (the fill then leaves it in place, bounded in C by the buffer's own size).
     */
    public static int capacity(int cols) {
        return Math.max(1, RowBuffer.CELLS / Math.max(1, cols));
    }

    /** Rows held by the last fill. */
    public int rows() {
        return rows;
    }

    /** What follows the rows held: MORE, PENDING, DONE or FAILED. */
    public byte end() {
        return end;
    }

    /** The error of the step after the rows held (FAILED), made when it happened; null otherwise. */
    public SQLException failure() {
        return failure;
    }

    /** The connection's interrupt count when the last fill began ({@link Interrupts#count()}). */
    public int interruptsAtFill() {
        return interrupts;
    }

    /** Forgets the rows (the result set moved past them or closed). */
    public void clear() {
        rows = 0;
        end = DONE;
        failure = null;
    }

    /** No row held, and the statement is on a row to read in place (a first step whose row was not copied). */
    void inPlace() {
        rows = 0;
        end = PENDING;
        failure = null;
    }

    /** A fill that could not run: no rows, and the error follows at once. */
    void refuse() {
        rows = 0;
        end = FAILED;
        failure = null;
    }

    /** Takes what a fill left in {@code buffer}; lock held. */
    void take(RowBuffer buffer, int columns, int rc, int interruptsBefore) {
        int n = buffer.rows();
        int count = n * columns;
        int used = buffer.heapUsed();
        if (types.length < count) {
            int capacity = Math.max(count, Math.min(RowBuffer.CELLS, types.length * 2));
            types = new byte[capacity];
            cells = new long[capacity];
        }
        if (heap.length < used) {
            heap = new byte[Math.max(used, Math.min(RowBuffer.HEAP_BYTES, heap.length * 2))];
        }
        buffer.copyOut(types, cells, count, heap, used);
        cols = columns;
        rows = n;
        interrupts = interruptsBefore;
        failure = null;
        end = rc == Sqlite.ROW ? (buffer.pending() ? PENDING : MORE) : rc == Sqlite.DONE ? DONE : FAILED;
    }

    /** Records the error of the step that ended the fill; lock held. */
    public void fail(SQLException e) {
        failure = e;
    }

    // ------------------------------------------------------------------ reads: no lock

    private int at(int row, int column) throws SQLException {
        int i = index(row, column);
        if (i < 0) {
            throw movedMeanwhile();
        }
        return i;
    }

    /**
     * Where the value at (row, column) is held, for {@link #typeAt} and {@link #cellAt}: checked once
     * for both. -1 when there is no such value (a column out of range, or the rows moved meanwhile).
     */
    public int index(int row, int column) {
        int i = row * cols + column;
        return row >= 0 && row < rows && column >= 0 && column < cols && i < types.length && i < cells.length ? i : -1;
    }

    /** The storage class of the value at an {@link #index}. */
    public int typeAt(int index) {
        return types[index];
    }

    /** An INTEGER's value, or a FLOAT's bits, at an {@link #index}. */
    public long cellAt(int index) {
        return cells[index];
    }

    private static SQLException movedMeanwhile() {
        return new SQLException("The result set moved while this value was read (used from two threads at once?)",
                SqlState.INVALID_CURSOR_STATE);
    }

    /** The storage class (Sqlite.INTEGER ... Sqlite.NULL) of a value. */
    public int type(int row, int column) throws SQLException {
        return types[at(row, column)];
    }

    /** An INTEGER's value, or a FLOAT's bits. */
    public long cell(int row, int column) throws SQLException {
        return cells[at(row, column)];
    }

    /** The UTF-8 or blob bytes of a TEXT or BLOB value (a copy). */
    public byte[] bytes(int row, int column) throws SQLException {
        return bytesAt(at(row, column));
    }

    /** {@link #bytes} of the TEXT or BLOB at an {@link #index}. */
    public byte[] bytesAt(int index) throws SQLException {
        long v = slice(index);
        int offset = (int) (v >>> 32);
        return Arrays.copyOfRange(heap, offset, offset + (int) (v & RowBuffer.LENGTH_MASK));
    }

    /**
     * A TEXT value as a String, decoded as sqlite3_column_text's bytes are. Text the fill found to be
     * all ASCII is taken byte for byte (each byte is its char), which is what decoding it as UTF-8
     * gives, for a fraction of the cost.
     */
    public String text(int row, int column) throws SQLException {
        return textAt(at(row, column));
    }

    /** {@link #text} of the TEXT at an {@link #index}. */
    @SuppressWarnings("deprecation") // String(byte[], int hibyte, int, int): the one copy without a decoder
    public String textAt(int index) throws SQLException {
        long v = slice(index);
        int offset = (int) (v >>> 32);
        int length = (int) (v & RowBuffer.LENGTH_MASK);
        return (v & RowBuffer.ASCII) != 0 ? new String(heap, 0, offset, length)
                : new String(heap, offset, length, StandardCharsets.UTF_8);
    }

    /** The heap offset and length of a text or blob, checked against the heap it will be read from. */
    private long slice(int index) throws SQLException {
        long v = cells[index];
        int offset = (int) (v >>> 32);
        int length = (int) (v & RowBuffer.LENGTH_MASK);
        if (length < 0 || offset < 0 || offset > heap.length - length) {
            throw movedMeanwhile();
        }
        return v;
    }

    // ------------------------------------------------------------------ SQLite's conversions: lock held

    /** sqlite3_column_int64 of the value, by SQLite's rules; lock held. */
    public long convertLong(Database db, int row, int column) throws SQLException {
        return db.conversions().toLong(type(row, column), cell(row, column), bytesOrNull(row, column));
    }

    /** sqlite3_column_double of the value, by SQLite's rules; lock held. */
    public double convertDouble(Database db, int row, int column) throws SQLException {
        return db.conversions().toDouble(type(row, column), cell(row, column), bytesOrNull(row, column));
    }

    /** sqlite3_column_text's bytes of the value (null for NULL), by SQLite's rules; lock held. */
    public byte[] convertText(Database db, int row, int column) throws SQLException {
        return db.conversions().toText(type(row, column), cell(row, column), bytesOrNull(row, column));
    }

    /** sqlite3_column_blob's bytes of the value (null for NULL), by SQLite's rules; lock held. */
    public byte[] convertBlob(Database db, int row, int column) throws SQLException {
        return db.conversions().toBlob(type(row, column), cell(row, column), bytesOrNull(row, column));
    }

    private byte[] bytesOrNull(int row, int column) throws SQLException {
        int type = type(row, column);
        return type == Sqlite.TEXT || type == Sqlite.BLOB ? bytes(row, column) : null;
    }
}
