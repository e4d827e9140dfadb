package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HikariCP pool with the README's URL opens connections for readers while another connection
 * holds a write transaction (issue 27, item 5): opening ran {@code PRAGMA journal_mode = WAL}
 * through the write gate, so no reader got a connection until the transaction ended.
 *
 * <p>The five are borrowed one after another, each kept: HikariCP 6.3 loses a request to create a
 * connection when borrowers race with {@code minimumIdle=0} (two borrowers that count themselves
 * as waiters in one order and ask in the other submit one request between them), so concurrent
 * borrowers here would wait for a connection that the pool never opens, whatever the driver does.
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
                List<Connection> readers = new ArrayList<>();
                try {
                    for (int i = 0; i < 5; i++) { // each kept open: the pool must open a new one for the next
                        Connection c = pool.getConnection();
                        readers.add(c);
                        assertEquals(1, TestDb.queryLong(c, "SELECT count(*) FROM t"), "the uncommitted row is not seen");
                    }
                    assertEquals(5, pool.getHikariPoolMXBean().getActiveConnections(), "five opened during the transaction");
                } finally {
                    for (Connection c : readers) {
                        c.close();
                    }
                }
                writer.commit();
            }
        }
    }
}
