package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;

/**
 * Calls that would otherwise cross into native code several times, done in one crossing by the
 * native helper ({@link NativeHelper}) when it is loaded, or as plain downcalls when it is not
 * (another platform, no C compiler at build time, or {@code -Dpanlite.helper=false}). Both paths
 * have the same contract, so callers never know which one ran.
 */
public final class Fused {
    private Fused() {}

    /**
     * True when the native helper is compiled into the bundled engine and reads the database's text
     * encoding itself, per row: the {@code blobs} argument of {@link #fillRows} may then be true always.
     */
    public static boolean readsEncoding() {
        return NativeHelper.ACTIVE && NativeHelper.LINKED;
    }

    /** True when the native helper is loaded and the fused calls take one crossing. */
    public static boolean helperActive() {
        return NativeHelper.ACTIVE;
    }

    /**
     * One line for diagnostics: where the native helper was loaded from, or why it is not used
     * (turned off, no helper for this platform, extraction or load failure).
     */
    public static String helperStatus() {
        return NativeHelper.ACTIVE
                ? "native helper active: " + NativeHelper.path()
                : "native helper not used (" + NativeHelper.reason() + "); fused calls use plain downcalls";
    }

    /** sqlite3_reset then sqlite3_clear_bindings (always); returns reset's code. */
    public static int resetClear(long stmt) {
        if (NativeHelper.ACTIVE) {
            return NativeHelper.resetClear(stmt);
        }
        int rc = Sqlite.reset(stmt);
        Sqlite.clearBindings(stmt);
        return rc;
    }

    /**
     * What {@link #execNoArgs} returns when it stopped before a statement that writes (no SQLite
     * result code is negative).
     */
    public static final int STOPPED_AT_WRITE = -2;

    /** {@link #execNoArgs} flag: stop before a statement that writes, met in auto-commit mode. */
    public static final int STOP_AT_WRITES = 1;

    /** {@link #execNoArgs} flag: stop after one statement that is not a query (one update count per statement). */
    public static final int ONE_STATEMENT = 2;

    /**
     * Runs the statements in {@code sql[offset, offset+length)} one after another until one of them
     * is a query (has result columns). That query is left prepared and stepped once: the return
     * value is that step's code (ROW or DONE), {@code scratch.preparedStmt()} its handle (the
     * caller finalizes it) and {@code scratch.tailOffset()} where the rest of the text starts. When
     * no statement is a query, all run and the result is DONE with {@code preparedStmt() == 0}.
     * On an error the failing statement is finalized, {@code preparedStmt() == 0}, and the error
     * code is returned with SQLite's message readable on {@code db}; {@code tailOffset()} says where
     * the failing statement starts (a retry of SQLITE_BUSY goes on from there): negative when the
     * error came from prepare (grammar, schema, or a lock met loading the schema), and
     * {@link #failedPrepareAt} of it is that start; else the start itself (a step failed).
     *
     * <p>With {@code STOP_AT_WRITES} in {@code flags}, a statement that writes the database (sqlite3_stmt_readonly false,
     * not an EXPLAIN) met in auto-commit mode is not stepped: the result is {@link #STOPPED_AT_WRITE},
     * {@code preparedStmt()} that statement (the caller steps and finalizes it) and {@code tailOffset()}
     * where the text after it starts. The caller queues it for the write gate first.
     *
     * <p>With {@code ONE_STATEMENT} in {@code flags}, a statement that is not a query ends the call
     * once it ran: DONE, {@code preparedStmt() == 0}, {@code tailOffset()} where the next one starts.
     */
    public static int execNoArgs(Scratch scratch, long db, byte[] sql, int offset, int length, int flags) {
        if (NativeHelper.ACTIVE) {
            return NativeHelper.execNoArgs(scratch, db, sql, offset, length, flags);
        }
        boolean stopAtWrites = (flags & STOP_AT_WRITES) != 0;
        int end = offset + length;
        int at = offset;
        while (at < end) {
            int rc = scratch.prepare(db, sql, at, end - at, 0);
            long stmt = scratch.preparedStmt();
            if (rc != Sqlite.OK) {
                scratch.setResult(0, -1 - at); // failed while preparing the statement at `at`
                return rc;
            }
            int tail = scratch.tailOffset();
            if (stmt == 0) { // only whitespace or a comment was left
                at = tail;
                continue;
            }
            if (stopAtWrites && !Sqlite.stmtReadonly(stmt) && !Sqlite.stmtIsexplain(stmt) && Sqlite.getAutocommit(db)) {
                scratch.setResult(stmt, tail);
                return STOPPED_AT_WRITE;
            }
            rc = Sqlite.step(stmt);
            if (Sqlite.columnCount(stmt) > 0 && (rc == Sqlite.ROW || rc == Sqlite.DONE)) {
                scratch.setResult(stmt, tail);
                return rc;
            }
            while (rc == Sqlite.ROW) {
                rc = Sqlite.step(stmt);
            }
            if (rc != Sqlite.DONE) {
                Sqlite.finalizeStmt(stmt); // keeps the step's error readable on db
                scratch.setResult(0, at); // where the failing statement starts
                return rc;
            }
            Sqlite.finalizeStmt(stmt);
            at = tail;
            if ((flags & ONE_STATEMENT) != 0) {
                scratch.setResult(0, at);
                return Sqlite.DONE;
            }
        }
        scratch.setResult(0, end);
        return Sqlite.DONE;
    }

    /** {@link #execNoArgs(Scratch, long, byte[], int, int, int)} running every statement up to the first query. */
    public static int execNoArgs(Scratch scratch, long db, byte[] sql, int offset, int length, boolean stopAtWrites) {
        return execNoArgs(scratch, db, sql, offset, length, stopAtWrites ? STOP_AT_WRITES : 0);
    }

    /** Where the statement whose prepare failed starts, from a negative {@code tailOffset()} of {@link #execNoArgs}. */
    public static int failedPrepareAt(int tailOffset) {
        return -1 - tailOffset;
    }

    /**
     * Reads up to {@code maxRows} rows of {@code stmt} ({@code cols} columns) into {@code buffer}; its
     * layout and the results are those of {@code panlite_fill_rows} in panlite_helper.c. With
     * {@code copyCurrent} the statement is already on a row, copied first without a step. Stops early,
     * on the row just copied, when a callback of the connection ran during the step. Returns ROW (the
     * statement is on a row: the last copied, or with {@link RowBuffer#pending()} one not copied
     * because a value is over {@link RowBuffer#VALUE_LIMIT}, the buffer is full, or it holds a BLOB
     * and {@code blobs} is false), DONE, or the code of the failing step after the
     * {@link RowBuffer#rows()} rows copied. {@code blobs}: the database's text encoding is UTF-8
     * (engine.Conversions#blobsReadAhead; the bundled helper also checks it, per row).
     *
     * <p>A row of more cells than the buffer holds is never copied (pending: read in place). Inside a
     * transaction that may have changed the database ({@code txn_changed} of panlite_helper.c; here
     * SQLite's public answer, a write transaction is open) only one row is read, the one the reader
     * moves to, so no row read ahead can outlive a rollback or a ROLLBACK TO. {@code db} is the
     * statement's connection.
     */
    public static int fillRows(long db, long stmt, int cols, boolean copyCurrent, int maxRows, boolean blobs,
            RowBuffer buffer) {
        if (NativeHelper.ACTIVE) {
            return NativeHelper.fillRows(stmt, cols, copyCurrent, maxRows, RowBuffer.VALUE_LIMIT, blobs, buffer);
        }
        if (maxRows > 1 && transactionChanged(db)) {
            maxRows = 1; // as a fetch size of 1: only the row the reader moves to
        }
        int rows = 0;
        int used = 0;
        int rc = Sqlite.ROW;
        int pending = 0;
        MemorySegment calls = buffer.callbacks;
        while (rows < maxRows) {
            int before = calls.get(JAVA_INT, 0);
            if (copyCurrent) {
                copyCurrent = false;
            } else {
                rc = Sqlite.step(stmt);
                if (rc != Sqlite.ROW) {
                    break;
                }
            }
            int after = copyRow(stmt, cols, rows, blobs, buffer, used);
            if (after < 0) {
                pending = 1;
                break;
            }
            used = after;
            rows++;
            if (calls.get(JAVA_INT, 0) != before) {
                break;
            }
        }
        buffer.out.set(JAVA_INT, 0, rows);
        buffer.out.set(JAVA_INT, 4, used);
        buffer.out.set(JAVA_INT, 8, pending);
        buffer.out.set(JAVA_INT, 12, Sqlite.columnCount(stmt));
        return rc;
    }

    /** txn_changed of panlite_helper.c, through the table: a write transaction is open outside auto-commit. */
    private static boolean transactionChanged(long db) {
        return !Sqlite.getAutocommit(db) && Sqlite.txnState(db) == Sqlite.TXN_WRITE;
    }

    /**
     * copy_row of panlite_helper.c: returns the heap bytes used after the row, or -1 when it does not
     * fit (its cells, or its text and blobs) or holds a BLOB while {@code blobs} is false.
     */
    private static int copyRow(long stmt, int cols, int row, boolean blobs, RowBuffer b, int used) {
        if ((long) (row + 1) * cols > b.cellCapacity()) {
            return -1; // wider than the buffer: read in place
        }
        long at = (long) row * cols;
        for (int c = 0; c < cols; c++) {
            int type = Sqlite.columnType(stmt, c);
            long value = 0;
            switch (type) {
                case Sqlite.INTEGER -> value = Sqlite.columnLong(stmt, c);
                case Sqlite.FLOAT -> value = Double.doubleToRawLongBits(Sqlite.columnDouble(stmt, c));
                case Sqlite.TEXT, Sqlite.BLOB -> {
                    if (type == Sqlite.BLOB && !blobs) {
                        return -1;
                    }
                    MemorySegment p = type == Sqlite.TEXT ? Sqlite.columnTextPointer(stmt, c)
                            : Sqlite.columnBlobPointer(stmt, c);
                    int n = Sqlite.columnBytes(stmt, c);
                    if (n < 0 || n > RowBuffer.VALUE_LIMIT || n > b.heap.byteSize() - used
                            || (p.address() == 0 && n > 0)) {
                        return -1;
                    }
                    if (n > 0) {
                        MemorySegment.copy(p.reinterpret(n), 0, b.heap, used, n);
                    }
                    value = ((long) used << 32) | n;
                    used += n;
                }
                default -> type = Sqlite.NULL;
            }
            b.types.set(JAVA_BYTE, at + c, (byte) type);
            b.cells.setAtIndex(JAVA_LONG, at + c, value);
        }
        return used;
    }

    /**
     * Runs {@code rows} parameter rows of {@code width} values from {@code buffer} (filled with
     * {@link RowBuffer#putRows}) through {@code stmt}: per row bind, step
     * to the end, reset, and record sqlite3_changes64 (when {@code wantChanges}) and the last rowid.
     * Stops at the first row whose bind or step fails and returns its code, with
     * {@link RowBuffer#rows()} the rows completed before it (a failed step is left unreset, so its
     * error stays readable on the connection); DONE when all ran. As {@code panlite_run_batch}: a chunk
     * that does not fit the buffer (rows, values, a text or blob outside the heap) runs nothing from
     * there and returns MISUSE.
     */
    public static int runBatch(long db, long stmt, int width, int rows, boolean wantChanges, RowBuffer buffer) {
        if (NativeHelper.ACTIVE) {
            return NativeHelper.runBatch(stmt, width, rows, wantChanges, buffer);
        }
        if (width < 0 || rows < 0 || rows > buffer.rowCapacity() || (long) rows * width > buffer.cellCapacity()) {
            buffer.out.set(JAVA_INT, 0, 0);
            return Sqlite.MISUSE;
        }
        for (int r = 0; r < rows; r++) {
            long at = (long) r * width;
            for (int i = 0; i < width; i++) {
                byte kind = buffer.types.get(JAVA_BYTE, at + i);
                long v = buffer.cells.getAtIndex(JAVA_LONG, at + i);
                long offset = v >> 32;
                long n = v & 0xffff_ffffL;
                if ((kind == 4 || kind == 5) && (offset < 0 || offset > buffer.heap.byteSize() - n)) {
                    buffer.out.set(JAVA_INT, 0, r);
                    return Sqlite.MISUSE;
                }
                int rc = switch (kind) {
                    case 2 -> Sqlite.bindLong(stmt, i + 1, v);
                    case 3 -> Sqlite.bindDouble(stmt, i + 1, Double.longBitsToDouble(v));
                    case 4 -> Sqlite.bindText(stmt, i + 1, buffer.heap.asSlice(offset), (int) n);
                    case 5 -> Sqlite.bindBlob(stmt, i + 1, buffer.heap.asSlice(offset), (int) n);
                    default -> Sqlite.bindNull(stmt, i + 1);
                };
                if (rc != Sqlite.OK) {
                    buffer.out.set(JAVA_INT, 0, r);
                    return rc;
                }
            }
            int rc = Sqlite.step(stmt);
            while (rc == Sqlite.ROW) {
                rc = Sqlite.step(stmt);
            }
            if (rc != Sqlite.DONE) {
                buffer.out.set(JAVA_INT, 0, r);
                return rc;
            }
            Sqlite.reset(stmt);
            buffer.changes.setAtIndex(JAVA_LONG, r, wantChanges ? Sqlite.changes(db) : 0);
            buffer.rowids.setAtIndex(JAVA_LONG, r, Sqlite.lastInsertRowid(db));
        }
        buffer.out.set(JAVA_INT, 0, rows);
        return Sqlite.DONE;
    }
}
