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
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Java code that SQL calls: functions (sqlite3_create_function_v2) and collations
 * (sqlite3_create_collation_v2). Each is an FFM upcall stub allocated in the connection's arena,
 * so it lives exactly as long as the connection. SQLite calls it on the thread that is stepping
 * the statement.
 */
public final class SqlFunctions {
    /** The body of a function: arguments as Long, Double, String, byte[] or null; returns a value or null. */
    @FunctionalInterface
    public interface Body {
        Object apply(Object[] args) throws Exception;
    }

    private static final int SQLITE_UTF8 = 1;
    private static final int SQLITE_DETERMINISTIC = 0x800;
    // A deterministic function is declared a pure function of its arguments, which is what SQLite
    // calls innocuous: it may then run in schema code (indexes, views, triggers) under the hardened
    // trusted_schema=false; a non-deterministic one may not ("unsafe use of f()").
    private static final int SQLITE_INNOCUOUS = 0x200000;
    private static final FunctionDescriptor X_FUNC = FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS);
    private static final FunctionDescriptor X_FINAL = FunctionDescriptor.ofVoid(ADDRESS);
    private static final FunctionDescriptor X_COMPARE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
            JAVA_INT, ADDRESS);
    private static final MethodHandle INVOKE;
    private static final MethodHandle COMPARE;
    private static final MethodHandle STEP;
    private static final MethodHandle FINISH;

    static {
        try {
            INVOKE = MethodHandles.lookup().findVirtual(Call.class, "invoke",
                    MethodType.methodType(void.class, MemorySegment.class, int.class, MemorySegment.class));
            COMPARE = MethodHandles.lookup().findVirtual(Compare.class, "compare", MethodType.methodType(int.class,
                    MemorySegment.class, int.class, MemorySegment.class, int.class, MemorySegment.class));
            STEP = MethodHandles.lookup().findVirtual(Groups.class, "step",
                    MethodType.methodType(void.class, MemorySegment.class, int.class, MemorySegment.class));
            FINISH = MethodHandles.lookup().findVirtual(Groups.class, "finish",
                    MethodType.methodType(void.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private SqlFunctions() {}

    /** Registers {@code body} as SQL function {@code name} with {@code nArgs} arguments (-1: any number). */
    static int register(Arena arena, Callbacks callbacks, long db, String name, int nArgs, boolean deterministic,
            Body body) {
        MemorySegment stub = Linker.nativeLinker().upcallStub(INVOKE.bindTo(new Call(callbacks, body)), X_FUNC, arena);
        int flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS : 0);
        return Sqlite.createFunction(db, arena.allocateFrom(name, StandardCharsets.UTF_8), nArgs, flags, stub,
                MemorySegment.NULL, MemorySegment.NULL);
    }

    /** An aggregate: a fresh accumulator per group, fed every row, asked for the result at the end. */
    public interface Accumulator {
        void step(Object[] args) throws Exception;

        Object finish() throws Exception;
    }

    /** Registers an aggregate function; {@code factory} makes one accumulator per group. */
    static int registerAggregate(Arena arena, Callbacks callbacks, long db, String name, int nArgs,
            boolean deterministic, java.util.function.Supplier<? extends Accumulator> factory) {
        Groups groups = new Groups(callbacks, factory);
        MemorySegment step = Linker.nativeLinker().upcallStub(STEP.bindTo(groups), X_FUNC, arena);
        MemorySegment finish = Linker.nativeLinker().upcallStub(FINISH.bindTo(groups), X_FINAL, arena);
        int flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS : 0);
        return Sqlite.createFunction(db, arena.allocateFrom(name, StandardCharsets.UTF_8), nArgs, flags,
                MemorySegment.NULL, step, finish);
    }

    /**
     * The live groups of one aggregate. SQLite gives each group 8 bytes of memory
     * (sqlite3_aggregate_context); they hold the key of the group's accumulator here. SQLite calls
     * xFinal for every group, also when a statement is reset early, so the map empties itself.
     * Used under the connection's lock only.
     */
    private static final class Groups {
        private final Callbacks callbacks;
        private final java.util.function.Supplier<? extends Accumulator> factory;
        private final java.util.Map<Long, Accumulator> live = new java.util.HashMap<>();
        private long nextKey = 1;

        Groups(Callbacks callbacks, java.util.function.Supplier<? extends Accumulator> factory) {
            this.callbacks = callbacks;
            this.factory = factory;
        }

        @SuppressWarnings("unused") // called by SQLite through the upcall stub; shape: see Callbacks
        void step(MemorySegment context, int argc, MemorySegment argv) {
            int[] depth = null;
            int saved = callbacks.depth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    reportError(context, Callbacks.TOO_DEEP);
                    return;
                }
                MemorySegment slot = Sqlite.aggregateContext(context, Long.BYTES);
                if (slot.address() == 0) {
                    Sqlite.resultError(context, "out of memory".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                slot = slot.reinterpret(Long.BYTES);
                long key = slot.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
                Accumulator accumulator = live.get(key);
                if (key == 0 || accumulator == null) {
                    key = nextKey++;
                    accumulator = factory.get();
                    live.put(key, accumulator);
                    slot.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, key);
                }
                accumulator.step(arguments(argc, argv));
            } catch (Throwable t) {
                reportError(context, t);
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
            }
        }

        @SuppressWarnings("unused") // called by SQLite through the upcall stub; shape: see Callbacks
        void finish(MemorySegment context) {
            int[] depth = null;
            int saved = callbacks.depth;
            try {
                MemorySegment slot = Sqlite.aggregateContext(context, 0); // NULL: no row reached this group
                // the group's accumulator leaves the map even when finish() is refused or fails
                Accumulator accumulator = slot.address() == 0 ? null
                        : live.remove(slot.reinterpret(Long.BYTES).get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
                depth = callbacks.enter();
                if (depth == null) {
                    reportError(context, Callbacks.TOO_DEEP);
                    return;
                }
                setResult(context, (accumulator != null ? accumulator : factory.get()).finish());
            } catch (Throwable t) {
                reportError(context, t);
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
            }
        }
    }

    static Object[] arguments(int argc, MemorySegment argv) {
        Object[] args = new Object[argc];
        MemorySegment values = argv.reinterpret(argc * ADDRESS.byteSize());
        for (int i = 0; i < argc; i++) {
            args[i] = Sqlite.value(values.getAtIndex(ADDRESS, i));
        }
        return args;
    }

    /** Hands SQLite a Java value as the function's result, by its type; throws for a value refused (a NaN vector). */
    static void setResult(MemorySegment context, Object value) throws java.sql.SQLDataException {
        switch (value) {
            case null -> Sqlite.resultNull(context);
            case Long l -> Sqlite.resultLong(context, l);
            case Integer i -> Sqlite.resultLong(context, i);
            case Short s -> Sqlite.resultLong(context, s);
            case Byte b -> Sqlite.resultLong(context, b);
            case Boolean b -> Sqlite.resultLong(context, b ? 1 : 0);
            case Double d -> Sqlite.resultDouble(context, d);
            case Float f -> Sqlite.resultDouble(context, f);
            case BigDecimal d -> Sqlite.resultText(context, d.toPlainString().getBytes(StandardCharsets.UTF_8));
            case byte[] b -> Sqlite.resultBlob(context, b);
            case float[] f -> resultVector(context, f);
            default -> Sqlite.resultText(context, value.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A float32 vector, as setObject binds a float[]: sqlite-vec's blob (4 little-endian bytes per
     * element). Refused as a bound one is (engine.Vectors.checkRankable): a NaN, which vector search
     * cannot rank, and a length no blob holds; the thrown error fails the statement.
     */
    private static void resultVector(MemorySegment context, float[] v) throws java.sql.SQLDataException {
        if (v.length > Integer.MAX_VALUE / Float.BYTES) {
            throw new java.sql.SQLDataException("The function's result is a float32 vector of " + v.length
                    + " dimensions, more than a blob holds (" + Integer.MAX_VALUE / Float.BYTES + ")", "22001");
        }
        for (int i = 0; i < v.length; i++) {
            if (v[i] != v[i]) {
                throw new java.sql.SQLDataException("The function's result is a float32 vector holding NaN at element "
                        + i + " (of " + v.length + "): vector search has no distance for NaN (sqlite-vec would rank it"
                        + " among the nearest), so Panlite refuses it", "22005");
            }
        }
        Sqlite.resultFloats(context, v);
    }

    private static final byte[] UNREPORTABLE = "A Java function failed, and reporting the failure failed too"
            .getBytes(StandardCharsets.UTF_8);

    /**
     * Nothing may be thrown back into C (the JVM would stop): a failure, Errors included, becomes
     * the statement's error. This method never throws.
     */
    static void reportError(MemorySegment context, Object failure) {
        try {
            String message = failure instanceof Throwable t
                    ? (t.getMessage() != null ? t.getClass().getSimpleName() + ": " + t.getMessage() : t.toString())
                    : String.valueOf(failure);
            Sqlite.resultError(context, message.getBytes(StandardCharsets.UTF_8));
        } catch (Throwable reportingFailed) { // out of memory or stack while building the message
            try {
                Sqlite.resultError(context, UNREPORTABLE);
            } catch (Throwable nothingLeft) {
                // no way to report remains; returning without a result gives SQL NULL, and the JVM lives
            }
        }
    }

    /** Registers {@code order} as collation {@code name}: {@code ORDER BY x COLLATE name}, {@code COLLATE} in columns. */
    static int registerCollation(Arena arena, Callbacks callbacks, long db, String name,
            java.util.Comparator<String> order) {
        MemorySegment stub = Linker.nativeLinker().upcallStub(COMPARE.bindTo(new Compare(callbacks, db, order)),
                X_COMPARE, arena);
        return Sqlite.createCollation(db, arena.allocateFrom(name, StandardCharsets.UTF_8), stub);
    }

    /**
     * One registered collation: SQLite hands two UTF-8 texts with their lengths. A collation has no
     * way to report an error to SQLite, so a failing (or too deeply nested) comparator records its
     * Throwable for the statement ({@link Callbacks#fail}) and interrupts it; the engine then fails the
     * statement with that Throwable as the cause.
     */
    private record Compare(Callbacks callbacks, long db, java.util.Comparator<String> order) {
        @SuppressWarnings("unused") // called by SQLite through the upcall stub; shape: see Callbacks
        int compare(MemorySegment unused, int leftLength, MemorySegment left, int rightLength, MemorySegment right) {
            int[] depth = null;
            int saved = callbacks.depth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    stop(Callbacks.TOO_DEEP_FAILURE);
                    return 0;
                }
                return Integer.signum(order.compare(text(left, leftLength), text(right, rightLength)));
            } catch (Throwable t) {
                stop(t);
                return 0;
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
            }
        }

        /** Never throws: records the failure and asks SQLite to stop the statement at its next check. */
        private void stop(Throwable t) {
            callbacks.fail(t);
            try {
                Sqlite.interrupt(db);
            } catch (Throwable interruptFailed) {
                // the failure is recorded: the engine fails the statement when its step returns
            }
        }

        private static String text(MemorySegment p, int length) {
            return length == 0 ? "" : new String(p.reinterpret(length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8);
        }
    }

    /** One registered function: converts the arguments, runs the body, hands SQLite the result. */
    private record Call(Callbacks callbacks, Body body) {
        @SuppressWarnings("unused") // called by SQLite through the upcall stub; shape: see Callbacks
        void invoke(MemorySegment context, int argc, MemorySegment argv) {
            int[] depth = null;
            int saved = callbacks.depth;
            try {
                depth = callbacks.enter();
                if (depth == null) {
                    reportError(context, Callbacks.TOO_DEEP);
                    return;
                }
                setResult(context, body.apply(arguments(argc, argv)));
            } catch (Throwable t) {
                reportError(context, t);
            } finally {
                if (depth != null) {
                    depth[0]--;
                }
                callbacks.depth = saved;
            }
        }
    }
}
