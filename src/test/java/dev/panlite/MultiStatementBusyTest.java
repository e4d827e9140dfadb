package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lock met while *preparing* a later statement of a multi-statement text (SQLite loading the schema
 * while another connection holds an EXCLUSIVE lock, as SQLITE_BUSY_RECOVERY while another process
 * recovers the WAL) is waited out like one met while stepping: the text goes on from the statement
 * that failed, without running the earlier ones again (issue 18, the fused-exec text path).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiStatementBusyTest {
    @TempDir
    Path dir;

    @Test
    void aLockMetPreparingTheSecondStatementIsWaitedOutAndTheTextGoesOnFromThere() throws Exception {
        try (Connection setup = TestDb.open(dir, "journal_mode=DELETE")) {
            TestDb.exec(setup, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2)");
        }
        try (Connection holder = TestDb.open(dir, "journal_mode=DELETE");
                Connection c = TestDb.open(dir, "")) { // no setting: nothing reads the schema at open
            TestDb.exec(holder, "BEGIN EXCLUSIVE"); // no other connection can read, nor load the schema
            CountDownLatch busy = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                busy.countDown(); // the text met the lock: let the holder go
                return attempts < 100_000;
            });
            Thread release = Thread.ofPlatform().start(() -> {
                try {
                    busy.await();
                    TestDb.exec(holder, "ROLLBACK");
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            // BEGIN needs no lock and no schema (deferred); preparing the SELECT loads the schema: SQLITE_BUSY
            try (Statement s = c.createStatement()) {
                assertFalse(s.execute("BEGIN; SELECT count(*) FROM t")); // BEGIN's count is the first result
                assertTrue(s.getMoreResults());
                try (ResultSet rs = s.getResultSet()) {
                    assertTrue(rs.next());
                    assertEquals(2, rs.getLong(1));
                }
                TestDb.exec(c, "COMMIT"); // BEGIN ran once: a second BEGIN would have failed inside the transaction
            }
            release.join();
            assertEquals(null, failure.get());
            assertEquals(0, busy.getCount(), "the text never met the lock: the test did not test the prepare");
        }
    }

    /**
     * A COMMIT later in a text than DDL meets a lock (another connection reads a rollback-journal
     * database: COMMIT cannot get SQLite's exclusive lock until that read ends). It waits and commits
     * (issue 27, item 10): the retry found the failing statement by preparing the text again from its
     * start, which stopped at the CREATE TABLE that now fails ("already exists"), so the COMMIT failed
     * at once and the transaction stayed open.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "BEGIN; CREATE TABLE u(a); INSERT INTO u VALUES (1); COMMIT",
        "BEGIN; INSERT INTO t VALUES (3); CREATE TABLE u(a); COMMIT",
        "BEGIN; CREATE TABLE u(a); CREATE INDEX u_a ON u(a); INSERT INTO u VALUES (1); COMMIT; SELECT 1",
    })
    void aCommitAfterDdlInTheSameTextWaitsForTheLock(String text) throws Exception {
        try (Connection setup = TestDb.open(dir, "journal_mode=DELETE")) {
            TestDb.exec(setup, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2)");
        }
        try (Connection reader = TestDb.open(dir, "journal_mode=DELETE");
                Connection c = TestDb.open(dir, "journal_mode=DELETE")) {
            reader.setAutoCommit(false);
            reader.setReadOnly(true); // a deferred read transaction: SQLite's shared lock until it ends
            assertEquals(2, TestDb.queryLong(reader, "SELECT count(*) FROM t"));
            CountDownLatch busy = new CountDownLatch(1);
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                busy.countDown(); // the COMMIT met the reader's lock: let the reader go
                return waited.toSeconds() < 60; // a hang guard
            });
            TestThreads threads = new TestThreads();
            threads.start("reader", () -> {
                if (busy.await(60, TimeUnit.SECONDS)) {
                    reader.commit();
                }
            });
            try (Statement s = c.createStatement()) {
                s.execute(text);
                while (s.getMoreResults() || s.getUpdateCount() != -1) {
                    // the rest of the text, if any
                }
            }
            threads.join();
            assertEquals(0, busy.getCount(), "the COMMIT never met the lock: the test tested nothing");
            assertTrue(c.getAutoCommit());
            TestDb.exec(c, "BEGIN", "ROLLBACK"); // no transaction was left open (BEGIN inside one fails)
            assertEquals(1, TestDb.queryLong(reader, "SELECT count(*) FROM sqlite_master WHERE name = 'u'"));
        }
    }
}
