package dev.panlite.engine;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closes connections that became unreachable without {@code close()}: rolled back, finalized,
 * {@code sqlite3_close_v2}. {@link Database#close()} takes the connection's lock, so reclaiming
 * never touches a handle another thread is using (and an unreachable connection has no such thread).
 *
 * <p>A leaked connection costs the Java heap a few hundred bytes but SQLite tens of kilobytes (page
 * cache, schema), so the heap alone would not trigger a collection before native memory piles up.
 * As the JDK does for direct buffers, the count of connections not yet closed is watched: when it
 * reaches the mark (from {@link #FIRST_MARK} on, then twice what is still open after reclaiming) a
 * collection is requested and what it found is closed right there, on the opening thread. An
 * application that really keeps N connections open pays for about log2(N / 32) collections in all.
 * A daemon thread reclaims what collections find at any other time.
 *
 * <p><b>A connection leaked inside a write transaction</b> holds its file's write gate (and SQLite's
 * write lock) until it is reclaimed, and nothing may take them from it while it is reachable: its
 * owner may still commit. So a writer that has waited {@link #LEAKED_WRITER_CHECK_NANOS} (one
 * second) for the gate asks for a collection ({@link #lookForALeakedWriter}); if the holder is
 * unreachable, the daemon rolls it back and closes it, which hands the gate to the waiter. A
 * reachable holder (a long transaction) is never touched; the collections asked for while it works
 * are spaced out, doubling from one second to {@link #MAX_LEAK_COLLECTION_INTERVAL_NANOS} (16 s), and
 * start again at one second after a quiet spell of twice the interval. So a leaked writer keeps the
 * gate about one second past the first writer's arrival (at most 16 s under sustained contention),
 * as long as that writer's busy_timeout is longer; {@code -XX:+DisableExplicitGC} turns this off.
 */
public final class Reclaimer {
    static final int FIRST_MARK = 32;

    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    private static final Set<Watch> WATCHED = ConcurrentHashMap.newKeySet(); // a reference must stay reachable
    private static final AtomicInteger OPEN = new AtomicInteger();
    private static volatile int mark = FIRST_MARK;

    static {
        Thread reclaimer = new Thread(Reclaimer::reclaimForever, "panlite-reclaimer");
        reclaimer.setDaemon(true);
        reclaimer.start();
    }

    private Reclaimer() {}

    /** How long a writer waits for the write gate before it asks whether the holder leaked, and then between asks. */
    static final long LEAKED_WRITER_CHECK_NANOS = 1_000_000_000L;
    static final long MAX_LEAK_COLLECTION_INTERVAL_NANOS = 16_000_000_000L;
    private static long lastLeakCollection; // System.nanoTime of the last one; guarded by LEAK_COLLECTIONS
    private static long leakCollectionInterval = LEAKED_WRITER_CHECK_NANOS; // guarded by LEAK_COLLECTIONS
    private static boolean leakCollected; // guarded by LEAK_COLLECTIONS
    private static final Object LEAK_COLLECTIONS = new Object();

    /**
     * A writer has waited a second for the write gate: the holder may be a connection leaked inside
     * its transaction. Requests a collection, unless one was requested less than the current
     * interval ago; the daemon closes what it finds. Never closes anything itself: the caller holds
     * its own connection's lock, and reclaiming takes the leaked one's.
     */
    static void lookForALeakedWriter() {
        synchronized (LEAK_COLLECTIONS) {
            long now = System.nanoTime();
            if (leakCollected) {
                long since = now - lastLeakCollection;
                if (since < leakCollectionInterval) {
                    return;
                }
                leakCollectionInterval = since > 2 * leakCollectionInterval
                        ? LEAKED_WRITER_CHECK_NANOS // after a quiet spell: from one second again
                        : Math.min(2 * leakCollectionInterval, MAX_LEAK_COLLECTION_INTERVAL_NANOS);
            }
            leakCollected = true;
            lastLeakCollection = now;
        }
        System.gc(); // an unreachable holder becomes an enqueued reference, which the daemon reclaims
    }

    /**
     * Watches {@code owner} (the JDBC connection): once it is unreachable, {@code db} is closed. Call
     * {@link Watch#closed()} when the owner closes. With {@code warn}, a leak is logged with the
     * stack of this call.
     */
    public static Watch watch(Object owner, Database db, boolean warn) {
        Watch w = new Watch(owner, db, warn ? new Throwable("opened here") : null);
        WATCHED.add(w);
        return w;
    }

    /** How many connections are open now (opened and not yet closed, by anyone). */
    public static int openConnections() {
        return OPEN.get();
    }

    /** One connection's watch: a phantom reference to its JDBC object, never to anything that keeps it reachable. */
    public static final class Watch extends PhantomReference<Object> {
        private final Database db;
        private final Throwable openedAt;

        private Watch(Object owner, Database db, Throwable openedAt) {
            super(owner, QUEUE);
            this.db = db;
            this.openedAt = openedAt;
        }

        /** The owner closed the connection: nothing will leak. */
        public void closed() {
            WATCHED.remove(this);
            clear();
        }

        private void reclaim() {
            if (!WATCHED.remove(this) || db.isClosed()) {
                return; // closed by its owner, or already reclaimed by the other thread
            }
            if (openedAt != null) {
                System.getLogger(Reclaimer.class.getName()).log(System.Logger.Level.WARNING,
                        "A Panlite connection to '" + db.config().filename() + "' was never closed; the garbage "
                                + "collector closed it (its open transaction rolled back). It was opened here:",
                        openedAt);
            }
            db.close();
        }
    }

    /** Called as a connection opens: reclaims what collections found, and asks for one at the mark. */
    static void opened() {
        drain(0);
        int open = OPEN.incrementAndGet();
        if (open >= mark) {
            System.gc(); // leaked connections, if any, become enqueued references
            drain(5); // the reference handler enqueues them right after the collection
            mark = Math.max(FIRST_MARK, OPEN.get() * 2);
        }
    }

    static void closed() {
        int open = OPEN.decrementAndGet();
        int current = mark;
        if (current > FIRST_MARK && open * 4 <= current) {
            mark = Math.max(FIRST_MARK, open * 2);
        }
    }

    /** Reclaims every enqueued connection; waits up to {@code waitMillis} for each next one (0: only what is there). */
    private static void drain(long waitMillis) {
        try {
            Reference<?> r;
            while ((r = waitMillis > 0 ? QUEUE.remove(waitMillis) : QUEUE.poll()) != null) {
                ((Watch) r).reclaim();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's interrupt stays visible; the daemon reclaims the rest
        }
    }

    private static void reclaimForever() {
        while (true) {
            try {
                ((Watch) QUEUE.remove()).reclaim();
            } catch (InterruptedException e) {
                return; // only at JVM shutdown: a daemon nobody else interrupts
            } catch (RuntimeException | Error e) { // never let one bad close stop reclaiming the others
                System.getLogger(Reclaimer.class.getName()).log(System.Logger.Level.WARNING,
                        "Panlite could not close a leaked connection", e);
            }
        }
    }
}
