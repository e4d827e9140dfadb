package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.engine.SqlState;
import java.io.IOException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LitestreamBarrier} against fake control sockets (LitestreamTest runs it against Litestream
 * itself): whatever the socket does, the caller is blocked no longer than its timeout, and a socket
 * that does not answer in time is a {@link SQLTimeoutException} with SQLState TIMEOUT_EXPIRED.
 */
class LitestreamBarrierTest {
    /** A hang guard only: the barrier's timeout in these tests is one second. */
    private static final Duration GUARD = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>(); // the acceptor threads add to it

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private ServerSocketChannel listen(Path socket, int backlog) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        open.add(server);
        server.bind(UnixDomainSocketAddress.of(socket), backlog);
        return server;
    }

    private void assertTimesOut(Path socket) {
        SQLException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(SQLException.class,
                () -> new LitestreamBarrier(socket).await(dir.resolve("app.db"), Duration.ofSeconds(1))),
                "the barrier blocked past its timeout");
        assertInstanceOf(SQLTimeoutException.class, e, e::toString);
        assertEquals(SqlState.TIMEOUT_EXPIRED, e.getSQLState(), e::toString);
    }

    /**
     * A Litestream that stopped accepting: its listening socket's backlog is full, so a connect
     * cannot complete. The connect had no deadline: the barrier blocked until someone accepted.
     */
    @Test
    void aSocketWhoseBacklogIsFullTimesOut() throws Exception {
        Path socket = dir.resolve("full.sock");
        listen(socket, 1);
        boolean full = false;
        for (int i = 0; i < 100 && !full; i++) { // fill the backlog: a non-blocking connect then fails at once
            SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
            open.add(c);
            c.configureBlocking(false);
            try {
                c.connect(UnixDomainSocketAddress.of(socket));
            } catch (SocketException e) {
                full = true;
            }
        }
        assertTrue(full, "the backlog never filled");
        assertTimesOut(socket);
    }

    /** A socket that is listened on but never accepted from: the connect completes, no answer comes. */
    @Test
    void aSocketNobodyAcceptsFromTimesOut() throws Exception {
        Path socket = dir.resolve("idle.sock");
        listen(socket, 50);
        assertTimesOut(socket);
    }

    /** A Litestream that accepts and reads the request, then never answers. */
    @Test
    void aSocketThatAcceptsAndNeverAnswersTimesOut() throws Exception {
        Path socket = dir.resolve("hung.sock");
        ServerSocketChannel server = listen(socket, 50);
        Thread acceptor = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    SocketChannel c = server.accept();
                    open.add(c);
                    c.read(ByteBuffer.allocate(4096));
                }
            } catch (IOException e) {
                // the test closed the server: done
            }
        });
        assertTimesOut(socket);
        server.close();
        acceptor.join(GUARD.toMillis());
        assertFalse(acceptor.isAlive());
    }

    /** No socket at all (Litestream not running): fails at once, as a connection that cannot be made. */
    @Test
    void noSocketFailsAtOnce() {
        SQLException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(SQLException.class,
                () -> new LitestreamBarrier(dir.resolve("none.sock")).await(dir.resolve("app.db"), Duration.ofSeconds(1))));
        assertEquals(SqlState.UNABLE_TO_CONNECT, e.getSQLState(), e::toString);
    }

    /** A timeout of centuries is an SQLException-free long wait, not an ArithmeticException (adversarial review). */
    @Test
    void aTimeoutOfCenturiesIsAccepted() throws Exception {
        SQLException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(SQLException.class,
                () -> new LitestreamBarrier(dir.resolve("none.sock")).await(dir.resolve("app.db"), Duration.ofDays(365L * 1000))));
        assertEquals(SqlState.UNABLE_TO_CONNECT, e.getSQLState(), e::toString); // no socket: fails at once, as above
        assertThrows(SQLException.class,
                () -> new LitestreamBarrier(dir.resolve("none.sock")).await(dir.resolve("app.db"), Duration.ofSeconds(-1)));
    }

    /** A socket that answers: the position Litestream reports. */
    @Test
    void anAnswerIsThePosition() throws Exception {
        Path socket = dir.resolve("ok.sock");
        ServerSocketChannel server = listen(socket, 50);
        Thread.ofPlatform().daemon().start(() -> {
            try (SocketChannel c = server.accept()) {
                StringBuilder request = new StringBuilder();
                ByteBuffer buffer = ByteBuffer.allocate(4096);
                while (!request.toString().endsWith("}") && c.read(buffer.clear()) > 0) {
                    request.append(StandardCharsets.UTF_8.decode(buffer.flip()));
                }
                byte[] body = "{\"status\":\"synced\",\"txid\":7,\"replicated_txid\":7}".getBytes(StandardCharsets.UTF_8);
                c.write(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8)));
                c.write(ByteBuffer.wrap(body));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        LitestreamBarrier.Position p = assertTimeoutPreemptively(GUARD,
                () -> new LitestreamBarrier(socket).await(dir.resolve("app.db"), Duration.ofSeconds(1)));
        assertEquals(new LitestreamBarrier.Position("synced", 7, 7), p);
    }
}
