package dev.panlite.engine;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The write gate's window for other processes (docs/experiments/040). A process outside this JVM
 * (Litestream's checkpoint, another instance, the sqlite3 shell) cannot queue at the gate: it tries
 * SQLite's write lock and, finding it taken, sleeps and tries again (SQLite's default busy handler
 * sleeps up to 100 ms between tries). A gate that hands the lock from writer to writer leaves it
 * free for microseconds only, so such a process almost never gets in.
 *
 * <p>So once the gate has been taken back to back for {@link #busyNanos}, the next holder waits
 * {@link #gapNanos} before it goes on: for that long nobody in this JVM holds SQLite's write lock,
 * and a process that tries it then gets it. A pause of the gate's own (its lock free at least that
 * long) starts the count again. Windows are left only while another process has the database open
 * ({@link OtherProcesses}, checked at most every {@link #CHECK_NANOS}), so a process alone on its
 * file pays nothing.
 *
 * <p>Off by default: measured on a loaded 2-core machine, other processes got the lock without it
 * (the sqlite3 shell waited at most ~120 ms, Litestream's checkpoints were never refused) while the
 * windows cost 20-45% of the commits whenever another process had the file open (docs/experiments/040).
 * It is kept for machines where hand-overs are tight enough to starve a polling process.
 *
 * <p>System properties (read once): {@code panlite.writeGate.window} = {@code off} (the default),
 * {@code auto} (while another process has the file open; always where that cannot be told) or
 * {@code always}; {@code panlite.writeGate.windowMillis} = {@code BUSY/GAP} (default
 * {@value #DEFAULT_TIMING}): how long the gate may be taken back to back, and how long the window
 * lasts.
 *
 * <p>Fields are written by the gate's holder or under the gate's mutex at release; the gate itself
 * orders one holder after the other.
 */
final class GateWindow {
    enum Mode { AUTO, ALWAYS, OFF }

    static final String MODE_PROPERTY = "panlite.writeGate.window";
    static final String TIMING_PROPERTY = "panlite.writeGate.windowMillis";
    static final String DEFAULT_TIMING = "40/10";
    /** How stale the answer of {@link OtherProcesses} may be. */
    static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    static final Mode MODE = mode(System.getProperty(MODE_PROPERTY, "off"));
    private static final long[] TIMING = timing(System.getProperty(TIMING_PROPERTY, DEFAULT_TIMING));
    static final long busyNanos = TIMING[0];
    static final long gapNanos = TIMING[1];

    private final String file;
    private volatile long streakStart = System.nanoTime(); // when the gate was last free for a window's length
    private volatile long releasedAt = System.nanoTime(); // the last release
    private volatile long closedUntil; // a window in progress: holders wait until then
    private volatile boolean others; // the last answer of OtherProcesses
    private volatile long checkedAt = System.nanoTime() - 2 * CHECK_NANOS;
    private final AtomicBoolean checking = new AtomicBoolean();

    GateWindow(String file) {
        this.file = file;
    }

    static Mode mode(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "always" -> Mode.ALWAYS;
            case "auto" -> Mode.AUTO;
            default -> Mode.OFF;
        };
    }

    static long[] timing(String value) {
        try {
            String[] parts = value.strip().split("/");
            double busy = Double.parseDouble(parts[0]);
            double gap = Double.parseDouble(parts[1]);
            if (busy > 0 && gap >= 0) {
                return new long[] {(long) (busy * 1e6), (long) (gap * 1e6)};
            }
        } catch (RuntimeException e) {
            // falls through to the default below
        }
        return timing(DEFAULT_TIMING);
    }

    /**
     * Called by a releasing holder before it lets the gate go: when the gate has been taken back to
     * back long enough and another process shares the file, the next holder waits out a window.
     */
    void beforeRelease() {
        if (MODE == Mode.OFF) {
            return;
        }
        long now = System.nanoTime();
        releasedAt = now;
        if (gapNanos == 0 || now - streakStart < busyNanos || !othersShare(now)) {
            return;
        }
        closedUntil = now + gapNanos;
        streakStart = now + gapNanos;
    }

    /**
     * Called by a new holder of the gate before it takes SQLite's lock: waits out a window in
     * progress (parks; an interrupt ends the wait early and stays set), and starts a new streak if
     * the gate was free for a window's length.
     */
    void afterAcquire() {
        if (MODE == Mode.OFF) {
            return;
        }
        long now = System.nanoTime();
        long until = closedUntil;
        while (until - now > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(this, until - now);
            now = System.nanoTime();
        }
        if (now - releasedAt >= gapNanos) {
            streakStart = now;
        }
    }

    /** Whether a window is in progress: the gate's next holder would wait it out. */
    boolean closing() {
        return MODE != Mode.OFF && closedUntil - System.nanoTime() > 0;
    }

    private boolean othersShare(long now) {
        if (MODE == Mode.ALWAYS) {
            return true;
        }
        if (now - checkedAt > CHECK_NANOS && checking.compareAndSet(false, true)) {
            try {
                others = OtherProcesses.share(file);
                checkedAt = System.nanoTime();
            } finally {
                checking.set(false);
            }
        }
        return others;
    }
}
