package dev.panlite.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The driver's counters for metrics (dev.panlite.PanliteStats reads them), kept per database (the
 * file's name, or {@code memory}: {@link #databaseName}) and summed over every connection of the
 * process. Counting costs the hot paths nothing measurable:
 * <ul>
 *   <li>per-connection counts (statement cache hits, misses and evictions, executions, SQLite's
 *       statement counters read by {@link StatementDiagnostics}) are plain {@code long} fields of
 *       the connection's {@link Counters}, written under its lock. A snapshot sums the open
 *       connections' fields without their locks (a 64-bit long read is never torn on the 64-bit JVMs
 *       the FFM linker runs on; it may lag by the increments in flight) plus what closed connections
 *       left behind;
 *   <li>waits (write gate, SQLITE_BUSY retries, Litestream's back-pressure) and Litestream's sync
 *       requests are counted in {@link LongAdder}s of their database, on their slow path only: an
 *       uncontended write never touches them;
 *   <li>slow statements are timed only while a threshold is set ({@link #setSlowThresholdNanos});
 *       with none (the default) a statement reads one field and calls no clock.
 * </ul>
 */
public final class EngineStats {
    /** One connection's counts: written under its lock, read by {@link #snapshot} without it. */
    static final class Counters {
        final PerDatabase database; // null for a statement cache built alone (jmh/ CacheStructureBench)
        long cacheHits;
        long cacheMisses;
        long cacheEvictions;
        long executions;
        long fullscanSteps; // SQLite's statement counters, summed at each reset (StatementDiagnostics)
        long sorts;
        long autoindexes;
        long vmSteps;

        Counters() {
            this(null);
        }

        Counters(PerDatabase database) {
            this.database = database;
        }
    }

    /** Everything counted for one database name: its open connections' counters, and the rest. */
    static final class PerDatabase {
        final String name;
        final Set<Counters> open = ConcurrentHashMap.newKeySet();
        final long[] closed = new long[PER_CONNECTION]; // closed connections' counts, in snapshot order from CACHE_HITS; guarded by FOLD
        final LongAdder opened = new LongAdder();
        final LongAdder gateWaits = new LongAdder();
        final LongAdder gateWaitNanos = new LongAdder();
        final LongAdder gateTimeouts = new LongAdder();
        final LongAdder busyWaits = new LongAdder();
        final LongAdder busyRetries = new LongAdder();
        final LongAdder busyWaitNanos = new LongAdder();
        final LongAdder busyTimeouts = new LongAdder();
        final LongAdder slow = new LongAdder();
        final LongAdder syncRequests = new LongAdder(); // Litestream (LitestreamCounts)
        final LongAdder syncAnswered = new LongAdder();
        final LongAdder syncFailed = new LongAdder();
        final LongAdder syncWaits = new LongAdder();
        final LongAdder syncWaitNanos = new LongAdder();

        PerDatabase(String name) {
            this.name = name;
        }
    }

    // snapshot indexes (PanliteStats's record components, in order)
    public static final int CONNECTIONS_OPENED = 0;
    public static final int CONNECTIONS_OPEN = 1;
    public static final int CACHE_HITS = 2;
    public static final int CACHE_MISSES = 3;
    public static final int CACHE_EVICTIONS = 4;
    public static final int EXECUTIONS = 5;
    public static final int FULLSCAN_STEPS = 6;
    public static final int SORTS = 7;
    public static final int AUTOINDEXES = 8;
    public static final int VM_STEPS = 9;
    public static final int GATE_WAITS = 10;
    public static final int GATE_WAIT_NANOS = 11;
    public static final int GATE_TIMEOUTS = 12;
    public static final int BUSY_WAITS = 13;
    public static final int BUSY_RETRIES = 14;
    public static final int BUSY_WAIT_NANOS = 15;
    public static final int BUSY_TIMEOUTS = 16;
    public static final int SLOW_STATEMENTS = 17;
    public static final int SYNC_REQUESTS = 18;
    public static final int SYNC_ANSWERED = 19;
    public static final int SYNC_FAILED = 20;
    public static final int SYNC_WAITS = 21;
    public static final int SYNC_WAIT_NANOS = 22;
    public static final int COUNT = 23;
    private static final int PER_CONNECTION = VM_STEPS - CACHE_HITS + 1; // the plain fields of Counters

    private static final ConcurrentHashMap<String, PerDatabase> DATABASES = new ConcurrentHashMap<>();
    private static final List<Consumer<String>> LISTENERS = new CopyOnWriteArrayList<>();
    private static final Object FOLD = new Object(); // a closing connection's counts move from open to closed atomically for snapshots
    private static final System.Logger LOG = System.getLogger("dev.panlite");

    private static volatile long slowThresholdNanos; // 0: statements are not timed

    private EngineStats() {}

    /**
     * The name metrics know a database by: the file's name without its directory (two files of the
     * same name in different directories count together), {@code memory} for an in-memory or
     * temporary database.
     */
    static String databaseName(String file) {
        if (file == null || file.isEmpty() || file.startsWith(":memory:") || file.startsWith("file::memory:")) {
            return "memory";
        }
        String name = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        int query = name.indexOf('?');
        name = query >= 0 ? name.substring(0, query) : name;
        return name.isEmpty() ? "memory" : name;
    }

    /** The counts of database {@code name}, made (and announced to the listeners) on first use. */
    static PerDatabase database(String name) {
        PerDatabase d = DATABASES.get(name);
        if (d != null) {
            return d;
        }
        PerDatabase made = new PerDatabase(name);
        d = DATABASES.putIfAbsent(name, made);
        if (d != null) {
            return d;
        }
        for (Consumer<String> listener : LISTENERS) {
            announce(listener, name);
        }
        return made;
    }

    private static void announce(Consumer<String> listener, String name) {
        try {
            listener.accept(name);
        } catch (RuntimeException e) { // a metrics binder's failure must not fail the connection that is opening
            LOG.log(System.Logger.Level.WARNING, "A PanliteStats database listener failed for " + name, e);
        }
    }

    /**
     * Calls {@code listener} with the name of every database counted so far, then, on the opening
     * thread, with each new one as its first connection opens. Metrics binders register their
     * meters for a database there.
     */
    public static void addDatabaseListener(Consumer<String> listener) {
        LISTENERS.add(listener);
        for (String name : databases()) {
            announce(listener, name);
        }
    }

    public static void removeDatabaseListener(Consumer<String> listener) {
        LISTENERS.remove(listener);
    }

    /** The names of the databases counted so far, sorted. */
    public static List<String> databases() {
        List<String> names = new ArrayList<>(DATABASES.keySet());
        names.sort(null);
        return names;
    }

    /** A new connection's counters, counted in snapshots of {@code database} until {@link #closed}. */
    static Counters opened(String database) {
        PerDatabase d = database(database);
        Counters c = new Counters(d);
        d.opened.increment();
        d.open.add(c);
        return c;
    }

    /** The connection closed: its counts join its database's totals. Idempotent. */
    static void closed(Counters c) {
        synchronized (FOLD) {
            if (c.database.open.remove(c)) {
                add(c, c.database.closed);
            }
        }
    }

    private static void add(Counters c, long[] into) {
        into[0] += c.cacheHits;
        into[1] += c.cacheMisses;
        into[2] += c.cacheEvictions;
        into[3] += c.executions;
        into[4] += c.fullscanSteps;
        into[5] += c.sorts;
        into[6] += c.autoindexes;
        into[7] += c.vmSteps;
    }

    // ------------------------------------------------------------------ slow paths

    /** A wait in the write gate's queue ended ({@code acquired}: it got the gate). */
    static void gateWait(Counters c, long nanos, boolean acquired) {
        PerDatabase d = c.database;
        d.gateWaits.increment();
        d.gateWaitNanos.add(nanos);
        if (!acquired) {
            d.gateTimeouts.increment();
        }
    }

    /** A wait for a lock another process held (SQLITE_BUSY retried in Java) ended after {@code retries} retries. */
    static void busyWait(Counters c, long nanos, int retries, boolean acquired) {
        PerDatabase d = c.database;
        d.busyWaits.increment();
        d.busyRetries.add(retries);
        d.busyWaitNanos.add(nanos);
        if (!acquired) {
            d.busyTimeouts.increment();
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
                c.database.slow.increment();
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

    // ------------------------------------------------------------------ snapshots

    /**
     * Every counter now, summed over all databases, at the indexes named above ({@link #CONNECTIONS_OPENED}
     * ... {@link #SYNC_WAIT_NANOS}). Connections open counts every connection not yet closed nor reclaimed.
     */
    public static long[] snapshot() {
        long[] total = new long[COUNT];
        synchronized (FOLD) {
            for (PerDatabase d : DATABASES.values()) {
                addTo(d, total);
            }
        }
        total[CONNECTIONS_OPEN] = Reclaimer.openConnections();
        return total;
    }

    /** The counters of database {@code name} ({@link #databases()}), as {@link #snapshot()}; null when none was counted. */
    public static long[] snapshot(String name) {
        PerDatabase d = DATABASES.get(name);
        if (d == null) {
            return null;
        }
        long[] counts = new long[COUNT];
        synchronized (FOLD) {
            addTo(d, counts);
        }
        return counts;
    }

    /** Adds {@code d}'s counts to {@code s}; FOLD held, so a closing connection is counted once. */
    private static void addTo(PerDatabase d, long[] s) {
        long[] connections = d.closed.clone();
        int open = 0;
        for (Counters c : d.open) {
            add(c, connections);
            open++;
        }
        for (int i = 0; i < PER_CONNECTION; i++) { // hits, misses, evictions, executions, full-scan steps ... VM steps
            s[CACHE_HITS + i] += connections[i];
        }
        s[CONNECTIONS_OPENED] += d.opened.sum();
        s[CONNECTIONS_OPEN] += open;
        s[GATE_WAITS] += d.gateWaits.sum();
        s[GATE_WAIT_NANOS] += d.gateWaitNanos.sum();
        s[GATE_TIMEOUTS] += d.gateTimeouts.sum();
        s[BUSY_WAITS] += d.busyWaits.sum();
        s[BUSY_RETRIES] += d.busyRetries.sum();
        s[BUSY_WAIT_NANOS] += d.busyWaitNanos.sum();
        s[BUSY_TIMEOUTS] += d.busyTimeouts.sum();
        s[SLOW_STATEMENTS] += d.slow.sum();
        s[SYNC_REQUESTS] += d.syncRequests.sum();
        s[SYNC_ANSWERED] += d.syncAnswered.sum();
        s[SYNC_FAILED] += d.syncFailed.sum();
        s[SYNC_WAITS] += d.syncWaits.sum();
        s[SYNC_WAIT_NANOS] += d.syncWaitNanos.sum();
    }
}
