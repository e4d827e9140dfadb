package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints under the user's control (issue 18): {@link PanliteConnection#checkpoint}, the
 * wal_autocheckpoint setting (the driver's WAL hook), and the JFR events for each checkpoint and for
 * the WAL passing wal_size_mark.
 */
class CheckpointTest {
    @TempDir
    Path dir;

    private Connection open(String query) throws SQLException {
        Connection c = TestDb.open(dir, "journal_mode=WAL" + (query.isEmpty() ? "" : "&" + query));
        TestDb.exec(c, "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
        return c;
    }

    /** {@code n} auto-commit inserts: n commits, each adding frames to the WAL. */
    private static void commits(Connection c, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            for (int i = 0; i < n; i++) {
                ps.setString(1, "v" + i);
                ps.executeUpdate();
            }
        }
    }

    private static Checkpoint checkpoint(Connection c, CheckpointMode mode) throws SQLException {
        return c.unwrap(PanliteConnection.class).checkpoint(mode);
    }

    @Test
    void aPassiveCheckpointSaysHowManyFramesItCopied() throws SQLException {
        try (Connection c = open("wal_autocheckpoint=0")) {
            commits(c, 30);
            Checkpoint done = checkpoint(c, CheckpointMode.PASSIVE);
            assertTrue(done.walFrames() >= 30, done.toString());
            assertEquals(done.walFrames(), done.checkpointedFrames(), "nothing reads: every frame is copied");
            assertTrue(done.complete());
        }
    }

    @Test
    void truncateEmptiesTheWalFile() throws Exception {
        try (Connection c = open("wal_autocheckpoint=0")) {
            commits(c, 30);
            Path wal = dir.resolve("test.db-wal");
            assertTrue(Files.size(wal) > 0);
            Checkpoint done = checkpoint(c, CheckpointMode.TRUNCATE);
            assertTrue(done.complete(), done.toString());
            assertEquals(0, done.walFrames());
            assertEquals(0, Files.size(wal));
        }
    }

    @Test
    void aReaderStopsARestartShortAndTheResultSaysSo() throws SQLException {
        try (Connection c = open("wal_autocheckpoint=0"); Connection reader = open("")) {
            commits(c, 5);
            reader.setReadOnly(true); // a read-only transaction: deferred, no write gate
            reader.setAutoCommit(false);
            try (var s = reader.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM t")) {
                rs.next(); // the transaction holds a snapshot in the WAL
            }
            commits(c, 5);
            Checkpoint done = checkpoint(c, CheckpointMode.RESTART);
            assertFalse(done.complete(), done.toString());
            assertTrue(done.checkpointedFrames() < done.walFrames(), done.toString());
            reader.commit();
        }
    }

    @Test
    void misuseIsAnSqlException() throws SQLException {
        Connection c = open("");
        PanliteConnection p = c.unwrap(PanliteConnection.class);
        assertThrows(SQLException.class, () -> p.checkpoint(null));
        c.close();
        SQLException closed = assertThrows(SQLException.class, () -> p.checkpoint(CheckpointMode.PASSIVE));
        assertEquals("08003", closed.getSQLState());
    }

    @Test
    void outsideWalModeThereAreNoFrames() throws SQLException {
        try (Connection c = TestDb.open(dir, "journal_mode=DELETE")) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
            Checkpoint done = checkpoint(c, CheckpointMode.PASSIVE);
            assertEquals(new Checkpoint(-1, -1, true), done);
        }
    }

    @Test
    void theAutocheckpointSettingDecidesWhenTheWalIsCopiedBack() throws SQLException {
        try (Connection often = open("wal_autocheckpoint=10")) {
            commits(often, 60);
            // checkpointed every 10 pages, restarted by the next writer: the WAL never holds much
            assertTrue(checkpoint(often, CheckpointMode.PASSIVE).walFrames() < 30);
        }
        try (Connection never = open("wal_autocheckpoint=0")) {
            checkpoint(never, CheckpointMode.TRUNCATE);
            commits(never, 60);
            assertTrue(checkpoint(never, CheckpointMode.PASSIVE).walFrames() >= 60, "no checkpoint ran by itself");
        }
    }

    @Test
    void aCheckpointAReaderStopsShortIsNotRetriedAtEveryCommit() throws Exception {
        Path jfr = dir.resolve("events.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.panlite.Checkpoint");
            recording.start();
            try (Connection c = open("wal_autocheckpoint=10"); Connection reader = open("")) {
                commits(c, 20);
                reader.setReadOnly(true);
                reader.setAutoCommit(false);
                try (var s = reader.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM t")) {
                    rs.next(); // a snapshot the checkpoints cannot copy past (Litestream holds one like it)
                }
                commits(c, 100);
                reader.commit();
                recording.stop();
                recording.dump(jfr);
                long stoppedShort = RecordingFile.readAllEvents(jfr).stream()
                        .filter(e -> e.getEventType().getName().equals("dev.panlite.Checkpoint") && e.getBoolean("automatic")
                                && e.getInt("checkpointedFrames") < e.getInt("walFrames"))
                        .count();
                // SQLite's own autocheckpoint tries again at each of the 100 commits; this one every 10 pages
                assertTrue(stoppedShort >= 2 && stoppedShort <= 25, "checkpoints stopped short: " + stoppedShort);
            }
        }
    }

    @Test
    void checkpointsAndAWalPastItsMarkAreJfrEvents() throws Exception {
        Path jfr = dir.resolve("events.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.panlite.Checkpoint");
            recording.enable("dev.panlite.WalSize");
            recording.start();
            try (Connection auto = open("wal_autocheckpoint=10")) {
                commits(auto, 40);
            }
            try (Connection big = open("wal_autocheckpoint=0&wal_size_mark=20")) {
                checkpoint(big, CheckpointMode.TRUNCATE);
                commits(big, 60); // past the mark once: one event, not one per commit
                checkpoint(big, CheckpointMode.TRUNCATE);
                commits(big, 30); // past it again after the WAL was emptied: a second event
            }
            recording.stop();
            recording.dump(jfr);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        List<RecordedEvent> automatic = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.panlite.Checkpoint") && e.getBoolean("automatic"))
                .toList();
        assertTrue(automatic.size() >= 2, "autocheckpoints: " + automatic.size());
        assertTrue(automatic.stream().allMatch(e -> e.getString("mode").equals("PASSIVE")),
                "the driver runs nothing but PASSIVE by itself");
        assertTrue(automatic.stream().allMatch(e -> e.getInt("walFrames") >= 10 && e.getString("file").endsWith("test.db")));
        assertEquals(2, events.stream().filter(e -> e.getEventType().getName().equals("dev.panlite.Checkpoint")
                && e.getString("mode").equals("TRUNCATE") && !e.getBoolean("automatic")).count());
        List<RecordedEvent> sizes = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.panlite.WalSize")).toList();
        assertEquals(2, sizes.size(), sizes.toString());
        assertTrue(sizes.stream().allMatch(e -> e.getInt("walFrames") >= 20 && e.getInt("mark") == 20));
    }
}
