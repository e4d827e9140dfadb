package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * litestream_socket without Litestream (docs/experiments/041): a socket that answers when the test
 * says so shows that a commit past the mark hands the request to a background thread (the commit
 * returns while the request is unanswered), what the request says, and that a writer waits for it
 * once the WAL is past the hard mark.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LitestreamSyncTest {
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
    }

    private static Thread fakeLitestream(ServerSocketChannel server, BlockingQueue<Request> requests, AtomicReference<Throwable> failure) {
        return Thread.ofPlatform().daemon().start(() -> {
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
    }

    @Test
    void aCommitPastTheMarkAsksInTheBackgroundAndPastTheHardMarkWritersWaitForTheAnswer() throws Exception {
        Path socket = dir.resolve("ls.sock");
        Path db = dir.resolve("test.db");
        Path wal = dir.resolve("test.db-wal");
        BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
        AtomicReference<Throwable> serverFailure = new AtomicReference<>();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            fakeLitestream(server, requests, serverFailure);
            // the driver's autocheckpoint off: only the (fake) Litestream could checkpoint, and it never does
            try (Connection c = TestDb.open(dir, "journal_mode=WAL&wal_autocheckpoint=0&litestream_sync_pages=1000&litestream_wait_pages=3000"
                    + "&litestream_socket=" + socket)) {
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
                assertTrue(Files.size(wal) >= 1000L * 4120, "asked before the WAL reached the mark: " + Files.size(wal));

                // past litestream_wait_pages with the request still in flight
                while (Files.size(wal) < 3000L * 4120 + 4120) {
                    TestDb.exec(c, "INSERT INTO b(x) VALUES (zeroblob(4000))");
                }
                assertTrue(requests.isEmpty(), "a second request while the first was in flight");
                // before the writer starts: the loop's last commits may have waited too (and run out)
                long waitsBefore = sync.counts()[2];
                Thread writer = Thread.ofPlatform().start(() -> {
                    try (Connection w = TestDb.open(dir, "journal_mode=WAL&wal_autocheckpoint=0&litestream_sync_pages=1000&litestream_wait_pages=3000"
                            + "&litestream_socket=" + socket)) {
                        TestDb.exec(w, "INSERT INTO b(x) VALUES (1)");
                    } catch (Throwable t) {
                        serverFailure.compareAndSet(null, t);
                    }
                });
                // the writer starts waiting for the answer (the signal: the count of waits), then the answer lets it go
                while (sync.counts()[2] == waitsBefore) {
                    assertTrue(writer.isAlive(), "the writer committed without waiting for Litestream's sync");
                    Thread.onSpinWait();
                }
                long answered = sync.counts()[0];
                first.answer();
                writer.join();
                assertEquals(null, serverFailure.get());
                long[] after = sync.counts();
                assertEquals(answered + 1, after[0], "the answer was not counted: " + java.util.Arrays.toString(after));
            }
        }
    }
}
