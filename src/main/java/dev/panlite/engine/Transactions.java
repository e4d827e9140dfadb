package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;

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
    // The driver began a transaction (auto-commit off) that its commit or rollback has not ended yet.
    private boolean begun;
    // SQLite rolled that transaction back on its own after an error (SQLITE_FULL, IOERR, NOMEM,
    // OR ROLLBACK): until rollback(), statements are refused and commit() and setAutoCommit(true) say
    // so, rather than return as if the work were committed (a retried commit() lost acknowledged
    // work: the fault sweeps of issue 29), as PostgreSQL refuses statements in an aborted transaction.
    private boolean rolledBackBySqlite;

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
        if (rolledBackBySqlite) { // no statement may run as part of a transaction that is gone
            throw new SQLTransactionRollbackException("SQLite rolled back the transaction after an earlier statement"
                    + " failed (see that statement's exception): call rollback(), then run the transaction again",
                    SqlState.TRANSACTION_ROLLBACK);
        }
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
            begun = true;
        }
    }

    /**
     * Called as a statement's failure is reported: true when that failure made SQLite roll back the
     * transaction the driver began (SQLite is back in auto-commit mode, the driver's flag is off).
     * Remembered until rollback(). Lock held.
     */
    boolean endedBySqlite() {
        if (begun && !autoCommit && !database.isClosed() && Sqlite.getAutocommit(database.handle())) {
            begun = false;
            rolledBackBySqlite = true;
        }
        return rolledBackBySqlite;
    }

    /** commit() or setAutoCommit(true) after SQLite rolled back on its own: what is open since goes too. */
    private void refuseCommitAfterSqlitesRollback() throws SQLException {
        rolledBackBySqlite = false;
        begun = false;
        if (inTransaction()) {
            tx.rollback(); // statements run since belonged to the lost transaction as far as the application knows
        }
        throw new SQLTransactionRollbackException("Nothing was committed: SQLite rolled back the transaction after"
                + " an earlier statement failed (see that statement's exception); run the transaction again",
                SqlState.TRANSACTION_ROLLBACK);
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
            if (on && !autoCommit && rolledBackBySqlite) {
                autoCommit = true; // switched on all the same, as asked; the caller learns its work is gone
                refuseCommitAfterSqlitesRollback();
            }
            if (on && inTransaction()) {
                tx.commit();
            }
        } finally {
            database.writeAccess().releaseIfNoTransaction();
        }
        if (on) {
            begun = false;
        }
        autoCommit = on;
    }

    /** Commits the open transaction, if any; a failed COMMIT (e.g. BUSY) leaves it open to retry. */
    public void commit() throws SQLException {
        try {
            if (rolledBackBySqlite) {
                refuseCommitAfterSqlitesRollback();
            }
            if (inTransaction()) {
                tx.commit();
            }
            begun = false;
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

    /** Rolls back the open transaction, if any (also what SQLite's own rollback left to report). */
    public void rollback() throws SQLException {
        rolledBackBySqlite = false;
        begun = false;
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
