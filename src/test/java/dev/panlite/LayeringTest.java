package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The safety invariants rely on the layering: only dev.panlite.ffi names java.lang.foreign, and only
 * dev.panlite.engine (which holds the connection lock and asserts it) calls SQLite functions.
 */
class LayeringTest {
    private static final Path MAIN = Path.of("src/main/java/dev/panlite");
    private static final Pattern NATIVE_CALL = Pattern.compile("\\b(Sqlite|Fused|Scratch|NativeHelper|VectorSearch)\\.[a-z]\\w*\\(");

    private static List<String> offending(Path dir, Pattern pattern, boolean recurse) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = recurse ? Files.walk(dir) : Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (pattern.matcher(lines.get(i)).find()) {
                        found.add(f + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        return found;
    }

    @Test
    void onlyTheEngineCallsSqlite() throws IOException {
        List<String> found = new ArrayList<>(offending(MAIN.resolve("jdbc"), NATIVE_CALL, true));
        found.addAll(offending(MAIN, NATIVE_CALL, false));
        assertEquals(List.of(), found);
    }

    @Test
    void onlyFfiNamesJavaLangForeign() throws IOException {
        Pattern foreign = Pattern.compile("java\\.lang\\.foreign");
        List<String> found = new ArrayList<>(offending(MAIN.resolve("jdbc"), foreign, true));
        found.addAll(offending(MAIN.resolve("engine"), foreign, true));
        found.addAll(offending(MAIN, foreign, false));
        assertEquals(List.of(), found);
    }

    /**
     * Data flows one way: dev.panlite (the public surface) -> jdbc -> engine -> ffi. The engine and
     * ffi name nothing of the public package, so nothing only they read (Config's key PRAGMA) has
     * to be public there; the one exception is {@code SqliteError}, the interface the engine's
     * exceptions implement for users (a type with no state). ffi names nothing above it.
     */
    @Test
    void lowerLayersNameNothingAboveThem() throws IOException {
        Pattern publicType = Pattern.compile("\\bdev\\.panlite\\.(?!engine\\b|ffi\\b|jdbc\\b|SqliteError\\b)[A-Za-z]");
        Pattern aboveFfi = Pattern.compile("\\bdev\\.panlite\\.(engine|jdbc|[A-Z])");
        Pattern aboveEngine = Pattern.compile("\\bdev\\.panlite\\.jdbc\\b");
        List<String> found = new ArrayList<>(offending(MAIN.resolve("engine"), code(publicType), true));
        found.addAll(offending(MAIN.resolve("engine"), code(aboveEngine), true));
        found.addAll(offending(MAIN.resolve("ffi"), code(aboveFfi), true));
        assertEquals(List.of(), found);
    }

    /** Matches {@code p} outside comments and string literals (JFR's @Name("dev.panlite.LockWait") is a string). */
    private static Pattern code(Pattern p) {
        return Pattern.compile("^(?!\\s*(\\*|//|/\\*))(?:[^\"]|\"[^\"]*\")*?" + p.pattern());
    }

    @Test
    void theCheckFindsWhatItLooksFor() {
        Pattern publicType = code(Pattern.compile("\\bdev\\.panlite\\.(?!engine\\b|ffi\\b|jdbc\\b|SqliteError\\b)[A-Za-z]"));
        assertTrue(publicType.matcher("import dev.panlite.Config;").find());
        assertTrue(publicType.matcher("    void f(dev.panlite.BusyHandler h) {").find());
        assertTrue(!publicType.matcher("import dev.panlite.SqliteError;").find());
        assertTrue(!publicType.matcher("import dev.panlite.ffi.Sqlite;").find());
        assertTrue(!publicType.matcher("@Name(\"dev.panlite.LockWait\")").find());
        assertTrue(!publicType.matcher(" * the public {@code dev.panlite.BusyHandler}").find());
        assertTrue(NATIVE_CALL.matcher("int rc = Sqlite.step(handle);").find());
        assertTrue(!NATIVE_CALL.matcher("if (rc == Sqlite.ROW) {").find());
    }
}
