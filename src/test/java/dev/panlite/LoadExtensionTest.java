package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.engine.Database;
import dev.panlite.ffi.Sqlite;
import dev.panlite.ffi.SqliteLibrary;
import dev.panlite.jdbc.JdbcConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extensions: {@link PanliteConnection#loadExtension} enables loading for its one C call (SQL's
 * load_extension() stays refused), the {@code load_extensions} setting loads a list at open, and
 * {@code enable_load_extension} alone lets SQL's load_extension() load. The extensions are built by
 * the test from C ({@link TestExtensions}), and sqlite-vec's own loadable build comes from its PyPI
 * package (tools/install-sqlite-vec.sh), on every engine of the run.
 */
class LoadExtensionTest {
    @TempDir
    Path dir;

    /** A library built from {@code source}, or the test is skipped with the reason it cannot be. */
    private Path build(String name, String source) throws IOException, InterruptedException {
        try {
            return TestExtensions.build(dir, name, source);
        } catch (TestExtensions.Unavailable e) {
            assumeTrue(false, e.getMessage());
            throw new AssertionError(e);
        }
    }

    private static int queryInt(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getInt(1);
        }
    }

    private static String sqlLoad(Path library) {
        return "SELECT load_extension('" + library.toString().replace("'", "''") + "')";
    }

    /** SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION of {@code c} now: 1 when the C function may load. */
    private static int loadingEnabled(Connection c) throws Exception {
        java.lang.reflect.Field field = JdbcConnection.class.getDeclaredField("db");
        field.setAccessible(true);
        Database db = (Database) field.get(c.unwrap(JdbcConnection.class));
        java.lang.reflect.Method handle = Database.class.getDeclaredMethod("handle");
        handle.setAccessible(true);
        try (var held = db.hold()) {
            return Sqlite.dbConfig((long) handle.invoke(db), Sqlite.DBCONFIG_ENABLE_LOAD_EXTENSION, -1);
        }
    }

    // ------------------------------------------------------------------ enable_load_extension: SQL's function

    @Test
    void enableLoadExtensionLetsSqlLoadAnExtension() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        try (Connection c = TestDb.open(dir, "enable_load_extension=true"); Statement s = c.createStatement()) {
            s.execute(sqlLoad(library));
            assertEquals(42, queryInt(c, "SELECT answer()"));
        }
    }

    @Test
    void offByDefaultSqlIsRefused() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.execute(sqlLoad(library)));
            assertTrue(e.getMessage().contains("not authorized"), e.getMessage());
            assertFalse(Boolean.parseBoolean(c.unwrap(PanliteConnection.class).config()
                    .get(Setting.ENABLE_LOAD_EXTENSION)));
        }
    }

    // ------------------------------------------------------------------ loadExtension: the API

    @Test
    void loadExtensionLoadsIntoThisConnectionOnly() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        try (Connection c = TestDb.open(dir); Connection other = TestDb.open(dir)) {
            c.unwrap(PanliteConnection.class).loadExtension(library, null); // SQLite's rule: sqlite3_extension_init
            assertEquals(42, queryInt(c, "SELECT answer()"));
            SQLException e = assertThrows(SQLException.class, () -> queryInt(other, "SELECT answer()"));
            assertTrue(e.getMessage().contains("no such function: answer"), e.getMessage());
        }
    }

    @Test
    void loadExtensionCallsTheEntryPointNamed() throws Exception {
        Path library = build("other.so", TestExtensions.OTHER);
        try (Connection c = TestDb.open(dir)) {
            c.unwrap(PanliteConnection.class).loadExtension(library, "sqlite3_other_init");
            assertEquals(7, queryInt(c, "SELECT other()"));
        }
    }

    @Test
    void aNameWithoutItsSuffixIsTriedWithIt() throws Exception {
        Path library = build("failing.so", TestExtensions.FAILING);
        try (Connection c = TestDb.open(dir)) {
            SQLException e = assertThrows(SQLException.class,
                    () -> c.unwrap(PanliteConnection.class).loadExtension(dir.resolve("failing"), null));
            assertTrue(e.getMessage().contains("refused on purpose"), e.getMessage()); // found and run
            assertEquals(21, queryInt(c, "SELECT half()"), "the library with the suffix is the one kept mapped");
        }
    }

    @Test
    void sqlLoadExtensionStaysRefusedAfterLoadExtension() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        Path other = build("other.so", TestExtensions.OTHER);
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            assertEquals(0, loadingEnabled(c));
            c.unwrap(PanliteConnection.class).loadExtension(library, null);
            assertEquals(0, loadingEnabled(c), "loading was enabled for the one call only");
            SQLException e = assertThrows(SQLException.class, () -> s.execute(sqlLoad(other)));
            assertTrue(e.getMessage().contains("not authorized"), e.getMessage());
        }
    }

    @Test
    void withEnableLoadExtensionBothWorkAndStayOn() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        Path other = build("other.so", TestExtensions.OTHER);
        try (Connection c = TestDb.open(dir, "enable_load_extension=true"); Statement s = c.createStatement()) {
            c.unwrap(PanliteConnection.class).loadExtension(library, null);
            assertEquals(1, loadingEnabled(c), "what the setting enabled is put back, not turned off");
            s.execute("SELECT load_extension('" + other.toString().replace("'", "''") + "', 'sqlite3_other_init')");
            assertEquals(42, queryInt(c, "SELECT answer()"));
            assertEquals(7, queryInt(c, "SELECT other()"));
        }
    }

    @Test
    void aRelativePathIsTakenFromTheWorkingDirectoryNeverSearched() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        Path cwd = Path.of("").toAbsolutePath();
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.loadExtension(cwd.relativize(library), null);
            assertEquals(42, queryInt(c, "SELECT answer()"));
            // a bare name that the dynamic loader would find on its search path (libc) is a file here, not found
            SQLException e = assertThrows(SQLException.class, () -> p.loadExtension(Path.of("libc.so.6"), null));
            assertTrue(e.getMessage().contains("'" + cwd.resolve("libc.so.6") + "'"), e.getMessage());
        }
    }

    // ------------------------------------------------------------------ loadExtension: errors

    /** Fails to load {@code library} and checks the message names the path and carries SQLite's {@code sqliteSays}. */
    private static SQLException failsToLoad(Connection c, Path library, String entryPoint, String sqliteSays) throws SQLException {
        SQLException e = assertThrows(SQLException.class,
                () -> c.unwrap(PanliteConnection.class).loadExtension(library, entryPoint));
        String m = e.getMessage();
        assertTrue(m.startsWith("Cannot load the extension '" + library.toAbsolutePath() + "'"), m);
        assertTrue(m.contains(sqliteSays), "(" + sqliteSays + ") is missing: " + m);
        assertTrue(m.matches("Cannot load the extension '[^']*'( \\([^)]*\\))*: .+ \\[SQLITE_ERROR\\]"), "SQLite's message is missing: " + m);
        assertTrue(m.endsWith("[SQLITE_ERROR]"), m);
        assertEquals("HY000", e.getSQLState(), m);
        assertEquals(1, e.getErrorCode(), m);
        assertEquals(1, queryInt(c, "SELECT 1"), "the connection still works");
        return e;
    }

    @Test
    void aMissingFileNamesThePathAndSqlitesMessage() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            failsToLoad(c, dir.resolve("missing.so"), null, "(no such file): ");
        }
    }

    @Test
    void aFileThatIsNoLibrary() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.so"), "not a shared library\n");
        try (Connection c = TestDb.open(dir)) {
            failsToLoad(c, text, null, "(not a shared library this process can load): ");
        }
    }

    @Test
    void aLibraryBuiltForAnotherMachine() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "patches an ELF header");
        Path library = build("answer.so", TestExtensions.ANSWER);
        byte[] elf = Files.readAllBytes(library);
        int machine = (elf[18] & 0xff) | (elf[19] & 0xff) << 8;
        int foreign = machine == 183 ? 62 : 183; // EM_AARCH64, EM_X86_64
        elf[18] = (byte) foreign;
        elf[19] = (byte) (foreign >> 8);
        Path alien = Files.write(dir.resolve("alien.so"), elf);
        try (Connection c = TestDb.open(dir)) {
            failsToLoad(c, alien, null, "(not a shared library this process can load): ");
        }
    }

    @Test
    void aLibraryThatIsNoExtensionHasNoEntryPoint() throws Exception {
        Path library = build("libplain.so", TestExtensions.PLAIN);
        try (Connection c = TestDb.open(dir)) {
            // SQLite's rule tries sqlite3_extension_init, then sqlite3_plain_init (the name without lib and suffix)
            failsToLoad(c, library, null, "sqlite3_");
        }
    }

    @Test
    void aMissingEntryPoint() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        try (Connection c = TestDb.open(dir)) {
            SQLException e = failsToLoad(c, library, "sqlite3_nope_init", "sqlite3_nope_init");
            assertTrue(e.getMessage().contains("(entry point sqlite3_nope_init)"), e.getMessage());
            assertThrows(SQLException.class, () -> queryInt(c, "SELECT answer()")); // nothing was registered
        }
    }

    /**
     * An entry point that is a variable, not a function: SQLite would call it (the JVM crashed, executing
     * data). Refused before SQLite is asked, by its default name and by a name given; Linux only
     * (where the process's mappings can be read).
     */
    @Test
    void anEntryPointThatIsAVariableIsRefusedNotCalled() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "reads /proc/self/maps");
        Path library = build("notcode.so", TestExtensions.NOT_CODE);
        try (Connection c = TestDb.open(dir)) {
            SQLException byDefault = failsToLoad(c, library, null, "the entry point sqlite3_extension_init is not a function");
            assertTrue(byDefault.getMessage().contains("not in executable memory"), byDefault.getMessage());
            failsToLoad(c, library, "not_code", "the entry point not_code is not a function");
            // a function of the same library still loads: the guard looks at the symbol, not the file
            Path answer = build("answer.so", TestExtensions.ANSWER);
            c.unwrap(PanliteConnection.class).loadExtension(answer, null);
            assertEquals(42, queryInt(c, "SELECT answer()"));
        }
        // and through the load_extensions setting, at open
        SQLException atOpen = assertThrows(SQLException.class, () -> TestDb.open(dir, "load_extensions="
                + java.net.URLEncoder.encode(library + "!not_code", java.nio.charset.StandardCharsets.UTF_8)).close());
        assertTrue(atOpen.getMessage().contains("not_code is not a function"), atOpen.getMessage());
    }

    @Test
    void aFailingEntryPoint() throws Exception {
        Path library = build("failing.so", TestExtensions.FAILING);
        try (Connection c = TestDb.open(dir)) {
            failsToLoad(c, library, null, "refused on purpose");
        }
    }

    /**
     * SQLite unloads a library whose entry point failed, even when it registered a function first:
     * calling that function jumped into unmapped memory (a JVM crash, so a child JVM runs it). The
     * driver keeps the library mapped until the connection closes.
     */
    @Test
    void aFunctionLeftByAFailedEntryPointStaysCallable() throws Exception {
        Path library = build("failing.so", TestExtensions.FAILING);
        Map<String, String> r = ChildJvm.of(LoadExtensionChild.class)
                .options("-XX:ErrorFile=" + dir.resolve("hs_err.log"), "-XX:-CreateCoredumpOnCrash") // not in the working directory
                .args(dir.resolve("t.db").toString(), library.toString()).run().values();
        assertTrue(r.get("load").startsWith("SQLException HY000 Cannot load the extension"), r::toString);
        assertTrue(r.get("load").contains("refused on purpose"), r::toString);
        assertEquals("21", r.get("half"), r::toString);
        assertEquals("closed", r.get("close"), r::toString);
    }

    @Test
    void badArguments() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            assertEquals("HY024", assertThrows(SQLException.class, () -> p.loadExtension(null, null)).getSQLState());
            assertEquals("HY024", assertThrows(SQLException.class, () -> p.loadExtension(library, "")).getSQLState());
            assertEquals("HY024", assertThrows(SQLException.class, () -> p.loadExtension(library, "a\0b")).getSQLState());
        }
    }

    @Test
    void aClosedConnectionRefusesWith08003() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        Connection c = TestDb.open(dir);
        PanliteConnection p = c.unwrap(PanliteConnection.class);
        c.close();
        SQLException e = assertThrows(SQLException.class, () -> p.loadExtension(library, null));
        assertEquals("08003", e.getSQLState(), e.getMessage());
    }

    @Test
    void refusedInsideACallbackOfItsConnection() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.createFunction("load_from_sql", 0, false, args -> {
                p.loadExtension(library, null);
                return 1;
            });
            SQLException e = assertThrows(SQLException.class, () -> queryInt(c, "SELECT load_from_sql()"));
            assertTrue(e.getMessage().contains("cannot run inside a callback of this connection"), e.getMessage());
            p.loadExtension(library, null); // and outside it, it loads
            assertEquals(42, queryInt(c, "SELECT answer()"));
        }
    }

    @Test
    void twoThreadsLoadingOnOneConnectionTakeTurns() throws Exception {
        Path answer = build("answer.so", TestExtensions.ANSWER);
        Path other = build("other.so", TestExtensions.OTHER);
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            CountDownLatch start = new CountDownLatch(1);
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < 50; i++) {
                            if (id == 0) {
                                p.loadExtension(answer, null);
                            } else {
                                p.loadExtension(other, "sqlite3_other_init");
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads) {
                t.join(TestDb.GUARD_MILLIS);
            }
            assertEquals(List.of(), failures);
            assertEquals(42, queryInt(c, "SELECT answer()"));
            assertEquals(7, queryInt(c, "SELECT other()"));
            assertEquals(0, loadingEnabled(c));
        }
    }

    // ------------------------------------------------------------------ pooled connections

    @Test
    void throughAPooledHandleItStaysForTheLifeOfThePhysicalConnection() throws Exception {
        Path library = build("answer.so", TestExtensions.ANSWER);
        PooledConnection pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "pool.db", "")).getPooledConnection();
        try {
            Connection first = pooled.getConnection();
            first.unwrap(PanliteConnection.class).loadExtension(library, null);
            ((PanliteConnection) first).loadExtension(library, null); // the handle itself is a PanliteConnection
            assertEquals(42, queryInt(first, "SELECT answer()"));
            first.close();
            SQLException closed = assertThrows(SQLException.class,
                    () -> ((PanliteConnection) first).loadExtension(library, null));
            assertEquals("08003", closed.getSQLState(), closed.getMessage());
            try (Connection next = pooled.getConnection()) { // the pool's reset cannot unload it: documented
                assertEquals(42, queryInt(next, "SELECT answer()"));
                assertEquals(0, loadingEnabled(next));
            }
        } finally {
            pooled.close();
        }
    }

    // ------------------------------------------------------------------ load_extensions: the URL setting

    @Test
    void theUrlSettingLoadsTheListAtOpen() throws Exception {
        Path answer = build("answer.so", TestExtensions.ANSWER);
        Path other = build("other.so", TestExtensions.OTHER);
        String list = answer + "|" + other + "!sqlite3_other_init";
        try (Connection c = TestDb.open(dir, "load_extensions=" + java.net.URLEncoder.encode(list, "UTF-8"));
                Statement s = c.createStatement()) {
            assertEquals(42, queryInt(c, "SELECT answer()"));
            assertEquals(7, queryInt(c, "SELECT other()"));
            assertEquals(list, c.unwrap(PanliteConnection.class).config().get(Setting.LOAD_EXTENSIONS));
            assertEquals(0, loadingEnabled(c));
            SQLException e = assertThrows(SQLException.class, () -> s.execute(sqlLoad(answer)));
            assertTrue(e.getMessage().contains("not authorized"), e.getMessage());
        }
        PanliteDataSource ds = new PanliteDataSource(TestDb.url(dir, "ds.db", ""));
        ds.setLoadExtensions(other + "!sqlite3_other_init");
        assertEquals(other + "!sqlite3_other_init", ds.getLoadExtensions());
        try (Connection c = ds.getConnection()) {
            assertEquals(7, queryInt(c, "SELECT other()"));
        }
        Properties info = new Properties();
        info.setProperty("load_extensions", " " + answer + " | "); // blanks around entries and empty ones pass
        try (Connection c = new Driver().connect(TestDb.url(dir, "props.db", ""), info)) {
            assertEquals(42, queryInt(c, "SELECT answer()"));
        }
    }

    @Test
    void aLibraryThatFailsFailsTheOpenAndClosesTheHandle() throws Exception {
        Path answer = build("answer.so", TestExtensions.ANSWER);
        Path failing = build("failing.so", TestExtensions.FAILING);
        for (String list : List.of(answer + "|" + dir.resolve("missing.so"), failing.toString(),
                answer + "!sqlite3_nope_init")) {
            String name = "fails" + Integer.toHexString(list.hashCode()) + ".db";
            Properties info = new Properties();
            info.setProperty("load_extensions", list);
            SQLException e = assertThrows(SQLException.class, () -> new Driver().connect(TestDb.url(dir, name, ""), info));
            assertTrue(e.getMessage().startsWith("Cannot load the extension '"), e.getMessage());
            assertTrue(e.getMessage().contains(list.contains("missing") ? "missing.so" : list.contains("nope")
                    ? "sqlite3_nope_init" : "refused on purpose"), e.getMessage());
            PanliteStats stats = PanliteStats.snapshot(name);
            assertEquals(1, stats.connectionsOpened(), list);
            assertEquals(0, stats.connectionsOpen(), "the handle was closed: " + list);
        }
    }

    @Test
    void theUrlSyntaxIsCheckedBeforeOpening() {
        for (String[] bad : new String[][] {
                {"/x/a!b/c.so", "is not a C name"}, {"/x/a.so!sqlite3-init", "is not a C name"}, {"!entry", "names no library"}}) {
            Properties info = new Properties();
            info.setProperty("load_extensions", bad[0]);
            SQLException e = assertThrows(SQLException.class, () -> Config.parse(TestDb.url(dir, "t.db", ""), info));
            assertEquals("HY024", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("load_extensions") && e.getMessage().contains(bad[1]), e.getMessage());
        }
    }

    @Test
    void theUrlSyntaxReadsWindowsPathsAndBangs() throws SQLException {
        Properties info = new Properties();
        info.setProperty("load_extensions", "C:\\ext\\vec0.dll|C:\\ext\\geo.dll!geo_init|/odd!dir/lib.so!|/a!b!");
        Config config = Config.parse(TestDb.url(dir, "t.db", ""), info);
        assertEquals(List.of(new dev.panlite.engine.Extensions.Library("C:\\ext\\vec0.dll", null),
                new dev.panlite.engine.Extensions.Library("C:\\ext\\geo.dll", "geo_init"),
                new dev.panlite.engine.Extensions.Library("/odd!dir/lib.so", null),
                new dev.panlite.engine.Extensions.Library("/a!b", null)), Config.extensions(config.get(Setting.LOAD_EXTENSIONS)));
        assertEquals("C:\\ext\\vec0.dll|C:\\ext\\geo.dll!geo_init|/odd!dir/lib.so!|/a!b!", config.get(Setting.LOAD_EXTENSIONS));
    }

    // ------------------------------------------------------------------ sqlite-vec's loadable build

    private static Path sqliteVec() throws IOException, InterruptedException {
        try {
            return TestExtensions.sqliteVec();
        } catch (TestExtensions.Unavailable e) {
            assumeTrue(false, e.getMessage());
            throw new AssertionError(e);
        }
    }

    /** A vec0 KNN query: the two rows nearest [1,2,3] by L2 distance. */
    private static void knn(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE VIRTUAL TABLE v USING vec0(embedding float[3])");
            s.execute("INSERT INTO v(rowid, embedding) VALUES (1, '[1,2,3]'), (2, '[2,2,2]'), (3, '[9,9,9]')");
            try (ResultSet rs = s.executeQuery(
                    "SELECT rowid, distance FROM v WHERE embedding MATCH '[1,2,3]' AND k = 2 ORDER BY distance")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1));
                assertEquals(0.0, rs.getDouble(2), 1e-6);
                assertTrue(rs.next());
                assertEquals(2, rs.getLong(1));
                assertEquals(Math.sqrt(2), rs.getDouble(2), 1e-6);
                assertFalse(rs.next());
            }
            try (ResultSet rs = s.executeQuery("SELECT vec_version()")) {
                assertTrue(rs.next());
                assertEquals("v0.1.9", rs.getString(1));
            }
        }
    }

    /**
     * The bundled engine has sqlite-vec compiled in (vector_search): loading its loadable build too is
     * harmless. Its entry point registers the same functions and module again, replacing them for new
     * statements; a vec0 table made before keeps working, and so do new ones.
     */
    @Test
    void onAnEngineWithSqliteVecBuiltInLoadingTheLoadableTooIsHarmless() throws Exception {
        Path vec = sqliteVec();
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            String builtIn;
            try (ResultSet rs = s.executeQuery("SELECT vec_version()")) {
                rs.next();
                builtIn = rs.getString(1);
            } catch (SQLException none) {
                assumeTrue(false, "this engine has no sqlite-vec compiled in (" + SqliteLibrary.engine() + "): " + none.getMessage());
                return;
            }
            assertEquals("v0.1.9", builtIn, "the loadable build is the version compiled in");
            s.execute("CREATE VIRTUAL TABLE before_load USING vec0(embedding float[3])");
            s.execute("INSERT INTO before_load(rowid, embedding) VALUES (1, '[1,2,3]'), (2, '[2,2,2]')");
            c.unwrap(PanliteConnection.class).loadExtension(vec, null);
            s.execute("INSERT INTO before_load(rowid, embedding) VALUES (3, '[9,9,9]')");
            try (ResultSet rs = s.executeQuery("SELECT group_concat(rowid) FROM (SELECT rowid FROM before_load"
                    + " WHERE embedding MATCH '[9,9,8]' AND k = 2 ORDER BY distance)")) {
                rs.next();
                assertEquals("3,2", rs.getString(1));
            }
            knn(c);
        }
    }

    @Test
    void sqliteVecLoadableRunsAKnnQuery() throws Exception {
        Path vec = sqliteVec(); // on the system engine (and libSQL) the only sqlite-vec there is
        try (Connection c = TestDb.open(dir)) {
            if (dev.panlite.ffi.VectorSearch.version() == null) { // no sqlite-vec compiled into this engine
                SQLException none = assertThrows(SQLException.class, () -> queryInt(c, "SELECT vec_version()"));
                assertTrue(none.getMessage().contains("no such function: vec_version"), none.getMessage());
            }
            c.unwrap(PanliteConnection.class).loadExtension(vec, null); // sqlite3_vec_init, by SQLite's rule
            knn(c);
        }
        try (Connection c = TestDb.open(dir, "load_extensions=" + vec + "!sqlite3_vec_init")) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE v");
            }
            knn(c);
        }
    }

    /**
     * An entry point that fails without a message of its own (a function it cannot replace while a
     * statement of the connection is active) is reported with SQLite's reason, not "error during
     * initialization: " and nothing (the adversarial review's break 3).
     */
    @Test
    void loadingAnExtensionAgainWithAQueryOpenNamesWhyItFailed() throws Exception {
        Path library;
        try {
            library = TestExtensions.build(dir, "libanswer.so", TestExtensions.ANSWER);
        } catch (TestExtensions.Unavailable e) {
            assumeTrue(false, e.getMessage());
            return;
        }
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.loadExtension(library, "sqlite3_extension_init");
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1);
                try (ResultSet open = s.executeQuery("SELECT 1 UNION ALL SELECT 2")) {
                    assertTrue(open.next());
                    SQLException e = assertThrows(SQLException.class, () -> p.loadExtension(library, "sqlite3_extension_init"));
                    assertTrue(e.getMessage().contains("active statements"), "the reason is lost: " + e.getMessage());
                }
            }
            p.loadExtension(library, "sqlite3_extension_init"); // with nothing open, again: replaced
        }
    }
}
