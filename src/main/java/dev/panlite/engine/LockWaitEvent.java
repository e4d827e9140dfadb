package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * JFR: a connection waited for a write lock (this JVM's write gate of the file, or a lock another
 * process holds). Only created when a wait happens, so the uncontended path never touches it; only
 * through {@link JfrEvents}, which knows whether the runtime has jdk.jfr.
 */
@Name("dev.panlite.LockWait")
@Label("SQLite Lock Wait")
@Category({"Panlite", "SQLite"})
@Description("A connection waited for the write lock of a database file")
final class LockWaitEvent extends Event {
    static LockWaitEvent start(String file, String lock) {
        LockWaitEvent event = new LockWaitEvent();
        event.begin();
        event.file = file;
        event.lock = lock;
        return event;
    }

    static void finish(LockWaitEvent event, long nanos, String outcome) {
        event.end();
        if (event.shouldCommit()) {
            event.nanos = nanos;
            event.outcome = outcome;
            event.commit();
        }
    }

    @Label("File")
    String file;

    @Label("Lock")
    @Description("write gate (connections of this JVM) or SQLite lock (another process)")
    String lock;

    @Label("Waited")
    @Timespan(Timespan.NANOSECONDS)
    long nanos;

    @Label("Outcome")
    @Description("acquired, timed out, interrupted, cancelled, closed or refused by the busy handler")
    String outcome;
}
