package dev.panlite.ffi;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Warnings raised inside an upcall (a change listener or the WAL hook failed), logged by a daemon
 * thread of their own rather than on SQLite's stack. The thread in an upcall holds its connection's
 * lock, and may be a virtual thread pinned to its carrier by the native frames below it: a log
 * handler that blocks there (a console stream's monitor, a slow appender) would hold the connection
 * and the carrier with it (fuzz finding F27, docs/fuzz-findings-2026-11-25.md). Handing a warning
 * over never blocks: when 1,024 are waiting, later ones are counted and the count is logged instead.
 */
final class UpcallWarnings {
    private record Warning(String logger, String message, Throwable cause) {}

    private static final BlockingQueue<Warning> QUEUE = new ArrayBlockingQueue<>(1024);
    private static final AtomicLong DROPPED = new AtomicLong();

    /** Queues a warning for the logging thread. Never blocks, never throws. */
    static void warn(Class<?> from, String message, Throwable cause) {
        try {
            if (!QUEUE.offer(new Warning(from.getName(), message, cause))) {
                DROPPED.incrementAndGet();
            }
            Logging.start();
        } catch (Throwable e) {
            // nothing else can be done from inside SQLite's callback
        }
    }

    /** The logging thread, started by the first warning (class initialisation runs once). */
    private static final class Logging {
        static {
            Thread.ofPlatform().daemon().name("panlite-upcall-warnings").start(Logging::run);
        }

        static void start() {
            // initialising this class started the thread
        }

        private static void run() {
            while (true) {
                try {
                    Warning w = QUEUE.take();
                    System.getLogger(w.logger()).log(System.Logger.Level.WARNING, w.message(), w.cause());
                    long dropped = DROPPED.getAndSet(0);
                    if (dropped > 0) {
                        System.getLogger(UpcallWarnings.class.getName()).log(System.Logger.Level.WARNING,
                                dropped + " more warnings from inside SQLite's callbacks were not logged (too many at once)");
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Throwable e) {
                    // a log handler failed: the next warning tries again
                }
            }
        }
    }

    private UpcallWarnings() {}
}
