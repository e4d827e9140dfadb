package dev.panlite.ffi;

/**
 * The bookkeeping every upcall (SQL function, aggregate, collation, hook, handler) of one connection
 * goes through. SQLite calls back on the thread that is inside a downcall and holds the
 * connection's lock, so the engine asks {@link #depth()} before freeing anything SQLite may be
 * using at that moment (the connection itself, the running statement).
 *
 * <p>Every upcall target has the same shape, so that no Throwable ever travels back into C (the JVM
 * would stop) and recursion ends in an SQL error instead of a native stack overflow:
 *
 * <pre>{@code
 * int[] depth = null;
 * int saved = callbacks.depth;
 * try {
 *     depth = callbacks.enter();
 *     if (depth == null) { ...report Callbacks.TOO_DEEP...; return; }
 *     ...user code...
 * } catch (Throwable t) {
 *     ...report t, itself inside try/catch(Throwable)...
 * } finally {
 *     if (depth != null) depth[0]--; // plain stores, no call: they cannot fail, even at a stack's edge
 *     callbacks.depth = saved;
 * }
 * }</pre>
 */
public final class Callbacks {
    /**
     * How deeply callbacks may nest on one thread (a function running SQL that calls a function
     * running SQL ...). Each level stacks SQLite's VDBE, the JDBC call and the upcall frames; 16
     * levels stay far inside a default thread stack, and no sensible program nests deeper.
     */
    public static final int MAX_DEPTH = 16;

    static final String TOO_DEEP = "Callbacks nested more than " + MAX_DEPTH
            + " deep (a function or hook running SQL that calls it again?): refused to avoid a native stack overflow";

    private static final ThreadLocal<int[]> THREAD_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    /** Callbacks of this connection now running; only the thread holding the connection's lock changes it. */
    int depth;

    /**
     * Callbacks of this connection ever entered (wrapping), mirrored in native memory for the native
     * helper: a batch of rows stops at a row whose step ran one, so user code runs no earlier than
     * without a batch ({@link Fused#fillRows}).
     */
    int calls;

    private final java.lang.foreign.MemorySegment callsNative;

    Callbacks(java.lang.foreign.MemorySegment callsNative) {
        this.callsNative = callsNative;
    }

    /** How many callbacks of this connection have run so far (wrapping); lock held. */
    public int calls() {
        return calls;
    }

    java.lang.foreign.MemorySegment callsNative() {
        return callsNative;
    }

    /**
     * Of those, change hooks (update, commit, rollback) and progress handlers: SQLite forbids them to
     * use the connection at all (even prepare and step modify it), so the engine refuses every call
     * while one runs.
     */
    int hookDepth;

    /**
     * A callback that has no way to report an error to SQLite (a collation) failed: the statement it
     * ran in fails with this as the cause ({@link #takeFailure}). Lock held.
     */
    private Throwable failure;

    /** Too deep to even build an exception at the stack's edge: one made in advance. */
    static final Throwable TOO_DEEP_FAILURE = new IllegalStateException(TOO_DEEP);

    /** Records a failure for the running statement (the first one wins); a plain store, it cannot fail. */
    void fail(Throwable t) {
        if (failure == null) {
            failure = t;
        }
    }

    /** Whether a callback failed in the running statement and nobody reported it yet. Lock held. */
    public boolean failed() {
        return failure != null;
    }

    /** The failure {@link #fail} recorded, once; null when none. Lock held. */
    public Throwable takeFailure() {
        Throwable t = failure;
        failure = null;
        return t;
    }

    /** True while a change hook of this connection runs (lock held). */
    public boolean inHook() {
        return hookDepth > 0;
    }

    /** True while a restore's progress callback runs (lock held): see {@link #runForbiddingUse}. */
    private boolean restoring;

    /** Whether the hook running now is a restore's progress callback (lock held). */
    public boolean inRestoreProgress() {
        return restoring;
    }

    /**
     * {@link #runInside}, and the connection refuses every call meanwhile, as inside a change hook:
     * for a restore's progress, between steps of a backup whose destination is this connection, which
     * SQLite forbids using until the backup finishes (a read or write there crashed the JVM: the next
     * step wrote into a b-tree whose first page was gone). Lock held.
     */
    public void runForbiddingUse(Runnable body) {
        int savedHooks = hookDepth;
        boolean savedRestoring = restoring;
        hookDepth = savedHooks + 1;
        restoring = true;
        try {
            runInside(body);
        } finally {
            hookDepth = savedHooks;
            restoring = savedRestoring;
        }
    }

    /** How many callbacks of this connection are running (nested) now; call with the connection's lock held. */
    public int depth() {
        return depth;
    }

    /**
     * Runs Java code that SQLite does not call but that runs while a native object of this connection
     * is in mid-use (a backup's progress between steps): counted like a callback, so a close inside it
     * is deferred and what would free that object is refused. Lock held.
     */
    public void runInside(Runnable body) {
        int saved = depth;
        depth++;
        try {
            body.run();
        } finally {
            depth = saved;
        }
    }

    /** Counts a callback in; null (and nothing counted) when this thread's callbacks nest too deep. */
    int[] enter() {
        int[] threadDepth = THREAD_DEPTH.get();
        if (threadDepth[0] >= MAX_DEPTH) {
            return null;
        }
        threadDepth[0]++;
        depth++;
        callsNative.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, ++calls);
        return threadDepth;
    }
}
