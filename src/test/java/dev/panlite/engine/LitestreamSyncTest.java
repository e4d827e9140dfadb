package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import dev.panlite.TestThreads;
import java.io.ByteArrayOutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * litestream_socket without Litestream (docs/experiments/041): a socket that answers when the test
 * says so shows that a commit past the mark hands the request to a background thread (the commit
 * returns while the request is unanswered), what the request says, and that a writer waits for it
 * once the WAL is past the hard mark, until the answer. A socket that accepts and never answers
 * costs the writers one wait in all, logs one warning, and delays no other socket's requests.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LitestreamSyncTest {
    /** The size of a WAL holding {@code frames} frames of 4 KiB pages (the header, then a 24-byte header per frame). */
    private static long walBytes(long frames) {
        return 32 + frames * (4096 + 24);
    }

    @TempDir
    Path dir;

    /** One request the fake Litestream received, held open until answered. */
    record Request(SocketChannel channel, String text) {
        void answer() throws Exception {
            byte[] body = "{\"status\":\"synced_local\",\"txid\":1}".getBytes(StandardCharsets.UTF_8);
            channel.write(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.UTF_8)));
            channel.write(ByteBuffer.wrap(body));
            channel.close();
        }

        /** True while the driver keeps its end open (it has not given the request up). */
        boolean stillOpenByTheDriver() throws Exception {
            channel.configureBlocking(false);
            return channel.read(ByteBuffer.allocate(1)) == 0; // -1: the driver closed it; a byte: it sent more than one request
        }
    }

    /** A fake Litestream on {@code socket}: accepts, reads each request, and queues it unanswered. */
    private static ServerSocketChannel fakeLitestream(Path socket, BlockingQueue<Request> requests, AtomicReference<Throwable> failure)
            throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    SocketChannel c = server.accept();
                    ByteArrayOutputStream in = new ByteArrayOutputStream();
                    ByteBuffer buffer = ByteBuffer.allocate(4096);
                    while (!in.toString(StandardCharsets.UTF_8).endsWith("}")) { // the JSON body ends the request
                        buffer.clear();
                        if (c.read(buffer) < 0) {
                            break;
                        }
                        in.write(buffer.array(), 0, buffer.position());
                    }
                    requests.add(new Request(c, in.toString(StandardCharsets.UTF_8)));
                }
            } catch (java.nio.channels.ClosedChannelException e) {
                // the test closed the server: done
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        return server;
    }

    private static String url(Path db, Path socket, int syncPages, int waitPages) {
        return "jdbc:sqlite:" + db + "?journal_mode=WAL&wal_autocheckpoint=0&litestream_sync_pages=" + syncPages
                + "&litestream_wait_pages=" + waitPages + "&litestream_socket=" + socket;
    }

    /** The driver's log records at WARNING and above that name {@code socket}, from now on (close to stop). */
    private static final class Warnings extends Handler implements AutoCloseable {
        private final Logger logger = Logger.getLogger("dev.panlite");
        private final String socket;
        private final List<String> messages = new ArrayList<>();

        Warnings(Path socket) {
            this.socket = socket.toString();
            logger.addHandler(this);
        }

        @Override
        public synchronized void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue() && r.getMessage().contains(socket)) {
                messages.add(r.getMessage());
            }
        }

        synchronized List<String> messages() {
            return List.copyOf(messages);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }

    @Test
    void aCommitPastTheMarkAsksInTheBackgroundAndPastTheHardMarkWritersWaitForTheAnswer() throws Exception {
        Path socket = dir.resolve("ls.sock");
        Path db = dir.resolve("test.db");
        Path wal = dir.resolve("test.db-wal");
        BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
        AtomicReference<Throwable> serverFailure = new AtomicReference<>();
        try (ServerSocketChannel server = fakeLitestream(socket, requests, serverFailure)) {
            // the driver's autocheckpoint off: only the (fake) Litestream could checkpoint, and it never does
            try (Connection c = DriverManager.getConnection(url(db, socket, 1000, 3000))) {
                TestDb.exec(c, "CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)");
                LitestreamSync sync = LitestreamSync.of(socket.toString(), db.toAbsolutePath().toString(), 1000, 3000);
                int commits = 0;
                while (requests.isEmpty()) { // each commit returns although the request it started is not answered
                    TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))");
                    assertTrue(++commits < 100_000, "no request reached the socket");
                    assertEquals(null, serverFailure.get());
                }
                Request first = requests.take();
                assertTrue(first.text().startsWith("POST /sync HTTP/1.1"), first.text());
                assertTrue(first.text().contains("\"path\":\"" + db.toAbsolutePath() + "\"") && first.text().contains("\"wait\":false"),
                        first.text());
                assertTrue(Files.size(wal) >= walBytes(1000), "asked before the WAL reached the mark: " + Files.size(wal));

                // up to litestream_wait_pages with the request still in flight: the commit that reaches the
                // mark is the last one that took the gate below it, so none of these waited
                while (Files.size(wal) < walBytes(3000)) {
                    TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))");
                }
                assertTrue(requests.isEmpty(), "a second request while the first was in flight");
                assertEquals(0, sync.counts()[2], "a writer waited below the hard mark: " + Arrays.toString(sync.counts()));
                TestThreads threads = new TestThreads();
                threads.start("writer", () -> {
                    try (Connection w = DriverManager.getConnection(url(db, socket, 1000, 3000))) {
                        TestDb.exec(w, "INSERT INTO b(x) VALUES (1)");
                    }
                });
                // the writer starts waiting for the answer (the signal: the count of waits), then the answer lets it go
                while (sync.counts()[2] == 0) {
                    assertTrue(threads.failures().isEmpty(), () -> "the writer failed: " + threads.failures());
                    assertEquals(0, sync.counts()[0], "the writer committed without waiting for Litestream's sync");
                    Thread.onSpinWait();
                }
                first.answer();
                threads.join();
                assertEquals(null, serverFailure.get());
                long[] after = sync.counts();
                assertEquals(1, after[0], "the answer was not counted: " + Arrays.toString(after));
                assertEquals(1, after[2], "one writer waited: " + Arrays.toString(after));
                // released by the answer, not by the end of its longest wait (MAX_WAIT_MILLIS)
                assertEquals(0, after[3], "the writer's wait ran out before the answer: " + Arrays.toString(after));
            }
        }
    }

    /**
     * A control socket that accepts and never answers (a hung Litestream): the first writer past the
     * hard mark waits for the request, at most MAX_WAIT_MILLIS; then the request counts as not
     * answering and the socket as failing (one warning), and no other writer waits for it. Before,
     * every writer that took the gate waited a second for it, for as long as the request lasted (31 s),
     * and nothing was logged.
     */
    @Test
    void aSocketThatNeverAnswersCostsTheWritersOneWaitAndLogsOneWarning() throws Exception {
        Path socket = dir.resolve("hung.sock");
        Path db = dir.resolve("hung.db");
        BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
        AtomicReference<Throwable> serverFailure = new AtomicReference<>();
        try (ServerSocketChannel server = fakeLitestream(socket, requests, serverFailure);
             Warnings warnings = new Warnings(socket);
             Connection c = DriverManager.getConnection(url(db, socket, 1000, 1000))) {
            TestDb.exec(c, "CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)");
            LitestreamSync sync = LitestreamSync.of(socket.toString(), db.toAbsolutePath().toString(), 1000, 1000);
            while (requests.isEmpty()) {
                TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))");
            }
            Request hung = requests.take(); // accepted and read, never answered
            for (int i = 0; i < 5; i++) { // past the hard mark, the request in flight
                TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))");
            }
            long[] counts = sync.counts();
            assertEquals(1, counts[2], "writers that waited for the unanswered request: " + Arrays.toString(counts));
            assertEquals(1, counts[3], "waits cut: " + Arrays.toString(counts));
            assertEquals(1, warnings.messages().size(), () -> "warnings: " + warnings.messages());
            assertTrue(hung.stillOpenByTheDriver(), "the request ended (the test needs it in flight)");
            assertEquals(null, serverFailure.get());
        }
    }

    /**
     * Each socket has its own sender: while one database's socket holds a request unanswered, another
     * database's request reaches its own (healthy) socket and is answered. Before, one sender thread
     * served every socket, and the second request waited until the first one gave up (31 s).
     */
    @Test
    void aSocketThatNeverAnswersDelaysNoOtherSocketsRequests() throws Exception {
        Path hungSocket = dir.resolve("hung.sock");
        Path healthySocket = dir.resolve("healthy.sock");
        Path hungDb = dir.resolve("hung.db");
        Path healthyDb = dir.resolve("healthy.db");
        BlockingQueue<Request> hungRequests = new LinkedBlockingQueue<>();
        BlockingQueue<Request> healthyRequests = new LinkedBlockingQueue<>();
        AtomicReference<Throwable> serverFailure = new AtomicReference<>();
        try (ServerSocketChannel hungServer = fakeLitestream(hungSocket, hungRequests, serverFailure);
             ServerSocketChannel healthyServer = fakeLitestream(healthySocket, healthyRequests, serverFailure);
             Connection hung = DriverManager.getConnection(url(hungDb, hungSocket, 1000, 1_000_000));
             Connection healthy = DriverManager.getConnection(url(healthyDb, healthySocket, 1000, 1_000_000))) {
            for (Connection c : List.of(hung, healthy)) {
                TestDb.exec(c, "CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)");
            }
            while (hungRequests.isEmpty()) {
                TestDb.exec(hung, "INSERT INTO b(x) VALUES (zeroblob(4000))");
            }
            Request unanswered = hungRequests.take();
            Path healthyWal = dir.resolve("healthy.db-wal");
            while (Files.size(healthyWal) < walBytes(1000)) { // the commit that passes the mark asks
                TestDb.exec(healthy, "INSERT INTO b(x) VALUES (zeroblob(4000))");
            }
            // a hang guard only: the request comes at once, or (before) after the other socket's request gave up
            Request answered = healthyRequests.poll(60, TimeUnit.SECONDS);
            assertNotNull(answered, "the healthy socket got no request");
            assertTrue(unanswered.stillOpenByTheDriver(),
                    "the healthy socket's request waited until the unanswered one gave up");
            answered.answer();
            LitestreamSync sync = LitestreamSync.of(healthySocket.toString(), healthyDb.toAbsolutePath().toString(), 1000, 1_000_000);
            while (sync.counts()[0] == 0) { // a hang guard only: the class's timeout
                Thread.sleep(1);
            }
            assertEquals(null, serverFailure.get());
        }
    }
}
