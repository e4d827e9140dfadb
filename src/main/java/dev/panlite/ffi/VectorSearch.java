package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * sqlite-vec (vector search: vec0 tables, vec_* functions) compiled into the bundled engine
 * (src/main/native/bundled.c). Reached through the two functions bundled.c exports,
 * {@code panlite_vec_version} and {@code panlite_vec_init}, never through sqlite-vec's own
 * {@code sqlite3_vec_init}: those two exist only in an engine built from bundled.c, where sqlite-vec
 * is compiled against that very SQLite (SQLITE_CORE), so registering it needs no routine table. A
 * library that has them not (the system SQLite, libSQL, SQLCipher) has no sqlite-vec compiled in:
 * it loads as an extension there (PanliteConnection.loadExtension).
 */
public final class VectorSearch {
    static final String VERSION_FUNCTION = "panlite_vec_version";
    static final String INIT_FUNCTION = "panlite_vec_init";

    private VectorSearch() {}

    /**
     * The sqlite-vec version compiled into {@code lookup}'s library, as its vec_version() says it
     * ({@code v0.1.9}); null when it has none. Called by {@link SqliteLibrary} while it loads the
     * library: nothing here may initialise {@link Sqlite}, whose bindings need the library loaded.
     */
    static String versionIn(SymbolLookup lookup) {
        MemorySegment function = lookup.find(VERSION_FUNCTION).orElse(null);
        if (function == null) {
            return null;
        }
        MemorySegment version;
        try {
            version = (MemorySegment) Linker.nativeLinker().downcallHandle(function, FunctionDescriptor.of(ADDRESS))
                    .invokeExact();
        } catch (Throwable t) { // returns a string constant: only a broken library fails here
            throw new IllegalStateException(VERSION_FUNCTION + " failed", t);
        }
        return version.address() == 0 ? null
                : version.reinterpret(Integer.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    /** The sqlite-vec version compiled into the loaded engine ({@code v0.1.9}), or null when it has none. */
    public static String version() {
        return SqliteLibrary.sqliteVecVersion();
    }

    /**
     * Registers sqlite-vec's functions and modules on connection {@code db}: SQLITE_OK, or SQLite's
     * result code with sqlite-vec's message (or null) in {@code message[0]}. The caller holds the
     * connection's lock, and checked {@link #version()} is not null. Not critical: it creates
     * functions and modules (allocates, takes SQLite's mutexes); it calls no Java.
     */
    public static int register(long db, String[] message) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment error = arena.allocate(ADDRESS);
            int rc = (int) Init.INIT.invokeExact(MemorySegment.ofAddress(db), error);
            MemorySegment text = error.get(ADDRESS, 0);
            if (text.address() != 0) {
                message[0] = Sqlite.cString(text);
                Sqlite.free(text); // sqlite3_mprintf'd by sqlite-vec
            }
            return rc;
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }

    /** Bound at the first registration, after SqliteLibrary has loaded a library that has it. */
    private static final class Init {
        static final MethodHandle INIT = Linker.nativeLinker().downcallHandle(
                SqliteLibrary.lookup().find(INIT_FUNCTION).orElseThrow(() -> new IllegalStateException(
                        INIT_FUNCTION + " is missing from " + SqliteLibrary.loadedFrom() + ", which has "
                                + VERSION_FUNCTION)),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    }
}
