package dev.panlite.engine;

import dev.panlite.ffi.BusyTimeoutField;
import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.function.IntSupplier;

/**
 * One connection's side of the write path (DESIGN.md "Many connections, one file"): when it holds
 * its file's {@link WriteGate}, and the Java-side retry of SQLITE_BUSY that replaces SQLite's busy
 * handler. Every method runs with the connection's lock held, except {@link #cancelWait}.
 *
 * <p>The gate is held from the moment a read-write transaction begins (BEGIN IMMEDIATE) until
 * SQLite is out of the transaction, or, in auto-commit mode, around one writing statement
 * (sqlite3_stmt_readonly == 0) until it is reset. Readers never touch it.
 */
final class WriteAccess {
    static final int BUSY_SNAPSHOT = 517;
    /** Another process is recovering the WAL after a crash: waiting always helps, whatever this connection holds. */
    static final int BUSY_RECOVERY = 261;

    private final Database database;
    private final WriteGate gate; // null for an in-memory or temporary database
    private volatile int busyTimeoutMillis; // busy_timeout, or PRAGMA busy_timeout run as SQL (BusyTimeoutPragma)
    private volatile BusyWait.Handler handler;
    private boolean held;
    private Stmt holder; // the auto-commit statement the gate was taken for, until it is reset
    private volatile WriteGate.Waiter waiter; // the wait in progress, for cancelWait
    private boolean consultingHandler;
    private SQLException pending; // a failure that step() could only report as a result code
    private boolean closed;
    private LitestreamSync walLimit; // litestream_socket: the gate's holder waits while Litestream catches up; null: off

    WriteAccess(Database database, String mainFile, int busyTimeoutMillis) {
        this.database = database;
        this.gate = WriteGate.forFile(mainFile);
        this.busyTimeoutMillis = busyTimeoutMillis;
    }

    String file() {
        return gate == null ? "(in-memory or temporary database)" : gate.file();
    }

    /** With litestream_socket: each holder of the gate first waits out Litestream's sync when the WAL is past its hard mark. */
    void limitWal(LitestreamSync litestream) {
        this.walLimit = litestream;
    }

    /** A busy handler decides from now on (null: busy_timeout again). Lock held. */
    void setBusyHandler(BusyWait.Handler handler) {
        this.handler = handler;
        noteInForce();
    }

    /** PRAGMA busy_timeout = millis: as sqlite3_busy_timeout, it also replaces the busy handler. Lock held. */
    void setBusyTimeout(int millis) {
        handler = null;
        busyTimeoutMillis = Math.max(0, millis);
        noteInForce();
    }

    /**
     * SQLite's own busy timeout says the wait in force too, for {@code SELECT * FROM pragma_busy_timeout}
     * (bundled engine: {@link BusyTimeoutField}); SQLite itself never waits. Lock held, connection open.
     */
    void noteInForce() {
        assert database.isLockedByMe();
        BusyTimeoutField.note(database.handle(), busyTimeoutInForce());
    }

    int busyTimeoutMillis() {
        return busyTimeoutMillis;
    }

    /** What PRAGMA busy_timeout reads: the timeout, or 0 while a busy handler decides instead (as in SQLite). */
    private int busyTimeoutInForce() {
        return handler != null ? 0 : busyTimeoutMillis;
    }

    boolean holdsGate() {
        return held;
    }

    /** Whether this connection's writes queue for a gate at all (a file, and not read-only). */
    boolean gated() {
        return gate != null && !database.transactions().readOnlyAny();
    }

    /** True while the busy handler runs on the current thread: a close it asks for waits until the call unwinds. */
    boolean consultingHandler() {
        return consultingHandler;
    }

    /** The failure behind the last result code a step reported, once. */
    SQLException takePending() {
        SQLException p = pending;
        pending = null;
        return p;
    }

    // ------------------------------------------------------------------ the gate

    /** Queues for the gate unless this connection holds it (or the file has none). */
    void acquire(String sql) throws SQLException {
        acquire(sql, null);
    }

    /**
     * {@link #acquire(String)} for the auto-commit statement {@code stmt} (null: the caller writes,
     * e.g. BEGIN IMMEDIATE); false, without the gate, when the gate would make it wait and its
     * program writes no file ({@link FileWrites}: a TEMP table, journal_mode=WAL on a WAL file).
     */
    private boolean acquire(String sql, Stmt stmt) throws SQLException {
        if (gate == null || held) {
            return true;
        }
        Boolean writesFile = null; // asked once, and only when the gate would make the statement wait
        if (stmt != null && gate.busy()) {
            writesFile = FileWrites.needed(database, stmt);
            if (!writesFile) {
                return false;
            }
        }
        if (gate.tryAcquire() || gate.spinAcquire()) {
            hold();
            return true;
        }
        if (stmt != null && writesFile == null && !FileWrites.needed(database, stmt)) {
            return false;
        }
        waitForGate(sql);
        return true;
    }

    /** The gate is this connection's: it waits out a window left for other processes, if one is open. */
    private void hold() {
        held = true;
        gate.entered();
        if (walLimit != null) {
            walLimit.awaitRoom();
        }
    }

    private void waitForGate(String sql) throws SQLException {
        BusyWait wait = new BusyWait(busyTimeoutMillis, handler, gate.file(), "write gate");
        WriteGate.Waiter w = gate.enqueue();
        waiter = w;
        String outcome = "acquired";
        try {
            while (true) {
                int state = awaitWatchingForALeak(w, wait.gateDeadline());
                if (state == WriteGate.GRANTED) {
                    hold();
                    return;
                }
                if (state == WriteGate.CANCELLED) {
                    outcome = "cancelled";
                    throw cancelled(w.cancelReason, sql);
                }
                if (Thread.currentThread().isInterrupted()) {
                    outcome = "interrupted";
                    throw ResultCodes.exception(Sqlite.INTERRUPT, "Interrupted while waiting for the write gate of "
                            + gate.file() + " (the thread's interrupt flag stays set)", sql, ResultCodes.Phase.EXECUTE);
                }
                if (!wait.hasHandler() || !consult(wait)) {
                    if (gate.abandon(w)) { // handed over at the last moment: take it
                        hold();
                        return;
                    }
                    outcome = wait.hasHandler() ? "refused by the busy handler" : "timed out";
                    throw ResultCodes.exception(Sqlite.BUSY, wait.exhausted("the write gate of " + gate.file()
                            + " (another connection of this JVM holds a write transaction)"), sql,
                            ResultCodes.Phase.EXECUTE);
                }
            }
        } finally {
            waiter = null;
            if (!held && gate.abandon(w)) {
                gate.release(); // granted while we were failing: pass it on
            }
            wait.end(outcome);
            EngineStats.gateWait(database.counts, wait.waitedNanos(), held);
        }
    }

    /**
     * {@link WriteGate#await}, telling the {@link Reclaimer} of every {@link Reclaimer#LEAKED_WRITER_CHECK_NANOS}
     * of the wait that one holder kept the gate throughout: that holder may be a connection leaked
     * inside its transaction (the Reclaimer's daemon then closes it, which releases the gate). A
     * queue of short holds reports nothing; the Reclaimer spaces out its collections for a long one.
     */
    private int awaitWatchingForALeak(WriteGate.Waiter w, long deadline) {
        while (true) {
            long check = System.nanoTime() + Reclaimer.LEAKED_WRITER_CHECK_NANOS;
            boolean checkFirst = check - deadline < 0;
            long hold = gate.releases(); // the hold this wait is behind
            int state = gate.await(w, checkFirst ? check : deadline);
            if (state != WriteGate.WAITING || !checkFirst || Thread.currentThread().isInterrupted()) {
                return state;
            }
            if (gate.releases() == hold) {
                gate.leakChecks.waitedBehind(hold);
            }
        }
    }

    private static SQLException cancelled(String reason, String sql) {
        if ("closed".equals(reason)) {
            return new SQLNonTransientConnectionException(
                    "The connection was closed while waiting for the write gate", SqlState.CONNECTION_DOES_NOT_EXIST);
        }
        return ResultCodes.exception(Sqlite.INTERRUPT, "Cancelled while waiting for the write gate", sql,
                ResultCodes.Phase.EXECUTE);
    }

    /** Another thread stops a wait in progress: "closed" (close, abort) or "cancelled" (Statement.cancel). */
    void cancelWait(String reason) {
        WriteGate.Waiter w = waiter;
        if (w != null) {
            gate.cancel(w, reason);
        }
    }

    /** Lets the gate go once SQLite is out of any transaction (a failed COMMIT keeps it). */
    void releaseIfNoTransaction() {
        if (held && holder == null && database.handle() != 0 && Sqlite.getAutocommit(database.handle())) {
            release();
        }
    }

    private void release() {
        held = false;
        holder = null;
        gate.release();
    }

    /** The connection is closing (its transaction is gone with it): the gate goes, and so does the reference. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (held) {
                release();
            }
        } finally {
            if (gate != null) {
                gate.unref();
            }
        }
    }

    // ------------------------------------------------------------------ statements

    /**
     * The first sqlite3_step of an execution (with {@code copy}, and the copy of its row:
     * {@link Stmt#stepCopying}): an auto-commit writing statement queues for the gate
     * first; SQLITE_BUSY is retried in Java where a retry is correct. A failure that is not SQLite's
     * comes back as SQLITE_BUSY with the exception left for {@link Database#error}.
     */
    int firstStep(Stmt stmt, boolean copy) {
        pending = null;
        Object event = JfrEvents.statementStart();
        long started = EngineStats.executionStart();
        long db = database.handle();
        if (stmt.busyTimeout != null) { // PRAGMA busy_timeout: the driver's answer (SELECT ?1)
            if (stmt.busyTimeout.value() != null) {
                setBusyTimeout(stmt.busyTimeout.millis());
            }
            Sqlite.bindLong(stmt.handle, 1, busyTimeoutInForce());
        }
        if (!held && stmt.writes() && gated() && Sqlite.getAutocommit(db)) {
            try {
                if (acquire(stmt.sql, stmt)) {
                    holder = stmt;
                }
            } catch (SQLException e) {
                pending = e;
                return Sqlite.BUSY;
            }
        }
        int rc = copy ? stmt.stepAndCopy() : Sqlite.step(stmt.handle);
        if ((rc & 0xff) == Sqlite.BUSY) {
            long h = stmt.handle;
            Sqlite.reset(h);
            if (copy) {
                stmt.rowBatch().inPlace(); // the retries below are plain steps: their row is read in place
            }
            rc = retryBusy(rc, stmt.sql, stmt.isCommit(), () -> {
                int again = Sqlite.step(h);
                if ((again & 0xff) == Sqlite.BUSY) {
                    Sqlite.reset(h);
                }
                return again;
            });
        }
        if (held && holder == null && Sqlite.getAutocommit(db)) {
            release(); // SQL text ended the transaction (COMMIT, ROLLBACK), or BEGIN failed
        }
        JfrEvents.statementEnd(event, stmt.sql, file(), rc);
        EngineStats.executionEnd(database.counts, started);
        return rc;
    }

    /**
     * True when {@link #firstStep} of {@code stmt} would be a plain sqlite3_step now: inside a
     * transaction (no gate to take per statement, nothing to release) with no recording of statement
     * events. A batch of rows may then run in one downcall (BatchRows); SQLITE_BUSY still comes back
     * to Java, which retries that row through firstStep. Lock held.
     */
    boolean plainFirstSteps() {
        return !Sqlite.getAutocommit(database.handle()) && !StatementEvent.enabled();
    }

    /** Called after {@code stmt} was reset or finalized: an auto-commit write is over, the gate goes. */
    void afterReset(Stmt stmt) {
        if (holder == stmt) {
            holder = null;
            if (database.handle() == 0 || Sqlite.getAutocommit(database.handle())) {
                release();
            } // else the statement began a transaction (BEGIN IMMEDIATE as SQL): the gate stays with it
        }
    }

    /**
     * Retries SQLITE_BUSY (the failed statement already reset or finalized) where SQLite permits:
     * when the connection holds no lock (auto-commit, BEGIN, the first statement of a deferred
     * transaction) or for COMMIT. A deferred transaction that read and now wants to write cannot
     * wait (SQLite skips its busy handler there: waiting could deadlock), and a stale WAL snapshot
     * (SQLITE_BUSY_SNAPSHOT) never succeeds: both fail at once.
     */
    int retryBusy(int rc, String sql, boolean isCommit, IntSupplier again) {
        if (rc == BUSY_SNAPSHOT) {
            return rc;
        }
        if (!isCommit && rc != BUSY_RECOVERY && inFileTransaction()) {
            pending = ResultCodes.exception(rc, "database is locked: this transaction read before it wrote, and"
                    + " SQLite cannot let it wait for the write lock (that could deadlock). Roll back and retry the"
                    + " transaction; transaction_mode=IMMEDIATE (the default) takes the write lock at BEGIN", sql,
                    ResultCodes.Phase.EXECUTE);
            return rc;
        }
        BusyWait wait = new BusyWait(busyTimeoutMillis, handler, file(), "SQLite lock");
        String outcome = "acquired";
        int retries = 0;
        try {
            while (true) {
                if (!consult(wait)) {
                    outcome = wait.hasHandler() ? "refused by the busy handler" : "timed out";
                    pending = ResultCodes.exception(rc, wait.exhausted("a lock on " + file()
                            + " held by another process (or by a connection outside this JVM's write gate)"), sql,
                            ResultCodes.Phase.EXECUTE);
                    return rc;
                }
                wait.park();
                if (Thread.currentThread().isInterrupted()) {
                    outcome = "interrupted";
                    pending = ResultCodes.exception(Sqlite.INTERRUPT, "Interrupted while waiting for a lock on "
                            + file() + " (the thread's interrupt flag stays set)", sql, ResultCodes.Phase.EXECUTE);
                    return rc;
                }
                rc = again.getAsInt();
                retries++;
                if ((rc & 0xff) != Sqlite.BUSY || rc == BUSY_SNAPSHOT) {
                    return rc;
                }
            }
        } catch (SQLException handlerFailed) {
            outcome = "busy handler failed";
            pending = handlerFailed;
            return rc;
        } finally {
            wait.end(outcome);
            EngineStats.busyWait(database.counts, wait.waitedNanos(), retries, "acquired".equals(outcome) && (rc & 0xff) != Sqlite.BUSY);
        }
    }

    /**
     * Whether this connection has a transaction open on a database file, main or attached (SQLite's
     * state of each schema): it may then hold a lock another connection waits for. TEMP is the
     * connection's own: a transaction that wrote only TEMP tables holds no lock on any file.
     */
    private boolean inFileTransaction() {
        long db = database.handle();
        if (Sqlite.txnState(db) == Sqlite.TXN_NONE) {
            return false; // no schema at all: the common case, one call
        }
        String[] schemas = FileWrites.schemas(database);
        if (schemas == null) {
            return true; // cannot tell: as if it had one (failing at once never deadlocks)
        }
        for (int i = 0; i < schemas.length; i++) {
            if (i != FileWrites.TEMP && schemas[i] != null && Sqlite.txnState(db, schemas[i]) != Sqlite.TXN_NONE) {
                return true;
            }
        }
        return false;
    }

    private boolean consult(BusyWait wait) throws SQLException {
        consultingHandler = true;
        boolean more;
        try {
            more = wait.mayContinue();
        } finally {
            consultingHandler = false;
        }
        if (database.isClosed()) { // the handler closed the connection: it closes once this call unwinds
            throw new SQLNonTransientConnectionException("The busy handler closed the connection", SqlState.CONNECTION_DOES_NOT_EXIST);
        }
        return more;
    }
}
