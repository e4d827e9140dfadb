package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
                assertTrue(s.execute("BEGIN; SELECT count(*) FROM t"));
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
}
