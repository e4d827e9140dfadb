package dev.panlite.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds and loads libsqlite3 once per process: the file named by system property
 * {@value #LIBRARY_PROPERTY}, else the platform's usual system library. When nothing loads, the
 * failure is kept (not thrown from a static initialiser) so that {@code Driver.connect} can turn it
 * into an SQLException that says what to install.
 */
public final class SqliteLibrary {
    /** System property naming another SQLite build (a newer SQLite, SQLCipher, libSQL). */
    public static final String LIBRARY_PROPERTY = "panlite.sqlite.library";

    /** sqlite3_changes64 and sqlite3_total_changes64, which every update count uses, came in 3.37.0. */
    private static final int MINIMUM_VERSION = 3_037_000;
    private static final String MINIMUM_VERSION_TEXT = "3.37";

    private static final SymbolLookup LOOKUP;
    private static final String LOADED_FROM;
    private static final String LOAD_ERROR;

    static {
        SymbolLookup lookup = null;
        String loadedFrom = null;
        StringBuilder tried = new StringBuilder();
        for (String candidate : candidates()) {
            try {
                // A name with a separator is a path; otherwise the OS loader searches its paths.
                lookup = candidate.indexOf('/') >= 0 || candidate.indexOf('\\') >= 0
                        ? SymbolLookup.libraryLookup(Path.of(candidate), Arena.global())
                        : SymbolLookup.libraryLookup(candidate, Arena.global());
                if (lookup.find("sqlite3_libversion_number").isEmpty()) {
                    tried.append("\n  ").append(candidate).append(": not an SQLite library");
                    lookup = null;
                    continue;
                }
                loadedFrom = candidate;
                break;
            } catch (RuntimeException e) {
                tried.append("\n  ").append(candidate).append(": ").append(e.getMessage());
            }
        }
        String install = "Install SQLite " + MINIMUM_VERSION_TEXT + " or newer (Debian/Ubuntu: apt-get install"
                + " libsqlite3-0; Fedora: dnf install sqlite-libs; macOS ships /usr/lib/libsqlite3.dylib; Windows: put"
                + " sqlite3.dll on the PATH), or set -D" + LIBRARY_PROPERTY + "=/path/to/libsqlite3 to choose a build.";
        String error = null;
        if (lookup == null) {
            error = "Panlite could not load the SQLite library. Tried:" + tried + "\n" + install;
        } else {
            int version = versionNumber(lookup);
            if (version < MINIMUM_VERSION) {
                error = "Panlite needs SQLite " + MINIMUM_VERSION_TEXT + " or newer; " + loadedFrom + " is " + version / 1000000
                        + "." + version / 1000 % 1000 + "." + version % 1000 + ". " + install;
                lookup = null;
                loadedFrom = null;
            }
        }
        LOOKUP = lookup;
        LOADED_FROM = loadedFrom;
        LOAD_ERROR = error;
    }

    /** sqlite3_libversion_number of the library just found, before any other binding is made. */
    private static int versionNumber(SymbolLookup lookup) {
        try {
            MethodHandle number = Linker.nativeLinker().downcallHandle(
                    lookup.find("sqlite3_libversion_number").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT));
            return (int) number.invokeExact();
        } catch (Throwable t) { // an int-returning call with no arguments: only a broken library fails here
            throw new IllegalStateException("sqlite3_libversion_number failed", t);
        }
    }

    private SqliteLibrary() {}

    private static List<String> candidates() {
        String chosen = System.getProperty(LIBRARY_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            return List.of(chosen.strip());
        }
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

    /** Null when the library loaded; otherwise what went wrong and what to install. */
    public static String loadError() {
        return LOAD_ERROR;
    }

    /** The name or path the library was loaded from, or null. */
    public static String loadedFrom() {
        return LOADED_FROM;
    }

    static SymbolLookup lookup() {
        return LOOKUP;
    }
}
