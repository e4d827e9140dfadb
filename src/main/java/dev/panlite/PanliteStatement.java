package dev.panlite;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Panlite's extras on a statement: {@code statement.unwrap(PanliteStatement.class)} works on every
 * Panlite {@link Statement} and {@link java.sql.PreparedStatement} (and through pools that implement
 * unwrap, as HikariCP does).
 */
public interface PanliteStatement extends Statement {
    /**
     * SQLite's counters of this statement ({@link StatementCounters}): for a PreparedStatement, of its
     * execution in progress or its last one; for a plain Statement, of the query behind its current
     * or last result set (a statement Statement.execute ran without rows is not counted: all zero).
     * Whether a query scanned a table it should have searched by index shows as
     * {@code fullscanSteps() > 0}.
     */
    StatementCounters counters() throws SQLException;
}
