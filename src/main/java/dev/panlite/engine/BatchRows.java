package dev.panlite.engine;

import dev.panlite.ffi.RowBuffer;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The rows of a PreparedStatement batch, each a copy of the parameter values at addBatch (blobs
 * included: the caller may refill one buffer for every row), kept
 * column-wise in flat arrays that grow by doubling: adding a row allocates nothing most of the
 * time, unlike an object per row.
 */
public final class BatchRows {
    private final int width; // parameters per row
    private byte[] kinds;
    private long[] longs;
    private double[] doubles;
    private byte[][] bytes;
    private float[][] floats; // float32 vectors (Bindings.FLOATS); made at the first one
    private int size;
    int completed; // rows run by the last Stmt.runBatch
    private byte[] chunkKinds; // a chunk's values staged for RowBuffer.putRows, made at the first chunk
    private long[] chunkCells;
    private byte[] chunkHeap;

    public BatchRows(int parameterCount) {
        this.width = parameterCount;
        int capacity = 16 * Math.max(1, width);
        kinds = new byte[capacity];
        longs = new long[capacity];
        doubles = new double[capacity];
        bytes = new byte[capacity][];
    }

    public int size() {
        return size;
    }

    /** Drops every row, keeping the arrays for the next batch. */
    public void clear() {
        Arrays.fill(bytes, 0, size * width, null); // let the text and blob arrays go
        if (floats != null) {
            Arrays.fill(floats, 0, size * width, null);
        }
        size = 0;
    }

    /**
     * Appends the current values of {@code b} as a row. Throws, adding nothing, for a float32 vector
     * Panlite refuses to bind ({@link Vectors#checkRankable}): the row holds a copy, checked here.
     */
    public void add(Bindings b) throws SQLException {
        float[][] vectors = b.floats;
        if (vectors != null) {
            for (int i = 1; i <= width; i++) {
                if (b.kinds[i] == Bindings.FLOATS && vectors[i] != null) {
                    Vectors.checkRankable(vectors[i], "addBatch: parameter " + i); // what the copy below will hold
                }
            }
        }
        int at = size * width;
        if (at + width > kinds.length) {
            int capacity = Math.max(kinds.length * 2, at + width);
            kinds = Arrays.copyOf(kinds, capacity);
            longs = Arrays.copyOf(longs, capacity);
            doubles = Arrays.copyOf(doubles, capacity);
            bytes = Arrays.copyOf(bytes, capacity);
            if (floats != null) {
                floats = Arrays.copyOf(floats, capacity);
            }
        }
        // element by element: for the few parameters of a row, cheaper than four System.arraycopy calls
        for (int i = 0; i < width; i++) {
            byte kind = b.kinds[i + 1];
            kinds[at + i] = kind;
            longs[at + i] = b.longs[i + 1];
            doubles[at + i] = b.doubles[i + 1];
            byte[] value = b.bytes[i + 1];
            bytes[at + i] = kind == Bindings.BLOB && value != null ? value.clone() : value; // the caller may refill a blob
        }
        if (vectors != null) { // the statement has bound a vector: a row of values without one pays nothing here
            for (int i = 0; i < width; i++) {
                if (b.kinds[i + 1] == Bindings.FLOATS && vectors[i + 1] != null) {
                    if (floats == null) {
                        floats = new float[kinds.length][];
                    }
                    floats[at + i] = vectors[i + 1].clone(); // as a blob: the caller may refill it
                }
            }
        }
        size++;
    }

    /** Parameters per row. */
    public int width() {
        return width;
    }

    /** Rows the last {@link Stmt#runBatch} completed. */
    public int completed() {
        return completed;
    }

    /**
     * Copies rows from {@code from} on into {@code buffer}, as many as fit ({@link RowBuffer#BATCH_ROWS}
     * rows, {@link RowBuffer#CELLS} values, {@link RowBuffer#HEAP_BYTES} of text and blobs); returns how many.
     */
    int put(RowBuffer buffer, int from) {
        int maxRows = Math.min(size - from, Math.min(RowBuffer.BATCH_ROWS, RowBuffer.CELLS / Math.max(1, width)));
        if (chunkKinds == null) { // Java-side staging, copied to native memory in three bulk copies
            chunkKinds = new byte[RowBuffer.CELLS];
            chunkCells = new long[RowBuffer.CELLS];
            chunkHeap = new byte[RowBuffer.HEAP_BYTES];
        }
        byte[] k = chunkKinds;
        long[] v = chunkCells;
        byte[] heap = chunkHeap;
        int heapAt = 0;
        int r = 0;
        rows:
        for (; r < maxRows; r++) {
            int at = (from + r) * width;
            int cell = r * width;
            int rowHeap = heapAt;
            for (int i = 0; i < width; i++) {
                byte kind = kinds[at + i];
                byte[] b = bytes[at + i];
                if ((kind == Bindings.TEXT || kind == Bindings.BLOB) && b != null) {
                    if (b.length > heap.length - heapAt) {
                        heapAt = rowHeap;
                        break rows; // this row does not fit: the chunk ends before it
                    }
                    System.arraycopy(b, 0, heap, heapAt, b.length);
                    k[cell + i] = kind;
                    v[cell + i] = ((long) heapAt << 32) | b.length;
                    heapAt += b.length;
                } else if (kind == Bindings.LONG) {
                    k[cell + i] = kind;
                    v[cell + i] = longs[at + i];
                } else if (kind == Bindings.DOUBLE) {
                    k[cell + i] = kind;
                    v[cell + i] = Double.doubleToRawLongBits(doubles[at + i]);
                } else if (kind == Bindings.FLOATS && floats != null && floats[at + i] != null) {
                    float[] f = floats[at + i]; // sqlite-vec's blob, written straight into the chunk's heap
                    int length = f.length * Float.BYTES;
                    if (length > heap.length - heapAt) {
                        heapAt = rowHeap;
                        break rows; // this row does not fit: the chunk ends before it
                    }
                    Vectors.putLittleEndian(f, heap, heapAt);
                    k[cell + i] = Bindings.BLOB;
                    v[cell + i] = ((long) heapAt << 32) | length;
                    heapAt += length;
                } else {
                    k[cell + i] = Bindings.NULL; // NULL, unset, or a torn text (as Bindings.bind)
                    v[cell + i] = 0;
                }
            }
        }
        buffer.putRows(k, v, r * width, heap, heapAt);
        return r;
    }

    /** Binds every parameter of row {@code row} to {@code stmt}; returns the first failing code, or OK. */
    public int bindRow(Stmt stmt, int row) {
        return stmt.bindRow(this, row);
    }

    int bind(long handle, int row) {
        int at = row * width;
        for (int i = 0; i < width; i++) {
            float[] f = floats == null ? null : floats[at + i];
            int rc = Bindings.bind(handle, i + 1, kinds[at + i], longs[at + i], doubles[at + i], bytes[at + i], f);
            if (rc != 0) {
                return rc;
            }
        }
        return 0;
    }
}
