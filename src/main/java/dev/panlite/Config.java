package dev.panlite;

import dev.panlite.engine.SqlState;
import dev.panlite.engine.EngineConfig;
import dev.panlite.engine.StatementDiagnostics;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The settings of one connection URL plus Properties, parsed and validated once; immutable.
 *
 * <p>URL forms after {@code jdbc:sqlite:}: a file path, {@code :memory:}, nothing (a temporary
 * on-disk database), or an SQLite URI filename ({@code file:x.db?mode=ro}). A query string after
 * {@code ?} carries {@link Setting}s; in a {@code file:} URI the parameters SQLite itself reads
 * stay in the filename. Properties override the URL; {@code user} and {@code password} are ignored.
 * An unknown key (SQLState {@value SqlState#INVALID_OPTION}) or an invalid value (SQLState
 * {@value SqlState#INVALID_ATTRIBUTE_VALUE}) is an {@link SQLException} that names the key and what is accepted.
 */
public final class Config {
    public static final String PREFIX = "jdbc:sqlite:";


    private static final int SQLITE_OPEN_READONLY = 0x1;
    private static final int SQLITE_OPEN_READWRITE = 0x2;
    private static final int SQLITE_OPEN_CREATE = 0x4;
    /** {@code jdbc:sqlite::resource:NAME}: a database packaged on the classpath or behind a URL (the incumbent's). */
    public static final String RESOURCE_PREFIX = ":resource:";
    private static final int SQLITE_OPEN_URI = 0x40;
    private static final int SQLITE_OPEN_SHAREDCACHE = 0x20000;
    private static final int SQLITE_OPEN_PRIVATECACHE = 0x40000;

    /** Query parameters of a URI filename that SQLite itself interprets (sqlite.org/uri.html). */
    private static final List<String> SQLITE_URI_PARAMS =
            List.of("vfs", "mode", "cache", "psow", "nolock", "immutable", "modeof");
    /** The key in a URL's query string, for {@link #url()}. */
    private static final java.util.regex.Pattern PASSWORD_IN_URL =
            java.util.regex.Pattern.compile("(?i)([?&;]password=)[^&;]*");
    /** Sent by DriverManager and connection pools; SQLite has no users (password is a Setting: the key). */
    private static final Set<String> IGNORED_KEYS = Set.of("user");
    /** For error messages: every key, the limits folded into one group to keep it short. */
    private static final String ALL_KEYS = Arrays.stream(Setting.values())
            .filter(s -> s.use() != Setting.Use.LIMIT).map(Setting::key).collect(Collectors.joining(", "))
            + ", limit_{" + Arrays.stream(Setting.values()).filter(s -> s.use() == Setting.Use.LIMIT)
            .map(s -> s.key().substring("limit_".length())).collect(Collectors.joining(", ")) + "}";

    private final String url;
    private final String filename;
    private final String resource;
    private final Map<Setting, String> given;
    private final int openFlags;
    private final boolean readOnlyOpen;
    private final int busyTimeoutMillis;
    private final int stmtCacheSize;
    private final int walAutocheckpoint;
    private final int walSizeMark;
    private final boolean cacheTxStatements;
    private final boolean leakWarning;
    private final boolean readUncommitted;
    private final List<String> pragmas;
    private final List<EngineConfig.LegacyPragma> legacyPragmas;
    private final String keyPragma;
    private final boolean generatedKeys;
    private final Map<Integer, Integer> limits;
    private final Map<Integer, Integer> dbConfig;
    private final boolean cellSizeCheck;
    private final TransactionMode transactionMode;
    private final DateClass dateClass;
    private final DatePrecision datePrecision;
    private final DateTimeFormatter dateFormatter;


    private Config(String url, String filename, Map<Setting, String> given) throws SQLException {
        this.url = PASSWORD_IN_URL.matcher(url).replaceAll("$1***"); // getURL() and logs never show the key
        this.filename = filename;
        this.given = given;

        int flags = Integer.parseInt(get(Setting.OPEN_MODE));
        if (isSet(Setting.SHARED_CACHE)) {
            flags &= ~(SQLITE_OPEN_SHAREDCACHE | SQLITE_OPEN_PRIVATECACHE);
            flags |= Boolean.parseBoolean(get(Setting.SHARED_CACHE)) ? SQLITE_OPEN_SHAREDCACHE : 0;
        }
        if (filename.startsWith("file:")) {
            flags |= SQLITE_OPEN_URI;
        }
        this.resource = filename.startsWith(RESOURCE_PREFIX) ? filename.substring(RESOURCE_PREFIX.length()) : null;
        if (resource != null) { // the incumbent opens a resource read-only: it is a copy of something packaged
            if (resource.isEmpty()) {
                throw new SQLException("Empty resource name in " + PREFIX + RESOURCE_PREFIX
                        + ": name a classpath resource or a jar:, file: or http: URL", SqlState.INVALID_ATTRIBUTE_VALUE);
            }
            flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI)) | SQLITE_OPEN_READONLY;
        }
        this.openFlags = flags;
        this.readOnlyOpen = (flags & SQLITE_OPEN_READONLY) != 0 || uriParam(filename, "mode").equals("ro");
        this.busyTimeoutMillis = Integer.parseInt(get(Setting.BUSY_TIMEOUT));
        this.stmtCacheSize = Integer.parseInt(get(Setting.STMT_CACHE_SIZE));
        this.walAutocheckpoint = Integer.parseInt(get(Setting.WAL_AUTOCHECKPOINT));
        this.walSizeMark = Integer.parseInt(get(Setting.WAL_SIZE_MARK));
        this.cacheTxStatements = Boolean.parseBoolean(get(Setting.CACHE_TX_STATEMENTS));
        this.leakWarning = Boolean.parseBoolean(get(Setting.LEAK_WARNING));
        this.readUncommitted = Boolean.parseBoolean(get(Setting.READ_UNCOMMITTED));
        this.cellSizeCheck = Boolean.parseBoolean(get(Setting.CELL_SIZE_CHECK));

        List<String> p = new ArrayList<>();
        List<EngineConfig.LegacyPragma> legacy = new ArrayList<>();
        Map<Integer, Integer> l = new TreeMap<>();
        Map<Integer, Integer> dbc = new TreeMap<>();
        for (Setting s : Setting.values()) { // declaration order: the order PRAGMAs run in
            String v = given.getOrDefault(s, s.defaultValue()); // the hardening settings have defaults
            if (v == null) {
                continue;
            }
            switch (s.use()) {
                case PRAGMA -> p.add(s.pragma(v));
                case LEGACY -> legacy.add(new EngineConfig.LegacyPragma(s.key(), s.pragma(v), s.pragmaQuery()));
                case LIMIT -> l.put(s.limitId(), Integer.parseInt(v));
                case DBCONFIG -> dbc.put(s.dbConfigOp(), Boolean.parseBoolean(v) ? 1 : 0);
                default -> { }
            }
        }
        this.pragmas = List.copyOf(p);
        this.legacyPragmas = List.copyOf(legacy);
        this.limits = Collections.unmodifiableMap(l);
        this.dbConfig = Collections.unmodifiableMap(dbc);
        this.keyPragma = keyPragma(value(Setting.PASSWORD), get(Setting.HEXKEY_MODE));
        this.generatedKeys = Boolean.parseBoolean(get(Setting.JDBC_GET_GENERATED_KEYS));

        TransactionMode mode = TransactionMode.valueOf(get(Setting.TRANSACTION_MODE));
        if (mode == TransactionMode.DEFERRED && Boolean.parseBoolean(get(Setting.JDBC_EXPLICIT_READONLY))) {
            mode = TransactionMode.IMMEDIATE; // the incumbent's explicit_readonly: writing transactions lock at BEGIN
        }
        this.transactionMode = mode;
        this.dateClass = DateClass.valueOf(get(Setting.DATE_CLASS));
        this.datePrecision = DatePrecision.valueOf(get(Setting.DATE_PRECISION));
        // Locale.ROOT: what is stored in the database must not depend on the JVM's locale.
        this.dateFormatter = DateTimeFormatter.ofPattern(get(Setting.DATE_STRING_FORMAT), Locale.ROOT);
    }

    /** The PRAGMA that applies {@code password} as hexkey_mode says; null for no (or an empty) password. */
    private static String keyPragma(String password, String hexkeyMode) throws SQLException {
        if (password == null || password.isEmpty()) {
            return null;
        }
        if (!hexkeyMode.equals("NONE") && !password.matches("(?:[0-9A-Fa-f]{2})+")) {
            throw new SQLException("Invalid password for hexkey_mode=" + hexkeyMode
                    + ": expected an even number of hex digits", SqlState.INVALID_ATTRIBUTE_VALUE);
        }
        return switch (hexkeyMode) {
            case "SSE" -> "PRAGMA hexkey = '" + password + "'";
            case "SQLCIPHER" -> "PRAGMA key = \"x'" + password + "'\"";
            default -> "PRAGMA key = '" + password.replace("'", "''") + "'";
        };
    }

    /** Whether the URL is one for this driver; false for null. */
    public static boolean acceptsURL(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    /**
     * Parses and validates a URL and its Properties (which may be null; they override the URL).
     *
     * @throws SQLException naming the key and the accepted values, for an unknown key, an invalid
     *     value or a URL not starting with {@link #PREFIX}
     */
    public static Config parse(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            throw new SQLException("Not an SQLite URL: " + url + " (expected " + PREFIX + "<file>)",
                    SqlState.INVALID_ATTRIBUTE_VALUE);
        }
        Map<Setting, String> raw = new EnumMap<>(Setting.class);
        List<SQLException> problems = new ArrayList<>();
        String filename = collect(url, info, raw, problems);
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        for (Map.Entry<Setting, String> e : raw.entrySet()) {
            Setting s = e.getKey();
            try {
                given.put(s, s.canonical(e.getValue()));
            } catch (IllegalArgumentException invalid) {
                throw new SQLException("Invalid value " + quote(e.getValue()) + " for setting " + s.key()
                        + ": expected " + invalid.getMessage(), SqlState.INVALID_ATTRIBUTE_VALUE);
            }
        }
        return new Config(url, filename, Collections.unmodifiableMap(given));
    }

    /**
     * One entry per {@link Setting}, in declaration order: its current value (from the URL or
     * Properties when given and valid, else the default), description and choices. Never throws:
     * what cannot be parsed is passed over.
     */
    public static DriverPropertyInfo[] propertyInfo(String url, Properties info) {
        Map<Setting, String> raw = new EnumMap<>(Setting.class);
        if (acceptsURL(url)) {
            collect(url, info, raw, new ArrayList<>());
        }
        Setting[] all = Setting.values();
        DriverPropertyInfo[] result = new DriverPropertyInfo[all.length];
        for (int i = 0; i < all.length; i++) {
            Setting s = all[i];
            String value = s.defaultValue();
            if (raw.containsKey(s)) {
                try {
                    value = s.canonical(raw.get(s));
                } catch (IllegalArgumentException invalid) {
                    // keep the default: this method only informs
                }
            }
            DriverPropertyInfo d = new DriverPropertyInfo(s.key(), s == Setting.PASSWORD && value != null ? "***" : value);
            d.description = s.description();
            d.choices = s.choices();
            d.required = false;
            result[i] = d;
        }
        return result;
    }

    /**
     * Puts the settings of the URL, then of the Properties, into {@code raw} (not yet validated) and
     * returns the filename for sqlite3_open_v2. Unknown keys and malformed parameters are added to
     * {@code problems} and passed over.
     */
    private static String collect(String url, Properties info, Map<Setting, String> raw,
                                  List<SQLException> problems) {
        String rest = url.substring(PREFIX.length());
        String filename = rest;
        int q = rest.indexOf('?');
        if (q >= 0) {
            String base = rest.substring(0, q);
            String query = rest.substring(q + 1);
            // Case-sensitive, as SQLite's own test for a URI filename.
            boolean uri = base.startsWith("file:");
            if (uri && query.indexOf('#') >= 0) {
                query = query.substring(0, query.indexOf('#')); // SQLite ignores a URI's fragment
            }
            List<String> kept = new ArrayList<>();
            for (String param : query.split("&")) {
                if (param.isEmpty()) {
                    continue;
                }
                int eq = param.indexOf('=');
                String key;
                String value;
                try {
                    key = decode(eq < 0 ? param : param.substring(0, eq));
                    value = eq < 0 ? "" : decode(param.substring(eq + 1));
                } catch (IllegalArgumentException badEscape) {
                    problems.add(new SQLException("Malformed %-escape in URL parameter " + quote(param),
                            SqlState.INVALID_ATTRIBUTE_VALUE));
                    continue;
                }
                if (SQLITE_URI_PARAMS.contains(key)) {
                    if (uri) {
                        kept.add(param); // SQLite decodes its own parameters
                    } else {
                        problems.add(new SQLException("URL parameter " + key + " is read by SQLite only in a"
                                + " URI filename: write " + PREFIX + "file:" + base + "?" + param,
                                SqlState.INVALID_OPTION));
                    }
                } else {
                    putSetting(raw, key, value, "the URL", problems);
                }
            }
            filename = kept.isEmpty() ? base : base + "?" + String.join("&", kept);
        }
        for (Map.Entry<String, String> e : flatten(info).entrySet()) {
            putSetting(raw, e.getKey(), e.getValue(), "Properties", problems);
        }
        return filename;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static void putSetting(Map<Setting, String> raw, String key, String value, String where,
                                   List<SQLException> problems) {
        if (IGNORED_KEYS.contains(key.trim().toLowerCase(Locale.ROOT))) {
            return;
        }
        Setting s = Setting.byKey(key);
        if (s != null) {
            raw.put(s, value);
        } else {
            problems.add(unknownKey(key, where));
        }
    }

    private static SQLException unknownKey(String key, String where) {
        Setting near = nearest(key.trim().toLowerCase(Locale.ROOT));
        return new SQLException("Unknown setting " + quote(key) + " in " + where
                + (near == null ? "" : " (did you mean " + near.key() + "?)")
                + ". Settings: " + ALL_KEYS
                + "; in a file: URI also SQLite's " + String.join(", ", SQLITE_URI_PARAMS) + ".",
                SqlState.INVALID_OPTION);
    }

    /** The setting whose key is within two edits of a misspelled one, if any. */
    private static Setting nearest(String key) {
        Setting best = null;
        int bestDistance = 3;
        for (Setting s : Setting.values()) {
            int d = editDistance(key, s.key());
            if (d < bestDistance) {
                best = s;
                bestDistance = d;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Properties as strings, defaults included; pools sometimes put non-String values. */
    private static Map<String, String> flatten(Properties info) {
        Map<String, String> result = new TreeMap<>();
        if (info != null) {
            for (String name : info.stringPropertyNames()) {
                result.put(name, info.getProperty(name));
            }
            info.forEach((k, v) -> result.putIfAbsent(String.valueOf(k), String.valueOf(v)));
        }
        return result;
    }

    /** The (undecoded) value of an SQLite URI parameter in a file: filename, "" if absent. */
    private static String uriParam(String filename, String name) {
        int q = filename.indexOf('?');
        if (!filename.startsWith("file:") || q < 0) {
            return "";
        }
        for (String param : filename.substring(q + 1).split("&")) {
            if (param.startsWith(name + "=")) {
                return param.substring(name.length() + 1);
            }
        }
        return "";
    }

    private static String quote(String value) {
        return "\"" + (value.length() > 80 ? value.substring(0, 80) + "..." : value) + "\"";
    }

    /** The URL as given to {@link #parse}, a password in it shown as {@code ***}. */
    public String url() {
        return url;
    }

    /**
     * What to pass to sqlite3_open_v2: "" for a temporary database, ":memory:", a path, or a
     * {@code file:} URI holding only the parameters SQLite reads.
     */
    public String filename() {
        return filename;
    }

    /**
     * SQLITE_OPEN_* flags from open_mode and shared_cache, plus SQLITE_OPEN_URI for a {@code file:}
     * filename. Without NOMUTEX and EXRESCODE: the engine adds those.
     */
    int openFlags() {
        return openFlags;
    }

    /**
     * For {@code jdbc:sqlite::resource:NAME}: NAME, a classpath resource or a {@code jar:}, {@code file:}
     * or {@code http:} URL, which the engine copies to a private temporary file and opens read-only;
     * null for any other URL.
     */
    public String resource() {
        return resource;
    }

    /** Whether the database is opened read-only: READONLY in the flags, or mode=ro in a file: URI. */
    public boolean readOnlyOpen() {
        return readOnlyOpen;
    }

    public int busyTimeoutMillis() {
        return busyTimeoutMillis;
    }

    /** enable_load_extension: SQL's load_extension() may load extensions. */
    boolean loadExtensions() {
        return Boolean.parseBoolean(get(Setting.ENABLE_LOAD_EXTENSION));
    }

    /** vector_search: off, required (given true), or where the engine has sqlite-vec compiled in (not given). */
    private EngineConfig.VectorSearch vectorSearch() {
        if (!Boolean.parseBoolean(value(Setting.VECTOR_SEARCH))) {
            return EngineConfig.VectorSearch.OFF;
        }
        return isSet(Setting.VECTOR_SEARCH) ? EngineConfig.VectorSearch.REQUIRED : EngineConfig.VectorSearch.WHERE_COMPILED_IN;
    }

    /** What an extension's entry point must be: a C name. */
    private static final java.util.regex.Pattern C_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * The libraries of a load_extensions value, in order: entries separated by {@code |} (a character
     * no Windows path holds), each a path with an optional {@code !entryPoint}. The text after an
     * entry's last {@code !} is its entry point, so a path holding {@code !} ends with a {@code !} of its
     * own (an empty entry point: SQLite's default). Blank entries are passed over.
     *
     * @throws IllegalArgumentException saying which entry is wrong and why
     */
    static List<dev.panlite.engine.Extensions.Library> extensions(String value) {
        List<dev.panlite.engine.Extensions.Library> libraries = new ArrayList<>();
        for (String part : value.split("\\|")) {
            String entry = part.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int bang = entry.lastIndexOf('!');
            String path = (bang < 0 ? entry : entry.substring(0, bang)).strip();
            String entryPoint = bang < 0 ? "" : entry.substring(bang + 1).strip();
            if (!entryPoint.isEmpty() && !C_NAME.matcher(entryPoint).matches()) {
                throw new IllegalArgumentException("library paths separated by |, each with an optional !entry_point"
                        + " (a C name); in " + quote(entry) + " the text after the last ! is not a C name (a path"
                        + " holding ! must end with a ! of its own)");
            }
            if (path.isEmpty()) {
                throw new IllegalArgumentException("library paths separated by |, each with an optional !entry_point;"
                        + " " + quote(entry) + " names no library");
            }
            try {
                java.nio.file.Path.of(path); // the engine opens it as a Path: fail here, not at open
            } catch (java.nio.file.InvalidPathException invalid) {
                throw new IllegalArgumentException("library paths separated by |; " + quote(path) + " is not a path"
                        + " on this system (" + invalid.getMessage() + ")");
            }
            libraries.add(new dev.panlite.engine.Extensions.Library(path, entryPoint.isEmpty() ? null : entryPoint));
        }
        return List.copyOf(libraries);
    }

    /** A load_extensions value as {@link #extensions} reads it, written back in one spelling. */
    static String canonicalExtensions(String value) {
        return extensions(value).stream()
                .map(l -> l.entryPoint() != null ? l.path() + "!" + l.entryPoint() : l.path().indexOf('!') >= 0 ? l.path() + "!" : l.path())
                .collect(Collectors.joining("|"));
    }

    /**
     * The PRAGMA statements to run right after open, one per PRAGMA setting given, in the order of
     * {@link Setting}'s declaration (page_size before journal_mode, header writes last). Built
     * only from validated values. Empty when none is given.
     */
    List<String> pragmas() {
        return pragmas;
    }

    /** The incumbent's deprecated PRAGMAs given, each applied only where SQLite still has it. */
    List<EngineConfig.LegacyPragma> legacyPragmas() {
        return legacyPragmas;
    }

    /**
     * The PRAGMA setting the encryption key (password, hexkey_mode), to run before anything else
     * reads the database; null without a password. Never part of {@link #toString()} or the public API.
     */
    String keyPragma() {
        return keyPragma;
    }

    /** jdbc.get_generated_keys: after an insert, getGeneratedKeys() answers even when keys were not asked for. */
    public boolean generatedKeys() {
        return generatedKeys;
    }

    /** SQLITE_LIMIT_* id to value for each limit_* setting given, by ascending id. */
    Map<Integer, Integer> limits() {
        return limits;
    }

    public TransactionMode transactionMode() {
        return transactionMode;
    }

    public DateClass dateClass() {
        return dateClass;
    }

    public DatePrecision datePrecision() {
        return datePrecision;
    }

    public String dateStringFormat() {
        return get(Setting.DATE_STRING_FORMAT);
    }

    /** The date_string_format pattern, compiled with {@link Locale#ROOT}. */
    public DateTimeFormatter dateFormatter() {
        return dateFormatter;
    }

    public int stmtCacheSize() {
        return stmtCacheSize;
    }

    /** wal_autocheckpoint: pages in the WAL after a commit that trigger a PASSIVE checkpoint; 0 for none. */
    int walAutocheckpoint() {
        return walAutocheckpoint;
    }

    /** wal_size_mark: pages in the WAL past which a commit records a WalSize JFR event. */
    int walSizeMark() {
        return walSizeMark;
    }

    boolean cacheTxStatements() {
        return cacheTxStatements;
    }

    /** leak_warning: log where a connection was opened when the garbage collector has to close it. */
    public boolean leakWarning() {
        return leakWarning;
    }

    /** Whether read_uncommitted was set true (the connection's initial isolation level). */
    public boolean readUncommitted() {
        return readUncommitted;
    }

    /**
     * The effective value in canonical text: as given, else {@link Setting#defaultValue()} (null for
     * a PRAGMA or limit setting left to SQLite).
     */
    public String get(Setting s) {
        return s == Setting.PASSWORD && isSet(s) ? "***" : value(s); // the key stays out of the public API
    }

    /** The effective value, the key included: for this package only. */
    String value(Setting s) {
        return given.getOrDefault(s, s.defaultValue());
    }

    /**
     * What the engine opens and runs the connection with, the key included: for this package only
     * (the Driver and the data sources), so no public method hands the key out.
     */
    EngineConfig engine() {
        return new EngineConfig(filename, resource, openFlags, readOnlyOpen, busyTimeoutMillis, loadExtensions(), vectorSearch(),
                pragmas, legacyPragmas, keyPragma, limits, dbConfig, cellSizeCheck, transactionMode.beginSql(),
                transactionMode == TransactionMode.DEFERRED, stmtCacheSize, cacheTxStatements, leakWarning,
                walAutocheckpoint, walSizeMark, isSet(Setting.LITESTREAM_SOCKET) ? value(Setting.LITESTREAM_SOCKET) : null,
                Integer.parseInt(value(Setting.LITESTREAM_SYNC_PAGES)), Integer.parseInt(value(Setting.LITESTREAM_WAIT_PAGES)),
                Integer.parseInt(value(Setting.SETLK_TIMEOUT)), toString(), diagnostics(),
                isSet(Setting.LOAD_EXTENSIONS) ? extensions(value(Setting.LOAD_EXTENSIONS)) : List.of());
    }

    /** statement_diagnostics and its thresholds, for the engine. */
    private StatementDiagnostics.Settings diagnostics() {
        return new StatementDiagnostics.Settings(Boolean.parseBoolean(value(Setting.STATEMENT_DIAGNOSTICS)),
                Integer.parseInt(value(Setting.FULLSCAN_THRESHOLD)), Integer.parseInt(value(Setting.SORT_THRESHOLD)),
                Integer.parseInt(value(Setting.AUTOINDEX_THRESHOLD)));
    }

    /** Whether the URL or Properties gave this setting. */
    public boolean isSet(Setting s) {
        return given.containsKey(s);
    }

    @Override
    public String toString() {
        Map<Setting, String> shown = new EnumMap<>(Setting.class);
        shown.putAll(given);
        shown.computeIfPresent(Setting.PASSWORD, (k, v) -> "***"); // a key stays out of logs and messages
        return "Config[" + filename + ", " + shown + "]";
    }
}
