package dev.panlite.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * A result set over rows held in Java: generated keys and metadata answers. Values are Long,
 * Double, String, byte[] or null, converted the way SQLite converts.
 */
final class ValuesResultSet extends AbstractResultSet {
    private final String[] labels;
    private final int[] jdbcTypes;
    private final List<Object[]> rows;
    private Object[] current;

    ValuesResultSet(JdbcStatement statement, Dates dates, String[] labels, int[] jdbcTypes, List<Object[]> rows) {
        super(statement, dates, 0);
        this.labels = labels;
        this.jdbcTypes = jdbcTypes;
        this.rows = rows;
    }

    /**
     * Nothing native to guard, but the cursor (row, current) must not move under a reader on
     * another thread: a getter would find the row gone (the misuse fuzz found an NPE there).
     */
    private final java.util.concurrent.locks.ReentrantLock guard = new java.util.concurrent.locks.ReentrantLock();

    @Override
    void enter() throws SQLException {
        guard.lock();
        // it closes with its statement (and so with the connection)
        if (!closed && statement != null && statement.isClosed()) {
            guard.unlock();
            throw Errors.closed("result set");
        }
    }

    @Override
    public boolean isClosed() {
        return closed || (statement != null && statement.isClosed());
    }

    /**
     * Closing tells the statement (resultClosed), whose state, and with closeOnCompletion its native
     * statement, only the connection's lock guards: an EXPLAIN's rows are a statement's result too
     * (ExplainRows). Always the connection's lock first, then the guard; no holder of the guard takes
     * the connection's lock.
     */
    @Override
    void enterForClose() {
        if (statement != null) {
            statement.db.lock();
        }
        guard.lock();
    }

    @Override
    void exitForClose() {
        guard.unlock();
        if (statement != null) {
            statement.db.unlock();
        }
    }

    @Override
    void exit() {
        guard.unlock();
    }

    @Override
    boolean advance() {
        if (row >= rows.size()) {
            current = null;
            return false;
        }
        current = rows.get(row);
        return true;
    }

    @Override
    void release() {
        // current stays: the statement may close this from another thread while a reader holds the guard;
        // the closed flag, checked under the guard, stops later reads
    }

    @Override
    boolean emptyBeforeFirst() {
        return rows.isEmpty();
    }

    @Override
    int columnCount() {
        return labels.length;
    }

    @Override
    String columnLabel(int column) {
        return labels[column];
    }

    @Override
    int valueType(int column) {
        return switch (current[column]) {
            case null -> dev.panlite.ffi.Sqlite.NULL;
            case Long l -> dev.panlite.ffi.Sqlite.INTEGER;
            case Integer i -> dev.panlite.ffi.Sqlite.INTEGER;
            case Double d -> dev.panlite.ffi.Sqlite.FLOAT;
            case byte[] b -> dev.panlite.ffi.Sqlite.BLOB;
            default -> dev.panlite.ffi.Sqlite.TEXT;
        };
    }

    @Override
    long longValue(int column) {
        return switch (current[column]) {
            case null -> 0;
            case Number n -> n.longValue();
            case String s -> (long) leadingNumber(s);
            default -> 0;
        };
    }

    @Override
    int intValue(int column) {
        return (int) longValue(column);
    }

    @Override
    double doubleValue(int column) {
        return switch (current[column]) {
            case null -> 0;
            case Number n -> n.doubleValue();
            case String s -> leadingNumber(s);
            default -> 0;
        };
    }

    /** SQLite reads the longest numeric prefix of text and 0 when there is none. */
    private static double leadingNumber(String s) {
        String t = s.strip();
        for (int end = t.length(); end > 0; end--) {
            try {
                return Double.parseDouble(t.substring(0, end));
            } catch (NumberFormatException e) {
                // try a shorter prefix
            }
        }
        return 0;
    }

    @Override
    String textValue(int column) {
        return switch (current[column]) {
            case null -> null;
            case byte[] b -> new String(b, StandardCharsets.UTF_8);
            case Object o -> o.toString();
        };
    }

    @Override
    byte[] blobValue(int column) {
        return switch (current[column]) {
            case null -> null;
            case byte[] b -> b.clone();
            case Object o -> o.toString().getBytes(StandardCharsets.UTF_8);
        };
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        enter();
        try {
            checkOpen();
            return JdbcResultSetMetaData.of(labels, jdbcTypes, rowClasses());
        } finally {
            exit();
        }
    }
}
