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
 * SQLite's progress handler (sqlite3_progress_handler) as an FFM upcall: called every N virtual
 * machine instructions of a running statement; a non-zero answer interrupts it (SQLITE_INTERRUPT).
 * One per connection; the stub lives in the connection's arena.
 */
public final class ProgressHandlers {
    /** The Java side: non-zero stops the running statement. */
    @FunctionalInterface
    public interface Handler {
        int progress() throws Exception;
    }

    private static final MethodHandle CALL;

    static {
        try {
            CALL = MethodHandles.lookup().findVirtual(Stub.class, "call",
                    MethodType.methodType(int.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ProgressHandlers() {}

    /** Installs {@code handler} (null removes it) to run every {@code instructions} VM instructions. */
    static void install(Arena arena, Callbacks callbacks, long db, int instructions, Handler handler) {
        if (handler == null || instructions <= 0) {
            Sqlite.progressHandler(db, 0, MemorySegment.NULL);
            return;
        }
        MemorySegment stub = Linker.nativeLinker().upcallStub(CALL.bindTo(new Stub(callbacks, handler)),
                FunctionDescriptor.of(JAVA_INT, ADDRESS), arena);
        Sqlite.progressHandler(db, instructions, stub);
    }

    /** The upcall target; shape: see Callbacks. A handler that throws (or nests too deep) interrupts. */
    private record Stub(Callbacks callbacks, Handler handler) {
        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        int call(MemorySegment unused) {
            int[] depth = null;
            int saved = callbacks.depth;
            int savedHooks = callbacks.hookDepth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    return 1;
                }
                callbacks.hookDepth = savedHooks + 1; // SQLite forbids using the connection from a progress handler
                return handler.progress() != 0 ? 1 : 0;
            } catch (Throwable t) {
                return 1; // a failing handler stops the statement rather than letting it run unwatched
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
                callbacks.hookDepth = savedHooks;
            }
        }
    }
}
