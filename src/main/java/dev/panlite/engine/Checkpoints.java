package dev.panlite.engine;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import dev.panlite.ffi.WalHook;
import java.sql.SQLException;

/**
 * One connection's WAL checkpoints (docs/experiments/040): the autocheckpoint, run by the driver's
 * WAL hook in place of SQLite's own so that each one is a JFR {@link CheckpointEvent}, the
 * {@link WalSizeEvent} when a commit leaves the WAL past {@code wal_size_mark}, and the checkpoints
 * the user asks for ({@code PanliteConnection.checkpoint}).
 *
 * <p>Unlike SQLite's own, a checkpoint that stopped short (a reader still uses the WAL) is not tried
 * again at every commit, but once the WAL has grown by another {@code wal_autocheckpoint} pages: a
 * PASSIVE checkpoint first sorts every frame of the WAL, and a reader that blocks it for long
 * (Litestream holds one between its own checkpoints) would make every commit pay for a sort that
 * copies nothing: 1.4-1.5x fewer commits under Litestream (docs/experiments/040).
 *
 * <p>The driver itself only ever runs PASSIVE checkpoints, which never wait and never block a
 * writer or a reader; RESTART and TRUNCATE run only when asked. A PRAGMA wal_autocheckpoint run as
 * SQL replaces the hook with SQLite's own autocheckpoint: checkpoints then go on without events.
 *
 * <p>With {@code litestream_socket} set, a commit that leaves the WAL past {@code litestream_sync_pages}
 * also asks Litestream, in the background, to sync and so checkpoint ({@link LitestreamSync}).
 */
final class Checkpoints implements WalHook.Receiver {
    static final int PASSIVE = 0;
    static final int FULL = 1;
    static final int RESTART = 2;
    static final int TRUNCATE = 3;
    private static final String[] MODES = {"PASSIVE", "FULL", "RESTART", "TRUNCATE"};

    private final WriteAccess writeAccess;
    private final int autocheckpoint; // pages; 0: none
    private final int sizeMark; // pages
    private final LitestreamSync litestream; // litestream_socket: asks Litestream to sync past a mark; null: off
    private final String description; // the connection's settings, for the warning below
    private boolean pastMark; // the last commit left the WAL past the mark (lock held: hooks run under it)
    private int lastFrames; // frames in the WAL at the last commit: fewer now means it restarted
    private int nextAttempt; // after a checkpoint stopped short, the next one waits for the WAL to reach this

    Checkpoints(WriteAccess writeAccess, EngineConfig config, String mainFile) {
        this.writeAccess = writeAccess;
        this.autocheckpoint = config.walAutocheckpoint();
        this.sizeMark = config.walSizeMark();
        this.litestream = LitestreamSync.of(config.litestreamSocket(), mainFile, config.litestreamSyncPages(),
                config.litestreamWaitPages());
        writeAccess.limitWal(litestream);
        this.description = config.description();
    }

    /** Puts the WAL hook on {@code db} (at open, lock held). Without sqlite3_wal_hook SQLite's autocheckpoint stays. */
    void install(Scratch scratch, long db) {
        if (!scratch.installWalHook(db, this) && litestream != null) {
            SettingWarnings.once(description, "litestream_socket", "litestream_socket has no effect: the loaded SQLite ("
                    + Sqlite.libversion() + ") has no sqlite3_wal_hook, which tells the driver the WAL's size");
        }
    }

    static String modeName(int mode) {
        return mode >= 0 && mode < MODES.length ? MODES[mode] : "mode " + mode;
    }

    // ------------------------------------------------------------------ the hook (on the committing thread, lock held)

    @Override
    public boolean committed(int frames) {
        if (frames >= sizeMark) {
            if (!pastMark) {
                pastMark = true;
                WalSizeEvent.record(writeAccess.file(), frames, sizeMark);
            }
        } else {
            pastMark = false;
        }
        if (frames < lastFrames) {
            nextAttempt = 0; // the WAL restarted: what stopped the last checkpoint is gone
        }
        lastFrames = frames;
        if (litestream != null) {
            litestream.walAt(frames);
        }
        return autocheckpoint > 0 && frames >= autocheckpoint && frames >= nextAttempt;
    }

    @Override
    public void checkpointed(String schema, int rc, int walFrames, int checkpointedFrames, long nanos) {
        nextAttempt = checkpointedFrames < walFrames ? (int) Math.min(Integer.MAX_VALUE, (long) walFrames + autocheckpoint) : 0;
        CheckpointEvent.record(writeAccess.file(), schema, "PASSIVE", true, rc, walFrames, checkpointedFrames, nanos);
    }

    // ------------------------------------------------------------------ asked for

    /**
     * Runs a checkpoint of {@code schema} (null: every attached database) in {@code mode}; returns
     * {result code (0, or 5 when a reader or another process's writer stopped it short), frames in
     * the WAL, frames checkpointed}. FULL, RESTART and TRUNCATE need SQLite's write lock, so they
     * first take the write gate (within busy_timeout); none waits for another process inside SQLite.
     * Lock held, connection open.
     */
    int[] run(Database database, String schema, int mode) throws SQLException {
        if (mode < PASSIVE || mode > TRUNCATE) {
            throw new SQLException("Unknown checkpoint mode " + mode + ": PASSIVE, FULL, RESTART or TRUNCATE", SqlState.INVALID_ATTRIBUTE_VALUE);
        }
        LibraryFunctions.require("sqlite3_wal_checkpoint_v2", "checkpoint");
        String sql = "PRAGMA " + (schema == null ? "" : schema + ".") + "wal_checkpoint(" + MODES[mode] + ")";
        boolean gated = mode != PASSIVE && !writeAccess.holdsGate();
        if (gated) {
            writeAccess.acquire(sql);
        }
        try {
            int[] counts = new int[2];
            long start = System.nanoTime();
            int rc = Sqlite.walCheckpoint(database.handle(), schema, mode, counts);
            long nanos = System.nanoTime() - start;
            CheckpointEvent.record(writeAccess.file(), schema == null ? "(all)" : schema, MODES[mode], false, rc,
                    counts[0], counts[1], nanos);
            if (rc != Sqlite.OK && (rc & 0xff) != Sqlite.BUSY) {
                throw database.error(rc, sql, ResultCodes.Phase.EXECUTE);
            }
            return new int[] {rc, counts[0], counts[1]};
        } finally {
            if (gated) {
                writeAccess.releaseIfNoTransaction();
            }
        }
    }
}
