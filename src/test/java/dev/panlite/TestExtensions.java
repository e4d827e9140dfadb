package dev.panlite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * SQLite extensions for the tests: small ones built from C with the machine's compiler against the
 * headers of the engine under test, and sqlite-vec's own loadable build, which
 * {@code tools/install-sqlite-vec.sh} fetches from PyPI (pinned, cached, never committed).
 */
public final class TestExtensions {
    private TestExtensions() {}

    /** Why a library cannot be had on this machine (no compiler, no headers, no wheel): a test skips with it. */
    public static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason);
        }
    }

    /** answer() = 42, from the default entry point sqlite3_extension_init. */
    public static final String ANSWER = """
            #include <sqlite3ext.h>
            SQLITE_EXTENSION_INIT1
            static void answer(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_int(c, 42); }
            int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
                SQLITE_EXTENSION_INIT2(api);
                return sqlite3_create_function(db, "answer", 0, SQLITE_UTF8, 0, answer, 0, 0);
            }
            """;

    /** other() = 7, from the entry point sqlite3_other_init only (no default one). */
    public static final String OTHER = """
            #include <sqlite3ext.h>
            SQLITE_EXTENSION_INIT1
            static void other(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_int(c, 7); }
            int sqlite3_other_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
                SQLITE_EXTENSION_INIT2(api);
                return sqlite3_create_function(db, "other", 0, SQLITE_UTF8, 0, other, 0, 0);
            }
            """;

    /**
     * An entry point that registers half() = 21 and then fails with "refused on purpose": SQLite then
     * unloads the library, leaving half() registered.
     */
    public static final String FAILING = """
            #include <sqlite3ext.h>
            SQLITE_EXTENSION_INIT1
            static void half(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_int(c, 21); }
            int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
                SQLITE_EXTENSION_INIT2(api);
                sqlite3_create_function(db, "half", 0, SQLITE_UTF8, 0, half, 0, 0);
                *err = sqlite3_mprintf("refused on purpose");
                return SQLITE_ERROR;
            }
            """;

    /** A shared library that is no extension: it has no entry point. */
    public static final String PLAIN = "int plain(void) { return 1; }\n";

    /**
     * Variables under entry points' names: SQLite's default one, and one to name. SQLite would call
     * either as a function (a crash); the driver refuses them on Linux.
     */
    public static final String NOT_CODE = """
            int sqlite3_extension_init = 7;
            const char not_code[] = "not a function";
            """;

    /**
     * Compiles {@code source} into the shared library {@code dir/name} with {@code cc}, against the
     * sqlite3ext.h of the engine under test (the vendored one for the bundled engine).
     */
    public static Path build(Path dir, String name, String source) throws Unavailable, IOException, InterruptedException {
        Path include = EngineHeader.path().getParent();
        if (!Files.exists(include.resolve("sqlite3ext.h"))) {
            throw new Unavailable("needs sqlite3ext.h of the engine under test in " + include + " (libsqlite3-dev)");
        }
        Path c = dir.resolve(name + ".c");
        Files.writeString(c, source);
        Path library = dir.resolve(name);
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-I" + include, "-o", library.toString(), c.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException noCompiler) {
            throw new Unavailable("needs a C compiler (cc): " + noCompiler.getMessage());
        }
        String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!cc.waitFor(60, TimeUnit.SECONDS) || cc.exitValue() != 0) {
            throw new IOException("cc failed on " + c + ":\n" + out); // a compiler that fails on this is a broken setup
        }
        return library;
    }

    private static Path sqliteVec;
    private static String sqliteVecMissing;

    /**
     * sqlite-vec's loadable library (vec0.so, .dylib, .dll) of the version the bundled engine carries,
     * from {@code tools/install-sqlite-vec.sh} (run once per JVM; it caches the library).
     */
    public static synchronized Path sqliteVec() throws Unavailable, IOException, InterruptedException {
        if (sqliteVec == null && sqliteVecMissing == null) {
            Path script = Path.of("tools", "install-sqlite-vec.sh").toAbsolutePath();
            Process p = new ProcessBuilder("sh", script.toString()).redirectError(ProcessBuilder.Redirect.PIPE).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                sqliteVecMissing = script + " did not finish in 10 minutes";
            } else if (p.exitValue() != 0 || out.isEmpty()) {
                sqliteVecMissing = "sqlite-vec's loadable build cannot be had: " + (err.isEmpty() ? "exit " + p.exitValue() : err);
            } else {
                sqliteVec = Path.of(out);
            }
        }
        if (sqliteVec == null) {
            throw new Unavailable(sqliteVecMissing);
        }
        return sqliteVec;
    }
}
