package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The java.sql.Driver contract and what the URL forms and settings do to a real connection. */
class DriverTest {
    @TempDir
    Path dir;

    final Driver driver = new Driver();

    private Connection connect(String url) throws SQLException {
        return connect(url, new Properties());
    }

    private Connection connect(String url, Properties p) throws SQLException {
        Connection c = driver.connect(url, p);
        assertNotNull(c, "connect returned null for " + url);
        return c;
    }

    /**
     * The busy_timeout the connection waits by: the driver's Java-side wait honours it, and reading
     * PRAGMA busy_timeout returns it, while SQLite's own stays 0 so SQLite never sleeps inside a call
     * (BusyTimeoutPragmaTest).
     */
    private static String busyTimeout(Connection c) throws SQLException {
        String configured = String.valueOf(c.unwrap(dev.panlite.PanliteConnection.class).config().busyTimeoutMillis());
        assertEquals(configured, TestDb.queryString(c, "PRAGMA busy_timeout"), "reading it returns the wait in force");
        return configured;
    }

    private static void roundTrip(Connection c) throws SQLException {
        TestDb.exec(c, "CREATE TABLE rt(x)", "INSERT INTO rt VALUES (41)");
        assertEquals("42", TestDb.queryString(c, "SELECT x + 1 FROM rt"));
    }

    @Test
    void acceptsURL() throws SQLException {
        assertTrue(driver.acceptsURL("jdbc:sqlite:"));
        assertTrue(driver.acceptsURL("jdbc:sqlite::memory:"));
        assertTrue(driver.acceptsURL("jdbc:sqlite:/tmp/x.db"));
        assertTrue(driver.acceptsURL("jdbc:sqlite:file:x?mode=memory"));
        assertFalse(driver.acceptsURL("jdbc:postgresql://localhost/db"));
        assertFalse(driver.acceptsURL("jdbc:sqlite"));
        assertFalse(driver.acceptsURL("sqlite::memory:"));
        assertFalse(driver.acceptsURL(""));
        assertFalse(driver.acceptsURL(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://localhost/db", "jdbc:h2:mem:x", "jdbc:sqlite", "jdbc:mysql:", "x"})
    void connectReturnsNullForOtherUrls(String url) throws SQLException {
        assertNull(driver.connect(url, new Properties()));
        assertNull(driver.connect(url, null));
    }

    @Test
    void emptyPathIsATemporaryDatabase() throws SQLException {
        try (Connection a = connect("jdbc:sqlite:"); Connection b = connect("jdbc:sqlite:")) {
            roundTrip(a);
            // each temporary database is private
            ErrorsTest.expectSql(() -> TestDb.queryString(b, "SELECT x FROM rt"));
        }
    }

    @Test
    void memoryDatabase() throws SQLException {
        try (Connection a = connect("jdbc:sqlite::memory:"); Connection b = connect("jdbc:sqlite::memory:")) {
            roundTrip(a);
            ErrorsTest.expectSql(() -> TestDb.queryString(b, "SELECT x FROM rt"));
        }
    }

    @Test
    void sharedCacheMemoryDatabaseIsShared() throws SQLException, IOException {
        String url = "jdbc:sqlite:file:panlite_driver_test_" + System.nanoTime() + "?mode=memory&cache=shared";
        try (Connection a = connect(url); Connection b = connect(url)) {
            roundTrip(a);
            assertEquals("41", TestDb.queryString(b, "SELECT x FROM rt"));
            TestDb.exec(b, "INSERT INTO rt VALUES (1)");
            assertEquals("2", TestDb.queryString(a, "SELECT count(*) FROM rt"));
        }
        // no file by that name appears in the working directory
        try (var files = Files.list(Path.of("."))) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("panlite_driver_test_")));
        }
    }

    @Test
    void plainPathCreatesTheFile() throws SQLException {
        Path file = dir.resolve("plain.db");
        assertFalse(Files.exists(file));
        try (Connection c = connect("jdbc:sqlite:" + file)) {
            roundTrip(c);
        }
        assertTrue(Files.exists(file));
        try (Connection c = connect("jdbc:sqlite:" + file)) {
            assertEquals("41", TestDb.queryString(c, "SELECT x FROM rt"));
        }
    }

    @Test
    void uriReadOnlyMode() throws SQLException {
        Path file = dir.resolve("ro.db");
        try (Connection c = connect("jdbc:sqlite:" + file)) {
            roundTrip(c);
        }
        try (Connection ro = connect("jdbc:sqlite:file:" + file + "?mode=ro")) {
            assertTrue(ro.isReadOnly());
            assertEquals("41", TestDb.queryString(ro, "SELECT x FROM rt"));
            SQLException e = ErrorsTest.expectSql(() -> TestDb.exec(ro, "INSERT INTO rt VALUES (2)"));
            assertEquals(8, e.getErrorCode(), e::toString);
        }
    }

    @Test
    void propertiesOverrideTheUrl() throws SQLException {
        Properties p = new Properties();
        p.setProperty("busy_timeout", "2222");
        try (Connection c = connect(TestDb.url(dir, "p.db", "busy_timeout=1111"), p)) {
            assertEquals("2222", busyTimeout(c));
        }
        try (Connection c = connect(TestDb.url(dir, "p.db", "busy_timeout=1111"))) {
            assertEquals("1111", busyTimeout(c));
        }
        Properties fk = new Properties();
        fk.setProperty("foreign_keys", "false");
        try (Connection c = connect(TestDb.url(dir, "p.db", "foreign_keys=true"), fk)) {
            assertEquals("0", TestDb.queryString(c, "PRAGMA foreign_keys"));
        }
    }

    @Test
    void userIsIgnoredAndAnEmptyPasswordIsNoKey() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "sa");
        p.setProperty("password", "");
        try (Connection c = connect(TestDb.url(dir, "u.db", ""), p)) {
            roundTrip(c);
        }
        try (Connection c = DriverManager.getConnection(TestDb.url(dir, "u2.db", ""), "sa", "")) {
            roundTrip(c);
        }
    }

    @Test
    void propertyInfoListsEverySetting() {
        DriverPropertyInfo[] info = driver.getPropertyInfo("jdbc:sqlite::memory:", new Properties());
        assertEquals(Setting.values().length, info.length);
        List<String> names = new ArrayList<>();
        for (DriverPropertyInfo i : info) {
            names.add(i.name);
        }
        for (Setting s : Setting.values()) {
            int at = names.indexOf(s.key());
            assertTrue(at >= 0, "getPropertyInfo misses " + s.key());
            DriverPropertyInfo i = info[at];
            assertEquals(s.defaultValue(), i.value, s.key());
            assertArrayEquals(s.choices(), i.choices, s.key());
            assertNotNull(i.description, s.key());
            assertFalse(i.description.isBlank(), s.key());
            assertFalse(i.required, s.key());
        }
        assertEquals(names.size(), new java.util.HashSet<>(names).size(), "duplicate names: " + names);
        DriverPropertyInfo journal = info[names.indexOf("journal_mode")];
        assertTrue(List.of(journal.choices).contains("WAL"), List.of(journal.choices)::toString);
        DriverPropertyInfo bool = info[names.indexOf("foreign_keys")];
        assertArrayEquals(new String[] {"true", "false"}, bool.choices);
    }

    @Test
    void propertyInfoShowsGivenValues() {
        Properties p = new Properties();
        p.setProperty("journal_mode", "wal");
        DriverPropertyInfo[] info = driver.getPropertyInfo("jdbc:sqlite::memory:?busy_timeout=77", p);
        for (DriverPropertyInfo i : info) {
            if (i.name.equals("busy_timeout")) {
                assertEquals("77", i.value);
            } else if (i.name.equals("journal_mode")) {
                assertEquals("WAL", i.value);
            }
        }
    }

    @Test
    void walJournalMode() throws SQLException {
        try (Connection c = connect(TestDb.url(dir, "wal.db", "journal_mode=WAL"))) {
            assertEquals("wal", TestDb.queryString(c, "PRAGMA journal_mode"));
            roundTrip(c);
        }
        try (Connection c = connect(TestDb.url(dir, "delete.db", ""))) {
            assertEquals("delete", TestDb.queryString(c, "PRAGMA journal_mode"), "WAL without asking for it");
        }
    }

    @Test
    void foreignKeys() throws SQLException {
        try (Connection c = connect(TestDb.url(dir, "fk.db", "foreign_keys=true"))) {
            assertEquals("1", TestDb.queryString(c, "PRAGMA foreign_keys"));
        }
        try (Connection c = connect(TestDb.url(dir, "fk.db", "foreign_keys=false"))) {
            assertEquals("0", TestDb.queryString(c, "PRAGMA foreign_keys"));
        }
        assumeTrue(dev.panlite.ffi.SqliteLibrary.libsqlVersion() == null, "libSQL as the crate libsql-ffi builds it"
                + " (SQLITE_DEFAULT_FOREIGN_KEYS=1) enforces foreign keys unless told not to; SQLite's default is off"
                + " (a difference the README lists)");
        try (Connection c = connect(TestDb.url(dir, "fk.db", ""))) {
            assertEquals("0", TestDb.queryString(c, "PRAGMA foreign_keys"));
        }
    }

    @Test
    void busyTimeout() throws SQLException {
        try (Connection c = connect(TestDb.url(dir, "b.db", "busy_timeout=1234"))) {
            assertEquals("1234", busyTimeout(c));
        }
        try (Connection c = connect(TestDb.url(dir, "b.db", ""))) {
            assertEquals(Setting.BUSY_TIMEOUT.defaultValue(), busyTimeout(c));
        }
    }

    @Test
    void cacheSize() throws SQLException {
        try (Connection c = connect(TestDb.url(dir, "cs.db", "cache_size=-4321"))) {
            assertEquals("-4321", TestDb.queryString(c, "PRAGMA cache_size"));
        }
        try (Connection c = connect(TestDb.url(dir, "cs.db", "cache_size=777"))) {
            assertEquals("777", TestDb.queryString(c, "PRAGMA cache_size"));
        }
    }

    @Test
    void sqlLengthLimit() throws SQLException {
        try (Connection c = connect(TestDb.url(dir, "l.db", "limit_sql_length=1000"))) {
            String shortSql = "SELECT 1";
            String longSql = "SELECT 1 " + " ".repeat(1100) + "+ 1";
            assertEquals("1", TestDb.queryString(c, shortSql));
            SQLException viaStatement = ErrorsTest.expectSql(() -> TestDb.queryString(c, longSql));
            assertEquals(18, viaStatement.getErrorCode(), viaStatement::toString); // SQLITE_TOOBIG
            SQLException viaPrepared = ErrorsTest.expectSql(() -> c.prepareStatement(longSql).close());
            assertEquals(18, viaPrepared.getErrorCode(), viaPrepared::toString);
            assertEquals("1", TestDb.queryString(c, shortSql));
        }
        try (Connection c = connect(TestDb.url(dir, "l.db", ""))) {
            assertEquals("2", TestDb.queryString(c, "SELECT 1 " + " ".repeat(1100) + "+ 1"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "journal_mode=WAL;DROP TABLE victim",
            "journal_mode=WAL%3B%20DROP%20TABLE%20victim",
            "cache_size=1;DROP TABLE victim",
            "cache_size=1%3BDROP%20TABLE%20victim",
            "busy_timeout=1);DROP TABLE victim;--",
            "synchronous=OFF'; DROP TABLE victim; --",
            "foreign_keys=true; DROP TABLE victim"})
    void injectionInTheUrlIsRejectedBeforeAnythingRuns(String query) throws SQLException {
        Path victimDb = dir.resolve("victim.db");
        try (Connection c = connect("jdbc:sqlite:" + victimDb)) {
            TestDb.exec(c, "CREATE TABLE victim(x)");
        }
        long size = fileSize(victimDb);
        SQLException e = ErrorsTest.expectSql(() -> driver.connect("jdbc:sqlite:" + victimDb + "?" + query, new Properties()));
        assertTrue(e.getMessage().contains(query.substring(0, query.indexOf('='))), "setting not named: " + e.getMessage());
        try (Connection c = connect("jdbc:sqlite:" + victimDb)) {
            assertEquals("0", TestDb.queryString(c, "SELECT count(*) FROM victim"));
        }
        assertEquals(size, fileSize(victimDb));
        // and nothing was opened: a new file is not even created
        Path fresh = dir.resolve("fresh.db");
        ErrorsTest.expectSql(() -> driver.connect("jdbc:sqlite:" + fresh + "?" + query, new Properties()));
        assertFalse(Files.exists(fresh), "the database was opened before the settings were checked");
    }

    @Test
    void injectionThroughPropertiesIsRejected() throws SQLException {
        Path victimDb = dir.resolve("victim.db");
        try (Connection c = connect("jdbc:sqlite:" + victimDb)) {
            TestDb.exec(c, "CREATE TABLE victim(x)");
        }
        for (String[] kv : new String[][] {
                {"journal_mode", "WAL; DROP TABLE victim"},
                {"cache_size", "1; DROP TABLE victim"},
                {"user_version", "1; DROP TABLE victim"},
                {"temp_store", "MEMORY; DROP TABLE victim"}}) {
            Properties p = new Properties();
            p.setProperty(kv[0], kv[1]);
            SQLException e = ErrorsTest.expectSql(() -> driver.connect("jdbc:sqlite:" + victimDb, p));
            assertTrue(e.getMessage().contains(kv[0]), e.getMessage());
        }
        try (Connection c = connect("jdbc:sqlite:" + victimDb)) {
            assertEquals("0", TestDb.queryString(c, "SELECT count(*) FROM victim"));
        }
        // an encoded value is decoded once and then validated, never passed on
        String encoded = URLEncoder.encode("DELETE; DROP TABLE victim", StandardCharsets.UTF_8);
        ErrorsTest.expectSql(() -> driver.connect("jdbc:sqlite:" + victimDb + "?journal_mode=" + encoded, null));
        try (Connection c = connect("jdbc:sqlite:" + victimDb)) {
            assertEquals("0", TestDb.queryString(c, "SELECT count(*) FROM victim"));
        }
    }

    private static long fileSize(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void serviceFileNamesTheDriver() throws IOException {
        List<URL> files = Collections.list(getClass().getClassLoader().getResources("META-INF/services/java.sql.Driver"));
        boolean found = false;
        for (URL url : files) {
            try (InputStream in = url.openStream()) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                found |= text.lines().map(String::trim).anyMatch("dev.panlite.Driver"::equals);
            }
        }
        assertTrue(found, "no META-INF/services/java.sql.Driver names dev.panlite.Driver: " + files);
        boolean loaded = false;
        for (java.sql.Driver d : ServiceLoader.load(java.sql.Driver.class)) {
            loaded |= d instanceof Driver;
        }
        assertTrue(loaded, "ServiceLoader does not find dev.panlite.Driver");
    }

    @Test
    void driverManagerFindsTheDriver() throws SQLException {
        java.sql.Driver d = DriverManager.getDriver("jdbc:sqlite::memory:");
        assertInstanceOf(Driver.class, d);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            roundTrip(c);
        }
        Properties p = new Properties();
        p.setProperty("busy_timeout", "4321");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("dm.db"), p)) {
            assertEquals("4321", busyTimeout(c));
        }
    }

    @Test
    void versionsAndCompliance() throws SQLException {
        assertEquals(Driver.MAJOR_VERSION, driver.getMajorVersion());
        assertEquals(Driver.MINOR_VERSION, driver.getMinorVersion());
        assertTrue(driver.getMajorVersion() >= 0 && driver.getMinorVersion() >= 0);
        assertFalse(driver.jdbcCompliant());
        try (Connection c = connect("jdbc:sqlite::memory:")) {
            assertEquals(driver.getMajorVersion(), c.getMetaData().getDriverMajorVersion());
            assertEquals(driver.getMinorVersion(), c.getMetaData().getDriverMinorVersion());
        }
    }

    @Test
    void settingsAreAppliedPerConnection() throws SQLException {
        // a setting of one connection does not leak into the next one on the same file
        Path file = dir.resolve("per.db");
        int engineDefault; // off in SQLite, on in libSQL as libsql-ffi builds it: a sets the other value
        try (Connection plain = connect("jdbc:sqlite:" + file)) {
            engineDefault = Integer.parseInt(TestDb.queryString(plain, "PRAGMA foreign_keys"));
        }
        try (Connection a = connect("jdbc:sqlite:" + file + "?foreign_keys=" + (engineDefault == 0) + "&busy_timeout=10");
             Connection b = connect("jdbc:sqlite:" + file);
             PreparedStatement ps = a.prepareStatement("PRAGMA foreign_keys");
             ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            assertEquals(1 - engineDefault, rs.getInt(1));
            assertEquals(String.valueOf(engineDefault), TestDb.queryString(b, "PRAGMA foreign_keys"));
            assertEquals("10", busyTimeout(a));
        }
    }
}
