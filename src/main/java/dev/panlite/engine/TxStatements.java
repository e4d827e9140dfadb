package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;

/**
 * BEGIN {@literal <mode>}, COMMIT and ROLLBACK for one connection (docs/experiments/003-cached-transaction-statements.md). With caching on they
 * are prepared once (SQLITE_PREPARE_PERSISTENT) outside the user statement cache and run as
 * step + reset; with it off every call prepares, steps and finalizes the text afresh, which is
 * what the benchmarks compare against.
 */
final class TxStatements {
    private final Database db;
    private final String beginSql;
    private final boolean cached;
    private Stmt begin;
    private Stmt beginReadOnly;
    private Stmt commit;
    private Stmt rollback;

    TxStatements(Database db, String beginSql, boolean cached) {
        this.db = db;
        this.beginSql = beginSql;
        this.cached = cached;
    }

    void begin() throws SQLException {
        if (!cached) {
            db.text().execute(beginSql);
            return;
        }
        if (begin == null) {
            begin = db.preparePersistent(beginSql);
        }
        run(begin);
    }

    /** Plain (deferred) BEGIN, for read-only connections whatever the transaction mode. */
    void beginReadOnly() throws SQLException {
        if (!cached) {
            db.text().execute("BEGIN");
            return;
        }
        if (beginReadOnly == null) {
            beginReadOnly = db.preparePersistent("BEGIN");
        }
        run(beginReadOnly);
    }

    void commit() throws SQLException {
        if (!cached) {
            db.text().execute("COMMIT");
            return;
        }
        if (commit == null) {
            commit = db.preparePersistent("COMMIT");
            commit.commit = true; // SQLITE_BUSY on COMMIT may be retried: the transaction stays open
        }
        run(commit);
    }

    void rollback() throws SQLException {
        if (!cached) {
            db.text().execute("ROLLBACK");
            return;
        }
        if (rollback == null) {
            rollback = db.preparePersistent("ROLLBACK");
        }
        run(rollback);
    }

    private void run(Stmt stmt) throws SQLException {
        int rc = stmt.step();
        // reset at once so the statement holds no read of the schema and a failed COMMIT can be retried
        stmt.reset();
        if (rc != Sqlite.DONE) {
            throw db.error(rc, stmt.sql, ResultCodes.Phase.EXECUTE);
        }
    }

    void close() {
        for (Stmt s : new Stmt[] {begin, beginReadOnly, commit, rollback}) {
            if (s != null) {
                s.finalizeNow();
            }
        }
        begin = beginReadOnly = commit = rollback = null;
    }
}
