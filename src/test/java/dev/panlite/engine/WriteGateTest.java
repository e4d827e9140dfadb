package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The write gate on its own: FIFO hand-over, cancellation, and the per-file registry. */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard only: nothing here is timed
class WriteGateTest {
    @TempDir
    Path dir;

    private WriteGate gate() throws Exception {
        Path file = Files.createFile(dir.resolve("g.db"));
        return WriteGate.forFile(file.toString());
    }

    /** Waits (without a clock) until {@code n} threads queue. */
    private static void awaitQueued(WriteGate gate, int n) {
        while (gate.queued() < n) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    void waitersAreServedInArrivalOrder() throws Exception {
        WriteGate gate = gate();
        try {
            assertTrue(gate.tryAcquire());
            List<Integer> order = new CopyOnWriteArrayList<>();
            TestThreads threads = new TestThreads();
            for (int i = 0; i < 8; i++) {
                int id = i;
                threads.startVirtual("waiter-" + i, () -> {
                    WriteGate.Waiter w = gate.enqueue();
                    assertEquals(WriteGate.GRANTED, gate.await(w, Long.MAX_VALUE));
                    order.add(id);
                    gate.release();
                });
                awaitQueued(gate, i + 1); // thread i is queued before thread i+1 starts
            }
            // a newcomer does not overtake the queue
            assertFalse(gate.tryAcquire());
            gate.release();
            threads.join();
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), order);
            assertFalse(gate.isHeld());
        } finally {
            gate.unref();
        }
    }

    @Test
    void aCancelledWaiterLeavesTheQueueAndTheNextOneIsServed() throws Exception {
        WriteGate gate = gate();
        try {
            assertTrue(gate.tryAcquire());
            WriteGate.Waiter[] first = new WriteGate.Waiter[1];
            TestThreads a = new TestThreads();
            a.start("first", () -> {
                first[0] = gate.enqueue();
                assertEquals(WriteGate.CANCELLED, gate.await(first[0], Long.MAX_VALUE));
            });
            awaitQueued(gate, 1);
            TestThreads b = new TestThreads();
            b.start("second", () -> {
                WriteGate.Waiter w = gate.enqueue();
                assertEquals(WriteGate.GRANTED, gate.await(w, Long.MAX_VALUE));
            });
            awaitQueued(gate, 2);
            gate.cancel(first[0], "closed");
            a.join();
            assertEquals("closed", first[0].cancelReason);
            gate.release();
            b.join();
            assertTrue(gate.isHeld(), "the second waiter now holds the gate");
            gate.release();
            assertFalse(gate.isHeld());
        } finally {
            gate.unref();
        }
    }

    @Test
    void aWaiterThatGivesUpAfterBeingGrantedKeepsTheGate() throws Exception {
        WriteGate gate = gate();
        try {
            assertTrue(gate.tryAcquire());
            WriteGate.Waiter w = gate.enqueue();
            while (!w.owed) { // the holder is slow: the waiter's spins run out
                assertEquals(WriteGate.WAITING, gate.await(w, System.nanoTime() + 2 * WriteGate.SPIN_NANOS));
            }
            gate.release(); // handed to w (owed it) before it abandons
            assertTrue(gate.abandon(w), "abandon reports the hand-over, so the gate is not lost");
            assertTrue(gate.isHeld());
            gate.release();
            WriteGate.Waiter late = gate.enqueue();
            assertEquals(WriteGate.GRANTED, late.state, "a free gate is granted on arrival");
            gate.release();
        } finally {
            gate.unref();
        }
    }

    @Test
    void aHeadOwedTheGateIsHandedItAndNoNewcomerPassesIt() throws Exception {
        WriteGate gate = gate();
        try {
            assertTrue(gate.tryAcquire());
            WriteGate.Waiter head = gate.enqueue();
            // the holder is slow: the head's spins run out, and it is owed the gate
            int waits = 0;
            while (!head.owed) {
                assertEquals(WriteGate.WAITING, gate.await(head, System.nanoTime() + 2 * WriteGate.SPIN_NANOS));
                waits++;
            }
            assertTrue(waits <= WriteGate.SPINS_BEFORE_OWED, "owed after " + waits + " waits");
            assertFalse(gate.tryAcquire(), "held");
            assertFalse(gate.spinAcquire(), "a spinner gives way to a head owed the gate");
            gate.release();
            assertEquals(WriteGate.GRANTED, head.state, "handed over on release, before the head even runs");
            assertTrue(gate.isHeld());
            assertFalse(gate.tryAcquire(), "a newcomer cannot take what was handed over");
            gate.release();
            assertFalse(gate.isHeld());
        } finally {
            gate.unref();
        }
    }

    @Test
    void aFreedGateGoesToARunningThreadWhileTheWokenHeadIsNotRunningYet() throws Exception {
        WriteGate gate = gate();
        try {
            assertTrue(gate.tryAcquire());
            WriteGate.Waiter head = gate.enqueue(); // queued, but it never ran its wait: neither spinning nor owed
            gate.release();
            assertFalse(gate.isHeld(), "not handed to a waiter that is not running");
            assertTrue(gate.tryAcquire(), "a running thread takes it meanwhile");
            assertEquals(WriteGate.WAITING, head.state);
            gate.release();
            assertEquals(WriteGate.GRANTED, gate.await(head, Long.MAX_VALUE), "the head takes the free gate once it runs");
            assertTrue(gate.isHeld());
            gate.release();
        } finally {
            gate.unref();
        }
    }

    @Test
    void anInterruptedWaiterReturnsWithTheFlagSet() throws Exception {
        WriteGate gate = gate();
        try {
            assertTrue(gate.tryAcquire());
            TestThreads threads = new TestThreads();
            Thread t = threads.startVirtual("interrupted", () -> {
                WriteGate.Waiter w = gate.enqueue();
                assertEquals(WriteGate.WAITING, gate.await(w, Long.MAX_VALUE));
                assertTrue(Thread.currentThread().isInterrupted());
                assertFalse(gate.abandon(w), "an interrupted waiter was not handed the gate");
            });
            awaitQueued(gate, 1);
            t.interrupt();
            threads.join();
            assertEquals(0, gate.queued());
            gate.release();
            assertFalse(gate.isHeld());
        } finally {
            gate.unref();
        }
    }

    @Test
    void oneGatePerFileWhateverTheSpellingAndNoneForMemory() throws Exception {
        Path file = Files.createFile(dir.resolve("same.db"));
        Path link = Files.createSymbolicLink(dir.resolve("link.db"), file);
        int before = WriteGate.registered();
        WriteGate a = WriteGate.forFile(file.toString());
        WriteGate b = WriteGate.forFile(dir.resolve("sub/../same.db").toString().replace("sub/../", "./"));
        WriteGate c = WriteGate.forFile(link.toString());
        WriteGate other = WriteGate.forFile(Files.createFile(dir.resolve("other.db")).toString());
        try {
            assertSame(a, b);
            assertSame(a, c);
            assertNotSame(a, other);
            assertEquals(before + 2, WriteGate.registered());
            assertNull(WriteGate.forFile(""), "in-memory and temporary databases have no gate");
        } finally {
            a.unref();
            b.unref();
            c.unref();
            other.unref();
        }
        assertEquals(before, WriteGate.registered(), "the last reference removes the gate");
    }
}
