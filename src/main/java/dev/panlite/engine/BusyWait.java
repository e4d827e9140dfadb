package dev.panlite.engine;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One wait for a lock, in Java: how long it may last ({@code busy_timeout}, or as long as the
 * connection's busy handler says), how long each park is, and its JFR event. SQLite itself
 * never sleeps (sqlite3_busy_timeout is 0), so a waiting virtual thread unmounts instead of pinning
 * its carrier inside sqlite3_step.
 */
public final class BusyWait {
    /** The connection's busy handler (the public {@code dev.panlite.BusyHandler}, adapted by the JDBC layer). */
    @FunctionalInterface
    public interface Handler {
        boolean keepWaiting(int attempts, java.time.Duration waited);
    }

    /** Parks between retries of SQLITE_BUSY: short at first (most locks are short), capped. */
    private static final long FIRST_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How often a gate waiter asks the busy handler; it keeps its place in the queue meanwhile. */
    private static final long HANDLER_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final long start = System.nanoTime();
    private final long timeoutNanos;
    private final Handler handler;
    private final Object event; // JfrEvents: null without jdk.jfr
    private int attempts;

    BusyWait(int busyTimeoutMillis, Handler handler, String file, String lock) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(busyTimeoutMillis);
        this.handler = handler;
        this.event = JfrEvents.lockWaitStart(file, lock);
    }

    long waitedNanos() {
        return System.nanoTime() - start;
    }

    /**
     * Whether to wait (again): within busy_timeout, or the busy handler's answer. A handler that
     * throws ends the wait with its exception as the cause.
     */
    boolean mayContinue() throws SQLException {
        if (handler == null) {
            attempts++;
            return waitedNanos() < timeoutNanos;
        }
        try {
            return handler.keepWaiting(attempts++, Duration.ofNanos(waitedNanos()));
        } catch (RuntimeException | Error e) {
            throw new SQLException("The busy handler failed: " + e, SqlState.GENERAL_ERROR, e);
        }
    }

    /** When the current slice of a gate wait ends: the whole timeout, or until the handler is asked again. */
    long gateDeadline() {
        return handler == null ? start + timeoutNanos : System.nanoTime() + HANDLER_SLICE_NANOS;
    }

    /** Parks before the next retry of SQLITE_BUSY: doubling from 100 us to 5 ms, never past the timeout. */
    void park() {
        long park = Math.min(MAX_PARK_NANOS, FIRST_PARK_NANOS << Math.min(attempts, 10));
        if (handler == null) {
            park = Math.min(park, timeoutNanos - waitedNanos());
        }
        if (park > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(this, park);
        }
    }

    /** What a wait that ran out says: how long, for what. */
    String exhausted(String what) {
        long millis = TimeUnit.NANOSECONDS.toMillis(waitedNanos());
        return "database is locked: waited " + millis + " ms for " + what
                + (handler == null ? " (busy_timeout=" + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms)"
                        : " until the busy handler gave up");
    }

    /** Records the wait in JFR (when the event is enabled). */
    void end(String outcome) {
        JfrEvents.lockWaitEnd(event, waitedNanos(), outcome);
    }

    boolean hasHandler() {
        return handler != null;
    }
}
