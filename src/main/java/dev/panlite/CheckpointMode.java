package dev.panlite;

/**
 * How {@link PanliteConnection#checkpoint} copies the WAL back into the database file (the modes of
 * sqlite3_wal_checkpoint_v2). The driver itself only ever runs PASSIVE checkpoints (its
 * autocheckpoint, {@code wal_autocheckpoint}); the others run only when asked for.
 */
public enum CheckpointMode {
    /** As much as can be done without waiting for any reader or writer. */
    PASSIVE,
    /** Takes the write lock (this JVM's writers wait for it) and checkpoints everything, unless a reader still needs frames. */
    FULL,
    /** FULL, then makes the next writer start the WAL from its beginning (needs every reader out of the WAL). */
    RESTART,
    /** RESTART, and truncates the WAL file to zero bytes. */
    TRUNCATE
}
