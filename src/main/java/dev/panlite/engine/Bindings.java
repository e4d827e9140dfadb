package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The parameter values of one statement, held in Java and handed to SQLite just before it runs
 * ({@link #flush}). Setting a parameter is then a store into an array, not a native call, and
 * needs no lock; a value set again before the next execution is bound once; a batch row is
 * bound once, not first by the setter and again by the batch. A value that is the caller's array
 * ({@link #setBlob}, {@link #setFloats}) is bound again at every execution, with what it holds then:
 * the caller may have changed it since. Typed arrays: recording an int or
 * a double allocates nothing. The object lives with its {@link Stmt}, so a statement taken from
 * the cache brings its arrays along (docs/experiments/004-deferred-binding.md).
 */
public final class Bindings {
    static final byte UNSET = 0;
    static final byte NULL = 1;
    static final byte LONG = 2;
    static final byte DOUBLE = 3;
    static final byte TEXT = 4;
    static final byte BLOB = 5;
    static final byte FLOATS = 6; // a float32 vector: bound as sqlite-vec's blob straight from the float[] (Vectors)

    final byte[] kinds; // index 1..n as SQLite counts
    final long[] longs;
    final double[] doubles;
    final byte[][] bytes;
    float[][] floats; // the FLOATS values; made at the first one
    private boolean[] callers; // a BLOB that is the caller's array (setBlob, not setOwnedBlob); made at the first one
    private final boolean[] dirty; // SQLite may not have it as it is now: set since the last flush, or the caller's array
    private boolean anyDirty;

    Bindings(int parameterCount) {
        kinds = new byte[parameterCount + 1];
        longs = new long[parameterCount + 1];
        doubles = new double[parameterCount + 1];
        bytes = new byte[parameterCount + 1][];
        dirty = new boolean[parameterCount + 1];
    }

    public void setNull(int i) {
        kinds[i] = NULL;
        bytes[i] = null;
        mark(i);
    }

    public void setLong(int i, long v) {
        kinds[i] = LONG;
        longs[i] = v;
        bytes[i] = null;
        mark(i);
    }

    public void setDouble(int i, double v) {
        kinds[i] = DOUBLE;
        doubles[i] = v;
        bytes[i] = null;
        mark(i);
    }

    /** {@code utf8} must not change afterwards: it is bound later, and may be replayed by a batch. */
    public void setText(int i, byte[] utf8) {
        kinds[i] = TEXT;
        bytes[i] = utf8;
        mark(i);
    }

    /**
     * {@code blob} is the caller's array (setBytes): it is bound at every execution with what it holds
     * then, as the incumbent binds it, and copied when the values become a batch row ({@link BatchRows#add}).
     */
    public void setBlob(int i, byte[] blob) {
        if (callers == null) {
            callers = new boolean[kinds.length];
        }
        kinds[i] = BLOB;
        bytes[i] = blob;
        callers[i] = true;
        mark(i);
    }

    /** {@code blob} is an array no one else holds (read from a stream): bound once, as a number is. */
    public void setOwnedBlob(int i, byte[] blob) {
        if (callers != null) {
            callers[i] = false;
        }
        kinds[i] = BLOB;
        bytes[i] = blob;
        mark(i);
    }

    /**
     * A float32 vector, bound as sqlite-vec's blob (little-endian floats) from the array itself, with
     * what it holds at every execution, as {@link #setBlob}; a batch row copies it. A vector holding
     * NaN is refused where it is bound or copied ({@link Vectors#checkRankable}), so at every execution.
     */
    public void setFloats(int i, float[] vector) {
        if (floats == null) {
            floats = new float[kinds.length][];
        }
        kinds[i] = FLOATS;
        floats[i] = vector;
        bytes[i] = null;
        mark(i);
    }

    private void mark(int i) {
        dirty[i] = true;
        anyDirty = true;
    }

    /** Forgets every value; the caller clears SQLite's side (clear_bindings) too. */
    void clear() {
        if (kinds.length > 1) {
            Arrays.fill(kinds, UNSET);
            Arrays.fill(bytes, null);
            if (floats != null) {
                Arrays.fill(floats, null);
            }
            if (callers != null) {
                Arrays.fill(callers, false);
            }
            Arrays.fill(dirty, false);
        }
        anyDirty = false;
    }

    /** Marks every value as not yet bound, after SQLite's side was overwritten (by a batch). */
    void markAllDirty() {
        Arrays.fill(dirty, true);
        anyDirty = kinds.length > 1;
    }

    /**
     * Binds what changed since the last flush, and the caller's arrays as they are now; returns the
     * first failing code, or OK. Throws for a value Panlite refuses to bind (a float32 vector holding
     * NaN), which stays unbound. With only values set by value and none set again, it does nothing.
     */
    int flush(long handle) throws SQLException {
        if (!anyDirty) {
            return Sqlite.OK;
        }
        anyDirty = false; // before binding: a setter racing the flush (misuse) marks again, and is not lost
        for (int i = 1; i < kinds.length; i++) {
            if (dirty[i]) {
                byte kind = kinds[i];
                float[] vector = null;
                if (kind == FLOATS && floats != null) { // null floats: a state torn by two threads (see bind)
                    vector = floats[i];
                    if (vector != null) {
                        try {
                            Vectors.checkRankable(vector, "Parameter " + i); // as it is now: the caller may have refilled it
                        } catch (SQLException refused) {
                            anyDirty = true; // it stays dirty, unbound
                            throw refused;
                        }
                    }
                }
                // the caller's array stays dirty: it may change before the next execution, which binds it again
                boolean kept = kind == FLOATS || kind == BLOB && callers != null && callers[i];
                dirty[i] = kept;
                int rc = bind(handle, i, kind, longs[i], doubles[i], bytes[i], vector);
                if (rc != Sqlite.OK) {
                    dirty[i] = true; // not bound: try again at the next flush
                    anyDirty = true;
                    return rc;
                }
                if (kept) {
                    anyDirty = true;
                }
            }
        }
        return Sqlite.OK;
    }

    static int bind(long handle, int i, byte kind, long l, double d, byte[] b, float[] f) {
        if ((kind == TEXT || kind == BLOB) && b == null) {
            kind = NULL; // only a statement misused from two threads at once can see this torn state
        }
        return switch (kind) {
            case LONG -> l == (int) l ? Sqlite.bindInt(handle, i, (int) l) : Sqlite.bindLong(handle, i, l);
            case DOUBLE -> Sqlite.bindDouble(handle, i, d);
            case TEXT -> Sqlite.bindText(handle, i, b, b.length);
            case BLOB -> Sqlite.bindBlob(handle, i, b, b.length);
            case FLOATS -> f == null ? Sqlite.bindNull(handle, i) : Sqlite.bindFloats(handle, i, f); // null: torn, as above
            default -> Sqlite.bindNull(handle, i); // NULL, and UNSET after a clear
        };
    }
}
