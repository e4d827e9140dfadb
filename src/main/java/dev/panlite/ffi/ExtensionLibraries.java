package dev.panlite.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The extension libraries one connection loaded ({@link Scratch#loadExtension}): Java opens each
 * itself, by the string SQLite is given, into the connection's memory, so it stays mapped until the
 * connection closes, and looks at the entry point SQLite would call before SQLite calls it.
 */
final class ExtensionLibraries {
    /** The suffix SQLite appends to a library name that does not open as given (SHARED_LIB_SUFFIX). */
    private static final String LIBRARY_SUFFIX = System.getProperty("os.name").startsWith("Windows") ? ".dll"
            : System.getProperty("os.name").startsWith("Mac") ? ".dylib" : ".so";

    private final Arena arena; // the connection's: a library opened into it is closed with it
    private final Map<Path, SymbolLookup> pinned = new HashMap<>();

    ExtensionLibraries(Arena arena) {
        this.arena = arena;
    }

    /**
     * The entry point SQLite would call in {@code library} (sqlite3LoadExtension's rule: the one named,
     * else {@code sqlite3_extension_init}, else {@code sqlite3_<letters of the file's name>_init})
     * when it is found but is not in executable memory (a variable of that name): why it must not be
     * called. Null when it is code, is not found (SQLite then says so), or this platform cannot tell.
     */
    static String entryPointNotCode(SymbolLookup library, Path file,
            String entryPoint) {
        List<String> names = entryPoint != null ? List.of(entryPoint)
                : List.of("sqlite3_extension_init", "sqlite3_" + initName(file) + "_init");
        for (String name : names) {
            Optional<MemorySegment> symbol = library.find(name);
            if (symbol.isPresent()) {
                return Boolean.FALSE.equals(ExecutableMemory.isFunction(symbol.get().address()))
                        ? "the entry point " + name + " is not a function (a variable, or not in executable memory):"
                                + " SQLite would call it and crash the process"
                        : null;
            }
        }
        return null;
    }

    /** The letters of a library's file name, lower-cased, after a leading "lib" and before the first dot (as SQLite derives them). */
    private static String initName(Path file) {
        Path name = file.getFileName();
        String s = name == null ? "" : name.toString();
        if (s.regionMatches(true, 0, "lib", 0, 3)) {
            s = s.substring(3);
        }
        StringBuilder letters = new StringBuilder();
        for (int i = 0; i < s.length() && s.charAt(i) != '.'; i++) {
            char ch = s.charAt(i);
            if (ch < 0x80 && Character.isLetter(ch)) {
                letters.append(Character.toLowerCase(ch));
            }
        }
        return letters.toString();
    }

    /**
     * Opens {@code file}, or else the name SQLite tries next (with the suffix), until this connection
     * closes; null when neither is a shared library this process can open.
     */
    SymbolLookup pin(Path file) {
        Path name = file.getFileName();
        for (Path candidate : name == null ? List.of(file)
                : List.of(file, file.resolveSibling(name + LIBRARY_SUFFIX))) {
            SymbolLookup known = pinned.get(candidate);
            if (known != null) {
                return known;
            }
            if (!sharedLibrary(candidate)) {
                continue; // the JVM would warn of a "stack guard" for any file that is not an ELF library
            }
            try {
                // by the very string SQLite is given (no real path): the dynamic loader then hands both the
                // same library, also when the name already names one this process loaded (a link re-pointed since)
                SymbolLookup lookup = SymbolLookup.libraryLookup(candidate.toString(), arena);
                pinned.put(candidate, lookup);
                return lookup;
            } catch (IllegalArgumentException notLoadable) {
                // a library for another machine, or with missing dependencies: SQLite fails on it too, and
                // its message, which the caller reports, says why
            }
        }
        return null;
    }

    /** Whether {@code file} starts as a shared library does: ELF, Mach-O (thin or fat) or PE. */
    private static boolean sharedLibrary(Path file) {
        byte[] head = new byte[4];
        try (var in = java.nio.file.Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, 4) < 2) {
                return false;
            }
        } catch (java.io.IOException | RuntimeException unreadable) { // missing, a folder, no permission
            return false;
        }
        int magic = (head[0] & 0xff) << 24 | (head[1] & 0xff) << 16 | (head[2] & 0xff) << 8 | head[3] & 0xff;
        return magic == 0x7f454c46 || magic == 0xfeedface || magic == 0xfeedfacf || magic == 0xcefaedfe
                || magic == 0xcffaedfe || magic == 0xcafebabe || head[0] == 'M' && head[1] == 'Z';
    }
}
