package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR: one request to Litestream's control socket to sync a database now ({@code litestream_socket}),
 * from send to answer, on the background thread that sends it. Only through {@link JfrEvents}.
 */
@Name("dev.panlite.LitestreamSync")
@Label("Litestream Sync Request")
@Category({"Panlite", "Litestream"})
@Description("A request to Litestream's control socket to sync a database now, from send to answer")
final class LitestreamSyncEvent extends Event {
    static LitestreamSyncEvent start(String database, String file) {
        LitestreamSyncEvent event = new LitestreamSyncEvent();
        event.begin();
        event.database = database;
        event.file = file;
        return event;
    }

    static void finish(LitestreamSyncEvent event, boolean answered, String outcome) {
        event.end();
        if (event.shouldCommit()) {
            event.answered = answered;
            event.outcome = outcome;
            event.commit();
        }
    }

    @Label("Database")
    String database;

    @Label("File")
    String file;

    @Label("Answered")
    @Description("Litestream answered 200: it synced (and checkpointed) the database")
    boolean answered;

    @Label("Outcome")
    String outcome;
}
