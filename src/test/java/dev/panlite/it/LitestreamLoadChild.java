package dev.panlite.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Run by {@link LitestreamTest} in its own JVM, which the test kills with SIGKILL: writers of a
 * HikariCP pool insert rows into {@code ack(id, at)} of the database {@code args[0]}, one row per
 * transaction, until killed. After each commit returns, the writer appends "{@code id millis}" to the
 * log {@code args[1]}, outside the database: the acknowledged commits. Prints "running" after the
 * first one, and "FAILED ..." for a transaction that failed.
 */
public final class LitestreamLoadChild {
    public static void main(String[] args) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:sqlite:" + args[0] + "?journal_mode=WAL&synchronous=NORMAL&busy_timeout=5000");
        config.setMaximumPoolSize(4);
        int writers = 4;
        try (HikariDataSource pool = new HikariDataSource(config);
                OutputStream log = new FileOutputStream(args[1], true)) {
            Object logLock = new Object();
            boolean[] announced = {false};
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    while (true) {
                        long id;
                        try (Connection c = pool.getConnection()) {
                            c.setAutoCommit(false);
                            try (PreparedStatement ps = c.prepareStatement(
                                    "INSERT INTO ack(at) VALUES (?) RETURNING id")) {
                                ps.setLong(1, System.currentTimeMillis());
                                try (ResultSet rs = ps.executeQuery()) {
                                    rs.next();
                                    id = rs.getLong(1);
                                }
                            }
                            c.commit();
                            c.setAutoCommit(true);
                        } catch (Exception e) {
                            System.out.println("FAILED " + e); // the test fails on it: it expects no failed transaction
                            System.out.flush();
                            continue;
                        }
                        long acked = System.currentTimeMillis(); // the commit returned: acknowledged
                        synchronized (logLock) {
                            try {
                                log.write((id + " " + acked + "\n").getBytes(StandardCharsets.US_ASCII));
                                log.flush();
                                if (!announced[0]) {
                                    announced[0] = true;
                                    System.out.println("running");
                                    System.out.flush();
                                }
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        }
                        try {
                            Thread.sleep(1); // a paced load: Litestream shares the test machine's cores
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
