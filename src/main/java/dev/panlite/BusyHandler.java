package dev.panlite;

import java.time.Duration;

/**
 * Decides how long a connection keeps waiting for a lock another connection holds (the incumbent's
 * {@code org.sqlite.BusyHandler}); set it with {@link PanliteConnection#setBusyHandler}. While one
 * is set it replaces {@code busy_timeout}, as in SQLite.
 *
 * <p>It is consulted by the driver's own wait, in Java: between short parks while queueing for this
 * JVM's write gate of the file, and between retries of SQLITE_BUSY caused by another process. It is
 * never called inside SQLite (which no longer sleeps), so it need not sleep itself: return at once.
 * It runs on the waiting thread with the connection locked; it may not close the connection. A
 * handler that always answers {@code true} waits for ever, as it asked; {@code close()} from another
 * thread, {@code Statement.cancel()} or an interrupt still ends the wait.
 */
@FunctionalInterface
public interface BusyHandler {
    /**
     * @param attempts how many times this wait already asked the handler (0 the first time)
     * @param waited how long this wait has lasted so far
     * @return true to keep waiting, false to give up: the statement then fails with SQLITE_BUSY
     */
    boolean keepWaiting(int attempts, Duration waited);
}
