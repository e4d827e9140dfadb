package dev.panlite.engine;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread for every query timeout in the process, created the first time a statement
 * with a timeout runs. A query without a timeout creates no task and allocates nothing.
 */
final class QueryTimeouts {
    private QueryTimeouts() {}

    private static final class Holder {
        static final ScheduledThreadPoolExecutor SCHEDULER = create();

        private static ScheduledThreadPoolExecutor create() {
            ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, "panlite-query-timeout");
                thread.setDaemon(true);
                return thread;
            });
            executor.setRemoveOnCancelPolicy(true); // cancelled timeouts must not pile up in the queue
            return executor;
        }
    }

    /**
     * Tests only (null otherwise): told of each timeout task scheduled, with its future, so a test
     * can run a timeout late, after its statement ended, at a moment of its choosing.
     */
    static volatile java.util.function.BiConsumer<Runnable, ScheduledFuture<?>> scheduledForTest;

    static ScheduledFuture<?> schedule(Runnable task, long millis) {
        ScheduledFuture<?> future = Holder.SCHEDULER.schedule(task, millis, TimeUnit.MILLISECONDS);
        java.util.function.BiConsumer<Runnable, ScheduledFuture<?>> hook = scheduledForTest;
        if (hook != null) {
            hook.accept(task, future);
        }
        return future;
    }
}
