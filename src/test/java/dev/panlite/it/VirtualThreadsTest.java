package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1000 virtual threads through a HikariCP pool of 4: each borrows a connection, writes and reads.
 * All must finish (no deadlock between the pool's waiting, the driver's connection lock and
 * SQLite's locks) and no write may be lost.
 */
class VirtualThreadsTest {
    static final int TASKS = 1000;

    @TempDir
    Path dir;

    @Test
    void aThousandVirtualThreadsThroughAPoolOfFour() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setDriverClassName("dev.panlite.Driver");
        config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("vt.db") + "?journal_mode=WAL&busy_timeout=30000");
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(120_000); // 1000 borrowers queue for 4 connections
        try (HikariDataSource pool = new HikariDataSource(config)) {
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE hits(id INTEGER PRIMARY KEY, task INTEGER NOT NULL, thread TEXT)");
                s.execute("CREATE TABLE counter(n INTEGER NOT NULL)");
                s.execute("INSERT INTO counter VALUES (0)");
            }
            List<Future<Long>> results = new ArrayList<>();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < TASKS; i++) {
                    int task = i;
                    results.add(executor.submit(() -> {
                        assertTrue(Thread.currentThread().isVirtual());
                        try (Connection c = pool.getConnection()) {
                            try (PreparedStatement insert = c.prepareStatement(
                                    "INSERT INTO hits(task, thread) VALUES (?, ?)")) {
                                insert.setInt(1, task);
                                insert.setString(2, Thread.currentThread().toString());
                                insert.executeUpdate();
                            }
                            try (PreparedStatement bump = c.prepareStatement("UPDATE counter SET n = n + 1")) {
                                bump.executeUpdate();
                            }
                            try (PreparedStatement read = c.prepareStatement("SELECT count(*) FROM hits WHERE task <= ?")) {
                                read.setInt(1, task);
                                try (ResultSet rs = read.executeQuery()) {
                                    rs.next();
                                    return rs.getLong(1);
                                }
                            }
                        }
                    }));
                }
                executor.shutdown();
                assertTrue(executor.awaitTermination(5, TimeUnit.MINUTES), "virtual threads still running: deadlock?");
            }
            for (Future<Long> f : results) {
                assertTrue(f.get() >= 1); // get() rethrows what a task threw
            }
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT task) FROM hits")) {
                    rs.next();
                    assertEquals(TASKS, rs.getInt(1));
                    assertEquals(TASKS, rs.getInt(2));
                }
                try (ResultSet rs = s.executeQuery("SELECT n FROM counter")) {
                    rs.next();
                    assertEquals(TASKS, rs.getInt(1));
                }
            }
            assertEquals(0, pool.getHikariPoolMXBean().getActiveConnections());
        }
    }
}
