package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Clearing sqlite3_interrupt's flag once the execution it was aimed at has ended
 * ({@code panlite_interrupt_clear}, src/main/native/panlite_helper.c). SQLite clears the flag only
 * when no statement of the connection is active, so without this an interrupt of one statement
 * fails every later one while any result set is open. The function exists only in an engine built
 * from bundled.c, where it is compiled against that very SQLite's struct: a library without it (the
 * system SQLite, libSQL, SQLCipher) cannot clear the flag, and {@link #available()} says so. Looked
 * up in the engine itself, whether or not the fused calls of the native helper are turned off.
 */
public final class InterruptFlag {
    static final String CLEAR_FUNCTION = "panlite_interrupt_clear";

    // Critical: one atomic store; it never blocks and never calls back.
    private static final MethodHandle CLEAR = SqliteLibrary.lookup() == null ? null
            : SqliteLibrary.lookup().find(CLEAR_FUNCTION)
                    .map(f -> Linker.nativeLinker().downcallHandle(f, FunctionDescriptor.ofVoid(ADDRESS),
                            Linker.Option.critical(false)))
                    .orElse(null);

    private InterruptFlag() {}

    /** Whether the loaded engine can clear the flag (the bundled one). */
    public static boolean available() {
        return CLEAR != null;
    }

    /**
     * Clears the flag on {@code db}. The caller holds the connection's lock, the connection is
     * open, and {@link #available()} is true.
     */
    public static void clear(long db) {
        try {
            CLEAR.invokeExact(MemorySegment.ofAddress(db));
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }
}
