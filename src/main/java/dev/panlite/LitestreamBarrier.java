package dev.panlite;

import dev.panlite.engine.SqlState;
import dev.panlite.engine.LitestreamControl;
import java.io.IOException;
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
     * the replica, at most {@code timeout} (whole seconds on Litestream's side, at least one), the
     * connect included. SQLTimeoutException (SQLState TIMEOUT_EXPIRED) when the time runs out,
     * whether Litestream does not accept, does not answer or does not finish; SQLException when
     * Litestream cannot be reached, does not replicate that database, or fails.
     */
    public Position await(Path database, Duration timeout) throws SQLException {
        if (timeout.isNegative()) {
            throw new SQLException("timeout " + timeout + " is negative", SqlState.INVALID_ATTRIBUTE_VALUE);
        }
        // saturated: a timeout of centuries waits as long as a long of nanoseconds can say (292 years)
        long nanos = timeout.compareTo(Duration.ofNanos(Long.MAX_VALUE / 2)) > 0 ? Long.MAX_VALUE / 2 : timeout.toNanos();
        long seconds = Math.max(1, (nanos / 1_000_000 + 999) / 1000);
        long deadline = System.nanoTime() + nanos; // Litestream's own timeout (rounded up) ends no sooner
        String response;
        try {
            response = LitestreamControl.post(socket, "/sync", LitestreamControl.syncBody(database, true, seconds), deadline);
        } catch (IOException e) {
            throw new SQLException("Litestream's control socket " + socket + " did not answer: " + e.getMessage()
                    + " (is litestream replicate running with socket.enabled: true?)", SqlState.UNABLE_TO_CONNECT, e);
        }
        int code = LitestreamControl.statusCode(response);
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
            throw error != null && error.contains("deadline") ? new SQLTimeoutException(message, SqlState.TIMEOUT_EXPIRED)
                    : new SQLException(message, SqlState.CONNECTION_FAILURE);
        }
        if (replicated < txid) {
            throw new SQLException("Litestream synced " + database + " to transaction " + txid + " but its replica is at "
                    + replicated, SqlState.CONNECTION_FAILURE);
        }
        return new Position(status, txid, replicated);
    }
}
