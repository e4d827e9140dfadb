package dev.panlite;

import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Every setting a URL query string or {@link java.util.Properties} may carry: the single list that
 * {@link Config}, the README table and the DataSource properties are built from.
 *
 * <p>Keys are the incumbent's (xerial sqlite-jdbc {@code SQLiteConfig.Pragma}) so its URLs keep
 * working. Each value is validated to a canonical text (an enum constant or a number) before use,
 * so SQL built from it cannot carry anything the user typed. The PRAGMA settings are declared in
 * the order {@link Config#pragmas()} runs them: those that only take effect on a new database
 * (encoding, page_size) come first, locking_mode precedes journal_mode (so WAL can work without
 * shared memory), and the two that write the database header come last.
 */
public enum Setting {
    // ---- Applied when opening: sqlite3_open_v2 flags, extension loading and sqlite3_busy_timeout.
    OPEN_MODE("open_mode", Use.OPEN, Values.openMode(), "6",
            "SQLITE_OPEN_* flags for sqlite3_open_v2 as a decimal integer: 1 READONLY, 2 READWRITE,"
                    + " 4 CREATE, 128 MEMORY, 131072 SHAREDCACHE, 262144 PRIVATECACHE, 16777216 NOFOLLOW;"
                    + " must hold READONLY, READWRITE or READWRITE|CREATE. Mutex flags are ignored:"
                    + " the driver chooses the threading mode."),
    SHARED_CACHE("shared_cache", Use.OPEN, Values.bool(), "false",
            "Open in SQLite's shared-cache mode (SQLITE_OPEN_SHAREDCACHE); the cache= parameter of a"
                    + " file: URI takes precedence."),
    ENABLE_LOAD_EXTENSION("enable_load_extension", Use.OPEN, Values.bool(), "false",
            "Let SQL's load_extension() load SQLite extensions from shared libraries"
                    + " (sqlite3_enable_load_extension). Off by default: it runs native code named in SQL."),
    LOAD_EXTENSIONS("load_extensions", Use.OPEN, Values.extensionList(), null,
            "SQLite extensions to load into the connection at open, after every other setting: library paths"
                    + " separated by |, each with an optional !entry_point (/opt/ext/vec0.so|C:\\ext\\geo.dll!geo_init);"
                    + " without one, SQLite's rule derives it from the file name. A relative path is taken from the"
                    + " working directory; a path holding ! ends with ! of its own. Loading is enabled for those C"
                    + " calls only: SQL's load_extension() stays refused. A library that fails to load fails the open."),
    VECTOR_SEARCH("vector_search", Use.OPEN, Values.bool(), "true",
            "Register sqlite-vec (vec0 tables, vec_* functions), compiled into the bundled engine, on the"
                    + " connection at open (about 4 µs of CPU and 2 KB per connection: docs/experiments/090). On an"
                    + " engine without it (the system SQLite, libSQL) the default does nothing and true fails the open,"
                    + " naming the engine; load sqlite-vec as an extension there. false: not registered (\"no such"
                    + " module: vec0\")."),
    BUSY_TIMEOUT("busy_timeout", Use.OPEN, Values.range(0, Integer.MAX_VALUE), "3000",
            "Milliseconds to wait while another connection holds the write lock, before failing"
                    + " with SQLITE_BUSY; 0 fails at once. The wait is in Java (a fair queue within the"
                    + " JVM, retries for other processes), never asleep inside SQLite. PRAGMA busy_timeout"
                    + " run as SQL sets and reads this wait (so does pragma_busy_timeout on the bundled engine)."),

    // ---- PRAGMAs run right after open, in this order; none unless given.
    ENCODING("encoding", Use.PRAGMA, Values.encoding(), null,
            "Text encoding of a new database (PRAGMA encoding); no effect once the database"
                    + " exists. SQLite's default: UTF-8."),
    PAGE_SIZE("page_size", Use.PRAGMA, Values.pageSize(), null,
            "Page size in bytes of a new database, or at the next VACUUM (PRAGMA page_size): a power"
                    + " of two from 512 to 65536; cannot change in WAL mode. SQLite's default: 4096."),
    LOCKING_MODE("locking_mode", Use.PRAGMA, Values.oneOf("NORMAL", "EXCLUSIVE"), null,
            "PRAGMA locking_mode: EXCLUSIVE keeps the file locked after the first read or write, so"
                    + " other processes cannot use it; WAL then needs no shared memory. SQLite's"
                    + " default: NORMAL."),
    JOURNAL_MODE("journal_mode", Use.PRAGMA,
            Values.oneOf("DELETE", "TRUNCATE", "PERSIST", "MEMORY", "WAL", "OFF"), null,
            "PRAGMA journal_mode: how SQLite keeps rollback data; WAL lets readers run beside a"
                    + " writer and stays set in the database file. SQLite's default: DELETE."),
    JOURNAL_SIZE_LIMIT("journal_size_limit", Use.PRAGMA, Values.range(-1, Long.MAX_VALUE), null,
            "Bytes of journal or WAL file left on disk after a transaction or checkpoint"
                    + " (PRAGMA journal_size_limit); -1 for no limit."),
    SYNCHRONOUS("synchronous", Use.PRAGMA, Values.oneOf("OFF", "NORMAL", "FULL", "EXTRA"), null,
            "PRAGMA synchronous: how often SQLite waits for data to reach the disk. SQLite's default:"
                    + " FULL; NORMAL is durable enough for most uses in WAL mode."),
    FULLSYNC("fullsync", Use.PRAGMA, Values.bool(), null,
            "PRAGMA fullfsync (the incumbent's key drops an f): sync with F_FULLFSYNC on macOS; no effect on other systems.",
            "fullfsync"),
    CACHE_SIZE("cache_size", Use.PRAGMA, Values.range(Integer.MIN_VALUE, Integer.MAX_VALUE), null,
            "PRAGMA cache_size: page cache of each open database; positive in pages, negative in"
                    + " KiB. SQLite's default: -2000 (about 2 MB)."),
    CACHE_SPILL("cache_spill", Use.PRAGMA, Values.boolOrCount(), null,
            "PRAGMA cache_spill: whether a transaction may write dirty pages to the database file"
                    + " before it commits, to free cache (true, false), or a number of pages the cache"
                    + " must hold before it does. SQLite's default: true."),
    MMAP_SIZE("mmap_size", Use.PRAGMA, Values.range(0, Long.MAX_VALUE), null,
            "Bytes of the database file read through memory-mapped I/O (PRAGMA mmap_size); 0 turns"
                    + " it off. Capped by the SQLite build's maximum."),
    TEMP_STORE("temp_store", Use.PRAGMA, Values.oneOf("DEFAULT", "FILE", "MEMORY"), null,
            "PRAGMA temp_store: where temporary tables and indices are kept."),
    AUTOMATIC_INDEX("automatic_index", Use.PRAGMA, Values.bool(), null,
            "PRAGMA automatic_index: let the query planner build a temporary index for a join that"
                    + " has none. SQLite's default: true."),
    FOREIGN_KEYS("foreign_keys", Use.PRAGMA, Values.bool(), null,
            "Enforce FOREIGN KEY constraints (PRAGMA foreign_keys). SQLite's default: false."),
    DEFER_FOREIGN_KEYS("defer_foreign_keys", Use.PRAGMA, Values.bool(), null,
            "Check foreign keys at commit instead of at each statement (PRAGMA defer_foreign_keys);"
                    + " SQLite turns it off again at the first COMMIT or ROLLBACK."),
    RECURSIVE_TRIGGERS("recursive_triggers", Use.PRAGMA, Values.bool(), null,
            "Let triggers fire other triggers recursively (PRAGMA recursive_triggers)."),
    CASE_SENSITIVE_LIKE("case_sensitive_like", Use.PRAGMA, Values.bool(), null,
            "Make LIKE case-sensitive for ASCII letters (PRAGMA case_sensitive_like)."),
    READ_UNCOMMITTED("read_uncommitted", Use.PRAGMA, Values.bool(), null,
            "PRAGMA read_uncommitted: in shared-cache mode, read without waiting for other"
                    + " connections' write locks; the connection then reports"
                    + " TRANSACTION_READ_UNCOMMITTED."),
    REVERSE_UNORDERED_SELECTS("reverse_unordered_selects", Use.PRAGMA, Values.bool(), null,
            "Return rows of queries without ORDER BY in reverse scan order (PRAGMA"
                    + " reverse_unordered_selects), to find code that relies on an order."),
    SECURE_DELETE("secure_delete", Use.PRAGMA, Values.secureDelete(), null,
            "PRAGMA secure_delete: overwrite deleted content with zeros; fast does so only where it"
                    + " costs no extra I/O. The default depends on the SQLite build."),
    LEGACY_ALTER_TABLE("legacy_alter_table", Use.PRAGMA, Values.bool(), null,
            "ALTER TABLE RENAME as before SQLite 3.26, without rewriting references in triggers and"
                    + " views (PRAGMA legacy_alter_table)."),
    MAX_PAGE_COUNT("max_page_count", Use.PRAGMA, Values.range(1, 4294967294L), null,
            "Most pages the database file may grow to (PRAGMA max_page_count)."),
    APPLICATION_ID("application_id", Use.PRAGMA, Values.range(Integer.MIN_VALUE, Integer.MAX_VALUE),
            null, "Writes this 32-bit integer into the database header (PRAGMA application_id);"
                    + " needs a writable database."),
    USER_VERSION("user_version", Use.PRAGMA, Values.range(Integer.MIN_VALUE, Integer.MAX_VALUE),
            null, "Writes this 32-bit integer, free for the application's schema version, into the"
                    + " database header (PRAGMA user_version); needs a writable database."),
    INCREMENTAL_VACUUM("incremental_vacuum", Use.PRAGMA, Values.range(0, Integer.MAX_VALUE), null,
            "Frees up to this many pages from the free list at open (PRAGMA incremental_vacuum); 0 frees"
                    + " them all. Only in auto_vacuum=INCREMENTAL databases."),
    LIMIT_PAGE_COUNT("limit_page_count", Use.PRAGMA, Values.range(1, 4294967294L), null,
            "The incumbent's name for max_page_count: most pages the database file may grow to"
                    + " (PRAGMA max_page_count).", "max_page_count"),

    // ---- SQLite's hardening for database files that may come from elsewhere (its "Defense against
    // the dark arts" guidance), on by default; each setting restores SQLite's own default.
    // sqlite3_db_config, applied right after open (defensive after the PRAGMA settings above);
    // cell_size_check is a PRAGMA the engine runs when it is on (SQLite's default is off).
    DEFENSIVE("defensive", Use.DBCONFIG, Values.bool(), "true",
            "SQLITE_DBCONFIG_DEFENSIVE: SQL cannot corrupt the file on purpose (PRAGMA writable_schema=ON,"
                    + " journal_mode=OFF and schema_version=N by SQL, writes to sqlite_dbpage and to shadow"
                    + " tables are refused). false restores SQLite's default.", 1010),
    TRUSTED_SCHEMA("trusted_schema", Use.DBCONFIG, Values.bool(), "false",
            "SQLITE_DBCONFIG_TRUSTED_SCHEMA: false (hardened) lets views, triggers, CHECK constraints and"
                    + " other schema code call only functions marked innocuous, so a crafted database"
                    + " cannot make the application run a function with side effects (\"unsafe use of f()\")."
                    + " true restores SQLite's default.", 1017),
    DQS_DDL("dqs_ddl", Use.DBCONFIG, Values.bool(), "false",
            "SQLITE_DBCONFIG_DQS_DDL: whether a double-quoted word that names no column is taken as a string"
                    + " literal in CREATE statements (SQLite's legacy misfeature). false: an error (\"no such"
                    + " column\"); true restores SQLite's default.", 1014),
    DQS_DML("dqs_dml", Use.DBCONFIG, Values.bool(), "false",
            "SQLITE_DBCONFIG_DQS_DML: the same for SELECT, INSERT, UPDATE and DELETE: SELECT \"abc\" fails"
                    + " with \"no such column: abc\" unless abc is a column. Write strings in single quotes;"
                    + " true restores SQLite's default.", 1013),
    CELL_SIZE_CHECK("cell_size_check", Use.DRIVER, Values.bool(), "true",
            "PRAGMA cell_size_check: check each b-tree page's cells as it is loaded, so a corrupt file"
                    + " gives SQLITE_CORRUPT rather than reading out of place; costs nothing measurable once"
                    + " pages are cached. false restores SQLite's default."),

    // ---- The incumbent's deprecated PRAGMAs: applied where the loaded SQLite still has them (read
    // back after setting), else accepted with one logged warning per configuration.
    COUNT_CHANGES("count_changes", Use.LEGACY, Values.bool(), null,
            "Deprecated PRAGMA count_changes: INSERT, UPDATE and DELETE return their row count as a"
                    + " row, so they then have a result set."),
    DEFAULT_CACHE_SIZE("default_cache_size", Use.LEGACY, Values.range(Integer.MIN_VALUE, Integer.MAX_VALUE), null,
            "Deprecated PRAGMA default_cache_size: the page cache size stored in the database file;"
                    + " prefer cache_size."),
    EMPTY_RESULT_CALLBACKS("empty_result_callbacks", Use.LEGACY, Values.bool(), null,
            "Deprecated PRAGMA empty_result_callbacks; no effect on this driver. Also accepted under the"
                    + " incumbent's key empty_result_callback."),
    FULL_COLUMN_NAMES("full_column_names", Use.LEGACY, Values.bool(), null,
            "Deprecated PRAGMA full_column_names: result columns named TABLE.COLUMN."),
    SHORT_COLUMN_NAMES("short_column_names", Use.LEGACY, Values.bool(), null,
            "Deprecated PRAGMA short_column_names: result columns named COLUMN."),
    LEGACY_FILE_FORMAT("legacy_file_format", Use.LEGACY, Values.bool(), null,
            "PRAGMA legacy_file_format, a no-op that SQLite has removed: accepted with a warning."),
    TEMP_STORE_DIRECTORY("temp_store_directory", Use.LEGACY, Values.text(), null,
            "Deprecated PRAGMA temp_store_directory: the directory of temporary files (process-wide);"
                    + " prefer the SQLITE_TMPDIR environment variable."),

    // ---- sqlite3_limit(db, SQLITE_LIMIT_*, value) after open; ids from sqlite3.h.
    LIMIT_LENGTH("limit_length", 0,
            "Most bytes in a string, BLOB or table row (SQLITE_LIMIT_LENGTH)."),
    LIMIT_SQL_LENGTH("limit_sql_length", 1,
            "Most bytes in the text of one SQL statement (SQLITE_LIMIT_SQL_LENGTH)."),
    LIMIT_COLUMN("limit_column", 2,
            "Most columns in a table, index, result set, ORDER BY or GROUP BY (SQLITE_LIMIT_COLUMN). Below a"
                    + " table's width (sqlite_schema has 5), SQLite reports the schema as malformed: SQLState 54011."),
    LIMIT_EXPR_DEPTH("limit_expr_depth", 3,
            "Deepest expression parse tree (SQLITE_LIMIT_EXPR_DEPTH)."),
    LIMIT_COMPOUND_SELECT("limit_compound_select", 4,
            "Most terms in a compound SELECT (SQLITE_LIMIT_COMPOUND_SELECT)."),
    LIMIT_VDBE_OP("limit_vdbe_op", 5,
            "Most virtual machine instructions in one prepared statement (SQLITE_LIMIT_VDBE_OP)."),
    LIMIT_FUNCTION_ARG("limit_function_arg", 6,
            "Most arguments to one SQL function (SQLITE_LIMIT_FUNCTION_ARG)."),
    LIMIT_ATTACHED("limit_attached", 7,
            "Most attached databases (SQLITE_LIMIT_ATTACHED)."),
    LIMIT_LIKE_PATTERN_LENGTH("limit_like_pattern_length", 8,
            "Most bytes in a LIKE or GLOB pattern (SQLITE_LIMIT_LIKE_PATTERN_LENGTH)."),
    LIMIT_VARIABLE_NUMBER("limit_variable_number", 9,
            "Highest parameter index in one SQL statement (SQLITE_LIMIT_VARIABLE_NUMBER)."),
    LIMIT_TRIGGER_DEPTH("limit_trigger_depth", 10,
            "Deepest recursion of triggers (SQLITE_LIMIT_TRIGGER_DEPTH)."),
    LIMIT_WORKER_THREADS("limit_worker_threads", 11,
            "Most auxiliary threads one prepared statement may start (SQLITE_LIMIT_WORKER_THREADS)."),

    // ---- Encryption: needs an SQLite with a codec (SQLCipher, SQLite3MultipleCiphers).
    PASSWORD("password", Use.KEY, Values.text(), null,
            "Key of an encrypted database, applied first (PRAGMA key, or hexkey as hexkey_mode says);"
                    + " needs an SQLite build with encryption (panlite.sqlite.library), else the"
                    + " connection fails. Empty: no key."),
    HEXKEY_MODE("hexkey_mode", Use.KEY, Values.oneOf("NONE", "SSE", "SQLCIPHER"), "NONE",
            "How password is read: NONE as a passphrase (PRAGMA key), SSE as hex for PRAGMA hexkey,"
                    + " SQLCIPHER as hex for PRAGMA key = \"x'...'\"."),

    // ---- The driver's own behaviour.
    JDBC_GET_GENERATED_KEYS("jdbc.get_generated_keys", Use.DRIVER, Values.bool(), "true",
            "After an INSERT or REPLACE, getGeneratedKeys() returns the row id (sqlite3_last_insert_rowid,"
                    + " no extra query) even without RETURN_GENERATED_KEYS; false returns keys only when"
                    + " asked for."),
    JDBC_EXPLICIT_READONLY("jdbc.explicit_readonly", Use.DRIVER, Values.bool(), "false",
            "The incumbent's read-only transactions: setReadOnly(true) makes transactions read-only"
                    + " (PRAGMA query_only, as Panlite always does), and the others begin IMMEDIATE even"
                    + " with transaction_mode=DEFERRED."),
    TRANSACTION_MODE("transaction_mode", Use.DRIVER, Values.transactionMode(), "IMMEDIATE",
            "How transactions begin when auto-commit is off (lazily, at the first statement):"
                    + " IMMEDIATE takes the write lock at once, queueing fairly behind this JVM's other"
                    + " writers; DEFERRED waits for the first write, which then fails with SQLITE_BUSY"
                    + " when another connection is writing; EXCLUSIVE. Read-only connections always"
                    + " begin deferred."),
    DATE_CLASS("date_class", Use.DRIVER, Values.oneOf("INTEGER", "TEXT", "REAL"), "INTEGER",
            "How Date, Time and Timestamp values are stored: INTEGER (since the Unix epoch, in"
                    + " date_precision units), TEXT (in date_string_format) or REAL (Julian day)."),
    DATE_PRECISION("date_precision", Use.DRIVER, Values.oneOf("MILLISECONDS", "SECONDS"),
            "MILLISECONDS", "Unit of INTEGER dates: MILLISECONDS (as Java) or SECONDS (as SQLite's"
                    + " unixepoch())."),
    DATE_STRING_FORMAT("date_string_format", Use.DRIVER, Values.datePattern(),
            "yyyy-MM-dd HH:mm:ss.SSS",
            "java.time DateTimeFormatter pattern of TEXT dates."),
    STMT_CACHE_SIZE("stmt_cache_size", Use.DRIVER, Values.range(0, Integer.MAX_VALUE), "32",
            "Prepared statements each connection keeps for reuse, least recently used evicted"
                    + " first; 0 turns the cache off."),
    CACHE_TX_STATEMENTS("cache_tx_statements", Use.DRIVER, Values.bool(), "true",
            "Prepare BEGIN, COMMIT and ROLLBACK once per connection; false prepares them at each"
                    + " use (to compare in benchmarks)."),
    WAL_AUTOCHECKPOINT("wal_autocheckpoint", Use.DRIVER, Values.range(0, Integer.MAX_VALUE), "1000",
            "After a commit leaves at least this many pages in the WAL, a PASSIVE checkpoint runs on the"
                    + " committing thread (as SQLite's own autocheckpoint, which the driver's WAL hook replaces to"
                    + " report each checkpoint to JFR); 0 turns it off, for Litestream under a heavy write load"
                    + " (Litestream checkpoints). The driver never runs a RESTART or TRUNCATE checkpoint itself."),
    WAL_SIZE_MARK("wal_size_mark", Use.DRIVER, Values.range(1, Integer.MAX_VALUE), "16384",
            "Pages in the WAL past which a commit records a dev.panlite.WalSize JFR event (once per crossing;"
                    + " 16384 pages is 64 MiB at the default 4 KiB page size)."),
    SETLK_TIMEOUT("setlk_timeout", Use.DRIVER, Values.range(0, Integer.MAX_VALUE), "0",
            "Experimental (docs/experiments/041): SQLite's blocking locks, sqlite3_setlk_timeout in ms: SQLite then"
                    + " waits inside the call, in the kernel, for a lock another process holds, rather than failing at"
                    + " once to the driver's Java-side wait. Needs a SQLite built with SQLITE_ENABLE_SETLK_TIMEOUT"
                    + " (the bundled one is not: tools/build-sqlite-setlk.sh builds one); refused where the library"
                    + " cannot. 0: off."),
    LITESTREAM_SOCKET("litestream_socket", Use.DRIVER, Values.text(), "",
            "Litestream's control socket (its config's socket.path, with socket.enabled: true): a commit that"
                    + " leaves the WAL past litestream_sync_pages asks Litestream, from a background thread, to sync"
                    + " the database now, and Litestream's sync ends with its checkpoint; this bounds the WAL that"
                    + " Litestream's read lock otherwise lets grow for a whole monitor-interval. Empty: off."),
    LITESTREAM_SYNC_PAGES("litestream_sync_pages", Use.DRIVER, Values.range(1000, Integer.MAX_VALUE), "4096",
            "With litestream_socket: pages in the WAL past which a commit asks Litestream to sync (at most one"
                    + " request in flight per file, 20 ms apart at least); at least 1000, Litestream's own"
                    + " min-checkpoint-page-count below which its sync does not checkpoint."),
    LITESTREAM_WAIT_PAGES("litestream_wait_pages", Use.DRIVER, Values.range(1000, Integer.MAX_VALUE), "12288",
            "With litestream_socket: pages in the WAL past which a writer that takes the write gate first waits"
                    + " (at most 1 s) for the sync request in flight: back-pressure for a Litestream that falls behind"
                    + " (12288 pages is 48 MiB at 4 KiB pages). A request not answered within that second is not"
                    + " waited for again, and no writer waits until a request is answered within a second."),
    STATEMENT_DIAGNOSTICS("statement_diagnostics", Use.DRIVER, Values.bool(), "true",
            "Read SQLite's own counters of each statement execution (sqlite3_stmt_status: full-scan steps, sorts,"
                    + " automatic indexes, VM steps) where the statement is reset: the panlite.statements.* meters,"
                    + " PanliteStatement.counters(), and the reports below. false: not read (docs/experiments/071)."),
    FULLSCAN_THRESHOLD("fullscan_threshold", Use.DRIVER, Values.range(0, Integer.MAX_VALUE), "10000",
            "With statement_diagnostics: an execution that steps through this many rows of a full table or index"
                    + " scan or more records a dev.panlite.StatementCounters JFR event (with its query plan), and the"
                    + " first such execution of each statement text logs one WARNING naming the table scanned; 0: off."),
    SORT_THRESHOLD("sort_threshold", Use.DRIVER, Values.range(0, Integer.MAX_VALUE), "0",
            "With statement_diagnostics: an execution that sorts this many times or more (an ORDER BY or GROUP BY"
                    + " no index serves) records a dev.panlite.StatementCounters JFR event; 0 (the default): off, as"
                    + " sorting a few rows is normal. 1 reports every statement that sorts."),
    AUTOINDEX_THRESHOLD("autoindex_threshold", Use.DRIVER, Values.range(0, Integer.MAX_VALUE), "1",
            "With statement_diagnostics: an execution that puts this many rows or more into automatic indexes"
                    + " (indexes SQLite builds for one execution, for a join no index serves) records a"
                    + " dev.panlite.StatementCounters JFR event, and the first of each statement text logs one WARNING"
                    + " with the CREATE INDEX that would keep one; 0: off."),
    LEAK_WARNING("leak_warning", Use.DRIVER, Values.bool(), "false",
            "Log a warning, with the stack where it was opened, when a connection nobody closed is"
                    + " closed by the garbage collector.");

    /** Who applies a setting. */
    enum Use { OPEN, PRAGMA, LEGACY, LIMIT, DBCONFIG, KEY, DRIVER }

    private static final Map<String, Setting> BY_KEY = new HashMap<>();

    static {
        for (Setting s : values()) {
            BY_KEY.put(s.key, s);
        }
        // spellings the incumbent accepts too
        BY_KEY.put("empty_result_callback", EMPTY_RESULT_CALLBACKS);
        BY_KEY.put("read_uncommited", READ_UNCOMMITTED);
    }

    private final String key;
    private final Use use;
    private final Values values;
    private final String defaultValue;
    private final String description;
    private final int limitId; // the SQLITE_LIMIT_* id (LIMIT) or the SQLITE_DBCONFIG_* op (DBCONFIG)
    private final String pragmaName;

    Setting(String key, Use use, Values values, String defaultValue, String description) {
        this(key, use, values, defaultValue, description, -1);
    }

    Setting(String key, Use use, Values values, String defaultValue, String description, String pragmaName) {
        this(key, use, values, defaultValue, description, -1, pragmaName);
    }

    Setting(String key, int limitId, String description) {
        this(key, Use.LIMIT, Values.range(0, Integer.MAX_VALUE), null, description, limitId);
    }

    Setting(String key, Use use, Values values, String defaultValue, String description, int limitId) {
        this(key, use, values, defaultValue, description, limitId, key);
    }

    Setting(String key, Use use, Values values, String defaultValue, String description, int limitId,
            String pragmaName) {
        this.pragmaName = pragmaName;
        this.key = key;
        this.use = use;
        this.values = values;
        this.defaultValue = defaultValue;
        this.description = description;
        this.limitId = limitId;
    }

    /** The key in URLs and Properties, e.g. {@code journal_mode}. */
    public String key() {
        return key;
    }

    /**
     * The value used when the setting is not given, as text; {@code null} for most PRAGMA and the
     * limit settings, which are then left to SQLite (its build's default or what the database file
     * holds). The hardening settings (defensive, trusted_schema, dqs_ddl, dqs_dml) have a default:
     * they are applied at every open.
     */
    public String defaultValue() {
        return defaultValue;
    }

    /** The accepted values in canonical spelling, or {@code null} if the value is free-form. */
    public String[] choices() {
        return values.choices == null ? null : values.choices.clone();
    }

    /** One or two sentences for the README, DataSource javadoc and DriverPropertyInfo. */
    public String description() {
        return description;
    }

    /** The setting with this key (case-insensitive), or {@code null} if there is none. */
    public static Setting byKey(String key) {
        return key == null ? null : BY_KEY.get(key.trim().toLowerCase(Locale.ROOT));
    }

    Use use() {
        return use;
    }

    /** The SQLITE_LIMIT_* id of a limit setting, -1 for the others. */
    int limitId() {
        return use == Use.LIMIT ? limitId : -1;
    }

    /** The SQLITE_DBCONFIG_* op of a db_config setting, -1 for the others. */
    int dbConfigOp() {
        return use == Use.DBCONFIG ? limitId : -1;
    }

    /**
     * The canonical text of a raw value (enum constant, "true"/"false" or a plain number).
     *
     * @throws IllegalArgumentException if the value is not accepted; the message says what is
     */
    String canonical(String raw) {
        String c = raw == null ? null : values.canon.apply(raw);
        if (c == null) {
            throw new IllegalArgumentException(values.expected);
        }
        return c;
    }

    /** The PRAGMA statement for a canonical value of a PRAGMA setting. */
    String pragma(String canonical) {
        return "PRAGMA " + pragmaName + " = " + values.sql.apply(canonical);
    }

    /** The PRAGMA that reads the setting back: no row when the loaded SQLite lacks it. */
    String pragmaQuery() {
        return "PRAGMA " + pragmaName;
    }

    /**
     * A kind of value: its choices, the canonical form of an input (null when invalid) and its
     * spelling in SQL.
     */
    private record Values(String[] choices, String expected, UnaryOperator<String> canon,
                          UnaryOperator<String> sql) {

        static final int SQLITE_OPEN_READONLY = 0x1;
        static final int SQLITE_OPEN_READWRITE = 0x2;
        static final int SQLITE_OPEN_CREATE = 0x4;
        static final int SQLITE_OPEN_NOMUTEX = 0x8000;
        static final int SQLITE_OPEN_FULLMUTEX = 0x10000;

        static Values bool() {
            return new Values(new String[] {"true", "false"},
                    "true or false (also on/off, yes/no, 1/0)", Values::bool, b -> b.equals("true") ? "ON" : "OFF");
        }

        private static String bool(String raw) {
            return switch (raw.trim().toLowerCase(Locale.ROOT)) {
                case "true", "on", "yes", "1" -> "true";
                case "false", "off", "no", "0" -> "false";
                default -> null;
            };
        }

        /** true or false, or a count (an integer >= 0), as cache_spill takes. */
        static Values boolOrCount() {
            return new Values(null, "true or false (also on/off, yes/no), or a number of pages >= 0", raw -> {
                Long n = number(raw);
                return n != null ? (n >= 0 ? n.toString() : null) : bool(raw);
            }, v -> switch (v) {
                case "true" -> "ON";
                case "false" -> "OFF";
                default -> v;
            });
        }

        static Values range(long min, long max) {
            String expected = max == Long.MAX_VALUE
                    ? "an integer >= " + min
                    : "an integer from " + min + " to " + max;
            return new Values(null, expected, raw -> {
                Long n = number(raw);
                return n == null || n < min || n > max ? null : n.toString();
            }, UnaryOperator.identity());
        }

        private static Long number(String raw) {
            try {
                return Long.parseLong(raw.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** Free text, as an SQL string literal (quotes doubled); no NUL. */
        static Values text() {
            return new Values(null, "text without NUL characters", raw -> raw.indexOf('\0') >= 0 ? null : raw,
                    v -> "'" + v.replace("'", "''") + "'");
        }

        static Values pageSize() {
            return new Values(null, "a power of two from 512 to 65536", raw -> {
                Long n = number(raw);
                return n == null || n < 512 || n > 65536 || Long.bitCount(n) != 1 ? null : n.toString();
            }, UnaryOperator.identity());
        }

        static Values oneOf(String... choices) {
            return choice(choices, Map.of(), UnaryOperator.identity());
        }

        /** Accepts the choices in any case, and the given aliases (upper case) for some of them. */
        private static Values choice(String[] choices, Map<String, String> aliases, UnaryOperator<String> sql) {
            Map<String, String> accepted = new HashMap<>(aliases);
            for (String c : choices) {
                accepted.put(c.toUpperCase(Locale.ROOT), c);
            }
            return new Values(choices, "one of " + String.join(", ", choices),
                    raw -> accepted.get(raw.trim().toUpperCase(Locale.ROOT)), sql);
        }

        static Values transactionMode() {
            // Early versions of the incumbent spelled it DEFFERED, and their toProperties() still says so.
            return choice(new String[] {"DEFERRED", "IMMEDIATE", "EXCLUSIVE"},
                    Map.of("DEFFERED", "DEFERRED"), UnaryOperator.identity());
        }

        static Values secureDelete() {
            return choice(new String[] {"true", "false", "fast"},
                    Map.of("ON", "true", "YES", "true", "1", "true", "OFF", "false", "NO", "false", "0", "false"),
                    v -> switch (v) {
                        case "true" -> "ON";
                        case "false" -> "OFF";
                        default -> "FAST";
                    });
        }

        static Values encoding() {
            // The incumbent's Encoding constants (UTF16_LITTLE_ENDIAN) and its quoted values ('UTF-8').
            Map<String, String> aliases = new HashMap<>();
            for (String[] a : new String[][] {{"UTF8", "UTF-8"}, {"UTF16", "UTF-16"}, {"UTF16LE", "UTF-16le"},
                    {"UTF16BE", "UTF-16be"}, {"UTF16LITTLEENDIAN", "UTF-16le"}, {"UTF16BIGENDIAN", "UTF-16be"}}) {
                aliases.put(a[0], a[1]);
            }
            String[] choices = {"UTF-8", "UTF-16", "UTF-16le", "UTF-16be"};
            return new Values(choices, "one of " + String.join(", ", choices), raw -> {
                String s = raw.trim();
                if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
                    s = s.substring(1, s.length() - 1);
                }
                return aliases.get(s.replace("-", "").replace("_", "").toUpperCase(Locale.ROOT));
            }, v -> "'" + v + "'");
        }

        static Values datePattern() {
            String expected = "a java.time DateTimeFormatter pattern such as yyyy-MM-dd HH:mm:ss.SSS";
            return new Values(null, expected, raw -> {
                if (raw.isBlank()) {
                    return null;
                }
                try {
                    DateTimeFormatter.ofPattern(raw);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(expected + " (" + e.getMessage() + ")");
                }
                return raw;
            }, UnaryOperator.identity());
        }

        /** load_extensions: {@code path[!entryPoint]} separated by {@code |} (Config.extensions parses it). */
        static Values extensionList() {
            return new Values(null, "library paths separated by |, each with an optional !entry_point (a C name)",
                    raw -> raw.indexOf('\0') >= 0 ? null : Config.canonicalExtensions(raw), UnaryOperator.identity());
        }

        static Values openMode() {
            return new Values(null, "an integer of SQLITE_OPEN_* flags holding READONLY (1),"
                    + " READWRITE (2) or READWRITE|CREATE (6)", raw -> {
                Long n = number(raw);
                if (n == null || n < 0 || n > Integer.MAX_VALUE) {
                    return null;
                }
                // The engine picks the threading mode itself; a FULLMUTEX from an old URL must not fight it.
                int flags = n.intValue() & ~(SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_FULLMUTEX);
                int access = flags & (SQLITE_OPEN_READONLY | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
                boolean valid = access == SQLITE_OPEN_READONLY || access == SQLITE_OPEN_READWRITE
                        || access == (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
                return valid ? Integer.toString(flags) : null;
            }, UnaryOperator.identity());
        }
    }
}
