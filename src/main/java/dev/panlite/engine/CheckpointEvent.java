package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR: a WAL checkpoint the driver ran, by the autocheckpoint of its WAL hook (PASSIVE) or by
 * {@code PanliteConnection.checkpoint} (any mode). Created only in {@link #record}.
 */
@Name("dev.panlite.Checkpoint")
@Label("SQLite Checkpoint")
@Category({"Panlite", "SQLite"})
@Description("A WAL checkpoint run by the driver: automatic (PASSIVE) or asked for")
@StackTrace(false)
final class CheckpointEvent extends Event {
    @Label("File")
    String file;

    @Label("Schema")
    String schema;

    @Label("Mode")
    @Description("PASSIVE, FULL, RESTART or TRUNCATE")
    String mode;

    @Label("Automatic")
    @Description("Run by the autocheckpoint (wal_autocheckpoint) rather than asked for")
    boolean automatic;

    @Label("Result Code")
    @Description("SQLite's result code: 0 done, 5 (SQLITE_BUSY) stopped short by a reader or writer")
    int resultCode;

    @Label("WAL Frames")
    int walFrames;

    @Label("Frames Checkpointed")
    int checkpointedFrames;

    @Label("Duration")
    @Timespan(Timespan.NANOSECONDS)
    long nanos;

    /** Records one checkpoint, when a recording enabled the event. */
    static void record(String file, String schema, String mode, boolean automatic, int resultCode, int walFrames,
            int checkpointedFrames, long nanos) {
        CheckpointEvent e = new CheckpointEvent();
        if (e.shouldCommit()) {
            e.file = file;
            e.schema = schema;
            e.mode = mode;
            e.automatic = automatic;
            e.resultCode = resultCode;
            e.walFrames = walFrames;
            e.checkpointedFrames = checkpointedFrames;
            e.nanos = nanos;
            e.commit();
        }
    }
}
