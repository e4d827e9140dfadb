package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteStats;
import dev.panlite.TestDb;
import java.io.ByteArrayOutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Litestream's sync requests and back-pressure waits reach the metrics of their database
 * (PanliteStats, the panlite.litestream.* meters) and JFR (dev.panlite.LitestreamSync,
 * dev.panlite.LitestreamWait), through LitestreamCounts.
 */
class LitestreamCountsTest {
    @TempDir
    Path dir;

    private String url(Path db, Path socket, int waitPages) {
        return "jdbc:sqlite:" + db + "?journal_mode=WAL&wal_autocheckpoint=0&litestream_sync_pages=1000"
                + "&litestream_wait_pages=" + waitPages + "&litestream_socket=" + socket;
    }

    /** Waits (at most 30 s: a hang guard) until the database's counts satisfy {@code done}; the background sender counts last. */
    private static PanliteStats awaitStats(String database, Predicate<PanliteStats> done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        PanliteStats s = PanliteStats.snapshot(database);
        while (!done.test(s)) {
            assertTrue(System.nanoTime() < deadline, "counts never got there: " + s);
            Thread.sleep(10);
            s = PanliteStats.snapshot(database);
        }
        return s;
    }

    private static List<RecordedEvent> events(Path jfr, String name) throws Exception {
        return RecordingFile.readAllEvents(jfr).stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    @Test
    void aRequestToASocketNobodyListensOnIsCountedAsFailedForItsDatabase() throws Exception {
        Path jfr = dir.resolve("failed.jfr");
        PanliteStats before = PanliteStats.snapshot("nobody.db");
        PanliteStats total = PanliteStats.snapshot();
        try (Recording recording = new Recording()) {
            recording.enable("dev.panlite.LitestreamSync");
            recording.start();
            try (Connection c = DriverManager.getConnection(url(dir.resolve("nobody.db"), dir.resolve("absent.sock"), 100_000))) {
                TestDb.exec(c, "CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)");
                for (int commits = 0; PanliteStats.snapshot("nobody.db").litestreamSyncRequests() == before.litestreamSyncRequests(); ) {
                    TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))"); // a page each: the WAL passes 1000 pages
                    assertTrue(++commits < 5_000, "no request was sent");
                }
            }
            PanliteStats after = awaitStats("nobody.db", s -> s.litestreamSyncFailed() == s.litestreamSyncRequests());
            recording.stop();
            recording.dump(jfr);
            assertTrue(after.litestreamSyncRequests() - before.litestreamSyncRequests() >= 1, after.toString());
            assertEquals(before.litestreamSyncAnswered(), after.litestreamSyncAnswered());
            assertEquals(0, after.litestreamWaits() - before.litestreamWaits(), "no writer waits for a socket that fails");
            assertTrue(PanliteStats.snapshot().litestreamSyncFailed() - total.litestreamSyncFailed() >= 1, "in the total too");
        }
        RecordedEvent request = events(jfr, "dev.panlite.LitestreamSync").get(0);
        assertEquals("nobody.db", request.getString("database"));
        assertFalse(request.getBoolean("answered"));
        assertFalse(request.getString("outcome").isEmpty());
    }

    @Test
    void aWriterThatWaitsForTheRequestInFlightAndTheAnswerAreCounted() throws Exception {
        Path socket = dir.resolve("ls.sock");
        Path jfr = dir.resolve("answered.jfr");
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        AtomicReference<Throwable> serverFailure = new AtomicReference<>();
        PanliteStats before = PanliteStats.snapshot("waits.db");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                Recording recording = new Recording()) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Thread fake = Thread.ofPlatform().daemon().start(() -> { // a Litestream that answers one request when told
                try (SocketChannel c = server.accept()) {
                    ByteArrayOutputStream in = new ByteArrayOutputStream();
                    ByteBuffer buffer = ByteBuffer.allocate(4096);
                    while (!in.toString(StandardCharsets.UTF_8).endsWith("}") && c.read(buffer.clear()) >= 0) {
                        in.write(buffer.array(), 0, buffer.position());
                    }
                    received.countDown();
                    answer.await();
                    byte[] body = "{\"status\":\"synced_local\",\"txid\":1}".getBytes(StandardCharsets.UTF_8);
                    c.write(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8)));
                    c.write(ByteBuffer.wrap(body));
                } catch (Throwable t) {
                    serverFailure.set(t);
                }
            });
            recording.enable("dev.panlite.LitestreamSync");
            recording.enable("dev.panlite.LitestreamWait");
            recording.start();
            try (Connection c = DriverManager.getConnection(url(dir.resolve("waits.db"), socket, 1000))) {
                TestDb.exec(c, "CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)");
                for (int commits = 0; received.getCount() > 0; ) {
                    TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))");
                    assertTrue(++commits < 5_000, "no request reached the socket");
                }
                // the WAL is past litestream_wait_pages and the request is in flight, unanswered: the next writer
                // waits for it, at most its bound, then goes on
                TestDb.exec(c, "INSERT INTO b(x) VALUES (1)");
                PanliteStats waited = PanliteStats.snapshot("waits.db");
                assertEquals(1, waited.litestreamWaits() - before.litestreamWaits(), waited.toString());
                assertTrue(waited.litestreamWaitTime().compareTo(before.litestreamWaitTime()) > 0);
                assertEquals(1, waited.litestreamSyncRequests() - before.litestreamSyncRequests());
            }
            answer.countDown();
            fake.join(TimeUnit.SECONDS.toMillis(30));
            assertEquals(null, serverFailure.get());
            awaitStats("waits.db", s -> s.litestreamSyncAnswered() - before.litestreamSyncAnswered() == 1);
            recording.stop();
            recording.dump(jfr);
        }
        RecordedEvent request = events(jfr, "dev.panlite.LitestreamSync").get(0);
        assertTrue(request.getBoolean("answered"), request.toString());
        assertEquals("waits.db", request.getString("database"));
        RecordedEvent wait = events(jfr, "dev.panlite.LitestreamWait").get(0);
        assertEquals("waits.db", wait.getString("database"));
        assertTrue(wait.getBoolean("cut"), "the answer came after the writer's bound: " + wait);
    }
}
