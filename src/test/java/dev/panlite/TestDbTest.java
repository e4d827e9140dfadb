package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test helpers themselves: they fail a test rather than hang it or lose a thread's failure. */
class TestDbTest {
    @TempDir
    Path dir;

    /**
     * The holder's query fails before it holds the connection (every statement is interrupted):
     * holdConnection fails with that failure. It waited for the holder without a timeout and lost
     * the holder thread's exception, so the test hung.
     */
    @Test
    void aHolderThatFailsBeforeHoldingFailsTheCallerWithItsFailure() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            c.unwrap(PanliteConnection.class).setProgressHandler(1, () -> 1); // interrupts every statement at once
            AssertionError e = assertTimeoutPreemptively(Duration.ofSeconds(TestDb.GUARD_MILLIS / 2000),
                    () -> assertThrows(AssertionError.class, () -> TestDb.holdConnection(c)), "holdConnection hung");
            Throwable cause = e;
            while (cause != null && !(cause instanceof SQLException)) {
                cause = cause.getCause();
            }
            assertTrue(cause != null, () -> "the holder's failure was lost: " + e);
        }
    }

    /** A thread that waits for the held connection is seen queued for its lock; one that does not need it, ended. */
    @Test
    void awaitQueuedTellsAThreadWaitingForTheConnectionFromOneThatEnded() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            TestThreads threads = new TestThreads();
            try (TestDb.ConnectionHold hold = TestDb.holdConnection(c)) {
                Thread needs = threads.start("needs-the-connection", () -> TestDb.exec(c, "SELECT 1"));
                assertTrue(hold.awaitQueued(needs), "the thread did not queue for the held connection");
                Thread free = threads.start("does-not", () -> { });
                assertTrue(!hold.awaitQueued(free), "a thread that never needed the connection counted as queued");
            }
            threads.join();
        }
    }
}
