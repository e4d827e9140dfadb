package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.panlite.TestDb;
import dev.panlite.TestThreads;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HikariCP pool with the README's URL opens connections for readers while another connection
 * holds a write transaction (issue 27, item 5): opening ran {@code PRAGMA journal_mode = WAL}
 * through the write gate, so no reader got a connection until the transaction ended.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HikariOpenWhileWritingTest {
    @TempDir
    Path dir;

    @Test
    void readersGetNewConnectionsDuringAWriteTransaction() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("app.db") + "?journal_mode=WAL&busy_timeout=10000&transaction_mode=IMMEDIATE";
        HikariConfig config = new HikariConfig();
        config.setDriverClassName("dev.panlite.Driver");
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(6);
        config.setMinimumIdle(0); // every reader below needs a connection opened for it
        config.setConnectionTimeout(30_000); // a hang guard: without the fix, no reader gets one before the writer ends
        try (Connection writer = java.sql.DriverManager.getConnection(url)) {
            TestDb.exec(writer, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
            try (HikariDataSource pool = new HikariDataSource(config)) {
                writer.setAutoCommit(false);
                TestDb.exec(writer, "INSERT INTO t VALUES (2)"); // holds the write gate until commit
                TestThreads readers = new TestThreads();
                CountDownLatch allRead = new CountDownLatch(5); // each keeps its connection until all have read: 5 opened
                for (int i = 0; i < 5; i++) {
                    readers.start("reader-" + i, () -> {
                        try (Connection c = pool.getConnection()) {
                            assertEquals(1, TestDb.queryLong(c, "SELECT count(*) FROM t"), "the uncommitted row is not seen");
                            allRead.countDown();
                            allRead.await(60, TimeUnit.SECONDS);
                        }
                    });
                }
                readers.join(); // all five while the transaction is open
                assertEquals(0, allRead.getCount());
                writer.commit();
            }
        }
    }
}
