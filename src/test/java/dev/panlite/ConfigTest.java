package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigTest {
    private static final int READONLY = 0x1;
    private static final int READWRITE_CREATE = 0x6;
    private static final int URI = 0x40;
    private static final int SHAREDCACHE = 0x20000;

    private static Config parse(String url) throws SQLException {
        return Config.parse(url, null);
    }

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    /** Asserts the URL is rejected with the given SQLState and a message holding every fragment. */
    private static SQLException rejects(String url, Properties info, String state, String... fragments) {
        SQLException e = assertThrows(SQLException.class, () -> Config.parse(url, info));
        assertEquals(state, e.getSQLState(), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), () -> "\"" + f + "\" not in: " + e.getMessage());
        }
        return e;
    }

    // ---- URL forms

    @Test
    void defaults() throws SQLException {
        Config c = parse("jdbc:sqlite:test.db");
        assertEquals("jdbc:sqlite:test.db", c.url());
        assertEquals("test.db", c.filename());
        assertEquals(READWRITE_CREATE, c.openFlags());
        assertFalse(c.readOnlyOpen());
        assertEquals(3000, c.busyTimeoutMillis());
        assertEquals(32, c.stmtCacheSize());
        assertTrue(c.cacheTxStatements());
        assertEquals(TransactionMode.IMMEDIATE, c.transactionMode());
        assertEquals("BEGIN IMMEDIATE", c.transactionMode().beginSql());
        assertEquals(DateClass.INTEGER, c.dateClass());
        assertEquals(DatePrecision.MILLISECONDS, c.datePrecision());
        assertEquals("yyyy-MM-dd HH:mm:ss.SSS", c.dateStringFormat());
        assertFalse(c.readUncommitted());
        assertEquals(List.of(), c.pragmas());
        assertEquals(Map.of(), c.limits());
        assertEquals("3000", c.get(Setting.BUSY_TIMEOUT));
        assertFalse(c.isSet(Setting.BUSY_TIMEOUT));
        assertNull(c.get(Setting.JOURNAL_MODE), "PRAGMA settings are left to SQLite unless given");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdbc:sqlite:test.db                       | test.db",
        "jdbc:sqlite:/tmp/a.db                     | /tmp/a.db",
        "jdbc:sqlite:C:\\data\\a.db                | C:\\data\\a.db",
        "jdbc:sqlite::memory:                      | :memory:",
        "jdbc:sqlite::memory:?foreign_keys=on      | :memory:",
        "jdbc:sqlite:?busy_timeout=10              | ''",
        "jdbc:sqlite:test.db?journal_mode=WAL      | test.db",
    })
    void plainFilenames(String url, String filename) throws SQLException {
        Config c = parse(url);
        assertEquals(filename, c.filename());
        assertEquals(READWRITE_CREATE, c.openFlags(), "no URI flag without file:");
    }

    @Test
    void emptyUrlMeansTemporaryDatabase() throws SQLException {
        Config c = parse("jdbc:sqlite:");
        assertEquals("", c.filename());
        assertEquals(READWRITE_CREATE, c.openFlags());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdbc:sqlite:file:x.db                                   | file:x.db",
        "jdbc:sqlite:file:x.db?mode=ro                           | file:x.db?mode=ro",
        "jdbc:sqlite:file:x?mode=memory&cache=shared             | file:x?mode=memory&cache=shared",
        "jdbc:sqlite:file::memory:?cache=shared                  | file::memory:?cache=shared",
        "jdbc:sqlite:file:/tmp/a%20b.db?vfs=unix-dotfile&psow=0  | file:/tmp/a%20b.db?vfs=unix-dotfile&psow=0",
        "jdbc:sqlite:file:a.db?nolock=1&immutable=1&modeof=b.db  | file:a.db?nolock=1&immutable=1&modeof=b.db",
        "jdbc:sqlite:file:a.db?cache=private#frag                | file:a.db?cache=private",
    })
    void uriFilenamesKeepSqliteParameters(String url, String filename) throws SQLException {
        Config c = parse(url);
        assertEquals(filename, c.filename());
        assertEquals(READWRITE_CREATE | URI, c.openFlags());
    }

    @Test
    void settingsAreStrippedFromUriFilename() throws SQLException {
        Config c = parse("jdbc:sqlite:file:x.db?journal_mode=wal&mode=ro&foreign_keys=on&cache=shared"
                + "&stmt_cache_size=8");
        assertEquals("file:x.db?mode=ro&cache=shared", c.filename());
        assertEquals(List.of("PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON"), c.pragmas());
        assertEquals(8, c.stmtCacheSize());
        assertTrue(c.readOnlyOpen(), "mode=ro in the URI opens read-only");

        assertEquals("file:x.db", parse("jdbc:sqlite:file:x.db?journal_mode=wal").filename(),
                "no dangling ? when only settings were given");
    }

    @Test
    void sqliteUriParameterOnPlainPathPointsToFileForm() {
        rejects("jdbc:sqlite:test.db?mode=ro", null, "HY092", "mode", "jdbc:sqlite:file:test.db?mode=ro");
    }

    @Test
    void notAnSqliteUrl() {
        assertFalse(Config.acceptsURL(null));
        assertFalse(Config.acceptsURL("jdbc:h2:mem:"));
        assertFalse(Config.acceptsURL("jdbc:sqlite"));
        assertTrue(Config.acceptsURL("jdbc:sqlite:"));
        assertThrows(SQLException.class, () -> parse("jdbc:postgresql://x/y"));
        assertThrows(SQLException.class, () -> parse(null));
    }

    // ---- Where settings come from

    @Test
    void propertiesOverrideUrl() throws SQLException {
        Config c = Config.parse("jdbc:sqlite:a.db?busy_timeout=100&journal_mode=WAL",
                props("busy_timeout", "200", "synchronous", "normal"));
        assertEquals(200, c.busyTimeoutMillis());
        assertEquals(List.of("PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"), c.pragmas());
    }

    @Test
    void propertyDefaultsAndNonStringValuesAreRead() throws SQLException {
        Properties defaults = props("busy_timeout", "5");
        Properties p = new Properties(defaults);
        p.put("stmt_cache_size", 7); // some pools copy typed values into Properties
        Config c = Config.parse("jdbc:sqlite:a.db", p);
        assertEquals(5, c.busyTimeoutMillis());
        assertEquals(7, c.stmtCacheSize());
    }

    @Test
    void userIsIgnoredPasswordIsTheKey() throws SQLException {
        Config c = Config.parse("jdbc:sqlite:a.db?user=sa&password=x", props("user", "sa", "password", "it's"));
        assertEquals("a.db", c.filename());
        assertEquals(List.of(), c.pragmas());
        assertEquals("PRAGMA key = 'it''s'", c.keyPragma(), "Properties win; quotes doubled");
        assertFalse(c.toString().contains("it's"), "the key stays out of messages: " + c);
        assertEquals("file:a.db", parse("jdbc:sqlite:file:a.db?user=sa").filename());
        assertNull(parse("jdbc:sqlite:a.db?password=").keyPragma(), "an empty password (pools send one) is no key");
        assertEquals("PRAGMA hexkey = 'A0ff'", parse("jdbc:sqlite:a.db?password=A0ff&hexkey_mode=sse").keyPragma());
        assertEquals("PRAGMA key = \"x'A0ff'\"", parse("jdbc:sqlite:a.db?password=A0ff&hexkey_mode=SQLCIPHER").keyPragma());
        SQLException notHex = assertThrows(SQLException.class,
                () -> parse("jdbc:sqlite:a.db?password=x'--&hexkey_mode=SSE"));
        assertTrue(notHex.getMessage().contains("hex digits"), notHex.getMessage());
    }

    @Test
    void keysAreCaseInsensitive() throws SQLException {
        Config c = Config.parse("jdbc:sqlite:a.db?Journal_Mode=wal", props("BUSY_TIMEOUT", "1"));
        assertEquals("WAL", c.get(Setting.JOURNAL_MODE));
        assertEquals(1, c.busyTimeoutMillis());
    }

    @Test
    void lastOccurrenceInUrlWins() throws SQLException {
        assertEquals(2, parse("jdbc:sqlite:a.db?busy_timeout=1&busy_timeout=2").busyTimeoutMillis());
    }

    @Test
    void unknownKeyInUrl() {
        SQLException e = rejects("jdbc:sqlite:a.db?jounal_mode=WAL", null, "HY092",
                "jounal_mode", "URL", "did you mean journal_mode", "busy_timeout", "stmt_cache_size");
        assertTrue(e.getMessage().contains("vfs, mode, cache"), e.getMessage());
        rejects("jdbc:sqlite:file:a.db?mode=ro&colour=red", null, "HY092", "colour");
    }

    @Test
    void unknownKeyInProperties() {
        rejects("jdbc:sqlite:a.db", props("hexkey_mod", "SSE"), "HY092",
                "hexkey_mod", "Properties", "did you mean hexkey_mode?", "journal_mode");
    }

    @Test
    void urlDecoding() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?date_string_format=yyyy-MM-dd%20HH%3Amm&date_class=text");
        assertEquals("yyyy-MM-dd HH:mm", c.dateStringFormat());
        assertEquals("yyyy-MM-dd HH:mm", parse("jdbc:sqlite:a.db?date_string_format=yyyy-MM-dd+HH:mm")
                .dateStringFormat());
        assertEquals(DateClass.TEXT, c.dateClass());
        assertEquals(1, parse("jdbc:sqlite:a.db?busy%5Ftimeout=1").busyTimeoutMillis(), "keys are decoded too");
        rejects("jdbc:sqlite:a.db?busy_timeout=%zz", null, "HY024", "%zz");
    }

    // ---- Validation

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "journal_mode=fast              | journal_mode       | DELETE, TRUNCATE, PERSIST, MEMORY, WAL, OFF",
        "synchronous=sometimes          | synchronous        | OFF, NORMAL, FULL, EXTRA",
        "temp_store=disk                | temp_store         | DEFAULT, FILE, MEMORY",
        "locking_mode=shared            | locking_mode       | NORMAL, EXCLUSIVE",
        "transaction_mode=lazy          | transaction_mode   | DEFERRED, IMMEDIATE, EXCLUSIVE",
        "date_class=long                | date_class         | INTEGER, TEXT, REAL",
        "date_precision=nanos           | date_precision     | MILLISECONDS, SECONDS",
        "encoding=latin1                | encoding           | UTF-8, UTF-16, UTF-16le, UTF-16be",
        "foreign_keys=maybe             | foreign_keys       | true or false",
        "cache_tx_statements=           | cache_tx_statements| true or false",
        "busy_timeout=abc               | busy_timeout       | an integer from 0 to 2147483647",
        "busy_timeout=-1                | busy_timeout       | an integer from 0 to 2147483647",
        "busy_timeout=3000000000        | busy_timeout       | an integer from 0 to 2147483647",
        "stmt_cache_size=-1             | stmt_cache_size    | an integer from 0",
        "cache_size=1.5                 | cache_size         | an integer",
        "mmap_size=-1                   | mmap_size          | an integer >= 0",
        "limit_attached=-1              | limit_attached     | an integer from 0",
        "page_size=1000                 | page_size          | a power of two from 512 to 65536",
        "page_size=256                  | page_size          | a power of two from 512 to 65536",
        "page_size=131072               | page_size          | a power of two from 512 to 65536",
        "open_mode=4                    | open_mode          | READWRITE|CREATE (6)",
        "open_mode=3                    | open_mode          | READONLY (1)",
        "open_mode=x                    | open_mode          | SQLITE_OPEN_",
        "date_string_format=yyyy}       | date_string_format | DateTimeFormatter pattern",
        "date_string_format=            | date_string_format | DateTimeFormatter pattern",
    })
    void invalidValuesNameKeyAndChoices(String param, String key, String expected) {
        rejects("jdbc:sqlite:a.db?" + param, null, "HY024", key, expected);
    }

    @Test
    void invalidValueInProperties() {
        rejects("jdbc:sqlite:a.db", props("journal_mode", "fast"), "HY024", "journal_mode", "\"fast\"", "WAL");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "journal_mode=WAL;DROP TABLE x",
        "journal_mode=WAL%3B%20DROP%20TABLE%20x",
        "cache_size=1; PRAGMA foo",
        "cache_size=1%3B%20PRAGMA%20foo",
        "user_version=1--",
        "encoding=UTF-8'; DROP TABLE x; --",
        "secure_delete=on)",
        "limit_length=1 OR 1",
    })
    void injectionIsRejected(String param) {
        rejects("jdbc:sqlite:a.db?" + param, null, "HY024");
    }

    @Test
    void injectionThroughPropertiesIsRejected() {
        rejects("jdbc:sqlite:a.db", props("journal_mode", "WAL; DROP TABLE x"), "HY024", "journal_mode");
        rejects("jdbc:sqlite:a.db", props("cache_size", "1; PRAGMA foo"), "HY024", "cache_size");
    }

    @ParameterizedTest
    @CsvSource({"true,ON", "TRUE,ON", "on,ON", "Yes,ON", "1,ON", "false,OFF", "off,OFF", "NO,OFF", "0,OFF",
        "' true ',ON"})
    void booleanSpellings(String value, String sql) throws SQLException {
        Config c = Config.parse("jdbc:sqlite:a.db", props("foreign_keys", value));
        assertEquals(List.of("PRAGMA foreign_keys = " + sql), c.pragmas());
        assertEquals(sql.equals("ON") ? "true" : "false", c.get(Setting.FOREIGN_KEYS));
    }

    @Test
    void enumValuesAreCaseInsensitiveAndCanonical() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?transaction_mode=immediate&date_precision=Seconds&temp_store=memory");
        assertEquals(TransactionMode.IMMEDIATE, c.transactionMode());
        assertEquals("BEGIN IMMEDIATE", c.transactionMode().beginSql());
        assertEquals(DatePrecision.SECONDS, c.datePrecision());
        assertEquals(1000, c.datePrecision().millisPerUnit());
        assertEquals("MEMORY", c.get(Setting.TEMP_STORE));
        assertEquals(TransactionMode.DEFERRED, parse("jdbc:sqlite:a.db?transaction_mode=DEFFERED").transactionMode(),
                "the incumbent's old spelling");
        assertEquals("BEGIN EXCLUSIVE", parse("jdbc:sqlite:a.db?transaction_mode=exclusive")
                .transactionMode().beginSql());
    }

    @ParameterizedTest
    @CsvSource({"UTF-8,UTF-8", "utf8,UTF-8", "'UTF-8',UTF-8", "UTF_16,UTF-16", "utf-16le,UTF-16le",
        "UTF16_BIG_ENDIAN,UTF-16be", "UTF16_LITTLE_ENDIAN,UTF-16le"})
    void encodingSpellings(String value, String canonical) throws SQLException {
        Config c = Config.parse("jdbc:sqlite:a.db", props("encoding", value));
        assertEquals(canonical, c.get(Setting.ENCODING));
        assertEquals(List.of("PRAGMA encoding = '" + canonical + "'"), c.pragmas());
    }

    @Test
    void numbersAreCanonical() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?cache_size=-0064000&busy_timeout=+10&page_size=8192");
        assertEquals("-64000", c.get(Setting.CACHE_SIZE));
        assertEquals(10, c.busyTimeoutMillis());
        assertEquals(List.of("PRAGMA page_size = 8192", "PRAGMA cache_size = -64000"), c.pragmas());
    }

    @Test
    void dateFormatterIsCompiledOnce() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?date_string_format=dd.MM.yyyy");
        assertEquals("02.01.2024", c.dateFormatter().format(LocalDateTime.of(2024, 1, 2, 3, 4)));
        assertEquals(c.dateFormatter(), c.dateFormatter());
        assertEquals("2024-01-02 03:04:05.006", parse("jdbc:sqlite:a.db").dateFormatter()
                .format(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 6_000_000)));
    }

    @Test
    void driverSettings() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?stmt_cache_size=0&cache_tx_statements=false&read_uncommitted=true");
        assertEquals(0, c.stmtCacheSize());
        assertFalse(c.cacheTxStatements());
        assertTrue(c.readUncommitted());
        assertEquals(List.of("PRAGMA read_uncommitted = ON"), c.pragmas());
    }

    // ---- Open flags

    @Test
    void openModeAndSharedCache() throws SQLException {
        Config ro = parse("jdbc:sqlite:a.db?open_mode=1");
        assertEquals(READONLY, ro.openFlags());
        assertTrue(ro.readOnlyOpen());

        assertEquals(0x2, parse("jdbc:sqlite:a.db?open_mode=2").openFlags());
        assertEquals(READWRITE_CREATE, parse("jdbc:sqlite:a.db?open_mode=" + (0x10000 | 0x8000 | 6)).openFlags(),
                "mutex flags are the engine's business");
        assertEquals(READWRITE_CREATE | SHAREDCACHE, parse("jdbc:sqlite:a.db?shared_cache=true").openFlags());
        assertEquals(READWRITE_CREATE, parse("jdbc:sqlite:a.db?open_mode=" + (SHAREDCACHE | 6)
                + "&shared_cache=false").openFlags());
        assertEquals(READONLY | URI | SHAREDCACHE,
                Config.parse("jdbc:sqlite:file:a.db?mode=ro", props("open_mode", "1", "shared_cache", "yes"))
                        .openFlags());
    }

    // ---- PRAGMAs and limits

    @Test
    void pragmasRunInSafeOrder() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?user_version=7&journal_mode=wal&synchronous=normal&foreign_keys=true"
                + "&locking_mode=exclusive&page_size=16384&application_id=-5&encoding=utf8&cache_size=-8000"
                + "&mmap_size=268435456&temp_store=memory&journal_size_limit=-1&secure_delete=fast"
                + "&recursive_triggers=on&case_sensitive_like=off&defer_foreign_keys=1&max_page_count=1000"
                + "&legacy_alter_table=no&reverse_unordered_selects=yes&fullsync=false&read_uncommitted=0");
        assertEquals(List.of(
                "PRAGMA encoding = 'UTF-8'",
                "PRAGMA page_size = 16384",
                "PRAGMA locking_mode = EXCLUSIVE",
                "PRAGMA journal_mode = WAL",
                "PRAGMA journal_size_limit = -1",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA fullfsync = OFF",
                "PRAGMA cache_size = -8000",
                "PRAGMA mmap_size = 268435456",
                "PRAGMA temp_store = MEMORY",
                "PRAGMA foreign_keys = ON",
                "PRAGMA defer_foreign_keys = ON",
                "PRAGMA recursive_triggers = ON",
                "PRAGMA case_sensitive_like = OFF",
                "PRAGMA read_uncommitted = OFF",
                "PRAGMA reverse_unordered_selects = ON",
                "PRAGMA secure_delete = FAST",
                "PRAGMA legacy_alter_table = OFF",
                "PRAGMA max_page_count = 1000",
                "PRAGMA application_id = -5",
                "PRAGMA user_version = 7"), c.pragmas());
        assertThrows(UnsupportedOperationException.class, () -> c.pragmas().add("PRAGMA x = 1"));
    }

    @Test
    void everyPragmaIsBuiltFromValidatedText() throws SQLException {
        Pattern safe = Pattern.compile("PRAGMA [a-z_]+ = ([A-Z]+|'UTF-(8|16|16le|16be)'|-?[0-9]+)");
        Properties p = new Properties();
        for (Setting s : Setting.values()) {
            if (s.use() == Setting.Use.PRAGMA) {
                String[] choices = s.choices();
                p.setProperty(s.key(), choices != null ? choices[choices.length - 1]
                        : s == Setting.PAGE_SIZE ? "4096" : "1");
            }
        }
        Config c = Config.parse("jdbc:sqlite:a.db", p);
        assertEquals(p.size(), c.pragmas().size());
        for (String pragma : c.pragmas()) {
            assertTrue(safe.matcher(pragma).matches(), pragma);
        }
    }

    @Test
    void limits() throws SQLException {
        Config c = parse("jdbc:sqlite:a.db?limit_variable_number=100&limit_attached=2&limit_length=1000000");
        assertEquals(Map.of(0, 1000000, 7, 2, 9, 100), c.limits());
        assertEquals(List.of(0, 7, 9), List.copyOf(c.limits().keySet()), "by ascending id");
        assertEquals(List.of(), c.pragmas(), "limits are not PRAGMAs");
    }

    @Test
    void limitIdsMatchSqlite3H() {
        String[] byId = {"limit_length", "limit_sql_length", "limit_column", "limit_expr_depth",
            "limit_compound_select", "limit_vdbe_op", "limit_function_arg", "limit_attached",
            "limit_like_pattern_length", "limit_variable_number", "limit_trigger_depth", "limit_worker_threads"};
        for (int id = 0; id < byId.length; id++) {
            Setting s = Setting.byKey(byId[id]);
            assertNotNull(s, byId[id]);
            assertEquals(id, s.limitId(), byId[id]);
        }
        assertEquals(byId.length, Arrays.stream(Setting.values()).filter(s -> s.use() == Setting.Use.LIMIT).count());
    }

    // ---- The Setting list and propertyInfo

    @Test
    void everySettingIsDescribedAndItsDefaultIsValid() {
        for (Setting s : Setting.values()) {
            assertTrue(s.key().matches("[a-z_.]+"), s.key());
            assertTrue(s.description() != null && s.description().length() > 20, s.key());
            assertEquals(s, Setting.byKey(s.key().toUpperCase()));
            if (s.defaultValue() != null) {
                assertEquals(s.defaultValue(), s.canonical(s.defaultValue()), s.key());
            }
            if (s.choices() != null) {
                for (String choice : s.choices()) {
                    assertEquals(choice, s.canonical(choice), s.key());
                }
            }
        }
        assertNull(Setting.byKey("nope"));
        assertNull(Setting.byKey(null));
    }

    @Test
    void choicesCannotBeChangedFromOutside() {
        Setting.JOURNAL_MODE.choices()[0] = "DROP";
        assertEquals("DELETE", Setting.JOURNAL_MODE.choices()[0]);
    }

    @Test
    void propertyInfoListsEverySettingWithDefaultsAndChoices() {
        DriverPropertyInfo[] info = Config.propertyInfo("jdbc:sqlite:a.db", null);
        Setting[] all = Setting.values();
        assertEquals(all.length, info.length);
        for (int i = 0; i < all.length; i++) {
            assertEquals(all[i].key(), info[i].name);
            assertEquals(all[i].defaultValue(), info[i].value);
            assertEquals(all[i].description(), info[i].description);
            assertArrayEquals(all[i].choices(), info[i].choices);
            assertFalse(info[i].required);
        }
        assertEquals("3000", byName(info, "busy_timeout").value);
        assertEquals("32", byName(info, "stmt_cache_size").value);
        assertEquals("IMMEDIATE", byName(info, "transaction_mode").value);
        assertArrayEquals(new String[] {"DELETE", "TRUNCATE", "PERSIST", "MEMORY", "WAL", "OFF"},
                byName(info, "journal_mode").choices);
        assertArrayEquals(new String[] {"true", "false"}, byName(info, "foreign_keys").choices);
        assertNull(byName(info, "cache_size").choices);
    }

    @Test
    void propertyInfoShowsGivenValues() {
        DriverPropertyInfo[] info = Config.propertyInfo("jdbc:sqlite:a.db?journal_mode=wal&busy_timeout=1",
                props("busy_timeout", "2"));
        assertEquals("WAL", byName(info, "journal_mode").value);
        assertEquals("2", byName(info, "busy_timeout").value);
    }

    @Test
    void propertyInfoNeverThrows() {
        DriverPropertyInfo[] info = Config.propertyInfo(
                "jdbc:sqlite:a.db?journal_mode=fast&bogus=1&busy_timeout=%zz&mode=ro&cache_size=5",
                props("stmt_cache_size", "-3", "other", "x"));
        assertEquals(Setting.values().length, info.length);
        assertNull(byName(info, "journal_mode").value, "an invalid value falls back to the default");
        assertEquals("3000", byName(info, "busy_timeout").value);
        assertEquals("32", byName(info, "stmt_cache_size").value);
        assertEquals("5", byName(info, "cache_size").value, "valid values are still shown");
        assertEquals(Setting.values().length, Config.propertyInfo(null, null).length);
        assertEquals(Setting.values().length, Config.propertyInfo("jdbc:mysql://x", null).length);
    }

    private static DriverPropertyInfo byName(DriverPropertyInfo[] info, String name) {
        return Arrays.stream(info).filter(d -> d.name.equals(name)).findFirst().orElseThrow();
    }

    /** The key never comes out of the public API: no public method of Config hands it out, in any form. */
    @Test
    void noPublicMethodRevealsTheKey() throws Exception {
        Config c = parse("jdbc:sqlite:a.db?password=sekrit-K3y&hexkey_mode=NONE");
        assertEquals("PRAGMA key = 'sekrit-K3y'", c.keyPragma(), "the engine still gets it");
        for (java.lang.reflect.Method m : Config.class.getMethods()) {
            if (java.lang.reflect.Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class
                    && !m.getName().equals("toString")) {
                continue;
            }
            List<Object> answers = new java.util.ArrayList<>();
            if (m.getParameterCount() == 0) {
                answers.add(m.invoke(c));
            } else if (m.getParameterCount() == 1 && m.getParameterTypes()[0] == Setting.class) {
                for (Setting s : Setting.values()) {
                    answers.add(m.invoke(c, s));
                }
            }
            for (Object answer : answers) {
                assertFalse(String.valueOf(answer).contains("sekrit"), m.getName() + " revealed the key: " + answer);
            }
        }
        assertEquals("***", c.get(Setting.PASSWORD));
        assertTrue(c.isSet(Setting.PASSWORD));
        assertFalse(java.lang.reflect.Modifier.isPublic(Config.class.getDeclaredMethod("keyPragma").getModifiers()));
    }
}
