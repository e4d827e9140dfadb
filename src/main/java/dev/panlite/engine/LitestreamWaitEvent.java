package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR: a writer that had just taken the write gate waited for Litestream's sync in flight, because
 * the WAL was past {@code litestream_wait_pages} (back-pressure). Only through {@link JfrEvents}.
 */
@Name("dev.panlite.LitestreamWait")
@Label("Litestream Wait")
@Category({"Panlite", "Litestream"})
@Description("A writer waited for Litestream's sync in flight (the WAL was past litestream_wait_pages)")
final class LitestreamWaitEvent extends Event {
    static LitestreamWaitEvent start(String database, String file) {
        LitestreamWaitEvent event = new LitestreamWaitEvent();
        event.begin();
        event.database = database;
        event.file = file;
        return event;
    }

    static void finish(LitestreamWaitEvent event, boolean cut) {
        event.end();
        if (event.shouldCommit()) {
            event.cut = cut;
            event.commit();
        }
    }

    @Label("Database")
    String database;

    @Label("File")
    String file;

    @Label("Cut")
    @Description("The wait ended at its bound (1 s) before the request did: the writer went on")
    boolean cut;
}
