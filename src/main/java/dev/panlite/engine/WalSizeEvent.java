package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR: a commit left the WAL past its size mark ({@code wal_size_mark} pages): checkpoints are not
 * keeping up, or something (a long read, Litestream's read lock while it is behind) stops them.
 * Recorded once per crossing; the mark re-arms when a commit sees the WAL below it again. Created
 * only in {@link #record}.
 */
@Name("dev.panlite.WalSize")
@Label("SQLite WAL Past Its Size Mark")
@Category({"Panlite", "SQLite"})
@Description("A commit left the WAL larger than wal_size_mark pages")
final class WalSizeEvent extends Event {
    @Label("File")
    String file;

    @Label("WAL Frames")
    int walFrames;

    @Label("Mark")
    @Description("wal_size_mark, in pages")
    int mark;

    /** Records one crossing, when a recording enabled the event. */
    static void record(String file, int walFrames, int mark) {
        WalSizeEvent e = new WalSizeEvent();
        if (e.shouldCommit()) {
            e.file = file;
            e.walFrames = walFrames;
            e.mark = mark;
            e.commit();
        }
    }
}
