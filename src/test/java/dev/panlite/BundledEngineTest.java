package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine bundled in the jar: chosen by default when the build made one, built with the
 * options src/main/native/sqlite/options.txt lists, and the features users expect work in SQL.
 */
class BundledEngineTest {
    @TempDir
    Path dir;

    /** The default engine when the build bundled one and no other was asked for. */
    @Test
    void theBundledEngineIsTheDefault() {
        boolean inJar = BundledEngineTest.class.getResource("/native/linux-x86_64/libsqlite3.so") != null
                || BundledEngineTest.class.getResource("/native/linux-aarch64/libsqlite3.so") != null;
        assumeTrue(inJar && System.getProperty(SqliteLibrary.LIBRARY_PROPERTY) == null,
                "this run is on another engine (" + SqliteLibrary.loadedFrom() + ")");
        assertTrue(SqliteLibrary.bundled(), SqliteLibrary.loadedFrom());
        assertEquals("3.54.1", SqliteLibrary.version());
    }

    /**
     * The build falls back to the system SQLite, with one WARNING, when a machine lacks what the
     * bundled engine needs (cargo, the network, a C compiler): that is a skip. A compiler that ran and
     * failed on our own sources (bundled.c, panlite_helper.c) is a bug the suite would otherwise pass
     * over, every test then running on another engine: that fails here.
     */
    @Test
    void theBuildCompiledTheNativeCodeWhereItHadTheTools() throws java.io.IOException {
        for (String note : new String[] {"SQLITE-NOT-BUILT.txt", "NOT-BUILT.txt"}) {
            for (String platform : new String[] {"linux-x86_64", "linux-aarch64", "macos-x86_64", "macos-aarch64",
                "windows-x86_64"}) {
                try (java.io.InputStream in = BundledEngineTest.class.getResourceAsStream("/native/" + platform + "/" + note)) {
                    if (in == null) {
                        continue;
                    }
                    String reason = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
                    assertFalse(reason.contains("failed to compile"), platform + "/" + note + ": " + reason
                            + " (the compiler's output is in target/: sqlite-build.log for the engine)");
                    assumeTrue(false, "not built for " + platform + ", for want of a tool: " + reason);
                }
            }
        }
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("features.db"));
    }

    @Test
    void compileOptionsAreThoseOfTheBuild() throws SQLException {
        assumeTrue(SqliteLibrary.bundled(), "not on the bundled engine");
        Set<String> options = new HashSet<>();
        try (Connection c = open(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA compile_options")) {
            while (rs.next()) {
                options.add(rs.getString(1));
            }
        }
        for (String expected : new String[] {"THREADSAFE=1", "DEFAULT_MEMSTATUS=0", "USE_ALLOCA", "LIKE_DOESNT_MATCH_BLOBS",
                "ENABLE_FTS3", "ENABLE_FTS3_PARENTHESIS", "ENABLE_FTS4", "ENABLE_FTS5", "ENABLE_RTREE",
                "ENABLE_MATH_FUNCTIONS", "ENABLE_PERCENTILE", "ENABLE_COLUMN_METADATA", "ENABLE_STAT4",
                "ENABLE_DBSTAT_VTAB", "MAX_VARIABLE_NUMBER=250000", "MAX_COLUMN=32767",
                "MAX_ATTACHED=125", "MAX_LENGTH=2147483647", "MAX_MMAP_SIZE=1099511627776"}) {
            assertTrue(options.contains(expected), expected + " missing from " + options);
        }
        assertTrue(options.stream().noneMatch(o -> o.startsWith("OMIT_LOAD_EXTENSION")), options::toString);
    }

    @Test
    void featuresWorkInSql() throws SQLException {
        assumeTrue(SqliteLibrary.bundled(), "not on the bundled engine");
        try (Connection c = open(); Statement s = c.createStatement()) {
            s.execute("CREATE VIRTUAL TABLE docs5 USING fts5(body)");
            s.execute("INSERT INTO docs5 VALUES ('the quick brown fox'), ('lazy dogs')");
            assertEquals(1, count(s, "SELECT count(*) FROM docs5 WHERE docs5 MATCH 'quick'"));
            s.execute("CREATE VIRTUAL TABLE docs4 USING fts4(body)");
            s.execute("INSERT INTO docs4 VALUES ('alpha beta'), ('gamma')");
            assertEquals(1, count(s, "SELECT count(*) FROM docs4 WHERE docs4 MATCH '(alpha OR delta) beta'"));
            s.execute("CREATE VIRTUAL TABLE boxes USING rtree(id, x0, x1)");
            s.execute("INSERT INTO boxes VALUES (1, 0, 10), (2, 20, 30)");
            assertEquals(1, count(s, "SELECT count(*) FROM boxes WHERE x0 <= 5 AND x1 >= 5"));
            assertEquals(3, count(s, "SELECT CAST(sqrt(9) AS INTEGER)"));
            assertEquals(2, count(s, "SELECT median(value) FROM json_each('[1,2,3]')"));
            assertEquals(3, count(s, "SELECT json_array_length('[1,2,3]')"));
            s.execute("CREATE TABLE t(x)");
            s.execute("INSERT INTO t VALUES (1), (2), (3)");
            s.execute("CREATE INDEX t_x ON t(x)");
            s.execute("ANALYZE");
            assertTrue(count(s, "SELECT count(*) FROM sqlite_stat4") > 0, "no STAT4 samples");
            assertTrue(count(s, "SELECT count(*) FROM dbstat WHERE name = 't'") > 0, "dbstat sees no page of t");
            assertEquals(0, count(s, "SELECT x'61' LIKE 'a'"), "LIKE matched a BLOB");
        }
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }
}
