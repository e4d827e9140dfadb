package dev.panlite;

import dev.panlite.engine.EngineStats;
import java.time.Duration;

/**
 * The driver's counters, summed over every Panlite connection of this JVM (open and closed), for
 * metrics: {@code PanliteStats.snapshot()} any time, from any thread, without touching a connection.
 * The Micrometer binder of the panlite-spring-boot module publishes them as {@code panlite.*}
 * meters. All counts only grow, except {@link #connectionsOpen()}.
 *
 * <p>Counting costs the hot paths nothing measurable: a connection counts in plain fields under its
 * own lock, waits are counted only when a wait happens, and statements are timed only while a slow
 * threshold is set ({@link #setSlowStatementThreshold}). A snapshot may lag the counts in flight.
 *
 * @param connectionsOpened connections opened since the JVM started
 * @param connectionsOpen connections open now (not yet closed nor reclaimed)
 * @param cacheHits prepared statements taken from a connection's statement cache
 * @param cacheMisses prepareStatement calls the cache could not serve (Statement.execute's look-ups
 *     of texts it never cached are not misses)
 * @param cacheEvictions statements the full cache finalized to make room
 * @param executions statement executions (the first step of each execution)
 * @param gateWaits waits in the queue of a file's write gate (another connection of this JVM was
 *     writing); a free gate, or one taken within the short spin, is no wait
 * @param gateWaitTime their total time
 * @param gateTimeouts gate waits that ended without the gate (busy_timeout, busy handler, interrupt, cancel)
 * @param busyWaits waits for a lock another process (or a connection outside the gate) held:
 *     SQLITE_BUSY retried in Java
 * @param busyRetries retries of the statement during those waits
 * @param busyWaitTime their total time
 * @param busyTimeouts busy waits that ended without the lock
 * @param slowStatements executions that took at least {@link #slowStatementThreshold()} (counted
 *     only while one is set)
 */
public record PanliteStats(
        long connectionsOpened,
        long connectionsOpen,
        long cacheHits,
        long cacheMisses,
        long cacheEvictions,
        long executions,
        long gateWaits,
        Duration gateWaitTime,
        long gateTimeouts,
        long busyWaits,
        long busyRetries,
        Duration busyWaitTime,
        long busyTimeouts,
        long slowStatements) {

    /** The counters now. */
    public static PanliteStats snapshot() {
        long[] s = EngineStats.snapshot();
        return new PanliteStats(s[0], s[1], s[2], s[3], s[4], s[5], s[6], Duration.ofNanos(s[7]), s[8], s[9],
                s[10], Duration.ofNanos(s[11]), s[12], s[13]);
    }

    /**
     * Counts an execution that takes {@code threshold} or longer (its first step: gate wait and busy
     * retries included; for a query, the time to its first row) in {@link #slowStatements()}, for
     * every connection of this JVM. {@link Duration#ZERO} (the default) stops timing statements, so
     * they call no clock.
     */
    public static void setSlowStatementThreshold(Duration threshold) {
        EngineStats.setSlowThresholdNanos(threshold.toNanos());
    }

    /** The threshold set by {@link #setSlowStatementThreshold}; zero when slow statements are not counted. */
    public static Duration slowStatementThreshold() {
        return Duration.ofNanos(EngineStats.slowThresholdNanos());
    }
}
