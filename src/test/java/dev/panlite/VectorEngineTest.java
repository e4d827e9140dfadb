package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sqlite-vec in the engine: compiled into the bundled engine (src/main/native/bundled.c, the version
 * pinned in src/main/native/sqlite/Cargo.toml) and registered on each connection by the setting
 * vector_search, on by default; an engine without it (the system SQLite, libSQL) opens without it by
 * default and refuses vector_search=true. Binding vectors through JDBC is VectorJdbcTest's.
 */
class VectorEngineTest {
    /** The version build-sqlite.sh pins (SQLITE_VEC_VERSION), as vec_version() spells it. */
    static final String PINNED = "v0.1.9";

    @TempDir
    Path dir;

    private static void assumeBundled() {
        assumeTrue(SqliteLibrary.bundled(), "not on the bundled engine (" + SqliteLibrary.loadedFrom() + ")");
    }

    @Test
    void theBundledEngineHasThePinnedSqliteVecRegisteredByDefault() throws Exception {
        assumeBundled();
        assertEquals(PINNED, SqliteLibrary.sqliteVecVersion());
        try (Connection c = TestDb.open(dir)) {
            assertEquals(PINNED, TestDb.queryString(c, "SELECT vec_version()"));
            assertEquals(PINNED, c.unwrap(PanliteConnection.class).sqliteVecVersion());
            // the SQLite version stays what tools parse
            assertEquals(SqliteLibrary.version(), c.getMetaData().getDatabaseProductVersion());
        }
    }

    @Test
    void aVec0TableAnswersAKnnQuery() throws Exception {
        assumeBundled();
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE VIRTUAL TABLE items USING vec0(embedding float[3])",
                    "INSERT INTO items(rowid, embedding) VALUES (1, vec_f32('[1,2,3]')), (2, vec_f32('[10,10,10]')),"
                            + " (3, vec_f32('[1,2,4]'))");
            // a float32 vector is 4 bytes a dimension, little-endian
            assertEquals(12, TestDb.queryLong(c, "SELECT length(embedding) FROM items WHERE rowid = 1"));
            assertEquals("[1.000000,2.000000,3.000000]", TestDb.queryString(c, "SELECT vec_to_json(embedding) FROM items"
                    + " WHERE rowid = 1"));
            List<Long> rowids = new ArrayList<>();
            List<Double> distances = new ArrayList<>();
            try (PreparedStatement knn = c.prepareStatement(
                    "SELECT rowid, distance FROM items WHERE embedding MATCH ? AND k = ? ORDER BY distance")) {
                knn.setString(1, "[1,2,3.25]"); // a JSON text vector
                knn.setInt(2, 2);
                try (ResultSet rs = knn.executeQuery()) {
                    while (rs.next()) {
                        rowids.add(rs.getLong(1));
                        distances.add(rs.getDouble(2));
                    }
                }
            }
            assertEquals(List.of(1L, 3L), rowids, "the two nearest by L2 distance, nearest first");
            assertEquals(0.25, distances.get(0), 1e-6);
            assertEquals(0.75, distances.get(1), 1e-6);
        }
    }

    /**
     * The Hamming distance of bit vectors of 64 bits or a multiple counts the bits of each 64-bit word:
     * with __builtin_popcountl, a 32-bit long on Windows, the high half would not count (bundled.c maps
     * it to the 64-bit builtin). The differing bits here are all in the high half of the word.
     */
    @Test
    void theHammingDistanceCountsAllSixtyFourBitsOfAWord() throws Exception {
        assumeBundled();
        try (Connection c = TestDb.open(dir)) {
            assertEquals(3, TestDb.queryLong(c, "SELECT vec_distance_hamming(vec_bit(X'0000000000000000'),"
                    + " vec_bit(X'0000000001020400'))"));
            assertEquals(64, TestDb.queryLong(c, "SELECT vec_distance_hamming(vec_bit(X'0000000000000000'),"
                    + " vec_bit(X'FFFFFFFFFFFFFFFF'))"));
        }
    }

    /**
     * sqlite-vec reads JSON vectors with the C library's strtod, which follows LC_NUMERIC, and the JVM
     * sets LC_NUMERIC from the environment: under a comma-decimal locale '[1.5, 2.25]' failed and
     * '[1,5]' was the one number 1.5. bundled.c reads them with SQLite's own conversion. A child JVM
     * runs under de_DE.UTF-8, compiled by glibc's localedef into a temporary directory (LOCPATH).
     */
    @Test
    void jsonVectorsReadTheSameUnderACommaDecimalLocale() throws Exception {
        assumeBundled();
        assumeTrue(SqliteLibrary.loadedFrom().endsWith(".so") && !SqliteLibrary.loadedFrom().contains("musl"),
                "a glibc locale test");
        Path locales = dir.resolve("locales");
        java.nio.file.Files.createDirectories(locales);
        Process localedef;
        try {
            localedef = new ProcessBuilder("localedef", "-i", "de_DE", "-f", "UTF-8", locales.resolve("de_DE.UTF-8").toString())
                    .redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            assumeTrue(false, "no localedef to make a de_DE locale: " + e.getMessage());
            return;
        }
        String made = new String(localedef.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assumeTrue(localedef.waitFor() == 0 || java.nio.file.Files.exists(locales.resolve("de_DE.UTF-8/LC_NUMERIC")),
                "localedef could not make de_DE.UTF-8 (no locale sources?): " + made);
        ProcessBuilder child = ChildJvm.of(VectorLocaleChild.class).args("[1.5, 2.25]", "[1,5]", "[ -0.125 ,3e2]").builder();
        child.environment().keySet().removeIf(name -> name.startsWith("LC_"));
        child.environment().put("LANG", "de_DE.UTF-8");
        child.environment().put("LOCPATH", locales.toString());
        Map<String, String> r = ChildJvm.finish(child.start()).values();
        assertEquals("de_DE.UTF-8", r.get("numeric"), () -> "the child did not run under the comma locale: " + r);
        assertEquals("[1.500000,2.250000]", r.get("vector0"), r::toString);
        assertEquals("[1.000000,5.000000]", r.get("vector1"), r::toString);
        assertEquals("[-0.125000,300.000000]", r.get("vector2"), r::toString);
    }

    /**
     * What the JSON reader of bundled.c (SQLite's conversion, not strtod) accepts: JSON numbers, with
     * whitespace around them; not nan or inf, which are no JSON (strtod took them), nor a number out
     * of a double's range, which sqlite-vec refuses as before.
     */
    @Test
    void jsonVectorsHoldJsonNumbersOnly() throws Exception {
        assumeBundled();
        try (Connection c = TestDb.open(dir)) {
            assertEquals("[-0.500000,25.000000,0.000000,1.000000]",
                    TestDb.queryString(c, "SELECT vec_to_json(vec_f32('[ -0.5 ,2.5e1,0, 1E0 ]'))"));
            for (String notJson : new String[] {"[nan]", "[inf]", "[0x10]", "[1e400]", "[1e-400]", "[1.5.3]", "[1-2]"}) {
                SQLException e = assertThrows(SQLException.class,
                        () -> TestDb.queryString(c, "SELECT vec_to_json(vec_f32('" + notJson + "'))"), notJson);
                assertTrue(e.getMessage().contains("JSON parsing error"), notJson + ": " + e.getMessage());
            }
        }
    }

    @Test
    void vectorSearchFalseRegistersNothing() throws Exception {
        try (Connection c = TestDb.open(dir, "vector_search=false")) {
            SQLException e = assertThrows(SQLException.class,
                    () -> TestDb.exec(c, "CREATE VIRTUAL TABLE items USING vec0(embedding float[3])"));
            assertTrue(e.getMessage().contains("no such module: vec0"), e.getMessage());
            e = assertThrows(SQLException.class, () -> TestDb.queryString(c, "SELECT vec_version()"));
            assertTrue(e.getMessage().contains("no such function: vec_version"), e.getMessage());
            assertNull(c.unwrap(PanliteConnection.class).sqliteVecVersion());
        }
    }

    /** Only Panlite's entry points are exported: none of sqlite-vec's functions, whose names (array_append) are common. */
    @Test
    void theEngineExportsPanlitesEntryPointsNotSqliteVecsFunctions() {
        assumeBundled();
        SymbolLookup library = SymbolLookup.libraryLookup(Path.of(SqliteLibrary.loadedFrom()), Arena.global());
        assertTrue(library.find("panlite_vec_init").isPresent());
        assertTrue(library.find("panlite_vec_version").isPresent());
        assertTrue(library.find("sqlite3_open_v2").isPresent());
        for (String internal : new String[] {"sqlite3_vec_init", "sqlite3_vec_static_blobs_init", "array_append",
            "vec0Filter_knn", "bitmap_new"}) {
            assertFalse(library.find(internal).isPresent(), internal + " is exported by " + SqliteLibrary.loadedFrom());
        }
    }

    /** The engine line logged at load names sqlite-vec's version too (a child JVM: it is logged once per JVM). */
    @Test
    void theEngineLineNamesSqliteVec() throws Exception {
        assumeBundled();
        Map<String, String> r = LibraryLoadingTest.runChild(List.of("-Dpanlite.native.dir=" + dir.resolve("cache")));
        assertEquals("true", r.get("bundled"), r::toString);
        assertTrue(r.get("(output)").lines().anyMatch(l -> l.contains("Panlite uses the bundled SQLite " + r.get("version"))
                && l.endsWith(" from " + r.get("loadedFrom") + ", with sqlite-vec " + PINNED + " compiled in")), r::toString);
    }

    /** The system SQLite, libSQL: no sqlite-vec compiled in. The default opens without it; true is refused. */
    @Test
    void anEngineWithoutSqliteVecOpensByDefaultAndRefusesVectorSearchTrue() throws Exception {
        assumeTrue(SqliteLibrary.sqliteVecVersion() == null, "this engine has sqlite-vec compiled in");
        try (Connection c = TestDb.open(dir)) {
            assertNull(c.unwrap(PanliteConnection.class).sqliteVecVersion());
            SQLException e = assertThrows(SQLException.class,
                    () -> TestDb.exec(c, "CREATE VIRTUAL TABLE items USING vec0(embedding float[3])"));
            assertTrue(e.getMessage().contains("no such module: vec0"), e.getMessage());
        }
        SQLException e = assertThrows(SQLException.class, () -> TestDb.open(dir, "vector_search=true").close());
        assertInstanceOf(SQLNonTransientConnectionException.class, e);
        assertEquals("08001", e.getSQLState());
        assertTrue(e.getMessage().startsWith("vector_search=true: the loaded " + SqliteLibrary.engine() + " ("
                + SqliteLibrary.loadedFrom() + ") has no sqlite-vec compiled in"), e.getMessage());
        assertTrue(e.getMessage().contains("load_extensions"), e.getMessage());
    }

    @Test
    void vectorSearchTrueOnTheBundledEngineRegistersIt() throws Exception {
        assumeBundled();
        try (Connection c = TestDb.open(dir, "vector_search=true")) {
            assertEquals(PINNED, TestDb.queryString(c, "SELECT vec_version()"));
        }
    }

    @Test
    void theSettingIsValidatedAndDefaultsToTrue() throws Exception {
        assertEquals("true", Setting.VECTOR_SEARCH.defaultValue());
        SQLException e = assertThrows(SQLException.class, () -> TestDb.open(dir, "vector_search=maybe").close());
        assertTrue(e.getMessage().contains("vector_search"), e.getMessage());
        PanliteDataSource ds = new PanliteDataSource();
        ds.setUrl(TestDb.url(dir, "test.db", ""));
        ds.setVectorSearch("off");
        try (Connection c = ds.getConnection()) {
            assertNull(c.unwrap(PanliteConnection.class).sqliteVecVersion());
        }
    }
}
