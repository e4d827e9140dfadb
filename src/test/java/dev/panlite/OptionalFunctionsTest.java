package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ffi.Sqlite;
import dev.panlite.ffi.SqliteLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A C function newer than the loaded library (or omitted from its build) is optional: the driver
 * loads without it, and the feature that needs it fails with SQLFeatureNotSupportedException
 * (SQLState HYC00) naming the function and the library. A required function missing stops the
 * first connection with the names of what is missing. The libraries are copies of the one this run
 * uses with those functions no longer exported ({@link HiddenSymbols}), run in a child JVM (the
 * library is chosen once per process).
 */
@EnabledOnOs(OS.LINUX)
class OptionalFunctionsTest {
    @TempDir
    Path dir;

    /** The file of the SQLite library this JVM loaded. */
    private static Path loadedLibrary() throws IOException {
        Sqlite.libversionNumber();
        String from = SqliteLibrary.loadedFrom();
        if (from.indexOf('/') >= 0) {
            return Path.of(from).toRealPath();
        }
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash > 0 && line.substring(slash).contains("libsqlite3")) {
                return Path.of(line.substring(slash)).toRealPath();
            }
        }
        throw new IllegalStateException("the SQLite library is not mapped; loaded from " + from);
    }

    private Map<String, String> runOnCopyWithout(List<String> hidden) throws Exception {
        Path copy = dir.resolve("libsqlite3-reduced.so");
        HiddenSymbols.copyHiding(loadedLibrary(), copy, hidden);
        return ChildJvm.of(OptionalFunctionsChild.class).property(SqliteLibrary.LIBRARY_PROPERTY, copy.toString())
                .args(dir.resolve("t.db").toString()).run().values();
    }

    @Test
    void aMissingOptionalFunctionFailsOnlyTheFeatureThatNeedsIt() throws Exception {
        Map<String, String> r = runOnCopyWithout(List.of("sqlite3_create_window_function", "sqlite3_serialize",
                "sqlite3_blob_open", "sqlite3_progress_handler", "sqlite3_wal_checkpoint_v2", "sqlite3_error_offset",
                "sqlite3_stmt_isexplain", "sqlite3_load_extension", "sqlite3_enable_load_extension"));
        assertEquals("null", r.get("loadError"), r::toString);
        assertEquals("ok 1", r.get("query"), r::toString);
        assertEquals("ok ValuesResultSet Init", r.get("explain"), r::toString); // found by its text (F29's guard)
        Map<String, String> needs = Map.of("windowFunction", "sqlite3_create_window_function", "serialize",
                "sqlite3_serialize", "blob", "sqlite3_blob_open", "progressHandler", "sqlite3_progress_handler",
                "checkpoint", "sqlite3_wal_checkpoint_v2", "loadExtension", "sqlite3_load_extension",
                "loadExtensionsSetting", "sqlite3_load_extension"); // SQLITE_OMIT_LOAD_EXTENSION removes both
        for (Map.Entry<String, String> e : needs.entrySet()) {
            String outcome = r.get(e.getKey());
            assertTrue(outcome != null && outcome.startsWith("java.sql.SQLFeatureNotSupportedException HYC00 "),
                    e.getKey() + ": " + r);
            assertTrue(outcome.contains(e.getValue()), "the function is not named: " + outcome);
            assertTrue(outcome.contains(SqliteLibrary.engine()), "the library's version is not named: " + outcome);
        }
    }

    @Test
    void theSameFeaturesWorkOnTheUnreducedCopy() throws Exception {
        // the control: the copy itself is sound, it is the hidden functions that the features miss
        Map<String, String> r = runOnCopyWithout(List.of());
        assertEquals("null", r.get("loadError"), r::toString);
        for (String feature : List.of("query", "explain", "windowFunction", "serialize", "blob", "progressHandler",
                "checkpoint")) {
            assertTrue(r.getOrDefault(feature, "").startsWith("ok "), feature + ": " + r);
        }
        for (String feature : List.of("loadExtension", "loadExtensionsSetting")) { // it got to SQLite, which found no file
            assertTrue(r.getOrDefault(feature, "").contains(" HY000 Cannot load the extension '"), feature + ": " + r);
        }
    }

    @Test
    void aMissingRequiredFunctionStopsTheFirstConnectionNamingIt() throws Exception {
        Map<String, String> r = runOnCopyWithout(List.of("sqlite3_txn_state"));
        String connect = r.get("connect");
        assertTrue(connect != null && connect.startsWith("java.sql.SQLNonTransientConnectionException 08001 "), r::toString);
        assertTrue(connect.contains("sqlite3_txn_state"), connect);
        assertTrue(r.get("loadError").contains("sqlite3_txn_state"), r::toString);
    }
}
