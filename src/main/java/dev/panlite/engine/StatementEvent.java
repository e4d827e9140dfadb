package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * JFR: one statement execution (its first sqlite3_step, gate wait and busy retries included: for a
 * write that is all of it, for a query the time to its first row) that took longer than the event's
 * threshold, 20 ms unless the recording says otherwise
 * ({@code -XX:StartFlightRecording:dev.panlite.Statement#threshold=5ms}). With JFR off the event is
 * never enabled and the JIT removes it. Used only through {@link JfrEvents}, which knows whether
 * the runtime has jdk.jfr.
 */
@Name("dev.panlite.Statement")
@Label("SQLite Statement")
@Category({"Panlite", "SQLite"})
@Description("A statement slower than the threshold")
@Threshold("20 ms")
final class StatementEvent extends Event {
    /**
     * Never committed: asks whether a recording enabled the event type, so that a statement
     * allocates its event only then (escape analysis did not always remove it: +35 B/op on an
     * auto-commit insert, experiment 020).
     */
    private static final StatementEvent PROBE = new StatementEvent();

    /** True when a recording wants these events (each statement then goes through Java, one event each). */
    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** A started event when a recording wants them, else null. */
    static StatementEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        StatementEvent event = new StatementEvent();
        event.begin();
        return event;
    }

    /** Ends {@code event} (null: nothing) and commits it when it passed the threshold. */
    static void finish(StatementEvent event, String sql, String file, int resultCode) {
        if (event == null) {
            return;
        }
        event.end();
        if (event.shouldCommit()) {
            event.sql = sql;
            event.file = file;
            event.resultCode = resultCode;
            event.commit();
        }
    }

    @Label("SQL")
    String sql;

    @Label("File")
    String file;

    @Label("Result Code")
    int resultCode;
}
