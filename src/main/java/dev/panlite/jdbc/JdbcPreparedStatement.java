package dev.panlite.jdbc;

import dev.panlite.engine.Held;
import dev.panlite.engine.BatchRows;
import dev.panlite.engine.Bindings;
import dev.panlite.engine.ExplainRows;
import dev.panlite.engine.ResultCodes;
import dev.panlite.engine.Stmt;
import dev.panlite.engine.Vectors;
import dev.panlite.ffi.Sqlite;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.temporal.Temporal;
import java.util.Calendar;
import java.util.UUID;

/**
 * A JDBC PreparedStatement over one SQLite statement, which it holds until closed and then gives
 * back to the connection's statement cache. Setters record values in Java ({@link Bindings}: no
 * native call, no lock); execution hands SQLite the ones that changed, text and blobs straight
 * from the Java array. A batch keeps a copy of the values per row ({@link BatchRows}).
 */
public final class JdbcPreparedStatement extends JdbcStatement implements PreparedStatement {
    private final Stmt stmt;
    private final String keyLabel; // non-null when generated keys were asked for
    private final Bindings params; // the statement's recorded values, bound at execution
    private final int parameterCount;

    /** Created with the connection lock held (counting parameters asks SQLite once per handle). */
    JdbcPreparedStatement(JdbcConnection connection, Stmt stmt, String keyLabel, int holdability) {
        super(connection, holdability);
        this.stmt = stmt;
        this.keyLabel = keyLabel;
        this.params = stmt.parameters();
        this.parameterCount = stmt.parameterCount();
    }

    // ------------------------------------------------------------------ execution

    @Override
    public ResultSet executeQuery() throws SQLException {
        try (var held = lockOpen()) {
            if (stmt.columnCount() == 0) {
                throw Errors.badState("executeQuery: the statement returns no result set (use executeUpdate): "
                        + stmt.sql());
            }
            startQuery();
            return result;
        }
    }

    /** Steps the first row now, so errors surface at execution as JDBC users expect. Lock held. */
    private void startQuery() throws SQLException {
        closeResult();
        clearKeys();
        if (stmt.explains()) { // this statement was prepared in another lock hold: list a fresh one (ExplainRows)
            updateCount = -1;
            db.transactions().beforeExecute();
            result = explainResult(ExplainRows.run(db, stmt.sql(), maxRows));
            return;
        }
        stmt.reset();
        check(stmt.flushBindings());
        updateCount = -1;
        db.transactions().beforeExecute();
        int rc;
        // A reader's first row is copied with its step, in one downcall (experiment 051); a writer's
        // (RETURNING) first step stays plain: its rows are read as they come.
        boolean copy = batching && !stmt.writes();
        int execution = beginExecution();
        try {
            rc = copy ? stmt.stepCopying() : stmt.step();
        } finally {
            db.interrupts().end(execution);
        }
        if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
            throw failed(rc);
        }
        if (!copy) {
            stmt.refreshColumnCount(); // the first step re-prepared it if the schema changed (stepCopying reads it too)
        }
        result = new StmtResultSet(this, stmt, rc, copy, false, maxRows);
    }

    private SQLException failed(int rc) {
        SQLException e = db.error(rc, stmt.sql(), ResultCodes.Phase.EXECUTE);
        stmt.reset();
        return e;
    }

    @Override
    public int executeUpdate() throws SQLException {
        return (int) executeLargeUpdate();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        try (var held = lockOpen()) {
            if (stmt.isQuery()) {
                throw Errors.badState("executeUpdate cannot run a query (use executeQuery): " + stmt.sql());
            }
            closeResult();
            stmt.reset();
            check(stmt.flushBindings());
            db.transactions().beforeExecute();
            clearKeys();
            long count = runToCompletion();
            if (count > 0 && (keyLabel != null || autoKeys) && stmt.insertsRows()) {
                captureInsertKey();
            }
            return count;
        }
    }

    /** Steps until done (rows of PRAGMA or RETURNING are side effects), resets, returns the update count. */
    private long runToCompletion() throws SQLException {
        if (stmt.explains()) { // rows that are a report: listed from a fresh statement and dropped (ExplainRows)
            ExplainRows.run(db, stmt.sql(), 1);
            updateCount = 0;
            return 0;
        }
        int rc;
        int execution = beginExecution();
        try {
            do {
                rc = stmt.step();
            } while (rc == Sqlite.ROW);
        } finally {
            db.interrupts().end(execution);
        }
        if (rc != Sqlite.DONE) {
            throw failed(rc);
        }
        stmt.reset(); // release what the statement holds; the bindings stay for re-execution
        // sqlite3_changes is the count of the last INSERT/UPDATE/DELETE, whichever statement that was
        updateCount = stmt.changesRows() ? db.changes() : 0;
        return updateCount;
    }

    @Override
    public boolean execute() throws SQLException {
        try (var held = lockOpen()) {
            if (stmt.columnCount() > 0) {
                startQuery();
                return true;
            }
        }
        executeLargeUpdate();
        return false;
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        stmt.batch().add(params);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        stmt.clearBatch();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toInts(executeLargeBatch());
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        try (var held = lockOpen()) {
            try {
                if (stmt.isQuery()) {
                    throw batchFailure(Errors.badState("A query cannot run in a batch: " + stmt.sql()), new long[0]);
                }
                closeResult();
                stmt.reset();
                db.transactions().beforeExecute();
                BatchRows batch = stmt.batch();
                int n = batch.size();
                long[] counts = new long[n];
                clearKeys();
                long[] rowids = keyLabel != null && stmt.insertsRows() ? new long[n] : null;
                for (int i = 0; i < n; i++) {
                    if (queryTimeout == 0 && batching) { // with a timeout each row runs under its own clock, as below
                        int rc;
                        int execution = beginExecution(); // no timeout here: cancel reaches it
                        try {
                            rc = stmt.runBatch(batch, i, counts, rowids); // a chunk of rows in one downcall
                        } finally {
                            db.interrupts().end(execution);
                        }
                        if (rc != -1) {
                            i += batch.completed();
                            if (rc == Sqlite.DONE) {
                                i--;
                                continue;
                            }
                            if ((rc & 0xff) != Sqlite.BUSY) {
                                throw batchFailure(failed(rc), java.util.Arrays.copyOf(counts, i));
                            }
                            stmt.reset(); // SQLITE_BUSY: this row runs below, through the write path's retries
                        }
                    }
                    try {
                        check(batch.bindRow(stmt, i));
                        counts[i] = runToCompletion();
                    } catch (SQLException e) {
                        throw batchFailure(e, java.util.Arrays.copyOf(counts, i));
                    }
                    if (rowids != null) {
                        rowids[i] = db.lastInsertRowid();
                    }
                }
                if (rowids != null) {
                    long[] keys = new long[n];
                    int keyCount = 0;
                    for (int i = 0; i < n; i++) {
                        if (counts[i] > 0) {
                            keys[keyCount++] = rowids[i];
                        }
                    }
                    generatedKeys = java.util.Arrays.copyOf(keys, keyCount);
                } else if (autoKeys && n > 0 && counts[n - 1] > 0 && stmt.insertsRows()) {
                    captureInsertKey(); // unasked, as the incumbent answers: the last row's key
                }
                return counts;
            } finally {
                stmt.clearBatch(); // JDBC: the batch is empty once executeBatch returns, even by an exception
            }
        }
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        if (keyLabel != null) {
            generatedKeyLabel = keyLabel;
        }
        return super.getGeneratedKeys();
    }

    /** The sqlite3_stmt* this statement holds (tests of the statement cache compare handles). */
    long stmtHandle() {
        return stmt.handle();
    }

    @Override
    boolean running() {
        return stmt.running() || super.running();
    }

    @Override
    void releaseNative() {
        db.release(stmt); // back to the cache (reset + clear in one crossing) or finalized
    }

    // ------------------------------------------------------------------ statements with SQL text are not for a PreparedStatement

    private static SQLException textNotAllowed() {
        return Errors.badState("A PreparedStatement runs its own SQL: call the method without an SQL argument");
    }

    @Override public boolean execute(String sql) throws SQLException { throw textNotAllowed(); }
    @Override public ResultSet executeQuery(String sql) throws SQLException { throw textNotAllowed(); }
    @Override public int executeUpdate(String sql) throws SQLException { throw textNotAllowed(); }
    @Override public long executeLargeUpdate(String sql) throws SQLException { throw textNotAllowed(); }
    @Override public void addBatch(String sql) throws SQLException { throw textNotAllowed(); }
    @Override public boolean execute(String sql, int autoGeneratedKeys) throws SQLException { throw textNotAllowed(); }
    @Override public boolean execute(String sql, int[] columnIndexes) throws SQLException { throw textNotAllowed(); }
    @Override public boolean execute(String sql, String[] columnNames) throws SQLException { throw textNotAllowed(); }
    @Override public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException { throw textNotAllowed(); }
    @Override public int executeUpdate(String sql, int[] columnIndexes) throws SQLException { throw textNotAllowed(); }
    @Override public int executeUpdate(String sql, String[] columnNames) throws SQLException { throw textNotAllowed(); }
    @Override public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException { throw textNotAllowed(); }
    @Override public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException { throw textNotAllowed(); }
    @Override public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException { throw textNotAllowed(); }

    // ------------------------------------------------------------------ metadata

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        try (var held = lockOpen()) {
            return stmt.columnCount() == 0 ? null : JdbcResultSetMetaData.of(db, stmt, null);
        }
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        try (var held = lockOpen()) {
            return new JdbcParameterMetaData(stmt.parameterCount());
        }
    }

    // ------------------------------------------------------------------ binding

    /**
     * Checks the statement is open and the index is a parameter. No lock: setting a value only
     * writes Java arrays ({@link Bindings}); SQLite sees it at the next execution.
     */
    private void checkIndex(int index) throws SQLException {
        checkOpen();
        if (index < 1 || index > parameterCount) {
            throw Errors.badIndex("Parameter index " + index + " is out of range 1.." + parameterCount);
        }
    }

    private void check(int rc) throws SQLException {
        if (rc != Sqlite.OK) {
            SQLException e = db.error(rc, stmt.sql(), ResultCodes.Phase.EXECUTE);
            stmt.reset();
            throw e;
        }
    }

    @Override
    public void clearParameters() throws SQLException {
        try (var held = lockOpen()) {
            stmt.clearBindings();
        }
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        checkIndex(parameterIndex);
        params.setNull(parameterIndex);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        setNull(parameterIndex, sqlType);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        checkIndex(parameterIndex);
        params.setLong(parameterIndex, x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        checkIndex(parameterIndex);
        params.setLong(parameterIndex, x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        checkIndex(parameterIndex);
        params.setDouble(parameterIndex, x);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        setInt(parameterIndex, x ? 1 : 0);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        setInt(parameterIndex, x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        setInt(parameterIndex, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        // through the decimal text so 0.1f is stored as 0.1, not 0.10000000149011612
        setDouble(parameterIndex, Double.parseDouble(Float.toString(x)));
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.DECIMAL);
        } else {
            bindTextValue(parameterIndex, x.toPlainString()); // exact; numeric affinity converts on insert
        }
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.VARCHAR);
        } else {
            bindTextValue(parameterIndex, x);
        }
    }

    private void bindTextValue(int parameterIndex, String x) throws SQLException {
        checkIndex(parameterIndex);
        params.setText(parameterIndex, x.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        setString(parameterIndex, value);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.BLOB);
            return;
        }
        // not copied (64 KiB copied per 64 KiB blob cost ~4% of a round trip): bound at the next execution
        // with what the array holds then, as the incumbent does; addBatch copies it into its row
        bindBlobValue(parameterIndex, x);
    }

    private void bindBlobValue(int parameterIndex, byte[] bytes) throws SQLException {
        checkIndex(parameterIndex);
        params.setBlob(parameterIndex, bytes);
    }

    // --- dates: written per date_class (default: epoch milliseconds as the incumbent writes)

    private void bindDate(int parameterIndex, java.util.Date x, Calendar calendar, int sqlType) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, sqlType);
            return;
        }
        Object value = connection.dates().toSqlite(x.getTime(), calendar);
        switch (value) {
            case Long l -> setLong(parameterIndex, l);
            case Double d -> setDouble(parameterIndex, d);
            default -> bindTextValue(parameterIndex, value.toString());
        }
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        bindDate(parameterIndex, x, null, Types.DATE);
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        bindDate(parameterIndex, x, cal, Types.DATE);
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        bindDate(parameterIndex, x, null, Types.TIME);
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        bindDate(parameterIndex, x, cal, Types.TIME);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        bindDate(parameterIndex, x, null, Types.TIMESTAMP);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        bindDate(parameterIndex, x, cal, Types.TIMESTAMP);
    }

    // --- streams, LOBs: read whole, then bound like bytes or text

    private static byte[] readAll(InputStream in, long length) throws SQLException {
        try {
            if (length >= 0) {
                if (length > Integer.MAX_VALUE - 8) {
                    throw Errors.badArgument("A value of " + length + " bytes is too large for SQLite");
                }
                byte[] bytes = in.readNBytes((int) length);
                if (bytes.length < length) {
                    throw Errors.badArgument("The stream ended after " + bytes.length + " of " + length + " bytes");
                }
                return bytes;
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw Errors.wrap("Reading the stream failed", e);
        }
    }

    private static String readAll(Reader reader, long length) throws SQLException {
        try {
            StringWriter out = new StringWriter();
            if (length < 0) {
                reader.transferTo(out);
                return out.toString();
            }
            char[] buffer = new char[8192];
            long left = length;
            while (left > 0) {
                int n = reader.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw Errors.badArgument("The reader ended after " + (length - left) + " of " + length + " characters");
                }
                out.write(buffer, 0, n);
                left -= n;
            }
            return out.toString();
        } catch (IOException e) {
            throw Errors.wrap("Reading the characters failed", e);
        }
    }

    private void setBinary(int parameterIndex, InputStream x, long length) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.BLOB);
        } else {
            checkIndex(parameterIndex);
            params.setOwnedBlob(parameterIndex, readAll(x, length)); // the driver's array: bound once
        }
    }

    private void setText(int parameterIndex, Reader x, long length) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.VARCHAR);
        } else {
            bindTextValue(parameterIndex, readAll(x, length));
        }
    }

    private void setAscii(int parameterIndex, InputStream x, long length) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.VARCHAR);
        } else {
            bindTextValue(parameterIndex, new String(readAll(x, length), StandardCharsets.US_ASCII));
        }
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setAscii(parameterIndex, x, length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        setAscii(parameterIndex, x, length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        setAscii(parameterIndex, x, -1);
    }

    /** {@code length} bytes of UTF-8, as JDBC says (ResultSet.getUnicodeStream, by contrast, answers UTF-16BE). */
    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.VARCHAR);
        } else {
            bindTextValue(parameterIndex, new String(readAll(x, length), StandardCharsets.UTF_8));
        }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setBinary(parameterIndex, x, length);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        setBinary(parameterIndex, x, length);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        setBinary(parameterIndex, x, -1);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        setText(parameterIndex, reader, length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        setText(parameterIndex, reader, length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        setText(parameterIndex, reader, -1);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        setText(parameterIndex, value, length);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        setText(parameterIndex, value, -1);
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.BLOB);
        } else {
            setBinary(parameterIndex, x.getBinaryStream(), x.length());
        }
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        setBinary(parameterIndex, inputStream, length);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        setBinary(parameterIndex, inputStream, -1);
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, Types.CLOB);
        } else {
            setText(parameterIndex, x.getCharacterStream(), x.length());
        }
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setText(parameterIndex, reader, length);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        setText(parameterIndex, reader, -1);
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        setClob(parameterIndex, value);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setText(parameterIndex, reader, length);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        setText(parameterIndex, reader, -1);
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        setString(parameterIndex, x == null ? null : x.toString());
    }

    // --- objects

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        switch (x) {
            case null -> setNull(parameterIndex, Types.NULL);
            case String s -> setString(parameterIndex, s);
            case Integer i -> setInt(parameterIndex, i);
            case Long l -> setLong(parameterIndex, l);
            case Short s -> setInt(parameterIndex, s);
            case Byte b -> setInt(parameterIndex, b);
            case Double d -> setDouble(parameterIndex, d);
            case Float f -> setFloat(parameterIndex, f);
            case Boolean b -> setInt(parameterIndex, b ? 1 : 0);
            case BigDecimal d -> setBigDecimal(parameterIndex, d);
            case BigInteger i -> {
                if (i.bitLength() < 64) {
                    setLong(parameterIndex, i.longValue());
                } else {
                    setString(parameterIndex, i.toString());
                }
            }
            case byte[] b -> setBytes(parameterIndex, b);
            case float[] f -> bindVector(parameterIndex, f);
            case Timestamp t -> setTimestamp(parameterIndex, t);
            case Date d -> setDate(parameterIndex, d);
            case Time t -> setTime(parameterIndex, t);
            case java.util.Date d -> bindDate(parameterIndex, d, null, Types.TIMESTAMP);
            case Calendar c -> bindDate(parameterIndex, c.getTime(), c, Types.TIMESTAMP);
            case Temporal t -> setString(parameterIndex, Dates.toText(t));
            case UUID u -> setString(parameterIndex, u.toString());
            case Character c -> setString(parameterIndex, c.toString());
            case Blob b -> setBlob(parameterIndex, b);
            case Clob c -> setClob(parameterIndex, c);
            case InputStream in -> setBinaryStream(parameterIndex, in);
            case Reader r -> setCharacterStream(parameterIndex, r);
            case URL u -> setURL(parameterIndex, u);
            case Enum<?> e -> setString(parameterIndex, e.name());
            default -> throw Errors.conversion("Cannot bind a " + x.getClass().getName()
                    + "; use a String, number, byte[], float[] (a vector), date/time or java.time value");
        }
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        setObject(parameterIndex, x, targetSqlType, -1);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, targetSqlType);
            return;
        }
        switch (targetSqlType) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                    Types.CLOB, Types.NCLOB -> setString(parameterIndex, x instanceof Temporal t ? Dates.toText(t)
                            : x instanceof byte[] b ? new String(b, StandardCharsets.UTF_8)
                            : x instanceof float[] f ? Vectors.toJson(f, parameterIndex) : x.toString());
            case Vectors.FLOAT32 -> {
                switch (x) {
                    case float[] f -> bindVector(parameterIndex, f);
                    case byte[] b when b.length % Float.BYTES == 0 -> setBytes(parameterIndex, b);
                    default -> throw Errors.conversion("Parameter " + parameterIndex + ": a FLOAT32 vector is a float[]"
                            + " (or its blob: a byte[] of 4 bytes per element), not " + describe(x));
                }
            }
            case Vectors.INT8, Vectors.BIT -> {
                if (!(x instanceof byte[] b)) {
                    throw Errors.conversion("Parameter " + parameterIndex + ": an " + (targetSqlType == Vectors.INT8
                            ? "INT8 vector is a byte[] of one signed byte per element (sqlite-vec's vec_quantize_int8() makes one"
                            : "BIT vector is a byte[] of 8 elements per byte (sqlite-vec's vec_quantize_binary() makes one")
                            + " from a float32 vector in SQL), not " + describe(x));
                }
                setBytes(parameterIndex, b); // the SQL wraps it in vec_int8(?) or vec_bit(?): see VectorType
            }
            case Types.BOOLEAN, Types.BIT -> setBoolean(parameterIndex, toBoolean(x));
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> setLong(parameterIndex, toLong(x));
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> setDouble(parameterIndex, toDouble(x));
            case Types.DECIMAL, Types.NUMERIC -> {
                BigDecimal d = x instanceof BigDecimal bd ? bd : new BigDecimal(x.toString().strip());
                setBigDecimal(parameterIndex, scaleOrLength >= 0 ? d.setScale(scaleOrLength, java.math.RoundingMode.HALF_UP) : d);
            }
            default -> setObject(parameterIndex, x);
        }
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, x, vendorType(targetSqlType), scaleOrLength);
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, x, vendorType(targetSqlType), -1);
    }

    /** A float32 vector: bound as sqlite-vec's blob from the array itself at execution, as {@link #setBytes}. */
    private void bindVector(int parameterIndex, float[] vector) throws SQLException {
        checkIndex(parameterIndex);
        params.setFloats(parameterIndex, vector);
    }

    private static String describe(Object x) {
        return x instanceof byte[] b ? "a byte[] of " + b.length + " bytes" : "a " + x.getClass().getTypeName();
    }

    private static int vendorType(SQLType type) throws SQLException {
        if (type == null || type.getVendorTypeNumber() == null) {
            throw Errors.badArgument("Unknown SQL type " + type);
        }
        return type.getVendorTypeNumber();
    }

    private static boolean toBoolean(Object x) throws SQLException {
        return switch (x) {
            case Boolean b -> b;
            case Number n -> n.doubleValue() != 0;
            case String s -> s.equalsIgnoreCase("true") || s.equals("1") || s.equalsIgnoreCase("yes");
            default -> throw Errors.conversion("Cannot convert a " + x.getClass().getName() + " to BOOLEAN");
        };
    }

    private static long toLong(Object x) throws SQLException {
        try {
            return switch (x) {
                case Number n -> n.longValue();
                case Boolean b -> b ? 1 : 0;
                case String s -> new BigDecimal(s.strip()).longValueExact();
                default -> throw Errors.conversion("Cannot convert a " + x.getClass().getName() + " to an integer");
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw Errors.conversion("Cannot convert '" + x + "' to an integer");
        }
    }

    private static double toDouble(Object x) throws SQLException {
        try {
            return switch (x) {
                case Number n -> n.doubleValue();
                case Boolean b -> b ? 1 : 0;
                case String s -> Double.parseDouble(s.strip());
                default -> throw Errors.conversion("Cannot convert a " + x.getClass().getName() + " to a number");
            };
        } catch (NumberFormatException e) {
            throw Errors.conversion("Cannot convert '" + x + "' to a number");
        }
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        throw Errors.notSupported("REF values");
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        throw Errors.notSupported("SQL arrays");
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        throw Errors.notSupported("ROWID values (bind the rowid as a long)");
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        throw Errors.notSupported("SQLXML");
    }

    /** Its own statement: the counters of its execution in progress or its last one. */
    @Override
    Stmt countedStmt() {
        return stmt;
    }
}
