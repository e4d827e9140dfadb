package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SQLite C API as static Java methods: one downcall handle per C function, created once and
 * held in a static final field so the JIT constant-folds it. Handles ({@code sqlite3*},
 * {@code sqlite3_stmt*}) travel through the layers above as plain {@code long} addresses, so no
 * other package needs {@code java.lang.foreign}.
 *
 * <p>{@code critical} (no thread-state transition; heap arrays may be passed) is used only for
 * short calls that never block and never call back into Java: bind, column, clear_bindings,
 * changes, last_insert_rowid, errcode. Never for step, prepare, open, close, finalize or reset
 * (reset can commit, finalize can run user code).
 *
 * <p>Every descriptor is checked against the installed sqlite3.h by {@code SqliteBindingsTest}.
 */
public final class Sqlite {
    // Result codes and flags used above this layer (values from sqlite3.h).
    public static final int OK = 0;
    public static final int ERROR = 1;
    public static final int BUSY = 5;
    public static final int LOCKED = 6;
    public static final int NOMEM = 7;
    public static final int READONLY = 8;
    public static final int INTERRUPT = 9;
    public static final int CONSTRAINT = 19;
    public static final int MISUSE = 21;
    public static final int RANGE = 25;
    public static final int ROW = 100;
    public static final int DONE = 101;

    public static final int INTEGER = 1;
    public static final int FLOAT = 2;
    public static final int TEXT = 3;
    public static final int BLOB = 4;
    public static final int NULL = 5;

    public static final int OPEN_READONLY = 0x01;
    public static final int OPEN_READWRITE = 0x02;
    public static final int OPEN_CREATE = 0x04;
    public static final int OPEN_URI = 0x40;
    public static final int OPEN_MEMORY = 0x80;
    public static final int OPEN_NOMUTEX = 0x8000;
    public static final int OPEN_SHAREDCACHE = 0x20000;
    public static final int OPEN_EXRESCODE = 0x02000000;

    public static final int PREPARE_PERSISTENT = 0x01;

    private static final int CONFIG_MEMSTATUS = 9;

    /** SQLITE_TRANSIENT: SQLite copies bound text and blobs before the call returns. */
    private static final MemorySegment TRANSIENT = MemorySegment.ofAddress(-1L);

    private static final Map<String, FunctionDescriptor> BOUND = new LinkedHashMap<>();
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    private static final Linker.Option CRITICAL_HEAP = Linker.Option.critical(true);

    // --- library and connection
    private static final MethodHandle LIBVERSION = bind("sqlite3_libversion", FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle LIBVERSION_NUMBER = bind("sqlite3_libversion_number", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle CONFIG_INT = bind("sqlite3_config",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(1));
    private static final MethodHandle OPEN_V2 = bind("sqlite3_open_v2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle CLOSE_V2 = bind("sqlite3_close_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle ERRMSG = bind("sqlite3_errmsg", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle ERRSTR = bind("sqlite3_errstr", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle EXTENDED_ERRCODE = bind("sqlite3_extended_errcode",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle ERROR_OFFSET = bind("sqlite3_error_offset",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle IS_INTERRUPTED = bind("sqlite3_is_interrupted",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle BUSY_TIMEOUT = bind("sqlite3_busy_timeout",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle ENABLE_LOAD_EXTENSION = bind("sqlite3_enable_load_extension",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    // runs the extension's entry point, which may run SQL and call back into Java: never critical
    private static final MethodHandle LOAD_EXTENSION = bind("sqlite3_load_extension",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle LIMIT = bind("sqlite3_limit",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    // sqlite3_db_config(db, op, ...): the int-valued ops take (int on/off or -1 to query, int* result)
    private static final MethodHandle DB_CONFIG_INT = bind("sqlite3_db_config",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CHANGES64 = bind("sqlite3_changes64", FunctionDescriptor.of(JAVA_LONG, ADDRESS), CRITICAL);
    private static final MethodHandle TOTAL_CHANGES64 = bind("sqlite3_total_changes64",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS), CRITICAL);
    private static final MethodHandle LAST_INSERT_ROWID = bind("sqlite3_last_insert_rowid",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS), CRITICAL);
    private static final MethodHandle GET_AUTOCOMMIT = bind("sqlite3_get_autocommit",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle INTERRUPT_DB = bind("sqlite3_interrupt", FunctionDescriptor.ofVoid(ADDRESS));
    // the write path (engine/WriteGate, engine/BusyWait): which file, whether a transaction holds a lock
    private static final MethodHandle DB_FILENAME = bind("sqlite3_db_filename",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle TXN_STATE = bind("sqlite3_txn_state",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
    private static final MethodHandle NEXT_STMT = bind("sqlite3_next_stmt", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle TABLE_COLUMN_METADATA = bind("sqlite3_table_column_metadata",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));

    // --- statements
    private static final MethodHandle PREPARE_V3 = bind("sqlite3_prepare_v3",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle STEP = bind("sqlite3_step", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle STMT_READONLY = bind("sqlite3_stmt_readonly",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle SQL = bind("sqlite3_sql", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle STMT_ISEXPLAIN = bind("sqlite3_stmt_isexplain", // SQLite 3.28+
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle RESET = bind("sqlite3_reset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    // statement diagnostics (engine/StatementDiagnostics): reads and optionally zeroes one int counter of the
    // statement; short, never blocks, never calls back (SQLite 3.6.4+)
    private static final MethodHandle STMT_STATUS = bind("sqlite3_stmt_status",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), CRITICAL);
    private static final MethodHandle FINALIZE = bind("sqlite3_finalize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle CLEAR_BINDINGS = bind("sqlite3_clear_bindings",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle BIND_PARAMETER_COUNT = bind("sqlite3_bind_parameter_count",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle BIND_NULL = bind("sqlite3_bind_null",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle BIND_INT = bind("sqlite3_bind_int",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), CRITICAL);
    private static final MethodHandle BIND_INT64 = bind("sqlite3_bind_int64",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), CRITICAL);
    private static final MethodHandle BIND_DOUBLE = bind("sqlite3_bind_double",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_DOUBLE), CRITICAL);
    private static final MethodHandle BIND_TEXT = bind("sqlite3_bind_text",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), CRITICAL_HEAP);
    private static final MethodHandle BIND_BLOB = bind("sqlite3_bind_blob",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), CRITICAL_HEAP);
    private static final MethodHandle COLUMN_COUNT = bind("sqlite3_column_count",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle COLUMN_TYPE = bind("sqlite3_column_type",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_INT = bind("sqlite3_column_int",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_INT64 = bind("sqlite3_column_int64",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_DOUBLE = bind("sqlite3_column_double",
            FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_TEXT = bind("sqlite3_column_text",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_BLOB = bind("sqlite3_column_blob",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_BYTES = bind("sqlite3_column_bytes",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_NAME = bind("sqlite3_column_name",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_DECLTYPE = bind("sqlite3_column_decltype",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_TABLE_NAME = bind("sqlite3_column_table_name",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_ORIGIN_NAME = bind("sqlite3_column_origin_name",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle COLUMN_DATABASE_NAME = bind("sqlite3_column_database_name",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);

    // --- change hooks (registration only; the hooks themselves are upcalls)
    private static final MethodHandle UPDATE_HOOK = bind("sqlite3_update_hook",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle COMMIT_HOOK = bind("sqlite3_commit_hook",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle ROLLBACK_HOOK = bind("sqlite3_rollback_hook",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));

    // --- the WAL: its commit hook and checkpoints (engine/Checkpoints; I/O and locks: never critical)
    private static final MethodHandle WAL_HOOK = bind("sqlite3_wal_hook", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle WAL_CHECKPOINT_V2 = bind("sqlite3_wal_checkpoint_v2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
    // SQLite 3.50+; it does something only in a build with SQLITE_ENABLE_SETLK_TIMEOUT (docs/experiments/041)
    private static final MethodHandle SETLK_TIMEOUT = bind("sqlite3_setlk_timeout",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));

    // --- online backup (does I/O and takes locks: never critical)
    private static final MethodHandle BACKUP_INIT = bind("sqlite3_backup_init",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle BACKUP_STEP = bind("sqlite3_backup_step", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle BACKUP_FINISH = bind("sqlite3_backup_finish", FunctionDescriptor.of(JAVA_INT, ADDRESS));

    // --- user-defined functions (called from inside an upcall: short, critical)
    private static final MethodHandle CREATE_FUNCTION_V2 = bind("sqlite3_create_function_v2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CREATE_COLLATION_V2 = bind("sqlite3_create_collation_v2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle AGGREGATE_CONTEXT = bind("sqlite3_aggregate_context",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle VALUE_TYPE = bind("sqlite3_value_type", FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle VALUE_INT64 = bind("sqlite3_value_int64", FunctionDescriptor.of(JAVA_LONG, ADDRESS), CRITICAL);
    private static final MethodHandle VALUE_DOUBLE = bind("sqlite3_value_double",
            FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS), CRITICAL);
    private static final MethodHandle VALUE_TEXT = bind("sqlite3_value_text", FunctionDescriptor.of(ADDRESS, ADDRESS), CRITICAL);
    private static final MethodHandle VALUE_BLOB = bind("sqlite3_value_blob", FunctionDescriptor.of(ADDRESS, ADDRESS), CRITICAL);
    private static final MethodHandle VALUE_BYTES = bind("sqlite3_value_bytes", FunctionDescriptor.of(JAVA_INT, ADDRESS), CRITICAL);
    private static final MethodHandle COLUMN_VALUE = bind("sqlite3_column_value",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), CRITICAL);
    private static final MethodHandle VALUE_DUP = bind("sqlite3_value_dup", FunctionDescriptor.of(ADDRESS, ADDRESS), CRITICAL);
    private static final MethodHandle VALUE_FREE = bind("sqlite3_value_free", FunctionDescriptor.ofVoid(ADDRESS), CRITICAL);
    private static final MethodHandle RESULT_NULL = bind("sqlite3_result_null", FunctionDescriptor.ofVoid(ADDRESS), CRITICAL);
    private static final MethodHandle RESULT_INT64 = bind("sqlite3_result_int64",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG), CRITICAL);
    private static final MethodHandle RESULT_DOUBLE = bind("sqlite3_result_double",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE), CRITICAL);
    private static final MethodHandle RESULT_TEXT = bind("sqlite3_result_text",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, ADDRESS), CRITICAL_HEAP);
    private static final MethodHandle RESULT_BLOB = bind("sqlite3_result_blob",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, ADDRESS), CRITICAL_HEAP);
    private static final MethodHandle RESULT_ERROR = bind("sqlite3_result_error",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT), CRITICAL_HEAP);

    static {
        // Debian's build keeps memory statistics on, which costs every malloc a global mutex;
        // turning them off must happen before the library initialises (first open). If another
        // user of the same library already initialised it, SQLite answers MISUSE and nothing
        // changes: the driver works the same, a little slower.
        if (CONFIG_INT != null) {
            try {
                int unused = (int) CONFIG_INT.invokeExact(CONFIG_MEMSTATUS, 0);
            } catch (Throwable t) {
                throw fail(t);
            }
        }
    }

    private Sqlite() {}

    private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        BOUND.put(name, descriptor);
        var lookup = SqliteLibrary.lookup();
        if (lookup == null) {
            return null; // SqliteLibrary.loadError() explains; Database.open checks it first
        }
        // A function missing from an older build leaves a null handle: an optional one's feature says
        // so (OptionalFunctions), a required one stops the first connection.
        var address = lookup.find(name);
        if (address.isEmpty()) {
            OptionalFunctions.noteMissing(name);
            return null;
        }
        return LINKER.downcallHandle(address.get(), descriptor, options);
    }

    /** Whether the loaded library exports the C function {@code name}. */
    public static boolean has(String name) {
        return SqliteLibrary.lookup() != null && SqliteLibrary.lookup().find(name).isPresent();
    }

    /**
     * Whether the loaded library can encrypt: SQLCipher and SQLite3MultipleCiphers export
     * sqlite3_key (a plain SQLite ignores PRAGMA key silently, which must never pass for encryption).
     */
    public static boolean supportsEncryption() {
        return SqliteLibrary.lookup() != null && SqliteLibrary.lookup().find("sqlite3_key").isPresent();
    }

    /** Every bound C function and its descriptor, for the binding test. */
    static Map<String, FunctionDescriptor> descriptors() {
        return Collections.unmodifiableMap(BOUND);
    }

    /** The address of a C function in the loaded library (handed to the native helper), or NULL. */
    static MemorySegment symbol(String name) {
        return SqliteLibrary.lookup().find(name).orElse(MemorySegment.NULL);
    }

    static RuntimeException fail(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    private static MemorySegment ptr(long address) {
        return MemorySegment.ofAddress(address);
    }

    /** Reads a NUL-terminated UTF-8 string owned by SQLite; null for NULL. */
    static String cString(MemorySegment p) {
        return p.address() == 0 ? null : p.reinterpret(Integer.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ library

    public static String libversion() {
        try {
            return cString((MemorySegment) LIBVERSION.invokeExact());
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int libversionNumber() {
        try {
            return (int) LIBVERSION_NUMBER.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ------------------------------------------------------------------ connection

    static int openV2(MemorySegment filename, MemorySegment ppDb, int flags) {
        try {
            return (int) OPEN_V2.invokeExact(filename, ppDb, flags, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int closeV2(long db) {
        try {
            return (int) CLOSE_V2.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static String errmsg(long db) {
        try {
            return cString((MemorySegment) ERRMSG.invokeExact(ptr(db)));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static String errstr(int rc) {
        try {
            return cString((MemorySegment) ERRSTR.invokeExact(rc));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int extendedErrcode(long db) {
        try {
            return (int) EXTENDED_ERRCODE.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Byte offset of the error in the SQL text, or -1 (also on builds older than 3.38). */
    public static int errorOffset(long db) {
        if (ERROR_OFFSET == null) {
            return -1;
        }
        try {
            return (int) ERROR_OFFSET.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * Whether an sqlite3_interrupt is in force on {@code db} (it stays until no statement of the
     * connection runs); false on builds older than 3.41, which cannot tell.
     */
    public static boolean isInterrupted(long db) {
        if (IS_INTERRUPTED == null) {
            return false;
        }
        try {
            return (int) IS_INTERRUPTED.invokeExact(ptr(db)) != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int busyTimeout(long db, int millis) {
        try {
            return (int) BUSY_TIMEOUT.invokeExact(ptr(db), millis);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * Turns SQL's load_extension() on or off. Returns SQLITE_ERROR when this SQLite
     * build has no extension loading (SQLITE_OMIT_LOAD_EXTENSION: the function is missing).
     */
    public static int enableLoadExtension(long db, boolean on) {
        if (ENABLE_LOAD_EXTENSION == null) {
            return ERROR;
        }
        try {
            return (int) ENABLE_LOAD_EXTENSION.invokeExact(ptr(db), on ? 1 : 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION: lets the C function sqlite3_load_extension load, leaving SQL's
     * load_extension() refused (sqlite3_enable_load_extension turns on both).
     */
    public static final int DBCONFIG_ENABLE_LOAD_EXTENSION = 1005;

    /**
     * sqlite3_load_extension(db, file, entryPoint or NULL, &error). {@code error} receives NULL or a
     * message SQLite allocated, which the caller frees with {@link #free}.
     */
    static int loadExtension(long db, MemorySegment file, MemorySegment entryPoint, MemorySegment error) {
        try {
            return (int) LOAD_EXTENSION.invokeExact(ptr(db), file, entryPoint, error);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Sets limit {@code id} to {@code value} (negative: leave it) and returns the previous value. */
    /**
     * sqlite3_db_config of an on/off option ({@code SQLITE_DBCONFIG_DEFENSIVE}, {@code _DQS_DML}, ...):
     * sets it ({@code value} 0 or 1; -1 only reads it) and returns the value now in force, or -1 when
     * SQLite refused the op (an older build that does not know it).
     */
    public static int dbConfig(long db, int op, int value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            out.set(JAVA_INT, 0, -1);
            int rc = (int) DB_CONFIG_INT.invokeExact(ptr(db), op, value, out);
            return rc == OK ? out.get(JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static final int LIMIT_COLUMN = 2; // SQLITE_LIMIT_COLUMN

    /** sqlite3_limit: sets limit {@code id} to {@code value} (a negative value only reads it); returns the limit before. */
    public static int limit(long db, int id, int value) {
        try {
            return (int) LIMIT.invokeExact(ptr(db), id, value);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static long changes(long db) {
        try {
            return (long) CHANGES64.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static long totalChanges(long db) {
        try {
            return (long) TOTAL_CHANGES64.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static long lastInsertRowid(long db) {
        try {
            return (long) LAST_INSERT_ROWID.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** SQLITE_TXN_NONE: no transaction holds a lock on any schema of the connection (sqlite3_txn_state). */
    public static final int TXN_NONE = 0;
    /** SQLITE_TXN_WRITE: a write transaction is open on a schema of the connection (sqlite3_txn_state). */
    public static final int TXN_WRITE = 2;

    /** sqlite3_txn_state(db, NULL): the highest transaction state over all schemas. */
    public static int txnState(long db) {
        try {
            return (int) TXN_STATE.invokeExact(ptr(db), MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** sqlite3_txn_state(db, schema): the transaction state of one schema (main, temp or an attached name). */
    public static int txnState(long db, String schema) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) TXN_STATE.invokeExact(ptr(db), arena.allocateFrom(schema));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * The file of the "main" schema as SQLite resolved it (absolute), or "" for an in-memory or
     * temporary database (sqlite3_db_filename); copied to Java at once.
     */
    public static String mainFilename(long db) {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            String name = cString((MemorySegment) DB_FILENAME.invokeExact(ptr(db), arena.allocateFrom("main")));
            return name == null ? "" : name;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** sqlite3_sql: the text the statement was prepared from (one statement), copied to Java. */
    public static String sql(long stmt) {
        try {
            return cString((MemorySegment) SQL.invokeExact(ptr(stmt)));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** sqlite3_stmt_isexplain != 0: an EXPLAIN or EXPLAIN QUERY PLAN (false below SQLite 3.28, which lacks it). */
    public static boolean stmtIsexplain(long stmt) {
        if (STMT_ISEXPLAIN == null) {
            return false;
        }
        try {
            return (int) STMT_ISEXPLAIN.invokeExact(ptr(stmt)) != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** sqlite3_stmt_readonly: true when the statement cannot change the database file itself. */
    public static boolean stmtReadonly(long stmt) {
        try {
            return (int) STMT_READONLY.invokeExact(ptr(stmt)) != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static boolean getAutocommit(long db) {
        try {
            return (int) GET_AUTOCOMMIT.invokeExact(ptr(db)) != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Safe from any thread while the connection is open. */
    public static void interrupt(long db) {
        try {
            INTERRUPT_DB.invokeExact(ptr(db));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The next prepared statement of {@code db} after {@code stmt} (0: the first); 0 at the end. */
    public static long nextStmt(long db, long stmt) {
        try {
            return ((MemorySegment) NEXT_STMT.invokeExact(ptr(db), ptr(stmt))).address();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int tableColumnMetadata(long db, MemorySegment dbName, MemorySegment table, MemorySegment column,
            MemorySegment dataType, MemorySegment collSeq, MemorySegment notNull, MemorySegment primaryKey,
            MemorySegment autoinc) {
        if (TABLE_COLUMN_METADATA == null) {
            return ERROR; // a build without SQLITE_ENABLE_COLUMN_METADATA: the column's metadata is unknown
        }
        try {
            return (int) TABLE_COLUMN_METADATA.invokeExact(ptr(db), dbName, table, column, dataType, collSeq, notNull,
                    primaryKey, autoinc);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ------------------------------------------------------------------ statements

    static int prepareV3(long db, MemorySegment sql, int length, int flags, MemorySegment ppStmt, MemorySegment pzTail) {
        try {
            return (int) PREPARE_V3.invokeExact(ptr(db), sql, length, flags, ppStmt, pzTail);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int step(long stmt) {
        try {
            return (int) STEP.invokeExact(ptr(stmt));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int reset(long stmt) {
        try {
            return (int) RESET.invokeExact(ptr(stmt));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // SQLITE_STMTSTATUS_* counters of sqlite3_stmt_status
    public static final int STMTSTATUS_FULLSCAN_STEP = 1;
    public static final int STMTSTATUS_SORT = 2;
    public static final int STMTSTATUS_AUTOINDEX = 3;
    public static final int STMTSTATUS_VM_STEP = 4;
    public static final int STMTSTATUS_REPREPARE = 5;
    public static final int STMTSTATUS_RUN = 6;
    public static final int STMTSTATUS_MEMUSED = 99;

    /**
     * sqlite3_stmt_status: counter {@code op} of a live statement, zeroed after the read when
     * {@code reset} (MEMUSED is a size, never zeroed). An op the library does not know reads 0.
     */
    public static int stmtStatus(long stmt, int op, boolean reset) {
        try {
            return (int) STMT_STATUS.invokeExact(ptr(stmt), op, reset ? 1 : 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int finalizeStmt(long stmt) {
        try {
            return (int) FINALIZE.invokeExact(ptr(stmt));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int clearBindings(long stmt) {
        try {
            return (int) CLEAR_BINDINGS.invokeExact(ptr(stmt));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int bindParameterCount(long stmt) {
        try {
            return (int) BIND_PARAMETER_COUNT.invokeExact(ptr(stmt));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int bindNull(long stmt, int index) {
        try {
            return (int) BIND_NULL.invokeExact(ptr(stmt), index);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int bindInt(long stmt, int index, int value) {
        try {
            return (int) BIND_INT.invokeExact(ptr(stmt), index, value);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int bindLong(long stmt, int index, long value) {
        try {
            return (int) BIND_INT64.invokeExact(ptr(stmt), index, value);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int bindDouble(long stmt, int index, double value) {
        try {
            return (int) BIND_DOUBLE.invokeExact(ptr(stmt), index, value);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Binds UTF-8 text straight from the Java array; SQLite copies it (SQLITE_TRANSIENT). */
    public static int bindText(long stmt, int index, byte[] utf8, int length) {
        try {
            return (int) BIND_TEXT.invokeExact(ptr(stmt), index, MemorySegment.ofArray(utf8), length, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Binds a blob straight from the Java array; SQLite copies it (SQLITE_TRANSIENT). */
    public static int bindBlob(long stmt, int index, byte[] bytes, int length) {
        try {
            return (int) BIND_BLOB.invokeExact(ptr(stmt), index, MemorySegment.ofArray(bytes), length, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * Binds a float32 vector as sqlite-vec's blob, 4 little-endian bytes per float, straight from the
     * Java array (its memory is that blob on a little-endian machine); SQLite copies it. The caller
     * keeps the length under 2^29 floats.
     */
    public static int bindFloats(long stmt, int index, float[] vector) {
        try {
            return (int) BIND_BLOB.invokeExact(ptr(stmt), index, littleEndian(vector), vector.length * Float.BYTES, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The memory of sqlite-vec's float32 blob for {@code vector}: the array itself on a little-endian machine. */
    private static MemorySegment littleEndian(float[] vector) {
        MemorySegment floats = MemorySegment.ofArray(vector);
        if (!NATIVE_LITTLE_ENDIAN) {
            MemorySegment bytes = MemorySegment.ofArray(new byte[vector.length * Float.BYTES]);
            MemorySegment.copy(floats, java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, bytes, LITTLE_ENDIAN_FLOAT, 0, vector.length);
            floats = bytes;
        }
        return floats;
    }

    private static final boolean NATIVE_LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;
    private static final java.lang.foreign.ValueLayout.OfFloat LITTLE_ENDIAN_FLOAT =
            java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    public static int columnCount(long stmt) {
        try {
            return (int) COLUMN_COUNT.invokeExact(ptr(stmt));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int columnType(long stmt, int column) {
        try {
            return (int) COLUMN_TYPE.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int columnInt(long stmt, int column) {
        try {
            return (int) COLUMN_INT.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static long columnLong(long stmt, int column) {
        try {
            return (long) COLUMN_INT64.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static double columnDouble(long stmt, int column) {
        try {
            return (double) COLUMN_DOUBLE.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The column as UTF-8 bytes (SQLite converts numbers to text); null for SQL NULL. */
    public static byte[] columnTextBytes(long stmt, int column) {
        try {
            // text first, then bytes: the order SQLite documents as safe for conversions
            MemorySegment p = (MemorySegment) COLUMN_TEXT.invokeExact(ptr(stmt), column);
            if (p.address() == 0) {
                return null;
            }
            int n = (int) COLUMN_BYTES.invokeExact(ptr(stmt), column);
            byte[] out = new byte[n];
            MemorySegment.copy(p.reinterpret(n), JAVA_BYTE, 0, out, 0, n);
            return out;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** sqlite3_column_text's pointer (zero-length segment; NULL for SQL NULL): the native helper's fallback copies from it. */
    static MemorySegment columnTextPointer(long stmt, int column) {
        try {
            return (MemorySegment) COLUMN_TEXT.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** sqlite3_column_blob's pointer (zero-length segment; NULL for SQL NULL or an empty blob). */
    static MemorySegment columnBlobPointer(long stmt, int column) {
        try {
            return (MemorySegment) COLUMN_BLOB.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int columnBytes(long stmt, int column) {
        try {
            return (int) COLUMN_BYTES.invokeExact(ptr(stmt), column);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Binds text from native memory; SQLite copies it (SQLITE_TRANSIENT). */
    static int bindText(long stmt, int index, MemorySegment utf8, int length) {
        try {
            return (int) BIND_TEXT.invokeExact(ptr(stmt), index, utf8, length, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Binds a blob from native memory; SQLite copies it (SQLITE_TRANSIENT). */
    static int bindBlob(long stmt, int index, MemorySegment bytes, int length) {
        try {
            return (int) BIND_BLOB.invokeExact(ptr(stmt), index, bytes, length, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The column as text; null for SQL NULL. */
    public static String columnText(long stmt, int column) {
        byte[] utf8 = columnTextBytes(stmt, column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    /**
     * sqlite3_column_text's UTF-8 of the column, converted on a copy of the value (sqlite3_value_dup):
     * SQLite converts the value it is asked about in place, and a row read in place must keep its
     * values as stepped (a BLOB would read as TEXT from then on). The copy keeps the encoding the
     * value carries (the database's for a stored blob, UTF-8 for a computed zeroblob), so the text is
     * SQLite's own. Null for SQL NULL; when SQLite has no memory for the copy, the column itself is
     * converted (the value is right, the row is changed). The statement must be on a row, lock held.
     */
    public static byte[] columnTextOfCopy(long stmt, int column) {
        try {
            MemorySegment copy = (MemorySegment) VALUE_DUP.invokeExact((MemorySegment) COLUMN_VALUE.invokeExact(ptr(stmt), column));
            if (copy.address() == 0) {
                return columnTextBytes(stmt, column);
            }
            try {
                MemorySegment p = (MemorySegment) VALUE_TEXT.invokeExact(copy); // text first, then bytes
                if (p.address() == 0) {
                    return null;
                }
                int n = (int) VALUE_BYTES.invokeExact(copy);
                byte[] out = new byte[n];
                MemorySegment.copy(p.reinterpret(n), JAVA_BYTE, 0, out, 0, n);
                return out;
            } finally {
                VALUE_FREE.invokeExact(copy); // the text above lives in the copy: copied out first
            }
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The column as bytes (text gives its UTF-8); null for SQL NULL, empty for a zero-length blob. */
    public static byte[] columnBlob(long stmt, int column) {
        try {
            MemorySegment p = (MemorySegment) COLUMN_BLOB.invokeExact(ptr(stmt), column);
            int n = (int) COLUMN_BYTES.invokeExact(ptr(stmt), column);
            if (p.address() == 0) {
                // NULL pointer: SQL NULL, or a zero-length blob (bytes is 0 either way)
                return columnType(stmt, column) == NULL ? null : new byte[0];
            }
            byte[] out = new byte[n];
            MemorySegment.copy(p.reinterpret(n), JAVA_BYTE, 0, out, 0, n);
            return out;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static String columnName(long stmt, int column) {
        try {
            return cString((MemorySegment) COLUMN_NAME.invokeExact(ptr(stmt), column));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static String columnDecltype(long stmt, int column) {
        try {
            return cString((MemorySegment) COLUMN_DECLTYPE.invokeExact(ptr(stmt), column));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Table of a result column, or null (an expression, or a build without column metadata). */
    public static String columnTableName(long stmt, int column) {
        if (COLUMN_TABLE_NAME == null) {
            return null;
        }
        try {
            return cString((MemorySegment) COLUMN_TABLE_NAME.invokeExact(ptr(stmt), column));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static String columnOriginName(long stmt, int column) {
        if (COLUMN_ORIGIN_NAME == null) {
            return null;
        }
        try {
            return cString((MemorySegment) COLUMN_ORIGIN_NAME.invokeExact(ptr(stmt), column));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static String columnDatabaseName(long stmt, int column) {
        if (COLUMN_DATABASE_NAME == null) {
            return null;
        }
        try {
            return cString((MemorySegment) COLUMN_DATABASE_NAME.invokeExact(ptr(stmt), column));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ------------------------------------------------------------------ change hooks

    /** Installs (or with NULL removes) the three hooks of {@code db}. */
    static void setHooks(long db, MemorySegment update, MemorySegment commit, MemorySegment rollback) {
        try {
            MemorySegment unusedUpdate = (MemorySegment) UPDATE_HOOK.invokeExact(ptr(db), update, MemorySegment.NULL);
            MemorySegment unusedCommit = (MemorySegment) COMMIT_HOOK.invokeExact(ptr(db), commit, MemorySegment.NULL);
            MemorySegment unusedRollback = (MemorySegment) ROLLBACK_HOOK.invokeExact(ptr(db), rollback, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ------------------------------------------------------------------ the WAL

    /** Installs (or with NULL removes) the WAL hook of {@code db}; false when the library has no sqlite3_wal_hook. */
    static boolean setWalHook(long db, MemorySegment hook) {
        if (WAL_HOOK == null) {
            return false;
        }
        try {
            MemorySegment unused = (MemorySegment) WAL_HOOK.invokeExact(ptr(db), hook, MemorySegment.NULL);
            return true;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Whether the loaded library has sqlite3_setlk_timeout (SQLite 3.50+). */
    public static boolean hasSetlkTimeout() {
        return SETLK_TIMEOUT != null;
    }

    /**
     * sqlite3_setlk_timeout: with SQLITE_ENABLE_SETLK_TIMEOUT, SQLite waits up to {@code millis} in the kernel
     * (F_SETLKW) for the locks it can block on, instead of failing with SQLITE_BUSY at once. Returns SQLite's code.
     */
    public static int setlkTimeout(long db, int millis) {
        if (SETLK_TIMEOUT == null) {
            throw new UnsupportedOperationException("the loaded SQLite has no sqlite3_setlk_timeout");
        }
        try {
            return (int) SETLK_TIMEOUT.invokeExact(ptr(db), millis, 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Whether the loaded library has sqlite3_wal_checkpoint_v2 (every SQLite since 3.7.6; a fork may lack it). */
    public static boolean hasWalCheckpoint() {
        return WAL_CHECKPOINT_V2 != null;
    }

    /**
     * sqlite3_wal_checkpoint_v2 on {@code schema} (null: every attached database) in {@code mode}
     * (0 PASSIVE, 1 FULL, 2 RESTART, 3 TRUNCATE). {@code out} receives the frames in the WAL and the
     * frames checkpointed (-1, -1 when the database is not in WAL mode). Returns SQLite's code.
     */
    public static int walCheckpoint(long db, String schema, int mode, int[] out) {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment counts = arena.allocate(JAVA_INT, 2);
            int rc = walCheckpoint(db, schema == null ? MemorySegment.NULL : arena.allocateFrom(schema), mode, counts);
            out[0] = counts.getAtIndex(JAVA_INT, 0);
            out[1] = counts.getAtIndex(JAVA_INT, 1);
            return rc;
        }
    }

    /** The same with the schema as SQLite passed it to a hook, and {@code counts} two ints of native memory. */
    static int walCheckpoint(long db, MemorySegment schema, int mode, MemorySegment counts) {
        if (WAL_CHECKPOINT_V2 == null) {
            throw new UnsupportedOperationException("the loaded SQLite has no sqlite3_wal_checkpoint_v2");
        }
        try {
            return (int) WAL_CHECKPOINT_V2.invokeExact(ptr(db), schema, mode, counts, counts.asSlice(4));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ------------------------------------------------------------------ online backup

    /** A backup of {@code srcName} on {@code src} into {@code destName} on {@code dest}; 0 on error (read dest's errmsg). */
    static long backupInit(long dest, MemorySegment destName, long src, MemorySegment srcName) {
        try {
            return ((MemorySegment) BACKUP_INIT.invokeExact(ptr(dest), destName, ptr(src), srcName)).address();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int backupStep(long backup, int pages) {
        try {
            return (int) BACKUP_STEP.invokeExact(ptr(backup), pages);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int backupFinish(long backup) {
        try {
            return (int) BACKUP_FINISH.invokeExact(ptr(backup));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ------------------------------------------------------------------ user-defined functions

    /** A scalar function ({@code xFunc}) or an aggregate ({@code xStep} and {@code xFinal}); the others NULL. */
    static int createFunction(long db, MemorySegment name, int nArgs, int flags, MemorySegment xFunc,
            MemorySegment xStep, MemorySegment xFinal) {
        try {
            return (int) CREATE_FUNCTION_V2.invokeExact(ptr(db), name, nArgs, flags, MemorySegment.NULL, xFunc, xStep,
                    xFinal, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * The aggregate's per-group memory: {@code bytes} zeroed bytes on the first call for a group,
     * the same memory afterwards; with 0, NULL when no step ran for the group.
     */
    static MemorySegment aggregateContext(MemorySegment context, int bytes) {
        try {
            return (MemorySegment) AGGREGATE_CONTEXT.invokeExact(context, bytes);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int createCollation(long db, MemorySegment name, MemorySegment xCompare) {
        try {
            return (int) CREATE_COLLATION_V2.invokeExact(ptr(db), name, 1 /* SQLITE_UTF8 */, MemorySegment.NULL,
                    xCompare, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** An argument of a function call as Long, Double, String, byte[] or null (SQL NULL). */
    static Object value(MemorySegment value) {
        try {
            int type = (int) VALUE_TYPE.invokeExact(value);
            switch (type) {
                case INTEGER:
                    return (long) VALUE_INT64.invokeExact(value);
                case FLOAT:
                    return (double) VALUE_DOUBLE.invokeExact(value);
                case NULL:
                    return null;
                case BLOB: {
                    MemorySegment p = (MemorySegment) VALUE_BLOB.invokeExact(value);
                    int n = (int) VALUE_BYTES.invokeExact(value);
                    byte[] out = new byte[n];
                    if (n > 0) {
                        MemorySegment.copy(p.reinterpret(n), JAVA_BYTE, 0, out, 0, n);
                    }
                    return out;
                }
                default: {
                    MemorySegment p = (MemorySegment) VALUE_TEXT.invokeExact(value);
                    int n = (int) VALUE_BYTES.invokeExact(value);
                    byte[] out = new byte[n];
                    if (n > 0) {
                        MemorySegment.copy(p.reinterpret(n), JAVA_BYTE, 0, out, 0, n);
                    }
                    return new String(out, StandardCharsets.UTF_8);
                }
            }
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static void resultNull(MemorySegment context) {
        try {
            RESULT_NULL.invokeExact(context);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static void resultLong(MemorySegment context, long value) {
        try {
            RESULT_INT64.invokeExact(context, value);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static void resultDouble(MemorySegment context, double value) {
        try {
            RESULT_DOUBLE.invokeExact(context, value);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static void resultText(MemorySegment context, byte[] utf8) {
        try {
            RESULT_TEXT.invokeExact(context, MemorySegment.ofArray(utf8), utf8.length, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static void resultBlob(MemorySegment context, byte[] bytes) {
        try {
            RESULT_BLOB.invokeExact(context, MemorySegment.ofArray(bytes), bytes.length, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** A float32 vector result, as {@link #bindFloats} binds one (SQLite copies it); under 2^29 floats. */
    static void resultFloats(MemorySegment context, float[] vector) {
        try {
            RESULT_BLOB.invokeExact(context, littleEndian(vector), vector.length * Float.BYTES, TRANSIENT);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Makes the statement fail with {@code message} (SQLite copies it). */
    static void resultError(MemorySegment context, byte[] utf8Message) {
        try {
            RESULT_ERROR.invokeExact(context, MemorySegment.ofArray(utf8Message), utf8Message.length);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // ================================================================== serialize,
    // backup progress, incremental blob I/O. Kept in one block: other work adds bindings above.
    // None is critical: serialize, deserialize, backup and blob calls do I/O or take locks.

    public static final int DESERIALIZE_FREEONCLOSE = 1; // SQLite frees the buffer (sqlite3_malloc'd) itself
    public static final int DESERIALIZE_RESIZEABLE = 2;

    private static final MethodHandle SERIALIZE = bind("sqlite3_serialize",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle DESERIALIZE = bind("sqlite3_deserialize",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle MALLOC64 = bind("sqlite3_malloc64", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    private static final MethodHandle FREE = bind("sqlite3_free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle BACKUP_REMAINING = bind("sqlite3_backup_remaining",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle BACKUP_PAGECOUNT = bind("sqlite3_backup_pagecount",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle BLOB_OPEN = bind("sqlite3_blob_open",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
    private static final MethodHandle BLOB_READ = bind("sqlite3_blob_read",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle BLOB_WRITE = bind("sqlite3_blob_write",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle BLOB_BYTES = bind("sqlite3_blob_bytes", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle BLOB_CLOSE = bind("sqlite3_blob_close", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle STMT_BUSY = bind("sqlite3_stmt_busy", FunctionDescriptor.of(JAVA_INT, ADDRESS),
            CRITICAL);

    /** Whether {@code stmt} has stepped and not been reset: it holds cursors on its database. */
    public static boolean stmtBusy(long stmt) {
        try {
            return (int) STMT_BUSY.invokeExact(ptr(stmt)) != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The bytes of schema {@code schema} (a copy SQLite allocated: free it with {@link #free}); NULL on failure. */
    static MemorySegment serialize(long db, MemorySegment schema, MemorySegment outSize) {
        try {
            return (MemorySegment) SERIALIZE.invokeExact(ptr(db), schema, outSize, 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Replaces schema {@code schema} with the image in {@code data}; with FREEONCLOSE SQLite owns it, even on failure. */
    static int deserialize(long db, MemorySegment schema, MemorySegment data, long size, long capacity, int flags) {
        try {
            return (int) DESERIALIZE.invokeExact(ptr(db), schema, data, size, capacity, flags);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static MemorySegment malloc64(long bytes) {
        try {
            return (MemorySegment) MALLOC64.invokeExact(bytes);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static void free(MemorySegment p) {
        try {
            FREE.invokeExact(p);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int backupRemaining(long backup) {
        try {
            return (int) BACKUP_REMAINING.invokeExact(ptr(backup));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int backupPagecount(long backup) {
        try {
            return (int) BACKUP_PAGECOUNT.invokeExact(ptr(backup));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int blobOpen(long db, MemorySegment schema, MemorySegment table, MemorySegment column, long rowid,
            int writable, MemorySegment outBlob) {
        try {
            return (int) BLOB_OPEN.invokeExact(ptr(db), schema, table, column, rowid, writable, outBlob);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int blobRead(long blob, MemorySegment into, int n, int offset) {
        try {
            return (int) BLOB_READ.invokeExact(ptr(blob), into, n, offset);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int blobWrite(long blob, MemorySegment from, int n, int offset) {
        try {
            return (int) BLOB_WRITE.invokeExact(ptr(blob), from, n, offset);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int blobBytes(long blob) {
        try {
            return (int) BLOB_BYTES.invokeExact(ptr(blob));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static int blobClose(long blob) {
        try {
            return (int) BLOB_CLOSE.invokeExact(ptr(blob));
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    // --- window functions and the progress handler (registration; the callbacks are upcalls)
    private static final MethodHandle CREATE_WINDOW_FUNCTION = bind("sqlite3_create_window_function",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
                    ADDRESS, ADDRESS));
    private static final MethodHandle PROGRESS_HANDLER = bind("sqlite3_progress_handler",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS, ADDRESS));

    static int createWindowFunction(long db, MemorySegment name, int nArgs, int flags, MemorySegment xStep,
            MemorySegment xFinal, MemorySegment xValue, MemorySegment xInverse) {
        try {
            return (int) CREATE_WINDOW_FUNCTION.invokeExact(ptr(db), name, nArgs, flags, MemorySegment.NULL, xStep,
                    xFinal, xValue, xInverse, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Calls {@code handler} every {@code instructions} VM steps; NULL (or 0 steps) removes it. */
    static void progressHandler(long db, int instructions, MemorySegment handler) {
        try {
            PROGRESS_HANDLER.invokeExact(ptr(db), instructions, handler, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }
}
