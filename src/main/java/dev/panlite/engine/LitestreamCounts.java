package dev.panlite.engine;

/**
 * What the Litestream sync path ({@link LitestreamSync}) counts for one database: sync requests sent,
 * answered and failed, and writers that waited for one (back-pressure) and for how long. The counts
 * go to the database's metrics ({@link EngineStats}, read by dev.panlite.PanliteStats and the
 * {@code panlite.litestream.*} meters), each request and wait to JFR ({@code dev.panlite.LitestreamSync},
 * {@code dev.panlite.LitestreamWait}). Thread-safe; nothing here blocks or does I/O.
 *
 * <pre>{@code
 * Object request = counts.requestSent();         // as the request is handed to the socket
 * ... counts.requestEnded(request, true, "200");  // or false with why it failed
 * Object wait = counts.waitStarted();            // a writer that holds the gate starts waiting
 * ... counts.waitEnded(wait, nanos, cut);
 * }</pre>
 */
final class LitestreamCounts {
    private final EngineStats.PerDatabase counts;
    private final String file;

    private LitestreamCounts(String file) {
        this.file = file;
        this.counts = EngineStats.database(EngineStats.databaseName(file));
    }

    /** The counts of the database at {@code file} (its path, as SQLite names it). */
    static LitestreamCounts of(String file) {
        return new LitestreamCounts(file);
    }

    /** A sync request is being sent: counted now. Returns its JFR event (null: none) for {@link #requestEnded}. */
    Object requestSent() {
        counts.syncRequests.increment();
        return JfrEvents.litestreamSyncStart(counts.name, file);
    }

    /** The request of {@code event} ended: answered (HTTP 200) or failed, with what happened. */
    void requestEnded(Object event, boolean answered, String outcome) {
        JfrEvents.litestreamSyncEnd(event, answered, outcome); // recorded before it shows in the counts
        (answered ? counts.syncAnswered : counts.syncFailed).increment();
    }

    /** A writer starts waiting for the request in flight. Returns its JFR event (null: none) for {@link #waitEnded}. */
    Object waitStarted() {
        return JfrEvents.litestreamWaitStart(counts.name, file);
    }

    /** The wait of {@code event} ended after {@code nanos}; {@code cut} when it ended at its bound. */
    void waitEnded(Object event, long nanos, boolean cut) {
        JfrEvents.litestreamWaitEnd(event, cut);
        counts.syncWaitNanos.add(nanos);
        counts.syncWaits.increment();
    }
}
