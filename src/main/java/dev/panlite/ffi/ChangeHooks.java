package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * SQLite's update, commit and rollback hooks as FFM upcalls into one {@link Receiver}, installed on
 * a connection only while something listens. SQLite calls them on the thread that is stepping.
 */
public final class ChangeHooks {
    /** What the hooks report. Must not throw (see {@link ChangeHooks}) and must not use the connection. */
    public interface Receiver {
        /** A row changed: {@code op} is SQLITE_INSERT (18), SQLITE_UPDATE (23) or SQLITE_DELETE (9). */
        void rowChanged(int op, String schema, String table, long rowid);

        void committed();

        void rolledBack();
    }

    private static final MethodHandle UPDATE;
    private static final MethodHandle COMMIT;
    private static final MethodHandle ROLLBACK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            UPDATE = lookup.findVirtual(Stubs.class, "update", MethodType.methodType(void.class, MemorySegment.class,
                    int.class, MemorySegment.class, MemorySegment.class, long.class));
            COMMIT = lookup.findVirtual(Stubs.class, "commit", MethodType.methodType(int.class, MemorySegment.class));
            ROLLBACK = lookup.findVirtual(Stubs.class, "rollback", MethodType.methodType(void.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ChangeHooks() {}

    /** Installs the hooks on {@code db}, reporting to {@code receiver}; the stubs live in {@code arena}. */
    static void install(Arena arena, Callbacks callbacks, long db, Receiver receiver) {
        Stubs stubs = new Stubs(callbacks, receiver);
        Linker linker = Linker.nativeLinker();
        Sqlite.setHooks(db,
                linker.upcallStub(UPDATE.bindTo(stubs),
                        FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG), arena),
                linker.upcallStub(COMMIT.bindTo(stubs), FunctionDescriptor.of(JAVA_INT, ADDRESS), arena),
                linker.upcallStub(ROLLBACK.bindTo(stubs), FunctionDescriptor.ofVoid(ADDRESS), arena));
    }

    /** Removes the hooks from {@code db}. */
    static void remove(long db) {
        Sqlite.setHooks(db, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
    }

    /**
     * The upcall targets. An exception must not travel back into C (the JVM would stop), and the
     * hooks have no way to fail a statement: a receiver's exception is logged as a warning, by
     * another thread (UpcallWarnings).
     */
    private record Stubs(Callbacks callbacks, Receiver receiver) {
        private static final int UPDATE_HOOK = 0;
        private static final int COMMIT_HOOK = 1;
        private static final int ROLLBACK_HOOK = 2;

        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        void update(MemorySegment unused, int op, MemorySegment schema, MemorySegment table, long rowid) {
            deliver(UPDATE_HOOK, op, schema, table, rowid);
        }

        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        int commit(MemorySegment unused) {
            deliver(COMMIT_HOOK, 0, null, null, 0);
            return 0; // never turn the commit into a rollback
        }

        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        void rollback(MemorySegment unused) {
            deliver(ROLLBACK_HOOK, 0, null, null, 0);
        }

        /** The one place a hook reaches Java; shape: see Callbacks. Never throws. */
        private void deliver(int hook, int op, MemorySegment schema, MemorySegment table, long rowid) {
            int[] depth = null;
            int saved = callbacks.depth;
            int savedHooks = callbacks.hookDepth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    warn(new IllegalStateException(Callbacks.TOO_DEEP));
                    return;
                }
                callbacks.hookDepth = savedHooks + 1; // SQLite forbids using the connection in here
                switch (hook) {
                    case UPDATE_HOOK -> receiver.rowChanged(op, Sqlite.cString(schema), Sqlite.cString(table), rowid);
                    case COMMIT_HOOK -> receiver.committed();
                    default -> receiver.rolledBack();
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
        }

        /** Never throws or blocks: logged off SQLite's stack (UpcallWarnings). */
        private static void warn(Throwable t) {
            UpcallWarnings.warn(ChangeHooks.class, "A Panlite change listener threw; the statement went on", t);
        }
    }
}
