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

    /** Every key of the incumbent's SQLiteConfig.Pragma, with a value it accepts. */
    static final String[][] INCUMBENT_SETTINGS = {
        {"open_mode", "6"}, {"shared_cache", "false"}, {"enable_load_extension", "false"}, {"cache_size", "-4000"},
        {"mmap_size", "0"}, {"case_sensitive_like", "false"}, {"count_changes", "false"},
        {"default_cache_size", "2000"}, {"defer_foreign_keys", "false"}, {"empty_result_callback", "false"},
        {"empty_result_callbacks", "false"}, {"encoding", "'UTF-8'"}, {"foreign_keys", "true"},
        {"full_column_names", "false"}, {"fullsync", "false"}, {"incremental_vacuum", "0"},
        {"journal_mode", "WAL"}, {"journal_size_limit", "-1"}, {"legacy_alter_table", "false"},
        {"legacy_file_format", "false"}, {"locking_mode", "NORMAL"}, {"page_size", "4096"},
        {"max_page_count", "100000"}, {"read_uncommitted", "false"}, {"read_uncommited", "false"},
        {"recursive_triggers", "false"}, {"reverse_unordered_selects", "false"}, {"secure_delete", "false"},
        {"short_column_names", "true"}, {"synchronous", "NORMAL"}, {"temp_store", "MEMORY"},
        {"temp_store_directory", ""}, {"user_version", "3"}, {"application_id", "5"},
        {"limit_length", "1000000"}, {"limit_sql_length", "100000"}, {"limit_column", "100"},
        {"limit_expr_depth", "100"}, {"limit_compound_select", "10"}, {"limit_vdbe_op", "100000"},
        {"limit_function_arg", "10"}, {"limit_attached", "3"}, {"limit_like_pattern_length", "100"},
        {"limit_variable_number", "1000"}, {"limit_trigger_depth", "10"}, {"limit_worker_threads", "0"},
        {"limit_page_count", "100000"}, {"transaction_mode", "DEFERRED"}, {"date_precision", "MILLISECONDS"},
        {"date_class", "INTEGER"}, {"date_string_format", "yyyy-MM-dd HH:mm:ss.SSS"}, {"busy_timeout", "1000"},
        {"hexkey_mode", "NONE"}, {"password", ""}, {"jdbc.explicit_readonly", "true"},
        {"jdbc.get_generated_keys", "true"}, {"automatic_index", "false"}, {"cache_spill", "false"},
        {"cache_spill", "500"},
    };

    @Test
    void everyIncumbentSettingConnects() throws SQLException {
        Properties all = new Properties();
        for (String[] kv : INCUMBENT_SETTINGS) {
            Properties one = new Properties();
            one.setProperty(kv[0], kv[1]);
            try (Connection c = new Driver().connect(TestDb.url(dir, "one.db", ""), one)) {
                TestDb.exec(c, "CREATE TABLE IF NOT EXISTS t(a)");
            } catch (SQLException e) {
                throw new AssertionError(kv[0] + "=" + kv[1] + " does not connect: " + e.getMessage(), e);
            }
            all.setProperty(kv[0], kv[1]);
        }
        try (Connection c = new Driver().connect(TestDb.url(dir, "all.db", ""), all)) {
            TestDb.exec(c, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
        }
    }

    private static String pragma(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA " + name)) {
            return rs.next() ? rs.getString(1) : null;
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
