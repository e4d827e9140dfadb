package dev.panlite.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue writers to one database file join before they take SQLite's write lock: one per file
 * in the process, shared by every connection and pool, keyed by the file's identity (device and
 * inode where the platform has them, else its real path), not by how the URL spelled it.
 *
 * <p>Why not a {@code ReentrantLock}: the gate is held by a connection, not a thread, and may be
 * released by another thread (close from another thread, abort, the Reclaimer). Why not SQLite's busy
 * handler: it sleeps inside {@code sqlite3_step} (a virtual thread pins its carrier) and its
 * back-off favours new arrivals. Here a waiter parks in a FIFO queue; waiters never pass each
 * other.
 *
 * <p>The gate goes only to running threads where it can, because a write holds it for tens of
 * microseconds while a parked thread takes longer than that to run again: a parked virtual thread,
 * once unparked, waits its turn behind every runnable virtual thread (milliseconds with a few
 * hundred request threads), holding its pooled connection all the while. A strict hand-over to
 * the head of the queue leaves the gate idle for that long at every write, and the writers queued
 * behind it end up holding every connection of the pool (docs/experiments/021). So:
 * <ul>
 *   <li>The head of the queue is woken when it becomes the head and spins for the gate for up to
 *       {@link #SPIN_NANOS}; a release hands the gate to a spinning head at once.
 *   <li>A head whose spins ran out {@link #SPINS_BEFORE_OWED} times (the holder is slow, or
 *       running threads took the gate each time before the head ran) parks <em>owed</em> the gate:
 *       the next release hands it over even though it must first be scheduled, so long
 *       transactions cannot starve it. Not after one spin: the holder may only be waiting for a
 *       carrier, and handing the gate to parked threads one after the other is the convoy above.
 *   <li>Otherwise (the head was woken but does not run yet) a release frees the gate and wakes the
 *       head; a running thread may take it meanwhile, and one thread at a time may spin for it
 *       before it queues ({@link #spinAcquire}). The head passes everybody as soon as it runs.
 * </ul>
 * Without a second processor nobody spins: a head parks owed at once (a strict FIFO hand-over).
 */
final class WriteGate {
    static final int WAITING = 0;
    static final int GRANTED = 1;
    static final int CANCELLED = 2;

    /**
     * How long a thread spins on a held gate before it parks: a few write transactions' worth.
     * Only with more than one processor (the holder needs one to finish).
     */
    static final long SPIN_NANOS = 100_000;
    /** After how many spins that ran out a head is owed the gate. */
    static final int SPINS_BEFORE_OWED = 3;
    private static final boolean SPIN = Runtime.getRuntime().availableProcessors() > 1;

    /** One waiter: spins while it heads the queue, parks otherwise, until it is granted or cancelled. */
    static final class Waiter {
        final Thread thread = Thread.currentThread();
        volatile int state;
        volatile boolean spinning; // the head, running: a release hands it the gate
        volatile boolean owed; // the head, parked after its spins ran out: a release hands it the gate
        int spins; // spins that ran out while at the head (mutex)
        volatile String cancelReason; // why another thread cancelled the wait

        Waiter(int state) {
            this.state = state;
        }
    }

    private static final Map<Object, WriteGate> GATES = new HashMap<>(); // guarded by itself

    private final Object key;
    private final String file;
    private int refs; // guarded by GATES
    private final ReentrantLock mutex = new ReentrantLock(); // guards queue and waiters' states; never held while parking
    /** Taken by compare-and-set: without the mutex by a running thread (never blocks, so a spinner never parks on the mutex), under it by waiters. */
    private final AtomicBoolean held = new AtomicBoolean();
    private volatile Waiter head; // queue.peekFirst(), for the lock-free tryAcquire; written under the mutex
    private final AtomicBoolean spinner = new AtomicBoolean(); // a thread not queued spins (spinAcquire)
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    private final GateWindow window; // the pause left for other processes (docs/experiments/040)
    private volatile long releases; // holds that ended (written by the holder): a waiter that sees it unchanged waited behind one hold
    /** Whether a holder that keeps the gate may have leaked (Reclaimer). */
    final Reclaimer.LeakChecks leakChecks = new Reclaimer.LeakChecks();

    private WriteGate(Object key, String file) {
        this.key = key;
        this.file = file;
        this.window = new GateWindow(file);
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

    /** True when a running thread may take the free gate: the head of the queue is not owed it nor spinning for it. */
    private boolean mayTake() {
        Waiter h = head;
        return h == null || !h.spinning && !h.owed;
    }

    /** After a change to the queue. Mutex held. */
    private void headChanged() {
        head = queue.peekFirst();
    }

    /**
     * Whether taking the gate now could make the taker wait: it is held, writers queue for it, or
     * its next holder must wait out a window left for other processes. A hint, read without the
     * mutex: it may change at once.
     */
    boolean busy() {
        return held.get() || head != null || window.closing();
    }

    /**
     * Takes the gate if it is free and no waiter is owed it or spinning for it: the uncontended
     * path, no allocation, no lock. (A waiter that starts spinning at that very moment may be passed
     * once; it gets the next release.)
     */
    boolean tryAcquire() {
        return !held.get() && mayTake() && held.compareAndSet(false, true);
    }

    /**
     * Spins while the gate is held, for at most {@link #SPIN_NANOS}, taking it when it comes free
     * on the terms of {@link #tryAcquire}. One such spinner per gate, and none while the head of the
     * queue spins or is owed the gate (it would win): the others queue at once, so spinners never
     * crowd out the holder. False when the gate did not come free in time.
     */
    boolean spinAcquire() {
        if (!SPIN || !spinner.compareAndSet(false, true)) {
            return false;
        }
        try {
            long start = System.nanoTime();
            do {
                Thread.onSpinWait();
                if (!mayTake()) { // a waiter spins for it or is owed it: it would win
                    return false;
                }
                if (tryAcquire()) {
                    return true;
                }
            } while (System.nanoTime() - start < SPIN_NANOS);
            return false;
        } finally {
            spinner.set(false);
        }
    }

    /** Joins the queue (or takes a free gate: the waiter comes back GRANTED). */
    Waiter enqueue() {
        mutex.lock();
        try {
            if (tryAcquire()) {
                return new Waiter(GRANTED);
            }
            Waiter w = new Waiter(WAITING);
            queue.addLast(w);
            headChanged();
            return w;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits until {@code w} is granted or cancelled, the thread is interrupted, or {@code deadline}
     * (System.nanoTime) passes; returns the state then (WAITING: deadline or interrupt). Spins
     * while {@code w} heads the queue, parks otherwise. The interrupt flag stays set.
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
            if (deadline - System.nanoTime() <= 0 || Thread.currentThread().isInterrupted()) {
                return WAITING;
            }
            if (startSpin(w)) {
                long end = Math.min(System.nanoTime() + SPIN_NANOS, deadline);
                while (w.state == WAITING && System.nanoTime() - end < 0 && !Thread.currentThread().isInterrupted()) {
                    if (!held.get() && takeAsHead(w)) { // freed before it started spinning
                        return GRANTED;
                    }
                    Thread.onSpinWait();
                }
                endSpin(w);
                if (w.state != WAITING) {
                    continue;
                }
                // parks until the next release wakes it (a release during the spin's end leaves a permit)
            }
            long left = deadline - System.nanoTime();
            if (left > 0) {
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /** {@code w} heads the queue, is not owed the gate yet, and may spin: it starts spinning. */
    private boolean startSpin(Waiter w) {
        mutex.lock();
        try {
            if (w.state != WAITING || w.owed || queue.peekFirst() != w) {
                return false;
            }
            if (!SPIN) {
                w.owed = true; // nobody spins on one processor: the next release hands over
                return false;
            }
            w.spinning = true;
            return true;
        } finally {
            mutex.unlock();
        }
    }

    /** The spin ended: a head still waiting after {@link #SPINS_BEFORE_OWED} such spins is owed the gate. */
    private void endSpin(Waiter w) {
        mutex.lock();
        try {
            w.spinning = false;
            if (w.state == WAITING && queue.peekFirst() == w && ++w.spins >= SPINS_BEFORE_OWED) {
                w.owed = true;
            }
        } finally {
            mutex.unlock();
        }
    }

    /** The head of the queue takes the gate if it is free. */
    private boolean takeAsHead(Waiter w) {
        mutex.lock();
        try {
            if (w.state == WAITING && queue.peekFirst() == w && held.compareAndSet(false, true)) {
                queue.pollFirst();
                headChanged();
                grant(w);
            }
            return w.state == GRANTED;
        } finally {
            mutex.unlock();
        }
    }

    /** {@code w}, just taken off the head of the queue, holds the gate; the next head is woken to spin for it. Mutex held. */
    private void grant(Waiter w) {
        w.spinning = false;
        w.owed = false;
        w.state = GRANTED;
        wakeHead();
    }

    /** Wakes the head of the queue: to take a free gate, or to spin for a held one. Mutex held. */
    private void wakeHead() {
        Waiter first = queue.peekFirst();
        if (first != null) {
            LockSupport.unpark(first.thread);
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
            headChanged();
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
                headChanged();
                w.cancelReason = reason;
                w.state = CANCELLED;
                LockSupport.unpark(w.thread);
                wakeHead();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The new holder of the gate, before it takes SQLite's lock: waits out a window left for other
     * processes, if one is in progress ({@link GateWindow}).
     */
    void entered() {
        window.afterAcquire();
    }

    /** Hands the gate to a head that spins or is owed it; else frees it and wakes the head. */
    void release() {
        releases++; // only the holder releases
        window.beforeRelease();
        mutex.lock();
        try {
            Waiter first = queue.peekFirst();
            if (first != null && (first.spinning || first.owed)) {
                queue.pollFirst(); // held stays true: it passes to the head, nobody can take it in between
                headChanged();
                LockSupport.unpark(first.thread); // parked if owed
                grant(first);
                return;
            }
            held.set(false);
            wakeHead();
        } finally {
            mutex.unlock();
        }
    }

    /** How many holds of the gate have ended: the same number twice, and one holder kept it in between. */
    long releases() {
        return releases;
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
        return held.get();
    }
}
