package dev.panlite;

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
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A replication barrier through Litestream's control socket (Litestream 0.5.17+, config
 * {@code socket: {enabled: true, path: ...}}): {@link #await} returns once everything committed
 * to the database before the call is in the replica. It asks Litestream to sync the database now
 * and to wait for the replica's upload ({@code POST /sync} with {@code wait: true}, HTTP over the
 * Unix-domain socket, {@code java.net} only). A commit that returned, followed by {@code await}
 * that returned, survives the loss of the machine.
 *
 * <p>Each call costs one sync of the WAL and one upload (see docs/experiments/040 for the cost per
 * commit); call it where a commit must not be lost (a payment, a signup), not after every write.
 */
public final class LitestreamBarrier {
    private static final Pattern FIELD = Pattern.compile("\"(status|txid|replicated_txid|error)\"\\s*:\\s*(\"([^\"]*)\"|(\\d+))");

    private final Path socket;

    /** @param socket the path of Litestream's control socket (its config's {@code socket.path}) */
    public LitestreamBarrier(Path socket) {
        this.socket = socket;
    }

    /** Litestream's answer: its position in the local LTX files and in the replica (transaction ids). */
    public record Position(String status, long txid, long replicatedTxid) {}

    /**
     * Waits until what is committed to {@code database} (the path Litestream's config names) is in
     * the replica, at most {@code timeout} (whole seconds on Litestream's side, at least one).
     * SQLTimeoutException when the time runs out, SQLException when Litestream cannot be reached,
     * does not replicate that database, or fails.
     */
    public Position await(Path database, Duration timeout) throws SQLException {
        long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
        String body = "{\"path\":" + json(database.toAbsolutePath().toString()) + ",\"wait\":true,\"timeout\":" + seconds + "}";
        String request = "POST /sync HTTP/1.1\r\nHost: litestream\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
        long deadline = System.nanoTime() + timeout.toNanos() + 1_000_000_000L; // Litestream's own timeout ends first
        String response;
        try {
            response = exchange(request, deadline);
        } catch (IOException e) {
            throw new SQLException("Litestream's control socket " + socket + " did not answer: " + e.getMessage()
                    + " (is litestream replicate running with socket.enabled: true?)", "08001", e);
        }
        int code = statusCode(response);
        String json = response.substring(Math.max(0, response.indexOf("\r\n\r\n")));
        String status = null;
        String error = null;
        long txid = -1;
        long replicated = -1;
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            String value = m.group(3) != null ? m.group(3) : m.group(4);
            switch (m.group(1)) {
                case "status" -> status = value;
                case "error" -> error = value;
                case "txid" -> txid = Long.parseLong(value);
                default -> replicated = Long.parseLong(value);
            }
        }
        if (code != 200) {
            String message = "Litestream could not sync " + database + " to its replica (HTTP " + code + "): " + error;
            throw error != null && error.contains("deadline") ? new SQLTimeoutException(message, "HYT00")
                    : new SQLException(message, "08006");
        }
        if (replicated < txid) {
            throw new SQLException("Litestream synced " + database + " to transaction " + txid + " but its replica is at "
                    + replicated, "08006");
        }
        return new Position(status, txid, replicated);
    }

    private String exchange(String request, long deadline) throws IOException, SQLTimeoutException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX); Selector selector = Selector.open()) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.configureBlocking(false);
            ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                channel.write(out);
                if (out.hasRemaining()) {
                    wait(channel, selector, SelectionKey.OP_WRITE, deadline);
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
                    wait(channel, selector, SelectionKey.OP_READ, deadline);
                    continue;
                }
                in.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
        }
    }

    private void wait(SocketChannel channel, Selector selector, int op, long deadline) throws IOException, SQLTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SQLTimeoutException("Litestream's control socket " + socket + " did not answer in time", "HYT00");
        }
        SelectionKey key = channel.register(selector, op);
        selector.select(Math.max(1, left / 1_000_000));
        key.cancel();
        selector.selectNow();
    }

    private static int statusCode(String response) {
        // "HTTP/1.1 200 OK"
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
