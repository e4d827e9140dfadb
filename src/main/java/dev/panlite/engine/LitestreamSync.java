package dev.panlite.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
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
 * replica) to a background daemon thread, one per socket: a socket that does not answer delays
 * the requests of no other socket. Every request is bounded in time, the connect included
 * ({@link #REQUEST_SECONDS}). At most one request per file is in flight; the next one is sent no
 * sooner than {@link #GAP_NANOS} after the last one ended, so a Litestream whose checkpoint keeps
 * being refused is not asked in a loop.
 *
 * <p>Back-pressure, for a Litestream that falls behind (short of CPU): while the WAL is past
 * {@code litestream_wait_pages} and a request is in flight, a writer that has just taken the
 * write gate (so before it takes SQLite's lock) waits for the request to end, at most
 * {@link #MAX_WAIT_MILLIS}: the JVM's writers pause while Litestream syncs, and its checkpoint finds
 * nothing new to leave behind. A request whose wait ran out is not answering: no writer waits for
 * it again, and the socket counts as failing (one warning) until a request is answered within
 * {@link #MAX_WAIT_MILLIS}. While it fails (Litestream gone, hung, or too slow), writers never wait:
 * a socket that accepts and never answers costs the writers one wait in all, not one per writer.
 */
final class LitestreamSync {
    /** The least time between the end of one request and the start of the next, for one file. */
    static final long GAP_NANOS = 20_000_000L;
    /** The longest a writer waits for one request (then it goes on: the WAL may grow). */
    static final long MAX_WAIT_MILLIS = 1000;
    /** Litestream's own timeout for the sync, in the request. */
    private static final long TIMEOUT_SECONDS = 30;
    /** The longest a request may take, connect included: Litestream's timeout, and a second for its answer. */
    static final long REQUEST_SECONDS = TIMEOUT_SECONDS + 1;
    private static final System.Logger LOG = System.getLogger("dev.panlite");
    private static final ConcurrentHashMap<String, LitestreamSync> BY_FILE = new ConcurrentHashMap<>();
    /** One sender per socket; its thread ends after a minute without requests. */
    private static final ConcurrentHashMap<Path, ExecutorService> SENDERS = new ConcurrentHashMap<>();

    /** One request to Litestream: {@code ended} completes when it ends, however it ends. */
    private static final class Request {
        final CompletableFuture<Void> ended = new CompletableFuture<>();
        volatile boolean stalled; // a writer's wait for it ran out: nobody waits for it again
    }

    private final Path socket;
    private final Path database;
    private final int markPages;
    private final long hardPages;
    private final ExecutorService sender;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private final AtomicBoolean failing = new AtomicBoolean(); // no answer in time, or a failure (logged once per streak)
    private volatile Request current; // the request in flight (or the last one)
    private volatile int frames; // frames in the WAL after the last commit of any of the file's connections
    private volatile long nextAllowed; // System.nanoTime() before which no request starts
    private volatile long sent; // requests sent, answered 200
    private volatile long failed; // requests that failed
    // back-pressure, written by the gate holder only (one at a time), read for metrics
    private volatile long waits;
    private volatile long waitsCut;
    private volatile long waitedNanos;
    private final LitestreamCounts counts; // the database's metrics and JFR events (PanliteStats, panlite.litestream.*)

    private LitestreamSync(Path socket, Path database, int markPages, int waitPages) {
        this.socket = socket;
        this.database = database;
        this.counts = LitestreamCounts.of(database.toString());
        this.markPages = markPages;
        this.hardPages = waitPages;
        this.sender = SENDERS.computeIfAbsent(socket.toAbsolutePath().normalize(), LitestreamSync::newSender);
    }

    private static ExecutorService newSender(Path socket) {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "panlite-litestream-sync " + socket);
            t.setDaemon(true);
            return t;
        });
        executor.allowCoreThreadTimeOut(true);
        return executor;
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
        Request request = new Request();
        current = request;
        try {
            sender.execute(() -> send(request));
        } catch (RuntimeException e) { // a rejected task: the flag must not stay set
            request.ended.complete(null);
            inFlight.set(false);
            throw e;
        }
    }

    /**
     * Back-pressure (see the class comment): called by a writer that has just taken the write gate, before
     * SQLite's lock. Returns at once unless the WAL is past the hard mark and a request is in flight that
     * has not been found not answering, on a socket that is not failing.
     */
    void awaitRoom() {
        if (frames < hardPages || failing.get()) {
            return;
        }
        Request request = current;
        if (request == null || request.stalled || request.ended.isDone()) {
            return;
        }
        long start = System.nanoTime();
        waits++; // counted as it starts: a test can tell that a writer is waiting
        Object event = counts.waitStarted();
        boolean cut = false;
        try {
            request.ended.get(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            cut = true;
            waitsCut++; // bounded on purpose: the writer goes on, and so do the next ones
            request.stalled = true;
            fail("no answer within " + MAX_WAIT_MILLIS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the wait ends; the flag stays set for the caller to see
        } catch (ExecutionException e) {
            throw new IllegalStateException("a sync request never completes exceptionally", e);
        } finally {
            long waited = System.nanoTime() - start;
            waitedNanos += waited;
            counts.waitEnded(event, waited, cut);
        }
    }

    private void send(Request request) {
        long start = System.nanoTime();
        Object event = counts.requestSent();
        String failure = "no answer"; // null once answered 200
        try {
            String response = LitestreamControl.post(socket, "/sync", LitestreamControl.syncBody(database, false, TIMEOUT_SECONDS),
                    start + REQUEST_SECONDS * 1_000_000_000L);
            int code = LitestreamControl.statusCode(response);
            if (response.isEmpty()) {
                failed++;
                fail(failure = "the socket closed without an answer (Litestream stopped?)");
            } else if (code != 200) {
                failed++;
                fail(failure = "HTTP " + code + ": " + response.substring(Math.max(0, response.indexOf("\r\n\r\n"))).strip());
            } else {
                failure = null;
                sent++;
                // only an answer in time ends a streak: a late one would let writers wait for the next request again
                boolean inTime = !request.stalled && System.nanoTime() - start <= MAX_WAIT_MILLIS * 1_000_000L;
                if (inTime && failing.compareAndSet(true, false)) {
                    LOG.log(System.Logger.Level.INFO, "Litestream's control socket " + socket + " answers again for " + database);
                }
            }
        } catch (IOException | SQLException | RuntimeException e) {
            failed++;
            fail(failure = e.toString());
        } finally {
            counts.requestEnded(event, failure == null, failure == null ? "answered" : failure);
            nextAllowed = System.nanoTime() + GAP_NANOS;
            inFlight.set(false);
            request.ended.complete(null);
        }
    }

    /** The socket is failing: writers stop waiting for it; the first failure of a streak is logged. */
    private void fail(String why) {
        if (failing.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, "litestream_socket: asking Litestream (" + socket + ") to sync " + database
                    + " failed: " + why + ". Writers no longer wait for Litestream, and the WAL grows until it syncs by"
                    + " itself (logged once until a request is answered within " + MAX_WAIT_MILLIS + " ms)");
        }
    }

    /** Requests answered with 200, requests failed, writers that waited, waits cut at MAX_WAIT_MILLIS, ns waited. */
    long[] counts() {
        return new long[] {sent, failed, waits, waitsCut, waitedNanos};
    }
}
