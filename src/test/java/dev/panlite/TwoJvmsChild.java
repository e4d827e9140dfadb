package dev.panlite;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run twice at once by {@link ContentionTest} (two JVMs, one file): 4 writer threads, each with its
 * own connection and the default settings but busy_timeout=5000, run read-then-write transactions
 * (read the counter, write it back plus one, log a row) until the file's counter reaches
 * {@code args[1]}. Prints "ready", starts on a line from stdin, and ends printing
 * "commits=N failed=F" (F: transactions that failed; the first failure's message follows).
 */
public final class TwoJvmsChild {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + args[0] + "?busy_timeout=5000";
        long target = Long.parseLong(args[1]);
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            connections.add(new Driver().connect(url, new Properties()));
        }
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        AtomicLong commits = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<String> firstFailure = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (Connection c : connections) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    c.setAutoCommit(false);
                    while (true) {
                        try {
                            long n;
                            try (PreparedStatement read = c.prepareStatement("SELECT c FROM n WHERE k = 1");
                                    ResultSet rs = read.executeQuery()) {
                                rs.next();
                                n = rs.getLong(1);
                            }
                            if (n >= target) {
                                c.rollback();
                                return;
                            }
                            try (PreparedStatement up = c.prepareStatement("UPDATE n SET c = ? WHERE k = 1")) {
                                up.setLong(1, n + 1);
                                up.executeUpdate();
                            }
                            try (PreparedStatement log = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                                log.setString(1, ProcessHandle.current().pid() + "-" + n);
                                log.executeUpdate();
                            }
                            c.commit();
                            commits.incrementAndGet();
                        } catch (SQLException e) {
                            failed.incrementAndGet();
                            firstFailure.add(e.toString());
                            c.rollback();
                        }
                    }
                } catch (SQLException e) {
                    failed.incrementAndGet();
                    firstFailure.add(e.toString());
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Connection c : connections) {
            c.close();
        }
        System.out.println("commits=" + commits.get() + " failed=" + failed.get());
        if (!firstFailure.isEmpty()) {
            System.out.println(firstFailure.get(0));
        }
    }
}
