package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Code written for the incumbent (xerial sqlite-jdbc) keeps working: its generated keys, its settings. */
class IncumbentCompatTest {
    @TempDir
    Path dir;

    private Connection open(String query) throws SQLException {
        Connection c = TestDb.open(dir, query);
        TestDb.exec(c, "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, x TEXT)");
        return c;
    }

    private static List<Long> keys(Statement s) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (ResultSet rs = s.getGeneratedKeys()) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ generated keys

    @Test
    void insertAnswersGetGeneratedKeysWithoutBeingAsked() throws SQLException {
        try (Connection c = open("")) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(x) VALUES (?)")) {
                ps.setString(1, "a");
                ps.executeUpdate();
                assertEquals(List.of(1L), keys(ps));
                ps.setString(1, "b");
                ps.executeUpdate();
                assertEquals(List.of(2L), keys(ps));
            }
            try (PreparedStatement ps = c.prepareStatement("REPLACE INTO t(id, x) VALUES (7, 'r')")) {
                ps.executeUpdate();
                assertEquals(List.of(7L), keys(ps));
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(x) VALUES ('c')");
                assertEquals(List.of(8L), keys(s));
                try (ResultSet rs = s.getGeneratedKeys()) {
                    assertEquals("last_insert_rowid()", rs.getMetaData().getColumnLabel(1), "the incumbent's label");
                }
                s.execute("INSERT INTO t(x) VALUES ('d')");
                assertEquals(List.of(9L), keys(s));
                s.executeUpdate("UPDATE t SET x = 'e' WHERE id = 1");
                assertEquals(List.of(), keys(s), "only inserts generate keys");
                s.executeUpdate("INSERT OR IGNORE INTO t(id, x) VALUES (1, 'dup')");
                assertEquals(List.of(), keys(s), "an insert that inserted nothing has no key");
            }
        }
    }

    /** A WITH clause leading an UPDATE or DELETE generates no key, whatever words its text holds. */
    @Test
    void cteLeadingAnUpdateHasNoKeys() throws SQLException {
        String[] changes = {
            "WITH v(x) AS (SELECT 'u') UPDATE t SET x = (SELECT x FROM v) WHERE id = 1",
            "WITH v(x) AS (SELECT replace('a', 'a', 'r')) UPDATE t SET x = (SELECT x FROM v) WHERE id = 1",
            "WITH inserted(x) AS (SELECT 'i') UPDATE t SET x = (SELECT x FROM inserted) WHERE id = 1",
            "WITH v(id) AS (SELECT 2) DELETE FROM t WHERE id IN (SELECT id FROM v) AND x = 'insert'",
        };
        for (String sql : changes) {
            try (Connection c = open(""); Statement s = c.createStatement()) {
                TestDb.exec(c, "DELETE FROM t", "INSERT INTO t(x) VALUES ('a')", "INSERT INTO t(x) VALUES ('insert')");
                s.executeUpdate("INSERT INTO t(x) VALUES ('b')");
                assertEquals(List.of(3L), keys(s));
                assertEquals(1, s.executeUpdate(sql), sql);
                assertEquals(List.of(), keys(s), sql);
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.executeUpdate();
                    assertEquals(List.of(), keys(ps), sql);
                }
                try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
                    ps.executeUpdate();
                    assertEquals(List.of(), keys(ps), "asked for: " + sql);
                }
            }
        }
        try (Connection c = open(""); Statement s = c.createStatement()) {
            TestDb.exec(c, "DELETE FROM t");
            s.executeUpdate("WITH v(x) AS (SELECT 'update') INSERT INTO t(x) SELECT x FROM v");
            assertEquals(List.of(1L), keys(s), "WITH ... INSERT generates its key");
            s.executeUpdate("WITH v(x) AS (SELECT 'w') REPLACE INTO t(id, x) SELECT 5, x FROM v");
            assertEquals(List.of(5L), keys(s), "WITH ... REPLACE generates its key");
        }
    }

    @Test
    void batchWithoutAskingAnswersTheLastKeyAsTheIncumbentDoes() throws SQLException {
        try (Connection c = open(""); PreparedStatement ps = c.prepareStatement("INSERT INTO t(x) VALUES (?)")) {
            for (String x : new String[] {"a", "b", "c"}) {
                ps.setString(1, x);
                ps.addBatch();
            }
            ps.executeBatch();
            assertEquals(List.of(3L), keys(ps));
        }
        try (Connection c = open("");
             PreparedStatement ps = c.prepareStatement("INSERT INTO t(x) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            for (String x : new String[] {"a", "b"}) {
                ps.setString(1, x);
                ps.addBatch();
            }
            ps.executeBatch();
            assertEquals(List.of(4L, 5L), keys(ps), "asked for: every row's key");
        }
    }

    @Test
    void getGeneratedKeysFalseAnswersOnlyWhenAsked() throws SQLException {
        try (Connection c = open("jdbc.get_generated_keys=false")) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(x) VALUES ('a')")) {
                ps.executeUpdate();
                assertEquals(List.of(), keys(ps));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(x) VALUES ('b')", Statement.RETURN_GENERATED_KEYS)) {
                ps.executeUpdate();
                assertEquals(List.of(2L), keys(ps), "JDBC's request still wins");
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(x) VALUES ('c')");
                assertEquals(List.of(), keys(s));
            }
        }
    }

    @Test
    void returningStillReturnsItsRows() throws SQLException {
        try (Connection c = open("");
             PreparedStatement ps = c.prepareStatement("INSERT INTO t(x) VALUES (?) RETURNING id, x")) {
            ps.setString(1, "a");
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1));
                assertEquals("a", rs.getString(2));
                assertFalse(rs.next());
            }
            ps.setString(1, "b");
            assertEquals(1, ps.executeUpdate());
            assertEquals(List.of(2L), keys(ps));
        }
    }

    // ------------------------------------------------------------------ settings

    /** Checks what one setting did to a connection opened with it alone. */
    interface Check {
        void check(Connection c) throws Exception;
    }

    /** A setting of the incumbent, the value it is given, and how its effect is read back. */
    record Incumbent(String key, String value, Check check) {}

    /** PRAGMA {@code name} reads back {@code expected}. */
    private static Check pragmaIs(String name, String expected) {
        return c -> assertEquals(expected, pragma(c, name), "PRAGMA " + name);
    }

    /** A deprecated PRAGMA: reads back {@code expected} where this SQLite still has it, nothing where it has not. */
    private Check deprecatedPragmaIs(String name, String expected) {
        return c -> {
            try (Connection plain = TestDb.open(dir, "")) {
                boolean has = pragma(plain, name) != null;
                assertEquals(has ? expected : null, pragma(c, name), "PRAGMA " + name + (has ? "" : " (not in this SQLite)"));
            }
        };
    }

    /** {@code sql} is refused (a limit was lowered: the same SQL runs without the setting). */
    private Check refuses(String sql, String message) {
        return c -> {
            SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, sql), sql);
            assertTrue(e.getMessage().contains(message), e::toString);
            try (Connection plain = TestDb.open(dir, "")) {
                TestDb.exec(plain, sql); // the control: the limit, not the SQL, refused it
            }
        };
    }

    private static String params(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "1"));
    }

    /**
     * Every key of the incumbent's SQLiteConfig.Pragma, with a value it accepts (where it has an
     * effect, one that differs from the default, so the check can see it), and what the setting
     * does: its PRAGMA read back, or its behaviour. Settings with nothing to read back say why.
     */
    List<Incumbent> incumbentSettings() {
        List<Incumbent> all = new ArrayList<>(List.of(
            new Incumbent("open_mode", "1", c -> { // READONLY, on a file that exists
                assertThrows(SQLException.class, () -> TestDb.exec(c, "CREATE TABLE ro(a)"), "written through open_mode=1");
            }),
            new Incumbent("shared_cache", "true", c -> { // two connections of this JVM share one cache: a table lock
                try (Connection other = new Driver().connect(TestDb.url(dir, "shared_cache.db", ""), props("shared_cache", "true"))) {
                    c.setAutoCommit(false);
                    TestDb.exec(c, "INSERT INTO t VALUES (1)");
                    SQLException e = assertThrows(SQLException.class, () -> TestDb.queryLong(other, "SELECT count(*) FROM t"));
                    assertEquals(6, e.getErrorCode() & 0xff, "SQLITE_LOCKED, a shared-cache table lock: " + e);
                    c.rollback();
                }
            }),
            new Incumbent("enable_load_extension", "true", c -> {
                SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, "SELECT load_extension('/nonexistent/ext')"));
                assertFalse(e.getMessage().contains("not authorized"), "loading is enabled, the file is missing: " + e);
            }),
            new Incumbent("cache_size", "-4000", pragmaIs("cache_size", "-4000")),
            new Incumbent("mmap_size", "65536", pragmaIs("mmap_size", "65536")),
            new Incumbent("case_sensitive_like", "true", c -> assertEquals(0, TestDb.queryLong(c, "SELECT 'a' LIKE 'A'"))),
            new Incumbent("count_changes", "true", deprecatedPragmaIs("count_changes", "1")),
            new Incumbent("default_cache_size", "2000", deprecatedPragmaIs("default_cache_size", "2000")),
            new Incumbent("defer_foreign_keys", "true", pragmaIs("defer_foreign_keys", "1")),
            new Incumbent("empty_result_callback", "true", deprecatedPragmaIs("empty_result_callbacks", "1")),
            new Incumbent("empty_result_callbacks", "true", deprecatedPragmaIs("empty_result_callbacks", "1")),
            new Incumbent("encoding", "'UTF-16le'", pragmaIs("encoding", "UTF-16le")),
            new Incumbent("foreign_keys", "true", pragmaIs("foreign_keys", "1")),
            new Incumbent("full_column_names", "true", deprecatedPragmaIs("full_column_names", "1")),
            new Incumbent("fullsync", "true", pragmaIs("fullfsync", "1")),
            // an action, not a state: frees the free list's pages at open in an auto_vacuum=INCREMENTAL file
            new Incumbent("incremental_vacuum", "0", c -> assertEquals("0", pragma(c, "freelist_count"))),
            new Incumbent("journal_mode", "WAL", pragmaIs("journal_mode", "wal")),
            new Incumbent("journal_size_limit", "1048576", pragmaIs("journal_size_limit", "1048576")),
            new Incumbent("legacy_alter_table", "true", pragmaIs("legacy_alter_table", "1")),
            new Incumbent("legacy_file_format", "true", deprecatedPragmaIs("legacy_file_format", "1")),
            new Incumbent("locking_mode", "EXCLUSIVE", pragmaIs("locking_mode", "exclusive")),
            new Incumbent("page_size", "8192", pragmaIs("page_size", "8192")),
            new Incumbent("max_page_count", "100000", pragmaIs("max_page_count", "100000")),
            new Incumbent("read_uncommitted", "true", pragmaIs("read_uncommitted", "1")),
            new Incumbent("read_uncommited", "true", pragmaIs("read_uncommitted", "1")),
            new Incumbent("recursive_triggers", "true", pragmaIs("recursive_triggers", "1")),
            new Incumbent("reverse_unordered_selects", "true", pragmaIs("reverse_unordered_selects", "1")),
            new Incumbent("secure_delete", "true", pragmaIs("secure_delete", "1")),
            new Incumbent("short_column_names", "false", deprecatedPragmaIs("short_column_names", "0")),
            new Incumbent("synchronous", "NORMAL", pragmaIs("synchronous", "1")),
            new Incumbent("temp_store", "MEMORY", pragmaIs("temp_store", "2")),
            // "" is the default; any other value changes the directory for the whole process: nothing set, nothing to read
            new Incumbent("temp_store_directory", "", deprecatedPragmaIs("temp_store_directory", null)),
            new Incumbent("user_version", "3", pragmaIs("user_version", "3")),
            new Incumbent("application_id", "5", pragmaIs("application_id", "5")),
            new Incumbent("limit_length", "1000000", refuses("SELECT length(zeroblob(1000001))", "too big")),
            new Incumbent("limit_sql_length", "100000", refuses("SELECT 1" + " ".repeat(100_000), "too long")),
            new Incumbent("limit_column", "100", refuses("CREATE TABLE wide(" + String.join(", ",
                    java.util.stream.IntStream.range(0, 101).mapToObj(i -> "c" + i).toList()) + ")", "too many columns")),
            new Incumbent("limit_expr_depth", "100", refuses("SELECT " + String.join(" + ",
                    java.util.Collections.nCopies(120, "1")), "too large")),
            new Incumbent("limit_compound_select", "10", refuses("SELECT 1" + " UNION ALL SELECT 1".repeat(11), "too many terms")),
            // SQLite does not enforce SQLITE_LIMIT_VDBE_OP (its documentation says so): the value is all there is
            new Incumbent("limit_vdbe_op", "100000", c -> assertEquals("100000",
                    c.unwrap(PanliteConnection.class).config().get(Setting.LIMIT_VDBE_OP))),
            new Incumbent("limit_function_arg", "10", refuses("SELECT max(" + params(11) + ")", "too many arguments")),
            new Incumbent("limit_attached", "3", refuses("ATTACH ':memory:' AS a1; ATTACH ':memory:' AS a2; "
                    + "ATTACH ':memory:' AS a3; ATTACH ':memory:' AS a4", "too many attached")),
            new Incumbent("limit_like_pattern_length", "100", refuses("SELECT 'a' LIKE '" + "a".repeat(101) + "'", "too complex")),
            new Incumbent("limit_variable_number", "1000", refuses("SELECT ?1001", "variable number")),
            new Incumbent("limit_trigger_depth", "10", c -> {
                String[] recursing = {"PRAGMA recursive_triggers = 1", "CREATE TABLE IF NOT EXISTS n(i)",
                    "CREATE TRIGGER IF NOT EXISTS up AFTER INSERT ON n WHEN new.i < 20 BEGIN INSERT INTO n VALUES (new.i + 1); END"};
                TestDb.exec(c, recursing);
                SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO n VALUES (1)"));
                assertTrue(e.getMessage().contains("trigger"), e::toString); // the wording differs between versions
                try (Connection plain = TestDb.open(dir, "")) { // the control: 20 levels are fine by default
                    TestDb.exec(plain, recursing);
                    TestDb.exec(plain, "INSERT INTO n VALUES (1)");
                }
            }),
            new Incumbent("limit_worker_threads", "0", pragmaIs("threads", "0")),
            new Incumbent("limit_page_count", "100000", pragmaIs("max_page_count", "100000")),
            new Incumbent("transaction_mode", "DEFERRED", c -> assertEquals(TransactionMode.DEFERRED,
                    c.unwrap(PanliteConnection.class).config().transactionMode())),
            new Incumbent("date_precision", "SECONDS", c -> assertEquals(1234, storedTimestamp(c))),
            new Incumbent("date_class", "TEXT", c -> assertEquals("text", TestDb.queryString(c, "SELECT typeof(x) FROM d"))),
            new Incumbent("date_string_format", "yyyy-MM-dd", c -> assertEquals("yyyy-MM-dd",
                    c.unwrap(PanliteConnection.class).config().dateStringFormat())),
            new Incumbent("busy_timeout", "1000", c -> assertEquals(1000,
                    c.unwrap(PanliteConnection.class).config().busyTimeoutMillis())),
            // no key: the file stays a plain SQLite file
            new Incumbent("hexkey_mode", "NONE", c -> assertPlainFile("hexkey_mode")),
            new Incumbent("password", "", c -> assertPlainFile("password")),
            // what it changes: writing transactions begin IMMEDIATE even under transaction_mode=DEFERRED
            new Incumbent("jdbc.explicit_readonly", "true", c -> {
                Properties both = props("jdbc.explicit_readonly", "true");
                both.setProperty("transaction_mode", "DEFERRED");
                try (Connection d = new Driver().connect(TestDb.url(dir, "explicit.db", ""), both)) {
                    assertEquals(TransactionMode.IMMEDIATE, d.unwrap(PanliteConnection.class).config().transactionMode());
                }
            }),
            new Incumbent("jdbc.get_generated_keys", "false", c -> {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO t VALUES (1)");
                    assertEquals(List.of(), keys(s));
                }
            }),
            // added by the incumbent in 3.54.1.0
            new Incumbent("automatic_index", "false", pragmaIs("automatic_index", "0")),
            new Incumbent("cache_spill", "false", pragmaIs("cache_spill", "0"))));
        return all;
    }

    private static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }

    /** The value a Timestamp of 1234.567 s is stored as, through a connection's date settings. */
    private static long storedTimestamp(Connection c) throws SQLException {
        return TestDb.queryLong(c, "SELECT x FROM d");
    }

    private void assertPlainFile(String key) throws Exception {
        byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(dir.resolve(key + ".db")), 16);
        assertEquals("SQLite format 3\0", new String(header, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void everyIncumbentSettingDoesWhatItSays() throws Exception {
        Properties all = new Properties();
        for (Incumbent s : incumbentSettings()) {
            String file = s.key() + ".db";
            try (Connection plain = new Driver().connect(TestDb.url(dir, file, ""), new Properties())) {
                if (s.key().equals("incremental_vacuum")) { // free pages for it to free
                    TestDb.exec(plain, "PRAGMA auto_vacuum = INCREMENTAL", "VACUUM", "CREATE TABLE big(b)",
                            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20) "
                            + "INSERT INTO big SELECT zeroblob(100000) FROM n", "DROP TABLE big");
                    assertTrue(TestDb.queryLong(plain, "PRAGMA freelist_count") > 0);
                }
                if (!s.key().equals("encoding") && !s.key().equals("page_size")) { // those two shape a new file only
                    TestDb.exec(plain, "CREATE TABLE t(a)");
                }
            }
            try (Connection c = new Driver().connect(TestDb.url(dir, file, ""), props(s.key(), s.value()))) {
                if (s.key().equals("encoding") || s.key().equals("page_size")) {
                    TestDb.exec(c, "CREATE TABLE t(a)");
                }
                if (s.key().startsWith("date_")) {
                    TestDb.exec(c, "CREATE TABLE d(x)");
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO d VALUES (?)")) {
                        ps.setTimestamp(1, new java.sql.Timestamp(1_234_567));
                        ps.executeUpdate();
                    }
                }
                s.check().check(c);
            } catch (SQLException | AssertionError e) {
                throw new AssertionError(s.key() + "=" + s.value() + ": " + e.getMessage(), e);
            }
            if (!s.key().equals("open_mode") && !s.key().equals("locking_mode")) {
                all.setProperty(s.key(), s.value());
            }
        }
        try (Connection c = new Driver().connect(TestDb.url(dir, "all.db", ""), all)) {
            TestDb.exec(c, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
            assertEquals("wal", pragma(c, "journal_mode"));
            assertEquals("1", pragma(c, "foreign_keys"));
            assertEquals("3", pragma(c, "user_version"));
        }
    }

    /** What PRAGMA {@code name} reads; null if it returns nothing (a PRAGMA this SQLite does not have). */
    private static String pragma(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!s.execute("PRAGMA " + name)) {
                return null;
            }
            try (ResultSet rs = s.getResultSet()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Settings the incumbent added in 3.54.1.0: accepted and applied. */
    @Test
    void automaticIndexAndCacheSpillAreApplied() throws SQLException {
        try (Connection c = open("")) {
            assertEquals("1", pragma(c, "automatic_index"), "SQLite's default");
            assertNotEquals("0", pragma(c, "cache_spill"), "SQLite's default");
        }
        try (Connection c = open("automatic_index=false&cache_spill=false")) {
            assertEquals("0", pragma(c, "automatic_index"));
            assertEquals("0", pragma(c, "cache_spill"));
        }
        try (Connection c = open("automatic_index=on&cache_spill=777")) {
            assertEquals("1", pragma(c, "automatic_index"));
            assertEquals("777", pragma(c, "cache_spill"));
        }
    }

    @Test
    void deprecatedPragmasAreAppliedWhereSqliteHasThem() throws SQLException {
        try (Connection c = open("default_cache_size=1234&full_column_names=true&short_column_names=false"
                + "&empty_result_callback=true&limit_page_count=5000")) {
            assertEquals("1234", pragma(c, "default_cache_size"));
            assertEquals("1", pragma(c, "full_column_names"));
            assertEquals("0", pragma(c, "short_column_names"));
            assertEquals("1", pragma(c, "empty_result_callbacks"), "the incumbent's spelling reaches SQLite's pragma");
            assertEquals("5000", pragma(c, "max_page_count"));
        }
        try (Connection c = open("count_changes=true"); Statement s = c.createStatement()) {
            assertEquals("1", pragma(c, "count_changes"));
            assertEquals(1, s.executeUpdate("INSERT INTO t(x) VALUES ('a')"));
        }
    }

    /** Collects what the driver logs. */
    static final class Recorder extends Handler {
        final List<String> messages = new ArrayList<>();

        @Override
        public synchronized void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                messages.add(r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        synchronized long count(String part) {
            return messages.stream().filter(m -> m.contains(part)).count();
        }
    }

    @Test
    void aSettingSqliteNoLongerHasIsAcceptedWithOneWarningPerConfiguration() throws SQLException {
        Logger logger = Logger.getLogger("dev.panlite");
        Recorder recorder = new Recorder();
        logger.addHandler(recorder);
        try {
            for (int i = 0; i < 3; i++) { // a pool opening three connections
                try (Connection c = open("legacy_file_format=true")) {
                    TestDb.exec(c, "INSERT INTO t(x) VALUES ('a')");
                }
            }
            assertEquals(1, recorder.count("legacy_file_format"), recorder.messages.toString());
            try (Connection c = open("legacy_file_format=true&busy_timeout=100")) {
                assertEquals(2, recorder.count("legacy_file_format"), "another configuration warns again");
            }
            try (Connection c = open("full_column_names=true")) {
                assertEquals(0, recorder.count("full_column_names"), "SQLite still has it: no warning");
            }
        } finally {
            logger.removeHandler(recorder);
        }
    }

    @Test
    void aPasswordOnAPlainSqliteIsAClearErrorNeverAnUnencryptedDatabase() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(dev.panlite.ffi.Sqlite.supportsEncryption(),
                "this test is about an SQLite without encryption");
        Properties p = new Properties();
        p.setProperty("password", "secret");
        SQLException e = assertThrows(SQLException.class,
                () -> new Driver().connect(TestDb.url(dir, "secret.db", ""), p));
        assertTrue(e.getMessage().contains("cannot encrypt"), e.getMessage());
        assertTrue(e.getMessage().contains("panlite.sqlite.library"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), "the key stays out of the message: " + e.getMessage());
        assertEquals(0, Files.size(dir.resolve("secret.db")), "nothing was written unencrypted");
        PanliteDataSource ds = new PanliteDataSource(TestDb.url(dir, "secret.db", ""));
        assertThrows(SQLException.class, () -> ds.getConnection("user", "secret"));
        ds.getConnection("user", "").close();
    }

    @Test
    void explicitReadonlyKeepsItsMeaning() throws SQLException {
        assertEquals(TransactionMode.IMMEDIATE,
                Config.parse("jdbc:sqlite:a.db?jdbc.explicit_readonly=true&transaction_mode=DEFERRED", null)
                        .transactionMode(),
                "a writing transaction takes the write lock at BEGIN, as the incumbent's does");
        assertEquals(TransactionMode.DEFERRED,
                Config.parse("jdbc:sqlite:a.db?transaction_mode=DEFERRED", null).transactionMode());
        assertEquals(TransactionMode.EXCLUSIVE, Config.parse(
                "jdbc:sqlite:a.db?jdbc.explicit_readonly=true&transaction_mode=EXCLUSIVE", null).transactionMode());
        try (Connection c = open("jdbc.explicit_readonly=true")) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            assertTrue(c.isReadOnly());
            TestDb.exec(c, "SELECT count(*) FROM t");
            assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t(x) VALUES ('a')"),
                    "a read-only transaction refuses writes");
            c.rollback();
            c.setReadOnly(false);
            TestDb.exec(c, "INSERT INTO t(x) VALUES ('a')");
            c.commit();
        }
    }

    /** Where Panlite is more lenient than the incumbent's own tests expect (README: Moving from the incumbent). */
    @Test
    void conventionsPanliteKeeps() throws SQLException {
        try (Connection c = open(""); Statement s = c.createStatement()) {
            s.setEscapeProcessing(true); // the incumbent refuses true; SQLite has no escapes to process either way
            try (ResultSet rs = s.executeQuery("SELECT t.id FROM t AS t UNION ALL SELECT 1")) {
                assertEquals(1, rs.findColumn("t.id"), "a qualified label finds its column; the incumbent throws");
            }
            assertFalse(s.getMoreResults());
            assertEquals(null, s.getResultSet(), "JDBC: null when there is none; the incumbent throws");
        }
    }

    /** Result set metadata where the incumbent's RSMetaDataTest expects its own conventions. */
    @Test
    void resultSetMetadataConventions() throws SQLException {
        try (Connection c = open(""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE people(pid INTEGER PRIMARY KEY, name string, born DATETIME)");
            s.execute("INSERT INTO people VALUES (1, 'Ada', 0)");
            try (ResultSet rs = s.executeQuery("SELECT pid, name, born, 1 + 1 FROM people")) {
                java.sql.ResultSetMetaData md = rs.getMetaData();
                assertEquals(java.sql.Types.NUMERIC, md.getColumnType(2), "STRING has SQLite's NUMERIC affinity");
                assertEquals(java.sql.Types.TIMESTAMP, md.getColumnType(3), "DATETIME holds a time of day");
                assertEquals(java.sql.Types.OTHER, md.getColumnType(4), "an expression before next(): no value yet");
                assertEquals(java.sql.ResultSetMetaData.columnNullableUnknown, md.isNullable(4));
                assertEquals("", md.getCatalogName(1), "SQLite has no catalogs; the incumbent answers the table name");
                assertTrue(rs.next());
                assertEquals(java.sql.Types.BIGINT, rs.getMetaData().getColumnType(4), "on a row: the value's type (64-bit)");
            }
        }
    }

    @Test
    void aKeyThatIsNoSettingIsStillRefusedWithTheNearestOne() {
        SQLException e = assertThrows(SQLException.class, () -> open("jdbc.get_generated_key=true"));
        assertTrue(e.getMessage().contains("did you mean jdbc.get_generated_keys?"), e.getMessage());
        e = assertThrows(SQLException.class, () -> open("count_change=true"));
        assertTrue(e.getMessage().contains("did you mean count_changes?"), e.getMessage());
    }
}
