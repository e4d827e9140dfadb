package dev.panlite.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Asks Litestream to sync a database now once its WAL has passed a mark ({@code litestream_socket},
 * {@code litestream_sync_pages}; docs/experiments/041). Litestream holds a read transaction between
 * its own syncs, so nothing can be checkpointed meanwhile and the WAL grows by one
 * {@code monitor-interval} of writes (100-280 MiB at saturation on the test machine). Each sync of
 * Litestream ends with its PASSIVE checkpoint once the WAL holds {@code min-checkpoint-page-count}
 * pages (1000 by default): asking for a sync when the WAL passes the mark bounds the WAL by the mark
 * plus what is written while Litestream syncs.
 *
 * <p>One per database file and socket in the JVM, shared by the file's connections. {@link #walAt}
 * runs in the WAL hook, on the committing thread with its connection's lock held: it never does I/O,
 * it hands the request ({@code POST /sync} on Litestream's control socket, not waiting for the
 * replica) to one background daemon thread. At most one request per file is in flight; the next one
 * is sent no sooner than {@link #GAP_NANOS} after the last one ended, so a Litestream whose checkpoint
 * keeps being refused is not asked in a loop.
 *
 * <p>Back-pressure, for a Litestream that falls behind (short of CPU): while the WAL is past
 * {@code litestream_wait_pages} and a request is in flight, a writer that has just taken the
 * write gate (so before it takes SQLite's lock) waits for the request to end, at most
 * {@link #MAX_WAIT_MILLIS}: the JVM's writers pause while Litestream syncs, and its checkpoint finds
 * nothing new to leave behind. Not while requests fail (Litestream gone): then writers never wait.
 */
final class LitestreamSync {
    /** The least time between the end of one request and the start of the next, for one file. */
    static final long GAP_NANOS = 20_000_000L;
    /** The longest a writer waits for one request (then it goes on: the WAL may grow). */
    static final long MAX_WAIT_MILLIS = 1000;
    private static final long TIMEOUT_SECONDS = 30;
    private static final System.Logger LOG = System.getLogger("dev.panlite");
    private static final ConcurrentHashMap<String, LitestreamSync> BY_FILE = new ConcurrentHashMap<>();
    private static final ExecutorService SENDER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "panlite-litestream-sync");
        t.setDaemon(true);
        return t;
    });

    private final Path socket;
    private final Path database;
    private final int markPages;
    private final long hardPages;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile CompletableFuture<Void> done; // the request in flight (or the last one), completed when it ends
    private volatile int frames; // frames in the WAL after the last commit of any of the file's connections
    private volatile long nextAllowed; // System.nanoTime() before which no request starts
    private volatile boolean failing; // the last request failed (logged once per streak)
    private volatile long sent; // requests sent, answered 200
    private volatile long failed; // requests that failed
    // back-pressure, written by the gate holder only (one at a time), read for metrics
    private volatile long waits;
    private volatile long waitsCut;
    private volatile long waitedNanos;

    private LitestreamSync(Path socket, Path database, int markPages, int waitPages) {
        this.socket = socket;
        this.database = database;
        this.markPages = markPages;
        this.hardPages = waitPages;
    }

    /** The one for {@code database} (its absolute path, as SQLite names it) and {@code socket}; null when no socket is set. */
    static LitestreamSync of(String socket, String database, int markPages, int waitPages) {
        if (socket == null || socket.isEmpty() || database == null || database.isEmpty()) {
            return null;
        }
        return BY_FILE.computeIfAbsent(socket + "\0" + database + "\0" + markPages + "\0" + waitPages,
                k -> new LitestreamSync(Path.of(socket), Path.of(database), markPages, waitPages));
    }

    /** A commit left {@code frames} in the WAL (WAL hook; lock held): past the mark, asks for a sync in the background. */
    void walAt(int frames) {
        this.frames = frames;
        if (frames < markPages || inFlight.get() || System.nanoTime() - nextAllowed < 0 || !inFlight.compareAndSet(false, true)) {
            return;
        }
        CompletableFuture<Void> request = new CompletableFuture<>();
        done = request;
        try {
            SENDER.execute(() -> send(request));
        } catch (RuntimeException e) { // a rejected task: the flag must not stay set
            request.complete(null);
            inFlight.set(false);
            throw e;
        }
    }

    /**
     * Back-pressure (see the class comment): called by a writer that has just taken the write gate, before
     * SQLite's lock. Returns at once unless the WAL is past the hard mark and a request is in flight.
     */
    void awaitRoom() {
        if (frames < hardPages || failing) {
            return;
        }
        CompletableFuture<Void> request = done;
        if (request == null || request.isDone()) {
            return;
        }
        long start = System.nanoTime();
        waits++; // counted as it starts: a test can tell that a writer is waiting
        try {
            request.get(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            waitsCut++; // bounded on purpose: the writer goes on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the wait ends; the flag stays set for the caller to see
        } catch (ExecutionException e) {
            throw new IllegalStateException("a sync request never completes exceptionally", e);
        } finally {
            waitedNanos += System.nanoTime() - start;
        }
    }

    private void send(CompletableFuture<Void> request) {
        try {
            String response = LitestreamControl.post(socket, "/sync", LitestreamControl.syncBody(database, false, TIMEOUT_SECONDS),
                    System.nanoTime() + (TIMEOUT_SECONDS + 1) * 1_000_000_000L);
            int code = LitestreamControl.statusCode(response);
            if (response.isEmpty()) {
                fail("the socket closed without an answer (Litestream stopped?)");
            } else if (code != 200) {
                fail("HTTP " + code + ": " + response.substring(Math.max(0, response.indexOf("\r\n\r\n"))).strip());
            } else {
                sent++;
                if (failing) {
                    failing = false;
                    LOG.log(System.Logger.Level.INFO, "Litestream's control socket " + socket + " answers again for " + database);
                }
            }
        } catch (IOException | SQLException | RuntimeException e) {
            fail(e.toString());
        } finally {
            nextAllowed = System.nanoTime() + GAP_NANOS;
            inFlight.set(false);
            request.complete(null);
        }
    }

    private void fail(String why) {
        failed++;
        if (!failing) {
            failing = true;
            LOG.log(System.Logger.Level.WARNING, "litestream_socket: asking Litestream (" + socket + ") to sync " + database
                    + " failed: " + why + " (logged once until a request succeeds; the WAL grows until Litestream syncs by itself)");
        }
    }

    /** Requests answered with 200, requests failed, writers that waited, waits cut at MAX_WAIT_MILLIS, ns waited. */
    long[] counts() {
        return new long[] {sent, failed, waits, waitsCut, waitedNanos};
    }
}
