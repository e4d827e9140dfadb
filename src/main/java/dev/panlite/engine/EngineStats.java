package dev.panlite.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The driver's counters for metrics (dev.panlite.PanliteStats reads them), summed over every
 * connection of the process. Counting costs the hot paths nothing measurable:
 * <ul>
 *   <li>per-connection counts (statement cache hits, misses and evictions, executions) are plain
 *       {@code long} fields of the connection's {@link Counters}, written under its lock. A snapshot
 *       sums the open connections' fields without their locks (a 64-bit long read is never torn on
 *       the 64-bit JVMs the FFM linker runs on; it may lag by the increments in flight) plus what
 *       closed connections left behind;
 *   <li>waits (write gate, SQLITE_BUSY retries) are counted in {@link LongAdder}s on their slow
 *       path only: an uncontended write never touches them;
 *   <li>slow statements are timed only while a threshold is set ({@link #setSlowThresholdNanos});
 *       with none (the default) a statement reads one field and calls no clock.
 * </ul>
 */
public final class EngineStats {
    /** One connection's counts: written under its lock, read by {@link #snapshot} without it. */
    static final class Counters {
        long cacheHits;
        long cacheMisses;
        long cacheEvictions;
        long executions;
    }

    private static final Set<Counters> OPEN = ConcurrentHashMap.newKeySet();
    private static final Object FOLD = new Object(); // a closing connection's counts move from OPEN to the totals atomically for snapshots
    private static long closedHits; // guarded by FOLD
    private static long closedMisses;
    private static long closedEvictions;
    private static long closedExecutions;

    private static final LongAdder CONNECTIONS_OPENED = new LongAdder();
    private static final LongAdder GATE_WAITS = new LongAdder();
    private static final LongAdder GATE_WAIT_NANOS = new LongAdder();
    private static final LongAdder GATE_TIMEOUTS = new LongAdder();
    private static final LongAdder BUSY_WAITS = new LongAdder();
    private static final LongAdder BUSY_RETRIES = new LongAdder();
    private static final LongAdder BUSY_WAIT_NANOS = new LongAdder();
    private static final LongAdder BUSY_TIMEOUTS = new LongAdder();
    private static final LongAdder SLOW_STATEMENTS = new LongAdder();

    private static volatile long slowThresholdNanos; // 0: statements are not timed

    private EngineStats() {}

    /** A new connection's counters, counted in snapshots until {@link #closed}. */
    static Counters opened() {
        Counters c = new Counters();
        CONNECTIONS_OPENED.increment();
        OPEN.add(c);
        return c;
    }

    /** The connection closed: its counts join the totals. Idempotent. */
    static void closed(Counters c) {
        synchronized (FOLD) {
            if (OPEN.remove(c)) {
                closedHits += c.cacheHits;
                closedMisses += c.cacheMisses;
                closedEvictions += c.cacheEvictions;
                closedExecutions += c.executions;
            }
        }
    }

    // ------------------------------------------------------------------ slow paths

    /** A wait in the write gate's queue ended ({@code acquired}: it got the gate). */
    static void gateWait(long nanos, boolean acquired) {
        GATE_WAITS.increment();
        GATE_WAIT_NANOS.add(nanos);
        if (!acquired) {
            GATE_TIMEOUTS.increment();
        }
    }

    /** A wait for a lock another process held (SQLITE_BUSY retried in Java) ended after {@code retries} retries. */
    static void busyWait(long nanos, int retries, boolean acquired) {
        BUSY_WAITS.increment();
        BUSY_RETRIES.add(retries);
        BUSY_WAIT_NANOS.add(nanos);
        if (!acquired) {
            BUSY_TIMEOUTS.increment();
        }
    }

    // ------------------------------------------------------------------ executions

    /** Before a statement's first step: the start time when slow statements are counted, else 0. */
    static long executionStart() {
        return slowThresholdNanos > 0 ? System.nanoTime() : 0;
    }

    /** After it: counts the execution, and a slow one. Connection lock held. */
    static void executionEnd(Counters c, long start) {
        c.executions++;
        if (start != 0) {
            long threshold = slowThresholdNanos;
            if (threshold > 0 && System.nanoTime() - start >= threshold) {
                SLOW_STATEMENTS.increment();
            }
        }
    }

    /** From now on an execution that takes {@code nanos} or longer is counted as slow; 0 stops timing. */
    public static void setSlowThresholdNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("negative threshold: " + nanos);
        }
        slowThresholdNanos = nanos;
    }

    public static long slowThresholdNanos() {
        return slowThresholdNanos;
    }

    /**
     * Every counter now, in this order: connections opened, connections open, cache hits, misses,
     * evictions, executions, gate waits, gate wait nanos, gate timeouts, busy waits, busy retries,
     * busy wait nanos, busy timeouts, slow statements.
     */
    public static long[] snapshot() {
        long hits;
        long misses;
        long evictions;
        long executions;
        synchronized (FOLD) {
            hits = closedHits;
            misses = closedMisses;
            evictions = closedEvictions;
            executions = closedExecutions;
            for (Counters c : OPEN) {
                hits += c.cacheHits;
                misses += c.cacheMisses;
                evictions += c.cacheEvictions;
                executions += c.executions;
            }
        }
        return new long[] {CONNECTIONS_OPENED.sum(), Reclaimer.openConnections(), hits, misses, evictions, executions,
                GATE_WAITS.sum(), GATE_WAIT_NANOS.sum(), GATE_TIMEOUTS.sum(), BUSY_WAITS.sum(), BUSY_RETRIES.sum(),
                BUSY_WAIT_NANOS.sum(), BUSY_TIMEOUTS.sum(), SLOW_STATEMENTS.sum()};
    }
}
