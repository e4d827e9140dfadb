package dev.panlite.engine;

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
    private int size;

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
        size = 0;
    }

    /** Appends the current values of {@code b} as a row. */
    public void add(Bindings b) {
        int at = size * width;
        if (at + width > kinds.length) {
            int capacity = Math.max(kinds.length * 2, at + width);
            kinds = Arrays.copyOf(kinds, capacity);
            longs = Arrays.copyOf(longs, capacity);
            doubles = Arrays.copyOf(doubles, capacity);
            bytes = Arrays.copyOf(bytes, capacity);
        }
        System.arraycopy(b.kinds, 1, kinds, at, width);
        System.arraycopy(b.longs, 1, longs, at, width);
        System.arraycopy(b.doubles, 1, doubles, at, width);
        System.arraycopy(b.bytes, 1, bytes, at, width);
        for (int i = at; i < at + width; i++) {
            if (kinds[i] == Bindings.BLOB) {
                bytes[i] = bytes[i].clone(); // may be the caller's buffer, refilled for the next row
            }
        }
        size++;
    }

    /** Binds every parameter of row {@code row} to {@code stmt}; returns the first failing code, or OK. */
    public int bindRow(Stmt stmt, int row) {
        return stmt.bindRow(this, row);
    }

    int bind(long handle, int row) {
        int at = row * width;
        for (int i = 0; i < width; i++) {
            int rc = Bindings.bind(handle, i + 1, kinds[at + i], longs[at + i], doubles[at + i], bytes[at + i]);
            if (rc != 0) {
                return rc;
            }
        }
        return 0;
    }
}
