package dev.panlite.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLTimeoutException;

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
     * no answer came before {@code deadline} (System.nanoTime()).
     */
    public static String post(Path socket, String target, String body, long deadline) throws IOException, SQLTimeoutException {
        String request = "POST " + target + " HTTP/1.1\r\nHost: litestream\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX); Selector selector = Selector.open()) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.configureBlocking(false);
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

    private static void await(Path socket, SocketChannel channel, Selector selector, int op, long deadline)
            throws IOException, SQLTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SQLTimeoutException("Litestream's control socket " + socket + " did not answer in time", SqlState.TIMEOUT_EXPIRED);
        }
        SelectionKey key = channel.register(selector, op);
        selector.select(Math.max(1, left / 1_000_000));
        key.cancel();
        selector.selectNow();
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
