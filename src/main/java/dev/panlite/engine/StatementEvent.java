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
 * never enabled and the JIT removes it.
 */
@Name("dev.panlite.Statement")
@Label("SQLite Statement")
@Category({"Panlite", "SQLite"})
@Description("A statement slower than the threshold")
@Threshold("20 ms")
final class StatementEvent extends Event {
    @Label("SQL")
    String sql;

    @Label("File")
    String file;

    @Label("Result Code")
    int resultCode;
}
