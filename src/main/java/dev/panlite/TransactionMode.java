package dev.panlite;

/** How a transaction begins when auto-commit is off (setting {@code transaction_mode}). */
public enum TransactionMode {
    /** Locks are taken at the first read or write. */
    DEFERRED,
    /** The write lock is taken at once, so a later write cannot fail with SQLITE_BUSY mid-transaction. */
    IMMEDIATE,
    /** Like IMMEDIATE; in journal modes other than WAL also keeps other connections from reading. */
    EXCLUSIVE;

    private final String beginSql = "BEGIN " + name();

    /** The statement that opens a transaction in this mode, e.g. {@code "BEGIN DEFERRED"}. */
    public String beginSql() {
        return beginSql;
    }
}
