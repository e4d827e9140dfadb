package dev.panlite.ffi;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds and loads libsqlite3 once per process. By default the engine bundled in the jar for this
 * platform ({@code native/<platform>/libsqlite3.so}, extracted by {@link NativeFiles}), else the
 * platform's usual system library. System property {@value #LIBRARY_PROPERTY} chooses
 * {@code system} or the path of another build (a newer SQLite, SQLCipher, libSQL). One line is
 * logged naming the engine. When nothing loads, the failure is kept (not thrown from a static
 * initialiser) so that {@code Driver.connect} can turn it into an SQLException that says what was
 * tried and what to install.
 */
public final class SqliteLibrary {
    /** System property: {@code system}, or the path of another SQLite build. */
    public static final String LIBRARY_PROPERTY = "panlite.sqlite.library";
    /** The value of {@link #LIBRARY_PROPERTY} that skips the bundled engine. */
    public static final String SYSTEM = "system";

    /** sqlite3_changes64 and sqlite3_total_changes64, which every update count uses, came in 3.37.0. */
    private static final int MINIMUM_VERSION = 3_037_000;
    private static final String MINIMUM_VERSION_TEXT = "3.37";
    private static final String BUNDLED_BASE_NAME = "sqlite3";

    /** The calls made here before {@link Sqlite} binds anything; checked against sqlite3.h by the binding test. */
    static final Map<String, FunctionDescriptor> DESCRIPTORS = Map.of(
            "sqlite3_libversion_number", FunctionDescriptor.of(ValueLayout.JAVA_INT),
            "sqlite3_libversion", FunctionDescriptor.of(ValueLayout.ADDRESS),
            "sqlite3_sourceid", FunctionDescriptor.of(ValueLayout.ADDRESS),
            "libsql_libversion", FunctionDescriptor.of(ValueLayout.ADDRESS));

    private static final SymbolLookup LOOKUP;
    private static final String LOADED_FROM;
    private static final boolean BUNDLED;
    private static final String VERSION;
    private static final String SOURCE_ID;
    private static final String LIBSQL_VERSION;
    private static final String SQLITE_VEC_VERSION;
    private static final String LOAD_ERROR;

    static {
        SymbolLookup lookup = null;
        String loadedFrom = null;
        boolean bundled = false;
        StringBuilder tried = new StringBuilder();
        String chosen = System.getProperty(LIBRARY_PROPERTY, "").strip();
        if (chosen.isEmpty()) {
            Path file = extractBundled(tried);
            if (file != null) {
                lookup = load(file.toString(), tried);
                if (lookup != null) {
                    loadedFrom = file.toString();
                    bundled = true;
                }
            }
        }
        if (lookup == null) {
            for (String candidate : chosen.isEmpty() || chosen.equalsIgnoreCase(SYSTEM) ? systemNames() : List.of(chosen)) {
                lookup = load(candidate, tried);
                if (lookup != null) {
                    loadedFrom = candidate;
                    break;
                }
            }
        }
        String install = "Install SQLite " + MINIMUM_VERSION_TEXT + " or newer (Debian/Ubuntu: apt-get install"
                + " libsqlite3-0; Fedora: dnf install sqlite-libs; macOS ships /usr/lib/libsqlite3.dylib; Windows: put"
                + " sqlite3.dll on the PATH), or set -D" + LIBRARY_PROPERTY + "=/path/to/libsqlite3 to choose a build"
                + (!chosen.isEmpty() && SqliteLibrary.class.getResource(NativeFiles.resourceName(BUNDLED_BASE_NAME)) != null
                        ? ", or leave it unset to use the SQLite bundled in the jar." : ".");
        String error = null;
        String version = null;
        String sourceId = null;
        String libsqlVersion = null;
        String vecVersion = null;
        if (lookup == null) {
            error = "Panlite could not load the SQLite library. Tried:" + tried + "\n" + install;
        } else {
            int number = (int) call(lookup, "sqlite3_libversion_number");
            if (number < MINIMUM_VERSION) {
                error = "Panlite needs SQLite " + MINIMUM_VERSION_TEXT + " or newer; " + loadedFrom + " is " + number / 1000000
                        + "." + number / 1000 % 1000 + "." + number % 1000 + ". " + install;
                lookup = null;
                loadedFrom = null;
                bundled = false;
            } else {
                version = cString(call(lookup, "sqlite3_libversion"));
                sourceId = cString(call(lookup, "sqlite3_sourceid"));
                // libSQL, a fork of SQLite, says so only through its own function
                libsqlVersion = lookup.find("libsql_libversion").isPresent() ? cString(call(lookup, "libsql_libversion")) : null;
                vecVersion = VectorSearch.versionIn(lookup); // compiled into the bundled engine
            }
        }
        LOOKUP = lookup;
        LOADED_FROM = loadedFrom;
        BUNDLED = bundled;
        VERSION = version;
        SOURCE_ID = sourceId;
        LIBSQL_VERSION = libsqlVersion;
        SQLITE_VEC_VERSION = vecVersion;
        LOAD_ERROR = error;
        if (lookup != null) {
            String line = "Panlite uses " + (bundled ? "the bundled " : "") + engine() + " (" + sourceId + ") from "
                    + loadedFrom + (vecVersion != null ? ", with sqlite-vec " + vecVersion + " compiled in" : "");
            try {
                if (firstInThisJvm(line)) {
                    System.getLogger(SqliteLibrary.class.getName()).log(System.Logger.Level.INFO, line);
                }
            } catch (RuntimeException ignored) {
                // logging must never break class initialisation
            }
        }
    }

    /**
     * The system property that remembers the line logged, JVM-wide: outside the {@code panlite.*}
     * settings, which tools (and this project's tests) copy to child JVMs.
     */
    static final String LOGGED_PROPERTY = "dev.panlite.engineLogged";

    /**
     * Whether this JVM has not logged {@code line} yet. This class initialises once per class loader
     * that loads the driver (each web application of a server, each restart of Spring Boot DevTools,
     * each isolated test class loader), and each logged the line again; the system properties are
     * the one place all of them share. The value holds the process id, so a property copied into
     * another process (a launcher forwarding every property) does not silence it there. A different
     * line (another engine in another loader) is logged.
     */
    private static boolean firstInThisJvm(String line) {
        String mark = ProcessHandle.current().pid() + " " + line;
        return !mark.equals(System.getProperties().put(LOGGED_PROPERTY, mark));
    }

    /** This platform's bundled engine, extracted to the cache directory; null (and why, in tried) when there is none. */
    private static Path extractBundled(StringBuilder tried) {
        String resource = NativeFiles.resourceName(BUNDLED_BASE_NAME);
        try {
            byte[] content = NativeFiles.read(resource);
            if (content == null) {
                String why = NativeFiles.note("SQLITE-NOT-BUILT.txt");
                tried.append("\n  the bundled engine: this jar has none for ").append(NativeFiles.platform())
                        .append(why == null ? "" : " (" + why + ")");
                return null;
            }
            return NativeFiles.extract(content, NativeFiles.cacheDir(),
                    NativeFiles.fileName(NativeFiles.libraryName(BUNDLED_BASE_NAME), content));
        } catch (IOException | RuntimeException e) {
            tried.append("\n  the bundled engine ").append(resource.substring(1)).append(": cannot extract it to ")
                    .append(NativeFiles.cacheDir()).append(" (").append(e).append("; set -D")
                    .append(NativeFiles.DIR_PROPERTY).append(" to a writable directory)");
            return null;
        }
    }

    /** The library at candidate (a name the OS loader searches for, or a path), or null with the reason in tried. */
    private static SymbolLookup load(String candidate, StringBuilder tried) {
        try {
            // A name with a separator is a path; otherwise the OS loader searches its paths.
            SymbolLookup lookup = candidate.indexOf('/') >= 0 || candidate.indexOf('\\') >= 0
                    ? SymbolLookup.libraryLookup(Path.of(candidate), Arena.global())
                    : SymbolLookup.libraryLookup(candidate, Arena.global());
            if (lookup.find("sqlite3_libversion_number").isEmpty()) {
                tried.append("\n  ").append(candidate).append(": not an SQLite library");
                return null;
            }
            return lookup;
        } catch (RuntimeException e) {
            tried.append("\n  ").append(candidate).append(": ").append(e.getMessage());
            return null;
        }
    }

    /** One of {@link #DESCRIPTORS}' argument-less calls on the library just found, before any other binding is made. */
    private static Object call(SymbolLookup lookup, String name) {
        MethodHandle handle = Linker.nativeLinker().downcallHandle(lookup.find(name).orElseThrow(
                () -> new IllegalStateException(name + " is missing from the SQLite library")), DESCRIPTORS.get(name));
        try {
            return handle.invoke();
        } catch (Throwable t) { // calls with no arguments: only a broken library fails here
            throw new IllegalStateException(name + " failed", t);
        }
    }

    private static String cString(Object address) {
        MemorySegment p = (MemorySegment) address;
        return p.address() == 0 ? null : p.reinterpret(Integer.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    private SqliteLibrary() {}

    /** The platform's usual names and places of a system SQLite. */
    private static List<String> systemNames() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        if (os.contains("win")) {
            names.add("sqlite3.dll");
            names.add("winsqlite3.dll");
        } else if (os.contains("mac") || os.contains("darwin")) {
            names.add("libsqlite3.dylib");
            names.add("/usr/lib/libsqlite3.dylib");
            addIfExists(names, "/opt/homebrew/opt/sqlite/lib/libsqlite3.dylib");
            addIfExists(names, "/usr/local/opt/sqlite/lib/libsqlite3.dylib");
        } else {
            names.add("libsqlite3.so.0");
            names.add("libsqlite3.so");
        }
        return names;
    }

    private static void addIfExists(List<String> names, String path) {
        if (Files.exists(Path.of(path))) {
            names.add(path);
        }
    }

    /**
     * Null when the library loaded and has every C function the driver requires; otherwise what went
     * wrong and what to install. (A missing optional function is not an error: see {@link OptionalFunctions}.)
     */
    public static String loadError() {
        return LOAD_ERROR != null ? LOAD_ERROR : OptionalFunctions.missingRequired();
    }

    /** The engine loaded: {@code SQLite 3.54.1}, or a fork and the SQLite it is based on ({@code libSQL 0.2.3 (SQLite 3.47.0)}); null if none. */
    public static String engine() {
        if (VERSION == null) {
            return null;
        }
        return LIBSQL_VERSION != null ? "libSQL " + LIBSQL_VERSION + " (SQLite " + VERSION + ")" : "SQLite " + VERSION;
    }

    /** libsql_libversion of the loaded library when it is libSQL, else null. */
    public static String libsqlVersion() {
        return LIBSQL_VERSION;
    }

    /**
     * The sqlite-vec version compiled into the loaded library ({@code v0.1.9}, what its vec_version()
     * returns; the engine bundled in the jar has it), or null when it has none.
     */
    public static String sqliteVecVersion() {
        return SQLITE_VEC_VERSION;
    }

    /** The engine and where it was loaded from, for messages. */
    static String describe() {
        return engine() + " library " + LOADED_FROM;
    }

    /** The name or path the library was loaded from, or null. */
    public static String loadedFrom() {
        return LOADED_FROM;
    }

    /** Whether the loaded library is the engine bundled in the jar (which has the native helper compiled in). */
    public static boolean bundled() {
        return BUNDLED;
    }

    /** sqlite3_libversion of the loaded library, or null. */
    public static String version() {
        return VERSION;
    }

    /** sqlite3_sourceid of the loaded library (check-in date and hash), or null. */
    public static String sourceId() {
        return SOURCE_ID;
    }

    static SymbolLookup lookup() {
        return LOOKUP;
    }
}
