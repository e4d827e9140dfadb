package dev.panlite.fault;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.panlite.ffi.SqliteLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * Puts the fault-injecting VFS's allocator wrapper under the engine Panlite loads, so the nth
 * allocation of SQLite can fail ({@link FaultVfs#memArm}). Needs no hook in the driver: loading the
 * library (SqliteLibrary) does not initialise SQLite, the first open does; so the test looks the
 * same library up again (the loader hands back the same copy: same path, or the soname already
 * loaded) and calls {@code sqlite3_config(SQLITE_CONFIG_GETMALLOC)} then
 * {@code sqlite3_config(SQLITE_CONFIG_MALLOC)} before any connection. Once per process, in a child
 * JVM of its own (the allocator is the whole process's).
 */
final class SqliteAllocator {
    private static final int SQLITE_CONFIG_MALLOC = 4;
    private static final int SQLITE_CONFIG_GETMALLOC = 5;

    private SqliteAllocator() {}

    /** Installs the wrapper; null when done, else why not. */
    static String install() throws Throwable {
        String loadError = SqliteLibrary.loadError();
        if (loadError != null) {
            return "no engine: " + loadError.lines().findFirst().orElse(loadError);
        }
        String from = SqliteLibrary.loadedFrom();
        SymbolLookup engine = from.indexOf('/') >= 0 ? SymbolLookup.libraryLookup(Path.of(from), Arena.global())
                : SymbolLookup.libraryLookup(from, Arena.global());
        MethodHandle config = Linker.nativeLinker().downcallHandle(engine.find("sqlite3_config").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), Linker.Option.firstVariadicArg(1));
        int rc = (int) config.invokeExact(SQLITE_CONFIG_GETMALLOC, FaultVfs.memOriginal());
        if (rc != 0) {
            return "sqlite3_config(SQLITE_CONFIG_GETMALLOC) returned " + rc + " (the engine was initialised already?)";
        }
        MemorySegment wrapper = FaultVfs.memWrapper();
        rc = (int) config.invokeExact(SQLITE_CONFIG_MALLOC, wrapper);
        if (rc != 0) {
            return "sqlite3_config(SQLITE_CONFIG_MALLOC) returned " + rc;
        }
        return null;
    }
}
