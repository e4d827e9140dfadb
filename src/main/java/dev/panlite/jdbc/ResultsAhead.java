package dev.panlite.jdbc;

import dev.panlite.engine.Stmt;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The results of a multi-statement text after the current one: the update counts of statements that
 * already ran, then the result set of the query that ended them, then the part of the text not run
 * yet (run by getMoreResults past that query). A statement makes one only for a text of several
 * statements, so that a plain execute carries none of these fields (experiment 081).
 */
final class ResultsAhead {
    private long[] counts = new long[4];
    private int from;
    private int to;
    private AbstractResultSet result;
    private Stmt resultStmt; // result's statement (see JdbcStatement.resultStmt)
    private String pendingSql;
    private byte[] pendingUtf8;
    private int pendingOffset;

    void addCount(long count) {
        if (to == counts.length) {
            counts = Arrays.copyOf(counts, to * 2);
        }
        counts[to++] = count;
    }

    void setResult(AbstractResultSet rows, Stmt stmt) {
        result = rows;
        resultStmt = stmt;
    }

    void setPending(String sql, byte[] utf8, int offset) {
        pendingSql = sql;
        pendingUtf8 = utf8;
        pendingOffset = offset;
    }

    /** True when a count or a result set already ran and waits to be read. */
    boolean hasRun() {
        return from < to || result != null;
    }

    boolean isEmpty() {
        return !hasRun() && pendingSql == null;
    }

    boolean hasCount() {
        return from < to;
    }

    long nextCount() {
        long count = counts[from++];
        if (from == to) {
            from = to = 0; // all read: the array is reused by the next text
        }
        return count;
    }

    boolean hasResult() {
        return result != null;
    }

    /** The statement of the waiting result set; read it before {@link #takeResult}. */
    Stmt resultStmt() {
        return resultStmt;
    }

    /** The result set waiting after the counts, handed over to the caller. */
    AbstractResultSet takeResult() {
        AbstractResultSet rows = result;
        result = null;
        resultStmt = null;
        return rows;
    }

    String pendingSql() {
        return pendingSql;
    }

    byte[] pendingUtf8() {
        return pendingUtf8;
    }

    int pendingOffset() {
        return pendingOffset;
    }

    /** Drops everything, closing the result set that waits (lock held). */
    void drop() throws SQLException {
        from = to = 0;
        pendingSql = null;
        pendingUtf8 = null;
        AbstractResultSet old = result;
        result = null;
        resultStmt = null;
        if (old != null) {
            old.closeLocked();
        }
    }
}
