package dev.panlite;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Threads a test starts. A failed assertion or any other Throwable in one of them is lost to
 * JUnit (the thread dies, the test goes on): here each is collected, and {@link #join} rethrows it
 * in the test thread. {@link #join} also fails on a thread that did not end.
 */
public final class TestThreads {
    /** What a thread runs; it may throw anything. */
    public interface Body {
        void run() throws Throwable;
    }

    /** Joins wait this long at most in all: a hang guard, not a timing. */
    public static final long JOIN_MILLIS = 60_000;

    private record Failure(String thread, Throwable error) {}

    private final Queue<Failure> failures = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /** Starts a platform (daemon) thread. */
    public Thread start(String name, Body body) {
        Thread t = Thread.ofPlatform().name(name).daemon(true).unstarted(wrap(body));
        threads.add(t);
        t.start();
        return t;
    }

    /** Starts a virtual thread. */
    public Thread startVirtual(String name, Body body) {
        Thread t = Thread.ofVirtual().name(name).unstarted(wrap(body));
        threads.add(t);
        t.start();
        return t;
    }

    private Runnable wrap(Body body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failures.add(new Failure(Thread.currentThread().getName(), t));
            }
        };
    }

    /** What the threads threw so far, for a test where some failures are the expected outcome. */
    public List<Throwable> failures() {
        return failures.stream().map(Failure::error).toList();
    }

    /** Waits for every thread; fails if one is still running; rethrows what any of them threw. */
    public void join() throws InterruptedException {
        long deadline = System.currentTimeMillis() + JOIN_MILLIS;
        for (Thread t : threads) {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
        }
        for (Thread t : threads) {
            if (t.isAlive()) {
                AssertionError hung = new AssertionError(t.getName() + " did not finish: " + stack(t)
                        + "\nEvery thread of the JVM:" + allStacks());
                failures.forEach(f -> hung.addSuppressed(f.error()));
                throw hung;
            }
        }
        rethrow();
    }

    /** Rethrows the first failure of any thread (the others suppressed by it); nothing if none failed. */
    public void rethrow() {
        Failure first = failures.peek();
        if (first != null) {
            AssertionError failure = new AssertionError("in thread " + first.thread() + ": " + first.error(), first.error());
            failures.stream().skip(1).limit(5).forEach(f -> failure.addSuppressed(f.error()));
            throw failure;
        }
    }

    /** Every live thread's name, state and stack: what a hung thread waits for is often elsewhere. */
    public static String allStacks() {
        StringBuilder sb = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, frames) -> {
            sb.append("\n\n\"").append(t.getName()).append("\" ").append(t.getState());
            for (StackTraceElement e : frames) {
                sb.append("\n    at ").append(e);
            }
        });
        return sb.toString();
    }

    /** The stack of a thread, for a hang's message. */
    public static String stack(Thread t) {
        StringBuilder sb = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            sb.append("\n    at ").append(e);
        }
        return sb.toString();
    }
}
