package dev.panlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Measures the process's resident memory (RSS) across driver workloads, for
 * docs/experiments/006-native-memory.md. Not a test: memory is measured, never asserted.
 *
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp target/classes:target/test-classes \
 *       dev.panlite.NativeMemoryProbe leak|distinct|reopen [count]
 * </pre>
 *
 * leak: opens {@code count} connections (default 5,000), each reads a table, none is closed.
 * distinct: {@code count} (default 1,000,000) prepare/execute/close cycles of distinct SQL on one connection.
 * reopen: {@code count} (default 100,000) open/query/close cycles.
 */
public final class NativeMemoryProbe {
    private NativeMemoryProbe() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "leak";
        Path dir = Files.createTempDirectory("panlite-memory");
        String url = "jdbc:sqlite:" + dir.resolve("probe.db");
        Driver driver = new Driver();
        try (Connection c = driver.connect(url, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT)");
            s.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 100) "
                    + "INSERT INTO t SELECT i, printf('%.200c', 'x') FROM n");
        }
        int count;
        long[] samples;
        switch (mode) {
            case "leak" -> {
                count = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
                warmUp(driver, url);
                long before = rssKiB();
                for (int i = 0; i < count; i++) {
                    Connection c = driver.connect(url, new Properties());
                    read(c, "SELECT count(*), sum(length(body)) FROM t");
                    // not closed: dropped
                }
                long after = rssKiB();
                print(mode, count, before, after);
            }
            case "distinct" -> {
                count = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
                try (Connection c = driver.connect(url, new Properties())) {
                    warmUp(driver, url);
                    long before = rssKiB();
                    samples = new long[5];
                    for (int i = 0; i < count; i++) {
                        try (PreparedStatement ps = c.prepareStatement("SELECT body FROM t WHERE id = ? + " + i)) {
                            ps.setInt(1, i % 1000);
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                            }
                        }
                        if ((i + 1) % (count / samples.length) == 0) {
                            samples[(i + 1) / (count / samples.length) - 1] = rssKiB();
                        }
                    }
                    print(mode, count, before, samples);
                }
            }
            case "reopen" -> {
                count = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
                warmUp(driver, url);
                long before = rssKiB();
                samples = new long[5];
                for (int i = 0; i < count; i++) {
                    try (Connection c = driver.connect(url, new Properties())) {
                        read(c, "SELECT body FROM t WHERE id = " + (i % 1000 + 1));
                    }
                    if ((i + 1) % (count / samples.length) == 0) {
                        samples[(i + 1) / (count / samples.length) - 1] = rssKiB();
                    }
                }
                print(mode, count, before, samples);
            }
            default -> throw new IllegalArgumentException("mode: leak, distinct or reopen");
        }
    }

    private static void warmUp(Driver driver, String url) throws SQLException {
        for (int i = 0; i < 200; i++) {
            try (Connection c = driver.connect(url, new Properties())) {
                read(c, "SELECT count(*), sum(length(body)) FROM t");
            }
        }
    }

    private static void read(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
        }
    }

    private static void print(String mode, int count, long before, long... after) {
        StringBuilder line = new StringBuilder(mode + " " + count + ": RSS before " + before / 1024 + " MiB");
        for (long a : after) {
            line.append(", ").append(a / 1024).append(" MiB");
        }
        line.append("; growth ").append((after[after.length - 1] - before) / 1024).append(" MiB");
        System.out.println(line);
    }

    private static long rssKiB() throws java.io.IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
