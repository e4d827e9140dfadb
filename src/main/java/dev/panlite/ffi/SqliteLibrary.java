package dev.panlite.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
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
        LOOKUP = lookup;
        LOADED_FROM = loadedFrom;
        LOAD_ERROR = lookup != null ? null : "Panlite could not load the SQLite library. Tried:" + tried
                + "\nInstall SQLite 3.38 or newer (Debian/Ubuntu: apt-get install libsqlite3-0; Fedora: dnf install sqlite-libs;"
                + " macOS ships /usr/lib/libsqlite3.dylib; Windows: put sqlite3.dll on the PATH), or set -D"
                + LIBRARY_PROPERTY + "=/path/to/libsqlite3 to choose a build.";
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
