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
 * native scratch memory, the statement cache and the transaction statements.
 *
 * <p>Threading: the connection is opened in multi-thread mode (NOMUTEX) and every native call
 * sequence runs with {@link #lock()} held; closed-ness is checked under it. Only
 * {@link #interrupt()} runs without it (sqlite3_interrupt is safe from any thread), guarded
 * against a concurrent close by {@code interruptGuard}.
 */
public final class Database {
    private final ReentrantLock lock = new ReentrantLock();
    private final Object interruptGuard = new Object();
    private final Config config;
    private final Scratch scratch;
    private final StatementCache cache; // null when stmt_cache_size=0
    private final TxStatements tx;
    private long db;
    private volatile boolean closed;
    private boolean autoCommit = true;
    private long transactionNumber; // counts transactions the driver began: savepoints belong to one
    private boolean readOnly; // JDBC read-only (query_only): see setReadOnly

    // query timeouts: which execution may still be interrupted, and whether the last interrupt was a timeout
    private long executionCounter;
    private volatile long timedExecution;
    private volatile boolean interruptedByTimeout;

    private Database(Config config, long db) {
        this.config = config;
        this.db = db;
        this.scratch = new Scratch();
        this.cache = config.stmtCacheSize() > 0 ? new StatementCache(config.stmtCacheSize()) : null;
        this.tx = new TxStatements(this, config.transactionMode().beginSql(), config.cacheTxStatements());
    }

    /** Opens the database {@code config} names and applies its settings. */
    public static Database open(Config config) throws SQLException {
        String loadError = SqliteLibrary.loadError();
        if (loadError != null) {
            throw new SQLNonTransientConnectionException(loadError, "08001");
        }
        int flags = config.openFlags() | Sqlite.OPEN_NOMUTEX | Sqlite.OPEN_EXRESCODE;
        Scratch.Opened opened = Scratch.open(config.filename(), flags);
        if (opened.rc() != Sqlite.OK) {
            String message = opened.db() == 0 ? Sqlite.errstr(opened.rc()) : Sqlite.errmsg(opened.db());
            if (opened.db() != 0) {
                Sqlite.closeV2(opened.db()); // SQLite hands out a handle even on failure; it must be closed
            }
            throw ResultCodes.exception(opened.rc(), message + " (opening '" + config.filename() + "')", null,
                    ResultCodes.Phase.EXECUTE);
        }
        Database database = new Database(config, opened.db());
        try {
            database.configure();
        } catch (SQLException | RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    private void configure() throws SQLException {
        Sqlite.busyTimeout(db, config.busyTimeoutMillis());
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
    }

    public Config config() {
        return config;
    }

    public void lock() {
        lock.lock();
    }

    public void unlock() {
        lock.unlock();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Throws if the connection is closed; call with the lock held. */
    public void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLNonTransientConnectionException("The connection is closed", "08003");
        }
    }

    // ------------------------------------------------------------------ errors

    /** The exception for a failed call that returned {@code rc}, with SQLite's message for this connection. */
    public SQLException error(int rc, String sql, ResultCodes.Phase phase) {
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
        if (hasMoreSql(utf8, scratch.tailOffset())) {
            Sqlite.finalizeStmt(handle);
            throw ResultCodes.exception(Sqlite.ERROR,
                    "A prepared statement takes one SQL statement; use Statement.execute for several", sql,
                    ResultCodes.Phase.PREPARE);
        }
        return new Stmt(this, handle, sql, cacheable);
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
        int rc = Fused.execNoArgs(scratch, db, utf8, offset, utf8.length - offset);
        long query = scratch.preparedStmt();
        if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
            throw error(rc, sqlText, scratch.tailOffset() < 0 ? ResultCodes.Phase.PREPARE : ResultCodes.Phase.EXECUTE);
        }
        Stmt stmt = query == 0 ? null : new Stmt(this, query, sqlText, false);
        return new Executed(stmt, rc, utf8, scratch.tailOffset());
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
        return Sqlite.changes(db);
    }

    public long totalChanges() {
        return Sqlite.totalChanges(db);
    }

    public long lastInsertRowid() {
        return Sqlite.lastInsertRowid(db);
    }

    // ------------------------------------------------------------------ transactions

    public boolean autoCommit() {
        return autoCommit;
    }

    /** True while SQLite has a transaction open (whoever began it). */
    public boolean inTransaction() {
        return !closed && !Sqlite.getAutocommit(db);
    }

    /**
     * Called before every statement runs: with auto-commit off, the transaction begins here, lazily,
     * so an idle connection holds no lock. Asking SQLite (not a flag of ours) notices a transaction
     * SQLite ended on its own (ON CONFLICT ROLLBACK, SQLITE_FULL, interrupt). Lock held.
     */
    public void beforeExecute() throws SQLException {
        if (!autoCommit && Sqlite.getAutocommit(db)) {
            transactionNumber++;
            if (readOnly || config.readOnlyOpen()) {
                tx.beginReadOnly();
            } else {
                tx.begin();
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
        if (on && !autoCommit && inTransaction()) {
            tx.commit();
        }
        autoCommit = on;
    }

    /** Commits the open transaction, if any; a failed COMMIT (e.g. BUSY) leaves it open to retry. Lock held. */
    public void commit() throws SQLException {
        if (inTransaction()) {
            tx.commit();
        }
    }

    /** Rolls back the open transaction, if any. Lock held. */
    public void rollback() throws SQLException {
        if (inTransaction()) {
            tx.rollback();
        }
    }

    /** Begins a transaction now unless one is open (a savepoint needs one under auto-commit off). Lock held. */
    public void beginIfNeeded() throws SQLException {
        beforeExecute();
    }

    public Scratch.ColumnInfo columnInfo(String schema, String table, String column) {
        return scratch.tableColumnMetadata(db, schema, table, column);
    }

    // ------------------------------------------------------------------ interrupts and timeouts

    /** Registers a Java function callable from SQL on this connection. Lock held. */
    public void createFunction(String name, int nArgs, boolean deterministic, dev.panlite.ffi.SqlFunctions.Body body)
            throws SQLException {
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
        Scratch.Copied copied = Scratch.backup(db, schema, file, restore, config.busyTimeoutMillis());
        if (copied.rc() != Sqlite.OK) {
            throw ResultCodes.exception(copied.rc(), copied.message() + " (" + (restore ? "restore from '" : "backup to '")
                    + file + "')", null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** Registers a Java aggregate function callable from SQL on this connection. Lock held. */
    public void createAggregate(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends dev.panlite.ffi.SqlFunctions.Accumulator> factory) throws SQLException {
        int rc = scratch.createAggregate(db, name, nArgs, deterministic, factory);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** Installs (non-null) or removes (null) the change hooks of this connection. Lock held. */
    public void setChangeHooks(dev.panlite.ffi.ChangeHooks.Receiver receiver) {
        if (receiver != null) {
            scratch.installHooks(db, receiver);
        } else {
            Scratch.removeHooks(db);
        }
    }

    /** Registers a collation (a Java comparator of texts) on this connection. Lock held. */
    public void createCollation(String name, java.util.Comparator<String> order) throws SQLException {
        int rc = scratch.createCollation(db, name, order);
        if (rc != Sqlite.OK) {
            throw error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }

    /** sqlite3_interrupt from any thread; does nothing once closed. */
    public void interrupt() {
        synchronized (interruptGuard) {
            if (!closed) {
                interruptedByTimeout = false;
                Sqlite.interrupt(db);
            }
        }
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
                Sqlite.interrupt(db);
            }
        }
    }

    // ------------------------------------------------------------------ observability

    /** Statement cache counters: hits, misses, evictions, size, capacity. Lock held. */
    public long[] cacheStats() {
        if (cache == null) {
            return new long[] {0, 0, 0, 0, 0};
        }
        return new long[] {cache.hits(), cache.misses(), cache.evictions(), cache.size(), cache.capacity()};
    }

    /** How many statements SQLite holds open on this connection (sqlite3_next_stmt). Lock held. */
    public int liveStatements() {
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
     * Closes the connection: an open transaction is rolled back (by SQLite), every statement still
     * prepared on it (cached, transaction, or held by JDBC objects, which see the closed flag) is
     * finalized, then the handle and the native memory are released. Idempotent. Takes the lock.
     */
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            synchronized (interruptGuard) {
                closed = true;
            }
            tx.close();
            if (cache != null) {
                for (Stmt s : cache.drain()) {
                    s.finalizeNow();
                }
            }
            for (long s = Sqlite.nextStmt(db, 0); s != 0; s = Sqlite.nextStmt(db, 0)) {
                Sqlite.finalizeStmt(s);
            }
            Sqlite.closeV2(db);
            db = 0;
            scratch.close();
        } finally {
            lock.unlock();
        }
    }
}
