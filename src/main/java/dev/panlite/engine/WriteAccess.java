package dev.panlite.engine;

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
    private final int busyTimeoutMillis;
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

    void setBusyHandler(BusyWait.Handler handler) {
        this.handler = handler;
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
        if (gate == null || held) {
            return;
        }
        if (gate.tryAcquire() || gate.spinAcquire()) {
            hold();
            return;
        }
        waitForGate(sql);
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
            EngineStats.gateWait(wait.waitedNanos(), held);
        }
    }

    /**
     * {@link WriteGate#await}, asking the {@link Reclaimer} every {@link Reclaimer#LEAKED_WRITER_CHECK_NANOS}
     * of the wait whether the holder is a connection leaked inside its transaction (it then closes
     * it, which releases the gate); the Reclaimer spaces these collections out.
     */
    private int awaitWatchingForALeak(WriteGate.Waiter w, long deadline) {
        while (true) {
            long check = System.nanoTime() + Reclaimer.LEAKED_WRITER_CHECK_NANOS;
            boolean checkFirst = check - deadline < 0;
            int state = gate.await(w, checkFirst ? check : deadline);
            if (state != WriteGate.WAITING || !checkFirst || Thread.currentThread().isInterrupted()) {
                return state;
            }
            Reclaimer.lookForALeakedWriter();
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
        if (!held && stmt.writes() && gated() && Sqlite.getAutocommit(db)) {
            try {
                acquire(stmt.sql);
            } catch (SQLException e) {
                pending = e;
                return Sqlite.BUSY;
            }
            holder = stmt;
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
        if (!isCommit && rc != BUSY_RECOVERY && Sqlite.txnState(database.handle()) != Sqlite.TXN_NONE) {
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
            EngineStats.busyWait(wait.waitedNanos(), retries, "acquired".equals(outcome) && (rc & 0xff) != Sqlite.BUSY);
        }
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
