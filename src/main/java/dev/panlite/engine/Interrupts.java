package dev.panlite.engine;

import dev.panlite.ffi.InterruptFlag;
import dev.panlite.ffi.Sqlite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ScheduledFuture;

/**
 * sqlite3_interrupt for one connection: Statement.cancel, query timeouts, abort and close. The only
 * native call made without the connection's lock (SQLite allows it from any thread); a guard keeps
 * it from racing the close that frees the handle.
 *
 * <p>An interrupt stops one execution, not the connection. SQLite's flag is connection-wide and
 * SQLite clears it only when no statement of the connection is active: with a result set held open,
 * one cancelled statement would fail every later one (and the held one) until all were reset. So:
 * <ul>
 * <li>The lock holder keeps a stack of the executions it runs ({@link #begin}, {@link #end}: a
 * statement executing or a result set stepping; a callback that runs another statement pushes one
 * more). Each has a number; cancel finds its statement's outermost execution, a timeout its own.
 * Nothing is interrupted that is not on the stack: a cancel or a timeout that arrives after its
 * execution ended does nothing.</li>
 * <li>The interrupt remembers the level it was aimed at; when that execution ends, the flag is
 * cleared (bundled engine, {@link InterruptFlag}), so the executions below it on the stack, a held
 * result set, and later statements run on. An execution nested above the target is stopped with it
 * (its error is the target's to handle), and does not clear it.</li>
 * <li>Races, without a lock on the hot path (Dekker's pattern on two volatiles): {@link #end} writes
 * the depth, then reads the target; an interrupter writes the target, then reads the depth and the
 * execution's number again before it calls sqlite3_interrupt. One of them sees the other: either the
 * end settles (clears under the guard, after the interrupt), or the interrupt is not made.</li>
 * <li>An engine that cannot clear the flag (the system SQLite, libSQL: no access to its struct)
 * leaves it in force until SQLite clears it: the error of a statement it fails says so
 * ({@link #leftOverMessage}), and held result sets see it as their next step would (count()).</li>
 * </ul>
 * Abort and close interrupt whatever runs and never clear: the connection is closing.
 */
public final class Interrupts {
    private static final VarHandle IDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle OWNERS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle DEPTH;
    private static final int NONE = -1;

    static {
        try {
            DEPTH = MethodHandles.lookup().findVarHandle(Interrupts.class, "depth", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object guard = new Object();
    private final WriteAccess writeAccess;
    private long db; // zeroed by closing(), under the guard
    // The executions on the lock holder's stack, outermost first: written by the holder (release),
    // read by interrupters under the guard (acquire). Arrays are replaced only under the guard.
    private long[] ids = new long[8];
    private Object[] owners = new Object[8];
    private ScheduledFuture<?>[] timers = new ScheduledFuture<?>[8]; // lock holder only
    private volatile int depth;
    private long lastId; // lock held
    private boolean endedInterrupted; // lock held: the execution that ended last was an interrupt's target, and none began since
    private volatile int target = NONE; // the outermost level an interrupt in force is aimed at; written under the guard
    private boolean closingInterrupt; // guard: abort or close interrupted: nothing clears the flag any more
    private boolean leftOver; // guard: an interrupt outlived its execution on an engine that cannot clear it
    private volatile boolean interruptedByTimeout;
    private volatile int count; // interrupts still in force after their execution: a result set reading ahead replays one (RowBatch)

    Interrupts(long db, WriteAccess writeAccess) {
        this.db = db;
        this.writeAccess = writeAccess;
    }

    /**
     * An execution of {@code owner} (the JDBC statement) begins; with {@code timeoutSeconds > 0} its
     * clock starts. Pass the result to {@link #end}, in a finally. Lock held. Allocates nothing
     * without a timeout.
     */
    public int begin(Object owner, int timeoutSeconds) {
        int level = depth;
        if (level == ids.length) {
            grow();
        }
        long id = ++lastId;
        endedInterrupted = false;
        IDS.setRelease(ids, level, id);
        OWNERS.setRelease(owners, level, owner); // after the id: an interrupter that sees the owner sees this id
        DEPTH.setRelease(this, level + 1); // an interrupter that misses it sees a cancel from before the start
        if (timeoutSeconds > 0) {
            timers[level] = QueryTimeouts.schedule(() -> timeoutFired(id), timeoutSeconds * 1000L);
        }
        return level;
    }

    /** The execution {@link #begin} returned {@code level} for has ended: an interrupt aimed at it ends too. Lock held. */
    public void end(int level) {
        ScheduledFuture<?> timer = timers[level];
        if (timer != null) {
            timers[level] = null;
            timer.cancel(false);
        }
        OWNERS.setRelease(owners, level, null);
        depth = level; // volatile, then the read of target: an interrupter writes target, then reads depth
        endedInterrupted = target >= level && settle(level);
    }

    /**
     * Whether the execution that ended last was stopped by an interrupt aimed at it, whose flag is
     * gone now: its error is read after {@link #end} (a virtual table that reports the interrupt as
     * an error of its own is told by this). Lock held.
     */
    boolean endedInterrupted() {
        return endedInterrupted;
    }

    private void grow() {
        synchronized (guard) {
            int n = ids.length * 2;
            ids = java.util.Arrays.copyOf(ids, n);
            owners = java.util.Arrays.copyOf(owners, n);
            timers = java.util.Arrays.copyOf(timers, n);
        }
    }

    /**
     * The execution an interrupt was aimed at has ended: clear the flag, or note that it stays. True
     * when it was that execution's interrupt. Lock held.
     */
    private boolean settle(int level) {
        synchronized (guard) {
            if (target < level) { // the interrupter saw the end and took its aim back
                return false;
            }
            target = NONE;
            if (db == 0 || closingInterrupt) {
                return true;
            }
            if (InterruptFlag.available()) {
                InterruptFlag.clear(db);
            } else {
                leftOver = true;
                count++; // a result set holding rows read ahead fails its next step, as stepping in place would
            }
            return true;
        }
    }

    /**
     * Statement.cancel: interrupts {@code owner}'s execution in progress, from any thread; false when
     * it has none (nothing was interrupted). A wait for the write gate ends too.
     */
    public boolean interrupt(Object owner) {
        boolean aimed = false;
        synchronized (guard) {
            if (db != 0) {
                int d = Math.min(depth, ids.length);
                for (int k = 0; k < d; k++) {
                    if (OWNERS.getAcquire(owners, k) == owner) {
                        long id = (long) IDS.getAcquire(ids, k);
                        if (OWNERS.getAcquire(owners, k) == owner) { // still its: the id read is owner's
                            aimed = aim(k, id, false);
                        }
                        break;
                    }
                }
            }
        }
        writeAccess.cancelWait("cancelled"); // a wait for the write gate is not inside SQLite
        return aimed;
    }

    /** Abort and close: interrupts whatever runs, for good (the connection is closing). Any thread. */
    public void interruptAll() {
        synchronized (guard) {
            if (db != 0) {
                closingInterrupt = true;
                interruptedByTimeout = false;
                count++;
                Sqlite.interrupt(db);
            }
        }
        writeAccess.cancelWait("cancelled");
    }

    private void timeoutFired(long id) {
        synchronized (guard) {
            if (db == 0) {
                return;
            }
            int d = Math.min(depth, ids.length);
            for (int k = 0; k < d; k++) {
                if ((long) IDS.getAcquire(ids, k) == id) {
                    aim(k, id, true);
                    return;
                }
            }
        }
    }

    /** Interrupts the execution {@code id} at {@code level} if it is still running. Guard held. */
    private boolean aim(int level, long id, boolean timeout) {
        int before = target;
        target = before == NONE ? level : Math.min(before, level); // volatile, then the reads of depth and id
        if (depth > level && (long) IDS.getAcquire(ids, level) == id) {
            interruptedByTimeout = timeout;
            Sqlite.interrupt(db);
            return true;
        }
        target = before; // it ended meanwhile: nothing to interrupt
        return false;
    }

    /**
     * A callback (a collation) asked SQLite to stop the statement it ran in, and that statement has
     * failed: the flag goes unless an interrupt aimed at a running execution needs it. Lock held.
     */
    void afterCallbackStop() {
        synchronized (guard) {
            if (db == 0 || closingInterrupt || target != NONE) {
                return;
            }
            if (InterruptFlag.available()) {
                InterruptFlag.clear(db);
            } else {
                leftOver = true;
            }
        }
    }

    /**
     * When an interrupt error of the lock holder's statement can only be an interrupt left in force
     * after its own execution ended (an engine that cannot clear the flag): what to tell the user;
     * else null. Lock held.
     */
    String leftOverMessage() {
        if (endedInterrupted) { // the error of the very execution the interrupt was aimed at
            return null;
        }
        synchronized (guard) {
            if (!leftOver || target != NONE || closingInterrupt) {
                return null;
            }
            if (Sqlite.libversionNumber() >= 3_041_000 && !Sqlite.isInterrupted(db)) {
                leftOver = false; // SQLite has cleared it meanwhile (no statement was active)
                return null;
            }
        }
        return "unless a progress handler stopped it: left over from another statement's cancel, query timeout"
                + " or failing collation while a result set of this connection was open; SQLite " + Sqlite.libversion()
                + " clears it only when no statement of the connection is active: close the open result sets"
                + " (the bundled engine clears it when the interrupted statement ends)";
    }

    /** How many interrupts stayed in force after their execution (cancel, timeouts; abort, close); any thread. */
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
