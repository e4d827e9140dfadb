package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;

/**
 * A connection's transactions as JDBC sees them: auto-commit, the lazy BEGIN before the first
 * statement, commit and rollback through the statements prepared once ({@link TxStatements}), and
 * read-only (whose transactions begin deferred and never queue for the write gate). Every method
 * runs with the connection's lock held.
 */
public final class Transactions {
    private final Database database;
    private final EngineConfig config;
    private final TxStatements tx;
    private boolean autoCommit = true;
    private long transactionNumber; // counts transactions the driver began: savepoints belong to one
    private boolean readOnly; // JDBC read-only (query_only): see setReadOnly

    Transactions(Database database, EngineConfig config) {
        this.database = database;
        this.config = config;
        this.tx = new TxStatements(database, config.beginSql(), config.cacheTxStatements());
    }

    public boolean autoCommit() {
        return autoCommit;
    }

    /** True while SQLite has a transaction open (whoever began it). */
    public boolean inTransaction() {
        assert database.isLockedByMe();
        return !database.isClosed() && !Sqlite.getAutocommit(database.handle());
    }

    /** True when the connection cannot write: its transactions begin deferred and never queue for the gate. */
    boolean readOnlyAny() {
        return readOnly || config.readOnlyOpen();
    }

    /**
     * Called before every statement runs: with auto-commit off, the transaction begins here, lazily,
     * so an idle connection holds no lock. Asking SQLite (not a flag of ours) notices a transaction
     * SQLite ended on its own (ON CONFLICT ROLLBACK, SQLITE_FULL, interrupt).
     */
    public void beforeExecute() throws SQLException {
        assert database.isLockedByMe();
        database.checkOpen();
        if (!autoCommit && Sqlite.getAutocommit(database.handle())) {
            transactionNumber++;
            if (readOnlyAny()) {
                tx.beginReadOnly(); // never queues for the gate
            } else if (config.deferredTransactions()) {
                tx.begin(); // the caller chose deferred: no gate, an upgrade to writing may fail with SQLITE_BUSY
            } else {
                WriteAccess writeAccess = database.writeAccess();
                writeAccess.acquire(config.beginSql());
                try {
                    tx.begin();
                } finally {
                    writeAccess.releaseIfNoTransaction(); // BEGIN failed: nothing holds SQLite's lock
                }
            }
        }
    }

    /** Begins a transaction now unless one is open (a savepoint needs one under auto-commit off). */
    public void beginIfNeeded() throws SQLException {
        beforeExecute();
    }

    /**
     * JDBC setReadOnly (the caller also sets PRAGMA query_only): a read-only connection's
     * transactions begin DEFERRED whatever transaction_mode says, since IMMEDIATE and EXCLUSIVE
     * take the write lock, which query_only and a read-only file refuse (SQLITE_READONLY).
     */
    public void setReadOnly(boolean on) {
        readOnly = on;
    }

    /** Which transaction the driver began last; a savepoint set in an earlier one is gone. */
    public long transactionNumber() {
        return transactionNumber;
    }

    /**
     * JDBC setAutoCommit: switching it on inside a transaction commits. Inside is SQLite's answer, not
     * the flag: a transaction SQL text began (BEGIN) while auto-commit was on is committed too, so
     * SQLite is in auto-commit mode when this returns, as {@link #autoCommit()} then says.
     */
    public void setAutoCommit(boolean on) throws SQLException {
        try {
            if (on && inTransaction()) {
                tx.commit();
            }
        } finally {
            database.writeAccess().releaseIfNoTransaction();
        }
        autoCommit = on;
    }

    /** Commits the open transaction, if any; a failed COMMIT (e.g. BUSY) leaves it open to retry. */
    public void commit() throws SQLException {
        try {
            if (inTransaction()) {
                tx.commit();
            }
        } finally {
            database.writeAccess().releaseIfNoTransaction(); // a failed COMMIT leaves the transaction, and the gate, to retry
        }
    }

    /**
     * What a new connection has: no transaction (whatever SQLite has open is rolled back, also one SQL
     * text began while auto-commit was on) and auto-commit on. A pooled handle's close.
     */
    public void rollbackAndAutoCommit() throws SQLException {
        rollback(); // asks SQLite, not the flag
        autoCommit = true;
    }

    /** Rolls back the open transaction, if any. */
    public void rollback() throws SQLException {
        try {
            if (inTransaction()) {
                tx.rollback();
            }
        } finally {
            database.writeAccess().releaseIfNoTransaction();
        }
    }

    /** Finalizes the transaction statements (connection close, deserialize); they are prepared again when needed. */
    void closeStatements() {
        tx.close();
    }
}
