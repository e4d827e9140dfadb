package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.util.concurrent.ScheduledFuture;

/**
 * sqlite3_interrupt for one connection: Statement.cancel, abort and query timeouts. The only native
 * call made without the connection's lock (SQLite allows it from any thread); a guard keeps it from
 * racing the close that frees the handle. A timeout that fires after its statement ended must not
 * interrupt a later one, so each armed execution has a number.
 */
public final class Interrupts {
    private final Object guard = new Object();
    private final WriteAccess writeAccess;
    private long db; // zeroed by closing(), under the guard
    private long executionCounter; // lock held
    private volatile long timedExecution;
    private volatile boolean interruptedByTimeout;
    private volatile int count; // interrupts that reached SQLite: a result set reading ahead replays one (RowBatch)

    Interrupts(long db, WriteAccess writeAccess) {
        this.db = db;
        this.writeAccess = writeAccess;
    }

    /** sqlite3_interrupt from any thread; does nothing once closed. A wait for the write gate ends too. */
    public void interrupt() {
        synchronized (guard) {
            if (db != 0) {
                interruptedByTimeout = false;
                count++;
                Sqlite.interrupt(db);
            }
        }
        writeAccess.cancelWait("cancelled"); // a wait for the write gate is not inside SQLite
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
            synchronized (guard) {
                timedExecution = 0;
            }
        }
    }

    private void timeoutFired(long execution) {
        synchronized (guard) {
            if (db != 0 && timedExecution == execution) {
                interruptedByTimeout = true;
                count++;
                Sqlite.interrupt(db);
            }
        }
    }

    /** How many interrupts (cancel, abort, timeouts) have reached SQLite; any thread. */
    public int count() {
        return count;
    }

    /** Whether the last interrupt came from a query timeout (the error becomes SQLTimeoutException). */
    boolean lastWasTimeout() {
        return interruptedByTimeout;
    }

    /** The connection is closing: from now on nothing touches the handle. */
    void closing() {
        synchronized (guard) {
            db = 0;
        }
    }
}
