package dev.panlite.engine;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Closes connections that became unreachable without {@code close()}: rolled back, finalized,
 * {@code sqlite3_close_v2}. {@link Database#close()} takes the connection's lock, so reclaiming
 * never touches a handle another thread is using (and an unreachable connection has no such thread).
 * A daemon thread ({@code panlite-reclaimer}) waits on the phantom references and reclaims what any
 * collection finds, at once; opening a connection reclaims what is already enqueued too.
 *
 * <p>Only a collection finds an unreachable connection, and the library asks for as few as it can,
 * always on its own daemon thread ({@code panlite-collector}, started at the first request), never
 * on a user's thread:
 * <ul>
 *   <li><b>Unclosed connections piling up.</b> A leaked connection costs the Java heap a few hundred
 *       bytes but SQLite tens of kilobytes (page cache, schema), so the heap alone would not trigger
 *       a collection before native memory piles up. As the JDK does for direct buffers, the count of
 *       connections not yet closed is watched: when it reaches the mark ({@link #FIRST_MARK}, then
 *       twice what was open at the mark and was not reclaimed), one collection is asked for. A close
 *       does not lower the mark (a pool that shrinks and grows again would pay a collection per
 *       swing), only a collection that reclaims does: unclosed connections stay below twice the most
 *       ever open at once, and an application that keeps N connections open pays for about
 *       log2(N / 32) collections in all.
 *   <li><b>A connection leaked inside a write transaction</b> holds its file's write gate (and
 *       SQLite's write lock) until it is reclaimed, and nothing may take them from it while it is
 *       reachable: its owner may still commit. A writer that has waited {@link #LEAKED_WRITER_CHECK_NANOS}
 *       (one second) for the gate while one holder kept it throughout reports that hold
 *       ({@link LeakChecks}); one collection is asked for, then again after 2, 4, 8... seconds of the
 *       same hold. An unreachable holder is rolled back and closed by the daemon, which hands the gate
 *       to the waiter, about one second after the first writer queued (if its busy_timeout is longer).
 *       A queue of short transactions asks for none (no holder keeps the gate for a second), and a
 *       long legitimate transaction for about log2 of its length in seconds.
 * </ul>
 * {@code -XX:+DisableExplicitGC} turns these collections off (the JVM's own still find leaks).
 */
public final class Reclaimer {
    static final int FIRST_MARK = 32;

    /** How long a writer waits behind one holder of the gate before that holder is suspected of a leak. */
    static final long LEAKED_WRITER_CHECK_NANOS = 1_000_000_000L;

    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    private static final Set<Watch> WATCHED = ConcurrentHashMap.newKeySet(); // a reference must stay reachable
    private static final AtomicInteger OPEN = new AtomicInteger();
    /** Unclosed connections at which a collection is asked for; MAX_VALUE while one is on its way. */
    private static final AtomicInteger MARK = new AtomicInteger(FIRST_MARK);
    private static final AtomicLong ASKED = new AtomicLong(); // collections asked for
    private static final AtomicLong RECLAIMED = new AtomicLong(); // connections reclaimed, by any thread
    private static volatile int openAtMark; // unclosed connections when the mark last asked for a collection
    private static volatile long reclaimedAtMark; // RECLAIMED then
    private static volatile long answered; // asks that a finished collection started after (written by the collector)

    static {
        Thread reclaimer = new Thread(Reclaimer::reclaimForever, "panlite-reclaimer");
        reclaimer.setDaemon(true);
        reclaimer.start();
    }

    private Reclaimer() {}

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
            RECLAIMED.incrementAndGet();
        }
    }

    /** Called as a connection opens: reclaims what collections found, and asks for one at the mark. */
    static void opened() {
        drain(0);
        int open = OPEN.incrementAndGet();
        int mark = MARK.get();
        if (open >= mark && MARK.compareAndSet(mark, Integer.MAX_VALUE)) { // the collector sets the next mark
            reclaimedAtMark = RECLAIMED.get();
            openAtMark = open;
            askForACollection();
        }
    }

    static void closed() {
        OPEN.decrementAndGet();
    }

    /**
     * One write gate's leak checks: which hold of the gate (counted by its releases) was last
     * suspected, and when it may be suspected again.
     */
    static final class LeakChecks {
        private long hold = -1;
        private long interval;
        private long next;

        /**
         * A writer has waited {@link #LEAKED_WRITER_CHECK_NANOS} behind {@code hold} (the gate's count of
         * releases, unchanged over the wait): asks for a collection the first time, then after twice
         * as long of the same hold each time. Never closes anything itself: the caller holds its own
         * connection's lock, and reclaiming takes the leaked one's.
         */
        synchronized void waitedBehind(long hold) {
            long now = System.nanoTime();
            if (hold != this.hold) {
                this.hold = hold;
                interval = LEAKED_WRITER_CHECK_NANOS;
            } else if (now - next < 0) {
                return;
            } else {
                interval *= 2;
            }
            next = now + interval;
            askForACollection();
        }
    }

    /** Asks the collector thread for a collection; asks made before it starts one are answered by it. */
    private static void askForACollection() {
        ASKED.incrementAndGet();
        LockSupport.unpark(Collector.THREAD);
    }

    /** Tests: waits until every collection asked for so far has run and what it found is reclaimed. */
    static void awaitCollections() throws InterruptedException {
        long asked = ASKED.get();
        while (answered - asked < 0) {
            Thread.sleep(1);
        }
    }

    /** The daemon that runs the collections asked for, created with the first ask. */
    private static final class Collector {
        static final Thread THREAD = start();

        private static Thread start() {
            Thread t = new Thread(Collector::collectForever, "panlite-collector");
            t.setDaemon(true);
            t.start();
            return t;
        }

        private static void collectForever() {
            while (true) {
                long asked = ASKED.get();
                if (asked == answered) {
                    LockSupport.park(Reclaimer.class);
                    continue;
                }
                int atMark = openAtMark;
                long reclaimedBefore = reclaimedAtMark;
                try {
                    System.gc(); // unreachable connections become enqueued references
                    drain(5); // the reference handler enqueues them right after the collection
                } catch (RuntimeException | Error e) { // never let one bad close stop the collector
                    System.getLogger(Reclaimer.class.getName()).log(System.Logger.Level.WARNING,
                            "Panlite could not close a leaked connection", e);
                } finally {
                    if (MARK.get() == Integer.MAX_VALUE) { // the mark asked: it sets the next one
                        // twice what was open at the mark and not reclaimed since (a pool may have shrunk meanwhile)
                        long open = Math.max(OPEN.get(), atMark - (RECLAIMED.get() - reclaimedBefore));
                        MARK.set((int) Math.min(Integer.MAX_VALUE - 1, Math.max(FIRST_MARK, 2 * open)));
                    }
                    answered = asked;
                }
            }
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
