package dev.panlite.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Many writers and readers on one SQLite file through one HikariCP pool (issue 11): not a JMH
 * benchmark, since what matters is throughput and the latency distribution under contention.
 * Run by {@code ./bench --contention}, one JVM per configuration and run.
 *
 * <p>Writers run read-then-write transactions: SELECT a counter, UPDATE it, INSERT a log row,
 * COMMIT (auto-commit off for the transaction, back on after). Readers run point queries in
 * auto-commit mode. A failed transaction is rolled back and counted, not retried. Latencies
 * include borrowing the connection from the pool, as a request handler sees them; only operations
 * that start and end inside the measured window count (not the warm-up's stragglers).
 *
 * <p>Each user (writer or reader) makes one request after the other. With virtual threads each
 * request runs in a new virtual thread, as a server with a thread per request runs it. Two
 * shortcuts starve whole classes of users whichever driver runs, so neither is used: a loop in one
 * virtual thread (never preempted, it returns its connection and borrows it straight back from
 * HikariCP's thread-local list, so the first 8 threads keep the pool), and such a loop that
 * {@code Thread.yield()}s after each request (a yielding virtual thread goes to the scheduler's
 * external queue when its carrier's own queue is empty, and the carriers serve their own queues
 * first: a thread dump during a run showed 199 writers runnable in {@code Thread.yield} for over
 * 150 ms while the readers cycled; whole runs completed 0 commits, both drivers lost writers).
 * Platform threads loop and yield (the OS schedules them fairly).
 *
 * <pre>
 * java -cp benchmarks.jar dev.panlite.bench.Contention DRIVER THREADS WRITERS READERS SECONDS POOL [EXTRA_URL_PARAMS]
 *   DRIVER  panlite | xerial        THREADS platform | virtual
 * </pre>
 * Prints one line: {@code result driver=... commits=... } (parsed by the bench script).
 */
public final class Contention {
    static final int ROWS = 10_000;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--summary")) {
            summary(Path.of(args[1]));
            return;
        }
        String driver = args[0];
        boolean virtual = args[1].equals("virtual");
        int writers = Integer.parseInt(args[2]);
        int readers = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        int poolSize = Integer.parseInt(args[5]);
        String extra = args.length > 6 && !args[6].isEmpty() && !args[6].equals("-") ? args[6] : null;
        String other = args.length > 7 ? args[7] : "none";
        String given = System.getProperty("contention.file"); // the second JVM of other=jvm: the first one's file

        Drivers.Target base = Drivers.target(driver);
        Path file = given != null ? Path.of(given) : Drivers.newDatabaseFile();
        // {litestream.sock}: the control socket of the Litestream that other=litestream starts (Neighbour)
        String params = "journal_mode=WAL&synchronous=NORMAL&busy_timeout=5000&secure_delete=false"
                + (extra == null ? "" : "&" + extra.replace("{litestream.sock}", Neighbour.litestreamSocket(file).toString()));
        Drivers.Target target = new Drivers.Target(base.name(), base.driver(), params);
        if (given == null) {
            try (Connection c = target.connect(file); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
                s.executeUpdate("CREATE TABLE log(id INTEGER PRIMARY KEY, counter INTEGER NOT NULL, n INTEGER NOT NULL)");
                s.executeUpdate("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < " + ROWS
                        + ") INSERT INTO counter SELECT i, 0 FROM k");
            }
        }
        int warmupMillis = (int) Math.min(2000, seconds * 250L);
        Neighbour neighbour = Neighbour.start(given == null ? other : "none", file, args, warmupMillis, seconds);
        HikariConfig config = new HikariConfig();
        config.setPoolName("contention-" + driver);
        config.setDataSource(new PooledBench.DriverDataSource(target, file));
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setConnectionTimeout(60_000);
        config.setAutoCommit(true);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicBoolean measuring = new AtomicBoolean(false);
        LongAdder commits = new LongAdder();
        LongAdder failures = new LongAdder();
        LongAdder reads = new LongAdder();
        List<String> failureKinds = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Samples> writeSamples = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Samples> readSamples = java.util.Collections.synchronizedList(new ArrayList<>());
        // the part of each latency spent waiting for the pool's connection (where the time goes: pool or driver)
        List<Samples> writePoolWaits = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Samples> readPoolWaits = java.util.Collections.synchronizedList(new ArrayList<>());
        try (HikariDataSource pool = new HikariDataSource(config)) {
            List<Thread> threads = new ArrayList<>();
            Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
            for (int i = 0; i < writers; i++) {
                Samples samples = new Samples();
                Samples poolWaits = new Samples();
                writeSamples.add(samples);
                writePoolWaits.add(poolWaits);
                threads.add(builder.start(user(virtual, running, () -> {
                    long[] borrowed = new long[1];
                    boolean inWindow = measuring.get();
                    long start = System.nanoTime();
                    boolean ok = writeTransaction(pool, ThreadLocalRandom.current().nextInt(1, ROWS + 1), failureKinds,
                            borrowed);
                    long nanos = System.nanoTime() - start;
                    if (inWindow && measuring.get()) {
                        if (ok) {
                            commits.increment();
                            samples.add(nanos);
                            poolWaits.add(borrowed[0] - start);
                        } else {
                            failures.increment();
                            samples.failed++;
                        }
                    }
                })));
            }
            for (int i = 0; i < readers; i++) {
                Samples samples = new Samples();
                Samples poolWaits = new Samples();
                readSamples.add(samples);
                readPoolWaits.add(poolWaits);
                threads.add(builder.start(user(virtual, running, () -> {
                    long[] borrowed = new long[1];
                    boolean inWindow = measuring.get();
                    long start = System.nanoTime();
                    boolean ok = pointRead(pool, ThreadLocalRandom.current().nextInt(1, ROWS + 1), failureKinds, borrowed);
                    long nanos = System.nanoTime() - start;
                    if (inWindow && measuring.get() && ok) {
                        reads.increment();
                        samples.add(nanos);
                        poolWaits.add(borrowed[0] - start);
                    }
                })));
            }
            Thread.sleep(warmupMillis); // warm-up: JIT, pool, page cache
            measuring.set(true);
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            measuring.set(false);
            double elapsed = (System.nanoTime() - t0) / 1e9;
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
            // threads that finished nothing in the whole window: latency percentiles cannot see them
            long starvedWriters = writeSamples.stream().filter(x -> x.size == 0 && x.failed == 0).count();
            long starvedReaders = readSamples.stream().filter(x -> x.size == 0).count();
            long[] w = merge(writeSamples);
            long[] r = merge(readSamples);
            long[] wp = merge(writePoolWaits);
            long[] rp = merge(readPoolWaits);
            String neighbourFields = neighbour.stop();
            System.out.printf(Locale.ROOT,
                    "result driver=%s threads=%s writers=%d readers=%d extra=%s commits_per_s=%.0f reads_per_s=%.0f"
                            + " failed_tx=%d failed_pct=%.1f write_p50_ms=%.3f write_p99_ms=%.3f write_max_ms=%.1f"
                            + " read_p50_ms=%.3f read_p99_ms=%.3f read_max_ms=%.1f starved_writers=%d starved_readers=%d"
                            + " write_pool_p99_ms=%.3f read_pool_p99_ms=%.3f%s%n",
                    driver, virtual ? "virtual" : "platform", writers, readers, extra == null ? "-" : extra,
                    commits.sum() / elapsed, reads.sum() / elapsed, failures.sum(),
                    100.0 * failures.sum() / Math.max(1, failures.sum() + commits.sum()),
                    ms(pct(w, 50)), ms(pct(w, 99)), ms(w.length == 0 ? 0 : w[w.length - 1]),
                    ms(pct(r, 50)), ms(pct(r, 99)), ms(r.length == 0 ? 0 : r[r.length - 1]), starvedWriters,
                    starvedReaders, ms(pct(wp, 99)), ms(pct(rp, 99)), neighbourFields);
            synchronized (failureKinds) {
                failureKinds.stream().distinct().limit(3).forEach(k -> System.out.println("failure: " + k));
            }
        } finally {
            if (given == null) {
                Drivers.deleteDatabase(file);
            }
        }
        System.exit(0);
    }

    /**
     * One user: requests one after the other until the run ends. With virtual threads each request
     * runs in a thread of its own, as a server with a virtual thread per request runs it (Tomcat,
     * Jetty, Helidon); the user waits for it. With platform threads the user's thread runs it and
     * yields after it.
     */
    private static Runnable user(boolean virtual, AtomicBoolean running, Runnable request) {
        return () -> {
            while (running.get()) {
                if (virtual) {
                    Thread t = Thread.ofVirtual().start(request);
                    boolean interrupted = false;
                    while (true) {
                        try {
                            t.join();
                            break;
                        } catch (InterruptedException e) {
                            interrupted = true;
                        }
                    }
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                } else {
                    request.run();
                    Thread.yield(); // the request ends: another request's thread runs
                }
            }
        };
    }

    /** One read-then-write transaction; {@code borrowed[0]} gets the System.nanoTime at which the pool gave the connection. */
    private static boolean writeTransaction(HikariDataSource pool, int id, List<String> failureKinds, long[] borrowed) {
        try (Connection c = pool.getConnection()) {
            borrowed[0] = System.nanoTime();
            c.setAutoCommit(false);
            try {
                long n;
                try (PreparedStatement select = c.prepareStatement("SELECT n FROM counter WHERE id = ?")) {
                    select.setInt(1, id);
                    try (ResultSet rs = select.executeQuery()) {
                        rs.next();
                        n = rs.getLong(1);
                    }
                }
                try (PreparedStatement update = c.prepareStatement("UPDATE counter SET n = ? WHERE id = ?")) {
                    update.setLong(1, n + 1);
                    update.setInt(2, id);
                    update.executeUpdate();
                }
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO log(counter, n) VALUES (?, ?)")) {
                    insert.setInt(1, id);
                    insert.setLong(2, n + 1);
                    insert.executeUpdate();
                }
                c.commit();
                return true;
            } catch (SQLException e) {
                note(failureKinds, e);
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection goes back to the pool, which rolls back again or evicts it
                }
                return false;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            note(failureKinds, e);
            return false;
        }
    }

    /** One point query; {@code borrowed[0]} as for {@link #writeTransaction}. */
    private static boolean pointRead(HikariDataSource pool, int id, List<String> failureKinds, long[] borrowed) {
        try (Connection c = pool.getConnection()) {
            borrowed[0] = System.nanoTime();
            return pointQuery(c, id);
        } catch (SQLException e) {
            note(failureKinds, e);
            return false;
        }
    }

    private static boolean pointQuery(Connection c, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, n FROM counter WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                rs.getLong(2);
            }
            return true;
        }
    }

    private static void note(List<String> kinds, SQLException e) {
        if (kinds.size() < 1000) {
            String m = String.valueOf(e.getMessage());
            kinds.add(m.length() > 160 ? m.substring(0, 160) : m);
        }
    }

    /** One thread's latencies (only that thread appends). */
    static final class Samples {
        long[] values = new long[1 << 12];
        int size;
        int failed;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }
    }

    private static long[] merge(List<Samples> all) {
        int n = 0;
        for (Samples s : all) {
            n += s.size;
        }
        long[] out = new long[n];
        int at = 0;
        for (Samples s : all) {
            System.arraycopy(s.values, 0, out, at, s.size);
            at += s.size;
        }
        Arrays.sort(out);
        return out;
    }

    private static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private Contention() {}

    private static final java.util.Map<String, String> OTHER = java.util.Map.of("jvm", ", a second JVM the same",
            "shell", ", the sqlite3 shell writing", "litestream", ", Litestream replicating");
    // shown without the bench's placeholder for the socket's path
    private static String settings(String extra) {
        return extra.replace("={litestream.sock}", "");
    }

    /**
     * The medians over runs of the result lines in {@code file}, one markdown row per configuration
     * (driver, threads, extra URL parameters), in the order they first appear.
     */
    static void summary(Path file) throws java.io.IOException {
        java.util.Map<String, List<java.util.Map<String, String>>> byConfig = new java.util.LinkedHashMap<>();
        for (String line : java.nio.file.Files.readAllLines(file)) {
            if (!line.startsWith("result ")) {
                continue;
            }
            java.util.Map<String, String> f = new java.util.HashMap<>();
            for (String kv : line.substring("result ".length()).split(" ")) {
                int eq = kv.indexOf('=');
                f.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            String key = f.get("threads") + " threads, " + f.get("writers") + " writers, " + f.get("readers")
                    + " readers | " + (f.get("driver").equals("xerial") ? "the incumbent" : "Panlite")
                    + (f.get("extra").equals("-") ? ", defaults" : ", " + settings(f.get("extra")))
                    + (f.getOrDefault("other", "none").equals("none") ? "" : OTHER.get(f.get("other")));
            byConfig.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        String[] cols = {"commits_per_s", "reads_per_s", "failed_pct", "write_p50_ms", "write_p99_ms", "write_max_ms",
                "read_p50_ms", "read_p99_ms", "read_max_ms", "write_pool_p99_ms", "read_pool_p99_ms", "starved_writers",
                "starved_readers", "wal_max_mib", "other_commits_per_s", "other_failed_tx", "other_wait_max_ms",
                "other_failed"};
        System.out.println("| threads | driver, settings | runs | commits/s | reads/s | failed tx | write p50 | write p99"
                + " | write max | read p50 | read p99 | read max | of which pool wait: write p99 | read p99"
                + " | writers starved (worst run) | readers starved (worst run) | WAL max (worst run) | other process: commits/s"
                + " | its failed tx | shell's longest wait (worst run) | shell's failed writes |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (var e : byConfig.entrySet()) {
            StringBuilder row = new StringBuilder("| " + e.getKey() + " | " + e.getValue().size());
            for (String col : cols) {
                double[] v = e.getValue().stream().mapToDouble(f -> Double.parseDouble(f.getOrDefault(col, "NaN")))
                        .sorted().toArray();
                // starvation, the shell's wait and failures: the worst run (a median would hide the one bad run)
                boolean worst = col.startsWith("starved") || col.equals("other_wait_max_ms") || col.equals("other_failed")
                        || col.equals("wal_max_mib"); // the WAL's bound must hold in every run
                double median = worst ? v[v.length - 1]
                        : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
                String cell;
                if (Double.isNaN(median)) {
                    cell = "–";
                } else if (col.equals("wal_max_mib")) {
                    cell = String.format(Locale.ROOT, "%.1f MiB", median);
                } else if (col.endsWith("per_s")) {
                    cell = median >= 10_000 ? String.format(Locale.ROOT, "%.1fk", median / 1000)
                            : String.format(Locale.ROOT, "%.0f", median);
                } else if (col.startsWith("starved") || col.endsWith("failed_tx") || col.equals("other_failed")) {
                    cell = String.format(Locale.ROOT, "%.0f", median);
                } else if (col.equals("failed_pct")) {
                    cell = String.format(Locale.ROOT, "%.1f%%", median);
                } else {
                    cell = median >= 10 ? String.format(Locale.ROOT, "%.0f ms", median)
                            : String.format(Locale.ROOT, "%.2f ms", median);
                }
                row.append(" | ").append(cell);
            }
            System.out.println(row.append(" |"));
        }
    }
}
