package dev.panlite.jdbc;

import dev.panlite.engine.Held;
import dev.panlite.engine.Database;
import dev.panlite.engine.ExplainRows;
import dev.panlite.engine.SqlText;
import dev.panlite.engine.Stmt;
import dev.panlite.engine.TextExecution;
import java.nio.charset.StandardCharsets;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A JDBC Statement: SQL text without parameters. Text holding several statements gives one result
 * per statement, in order (DatabaseMetaData.supportsMultipleResultSets): an update count, or a
 * result set for a query. Execution runs the statements up to the first query, keeping their
 * counts and the query's result set as the results to come; {@link #getMoreResults()} moves
 * through them and, past a query, runs the statements up to the next one.
 * Parameterless statements take the native helper's fused exec.
 */
public class JdbcStatement implements Statement, dev.panlite.PanliteStatement {
    final JdbcConnection connection;
    private final Connection owner; // what getConnection returns: the pooled handle it was made through, or the connection
    final Database db;
    JdbcStatement prevOpen; // the connection's list of open statements
    JdbcStatement nextOpen;
    boolean closed;
    AbstractResultSet result;
    long updateCount = -1;
    long maxRows;
    int fetchSize;
    private int fetchDirection = ResultSet.FETCH_FORWARD; // a hint: SQLite reads forward only
    int queryTimeout;

    /**
     * Rows read ahead in batches and batch rows run in chunks ({@link dev.panlite.engine.RowBatch#ENABLED},
     * {@code -Dpanlite.rowBatch}); tests compare both paths in one JVM by turning it off. Read once per
     * result set and per executeBatch.
     */
    static volatile boolean batching = dev.panlite.engine.RowBatch.ENABLED;
    private int maxFieldSize;
    private boolean closeOnCompletion;
    private boolean poolable;
    private SQLWarning warnings;
    private List<String> batch;
    private ResultsAhead ahead; // a multi-statement text's results after the current one; made at the first such text
    // generated keys of the last execution: asked for, or the incumbent's way (jdbc.get_generated_keys)
    String generatedKeyLabel;
    static final long[] NO_KEYS = {};
    long[] generatedKeys = NO_KEYS; // a batch's keys
    long insertKey; // the key of one insert, kept without an array: the common case allocates nothing
    boolean hasInsertKey;
    final boolean autoKeys; // jdbc.get_generated_keys

    final int holdability; // CLOSE_CURSORS_AT_COMMIT: the connection closes the result set at commit/rollback

    JdbcStatement(JdbcConnection connection, int holdability) {
        this.connection = connection;
        this.owner = connection.userConnection();
        this.db = connection.db;
        this.holdability = holdability;
        this.autoKeys = connection.config().generatedKeys();
    }

    /** Forgets the keys of the previous execution. */
    final void clearKeys() {
        generatedKeys = NO_KEYS;
        hasInsertKey = false;
    }

    /** After an insert changed rows: its row id, read right after the step (one short call, no query). */
    final void captureInsertKey() {
        insertKey = db.lastInsertRowid();
        hasInsertKey = true;
    }

    // Re-entry from a callback: a method of this statement is on the stack (entries > 0) and a
    // callback started since (deeper callback depth) calls this statement again. Refused: SQLite
    // may be inside this statement's SQL, which must not be restarted or freed under it.
    private int entries;
    private int entryCallbackDepth;

    /**
     * Takes the connection lock and checks both the connection and this statement are open, and
     * that this call does not come from a callback running inside this statement's own SQL.
     */
    final Held lockOpen() throws SQLException {
        Held connectionHeld = connection.lockOpen();
        if (closed) {
            connectionHeld.close();
            throw Errors.closed("statement");
        }
        int depth = db.callbackDepth();
        if (entries > 0 ? depth > entryCallbackDepth : running()) {
            connectionHeld.close();
            throw Errors.runningInCallback();
        }
        if (entries++ == 0) {
            entryCallbackDepth = depth;
        }
        return connection.entered(this); // the connection's one Held for statements: none per statement
    }

    /** This statement's method returns: called by the connection's statement {@link Held}. Lock held. */
    final void left() {
        entries--;
    }

    /** True while SQLite is inside this statement's SQL (a callback of it is running). Lock held. */
    boolean running() {
        return result != null && result.running();
    }

    /** An execution of this statement begins (cancel and the query timeout reach it): end it with {@code db.interrupts().end}. */
    final int beginExecution() {
        return db.interrupts().begin(this, queryTimeout);
    }

    /** The rows of an EXPLAIN, read at execution (ExplainRows), as a result set of this statement. */
    final ValuesResultSet explainResult(ExplainRows.Rows rows) {
        int[] types = new int[rows.labels().length];
        for (int i = 0; i < types.length; i++) {
            Object first = rows.rows().isEmpty() ? null : rows.rows().get(0)[i];
            types[i] = first instanceof Long ? Types.BIGINT : first instanceof Double ? Types.DOUBLE
                    : first instanceof byte[] ? Types.VARBINARY : Types.VARCHAR;
        }
        return new ValuesResultSet(this, connection.dates(), rows.labels(), types, rows.rows());
    }

    /**
     * Closes the current result set and drops the results still to come before the next execution
     * (JDBC: re-executing closes it) or a commit that closes cursors.
     */
    final void closeResult() throws SQLException {
        closeCurrentResult();
        if (ahead != null) {
            ahead.drop();
        }
    }

    private void closeCurrentResult() throws SQLException {
        resultStmt = null;
        if (result != null) {
            AbstractResultSet old = result;
            result = null;
            old.closeLocked();
        }
    }

    private ResultsAhead ahead() {
        if (ahead == null) {
            ahead = new ResultsAhead();
        }
        return ahead;
    }

    /** Called by a result set of this statement when it closes. */
    void resultClosed(AbstractResultSet rs) throws SQLException {
        if (rs == result) {
            result = null;
            if (closeOnCompletion && !closed) {
                closeLocked();
            }
        }
    }

    // ------------------------------------------------------------------ execution

    private Stmt resultStmt; // the statement of the current result set: executeUpdate asks whether it is a query

    /** Runs {@code sql} from the start; true when its first result is a result set. Lock held. */
    private boolean run(String sql, String keyLabel) throws SQLException {
        return run(sql, keyLabel, false);
    }

    /** {@link #run(String, String)}; with {@code refuseQueries} (executeUpdate) a text holding a query is refused before any of it runs. */
    private boolean run(String sql, String keyLabel, boolean refuseQueries) throws SQLException {
        if (sql == null) {
            throw Errors.badArgument("SQL is null");
        }
        closeResult();
        updateCount = -1;
        generatedKeyLabel = keyLabel;
        clearKeys();
        String[] backup = SqlText.backupCommand(sql);
        if (backup != null) { // the incumbent's "backup to FILE" / "restore from FILE"
            db.backups().backup(backup[0], backup[1], backup[2].equals("restore"));
            updateCount = 0;
            return false;
        }
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        // one statement needs no look ahead: a query among it is refused at its first step, which writes nothing
        if (refuseQueries && SqlText.mayHoldSeveralStatements(utf8) && db.text().preparesQuery(utf8)) {
            throw Errors.badState("executeUpdate cannot run a text holding a query; none of it ran"
                    + " (use execute and getMoreResults): " + sql);
        }
        db.transactions().beforeExecute();
        return runFrom(sql, utf8, 0);
    }

    /**
     * Runs the statements of {@code sql} from {@code offset} up to the first query (or the end): the
     * first one's result becomes the current result, the others' wait in order for getMoreResults.
     * True when the current result is a result set. Lock held.
     */
    private boolean runFrom(String sql, byte[] utf8, int offset) throws SQLException {
        boolean first = true;
        int execution = beginExecution();
        try {
            while (true) {
                long changesBefore = db.totalChanges();
                TextExecution.Executed executed = db.text().executeNext(sql, utf8, offset);
                int tail = executed.tailOffset();
                boolean more = SqlText.hasMoreSql(utf8, tail);
                if (executed.query() != null) {
                    if (more) {
                        ahead().setPending(sql, utf8, tail);
                    }
                    Stmt query = executed.query();
                    AbstractResultSet rows;
                    if (query.explains()) { // prepared just now: listed to its end before the lock goes (ExplainRows)
                        try {
                            rows = explainResult(ExplainRows.readRest(db, query, executed.firstStep(), maxRows));
                        } finally {
                            db.release(query);
                        }
                        query = null;
                    } else {
                        rows = new StmtResultSet(this, query, executed.firstStep(), false, true, maxRows);
                    }
                    if (first) {
                        result = rows;
                        resultStmt = query; // asked only by executeUpdate: execute and executeQuery pay nothing
                    } else {
                        ahead().setResult(rows, query);
                    }
                    return first;
                }
                // sqlite3_changes keeps the last INSERT, UPDATE or DELETE's count: this statement's only if it changed rows
                long count = db.totalChanges() != changesBefore ? db.changes() : 0;
                if (count > 0 && (generatedKeyLabel != null || autoKeys) && SqlText.isInsert(
                        offset == 0 && !more ? sql : new String(utf8, offset, tail - offset, StandardCharsets.UTF_8))) {
                    captureInsertKey();
                }
                if (first) {
                    updateCount = count;
                    first = false;
                } else {
                    ahead().addCount(count);
                }
                if (!more) {
                    return false;
                }
                offset = tail;
            }
        } catch (SQLException | RuntimeException e) {
            closeResult(); // a failing statement fails the execution: no result of it is left to read
            updateCount = -1;
            throw e;
        } finally {
            db.interrupts().end(execution);
        }
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        try (var held = lockOpen()) {
            return run(sql, null);
        }
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        try (var held = lockOpen()) {
            boolean rows = run(sql, null);
            while (!rows && ahead != null && ahead.hasRun()) {
                rows = nextResult(); // past the counts of the statements before the first query: they ran
            }
            if (!rows) {
                closeResult();
                updateCount = -1;
                throw Errors.badState("executeQuery: the SQL returned no result set (use executeUpdate)");
            }
            return result;
        }
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return (int) executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        return update(sql, null);
    }

    private long update(String sql, String keyLabel) throws SQLException {
        try (var held = lockOpen()) {
            long before = db.totalChanges();
            boolean rows = run(sql, keyLabel, true);
            if (!rows && (ahead == null || ahead.isEmpty())) {
                return updateCount; // one statement that returns no rows: the common case
            }
            // every statement runs, in order; those that return rows but are not queries (PRAGMA,
            // INSERT ... RETURNING) are run out
            boolean first = true;
            while (rows || updateCount != -1) {
                if (rows) {
                    if (resultStmt != null && resultStmt.isQuery()) { // null: an EXPLAIN, not a query
                        // a query the look ahead could not prepare before the statements ahead of it ran
                        closeResult();
                        throw Errors.badState(first ? "executeUpdate cannot run a query (use executeQuery): " + sql
                                : "executeUpdate cannot run a query (use execute and getMoreResults);"
                                        + " the statements before it ran: " + sql);
                    }
                    AbstractResultSet returned = result;
                    while (returned.next()) {
                        // each row is a side effect of the statement; nothing to read
                    }
                }
                rows = nextResult();
                first = false;
            }
            // the README's rule for a text: the count of the last INSERT, UPDATE or DELETE that ran
            updateCount = db.totalChanges() != before ? db.changes() : 0;
            if (updateCount > 0 && (keyLabel != null || autoKeys) && SqlText.isInsert(sql)) {
                captureInsertKey();
            }
            return updateCount;
        }
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        try (var held = lockOpen()) {
            return run(sql, keyLabel(autoGeneratedKeys));
        }
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        try (var held = lockOpen()) {
            return run(sql, columnIndexes != null && columnIndexes.length > 0 ? DEFAULT_KEY_LABEL : null);
        }
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        try (var held = lockOpen()) {
            return run(sql, keyLabel(columnNames));
        }
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return (int) update(sql, keyLabel(autoGeneratedKeys));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return (int) update(sql, columnIndexes != null && columnIndexes.length > 0 ? DEFAULT_KEY_LABEL : null);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return (int) update(sql, keyLabel(columnNames));
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return update(sql, keyLabel(autoGeneratedKeys));
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return update(sql, columnIndexes != null && columnIndexes.length > 0 ? DEFAULT_KEY_LABEL : null);
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return update(sql, keyLabel(columnNames));
    }

    /** The column name of generated keys: the incumbent's, so code written for it reads the same. */
    static final String DEFAULT_KEY_LABEL = "last_insert_rowid()";

    static String keyLabel(int autoGeneratedKeys) throws SQLException {
        return switch (autoGeneratedKeys) {
            case RETURN_GENERATED_KEYS -> DEFAULT_KEY_LABEL;
            case NO_GENERATED_KEYS -> null;
            default -> throw Errors.badArgument("autoGeneratedKeys must be RETURN_GENERATED_KEYS or NO_GENERATED_KEYS");
        };
    }

    static String keyLabel(String[] columnNames) {
        return columnNames != null && columnNames.length > 0 ? columnNames[0] : null;
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        try (var held = lockOpen()) {
            String label = generatedKeyLabel != null ? generatedKeyLabel : DEFAULT_KEY_LABEL;
            List<Object[]> rows = new ArrayList<>(generatedKeys.length + 1);
            if (hasInsertKey) {
                rows.add(new Object[] {insertKey});
            } else {
                for (long key : generatedKeys) {
                    rows.add(new Object[] {key});
                }
            }
            return new ValuesResultSet(this, connection.dates(), new String[] {label}, new int[] {Types.BIGINT}, rows);
        }
    }

    // ------------------------------------------------------------------ results

    @Override
    public ResultSet getResultSet() throws SQLException {
        try (var held = lockOpen()) {
            return result;
        }
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return (int) getLargeUpdateCount();
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        try (var held = lockOpen()) {
            return result != null ? -1 : updateCount;
        }
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    /**
     * {@code KEEP_CURRENT_RESULT} is refused (SQLFeatureNotSupportedException, as JDBC allows while
     * supportsMultipleOpenResults is false): each result is the next statement of the text, and a
     * result set kept open is a cursor SQLite steps only when it is read, so its later rows would
     * show what the statements after it did (a DELETE, a DROP) instead of what its statement saw.
     */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        if (current != CLOSE_CURRENT_RESULT && current != KEEP_CURRENT_RESULT && current != CLOSE_ALL_RESULTS) {
            throw Errors.badArgument("Unknown getMoreResults mode " + current);
        }
        if (current == KEEP_CURRENT_RESULT) {
            checkOpen();
            throw Errors.notSupported("getMoreResults(KEEP_CURRENT_RESULT) (several open results of one statement)");
        }
        try (var held = lockOpen()) {
            return nextResult();
        }
    }

    /**
     * Closes the current result and moves to the next: a count or result set already run, else the
     * rest of the text runs up to its next query. Lock held.
     */
    private boolean nextResult() throws SQLException {
        closeCurrentResult();
        updateCount = -1;
        if (ahead == null) {
            return false;
        }
        if (ahead.hasCount()) {
            updateCount = ahead.nextCount();
            return false;
        }
        if (ahead.hasResult()) {
            resultStmt = ahead.resultStmt();
            result = ahead.takeResult();
            return true;
        }
        String sql = ahead.pendingSql();
        if (sql == null) {
            return false;
        }
        byte[] utf8 = ahead.pendingUtf8();
        int offset = ahead.pendingOffset();
        ahead.setPending(null, null, 0);
        db.transactions().beforeExecute();
        return runFrom(sql, utf8, offset);
    }

    // ------------------------------------------------------------------ batches

    @Override
    public void addBatch(String sql) throws SQLException {
        try (var held = lockOpen()) {
            if (sql == null) {
                throw Errors.badArgument("SQL is null");
            }
            if (batch == null) {
                batch = new ArrayList<>();
            }
            batch.add(sql);
        }
    }

    @Override
    public void clearBatch() throws SQLException {
        try (var held = lockOpen()) {
            batch = null;
        }
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toInts(executeLargeBatch());
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        List<String> todo;
        try (var held = lockOpen()) {
            todo = batch == null ? List.of() : batch;
            batch = null;
        }
        long[] counts = new long[todo.size()];
        for (int i = 0; i < counts.length; i++) {
            try {
                counts[i] = update(todo.get(i), null);
            } catch (SQLException e) {
                throw batchFailure(e, java.util.Arrays.copyOf(counts, i));
            }
        }
        return counts;
    }

    static BatchUpdateException batchFailure(SQLException cause, long[] done) {
        return new BatchUpdateException("Batch entry " + done.length + " failed: " + cause.getMessage(),
                cause.getSQLState(), cause.getErrorCode(), done, cause);
    }

    static int[] toInts(long[] counts) {
        int[] out = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
        }
        return out;
    }

    // ------------------------------------------------------------------ cancel, close

    @Override
    public void cancel() throws SQLException {
        if (closed) {
            throw Errors.closed("statement");
        }
        // from another thread, without the lock: this statement's execution only (Interrupts)
        if (!db.interrupts().interrupt(this) && result instanceof StmtResultSet rows) {
            rows.cancelledWhileIdle(); // no step of it runs now: its reader's next step is the one cancelled
        }
    }

    @Override
    public void close() throws SQLException {
        try (var held = db.hold()) {
            if (!closed && (running() || (entries > 0 && db.callbackDepth() > entryCallbackDepth))) {
                throw Errors.runningInCallback();
            }
            closeLocked();
        }
    }

    /** Closes with the lock held (also called when the connection closes). */
    void closeLocked() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        connection.untrack(this); // first: a connection closing its statements never meets this one again
        closeResult();
        releaseNative();
    }

    /** What a subclass holds natively, given back when the statement closes. Lock held. */
    void releaseNative() {
        // a plain statement holds nothing between executions
    }

    @Override
    public boolean isClosed() {
        return closed || db.isClosed();
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    final void checkOpen() throws SQLException {
        if (closed) {
            throw Errors.closed("statement");
        }
        if (db.isClosed()) {
            throw Errors.connectionClosed();
        }
    }

    // ------------------------------------------------------------------ properties

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return maxFieldSize;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw Errors.badArgument("max field size must not be negative");
        }
        maxFieldSize = max;
    }

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return (int) Math.min(Integer.MAX_VALUE, maxRows);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw Errors.badArgument("max rows must not be negative");
        }
        maxRows = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen(); // SQLite has no JDBC escape syntax to process
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw Errors.badArgument("query timeout must not be negative");
        }
        queryTimeout = seconds;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw Errors.notSupported("Named cursors");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        // JDBC: on a Statement the direction is a hint; only values that are no direction at all are refused
        if (direction != ResultSet.FETCH_FORWARD && direction != ResultSet.FETCH_REVERSE
                && direction != ResultSet.FETCH_UNKNOWN) {
            throw Errors.badArgument("Unknown fetch direction " + direction
                    + ": expected ResultSet.FETCH_FORWARD, FETCH_REVERSE or FETCH_UNKNOWN");
        }
        fetchDirection = direction;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw Errors.badArgument("fetch size must not be negative");
        }
        fetchSize = rows; // a hint only: SQLite hands out one row per step
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return holdability;
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return owner;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    // ------------------------------------------------------------------ SQLite's counters (PanliteStatement)

    @Override
    public dev.panlite.StatementCounters counters() throws SQLException {
        try (var held = lockOpen()) {
            Stmt counted = countedStmt();
            long[] c = counted == null ? new long[7] : counted.counters();
            return new dev.panlite.StatementCounters(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
        }
    }

    /** The statement {@link #counters()} reads: the query behind the current or last result set. Lock held. */
    Stmt countedStmt() {
        return resultStmt;
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
