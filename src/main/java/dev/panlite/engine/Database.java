package dev.panlite.engine;

import dev.panlite.ffi.Fused;
import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import dev.panlite.ffi.SqliteLibrary;
import dev.panlite.ffi.VectorSearch;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open {@code sqlite3*}: its lifetime and its lock, the native scratch memory, the statement
 * cache and the list of every statement it prepared, errors, and close. What runs on it has a class
 * of its own, reached from here: {@link TextExecution} (SQL text as it comes), {@link Transactions},
 * {@link Interrupts} (cancel and timeouts), {@link Backups} (backup, serialize), {@link OpenBlobs}
 * and {@link UserCode} (functions, collations, hooks).
 *
 * <p>Threading: the connection is opened in multi-thread mode (NOMUTEX) and every native call
 * sequence runs with {@link #lock()} held (asserted); closed-ness is checked under it. Only
 * {@link Interrupts} runs without it (sqlite3_interrupt is safe from any thread), guarded against a
 * concurrent close. See the package documentation for the invariants.
 */
public final class Database {
    private final ReentrantLock lock = new ReentrantLock();
    private final EngineConfig config;
    private final Scratch scratch;
    private final StatementCache cache; // null when stmt_cache_size=0
    private final WriteAccess writeAccess; // the write gate and the Java-side busy wait
    private final Checkpoints checkpoints; // the WAL hook's autocheckpoint and checkpoint()
    private final TextExecution text;
    private final Transactions transactions;
    private final Interrupts interrupts;
    private Conversions conversions; // SQLite's value conversions for rows read ahead, made on first use
    private final Backups backups;
    private final OpenBlobs blobs;
    private final UserCode userCode;
    private final SessionState session = new SessionState(this); // what SQL changed, put back for a pool's next user
    private long db;
    private String vectorSearch; // the sqlite-vec version registered at open; null: none
    private java.nio.file.Path resourceCopy; // jdbc:sqlite::resource: opens a temporary copy, deleted on close
    private volatile boolean closed;
    private volatile boolean closeWhenIdle; // close() was called inside a callback: done when the lock holder leaves
    private Stmt live; // every statement this connection prepared and has not finalized (Stmt.prevLive/nextLive)

    final EngineStats.Counters counts; // for metrics: written under the lock
    private final StatementDiagnostics diagnostics; // SQLite's counters of each statement execution

    private Database(EngineConfig config, long db) {
        this.config = config;
        this.db = db;
        this.scratch = new Scratch();
        String file = Sqlite.mainFilename(db);
        this.counts = EngineStats.opened(EngineStats.databaseName(config.resource() != null ? config.resource() : file));
        this.diagnostics = new StatementDiagnostics(this, config.diagnostics(), counts, file);
        this.cache = config.stmtCacheSize() > 0 ? new StatementCache(config.stmtCacheSize(), counts) : null;
        this.writeAccess = new WriteAccess(this, Sqlite.mainFilename(db), config.busyTimeoutMillis());
        this.checkpoints = new Checkpoints(writeAccess, config, Sqlite.mainFilename(db));
        this.text = new TextExecution(this, cache);
        this.transactions = new Transactions(this, config);
        this.interrupts = new Interrupts(db, writeAccess);
        this.backups = new Backups(this);
        this.blobs = new OpenBlobs(this);
        this.userCode = new UserCode(this);
        Reclaimer.opened();
    }

    /** Opens the database {@code config} names and applies its settings. */
    public static Database open(EngineConfig config) throws SQLException {
        String loadError = SqliteLibrary.loadError();
        if (loadError != null) {
            throw new SQLNonTransientConnectionException(loadError, SqlState.UNABLE_TO_CONNECT);
        }
        int flags = config.openFlags() | Sqlite.OPEN_NOMUTEX | Sqlite.OPEN_EXRESCODE;
        java.nio.file.Path resourceCopy = config.resource() != null ? ResourceDatabase.copy(config.resource()) : null;
        Scratch.Opened opened = Scratch.open(resourceCopy != null ? resourceCopy.toString() : config.filename(), flags);
        if (opened.rc() != Sqlite.OK) {
            ResourceDatabase.delete(resourceCopy);
            String message = opened.db() == 0 ? Sqlite.errstr(opened.rc()) : Sqlite.errmsg(opened.db());
            if (opened.db() != 0) {
                Sqlite.closeV2(opened.db()); // SQLite hands out a handle even on failure; it must be closed
            }
            throw ResultCodes.exception(opened.rc(), message + " (opening '" + config.filename() + "')", null,
                    ResultCodes.Phase.OPEN);
        }
        Database database = new Database(config, opened.db());
        database.resourceCopy = resourceCopy;
        database.lock();
        try {
            database.configure();
        } catch (SQLException | RuntimeException e) {
            database.close();
            throw e;
        } finally {
            database.unlock();
        }
        return database;
    }

    private void configure() throws SQLException {
        if (config.keyPragma() != null) { // first: nothing may read the file before the key is set
            if (!Sqlite.supportsEncryption()) {
                throw new SQLNonTransientConnectionException("password: the loaded SQLite (" + Sqlite.libversion()
                        + ", " + SqliteLibrary.loadedFrom() + ") cannot encrypt, and Panlite will not open the"
                        + " database unencrypted. Load SQLCipher or SQLite3MultipleCiphers with -D"
                        + SqliteLibrary.LIBRARY_PROPERTY + "=/path/to/library, or remove password.", SqlState.UNABLE_TO_CONNECT);
            }
            text.execute(config.keyPragma());
        }
        // SQLite never sleeps inside a downcall: busy_timeout is honoured by the Java-side wait (WriteAccess)
        Sqlite.busyTimeout(db, 0);
        writeAccess.noteInForce(); // what SQLite reports, though: the Java-side wait
        checkpoints.install(scratch, db); // the autocheckpoint, with JFR events (wal_autocheckpoint)
        BlockingLocks.apply(this, config.setlkTimeoutMillis()); // setlk_timeout (experimental: 041)
        registerVectorSearch(); // before any SQL of the settings: the connection as the application gets it
        if (config.loadExtensions() && Sqlite.enableLoadExtension(db, true) != Sqlite.OK) {
            throw ResultCodes.exception(Sqlite.ERROR, "enable_load_extension: this SQLite build cannot load extensions",
                    null, ResultCodes.Phase.EXECUTE);
        } else if (!config.loadExtensions()) { // some builds (Debian's) open with the C function's loading on
            Sqlite.dbConfig(db, Sqlite.DBCONFIG_ENABLE_LOAD_EXTENSION, 0); // Extensions.load enables it per call
        }
        for (Map.Entry<Integer, Integer> limit : config.limits().entrySet()) {
            Sqlite.limit(db, limit.getKey(), limit.getValue());
        }
        applyDbConfig(false); // trusted_schema, dqs_*: before any SQL of the settings runs
        for (String pragma : config.pragmas()) {
            text.execute(pragma);
        }
        if (config.cellSizeCheck()) { // stepped here, not through text(): not an application statement
            returnsRow("PRAGMA cell_size_check = ON");
        }
        applyDbConfig(true); // defensive last: the URL's own journal_mode=OFF is the application's choice
        for (EngineConfig.LegacyPragma legacy : config.legacyPragmas()) {
            text.execute(legacy.set());
            if (!returnsRow(legacy.query())) { // SQLite ignores a PRAGMA it does not know
                SettingWarnings.once(config.toString(), legacy.key(), "Setting " + legacy.key() + " is accepted but"
                        + " has no effect: SQLite " + Sqlite.libversion() + " no longer has PRAGMA " + legacy.key()
                        + " (" + config + ")");
            }
        }
        for (Extensions.Library library : config.extensions()) { // last: they see the connection the application gets
            Extensions.load(this, java.nio.file.Path.of(library.path()), library.entryPoint(), "load_extensions");
        }
    }

    /**
     * vector_search: sqlite-vec's functions and modules on this connection, where the engine has it
     * compiled in (the bundled one); given true, an engine without it fails the open. Lock held.
     */
    private void registerVectorSearch() throws SQLException {
        assert isLockedByMe();
        if (config.vectorSearch() == EngineConfig.VectorSearch.OFF) {
            return;
        }
        String version = VectorSearch.version();
        if (version == null) {
            if (config.vectorSearch() == EngineConfig.VectorSearch.REQUIRED) {
                throw new SQLNonTransientConnectionException("vector_search=true: the loaded " + SqliteLibrary.engine()
                        + " (" + SqliteLibrary.loadedFrom() + ") has no sqlite-vec compiled in; the engine bundled in the"
                        + " jar has (leave -D" + SqliteLibrary.LIBRARY_PROPERTY + " unset), or load sqlite-vec as an"
                        + " extension (load_extensions) and remove vector_search=true.", SqlState.UNABLE_TO_CONNECT);
            }
            return;
        }
        String[] message = new String[1];
        int rc = VectorSearch.register(db, message);
        if (rc != Sqlite.OK) {
            throw ResultCodes.exception(rc, "vector_search: sqlite-vec " + version + " could not register: "
                    + (message[0] != null ? message[0] : Sqlite.errmsg(db)), null, ResultCodes.Phase.EXECUTE);
        }
        vectorSearch = version;
    }

    /** The sqlite-vec version registered on this connection at open (vector_search), or null. */
    public String vectorSearchVersion() {
        return vectorSearch;
    }

    private static final int DBCONFIG_DEFENSIVE = 1010;

    /**
     * The hardening settings (sqlite3_db_config): those other than DEFENSIVE, or DEFENSIVE alone. A
     * SQLite too old to know an op keeps its default, with one warning per configuration.
     */
    private void applyDbConfig(boolean defensive) {
        for (Map.Entry<Integer, Integer> option : config.dbConfig().entrySet()) {
            if ((option.getKey() == DBCONFIG_DEFENSIVE) != defensive) {
                continue;
            }
            int now = Sqlite.dbConfig(db, option.getKey(), option.getValue());
            if (now != option.getValue()) {
                SettingWarnings.once(config.toString(), "db_config " + option.getKey(), "SQLite " + Sqlite.libversion()
                        + " did not apply sqlite3_db_config op " + option.getKey() + " = " + option.getValue()
                        + " (it answered " + now + "): that hardening setting keeps SQLite's default (" + config + ")");
            }
        }
    }

    /** Whether the single statement {@code sql} yields at least one row. Lock held. */
    boolean returnsRow(String sql) throws SQLException {
        assert isLockedByMe();
        Stmt stmt = prepareNew(sql, false, 0);
        try {
            int rc = stmt.step();
            if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
                throw error(rc, sql, ResultCodes.Phase.EXECUTE);
            }
            return rc == Sqlite.ROW;
        } finally {
            stmt.finalizeNow();
        }
    }

    /**
     * sqlite3_wal_checkpoint_v2 of {@code schema} (null: all) in {@code mode} (0 PASSIVE .. 3 TRUNCATE):
     * {result code, frames in the WAL, frames checkpointed}. Lock held.
     */
    public int[] checkpoint(String schema, int mode) throws SQLException {
        assert isLockedByMe();
        checkOpen();
        return checkpoints.run(this, schema, mode);
    }

    public EngineConfig config() {
        return config;
    }

    /** SQL text as it comes: Statement.execute, settings, scripts. */
    public TextExecution text() {
        return text;
    }

    public Transactions transactions() {
        return transactions;
    }

    /** Cancel, abort and query timeouts: the part usable from any thread. */
    public Interrupts interrupts() {
        return interrupts;
    }

    /** SQLite's conversions of values held in Java (RowBatch). Lock held. */
    Conversions conversions() {
        assert isLockedByMe();
        if (conversions == null) {
            conversions = new Conversions(this);
        }
        return conversions;
    }

    /** Online backup, serialize and deserialize. */
    public Backups backups() {
        return backups;
    }

    public OpenBlobs blobs() {
        return blobs;
    }

    /** Settings, attached databases and TEMP objects a new connection would not have (pooled connections). */
    public SessionState session() {
        return session;
    }

    /** SQLite's counters of each statement execution: metrics, the JFR event, the warning (StatementDiagnostics). */
    StatementDiagnostics diagnostics() {
        return diagnostics;
    }

    /** The name this connection's database is counted under in metrics: the file's name, or {@code memory}. */
    public String databaseName() {
        return counts.database.name;
    }

    /** Java functions, aggregates, collations, change hooks and the progress handler. */
    public UserCode userCode() {
        return userCode;
    }

    public void lock() {
        lock.lock();
    }

    private final Held held = this::unlock;

    /** Takes the lock: {@code try (var held = db.hold()) { ... }} releases it. */
    public Held hold() {
        lock.lock();
        return held;
    }

    /**
     * Takes the lock for closing from another thread: a statement running there is interrupted
     * first, so the lock is not held for the rest of a long query.
     */
    public void lockInterrupting() {
        if (!lock.tryLock()) {
            interrupts.interruptAll();
            lock.lock();
        }
    }

    WriteAccess writeAccess() {
        return writeAccess;
    }

    /**
     * Consulted by the Java-side wait for locks instead of busy_timeout (null: busy_timeout again).
     * Safe from any thread.
     */
    public void setBusyHandler(BusyWait.Handler handler) {
        writeAccess.setBusyHandler(handler);
    }

    /** Whether this connection holds its file's write gate now (tests and diagnostics). Lock held. */
    public boolean holdsWriteGate() {
        return writeAccess.holdsGate();
    }

    /**
     * Releases the lock; a close that a callback asked for happens here, when the thread leaves its
     * outermost call and nothing of SQLite's is on its stack any more.
     */
    public void unlock() {
        try {
            if (closeWhenIdle && lock.getHoldCount() == 1) {
                close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** How deeply callbacks of this connection are nested right now (0: none). Lock held. */
    public int callbackDepth() {
        assert isLockedByMe();
        return scratch.callbacks().depth();
    }

    /**
     * Throws while a change listener of this connection runs on this thread: SQLite forbids using the
     * connection from its update, commit and rollback hooks (prepare and step both modify it). Lock held.
     */
    public void checkNotInHook() throws SQLException {
        if (scratch.callbacks().inRestoreProgress()) {
            throw ResultCodes.exception(Sqlite.MISUSE, "A restore's progress callback cannot use its connection: it is"
                    + " the restore's destination, which SQLite forbids using until the restore ends; do the work after"
                    + " restore returns", null, ResultCodes.Phase.EXECUTE);
        }
        if (scratch.callbacks().inHook()) {
            throw ResultCodes.exception(Sqlite.MISUSE, "A change listener cannot use its connection (SQLite forbids it "
                    + "inside update, commit, rollback hooks and progress handlers); do the work after the statement"
                    + " returns", null,
                    ResultCodes.Phase.EXECUTE);
        }
    }

    /**
     * Whether a callback that cannot report errors to SQLite (a collation) failed during the last
     * step: the step then counts as failed, whatever SQLite returned. Lock held.
     */
    boolean callbackFailed() {
        return scratch.callbacks().failed();
    }

    /** For assertions: native calls on this connection need its lock. */
    public boolean isLockedByMe() {
        return lock.isHeldByCurrentThread();
    }

    /**
     * True while a Java callback of this connection runs (on this thread, which holds the lock):
     * what SQLite is using must not be freed now. Lock held.
     */
    public boolean inCallback() {
        assert isLockedByMe();
        return scratch.callbacks().depth() > 0;
    }

    // ------------------------------------------------------------------ the statements this connection prepared

    /** Called by every new Stmt: close finalizes exactly these, never statements SQLite's modules prepared. */
    void register(Stmt s) {
        s.nextLive = live;
        if (live != null) {
            live.prevLive = s;
        }
        live = s;
    }

    /** Called by Stmt.finalizeNow. */
    void unregister(Stmt s) {
        if (s.prevLive != null) {
            s.prevLive.nextLive = s.nextLive;
        } else if (live == s) {
            live = s.nextLive;
        }
        if (s.nextLive != null) {
            s.nextLive.prevLive = s.prevLive;
        }
        s.prevLive = s.nextLive = null;
    }

    /** True once closed, or once a close is waiting for a callback's outermost call to end. */
    public boolean isClosed() {
        return closed || closeWhenIdle;
    }

    /** Throws if the connection is closed; call with the lock held. */
    public void checkOpen() throws SQLException {
        assert isLockedByMe();
        checkNotInHook();
        if (closed || closeWhenIdle) {
            throw new SQLNonTransientConnectionException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST);
        }
    }

    // ------------------------------------------------------------------ errors

    /** The exception for a failed call that returned {@code rc}, with SQLite's message for this connection. */
    public SQLException error(int rc, String sql, ResultCodes.Phase phase) {
        assert isLockedByMe();
        SQLException pending = writeAccess.takePending(); // the write path's own failure behind rc
        if (pending != null) {
            return pending;
        }
        Throwable callbackFailure = scratch.callbacks().takeFailure();
        if (callbackFailure != null) { // a collation threw: it could only interrupt the statement
            interrupts.afterCallbackStop(); // that statement has failed: the others run on (Interrupts)
            return ResultCodes.callbackFailed(callbackFailure, sql);
        }
        int extended = Sqlite.extendedErrcode(db);
        String message;
        if ((extended & 0xff) == (rc & 0xff)) {
            message = Sqlite.errmsg(db);
        } else { // e.g. MISUSE returned without touching the connection's error state
            extended = rc;
            message = Sqlite.errstr(rc);
        }
        if ((rc & 0xff) == Sqlite.ERROR && (interrupts.endedInterrupted() || Sqlite.isInterrupted(db))) {
            // cancel, a query timeout or abort stopped a virtual table that reports the interrupt as an
            // error of its own (sqlite-vec's KNN: "chunks iter error"): it is the interrupt, message kept
            rc = extended = Sqlite.INTERRUPT;
            message = "interrupted (" + message + ")";
        }
        String leftOver = (rc & 0xff) == Sqlite.INTERRUPT ? interrupts.leftOverMessage() : null;
        if (leftOver != null) { // not this statement's interrupt: an engine that cannot clear the flag (Interrupts)
            message += " (" + leftOver + ")";
        } else if ((rc & 0xff) == Sqlite.INTERRUPT && interrupts.lastWasTimeout()) {
            phase = ResultCodes.Phase.TIMED_OUT;
        } else if ((rc & 0xff) == Sqlite.ERROR && Sqlite.errorOffset(db) >= 0) {
            phase = ResultCodes.Phase.PREPARE; // SQLite points into the text: a grammar or schema error
        }
        if (transactions.endedBySqlite()) { // SQLite rolled back the transaction the driver began (FULL, IOERR, NOMEM, OR ROLLBACK)
            message += " (SQLite rolled back the transaction: nothing of it is committed; call rollback() and run it again)";
        }
        return ResultCodes.exception(extended, message, sql, phase);
    }

    // ------------------------------------------------------------------ statements

    /**
     * A statement for {@code sql}: from the cache when it holds one (removed from it while in use),
     * else freshly prepared (persistent when it will be cached). Lock held.
     */
    public Stmt prepare(String sql) throws SQLException {
        assert isLockedByMe();
        checkOpen();
        if (cache != null) {
            Stmt hit = cache.take(sql);
            if (hit != null) {
                return hit;
            }
        }
        return prepareNew(sql, cache != null, cache != null ? Sqlite.PREPARE_PERSISTENT : 0);
    }

    /** A statement prepared now, never from or into the cache (an EXPLAIN to list: ExplainRows). Lock held. */
    Stmt prepareFresh(String sql) throws SQLException {
        checkOpen();
        return prepareNew(sql, false, 0);
    }

    /** A statement kept for the connection's lifetime (transaction control), outside the user cache. */
    Stmt preparePersistent(String sql) throws SQLException {
        Stmt stmt = prepareNew(sql, false, Sqlite.PREPARE_PERSISTENT);
        stmt.internal = true; // no diagnostics: BEGIN and COMMIT never scan
        return stmt;
    }

    private Stmt prepareNew(String sql, boolean cacheable, int flags) throws SQLException {
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        BusyTimeoutPragma pragma = BusyTimeoutPragma.mentioned(utf8, 0) ? BusyTimeoutPragma.at(utf8, 0) : null;
        if (pragma != null) { // SQLite must not prepare it: it would sleep from then on
            if (!pragma.malformed() && SqlText.hasMoreSql(utf8, pragma.end())) {
                throw ResultCodes.exception(Sqlite.ERROR,
                        "A prepared statement takes one SQL statement; use Statement.execute for several", sql,
                        ResultCodes.Phase.PREPARE);
            }
            return busyTimeoutStatement(pragma, sql);
        }
        int rc = scratch.prepare(db, utf8, 0, utf8.length, flags);
        if ((rc & 0xff) == Sqlite.BUSY) { // loading the schema met a lock (another process recovering the WAL)
            rc = writeAccess.retryBusy(rc, sql, false, () -> scratch.prepare(db, utf8, 0, utf8.length, flags));
        }
        if (rc != Sqlite.OK) {
            throw error(rc, sql, ResultCodes.Phase.PREPARE);
        }
        long handle = scratch.preparedStmt();
        if (handle == 0) {
            throw ResultCodes.exception(Sqlite.MISUSE, "The SQL text holds no statement", sql, ResultCodes.Phase.PREPARE);
        }
        Stmt stmt = new Stmt(this, handle, sql, cacheable);
        if (SqlText.hasMoreSql(utf8, scratch.tailOffset())) {
            stmt.finalizeNow();
            throw ResultCodes.exception(Sqlite.ERROR,
                    "A prepared statement takes one SQL statement; use Statement.execute for several", sql,
                    ResultCodes.Phase.PREPARE);
        }
        return stmt;
    }

    private static final byte[] BUSY_TIMEOUT_ANSWER = "SELECT ?1 AS \"timeout\"".getBytes(StandardCharsets.UTF_8);

    /**
     * The statement standing for {@code PRAGMA busy_timeout} ({@link BusyTimeoutPragma}), which SQLite
     * never prepares: each execution applies what it sets and returns the wait then in force, as
     * SQLite's PRAGMA answers (one row, column {@code timeout}). Never cached. Lock held.
     */
    Stmt busyTimeoutStatement(BusyTimeoutPragma pragma, String sql) throws SQLException {
        if (pragma.malformed()) {
            throw ResultCodes.exception(Sqlite.ERROR, "malformed PRAGMA busy_timeout: expected PRAGMA busy_timeout,"
                    + " PRAGMA busy_timeout = <milliseconds> or PRAGMA busy_timeout(<milliseconds>)", sql,
                    ResultCodes.Phase.PREPARE);
        }
        int rc = scratch.prepare(db, BUSY_TIMEOUT_ANSWER, 0, BUSY_TIMEOUT_ANSWER.length, 0);
        if (rc != Sqlite.OK) {
            throw error(rc, sql, ResultCodes.Phase.PREPARE);
        }
        // its text for the JDBC layer is the PRAGMA's read: a PRAGMA (executeUpdate runs its row out), harmless to EXPLAIN
        Stmt stmt = new Stmt(this, scratch.preparedStmt(), "PRAGMA busy_timeout", false);
        stmt.busyTimeout = pragma;
        return stmt;
    }

    /**
     * The user is done with {@code stmt}: a cacheable statement is reset and cleared (one crossing
     * with the helper) and becomes the most recently used entry, evicting the least recently used
     * when full; a statement whose reset reports an error, or one not meant for the cache, is
     * finalized. Lock held.
     */
    public void release(Stmt stmt) {
        assert isLockedByMe();
        if (stmt.handle == 0 || closed) {
            return;
        }
        if (!stmt.cacheable || cache == null || stmt.explains()) { // an EXPLAIN is never kept: ExplainRows
            stmt.finalizeNow();
            return;
        }
        int rc = stmt.resetAndClear();
        if (rc != Sqlite.OK) {
            stmt.finalizeNow();
            return;
        }
        Stmt evicted = cache.put(stmt);
        if (evicted != null) {
            evicted.finalizeNow();
        }
    }

    /** Finalizes {@code stmt} without caching it (e.g. after a failure left it in doubt). Lock held. */
    public void discard(Stmt stmt) {
        assert isLockedByMe();
        if (!closed) {
            stmt.finalizeNow();
        }
    }

    public long changes() {
        assert isLockedByMe();
        return Sqlite.changes(db);
    }

    /** The most columns a table, index or result set may have on this connection (SQLITE_LIMIT_COLUMN in force). */
    public int columnLimit() {
        assert isLockedByMe();
        return Sqlite.limit(db, Sqlite.LIMIT_COLUMN, -1);
    }

    public long totalChanges() {
        assert isLockedByMe();
        return Sqlite.totalChanges(db);
    }

    public long lastInsertRowid() {
        assert isLockedByMe();
        return Sqlite.lastInsertRowid(db);
    }

    public Scratch.ColumnInfo columnInfo(String schema, String table, String column) {
        assert isLockedByMe();
        if (closed || !loadColumns(schema, table)) {
            return null;
        }
        return scratch.tableColumnMetadata(db, schema, table, column);
    }

    /**
     * Makes sure SQLite knows {@code table}'s columns before sqlite3_table_column_metadata looks one
     * up: since 3.4x that function reads the table's first column unchecked, and a virtual table not
     * used since the schema was last loaded has no columns yet (a NULL array: a JVM crash, found by
     * the misuse fuzz, F23). Preparing a statement that reads the table connects it. False when that
     * fails (the table is gone, its module is missing): nothing to describe. Lock held.
     */
    private boolean loadColumns(String schema, String table) {
        String sql = "SELECT 1 FROM " + (schema == null ? "" : SqlText.quoteIdentifier(schema) + ".")
                + SqlText.quoteIdentifier(table) + " LIMIT 0";
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        int rc = scratch.prepare(db, utf8, 0, utf8.length, 0);
        long handle = scratch.preparedStmt();
        if (handle != 0) {
            Sqlite.finalizeStmt(handle);
        }
        return rc == Sqlite.OK && handle != 0;
    }

    // ------------------------------------------------------------------ for the parts

    /** The connection's native scratch memory. Lock held. */
    Scratch scratch() {
        assert isLockedByMe();
        return scratch;
    }

    /** The sqlite3* of this open connection. Lock held, after a closed check. */
    long handle() {
        assert isLockedByMe();
        return db;
    }

    /**
     * Finalizes the idle statements (the cache, the transaction statements) before the schema they
     * point into is replaced; returns the SQL of a statement still held by the caller, or null. Lock held.
     */
    String finalizeIdleStatements() {
        if (cache != null) {
            for (Stmt s : cache.drain()) {
                s.finalizeNow();
            }
        }
        transactions.closeStatements();
        if (conversions != null) {
            conversions.close();
        }
        return live == null ? null : live.sql;
    }

    // ------------------------------------------------------------------ observability

    /** Statement cache counters: hits, misses, evictions, size, capacity. Lock held. */
    public long[] cacheStats() {
        assert isLockedByMe();
        if (cache == null) {
            return new long[] {0, 0, 0, 0, 0};
        }
        return new long[] {cache.hits(), cache.misses(), cache.evictions(), cache.size(), cache.capacity()};
    }

    /** How many statements SQLite holds open on this connection (sqlite3_next_stmt). Lock held. */
    public int liveStatements() {
        assert isLockedByMe();
        int n = 0;
        for (long s = Sqlite.nextStmt(db, 0); s != 0; s = Sqlite.nextStmt(db, s)) {
            n++;
        }
        return n;
    }

    public static String libraryVersion() {
        return SqliteLibrary.loadError() == null ? Sqlite.libversion() : null;
    }

    /** sqlite3_sourceid of the loaded library: the check-in it was built from. */
    public static String librarySourceId() {
        return SqliteLibrary.sourceId();
    }

    public static int libraryVersionNumber() {
        return SqliteLibrary.loadError() == null ? Sqlite.libversionNumber() : 0;
    }

    // ------------------------------------------------------------------ close

    /**
     * Call before taking the lock to close: a thread queued for the write gate holds the lock, so
     * its wait ends first. (A busy handler closing its own connection: see close, closeWhenIdle.)
     */
    public void beforeClose() {
        writeAccess.cancelWait("closed");
    }

    /**
     * Closes the connection: an open transaction is rolled back (by SQLite), every statement this
     * connection prepared (cached, transaction, or held by JDBC objects, which see the closed flag)
     * is finalized, then the handle and the native memory are released. Statements that SQLite's
     * own modules prepared (FTS, R*Tree) are theirs to finalize: sqlite3_close_v2 lets them.
     * Idempotent. Takes the lock; called inside a callback of this connection, the close happens
     * when the thread leaves its outermost call ({@link #unlock()}), and the connection refuses
     * every call from now on.
     */
    public void close() {
        beforeClose();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (scratch.callbacks().depth() > 0 || writeAccess.consultingHandler()) { // the busy handler too
                closeWhenIdle = true;
                return;
            }
            closeWhenIdle = false;
            interrupts.closing();
            closed = true;
            blobs.closeAll();
            transactions.closeStatements();
            if (cache != null) {
                for (Stmt s : cache.drain()) {
                    s.finalizeNow();
                }
            }
            while (live != null) {
                live.finalizeNow();
            }
            Sqlite.closeV2(db);
            db = 0;
            scratch.close();
            Reclaimer.closed();
            EngineStats.closed(counts);
            ResourceDatabase.delete(resourceCopy);
        } finally {
            if (closed) {
                writeAccess.close(); // SQLite rolled the transaction back: the gate goes, whatever failed above
            }
            lock.unlock();
        }
    }

}
