package dev.panlite.engine;

/**
 * A connection's LRU cache of prepared statements keyed by SQL text (seeds 000 and 003): a flat
 * array ordered least recently used first. {@link #take} scans from the most recent end and
 * removes the entry, so two open statements never share a handle; {@link #put} appends at the
 * most recent end and evicts the oldest when full. At the sizes people configure (a handful to a
 * few dozen) the scan beats a map plus linked list and the hit path allocates nothing
 * (docs/experiments/002-statement-cache.md). Not thread-safe: used under the connection's lock.
 */
final class StatementCache {
    private final Stmt[] entries;
    private final int[] hashes; // SQL hash per entry: most misses are rejected without comparing text
    private int size;
    private final EngineStats.Counters counts; // hits, misses, evictions: the connection's, read by metrics

    /** A cache whose counts go nowhere else (jmh/ CacheStructureBench builds one alone). */
    StatementCache(int capacity) {
        this(capacity, new EngineStats.Counters());
    }

    StatementCache(int capacity, EngineStats.Counters counts) {
        entries = new Stmt[capacity];
        hashes = new int[capacity];
        this.counts = counts;
    }

    int capacity() {
        return entries.length;
    }

    int size() {
        return size;
    }

    long hits() {
        return counts.cacheHits;
    }

    long misses() {
        return counts.cacheMisses;
    }

    long evictions() {
        return counts.cacheEvictions;
    }

    /** Removes and returns the most recently used statement for {@code sql}, or null. */
    Stmt take(String sql) {
        return take(sql, true);
    }

    /**
     * As {@link #take(String)}; a miss counts only when {@code countMiss} (Statement.execute looks
     * here first for every text it runs, and most of those texts are never cached).
     */
    Stmt take(String sql, boolean countMiss) {
        int hash = sql.hashCode();
        for (int i = size - 1; i >= 0; i--) {
            if (hashes[i] == hash && entries[i].sql.equals(sql)) {
                Stmt found = entries[i];
                int moved = size - 1 - i;
                System.arraycopy(entries, i + 1, entries, i, moved);
                System.arraycopy(hashes, i + 1, hashes, i, moved);
                entries[--size] = null;
                counts.cacheHits++;
                return found;
            }
        }
        if (countMiss) {
            counts.cacheMisses++;
        }
        return null;
    }

    /** Adds {@code stmt} as most recently used; returns the evicted statement (to finalize), or null. */
    Stmt put(Stmt stmt) {
        Stmt evicted = null;
        if (size == entries.length) {
            evicted = entries[0];
            System.arraycopy(entries, 1, entries, 0, size - 1);
            System.arraycopy(hashes, 1, hashes, 0, size - 1);
            size--;
            counts.cacheEvictions++;
        }
        entries[size] = stmt;
        hashes[size] = stmt.sqlHash;
        size++;
        return evicted;
    }

    /** Empties the cache, handing every statement to the caller to finalize. */
    Stmt[] drain() {
        Stmt[] all = java.util.Arrays.copyOf(entries, size);
        java.util.Arrays.fill(entries, 0, size, null);
        size = 0;
        return all;
    }
}
