package dev.panlite.engine;

import java.util.Arrays;

/**
 * The parameter values bound to a statement, recorded beside the native bindings so a batch row
 * can be replayed. Typed arrays: recording an int or a double allocates nothing. It lives with its
 * {@link Stmt}, so a statement taken from the cache brings its arrays along.
 */
public final class Bindings {
    private static final byte UNSET = 0;
    private static final byte NULL = 1;
    private static final byte LONG = 2;
    private static final byte DOUBLE = 3;
    private static final byte TEXT = 4;
    private static final byte BLOB = 5;

    private final byte[] kinds; // index 1..n as SQLite counts
    private final long[] longs;
    private final double[] doubles;
    private final byte[][] bytes;

    Bindings(int parameterCount) {
        kinds = new byte[parameterCount + 1];
        longs = new long[parameterCount + 1];
        doubles = new double[parameterCount + 1];
        bytes = new byte[parameterCount + 1][];
    }

    private Bindings(Bindings from) {
        kinds = from.kinds.clone();
        longs = from.longs.clone();
        doubles = from.doubles.clone();
        bytes = from.bytes.clone(); // the arrays themselves are never changed after binding
    }

    void setNull(int i) {
        kinds[i] = NULL;
        bytes[i] = null;
    }

    void setLong(int i, long v) {
        kinds[i] = LONG;
        longs[i] = v;
        bytes[i] = null;
    }

    void setDouble(int i, double v) {
        kinds[i] = DOUBLE;
        doubles[i] = v;
        bytes[i] = null;
    }

    void setText(int i, byte[] utf8) {
        kinds[i] = TEXT;
        bytes[i] = utf8;
    }

    void setBlob(int i, byte[] blob) {
        kinds[i] = BLOB;
        bytes[i] = blob;
    }

    void clear() {
        if (kinds.length > 1) {
            Arrays.fill(kinds, UNSET);
            Arrays.fill(bytes, null);
        }
    }

    Bindings copy() {
        return new Bindings(this);
    }

    /** True when parameter {@code i} (1-based) has been given a value since the last clear. */
    public boolean isSet(int i) {
        return kinds[i] != UNSET;
    }

    int bindTo(Stmt stmt) {
        for (int i = 1; i < kinds.length; i++) {
            int rc = switch (kinds[i]) {
                case LONG -> stmt.bindLong(i, longs[i]);
                case DOUBLE -> stmt.bindDouble(i, doubles[i]);
                case TEXT -> stmt.bindText(i, bytes[i]);
                case BLOB -> stmt.bindBlob(i, bytes[i]);
                default -> stmt.bindNull(i);
            };
            if (rc != 0) {
                return rc;
            }
        }
        return 0;
    }
}
