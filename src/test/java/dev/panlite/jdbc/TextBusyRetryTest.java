package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import dev.panlite.TestThreads;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A text the engine runs in one go (engine.TextExecution#execute: settings, savepoints, scripts;
 * every statement of it in one crossing) whose COMMIT meets a lock after DDL earlier in the same text
 * (issue 27, item 10). Another connection reads the rollback-journal database, so COMMIT cannot get
 * SQLite's exclusive lock until that read ends: the COMMIT waits, then commits. The retry used to
 * find the failing statement by preparing the text again from its start, which stopped at the
 * CREATE TABLE that now fails ("already exists"): the COMMIT failed at once and the transaction
 * stayed open. The fused exec now tells where the failing statement starts.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TextBusyRetryTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {
        "BEGIN; CREATE TABLE u(a); INSERT INTO u VALUES (1); COMMIT",
        "BEGIN; INSERT INTO t VALUES (3); CREATE TABLE u(a); CREATE INDEX u_a ON u(a); COMMIT",
        "BEGIN IMMEDIATE; DROP TABLE t; CREATE TABLE t(b); CREATE TABLE u(a); END",
    })
    void aCommitAfterDdlInTheSameTextWaitsForTheLock(String text) throws Exception {
        try (Connection setup = TestDb.open(dir, "journal_mode=DELETE")) {
            TestDb.exec(setup, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2)");
        }
        try (Connection reader = TestDb.open(dir); Connection c = TestDb.open(dir)) {
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
            JdbcConnection physical = c.unwrap(JdbcConnection.class);
            try (var held = physical.db.hold()) {
                physical.db.text().execute(text);
                assertTrue(!physical.db.transactions().inTransaction(), "the text's transaction ended");
            }
            threads.join();
            assertEquals(0, busy.getCount(), "the COMMIT never met the lock: the test tested nothing");
            assertEquals(1, TestDb.queryLong(reader, "SELECT count(*) FROM sqlite_master WHERE name = 'u'"));
        }
    }

    /** A lock met loading the schema for the first statement still retries that statement (told by the failed prepare). */
    @Test
    void aLockMetPreparingIsRetriedFromTheFailingStatement() throws Exception {
        try (Connection setup = TestDb.open(dir, "journal_mode=DELETE")) {
            TestDb.exec(setup, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
        }
        try (Connection holder = TestDb.open(dir); Connection c = TestDb.open(dir)) {
            TestDb.exec(holder, "BEGIN EXCLUSIVE"); // no other connection can read the schema
            CountDownLatch busy = new CountDownLatch(1);
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                busy.countDown();
                return waited.toSeconds() < 60;
            });
            TestThreads threads = new TestThreads();
            threads.start("holder", () -> {
                if (busy.await(60, TimeUnit.SECONDS)) {
                    TestDb.exec(holder, "ROLLBACK");
                }
            });
            JdbcConnection physical = c.unwrap(JdbcConnection.class);
            try (var held = physical.db.hold()) {
                physical.db.text().execute("SAVEPOINT a; INSERT INTO t VALUES (2); RELEASE a");
            }
            threads.join();
            assertEquals(0, busy.getCount(), "the text never met the lock");
            assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
    }
}
