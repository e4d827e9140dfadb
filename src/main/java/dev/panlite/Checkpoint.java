package dev.panlite;

/**
 * What {@link PanliteConnection#checkpoint} did: the frames in the WAL and how many of them are now
 * in the database file (both -1 when the database is not in WAL mode). {@code complete} is false
 * when SQLite stopped short (SQLITE_BUSY): a reader still needed frames, or, for FULL, RESTART and
 * TRUNCATE, another process held the write lock or readers stayed in the WAL. The call does not
 * wait inside SQLite; ask again later.
 */
public record Checkpoint(int walFrames, int checkpointedFrames, boolean complete) {}
