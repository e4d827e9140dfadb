package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native memory where one downcall leaves a batch of rows ({@link Fused#fillRows}) or reads a batch
 * of parameter rows ({@link Fused#runBatch}): per cell a storage class (types) and an 8-byte value
 * (cells: an integer, a double's bits, or {@code offset << 32 | length} of text or blob bytes in the
 * heap, a text's length word marked {@link #ASCII} when it is all ASCII). Fixed sizes, made once per connection and nesting level ({@link Scratch#holdRows}), freed
 * with the connection; used only under the connection's lock, and copied into Java arrays before the
 * lock is released, so nothing outside this package ever reads it.
 *
 * <p>The limits that keep memory bounded: {@value #CELLS} cells (rows times columns) and
 * {@value #HEAP_BYTES} bytes of text and blobs per batch; a text or blob longer than
 * {@value #VALUE_LIMIT} bytes, or a row of more than {@value #CELLS} columns (SQLite allows up to
 * 32,767), is never copied (its row is read in place, as without a batch). Every native call that
 * writes here is handed the sizes ({@link #cellCapacity}, the heap's, {@link #rowCapacity}) and
 * checks them itself, in C: no caller's arithmetic can make it write past the buffer.
 */
public final class RowBuffer {
    /** Rows times columns per batch. */
    public static final int CELLS = 4096;
    /** Bytes of text and blobs per batch. */
    public static final int HEAP_BYTES = 32 * 1024;
    /** A longer text or blob is read in place, never copied into a batch. */
    public static final int VALUE_LIMIT = 8 * 1024;
    /**
     * Set in a TEXT's cell (bit 31 of the length word) when every byte is ASCII, so its String is
     * made without decoding UTF-8 (experiment 051). Only the native helper sets it; without it the
     * bytes are decoded, to the same String.
     */
    public static final long ASCII = 1L << 31;
    /** The length of a text or blob in its cell (the low word without {@link #ASCII}). */
    public static final long LENGTH_MASK = 0x7fff_ffffL;
    /** Rows per chunk of a batch of writes (their counts and rowids). */
    public static final int BATCH_ROWS = 512;

    final MemorySegment types;
    final MemorySegment cells;
    final MemorySegment heap;
    final MemorySegment changes;
    final MemorySegment rowids;
    final MemorySegment out;
    final MemorySegment callbacks; // the connection's count of callbacks run (Callbacks.calls), read by C
    private final int cellCapacity;
    private final int rowCapacity;

    RowBuffer(Arena arena, MemorySegment callbacks) {
        types = unscoped(arena.allocate(CELLS));
        cells = unscoped(arena.allocate(JAVA_LONG, CELLS));
        heap = unscoped(arena.allocate(HEAP_BYTES, 8));
        changes = unscoped(arena.allocate(JAVA_LONG, BATCH_ROWS));
        rowids = unscoped(arena.allocate(JAVA_LONG, BATCH_ROWS));
        out = unscoped(arena.allocate(JAVA_INT, 4));
        this.callbacks = unscoped(callbacks);
        cellCapacity = (int) Math.min(types.byteSize(), cells.byteSize() / JAVA_LONG.byteSize());
        rowCapacity = (int) (Math.min(changes.byteSize(), rowids.byteSize()) / JAVA_LONG.byteSize());
    }

    /** Entries in types and in cells: the most cells (rows times columns) one call may write or read. */
    int cellCapacity() {
        return cellCapacity;
    }

    /** Entries in changes and in rowids: the most rows of one batch of writes. */
    int rowCapacity() {
        return rowCapacity;
    }

    /**
     * The same memory, seen without the connection's (shared) arena as its scope. A downcall or
     * copy given a segment of a shared arena acquires and releases that arena's session around
     * the call, two atomic operations per segment: a fill passes five, and that cost more than the
     * four getters a point query's row copy saves (experiment 051). Safe by the invariant that
     * keeps the buffer alive: it is used only under the connection's lock, and the arena is closed
     * only by the connection's close, which takes that lock (engine package docs).
     */
    private static MemorySegment unscoped(MemorySegment s) {
        return MemorySegment.ofAddress(s.address()).reinterpret(s.byteSize());
    }

    /** After a fill: rows copied. After a batch of writes: rows completed. */
    public int rows() {
        return out.get(JAVA_INT, 0);
    }

    /**
     * After a fill: the statement's column count after its steps (a step that re-prepared the
     * statement after a schema change may have changed it), read in the same downcall.
     */
    public int columnCount() {
        return out.get(JAVA_INT, 12);
    }

    /** After a fill: bytes of the heap used. */
    public int heapUsed() {
        return out.get(JAVA_INT, 4);
    }

    /** After a fill that returned ROW: the statement is on a row that was not copied (too large). */
    public boolean pending() {
        return out.get(JAVA_INT, 8) != 0;
    }

    /** Copies the first {@code count} cells and {@code heapUsed} heap bytes into Java arrays. */
    public void copyOut(byte[] toTypes, long[] toCells, int count, byte[] toHeap, int heapUsed) {
        MemorySegment.copy(types, JAVA_BYTE, 0, toTypes, 0, count);
        MemorySegment.copy(cells, JAVA_LONG, 0, toCells, 0, count);
        MemorySegment.copy(heap, JAVA_BYTE, 0, toHeap, 0, heapUsed);
    }

    // --- a batch of writes: Java fills the parameters, C binds and runs them

    /**
     * The parameters of a chunk of rows, row-major: {@code count} kinds (as the engine's Bindings) and
     * values (an integer, a double's bits, or {@code offset << 32 | length} of text or blob bytes in
     * {@code heap}), and the first {@code heapUsed} bytes of {@code heap}.
     */
    public void putRows(byte[] kinds, long[] values, int count, byte[] fromHeap, int heapUsed) {
        MemorySegment.copy(kinds, 0, types, JAVA_BYTE, 0, count);
        MemorySegment.copy(values, 0, cells, JAVA_LONG, 0, count);
        MemorySegment.copy(fromHeap, 0, heap, JAVA_BYTE, 0, heapUsed);
    }

    /** After a batch of writes: row {@code row}'s sqlite3_changes64 (0 unless asked for). */
    public long changes(int row) {
        return changes.getAtIndex(JAVA_LONG, row);
    }

    /** After a batch of writes: sqlite3_last_insert_rowid after row {@code row}. */
    public long rowid(int row) {
        return rowids.getAtIndex(JAVA_LONG, row);
    }
}
