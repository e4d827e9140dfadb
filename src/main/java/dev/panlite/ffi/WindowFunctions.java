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
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Aggregate window functions written in Java (sqlite3_create_window_function): SQLite feeds rows
 * in ({@code xStep}) and, as the frame slides, out again ({@code xInverse}), asks for the current
 * value ({@code xValue}) and ends each partition with {@code xFinal}. Usable as a plain aggregate
 * too. Four upcall stubs per function, in the connection's arena; every target has the shape
 * {@link Callbacks} describes, so no Throwable reaches C.
 */
public final class WindowFunctions {
    /** One partition's state: an aggregate that can also take rows back out. */
    public interface Accumulator extends SqlFunctions.Accumulator {
        void inverse(Object[] args) throws Exception;

        Object value() throws Exception;
    }

    private static final int SQLITE_UTF8 = 1;
    private static final int SQLITE_DETERMINISTIC = 0x800;
    // A deterministic function is declared a pure function of its arguments, which is what SQLite
    // calls innocuous: it may then run in schema code (indexes, views, triggers) under the hardened
    // trusted_schema=false; a non-deterministic one may not ("unsafe use of f()").
    private static final int SQLITE_INNOCUOUS = 0x200000;
    private static final FunctionDescriptor X_ROWS = FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS);
    private static final FunctionDescriptor X_CONTEXT = FunctionDescriptor.ofVoid(ADDRESS);
    private static final int STEP = 0;
    private static final int INVERSE = 1;
    private static final int VALUE = 2;
    private static final int FINAL = 3;
    private static final MethodHandle ROWS;
    private static final MethodHandle CONTEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ROWS = lookup.findVirtual(Partitions.class, "rows", MethodType.methodType(void.class, int.class,
                    MemorySegment.class, int.class, MemorySegment.class));
            CONTEXT = lookup.findVirtual(Partitions.class, "context", MethodType.methodType(void.class, int.class,
                    MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private WindowFunctions() {}

    /** Registers window function {@code name}; {@code factory} makes one accumulator per partition. */
    static int register(Arena arena, Callbacks callbacks, long db, String name, int nArgs, boolean deterministic,
            Supplier<? extends Accumulator> factory) {
        Partitions partitions = new Partitions(callbacks, factory);
        Linker linker = Linker.nativeLinker();
        MethodHandle rows = ROWS.bindTo(partitions);
        MethodHandle context = CONTEXT.bindTo(partitions);
        MemorySegment step = linker.upcallStub(MethodHandles.insertArguments(rows, 0, STEP), X_ROWS, arena);
        MemorySegment inverse = linker.upcallStub(MethodHandles.insertArguments(rows, 0, INVERSE), X_ROWS, arena);
        MemorySegment value = linker.upcallStub(MethodHandles.insertArguments(context, 0, VALUE), X_CONTEXT, arena);
        MemorySegment finish = linker.upcallStub(MethodHandles.insertArguments(context, 0, FINAL), X_CONTEXT, arena);
        int flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS : 0);
        return Sqlite.createWindowFunction(db, arena.allocateFrom(name, StandardCharsets.UTF_8), nArgs, flags, step,
                finish, value, inverse);
    }

    /**
     * The live partitions of one window function, as {@code SqlFunctions}' aggregate groups: SQLite
     * gives each 8 bytes (sqlite3_aggregate_context) holding the key of its accumulator here; xFinal
     * (also run when a statement is reset early) removes it. Used under the connection's lock only.
     */
    private static final class Partitions {
        private final Callbacks callbacks;
        private final Supplier<? extends Accumulator> factory;
        private final Map<Long, Accumulator> live = new HashMap<>();
        private long nextKey = 1;

        Partitions(Callbacks callbacks, Supplier<? extends Accumulator> factory) {
            this.callbacks = callbacks;
            this.factory = factory;
        }

        /** The partition's accumulator, made on its first row; null when SQLite has no memory for the slot. */
        private Accumulator find(MemorySegment context, boolean create) {
            MemorySegment slot = Sqlite.aggregateContext(context, create ? Long.BYTES : 0);
            if (slot.address() == 0) {
                return null;
            }
            slot = slot.reinterpret(Long.BYTES);
            long key = slot.get(JAVA_LONG, 0);
            Accumulator accumulator = key == 0 ? null : live.get(key);
            if (accumulator == null && create) {
                key = nextKey++;
                accumulator = factory.get();
                live.put(key, accumulator);
                slot.set(JAVA_LONG, 0, key);
            }
            return accumulator;
        }

        @SuppressWarnings("unused") // xStep and xInverse, through the upcall stubs; shape: see Callbacks
        void rows(int which, MemorySegment context, int argc, MemorySegment argv) {
            int[] depth = null;
            int saved = callbacks.depth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    SqlFunctions.reportError(context, Callbacks.TOO_DEEP);
                    return;
                }
                Accumulator accumulator = find(context, true);
                if (accumulator == null) {
                    SqlFunctions.reportError(context, "out of memory");
                } else if (which == STEP) {
                    accumulator.step(SqlFunctions.arguments(argc, argv));
                } else {
                    accumulator.inverse(SqlFunctions.arguments(argc, argv));
                }
            } catch (Throwable t) {
                SqlFunctions.reportError(context, t);
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
            }
        }

        @SuppressWarnings("unused") // xValue and xFinal, through the upcall stubs; shape: see Callbacks
        void context(int which, MemorySegment context) {
            int[] depth = null;
            int saved = callbacks.depth;
            Accumulator accumulator = null;
            try {
                accumulator = find(context, false); // null: no row reached this partition
                if (which == FINAL && accumulator != null) { // leaves the map even if finish() is refused or fails
                    live.remove(Sqlite.aggregateContext(context, 0).reinterpret(Long.BYTES).get(JAVA_LONG, 0));
                }
                depth = callbacks.enter();
                if (depth == null) {
                    SqlFunctions.reportError(context, Callbacks.TOO_DEEP);
                    return;
                }
                Accumulator a = accumulator != null ? accumulator : factory.get();
                SqlFunctions.setResult(context, which == FINAL ? a.finish() : a.value());
            } catch (Throwable t) {
                SqlFunctions.reportError(context, t);
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
            }
        }
    }
}
