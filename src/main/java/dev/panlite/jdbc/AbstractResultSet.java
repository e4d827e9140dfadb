package dev.panlite.jdbc;

import static dev.panlite.ffi.Sqlite.BLOB;
import static dev.panlite.ffi.Sqlite.FLOAT;
import static dev.panlite.ffi.Sqlite.INTEGER;
import static dev.panlite.ffi.Sqlite.NULL;
import static dev.panlite.ffi.Sqlite.TEXT;

import dev.panlite.engine.Vectors;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.Map;
import java.util.UUID;

/**
 * Everything a forward-only, read-only ResultSet does, written once over five primitive reads of
 * the current row ({@link #valueType}, {@link #longValue}, {@link #doubleValue}, {@link #textValue},
 * {@link #blobValue}). {@link StmtResultSet} reads them from a live SQLite statement;
 * {@link ValuesResultSet} from rows held in Java (generated keys, metadata).
 *
 * <p>Each getter brackets its reads with {@link #enter()}/{@link #exit()}: for a live statement
 * that is the connection lock and the closed checks, so a result set used after its connection
 * closed, or from another thread, gives an SQLException and never touches a freed handle.
 */
abstract class AbstractResultSet implements ResultSet {
    protected final JdbcStatement statement; // null for metadata result sets
    protected final Dates dates;
    protected boolean closed;
    protected boolean onRow;
    protected boolean afterLast;
    protected int row; // 1-based number of the current row, 0 before the first
    protected boolean wasNull;
    protected int fetchSize;
    protected final long maxRows;
    // findColumn's lookups past the plain scan, built on first use; one field, so a result set read by
    // index carries nothing more
    private LabelLookup labelLookup;
    private static final int SCAN_LABELS_UP_TO = 32;

    /** A wide result's labels -> their first column; the labels in lower case, for a case-insensitive match. */
    private static final class LabelLookup {
        java.util.Map<String, Integer> exact;
        String[] lower;
    }

    AbstractResultSet(JdbcStatement statement, Dates dates, long maxRows) {
        this.statement = statement;
        this.dates = dates;
        this.maxRows = maxRows;
    }

    // ------------------------------------------------------------------ what a subclass provides

    /** Checks the result set (and its connection) is open and takes what guards the reads. */
    abstract void enter() throws SQLException;

    abstract void exit();

    /** Moves to the next row; false at the end. Called between enter and exit. */
    abstract boolean advance() throws SQLException;

    /** Frees what the rows come from. Called between enter and exit, once. */
    abstract void release() throws SQLException;

    /** Before the first {@link #next()}: whether it is already known that there is no row. */
    abstract boolean emptyBeforeFirst();

    abstract int columnCount();

    abstract String columnLabel(int column) throws SQLException;

    abstract int valueType(int column) throws SQLException;

    abstract long longValue(int column) throws SQLException;

    abstract int intValue(int column) throws SQLException;

    abstract double doubleValue(int column) throws SQLException;

    abstract String textValue(int column) throws SQLException;

    abstract byte[] blobValue(int column) throws SQLException;

    // ------------------------------------------------------------------ cursor

    @Override
    public boolean next() throws SQLException {
        enter();
        try {
            if (closed) {
                throw Errors.closed("result set");
            }
            if (afterLast) {
                return false;
            }
            if (maxRows > 0 && row >= maxRows) {
                endOfRows();
                return false;
            }
            if (advance()) {
                onRow = true;
                row++;
                return true;
            }
            endOfRows();
            return false;
        } finally {
            exit();
        }
    }

    private void endOfRows() throws SQLException {
        onRow = false;
        afterLast = true;
    }

    @Override
    public void close() throws SQLException {
        enterForClose();
        if (running()) {
            exitForClose();
            throw Errors.runningInCallback();
        }
        try {
            closeLocked();
        } finally {
            exitForClose();
        }
    }

    /** Takes the guard without failing when the connection is gone: closing is always allowed. */
    abstract void enterForClose();

    /** Gives back what {@link #enterForClose()} took. */
    void exitForClose() {
        exit();
    }

    /** True while SQLite is inside this result set's statement (a callback of it is running). Guard held. */
    boolean running() {
        return false;
    }

    /** Closes with the guard held (also called by the statement and the connection). */
    void closeLocked() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        onRow = false;
        release();
        if (statement != null) {
            statement.resultClosed(this);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean wasNull() throws SQLException {
        if (closed) {
            throw Errors.closed("result set");
        }
        return wasNull;
    }

    /** enter(), then checks there is a current row and the index is a column; returns it 0-based. */
    protected final int enterColumn(int columnIndex) throws SQLException {
        enter();
        if (closed) {
            exit();
            throw Errors.closed("result set");
        }
        if (!onRow) {
            exit();
            throw Errors.badState(afterLast ? "The result set has no more rows" : "Call next() before reading a row");
        }
        if (columnIndex < 1 || columnIndex > columnCount()) {
            exit();
            throw Errors.badIndex("Column index " + columnIndex + " is out of range 1.." + columnCount());
        }
        return columnIndex - 1;
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        if (columnLabel == null) {
            throw Errors.badArgument("Column label is null");
        }
        enter(); // labels are read from the statement: under the guard, like every native read
        try {
            if (closed) {
                throw Errors.closed("result set");
            }
            return findColumnGuarded(columnLabel);
        } finally {
            exit();
        }
    }

    private int findColumnGuarded(String columnLabel) throws SQLException {
        int n = columnCount();
        // exact match first: a narrow result is scanned (no allocation on the common path); a wide one
        // is looked up in an index built once, so a row read by label is linear in its width, not quadratic
        if (n > SCAN_LABELS_UP_TO) {
            LabelLookup lookup = labelLookup();
            if (lookup.exact == null) {
                java.util.Map<String, Integer> index = java.util.HashMap.newHashMap(n);
                for (int i = 0; i < n; i++) {
                    String label = columnLabel(i);
                    if (label != null) {
                        index.putIfAbsent(label, i + 1); // the first of equal labels, as the scan finds
                    }
                }
                lookup.exact = index;
            }
            Integer column = lookup.exact.get(columnLabel);
            if (column != null) {
                return column;
            }
        } else {
            for (int i = 0; i < n; i++) {
                if (columnLabel.equals(columnLabel(i))) {
                    return i + 1;
                }
            }
        }
        LabelLookup lookup = labelLookup();
        if (lookup.lower == null) {
            String[] lower = new String[n];
            for (int i = 0; i < n; i++) {
                String label = columnLabel(i);
                lower[i] = label == null ? null : label.toLowerCase(java.util.Locale.ROOT);
            }
            lookup.lower = lower;
        }
        for (int i = 0; i < n; i++) {
            if (columnLabel.equalsIgnoreCase(lookup.lower[i])) {
                return i + 1;
            }
        }
        // "t.name" style labels: match the part after the last dot, as several drivers do
        int dot = columnLabel.lastIndexOf('.');
        if (dot >= 0 && dot < columnLabel.length() - 1) {
            return findColumnGuarded(columnLabel.substring(dot + 1));
        }
        throw Errors.badIndex("No column labelled '" + columnLabel + "'");
    }

    private LabelLookup labelLookup() {
        if (labelLookup == null) {
            labelLookup = new LabelLookup();
        }
        return labelLookup;
    }

    // ------------------------------------------------------------------ numbers

    // One crossing on the common path: the value, and the type only when the value is 0 (NULL reads as 0).
    // Text is converted by SQLite's own rules, as SQL's CAST would.

    @Override
    public int getInt(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int value = intValue(c);
            wasNull = value == 0 && valueType(c) == NULL;
            return value;
        } finally {
            exit();
        }
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            long value = longValue(c);
            wasNull = value == 0 && valueType(c) == NULL;
            return value;
        } finally {
            exit();
        }
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            double value = doubleValue(c);
            wasNull = value == 0 && valueType(c) == NULL;
            return value;
        } finally {
            exit();
        }
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return (short) getInt(columnIndex);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return (byte) getInt(columnIndex);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return (float) getDouble(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int type = valueType(c);
            wasNull = type == NULL;
            return switch (type) {
                case NULL -> false;
                case INTEGER -> longValue(c) != 0;
                case FLOAT -> doubleValue(c) != 0;
                default -> parseBoolean(textValue(c));
            };
        } finally {
            exit();
        }
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int type = valueType(c);
            wasNull = type == NULL;
            return switch (type) {
                case NULL -> null;
                case INTEGER -> BigDecimal.valueOf(longValue(c));
                case FLOAT -> decimalOf(doubleValue(c));
                default -> parseDecimal(textValue(c));
            };
        } finally {
            exit();
        }
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal value = getBigDecimal(columnIndex);
        return value == null ? null : value.setScale(scale, RoundingMode.HALF_UP);
    }

    private static double parseDouble(String text) throws SQLException {
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw Errors.conversion("Cannot read '" + text + "' as a number");
        }
    }

    /** SQLite stores Inf (1e999) and, from functions, NaN as REAL: no BigDecimal has those. */
    private static BigDecimal decimalOf(double value) throws SQLException {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw Errors.conversion("Cannot read " + value + " as a decimal");
        }
        return BigDecimal.valueOf(value);
    }

    private static BigDecimal parseDecimal(String text) throws SQLException {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw Errors.conversion("Cannot read '" + text + "' as a decimal");
        }
    }

    private static boolean parseBoolean(String text) throws SQLException {
        String s = text.strip();
        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("yes") || s.equalsIgnoreCase("on")
                || s.equalsIgnoreCase("t") || s.equalsIgnoreCase("y")) {
            return true;
        }
        if (s.isEmpty() || s.equalsIgnoreCase("false") || s.equalsIgnoreCase("no") || s.equalsIgnoreCase("off")
                || s.equalsIgnoreCase("f") || s.equalsIgnoreCase("n")) {
            return false;
        }
        return parseDouble(s) != 0;
    }

    // ------------------------------------------------------------------ text and bytes

    @Override
    public String getString(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            String value = textValue(c);
            wasNull = value == null;
            return value;
        } finally {
            exit();
        }
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            byte[] value = blobValue(c);
            wasNull = value == null;
            return value;
        } finally {
            exit();
        }
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] bytes = getBytes(columnIndex);
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_16BE));
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        byte[] bytes = getBytes(columnIndex);
        return bytes == null ? null : new JdbcBlob(bytes);
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new JdbcClob(s);
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new JdbcClob(s);
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        try {
            return s == null ? null : URI.create(s).toURL();
        } catch (IllegalArgumentException | MalformedURLException e) {
            throw Errors.conversion("Cannot read '" + s + "' as a URL: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ dates and times

    /** Epoch milliseconds of the value, read by its storage class; null for SQL NULL. */
    private Long epochMillis(int columnIndex, Calendar calendar) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int type = valueType(c);
            wasNull = type == NULL;
            return switch (type) {
                case NULL -> null;
                case INTEGER -> dates.millisFromInteger(longValue(c));
                case FLOAT -> Dates.millisFromJulianDay(doubleValue(c));
                default -> dates.millisFromText(textValue(c), calendar);
            };
        } finally {
            exit();
        }
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return getDate(columnIndex, null);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        Long millis = epochMillis(columnIndex, cal);
        return millis == null ? null : new Date(millis);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return getTime(columnIndex, null);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        Long millis = epochMillis(columnIndex, cal);
        return millis == null ? null : new Time(millis);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return getTimestamp(columnIndex, null);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        if (cal == null) {
            // text keeps its full fraction (micro/nanoseconds) when read as a local date-time
            int c = enterColumn(columnIndex);
            String text;
            try {
                text = valueType(c) == TEXT ? textValue(c) : null;
            } finally {
                exit();
            }
            if (text != null) {
                wasNull = false;
                try {
                    return Dates.timestampFromText(text);
                } catch (SQLException notIso) {
                    // fall through to the other accepted forms (configured format, epoch numbers)
                }
            }
        }
        Long millis = epochMillis(columnIndex, cal);
        return millis == null ? null : new Timestamp(millis);
    }

    // ------------------------------------------------------------------ objects

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int type = valueType(c);
            wasNull = type == NULL;
            return switch (type) {
                case NULL -> null;
                case INTEGER -> {
                    long v = longValue(c);
                    yield answersInteger(v) ? (Object) (int) v : (Object) v;
                }
                case FLOAT -> doubleValue(c);
                case BLOB -> blobValue(c);
                default -> textValue(c);
            };
        } finally {
            exit();
        }
    }

    /** getObject answers an INTEGER value as an Integer when it fits one, else as a Long (as the incumbent). */
    private static boolean answersInteger(long v) {
        return v == (int) v;
    }

    /**
     * The class of what {@link #getObject(int)} answers for column {@code c} (0-based) of the current
     * row, null for NULL: getColumnClassName names it (JDBC: the two agree). Guarded as a getter is.
     */
    final Class<?> objectClass(int c) throws SQLException {
        return switch (valueType(c)) {
            case NULL -> null;
            case INTEGER -> answersInteger(longValue(c)) ? Integer.class : Long.class;
            case FLOAT -> Double.class;
            case BLOB -> byte[].class;
            default -> String.class;
        };
    }

    /** {@link #objectClass} of every column of the current row, or null when there is no current row. */
    final Class<?>[] rowClasses() throws SQLException {
        if (!onRow) {
            return null;
        }
        Class<?>[] classes = new Class<?>[columnCount()];
        for (int i = 0; i < classes.length; i++) {
            classes[i] = objectClass(i);
        }
        return classes;
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw Errors.badArgument("type is null");
        }
        Object value = convert(columnIndex, type);
        return wasNull ? null : type.cast(value);
    }

    private Object convert(int columnIndex, Class<?> type) throws SQLException {
        if (type == String.class) {
            return getString(columnIndex);
        } else if (type == Integer.class || type == int.class) {
            return getInt(columnIndex);
        } else if (type == Long.class || type == long.class) {
            return getLong(columnIndex);
        } else if (type == Double.class || type == double.class) {
            return getDouble(columnIndex);
        } else if (type == Boolean.class || type == boolean.class) {
            return getBoolean(columnIndex);
        } else if (type == Float.class || type == float.class) {
            return getFloat(columnIndex);
        } else if (type == Short.class || type == short.class) {
            return getShort(columnIndex);
        } else if (type == Byte.class || type == byte.class) {
            return getByte(columnIndex);
        } else if (type == BigDecimal.class) {
            return getBigDecimal(columnIndex);
        } else if (type == BigInteger.class) {
            BigDecimal d = getBigDecimal(columnIndex);
            return d == null ? null : d.toBigInteger();
        } else if (type == byte[].class) {
            return getBytes(columnIndex);
        } else if (type == float[].class) {
            return vector(columnIndex);
        } else if (type == Object.class) {
            return getObject(columnIndex);
        } else if (type == Date.class) {
            return getDate(columnIndex);
        } else if (type == Time.class) {
            return getTime(columnIndex);
        } else if (type == Timestamp.class || type == java.util.Date.class) {
            return getTimestamp(columnIndex);
        } else if (type == LocalDateTime.class) {
            return localDateTime(columnIndex);
        } else if (type == LocalDate.class) {
            LocalDateTime dt = localDateTime(columnIndex);
            return dt == null ? null : dt.toLocalDate();
        } else if (type == LocalTime.class) {
            LocalDateTime dt = localDateTime(columnIndex);
            return dt == null ? null : dt.toLocalTime();
        } else if (type == OffsetDateTime.class) {
            return offsetDateTime(columnIndex);
        } else if (type == ZonedDateTime.class) {
            OffsetDateTime odt = offsetDateTime(columnIndex);
            return odt == null ? null : odt.toZonedDateTime();
        } else if (type == OffsetTime.class) {
            OffsetDateTime odt = offsetDateTime(columnIndex);
            return odt == null ? null : odt.toOffsetTime();
        } else if (type == Instant.class) {
            OffsetDateTime odt = offsetDateTime(columnIndex);
            return odt == null ? null : odt.toInstant();
        } else if (type == UUID.class) {
            return uuid(columnIndex);
        } else if (type == Blob.class) {
            return getBlob(columnIndex);
        } else if (type == Clob.class || type == NClob.class) {
            return getClob(columnIndex);
        } else if (type == URL.class) {
            return getURL(columnIndex);
        }
        throw Errors.conversion("Cannot convert a column to " + type.getName());
    }

    /** A java.time reading of text (ISO forms); throws SQLException for other text. */
    private interface TextReader<T> {
        T read(String text) throws SQLException;
    }

    /**
     * A java.time value of the column: ISO text is read as written (no zone shift); other text
     * (the configured date_string_format, epoch digits) and numbers are read as getTimestamp reads
     * them, as an instant in the system zone.
     */
    private <T> T temporal(int columnIndex, TextReader<T> fromText, java.util.function.Function<Instant, T> fromInstant)
            throws SQLException {
        int c = enterColumn(columnIndex);
        int type;
        String text = null;
        try {
            type = valueType(c);
            if (type == TEXT) {
                text = textValue(c);
            }
        } finally {
            exit();
        }
        if (type == NULL) {
            wasNull = true;
            return null;
        }
        if (text != null) {
            wasNull = false;
            try {
                return fromText.read(text);
            } catch (SQLException notIso) {
                // read below, as getTimestamp reads it
            }
        }
        Long millis = epochMillis(columnIndex, null); // a second read: another thread may have moved the cursor
        return millis == null ? null : fromInstant.apply(Instant.ofEpochMilli(millis));
    }

    private LocalDateTime localDateTime(int columnIndex) throws SQLException {
        return temporal(columnIndex, Dates::localDateTimeFromText,
                instant -> LocalDateTime.ofInstant(instant, ZoneId.systemDefault()));
    }

    private OffsetDateTime offsetDateTime(int columnIndex) throws SQLException {
        return temporal(columnIndex, Dates::offsetDateTimeFromText,
                instant -> OffsetDateTime.ofInstant(instant, ZoneId.systemDefault()));
    }

    private UUID uuid(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int type = valueType(c);
            wasNull = type == NULL;
            if (type == NULL) {
                return null;
            }
            if (type == BLOB) {
                byte[] b = blobValue(c);
                if (b.length != 16) {
                    throw Errors.conversion("A UUID blob has 16 bytes, not " + b.length);
                }
                ByteBuffer buffer = ByteBuffer.wrap(b);
                return new UUID(buffer.getLong(), buffer.getLong());
            }
            String s = textValue(c);
            try {
                return UUID.fromString(s.strip());
            } catch (IllegalArgumentException e) {
                throw Errors.conversion("Cannot read '" + s + "' as a UUID");
            }
        } finally {
            exit();
        }
    }

    /**
     * A float32 vector, as sqlite-vec stores it (a blob of 4 little-endian bytes per element) or
     * writes it as text (JSON). An int8 or bit vector's blob is read as its bytes ({@code byte[]}):
     * a blob does not say which it is, and one of 4n bytes would read here as n floats.
     */
    private float[] vector(int columnIndex) throws SQLException {
        int c = enterColumn(columnIndex);
        try {
            int type = valueType(c);
            wasNull = type == NULL;
            try {
                return switch (type) {
                    case NULL -> null;
                    case BLOB -> Vectors.fromBlob(blobValue(c));
                    case TEXT -> Vectors.fromJson(textValue(c));
                    default -> throw new IllegalArgumentException("a vector is a blob or JSON text, and this value is "
                            + (type == INTEGER ? "an INTEGER" : "a REAL"));
                };
            } catch (IllegalArgumentException notAVector) {
                SQLException e = Errors.conversion("Column " + columnIndex + " (" + columnLabel(c)
                        + ") is not a float32 vector: " + notAVector.getMessage());
                e.initCause(notAVector);
                throw e;
            }
        } finally {
            exit();
        }
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw Errors.notSupported("User-defined type maps");
        }
        return getObject(columnIndex);
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        throw Errors.notSupported("REF values");
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        throw Errors.notSupported("SQL arrays");
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        throw Errors.notSupported("ROWID values (select the rowid column as a long)");
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw Errors.notSupported("SQLXML");
    }

    // ------------------------------------------------------------------ by label

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        return getRef(findColumn(columnLabel));
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(findColumn(columnLabel));
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return getClob(findColumn(columnLabel));
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return getDate(findColumn(columnLabel), cal);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return getTime(findColumn(columnLabel), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return getURL(findColumn(columnLabel));
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        return getRowId(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(findColumn(columnLabel));
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        return getSQLXML(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    // ------------------------------------------------------------------ properties

    protected void checkOpen() throws SQLException {
        if (closed) {
            throw Errors.closed("result set");
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public String getCursorName() throws SQLException {
        throw Errors.notSupported("Named cursors");
    }

    @Override
    public java.sql.Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return onRow ? row : 0;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        // JDBC: false when the result set has no rows
        return row == 0 && !afterLast && !emptyBeforeFirst();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast && row > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return onRow && row == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        throw Errors.notSupported("isLast() on a forward-only SQLite cursor");
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return statement != null ? statement.holdability : HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) { // JDBC: a TYPE_FORWARD_ONLY result set refuses the others
            throw Errors.notSupported("Fetch directions other than FETCH_FORWARD on a forward-only result set");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw Errors.badArgument("fetch size must not be negative");
        }
        fetchSize = rows; // a hint; SQLite steps one row at a time
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // ------------------------------------------------------------------ scrolling and updates: not on SQLite cursors

    private static SQLException forwardOnly() {
        return Errors.notSupported("Scrolling a TYPE_FORWARD_ONLY result set");
    }

    private static SQLException readOnly() {
        return Errors.notSupported("Updating a CONCUR_READ_ONLY result set");
    }

    @Override public void beforeFirst() throws SQLException { throw forwardOnly(); }
    @Override public void afterLast() throws SQLException { throw forwardOnly(); }
    @Override public boolean first() throws SQLException { throw forwardOnly(); }
    @Override public boolean last() throws SQLException { throw forwardOnly(); }
    @Override public boolean absolute(int row) throws SQLException { throw forwardOnly(); }
    @Override public boolean relative(int rows) throws SQLException { throw forwardOnly(); }
    @Override public boolean previous() throws SQLException { throw forwardOnly(); }
    @Override public boolean rowUpdated() throws SQLException { throw readOnly(); }
    @Override public boolean rowInserted() throws SQLException { throw readOnly(); }
    @Override public boolean rowDeleted() throws SQLException { throw readOnly(); }
    @Override public void updateNull(int columnIndex) throws SQLException { throw readOnly(); }
    @Override public void updateBoolean(int columnIndex, boolean x) throws SQLException { throw readOnly(); }
    @Override public void updateByte(int columnIndex, byte x) throws SQLException { throw readOnly(); }
    @Override public void updateShort(int columnIndex, short x) throws SQLException { throw readOnly(); }
    @Override public void updateInt(int columnIndex, int x) throws SQLException { throw readOnly(); }
    @Override public void updateLong(int columnIndex, long x) throws SQLException { throw readOnly(); }
    @Override public void updateFloat(int columnIndex, float x) throws SQLException { throw readOnly(); }
    @Override public void updateDouble(int columnIndex, double x) throws SQLException { throw readOnly(); }
    @Override public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException { throw readOnly(); }
    @Override public void updateString(int columnIndex, String x) throws SQLException { throw readOnly(); }
    @Override public void updateBytes(int columnIndex, byte[] x) throws SQLException { throw readOnly(); }
    @Override public void updateDate(int columnIndex, Date x) throws SQLException { throw readOnly(); }
    @Override public void updateTime(int columnIndex, Time x) throws SQLException { throw readOnly(); }
    @Override public void updateTimestamp(int columnIndex, Timestamp x) throws SQLException { throw readOnly(); }
    @Override public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException { throw readOnly(); }
    @Override public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException { throw readOnly(); }
    @Override public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException { throw readOnly(); }
    @Override public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException { throw readOnly(); }
    @Override public void updateObject(int columnIndex, Object x) throws SQLException { throw readOnly(); }
    @Override public void updateNull(String columnLabel) throws SQLException { throw readOnly(); }
    @Override public void updateBoolean(String columnLabel, boolean x) throws SQLException { throw readOnly(); }
    @Override public void updateByte(String columnLabel, byte x) throws SQLException { throw readOnly(); }
    @Override public void updateShort(String columnLabel, short x) throws SQLException { throw readOnly(); }
    @Override public void updateInt(String columnLabel, int x) throws SQLException { throw readOnly(); }
    @Override public void updateLong(String columnLabel, long x) throws SQLException { throw readOnly(); }
    @Override public void updateFloat(String columnLabel, float x) throws SQLException { throw readOnly(); }
    @Override public void updateDouble(String columnLabel, double x) throws SQLException { throw readOnly(); }
    @Override public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException { throw readOnly(); }
    @Override public void updateString(String columnLabel, String x) throws SQLException { throw readOnly(); }
    @Override public void updateBytes(String columnLabel, byte[] x) throws SQLException { throw readOnly(); }
    @Override public void updateDate(String columnLabel, Date x) throws SQLException { throw readOnly(); }
    @Override public void updateTime(String columnLabel, Time x) throws SQLException { throw readOnly(); }
    @Override public void updateTimestamp(String columnLabel, Timestamp x) throws SQLException { throw readOnly(); }
    @Override public void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException { throw readOnly(); }
    @Override public void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException { throw readOnly(); }
    @Override public void updateCharacterStream(String columnLabel, Reader reader, int length) throws SQLException { throw readOnly(); }
    @Override public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException { throw readOnly(); }
    @Override public void updateObject(String columnLabel, Object x) throws SQLException { throw readOnly(); }
    @Override public void insertRow() throws SQLException { throw readOnly(); }
    @Override public void updateRow() throws SQLException { throw readOnly(); }
    @Override public void deleteRow() throws SQLException { throw readOnly(); }
    @Override public void refreshRow() throws SQLException { throw readOnly(); }
    @Override public void cancelRowUpdates() throws SQLException { throw readOnly(); }
    @Override public void moveToInsertRow() throws SQLException { throw readOnly(); }
    @Override public void moveToCurrentRow() throws SQLException { throw readOnly(); }
    @Override public void updateRef(int columnIndex, Ref x) throws SQLException { throw readOnly(); }
    @Override public void updateRef(String columnLabel, Ref x) throws SQLException { throw readOnly(); }
    @Override public void updateBlob(int columnIndex, Blob x) throws SQLException { throw readOnly(); }
    @Override public void updateBlob(String columnLabel, Blob x) throws SQLException { throw readOnly(); }
    @Override public void updateClob(int columnIndex, Clob x) throws SQLException { throw readOnly(); }
    @Override public void updateClob(String columnLabel, Clob x) throws SQLException { throw readOnly(); }
    @Override public void updateArray(int columnIndex, Array x) throws SQLException { throw readOnly(); }
    @Override public void updateArray(String columnLabel, Array x) throws SQLException { throw readOnly(); }
    @Override public void updateRowId(int columnIndex, RowId x) throws SQLException { throw readOnly(); }
    @Override public void updateRowId(String columnLabel, RowId x) throws SQLException { throw readOnly(); }
    @Override public void updateNString(int columnIndex, String nString) throws SQLException { throw readOnly(); }
    @Override public void updateNString(String columnLabel, String nString) throws SQLException { throw readOnly(); }
    @Override public void updateNClob(int columnIndex, NClob nClob) throws SQLException { throw readOnly(); }
    @Override public void updateNClob(String columnLabel, NClob nClob) throws SQLException { throw readOnly(); }
    @Override public void updateSQLXML(int columnIndex, SQLXML xmlObject) throws SQLException { throw readOnly(); }
    @Override public void updateSQLXML(String columnLabel, SQLXML xmlObject) throws SQLException { throw readOnly(); }
    @Override public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException { throw readOnly(); }
    @Override public void updateNCharacterStream(String columnLabel, Reader reader, long length) throws SQLException { throw readOnly(); }
    @Override public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException { throw readOnly(); }
    @Override public void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException { throw readOnly(); }
    @Override public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException { throw readOnly(); }
    @Override public void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException { throw readOnly(); }
    @Override public void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException { throw readOnly(); }
    @Override public void updateCharacterStream(String columnLabel, Reader reader, long length) throws SQLException { throw readOnly(); }
    @Override public void updateBlob(int columnIndex, InputStream inputStream, long length) throws SQLException { throw readOnly(); }
    @Override public void updateBlob(String columnLabel, InputStream inputStream, long length) throws SQLException { throw readOnly(); }
    @Override public void updateClob(int columnIndex, Reader reader, long length) throws SQLException { throw readOnly(); }
    @Override public void updateClob(String columnLabel, Reader reader, long length) throws SQLException { throw readOnly(); }
    @Override public void updateNClob(int columnIndex, Reader reader, long length) throws SQLException { throw readOnly(); }
    @Override public void updateNClob(String columnLabel, Reader reader, long length) throws SQLException { throw readOnly(); }
    @Override public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException { throw readOnly(); }
    @Override public void updateNCharacterStream(String columnLabel, Reader reader) throws SQLException { throw readOnly(); }
    @Override public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException { throw readOnly(); }
    @Override public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException { throw readOnly(); }
    @Override public void updateCharacterStream(int columnIndex, Reader x) throws SQLException { throw readOnly(); }
    @Override public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException { throw readOnly(); }
    @Override public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException { throw readOnly(); }
    @Override public void updateCharacterStream(String columnLabel, Reader reader) throws SQLException { throw readOnly(); }
    @Override public void updateBlob(int columnIndex, InputStream inputStream) throws SQLException { throw readOnly(); }
    @Override public void updateBlob(String columnLabel, InputStream inputStream) throws SQLException { throw readOnly(); }
    @Override public void updateClob(int columnIndex, Reader reader) throws SQLException { throw readOnly(); }
    @Override public void updateClob(String columnLabel, Reader reader) throws SQLException { throw readOnly(); }
    @Override public void updateNClob(int columnIndex, Reader reader) throws SQLException { throw readOnly(); }
    @Override public void updateNClob(String columnLabel, Reader reader) throws SQLException { throw readOnly(); }
}
