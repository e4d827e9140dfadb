package dev.panlite.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue writers to one database file join before they take SQLite's write lock: one per file
 * in the process, shared by every connection and pool, keyed by the file's identity (device and
 * inode where the platform has them, else its real path), not by how the URL spelled it.
 *
 * <p>Why not a {@code ReentrantLock}: the gate is held by a connection, not a thread, and may be
 * released by another thread (close from another thread, abort, the Cleaner). Why not SQLite's busy
 * handler: it sleeps inside {@code sqlite3_step} (a virtual thread pins its carrier) and its
 * back-off favours new arrivals. Here a waiter parks in a FIFO queue and the releaser hands the
 * gate to the head.
 *
 * <p>Fair, but not a convoy: a strict hand-over makes every write wait for the next waiter's thread
 * to be scheduled, which on a busy machine costs more than the write itself. So, as Go's
 * {@code sync.Mutex} does, a free gate may be taken by a thread that is already running while the
 * head of the queue has waited less than {@link #HANDOFF_NANOS}; once the head has waited that
 * long it gets the gate handed over, and no newcomer can pass it. Waiters never pass each other.
 */
final class WriteGate {
    static final int WAITING = 0;
    static final int GRANTED = 1;
    static final int CANCELLED = 2;

    /** How long the head of the queue may be passed by running threads before it is handed the gate. */
    static final long HANDOFF_NANOS = 1_000_000;

    /** One waiter: parks until the gate is handed to it or it is cancelled. */
    static final class Waiter {
        final Thread thread = Thread.currentThread();
        final long since = System.nanoTime();
        volatile int state;
        volatile String cancelReason; // why another thread cancelled the wait

        Waiter(int state) {
            this.state = state;
        }
    }

    private static final Map<Object, WriteGate> GATES = new HashMap<>(); // guarded by itself

    private final Object key;
    private final String file;
    private int refs; // guarded by GATES
    private final ReentrantLock mutex = new ReentrantLock(); // guards held and queue; never held while parking
    private boolean held;
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();

    private WriteGate(Object key, String file) {
        this.key = key;
        this.file = file;
    }

    /**
     * The gate of the file SQLite resolved {@code path} to (sqlite3_db_filename), counted as used
     * once more; null for an in-memory or temporary database ("" path), which nothing else can open.
     * Pair with {@link #unref()}.
     */
    static WriteGate forFile(String path) {
        if (path == null || path.isEmpty()) {
            return null;
        }
        Object key = identity(path);
        synchronized (GATES) {
            WriteGate gate = GATES.computeIfAbsent(key, k -> new WriteGate(k, path));
            gate.refs++;
            return gate;
        }
    }

    /** Gives back a reference from {@link #forFile}; the last one removes the gate from the registry. */
    void unref() {
        synchronized (GATES) {
            if (--refs == 0) {
                GATES.remove(key);
            }
        }
    }

    /** How many files have a gate now (tests: the registry does not leak). */
    static int registered() {
        synchronized (GATES) {
            return GATES.size();
        }
    }

    private static Object identity(String path) {
        Path p = Path.of(path);
        try {
            Object fileKey = Files.readAttributes(p, BasicFileAttributes.class).fileKey(); // (dev, inode) on Unix
            return fileKey != null ? fileKey : p.toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize().toString();
        }
    }

    String file() {
        return file;
    }

    /** True when a running thread may take the free gate: nobody queues, or the head has not waited long. Mutex held. */
    private boolean mayTake() {
        Waiter head = queue.peekFirst();
        return head == null || System.nanoTime() - head.since < HANDOFF_NANOS;
    }

    /** Takes the gate if it is free and no starving waiter is owed it: the uncontended path, no allocation. */
    boolean tryAcquire() {
        mutex.lock();
        try {
            if (!held && mayTake()) {
                held = true;
                return true;
            }
            return false;
        } finally {
            mutex.unlock();
        }
    }

    /** Joins the queue (or takes a free gate: the waiter comes back GRANTED). */
    Waiter enqueue() {
        mutex.lock();
        try {
            if (!held && mayTake()) {
                held = true;
                return new Waiter(GRANTED);
            }
            Waiter w = new Waiter(WAITING);
            queue.addLast(w);
            return w;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Parks until {@code w} is granted or cancelled, the thread is interrupted, or {@code deadline}
     * (System.nanoTime) passes; returns the state then (WAITING: deadline or interrupt). The
     * interrupt flag stays set.
     */
    int await(Waiter w, long deadline) {
        while (true) {
            int state = w.state;
            if (state != WAITING) {
                return state;
            }
            if (takeAsHead(w)) {
                return GRANTED;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return WAITING;
            }
            LockSupport.parkNanos(this, left);
        }
    }

    /** The head of the queue, woken by a release that did not hand over, takes the gate if it is still free. */
    private boolean takeAsHead(Waiter w) {
        mutex.lock();
        try {
            if (w.state == WAITING && !held && queue.peekFirst() == w) {
                queue.pollFirst();
                held = true;
                w.state = GRANTED;
            }
            return w.state == GRANTED;
        } finally {
            mutex.unlock();
        }
    }

    /** Wakes the head when the gate is free (a waiter left, or a release did not hand over). Mutex held. */
    private void wakeHead() {
        Waiter head = queue.peekFirst();
        if (!held && head != null) {
            LockSupport.unpark(head.thread);
        }
    }

    /**
     * The waiter gives up (timeout, interrupt, busy handler). Returns true when the gate was handed
     * to it meanwhile: then it holds the gate and must use or release it.
     */
    boolean abandon(Waiter w) {
        mutex.lock();
        try {
            if (w.state == GRANTED) {
                return true;
            }
            queue.remove(w);
            w.state = CANCELLED;
            wakeHead();
            return false;
        } finally {
            mutex.unlock();
        }
    }

    /** Another thread stops {@code w}'s wait (its connection closes, or the statement is cancelled). */
    void cancel(Waiter w, String reason) {
        mutex.lock();
        try {
            if (w.state == WAITING) {
                queue.remove(w);
                w.cancelReason = reason;
                w.state = CANCELLED;
                LockSupport.unpark(w.thread);
                wakeHead();
            }
        } finally {
            mutex.unlock();
        }
    }

    /** Hands the gate to a head that waited long enough, or frees it and wakes the head to take it. */
    void release() {
        mutex.lock();
        try {
            Waiter head = queue.peekFirst();
            if (head != null && System.nanoTime() - head.since >= HANDOFF_NANOS) {
                queue.pollFirst();
                head.state = GRANTED; // held stays true: it passes to the head, nobody can take it in between
                LockSupport.unpark(head.thread);
                return;
            }
            held = false;
            wakeHead();
        } finally {
            mutex.unlock();
        }
    }

    /** Waiters now (tests and diagnostics). */
    int queued() {
        mutex.lock();
        try {
            return queue.size();
        } finally {
            mutex.unlock();
        }
    }

    /** Whether some connection holds the gate now (tests and diagnostics). */
    boolean isHeld() {
        mutex.lock();
        try {
            return held;
        } finally {
            mutex.unlock();
        }
    }
}
