package dev.panlite.engine;

import dev.panlite.Config;
import dev.panlite.ffi.Fused;
import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import dev.panlite.ffi.SqliteLibrary;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open {@code sqlite3*} with everything whose lifetime is the connection's: the lock, the
 * native scratch memory, the statement cache, the transaction statements and the list of every
 * statement it prepared.
 *
 * <p>Threading: the connection is opened in multi-thread mode (NOMUTEX) and every native call
 * sequence runs with {@link #lock()} held (asserted); closed-ness is checked under it. Only
 * {@link #interrupt()} runs without it (sqlite3_interrupt is safe from any thread), guarded
 * against a concurrent close by {@code interruptGuard}. See the package documentation for the
 * invariants.
 */
public final class Database {
    private final ReentrantLock lock = new ReentrantLock();
    private final Object interruptGuard = new Object();
    private final Config config;
    private final Scratch scratch;
    private final StatementCache cache; // null when stmt_cache_size=0
    private final int[] recentTexts = new int[8]; // hashes of the last texts Statement.execute ran (ranBefore)
    private int recentAt;
    private final TxStatements tx;
    private final WriteAccess writeAccess; // the write gate and the Java-side busy wait
    private long db;
    private java.nio.file.Path resourceCopy; // jdbc:sqlite::resource: opens a temporary copy, deleted on close
    private volatile boolean closed;
    private volatile boolean closeWhenIdle; // close() was called inside a callback: done when the lock holder leaves
    private Stmt live; // every statement this connection prepared and has not finalized (Stmt.prevLive/nextLive)
    private boolean autoCommit = true;
    private long transactionNumber; // counts transactions the driver began: savepoints belong to one
    private boolean readOnly; // JDBC read-only (query_only): see setReadOnly

    // query timeouts: which execution may still be interrupted, and whether the last interrupt was a timeout
    private long executionCounter;
    private volatile long timedExecution;
    private volatile boolean interruptedByTimeout;
    private volatile int interrupts; // sqlite3_interrupt calls: a result set reading ahead replays one (RowBatch)
    private Conversions conversions; // SQLite's value conversions for rows read ahead, made on first use

    private Database(Config config, long db) {
        this.config = config;
        this.db = db;
        this.scratch = new Scratch();
        this.cache = config.stmtCacheSize() > 0 ? new StatementCache(config.stmtCacheSize()) : null;
        this.tx = new TxStatements(this, config.transactionMode().beginSql(), config.cacheTxStatements());
        this.writeAccess = new WriteAccess(this, Sqlite.mainFilename(db), config.busyTimeoutMillis());
        Reclaimer.opened();
    }

    /** Opens the database {@code config} names and applies its settings. */
    public static Database open(Config config) throws SQLException {
        String loadError = SqliteLibrary.loadError();
        if (loadError != null) {
            throw new SQLNonTransientConnectionException(loadError, "08001");
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
                    ResultCodes.Phase.EXECUTE);
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
                        + SqliteLibrary.LIBRARY_PROPERTY + "=/path/to/library, or remove password.", "08001");
            }
            execute(config.keyPragma());
        }
        // SQLite never sleeps inside a downcall: busy_timeout is honoured by the Java-side wait (WriteAccess)
        Sqlite.busyTimeout(db, 0);
        if (config.loadExtensions() && Sqlite.enableLoadExtension(db, true) != Sqlite.OK) {
            throw ResultCodes.exception(Sqlite.ERROR, "enable_load_extension: this SQLite build cannot load extensions",
                    null, ResultCodes.Phase.EXECUTE);
        }
        for (Map.Entry<Integer, Integer> limit : config.limits().entrySet()) {
            Sqlite.limit(db, limit.getKey(), limit.getValue());
        }
        for (String pragma : config.pragmas()) {
            execute(pragma);
        }
        for (Config.LegacyPragma legacy : config.legacyPragmas()) {
            execute(legacy.set());
            if (!returnsRow(legacy.query())) { // SQLite ignores a PRAGMA it does not know
                SettingWarnings.once(config.toString(), legacy.key(), "Setting " + legacy.key() + " is accepted but"
                        + " has no effect: SQLite " + Sqlite.libversion() + " no longer has PRAGMA " + legacy.key()
                        + " (" + config + ")");
            }
        }
    }

    /** Whether the single statement {@code sql} yields at least one row. Lock held. */
    private boolean returnsRow(String sql) throws SQLException {
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

    public Config config() {
        return config;
    }

    public void lock() {
        lock.lock();
    }

    /**
     * Takes the lock for closing from another thread: a statement running there is interrupted
     * first, so the lock is not held for the rest of a long query.
     */
    public void lockInterrupting() {
        if (!lock.tryLock()) {
            interrupt();
            lock.lock();
        }
    }

    WriteAccess writeAccess() {
        return writeAccess;
    }

    /** True when the connection cannot write: its transactions begin deferred and never queue for the gate. */
    boolean readOnlyAny() {
        return readOnly || config.readOnlyOpen();
    }

    /**
     * Consulted by the Java-side wait for locks instead of busy_timeout (null: busy_timeout again).
     * Safe from any thread.
     */
    public void setBusyHandler(dev.panlite.BusyHandler handler) {
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
        if (scratch.callbacks().inHook()) {
            throw ResultCodes.exception(Sqlite.MISUSE, "A change listener cannot use its connection (SQLite forbids it "
                    + "inside update, commit, rollback hooks and progress handlers); do the work after the statement"
                    + " returns", null,
                    ResultCodes.Phase.EXECUTE);
        }
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
            throw new SQLNonTransientConnectionException("The connection is closed", "08003");
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
        int extended = Sqlite.extendedErrcode(db);
        String message;
        if ((extended & 0xff) == (rc & 0xff)) {
            message = Sqlite.errmsg(db);
        } else { // e.g. MISUSE returned without touching the connection's error state
            extended = rc;
            message = Sqlite.errstr(rc);
        }
        if ((rc & 0xff) == Sqlite.INTERRUPT && interruptedByTimeout) {
            phase = ResultCodes.Phase.TIMED_OUT;
        } else if ((rc & 0xff) == Sqlite.ERROR && Sqlite.errorOffset(db) >= 0) {
            phase = ResultCodes.Phase.PREPARE; // SQLite points into the text: a grammar or schema error
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

    /** A statement kept for the connection's lifetime (transaction control), outside the user cache. */
    Stmt preparePersistent(String sql) throws SQLException {
        return prepareNew(sql, false, Sqlite.PREPARE_PERSISTENT);
    }

    private Stmt prepareNew(String sql, boolean cacheable, int flags) throws SQLException {
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        int rc = scratch.prepare(db, utf8, 0, utf8.length, flags);
        if (rc != Sqlite.OK) {
            throw error(rc, sql, ResultCodes.Phase.PREPARE);
        }
        long handle = scratch.preparedStmt();
        if (handle == 0) {
            throw ResultCodes.exception(Sqlite.MISUSE, "The SQL text holds no statement", sql, ResultCodes.Phase.PREPARE);
        }
        Stmt stmt = new Stmt(this, handle, sql, cacheable);
        if (hasMoreSql(utf8, scratch.tailOffset())) {
            stmt.finalizeNow();
            throw ResultCodes.exception(Sqlite.ERROR,
                    "A prepared statement takes one SQL statement; use Statement.execute for several", sql,
                    ResultCodes.Phase.PREPARE);
        }
        return stmt;
    }

    /** True when anything but whitespace, semicolons and comments follows {@code from}. */
    public static boolean hasMoreSql(byte[] sql, int from) {
        int i = from;
        while (i < sql.length) {
            byte b = sql[i];
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == ';') {
                i++;
            } else if (b == '-' && i + 1 < sql.length && sql[i + 1] == '-') {
                while (i < sql.length && sql[i] != '\n') {
                    i++;
                }
            } else if (b == '/' && i + 1 < sql.length && sql[i + 1] == '*') {
                int end = i + 2;
                while (end + 1 < sql.length && !(sql[end] == '*' && sql[end + 1] == '/')) {
                    end++;
                }
                i = end + 2;
            } else {
                return true;
            }
        }
        return false;
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
        if (!stmt.cacheable || cache == null) {
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

    /** What {@link #executeUntilQuery} found: the first query (stepped once) and where the rest of the text starts. */
    public record Executed(Stmt query, int firstStep, byte[] sql, int tailOffset) {}

    /**
     * Runs the parameterless SQL in {@code utf8[offset..]} statement by statement (one crossing with
     * the helper) until one of them is a query; that query comes back stepped once. Lock held.
     */
    public Executed executeUntilQuery(String sqlText, byte[] utf8, int offset) throws SQLException {
        assert isLockedByMe();
        checkOpen();
        if (offset == 0 && cache != null) {
            Stmt cached = cache.take(sqlText, false);
            if (cached != null) {
                return executeCached(cached, utf8);
            }
        }
        // SQL text is not prepared before it runs, so the gate is taken from its first keyword
        boolean gated = !writeAccess.holdsGate() && !readOnlyAny() && SqlText.mayWrite(sqlText)
                && Sqlite.getAutocommit(db);
        if (gated) {
            writeAccess.acquire(sqlText);
        }
        StatementEvent event = StatementEvent.startIfEnabled();
        try {
            int rc = Fused.execNoArgs(scratch, db, utf8, offset, utf8.length - offset);
            if ((rc & 0xff) == Sqlite.BUSY && scratch.tailOffset() >= 0) {
                rc = retryBusyText(rc, sqlText, utf8, offset);
            }
            long query = scratch.preparedStmt();
            StatementEvent.finish(event, sqlText, writeAccess.file(), rc);
            if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
                throw error(rc, sqlText, scratch.tailOffset() < 0 ? ResultCodes.Phase.PREPARE : ResultCodes.Phase.EXECUTE);
            }
            // a query that is the whole text, run before: cached on close, so the next run skips the prepare
            boolean cacheable = query != 0 && offset == 0 && cache != null
                    && !hasMoreSql(utf8, scratch.tailOffset()) && ranBefore(sqlText);
            Stmt stmt = query == 0 ? null : new Stmt(this, query, sqlText, cacheable);
            if (stmt != null) {
                stmt.markStepped();
                if (gated && writeAccess.holdsGate() && stmt.writes()) {
                    writeAccess.holdFor(stmt); // INSERT ... RETURNING: the gate stays until its rows are read
                    gated = false;
                }
            }
            return new Executed(stmt, rc, utf8, scratch.tailOffset());
        } finally {
            writeAccess.releaseIfNoTransaction(); // also when SQL text ended a transaction (COMMIT as text)
        }
    }

    /**
     * Statement.execute of a text the cache holds (one statement: a query run before, or the text
     * of a PreparedStatement): stepped once like any prepared statement (the write path's first
     * step). A statement without columns has run to its end and goes back to the cache. Lock held.
     */
    private Executed executeCached(Stmt stmt, byte[] utf8) throws SQLException {
        try {
            int rc = stmt.step();
            if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
                SQLException e = error(rc, stmt.sql, ResultCodes.Phase.EXECUTE);
                release(stmt); // reset reports the error again: finalized, not cached
                throw e;
            }
            if (stmt.columnCount() == 0) {
                release(stmt);
                return new Executed(null, rc, utf8, utf8.length);
            }
            return new Executed(stmt, rc, utf8, utf8.length);
        } finally {
            writeAccess.releaseIfNoTransaction();
        }
    }

    /**
     * Whether Statement.execute ran {@code sql} among the last few texts it ran (by hash): only a
     * text run twice is cached, so one-off texts (values spliced into the SQL) never push the
     * application's prepared statements out of the cache.
     */
    private boolean ranBefore(String sql) {
        int hash = sql.hashCode();
        for (int h : recentTexts) {
            if (h == hash) {
                return true;
            }
        }
        recentTexts[recentAt] = hash;
        recentAt = (recentAt + 1) % recentTexts.length;
        return false;
    }

    /**
     * SQLITE_BUSY from the fused exec: the statements before the failing one ran (and committed, in
     * auto-commit mode), so the retry starts at the failing one. Its start is found by preparing the
     * text again from {@code offset} (only on this slow path).
     */
    private int retryBusyText(int rc, String sqlText, byte[] utf8, int offset) {
        int[] start = {statementStart(utf8, offset, scratch.tailOffset())};
        String failing = new String(utf8, start[0], utf8.length - start[0], StandardCharsets.UTF_8);
        String keyword = SqlText.firstKeyword(failing);
        boolean commit = keyword.equals("COMMIT") || keyword.equals("END");
        return writeAccess.retryBusy(rc, sqlText, commit, () -> {
            int again = Fused.execNoArgs(scratch, db, utf8, start[0], utf8.length - start[0]);
            if ((again & 0xff) == Sqlite.BUSY && scratch.tailOffset() >= 0) {
                start[0] = statementStart(utf8, start[0], scratch.tailOffset());
            }
            return again;
        });
    }

    /** Where the statement ending at {@code tail} starts, preparing (not running) from {@code from}. */
    private int statementStart(byte[] utf8, int from, int tail) {
        int at = from;
        while (true) {
            int rc = scratch.prepare(db, utf8, at, utf8.length - at, 0);
            long handle = scratch.preparedStmt();
            int next = scratch.tailOffset();
            if (handle != 0) {
                Sqlite.finalizeStmt(handle);
            }
            if (rc != Sqlite.OK || next >= tail || next <= at) {
                return at;
            }
            at = next;
        }
    }

    /** Runs every statement of {@code sql}, discarding rows (settings, savepoints, scripts). Lock held. */
    public void execute(String sql) throws SQLException {
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        int offset = 0;
        while (offset < utf8.length) {
            Executed executed = executeUntilQuery(sql, utf8, offset);
            if (executed.query() != null) {
                Stmt query = executed.query();
                int rc = executed.firstStep();
                while (rc == Sqlite.ROW) {
                    rc = query.step();
                }
                if (rc != Sqlite.DONE) {
                    SQLException e = error(rc, sql, ResultCodes.Phase.EXECUTE);
                    query.finalizeNow();
                    throw e;
                }
                query.finalizeNow();
            }
            offset = executed.tailOffset();
        }
    }

    public long changes() {
        assert isLockedByMe();
        return Sqlite.changes(db);
    }

    public long totalChanges() {
        assert isLockedByMe();
        return Sqlite.totalChanges(db);
    }

    public long lastInsertRowid() {
        assert isLockedByMe();
        return Sqlite.lastInsertRowid(db);
    }

    // ------------------------------------------------------------------ transactions

    public boolean autoCommit() {
        return autoCommit;
    }

    /** True while SQLite has a transaction open (whoever began it). */
    public boolean inTransaction() {
        assert isLockedByMe();
        return !closed && !Sqlite.getAutocommit(db);
    }

    /**
     * Called before every statement runs: with auto-commit off, the transaction begins here, lazily,
     * so an idle connection holds no lock. Asking SQLite (not a flag of ours) notices a transaction
     * SQLite ended on its own (ON CONFLICT ROLLBACK, SQLITE_FULL, interrupt). Lock held.
     */
    public void beforeExecute() throws SQLException {
        assert isLockedByMe();
        checkOpen();
        if (!autoCommit && Sqlite.getAutocommit(db)) {
            transactionNumber++;
            if (readOnlyAny()) {
                tx.beginReadOnly(); // never queues for the gate
            } else if (config.transactionMode() == dev.panlite.TransactionMode.DEFERRED) {
                tx.begin(); // the caller chose deferred: no gate, an upgrade to writing may fail with SQLITE_BUSY
            } else {
                writeAccess.acquire(config.transactionMode().beginSql());
                try {
                    tx.begin();
                } finally {
                    writeAccess.releaseIfNoTransaction(); // BEGIN failed: nothing holds SQLite's lock
                }
            }
        }
    }

    /**
     * JDBC setReadOnly (the caller also sets PRAGMA query_only): a read-only connection's
     * transactions begin DEFERRED whatever transaction_mode says, since IMMEDIATE and EXCLUSIVE
     * take the write lock, which query_only and a read-only file refuse (SQLITE_READONLY). Lock held.
     */
    public void setReadOnly(boolean on) {
        readOnly = on;
    }

    /** Which transaction the driver began last; a savepoint set in an earlier one is gone. */
    public long transactionNumber() {
        return transactionNumber;
    }

    /** JDBC setAutoCommit: switching it on inside a transaction commits. Lock held. */
    public void setAutoCommit(boolean on) throws SQLException {
        try {
            if (on && !autoCommit && inTransaction()) {
                tx.commit();
            }
        } finally {
            writeAccess.releaseIfNoTransaction();
        }
        autoCommit = on;
    }

    /** Commits the open transaction, if any; a failed COMMIT (e.g. BUSY) leaves it open to retry. Lock held. */
    public void commit() throws SQLException {
        try {
            if (inTransaction()) {
                tx.commit();
            }
        } finally {
            writeAccess.releaseIfNoTransaction(); // a failed COMMIT leaves the transaction, and the gate, to retry
        }
    }

    /** Rolls back the open transaction, if any. Lock held. */
    public void rollback() throws SQLException {
        try {
            if (inTransaction()) {
                tx.rollback();
            }
        } finally {
            writeAccess.releaseIfNoTransaction();
        }
    }

    /** Begins a transaction now unless one is open (a savepoint needs one under auto-commit off). Lock held. */
    public void beginIfNeeded() throws SQLException {
        beforeExecute();
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

    // ------------------------------------------------------------------ interrupts and timeouts

    /** Registers a Java function callable from SQL on this connection. Lock held. */
    public void createFunction(String name, int nArgs, boolean deterministic, dev.panlite.ffi.SqlFunctions.Body body)
            throws SQLException {
        assert isLockedByMe();
        int rc = scratch.createFunction(db, name, nArgs, deterministic, body);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /**
     * The incumbent's {@code backup to FILE} / {@code restore from FILE}: SQLite's online backup of
     * schema {@code schema} into the file, or from it. Lock held.
     */
    public void backup(String schema, String file, boolean restore) throws SQLException {
        backup(schema, file, restore, -1, null);
    }

    // ------------------------------------------------------------------ issue 13: images, backup, blobs

    /** The connection's native scratch memory (blob I/O buffers). Lock held. */
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
     * Online backup of {@code schema} to {@code file} (or, with {@code restore}, from it), in steps of
     * {@code pagesPerStep} pages, telling {@code progress} after each. Lock held.
     */
    public void backup(String schema, String file, boolean restore, int pagesPerStep, Scratch.Progress progress)
            throws SQLException {
        assert isLockedByMe();
        if (restore) {
            refuseInCallback("restore");
        }
        // the progress callback runs while the sqlite3_backup* points into this connection: counted as a
        // callback, so closing the connection from it waits until the backup is finished
        Scratch.Progress counted = progress == null ? null
                : (remaining, pages) -> scratch.callbacks().runInside(() -> progress.report(remaining, pages));
        Scratch.Copied copied;
        try {
            copied = Scratch.backup(db, schema, file, restore, config.busyTimeoutMillis(), pagesPerStep, counted);
        } catch (RuntimeException | Error stopped) { // thrown by the progress callback: the copy stopped there
            throw new SQLException((restore ? "restore from '" : "backup to '") + file
                    + "' stopped: its progress callback threw " + stopped, "HY000", stopped);
        }
        if (copied.rc() != Sqlite.OK) {
            throw ResultCodes.exception(copied.rc(), copied.message() + " (" + (restore ? "restore from '" : "backup to '")
                    + file + "')", null, ResultCodes.Phase.EXECUTE);
        }
    }

    /**
     * The oldest SQLite deserialize is offered on: SQLite 3.40.1 (Debian 12's) crashed in
     * sqlite3SchemaToIndex on later prepares after a deserialize, in 1 of about 9 misuse-fuzz runs, with
     * no statement open (F21); 3.54.1 never did.
     */
    static final int DESERIALIZE_SINCE = 3_054_000;
    private static final String DESERIALIZE_SINCE_TEXT = "3.54.0";

    /** sqlite3_serialize: the bytes of {@code schema}. Lock held. */
    public byte[] serialize(String schema) throws SQLException {
        assert isLockedByMe();
        byte[] image = Scratch.serialize(db, schema);
        if (image == null) {
            throw ResultCodes.exception(Sqlite.ERROR, "Cannot serialize schema '" + schema
                    + "': no such database, or out of memory", null, ResultCodes.Phase.EXECUTE);
        }
        return image;
    }

    /** sqlite3_deserialize: {@code schema} becomes an in-memory database holding {@code image}. Lock held. */
    public void deserialize(String schema, byte[] image) throws SQLException {
        assert isLockedByMe();
        refuseInCallback("deserialize");
        if (libraryVersionNumber() < DESERIALIZE_SINCE) {
            throw new java.sql.SQLFeatureNotSupportedException("deserialize needs SQLite " + DESERIALIZE_SINCE_TEXT
                    + " or newer (the bundled engine); this is " + libraryVersion() + ", which the misuse fuzz crashed"
                    + " after a deserialize", "0A000");
        }
        // sqlite3_deserialize closes the schema's old b-tree under any statement still reading it (its
        // cursors would dangle: found by the misuse fuzz): refuse while one runs or a blob is open
        if (openBlobs != null) {
            throw ResultCodes.exception(Sqlite.BUSY, "deserialize: a blob of this connection is open; free() it first",
                    null, ResultCodes.Phase.EXECUTE);
        }
        for (long s = Sqlite.nextStmt(db, 0); s != 0; s = Sqlite.nextStmt(db, s)) {
            if (Sqlite.stmtBusy(s)) {
                throw ResultCodes.exception(Sqlite.BUSY, "deserialize: a statement of this connection is still"
                        + " running (an open ResultSet?); close it first", null, ResultCodes.Phase.EXECUTE);
            }
        }
        // Statements prepared before a deserialize keep pointers into the schema it replaces; SQLite 3.40.1
        // later crashed on them, and on fresh prepares after them (misuse fuzz F21). So the idle ones (the
        // statement cache, the transaction statements) are finalized, and the caller's own must be closed.
        if (inTransaction()) {
            throw ResultCodes.exception(Sqlite.BUSY, "deserialize: a transaction is open; commit or roll it back first",
                    null, ResultCodes.Phase.EXECUTE);
        }
        if (cache != null) {
            for (Stmt s : cache.drain()) {
                s.finalizeNow();
            }
        }
        tx.close();
        if (live != null) {
            throw ResultCodes.exception(Sqlite.BUSY, "deserialize: this connection has open statements ("
                    + live.sql + " ...); close them first", null, ResultCodes.Phase.EXECUTE);
        }
        int rc = Scratch.deserialize(db, schema, image);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** Replacing a database under a running statement (from one of its callbacks) is refused. Lock held. */
    private void refuseInCallback(String what) throws SQLException {
        if (inCallback()) {
            throw ResultCodes.exception(Sqlite.MISUSE, what + " cannot run inside a callback of this connection:"
                    + " it would replace the database the running statement reads", null, ResultCodes.Phase.EXECUTE);
        }
    }

    private BlobHandle openBlobs; // closed with the connection: SQLite cannot close with blobs open

    /** Opens incremental I/O on one value. Lock held. */
    public BlobHandle openBlob(String schema, String table, String column, long rowid, boolean writable)
            throws SQLException {
        assert isLockedByMe();
        BlobHandle blob = BlobHandle.open(this, schema, table, column, rowid, writable);
        blob.next = openBlobs;
        if (openBlobs != null) {
            openBlobs.prev = blob;
        }
        openBlobs = blob;
        return blob;
    }

    /** Lock held. */
    void untrack(BlobHandle blob) {
        assert isLockedByMe();
        if (blob.prev != null) {
            blob.prev.next = blob.next;
        } else if (openBlobs == blob) {
            openBlobs = blob.next;
        }
        if (blob.next != null) {
            blob.next.prev = blob.prev;
        }
        blob.next = null;
        blob.prev = null;
    }

    /** Registers a Java aggregate function callable from SQL on this connection. Lock held. */
    public void createAggregate(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends dev.panlite.ffi.SqlFunctions.Accumulator> factory) throws SQLException {
        assert isLockedByMe();
        int rc = scratch.createAggregate(db, name, nArgs, deterministic, factory);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** Installs (non-null) or removes (null) the change hooks of this connection. Lock held. */
    public void setChangeHooks(dev.panlite.ffi.ChangeHooks.Receiver receiver) {
        assert isLockedByMe();
        if (receiver != null) {
            scratch.installHooks(db, receiver);
        } else {
            Scratch.removeHooks(db);
        }
    }

    /** Registers a collation (a Java comparator of texts) on this connection. Lock held. */
    public void createCollation(String name, java.util.Comparator<String> order) throws SQLException {
        createCollationChecked(name, order);
    }

    /** Registers an aggregate window function (step, inverse, value, finish). Lock held. */
    public void createWindowFunction(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends dev.panlite.ffi.WindowFunctions.Accumulator> factory)
            throws SQLException {
        assert isLockedByMe();
        int rc = scratch.createWindowFunction(db, name, nArgs, deterministic, factory);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** Installs (null: removes) the progress handler, run every {@code instructions} VM steps. Lock held. */
    public void setProgressHandler(int instructions, dev.panlite.ffi.ProgressHandlers.Handler handler) {
        assert isLockedByMe();
        scratch.setProgressHandler(db, instructions, handler);
    }

    private void createCollationChecked(String name, java.util.Comparator<String> order) throws SQLException {
        assert isLockedByMe();
        int rc = scratch.createCollation(db, name, order);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** How many times {@link #interrupt()} reached SQLite (cancel, timeouts, abort); any thread. */
    public int interrupts() {
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

    /** sqlite3_interrupt from any thread; does nothing once closed. */
    public void interrupt() {
        synchronized (interruptGuard) {
            if (!closed) {
                interruptedByTimeout = false;
                interrupts++;
                Sqlite.interrupt(db);
            }
        }
        writeAccess.cancelWait("cancelled"); // a wait for the write gate is not inside SQLite
    }

    /**
     * Call before taking the lock to close: a thread queued for the write gate holds the lock, so
     * its wait ends first. (A busy handler closing its own connection: see close, closeWhenIdle.)
     */
    public void beforeClose() {
        writeAccess.cancelWait("closed");
    }

    /** Starts the clock for a statement with a timeout; pass the result to {@link #disarm}. Lock held. */
    public ScheduledFuture<?> armTimeout(int seconds) {
        long execution = ++executionCounter;
        interruptedByTimeout = false;
        timedExecution = execution;
        return QueryTimeouts.schedule(() -> timeoutFired(execution), seconds * 1000L);
    }

    /** Stops the clock: a timeout firing after this cannot touch a later statement. */
    public void disarm(ScheduledFuture<?> timeout) {
        if (timeout != null) {
            timeout.cancel(false);
            synchronized (interruptGuard) {
                timedExecution = 0;
            }
        }
    }

    private void timeoutFired(long execution) {
        synchronized (interruptGuard) {
            if (!closed && timedExecution == execution) {
                interruptedByTimeout = true;
                interrupts++;
                Sqlite.interrupt(db);
            }
        }
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
            synchronized (interruptGuard) {
                closed = true;
            }
            while (openBlobs != null) {
                openBlobs.closeLocked();
            }
            tx.close();
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
            ResourceDatabase.delete(resourceCopy);
        } finally {
            if (closed) {
                writeAccess.close(); // SQLite rolled the transaction back: the gate goes, whatever failed above
            }
            lock.unlock();
        }
    }

}
