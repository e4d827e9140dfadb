package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** enable_load_extension: SQL's load_extension() loads a real extension only when the setting is on. */
class LoadExtensionTest {
    @TempDir
    Path dir;

    /** Builds a one-function SQLite extension, answer() = 42, with the machine's C compiler. */
    private Path buildExtension() throws IOException, InterruptedException {
        // the headers of the engine under test: the vendored ones for the bundled engine
        Path include = EngineHeader.path().getParent();
        assumeTrue(Files.exists(include.resolve("sqlite3ext.h")), "needs sqlite3ext.h (libsqlite3-dev)");
        Path source = dir.resolve("answer.c");
        Files.writeString(source, """
                #include <sqlite3ext.h>
                SQLITE_EXTENSION_INIT1
                static void answer(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_int(c, 42); }
                int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
                    SQLITE_EXTENSION_INIT2(api);
                    return sqlite3_create_function(db, "answer", 0, SQLITE_UTF8, 0, answer, 0, 0);
                }
                """);
        Path library = dir.resolve("answer.so");
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-I" + include, "-o", library.toString(), source.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException noCompiler) {
            assumeTrue(false, "needs a C compiler: " + noCompiler.getMessage());
            throw noCompiler;
        }
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS), "cc finished");
        assertEquals(0, cc.exitValue(), () -> "cc failed: " + new String(readAll(cc)));
        return library;
    }

    private static byte[] readAll(Process p) {
        try {
            return p.getInputStream().readAllBytes();
        } catch (IOException e) {
            return e.toString().getBytes();
        }
    }

    @Test
    void onLetsSqlLoadAnExtension() throws Exception {
        Path library = buildExtension();
        try (Connection c = TestDb.open(dir, "enable_load_extension=true"); Statement s = c.createStatement()) {
            s.execute("SELECT load_extension('" + library.toString().replace("'", "''") + "')");
            try (ResultSet rs = s.executeQuery("SELECT answer()")) {
                assertTrue(rs.next());
                assertEquals(42, rs.getInt(1));
            }
        }
    }

    @Test
    void offByDefaultRefusesIt() throws Exception {
        Path library = buildExtension();
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class,
                    () -> s.execute("SELECT load_extension('" + library + "')"));
            assertTrue(e.getMessage().contains("not authorized"), e.getMessage());
            assertFalse(Boolean.parseBoolean(c.unwrap(PanliteConnection.class).config()
                    .get(Setting.ENABLE_LOAD_EXTENSION)));
        }
    }
}
