package dev.panlite.jdbc;

import dev.panlite.engine.Database;
import dev.panlite.engine.ResultCodes;
import dev.panlite.engine.Stmt;
import dev.panlite.ffi.Sqlite;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.concurrent.ScheduledFuture;

/**
 * A result set reading a live SQLite statement row by row. Reads go straight to sqlite3_column_*
 * under the connection lock: nothing is copied for columns nobody reads.
 */
final class StmtResultSet extends AbstractResultSet {
    private final JdbcConnection connection;
    private final Database db;
    private final Stmt stmt;
    private final boolean ownsStmt; // release on close (Statement.execute); else reset for reuse
    private int pendingStep; // the first step, already taken by execute; 0 once consumed
    private String[] labels;

    StmtResultSet(JdbcStatement statement, Stmt stmt, int firstStep, boolean ownsStmt, long maxRows) {
        super(statement, statement.connection.dates(), maxRows);
        this.connection = statement.connection;
        this.db = connection.db;
        this.stmt = stmt;
        this.ownsStmt = ownsStmt;
        this.pendingStep = firstStep;
        this.fetchSize = statement.fetchSize;
    }

    @Override
    void enter() throws SQLException {
        connection.lockOpen();
        if (stmt.running()) { // a callback inside this statement's own step reads or moves it
            db.unlock();
            throw Errors.runningInCallback();
        }
    }

    @Override
    boolean running() {
        return stmt.running();
    }

    @Override
    void enterForClose() {
        db.lock();
    }

    @Override
    void exit() {
        db.unlock();
    }

    @Override
    boolean advance() throws SQLException {
        int rc = pendingStep;
        if (rc != 0) {
            pendingStep = 0;
        } else {
            int timeout = statement.queryTimeout;
            ScheduledFuture<?> timer = timeout > 0 ? db.interrupts().armTimeout(timeout) : null;
            try {
                rc = stmt.step();
            } finally {
                db.interrupts().disarm(timer);
            }
        }
        if (rc == Sqlite.ROW) {
            return true;
        }
        if (rc == Sqlite.DONE) {
            return false;
        }
        SQLException e = db.error(rc, stmt.sql(), ResultCodes.Phase.EXECUTE);
        stmt.reset();
        throw e;
    }

    @Override
    void release() {
        if (db.isClosed()) {
            return; // the connection finalized everything
        }
        if (ownsStmt) {
            db.release(stmt); // finalized, or cached when Statement.execute ran its text before
        } else if (!statement.closed) {
            stmt.reset(); // ends the read so the statement holds no lock; bindings stay for re-execution
        } // else the closing statement resets and clears the handle in one crossing as it returns it
    }

    @Override
    boolean emptyBeforeFirst() {
        return pendingStep == Sqlite.DONE; // the first step, taken at execution, found no row
    }

    @Override
    int columnCount() {
        return stmt.columnCount();
    }

    @Override
    String columnLabel(int column) {
        if (labels == null) {
            String[] names = new String[stmt.columnCount()];
            for (int i = 0; i < names.length; i++) {
                names[i] = stmt.columnName(i);
            }
            labels = names;
        }
        return labels[column];
    }

    @Override
    int valueType(int column) {
        return stmt.columnType(column);
    }

    @Override
    long longValue(int column) {
        return stmt.columnLong(column);
    }

    @Override
    int intValue(int column) {
        return stmt.columnInt(column);
    }

    @Override
    double doubleValue(int column) {
        return stmt.columnDouble(column);
    }

    @Override
    String textValue(int column) {
        return stmt.columnText(column);
    }

    @Override
    byte[] blobValue(int column) {
        return stmt.columnBlob(column);
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        enter();
        try {
            checkOpen();
            return JdbcResultSetMetaData.of(db, stmt, onRow);
        } finally {
            exit();
        }
    }
}
