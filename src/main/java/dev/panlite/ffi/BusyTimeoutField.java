package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The busy timeout SQLite itself reports ({@code panlite_busy_timeout_note},
 * src/main/native/panlite_helper.c). Panlite waits for locks in Java and leaves SQLite's busy handler
 * off, so SQLite's own field would say 0, and {@code SELECT * FROM pragma_busy_timeout} (which, unlike
 * the PRAGMA statement, the driver does not answer itself) would read 0. The function exists only in
 * an engine built from bundled.c, against that SQLite's struct; elsewhere {@link #available()} is
 * false and the table-valued form reads 0. Looked up in the engine itself.
 */
public final class BusyTimeoutField {
    // Critical: one store; it never blocks and never calls back.
    private static final MethodHandle NOTE = SqliteLibrary.lookup() == null ? null
            : SqliteLibrary.lookup().find("panlite_busy_timeout_note")
                    .map(f -> Linker.nativeLinker().downcallHandle(f, FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT),
                            Linker.Option.critical(false)))
                    .orElse(null);

    private BusyTimeoutField() {}

    /** Whether the loaded engine can set the field (the bundled one). */
    public static boolean available() {
        return NOTE != null;
    }

    /** Sets it on {@code db} (open, its lock held) to {@code millis}; nothing where unavailable. */
    public static void note(long db, int millis) {
        if (NOTE == null || db == 0) {
            return;
        }
        try {
            NOTE.invokeExact(MemorySegment.ofAddress(db), millis);
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }
}
