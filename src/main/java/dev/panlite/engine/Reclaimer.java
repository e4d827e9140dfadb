package dev.panlite.engine;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closes connections that became unreachable without {@code close()}: a {@link Cleaner} action per
 * connection that rolls back, finalizes and closes its {@link Database} (which takes the lock, so it
 * never touches a handle another thread is using; an unreachable connection has no such thread).
 *
 * <p>A leaked connection costs the Java heap a few hundred bytes but SQLite tens of kilobytes (page
 * cache, schema), so the heap alone would not trigger a collection before native memory piles up.
 * As the JDK does for direct buffers, the count of connections not yet closed is watched: when it
 * doubles past the last mark (from {@link #FIRST_MARK} on) a collection is requested, which lets the
 * cleaner close the leaked ones. An application that really keeps N connections open pays for
 * about log2(N / 64) collections in all.
 */
public final class Reclaimer {
    static final int FIRST_MARK = 64;

    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "panlite-reclaimer");
        t.setDaemon(true);
        return t;
    });
    private static final AtomicInteger OPEN = new AtomicInteger();
    private static volatile int mark = FIRST_MARK;

    private Reclaimer() {}

    /**
     * Watches {@code owner} (the JDBC connection): once it is unreachable, {@code db} is closed. The
     * returned Cleanable closes {@code db} too; call it from the owner's close. With
     * {@code warn}, the leak is logged with the stack of this call.
     */
    public static Cleaner.Cleanable watch(Object owner, Database db, boolean warn) {
        return CLEANER.register(owner, new Reclaim(db, warn ? new Throwable("opened here") : null));
    }

    /** How many connections are open now (opened and not yet closed, by anyone). */
    public static int openConnections() {
        return OPEN.get();
    }

    static void opened() {
        int open = OPEN.incrementAndGet();
        if (open >= mark) {
            mark = open * 2;
            System.gc(); // leaked connections, if any, become unreachable garbage the cleaner can close
        }
    }

    static void closed() {
        int open = OPEN.decrementAndGet();
        int current = mark;
        if (current > FIRST_MARK && open * 4 <= current) {
            mark = Math.max(FIRST_MARK, open * 2);
        }
    }

    /** The cleaning action: references the Database, never the JDBC connection (that would keep it reachable). */
    private record Reclaim(Database db, Throwable openedAt) implements Runnable {
        @Override
        public void run() {
            if (db.isClosed()) {
                return; // closed by its owner: nothing leaked
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
}
