package dev.panlite.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLTimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Litestream's control socket (Litestream 0.5.17+, config {@code socket: {enabled: true, path: ...}}):
 * one HTTP/1.1 request over a Unix-domain socket, {@code java.net} only. Used by
 * {@code dev.panlite.LitestreamBarrier} ({@code POST /sync} with {@code wait: true}) and by
 * {@link LitestreamSync} ({@code POST /sync} without waiting, from a background thread).
 */
public final class LitestreamControl {
    private LitestreamControl() {}

    /** The body of {@code POST /sync} for {@code database}: Litestream syncs its WAL now (and waits for the replica if {@code wait}). */
    public static String syncBody(Path database, boolean wait, long timeoutSeconds) {
        return "{\"path\":" + json(database.toAbsolutePath().toString()) + ",\"wait\":" + wait + ",\"timeout\":"
                + timeoutSeconds + "}";
    }

    /**
     * Sends {@code POST target} with the JSON {@code body} to {@code socket} and returns the whole response
     * (status line, headers, body). IOException when the socket cannot be reached; SQLTimeoutException when
     * no answer came before {@code deadline} (System.nanoTime()), the connect included: a Litestream that
     * stopped accepting blocks no caller past its deadline.
     */
    public static String post(Path socket, String target, String body, long deadline) throws IOException, SQLTimeoutException {
        String request = "POST " + target + " HTTP/1.1\r\nHost: litestream\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
        try (Selector selector = Selector.open(); SocketChannel channel = connect(socket, selector, deadline)) {
            ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                channel.write(out);
                if (out.hasRemaining()) {
                    await(socket, channel, selector, SelectionKey.OP_WRITE, deadline);
                }
            }
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            while (true) {
                int n = channel.read(buffer);
                if (n < 0) {
                    return in.toString(StandardCharsets.UTF_8);
                }
                if (n == 0) {
                    await(socket, channel, selector, SelectionKey.OP_READ, deadline);
                    continue;
                }
                in.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
        }
    }

    /**
     * A non-blocking channel connected to {@code socket} before {@code deadline}. A blocking connect
     * has no deadline: on a listening socket whose backlog is full (a Litestream that stopped
     * accepting) it waits until someone accepts. A non-blocking one fails at once there (EAGAIN, a
     * plain SocketException to Java), and is tried again until the deadline; so are the other
     * SocketExceptions on a socket file that exists (a refused connection, ConnectException, and a
     * missing file fail at once).
     */
    private static SocketChannel connect(Path socket, Selector selector, long deadline) throws IOException, SQLTimeoutException {
        long pauseNanos = 1_000_000;
        while (true) {
            SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                channel.configureBlocking(false);
                if (!channel.connect(UnixDomainSocketAddress.of(socket))) {
                    while (!channel.finishConnect()) {
                        await(socket, channel, selector, SelectionKey.OP_CONNECT, deadline);
                    }
                }
                return channel;
            } catch (ConnectException e) {
                channel.close();
                throw e;
            } catch (SocketException e) {
                channel.close();
                if (!Files.exists(socket)) {
                    throw e;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw timedOut(socket, "could not connect (" + e.getMessage() + ": its backlog is full?)", e);
                }
                LockSupport.parkNanos(Math.min(pauseNanos, left));
                checkInterrupt(socket);
                pauseNanos = Math.min(2 * pauseNanos, 50_000_000);
            } catch (IOException | SQLTimeoutException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }
    }

    private static void await(Path socket, SocketChannel channel, Selector selector, int op, long deadline)
            throws IOException, SQLTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw timedOut(socket, "did not answer in time", null);
        }
        SelectionKey key = channel.register(selector, op);
        selector.select(Math.max(1, left / 1_000_000));
        key.cancel();
        selector.selectNow();
        checkInterrupt(socket);
    }

    /** An interrupt ends the wait (select and park return at once while the flag is set); the flag stays set. */
    private static void checkInterrupt(Path socket) throws InterruptedIOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while waiting for Litestream's control socket " + socket
                    + " (the thread's interrupt flag stays set)");
        }
    }

    private static SQLTimeoutException timedOut(Path socket, String what, Throwable cause) {
        return new SQLTimeoutException("Litestream's control socket " + socket + " " + what, SqlState.TIMEOUT_EXPIRED, cause);
    }

    /** The HTTP status code of a response ("HTTP/1.1 200 OK": 200), -1 when there is none. */
    public static int statusCode(String response) {
        String[] first = response.lines().findFirst().orElse("").split(" ");
        try {
            return first.length > 1 ? Integer.parseInt(first[1]) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
