package dev.panlite;

/**
 * Told of every row a connection inserts, updates or deletes and of every commit and rollback
 * (SQLite's update, commit and rollback hooks; the incumbent's {@code SQLiteUpdateListener} and
 * {@code SQLiteCommitListener}). Registered with {@link PanliteConnection#addChangeListener}.
 *
 * <p>Called on the thread running the statement, while it runs: keep it short. SQLite forbids using
 * the connection from inside it, so every call on it gives an SQLException (a close is carried out
 * when the statement returns). An exception it throws is logged, not propagated: SQLite gives these
 * hooks no way to fail the statement.
 */
public interface ChangeListener {
    /** What happened to a row. */
    enum Kind { INSERT, UPDATE, DELETE }

    /** A row of {@code schema.table} with rowid {@code rowId} changed. */
    default void rowChanged(Kind kind, String schema, String table, long rowId) {}

    /** A transaction (explicit or a single auto-commit statement) is about to commit. */
    default void committed() {}

    /** A transaction rolled back. */
    default void rolledBack() {}
}
