package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import dev.panlite.TestThreads;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is left of the driver's {@code System.gc()} calls ({@link Reclaimer}), counted by JFR's
 * jdk.SystemGC event, which names the calling thread: never on a user's thread, none for a queue of
 * short transactions, few for a long one, and at most one for a pool that swings between 16 and 32
 * connections. Before, a writer that had waited a second for the gate ran a full collection itself
 * (whoever held the gate, for however short), and the open-count mark ran one per swing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeakCollectionsTest {
    /** How long each transaction of the queue holds the gate: well under the second after which a waiter looks for a leak. */
    private static final long SHORT_HOLD_MILLIS = 300;

    @TempDir
    Path dir;

    private interface Scenario {
        void run() throws Exception;
    }

    /** The System.gc() calls made while {@code scenario} ran (and the collections it asked the Reclaimer for). */
    private List<RecordedEvent> systemGcs(Scenario scenario) throws Exception {
        Path file = dir.resolve("gc-" + System.nanoTime() + ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.SystemGC").withStackTrace();
            recording.start();
            scenario.run();
            Reclaimer.awaitCollections(); // a collection asked for at the end runs inside the recording
            recording.stop();
            recording.dump(file);
        }
        // the recording holds the driver's own events too (enabled by default): only System.gc() counts
        return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals("jdk.SystemGC")).toList();
    }

    /** Fails unless every collection ran on the Reclaimer's own daemon thread. */
    private static void assertNotOnAUsersThread(List<RecordedEvent> gcs) {
        for (RecordedEvent e : gcs) {
            String thread = e.getThread() == null ? "?" : e.getThread().getJavaName();
            assertTrue(thread.startsWith("panlite-"), () -> "System.gc() on the user's thread " + thread + ":" + stack(e));
        }
    }

    private static String stack(RecordedEvent e) {
        StringBuilder b = new StringBuilder();
        if (e.getStackTrace() != null) {
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                b.append("\n    at ").append(f.getMethod().getType().getName()).append('.').append(f.getMethod().getName());
            }
        }
        return b.toString();
    }

    private Path database(String name) throws SQLException {
        Path db = dir.resolve(name);
        try (Connection c = open(db)) {
            TestDb.exec(c, "PRAGMA journal_mode=WAL", "CREATE TABLE t(x)");
        }
        return db;
    }

    private static Connection open(Path db) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + db + "?busy_timeout=60000");
    }

    /** On another thread, {@code c} begins a write transaction, holds it {@code millis}, commits and closes. */
    private static void writeFor(TestThreads threads, String name, Connection c, long millis) {
        threads.start(name, () -> {
            try (c) {
                c.setAutoCommit(false);
                TestDb.exec(c, "INSERT INTO t VALUES (1)"); // queues for the gate
                Thread.sleep(millis);
                c.commit();
            }
        });
    }

    /** Waits until {@code n} writers are queued for the gate (a hang guard only: the class's timeout). */
    private static void awaitQueued(WriteGate gate, int n) throws InterruptedException {
        while (gate.queued() < n) {
            Thread.sleep(1);
        }
    }

    /**
     * Five writers queue behind a transaction; each holds the gate {@link #SHORT_HOLD_MILLIS}, so the
     * last one waits well over a second, but nobody holds the gate for a second: there is no holder
     * to suspect of a leak, and no collection.
     */
    @Test
    void aQueueOfShortTransactionsAsksForNoCollection() throws Exception {
        Path db = database("queue.db");
        WriteGate gate = WriteGate.forFile(db.toString());
        try {
            List<RecordedEvent> gcs = systemGcs(() -> {
                TestThreads threads = new TestThreads();
                List<Connection> writers = new ArrayList<>();
                for (int i = 1; i <= 5; i++) { // opened first: the first transaction holds the gate only while they queue
                    writers.add(open(db));
                }
                try (Connection first = open(db)) {
                    first.setAutoCommit(false);
                    TestDb.exec(first, "INSERT INTO t VALUES (0)"); // holds the gate
                    for (int i = 1; i <= 5; i++) {
                        writeFor(threads, "writer-" + i, writers.get(i - 1), SHORT_HOLD_MILLIS);
                        awaitQueued(gate, i);
                    }
                    Thread.sleep(SHORT_HOLD_MILLIS);
                    first.commit();
                }
                threads.join();
            });
            assertEquals(0, gcs.size(), () -> "collections: " + gcs.stream().map(e -> e.getThread().getJavaName() + stack(e)).toList());
        } finally {
            gate.unref();
        }
    }

    /**
     * A writer waits behind a legitimate transaction that holds the gate for seconds: the Reclaimer
     * looks for a leaked holder on its own thread, at most once per doubling of the hold's length.
     */
    @Test
    void aWriterBehindALongTransactionAsksForFewCollectionsOnTheReclaimersThread() throws Exception {
        Path db = database("long.db");
        WriteGate gate = WriteGate.forFile(db.toString());
        try {
            long[] heldNanos = new long[1];
            List<RecordedEvent> gcs = systemGcs(() -> {
                TestThreads threads = new TestThreads();
                try (Connection holder = open(db)) {
                    holder.setAutoCommit(false);
                    TestDb.exec(holder, "INSERT INTO t VALUES (0)"); // holds the gate
                    writeFor(threads, "writer", open(db), 0);
                    awaitQueued(gate, 1);
                    long queued = System.nanoTime();
                    Thread.sleep(4500);
                    holder.commit();
                    heldNanos[0] = System.nanoTime() - queued;
                }
                threads.join();
            });
            assertNotOnAUsersThread(gcs);
            // a look after 1 s of the hold, then after 2, 4, 8... s of the same hold
            int bound = 1 + (int) Math.floor(Math.log(heldNanos[0] / 1e9) / Math.log(2));
            assertTrue(gcs.size() >= 1 && gcs.size() <= bound, "collections: " + gcs.size() + ", at most " + bound + " for a hold of "
                    + heldNanos[0] / 1_000_000 + " ms");
        } finally {
            gate.unref();
        }
    }

    /**
     * A pool that grows to 32 connections and shrinks to 16, twenty times: the mark asks for one
     * collection at most (at the first 32), on the Reclaimer's thread; the next mark is twice what
     * is still open then, and a close does not lower it.
     */
    @Test
    void aPoolSwingingBetween16And32ConnectionsAsksForOneCollectionAtMost() throws Exception {
        Path db = database("pool.db");
        int before = Reclaimer.openConnections();
        assertTrue(before <= 16, "connections left open by earlier tests: " + before);
        List<RecordedEvent> gcs = systemGcs(() -> {
            Deque<Connection> pool = new ArrayDeque<>();
            try {
                for (int cycle = 0; cycle < 20; cycle++) {
                    while (Reclaimer.openConnections() < 32) {
                        pool.push(open(db));
                    }
                    while (Reclaimer.openConnections() > 16) {
                        pool.pop().close();
                    }
                }
            } finally {
                for (Connection c : pool) {
                    c.close();
                }
            }
        });
        assertNotOnAUsersThread(gcs);
        assertTrue(gcs.size() <= 1, "collections: " + gcs.size());
    }
}
