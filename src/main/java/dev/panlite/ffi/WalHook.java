package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * SQLite's WAL hook (sqlite3_wal_hook) as an FFM upcall: called on the committing thread after
 * each commit to a database in WAL mode, with the number of frames in its WAL. It replaces
 * SQLite's own autocheckpoint (which is itself a WAL hook) so the driver sees every checkpoint it
 * runs: when the {@link Receiver} asks, the hook runs a PASSIVE checkpoint of that database right
 * there, as SQLite's default hook does, and reports the outcome.
 */
public final class WalHook {
    /** What the hook reports; must not throw and must not use the connection (the hook does the checkpoint). */
    public interface Receiver {
        /** A commit left {@code frames} frames in the WAL: true to run a PASSIVE checkpoint now. */
        boolean committed(int frames);

        /** The checkpoint the hook ran for {@code schema}: SQLite's code, frames in the WAL, frames checkpointed. */
        void checkpointed(String schema, int rc, int walFrames, int checkpointedFrames, long nanos);
    }

    private static final MethodHandle HOOK;

    static {
        try {
            HOOK = MethodHandles.lookup().findVirtual(Stub.class, "hook", MethodType.methodType(int.class,
                    MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private WalHook() {}

    /** Installs the hook on {@code db}; its stub and counters live in {@code arena}. False when the library has no WAL hook. */
    static boolean install(Arena arena, Callbacks callbacks, long db, Receiver receiver) {
        Stub stub = new Stub(callbacks, receiver, db, arena.allocate(JAVA_INT, 2));
        MemorySegment upcall = Linker.nativeLinker().upcallStub(HOOK.bindTo(stub),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT), arena);
        return Sqlite.setWalHook(db, upcall);
    }

    /** The upcall target; the one place the hook reaches Java (shape: see Callbacks). Never throws. */
    private record Stub(Callbacks callbacks, Receiver receiver, long db, MemorySegment counts) {
        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        int hook(MemorySegment unused, MemorySegment sqlite, MemorySegment schema, int frames) {
            int[] depth = null;
            int saved = callbacks.depth;
            int savedHooks = callbacks.hookDepth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    return Sqlite.OK; // nested too deep: no checkpoint this time, the next commit asks again
                }
                callbacks.hookDepth = savedHooks + 1; // the receiver must not use the connection
                if (receiver.committed(frames)) {
                    long start = System.nanoTime();
                    int rc = Sqlite.walCheckpoint(db, schema, 0, counts);
                    receiver.checkpointed(Sqlite.cString(schema), rc, counts.getAtIndex(JAVA_INT, 0),
                            counts.getAtIndex(JAVA_INT, 1), System.nanoTime() - start);
                }
            } catch (Throwable t) {
                warn(t);
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
                callbacks.hookDepth = savedHooks;
            }
            return Sqlite.OK; // a checkpoint that failed does not fail the commit (nor does SQLite's own)
        }

        /** Never throws or blocks: logged off SQLite's stack (UpcallWarnings). */
        private static void warn(Throwable t) {
            UpcallWarnings.warn(WalHook.class, "Panlite's WAL hook failed; the commit stands", t);
        }
    }
}
