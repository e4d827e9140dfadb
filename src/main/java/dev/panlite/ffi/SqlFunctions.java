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
    private static final FunctionDescriptor X_FUNC = FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS);
    private static final FunctionDescriptor X_COMPARE = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
            JAVA_INT, ADDRESS);
    private static final MethodHandle INVOKE;
    private static final MethodHandle COMPARE;

    static {
        try {
            INVOKE = MethodHandles.lookup().findVirtual(Call.class, "invoke",
                    MethodType.methodType(void.class, MemorySegment.class, int.class, MemorySegment.class));
            COMPARE = MethodHandles.lookup().findVirtual(Compare.class, "compare", MethodType.methodType(int.class,
                    MemorySegment.class, int.class, MemorySegment.class, int.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private SqlFunctions() {}

    /** Registers {@code body} as SQL function {@code name} with {@code nArgs} arguments (-1: any number). */
    static int register(Arena arena, long db, String name, int nArgs, boolean deterministic, Body body) {
        MemorySegment stub = Linker.nativeLinker().upcallStub(INVOKE.bindTo(new Call(body)), X_FUNC, arena);
        int flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0);
        return Sqlite.createFunction(db, arena.allocateFrom(name, StandardCharsets.UTF_8), nArgs, flags, stub);
    }

    /** Registers {@code order} as collation {@code name}: {@code ORDER BY x COLLATE name}, {@code COLLATE} in columns. */
    static int registerCollation(Arena arena, long db, String name, java.util.Comparator<String> order) {
        MemorySegment stub = Linker.nativeLinker().upcallStub(COMPARE.bindTo(new Compare(order)), X_COMPARE, arena);
        return Sqlite.createCollation(db, arena.allocateFrom(name, StandardCharsets.UTF_8), stub);
    }

    /** One registered collation: SQLite hands two UTF-8 texts with their lengths. */
    private record Compare(java.util.Comparator<String> order) {
        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        int compare(MemorySegment unused, int leftLength, MemorySegment left, int rightLength, MemorySegment right) {
            // a collation has no way to report an error: a failing comparator sorts its values as equal
            try {
                return Integer.signum(order.compare(text(left, leftLength), text(right, rightLength)));
            } catch (Throwable t) {
                return 0;
            }
        }

        private static String text(MemorySegment p, int length) {
            return length == 0 ? "" : new String(p.reinterpret(length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8);
        }
    }

    /** One registered function: converts the arguments, runs the body, hands SQLite the result. */
    private record Call(Body body) {
        @SuppressWarnings("unused") // called by SQLite through the upcall stub
        void invoke(MemorySegment context, int argc, MemorySegment argv) {
            // Nothing may be thrown back into C (the JVM would stop): every failure becomes the statement's error.
            try {
                Object[] args = new Object[argc];
                MemorySegment values = argv.reinterpret(argc * ADDRESS.byteSize());
                for (int i = 0; i < argc; i++) {
                    args[i] = Sqlite.value(values.getAtIndex(ADDRESS, i));
                }
                setResult(context, body.apply(args));
            } catch (Throwable t) {
                String message = t.getMessage() != null ? t.getMessage() : t.toString();
                try {
                    Sqlite.resultError(context, message.getBytes(StandardCharsets.UTF_8));
                } catch (Throwable reportingFailed) {
                    // nothing is left to tell SQLite with; returning without a result gives SQL NULL
                }
            }
        }

        private static void setResult(MemorySegment context, Object value) {
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
                default -> Sqlite.resultText(context, value.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
