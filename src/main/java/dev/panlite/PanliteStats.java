package dev.panlite;

import dev.panlite.engine.EngineStats;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The driver's counters for metrics, per database and in total: {@code PanliteStats.snapshot()} sums
 * every Panlite connection of this JVM (open and closed), {@code PanliteStats.snapshot("app.db")} those
 * of one database, any time, from any thread, without touching a connection. A database is known by
 * its file's name (without the directory: two files of the same name count together), or
 * {@code memory} for in-memory and temporary databases. The Micrometer binder of the
 * panlite-spring-boot module publishes them as {@code panlite.*} meters tagged {@code database}. All
 * counts only grow, except {@link #connectionsOpen()}.
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
 * @param fullscanSteps rows full table or index scans stepped through (SQLite's
 *     SQLITE_STMTSTATUS_FULLSCAN_STEP, summed over executions; {@code statement_diagnostics}): a
 *     steady climb means queries an index would serve
 * @param sorts sort operations of statements (SQLITE_STMTSTATUS_SORT)
 * @param autoindexes rows put into automatic indexes, which SQLite builds for one execution of a join
 *     no index serves (SQLITE_STMTSTATUS_AUTOINDEX)
 * @param vmSteps virtual machine operations statements ran (SQLITE_STMTSTATUS_VM_STEP): the work done
 * @param litestreamSyncRequests sync requests sent to Litestream's control socket ({@code litestream_socket})
 * @param litestreamSyncAnswered those Litestream answered (it synced and checkpointed)
 * @param litestreamSyncFailed those that failed (no answer, an error, Litestream gone)
 * @param litestreamWaits writers that waited for a sync in flight ({@code litestream_wait_pages}: back-pressure)
 * @param litestreamWaitTime their total time
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
        long slowStatements,
        long fullscanSteps,
        long sorts,
        long autoindexes,
        long vmSteps,
        long litestreamSyncRequests,
        long litestreamSyncAnswered,
        long litestreamSyncFailed,
        long litestreamWaits,
        Duration litestreamWaitTime) {

    /** The counters now, summed over every database. */
    public static PanliteStats snapshot() {
        return of(EngineStats.snapshot());
    }

    /**
     * The counters of database {@code database} now (a name {@link #databases()} lists: the file's
     * name, or {@code memory}); all zero for a name no connection has opened.
     */
    public static PanliteStats snapshot(String database) {
        long[] s = EngineStats.snapshot(database);
        return of(s == null ? new long[EngineStats.COUNT] : s);
    }

    /** The names of the databases counted so far, sorted. */
    public static List<String> databases() {
        return EngineStats.databases();
    }

    /** The counters of every database counted so far, by name, sorted. */
    public static Map<String, PanliteStats> byDatabase() {
        Map<String, PanliteStats> all = new LinkedHashMap<>();
        for (String name : databases()) {
            all.put(name, snapshot(name));
        }
        return all;
    }

    /**
     * Calls {@code listener} with each database's name: at once for those counted so far, then as the
     * first connection to a new one opens (on the opening thread, so keep it short; what it throws is
     * logged, never passed to the connection). A metrics binder registers a database's meters there.
     */
    public static void addDatabaseListener(Consumer<String> listener) {
        EngineStats.addDatabaseListener(listener);
    }

    /** Stops calling {@code listener}. */
    public static void removeDatabaseListener(Consumer<String> listener) {
        EngineStats.removeDatabaseListener(listener);
    }

    private static PanliteStats of(long[] s) {
        return new PanliteStats(s[EngineStats.CONNECTIONS_OPENED], s[EngineStats.CONNECTIONS_OPEN],
                s[EngineStats.CACHE_HITS], s[EngineStats.CACHE_MISSES], s[EngineStats.CACHE_EVICTIONS],
                s[EngineStats.EXECUTIONS], s[EngineStats.GATE_WAITS], Duration.ofNanos(s[EngineStats.GATE_WAIT_NANOS]),
                s[EngineStats.GATE_TIMEOUTS], s[EngineStats.BUSY_WAITS], s[EngineStats.BUSY_RETRIES],
                Duration.ofNanos(s[EngineStats.BUSY_WAIT_NANOS]), s[EngineStats.BUSY_TIMEOUTS],
                s[EngineStats.SLOW_STATEMENTS], s[EngineStats.FULLSCAN_STEPS], s[EngineStats.SORTS],
                s[EngineStats.AUTOINDEXES], s[EngineStats.VM_STEPS], s[EngineStats.SYNC_REQUESTS],
                s[EngineStats.SYNC_ANSWERED], s[EngineStats.SYNC_FAILED], s[EngineStats.SYNC_WAITS],
                Duration.ofNanos(s[EngineStats.SYNC_WAIT_NANOS]));
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
