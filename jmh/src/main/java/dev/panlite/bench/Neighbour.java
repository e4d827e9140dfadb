package dev.panlite.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Another process on the contention benchmark's file (issue 18), started beside the measured JVM:
 * <ul>
 *   <li>{@code jvm}: a second JVM running the same workload with the same driver on the same file;
 *   <li>{@code shell}: the sqlite3 shell with {@code .timeout 5000}, one INSERT every 100 ms, each
 *       timed ({@code .timer on}): how long a polling writer of another process waits;
 *   <li>{@code litestream}: {@code litestream replicate} to a file replica (the binary from
 *       {@code $LITESTREAM}, default {@code litestream} on the PATH), its control socket at
 *       {@link #litestreamSocket} (a Panlite row names it as {@code litestream_socket={litestream.sock}}).
 * </ul>
 * Whatever the kind, the WAL's size is sampled every 50 ms. {@link #stop} ends the process and
 * returns {@code key=value} fields for the result line.
 */
final class Neighbour {
    private final String kind;
    private final Path file;
    private final Process process;
    private final List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Thread reader;
    private final Thread walSampler;
    private volatile long walMax;
    private volatile boolean running = true;

    private Neighbour(String kind, Path file, Process process) {
        this.kind = kind;
        this.file = file;
        this.process = process;
        this.reader = process == null ? null : Thread.ofPlatform().daemon().start(this::read);
        this.walSampler = Thread.ofPlatform().daemon().start(this::sampleWal);
    }

    /** Starts the neighbour of {@code kind} ("none" for none) on {@code file}; {@code childArgs} are Contention's. */
    static Neighbour start(String kind, Path file, String[] childArgs, int warmupMillis, int seconds) throws IOException {
        ProcessBuilder pb = switch (kind) {
            case "none" -> null;
            case "jvm" -> {
                String javaCmd = ProcessHandle.current().info().command().orElseThrow();
                List<String> cmd = new ArrayList<>(List.of(javaCmd));
                cmd.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
                cmd.add("-Dcontention.file=" + file);
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Contention.class.getName()));
                for (int i = 0; i < Math.min(childArgs.length, 7); i++) {
                    cmd.add(childArgs[i]);
                }
                yield new ProcessBuilder(cmd);
            }
            case "shell" -> {
                StringBuilder script = new StringBuilder(".timeout 5000\n.shell sleep " + warmupMillis / 1000.0 + "\n"
                        + "CREATE TABLE IF NOT EXISTS shell(id INTEGER PRIMARY KEY, at INTEGER);\n.timer on\n");
                for (int i = 0; i < seconds * 10; i++) {
                    script.append("INSERT INTO shell(at) VALUES (").append(i).append(");\n.shell sleep 0.1\n");
                }
                Path sql = Files.createTempFile("neighbour", ".sql");
                Files.writeString(sql, script);
                sql.toFile().deleteOnExit();
                yield new ProcessBuilder(System.getenv().getOrDefault("SQLITE3", "sqlite3"), file.toString())
                        .redirectInput(sql.toFile());
            }
            case "litestream" -> {
                Path replica = file.resolveSibling("replica");
                Path config = file.resolveSibling("litestream.yml");
                Files.writeString(config, "logging:\n  level: trace\nsocket:\n  enabled: true\n  path: " + litestreamSocket(file)
                        + "\ndbs:\n  - path: " + file + "\n"
                        + System.getenv().getOrDefault("LITESTREAM_DB_SETTINGS", "    monitor-interval: 1s\n") + "    replica:\n      type: file\n      path: "
                        + replica + "\n");
                yield new ProcessBuilder(System.getenv().getOrDefault("LITESTREAM", "litestream"), "replicate", "-config",
                        config.toString());
            }
            default -> throw new IllegalArgumentException("other process: none, jvm, shell or litestream, not " + kind);
        };
        Process p = pb == null ? null : pb.redirectErrorStream(true).start();
        return new Neighbour(kind, file, p);
    }

    /** Where the Litestream of {@code litestream} listens (its config's socket.path): beside the database. */
    static Path litestreamSocket(Path file) {
        return file.resolveSibling("litestream.sock");
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                output.add(line);
            }
        } catch (IOException e) {
            output.add("(reading the other process failed: " + e + ")");
        }
    }

    private void sampleWal() {
        Path wal = file.resolveSibling(file.getFileName() + "-wal");
        while (running) {
            try {
                walMax = Math.max(walMax, Files.size(wal));
            } catch (IOException e) {
                // no WAL yet
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Ends the neighbour (a jvm child ends by itself) and returns its fields for the result line. */
    String stop() throws Exception {
        running = false;
        StringBuilder fields = new StringBuilder(String.format(Locale.ROOT, " other=%s wal_max_mib=%.1f", kind,
                walMax / 1048576.0));
        if (process == null) {
            return fields.toString();
        }
        if (kind.equals("jvm")) {
            process.waitFor(120, TimeUnit.SECONDS);
        } else {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(5000);
        List<String> lines;
        synchronized (output) {
            lines = new ArrayList<>(output);
        }
        String log = System.getenv("NEIGHBOUR_LOG"); // the other process's whole output, to look into
        if (log != null) {
            Files.write(Path.of(log), lines);
        }
        switch (kind) {
            case "jvm" -> {
                String child = lines.stream().filter(l -> l.startsWith("result ")).findFirst().orElse("");
                fields.append(" other_commits_per_s=").append(field(child, "commits_per_s"))
                        .append(" other_failed_tx=").append(field(child, "failed_tx"));
                if (child.isEmpty()) {
                    lines.stream().limit(20).forEach(l -> System.out.println("other: " + l));
                }
            }
            case "shell" -> {
                List<Double> waits = new ArrayList<>();
                int failed = 0;
                for (String l : lines) {
                    if (l.startsWith("Run Time: real ")) {
                        waits.add(Double.parseDouble(l.substring("Run Time: real ".length()).split(" ")[0]) * 1000);
                    } else if (l.contains("locked") || l.contains("rror")) {
                        failed++;
                        System.out.println("other: " + l);
                    }
                }
                waits.sort(null);
                double max = waits.isEmpty() ? Double.NaN : waits.get(waits.size() - 1);
                double p50 = waits.isEmpty() ? Double.NaN : waits.get(waits.size() / 2);
                fields.append(String.format(Locale.ROOT, " other_writes=%d other_failed=%d other_wait_p50_ms=%.1f"
                        + " other_wait_max_ms=%.1f", waits.size(), failed, p50, max));
            }
            default -> {
                // Litestream's own account at trace level: checkpoints done, and those skipped as the database was busy
                fields.append(" litestream_checkpoints=").append(lines.stream()
                        .filter(l -> l.contains("msg=checkpoint ")).count())
                        .append(" litestream_busy=").append(lines.stream().filter(l -> l.contains("database busy")).count());
                lines.stream().filter(l -> l.contains("level=ERROR")).limit(3).forEach(l -> System.out.println("other: " + l));
            }
        }
        return fields.toString();
    }

    private static String field(String line, String key) {
        for (String kv : line.split(" ")) {
            if (kv.startsWith(key + "=")) {
                return kv.substring(key.length() + 1);
            }
        }
        return "NaN";
    }
}
