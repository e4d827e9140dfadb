package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** java.sql.ResultSet and ResultSetMetaData over a live SQLite statement. */
class ResultSetTest {
    @TempDir
    Path dir;

    Connection conn;
    Statement stmt;

    static final byte[] BLOB = {0, 1, 2, 3, (byte) 0xfe, (byte) 0xff};
    static final String UUID_TEXT = "123e4567-e89b-12d3-a456-426614174000";

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        TestDb.exec(conn, """
                CREATE TABLE t(
                    id INTEGER PRIMARY KEY,
                    name VARCHAR(20) NOT NULL,
                    small INTEGER,
                    big BIGINT,
                    r REAL,
                    d DOUBLE,
                    b BLOB,
                    n NUMERIC,
                    flag BOOLEAN,
                    txt TEXT,
                    nada
                )""",
                "INSERT INTO t VALUES (1, 'alice', 42, 1099511627776, 2.5, -0.125, x'00010203feff', 12.75, 1,"
                        + " 'hello', NULL)",
                "INSERT INTO t(id, name) VALUES (2, 'bob')");
        stmt = conn.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
    }

    private ResultSet row(String sql) throws SQLException {
        ResultSet rs = stmt.executeQuery(sql);
        assertTrue(rs.next(), "no row: " + sql);
        return rs;
    }

    private ResultSet first() throws SQLException {
        return row("SELECT * FROM t WHERE id = 1");
    }

    private ResultSet allNull() throws SQLException {
        return row("SELECT small, big, r, b, n, flag, txt, nada FROM t WHERE id = 2");
    }

    // ------------------------------------------------------------------ cursor

    @Test
    void nextWalksRowsThenReturnsFalse() throws SQLException {
        try (ResultSet rs = stmt.executeQuery("SELECT id FROM t ORDER BY id")) {
            assertTrue(rs.isBeforeFirst());
            assertEquals(0, rs.getRow());
            assertTrue(rs.next());
            assertTrue(rs.isFirst());
            assertEquals(1, rs.getRow());
            assertEquals(1, rs.getInt(1));
            assertTrue(rs.next());
            assertEquals(2, rs.getInt(1));
            assertFalse(rs.next());
            assertTrue(rs.isAfterLast());
            assertFalse(rs.next(), "next() after the end stays false");
        }
    }

    @Test
    void infinityAsBigDecimalIsAnSqlException() throws SQLException { // was NumberFormatException (fuzz seed 111)
        try (ResultSet rs = row("SELECT 1e999, -1e999")) {
            assertEquals(Double.POSITIVE_INFINITY, rs.getDouble(1));
            assertThrows(SQLException.class, () -> rs.getBigDecimal(1));
            assertThrows(SQLException.class, () -> rs.getBigDecimal(2));
            assertThrows(SQLException.class, () -> rs.getObject(2, BigDecimal.class));
        }
    }

    @Test
    void emptyResult() throws SQLException {
        try (ResultSet rs = stmt.executeQuery("SELECT id FROM t WHERE id < 0")) {
            assertFalse(rs.isBeforeFirst(), "JDBC: false when the result set has no rows");
            assertFalse(rs.next());
            assertFalse(rs.isBeforeFirst());
            assertFalse(rs.isAfterLast(), "JDBC: false when the result set has no rows");
            assertFalse(rs.next());
            assertThrows(SQLException.class, () -> rs.getInt(1));
        }
    }

    @Test
    void wasNullTracksTheLastRead() throws SQLException {
        try (ResultSet rs = first()) {
            assertEquals(42, rs.getInt("small"));
            assertFalse(rs.wasNull());
            assertNull(rs.getObject("nada"));
            assertTrue(rs.wasNull());
            assertEquals("alice", rs.getString("name"));
            assertFalse(rs.wasNull());
            assertEquals(0, rs.getInt("nada"));
            assertTrue(rs.wasNull());
        }
        try (ResultSet rs = row("SELECT 0, 0.0, '', x''")) {
            assertEquals(0, rs.getInt(1));
            assertFalse(rs.wasNull(), "zero is not NULL");
            assertEquals(0.0, rs.getDouble(2));
            assertFalse(rs.wasNull());
            assertEquals(0L, rs.getLong(1));
            assertFalse(rs.wasNull());
            assertEquals("", rs.getString(3));
            assertFalse(rs.wasNull());
            assertArrayEquals(new byte[0], rs.getBytes(4));
            assertFalse(rs.wasNull());
        }
    }

    // ------------------------------------------------------------------ getters

    @Test
    void gettersByIndexAndLabel() throws SQLException, IOException {
        try (ResultSet rs = first()) {
            assertEquals(1, rs.getInt(1));
            assertEquals(1, rs.getInt("id"));
            assertEquals("alice", rs.getString(2));
            assertEquals("alice", rs.getString("name"));
            assertEquals("alice", rs.getNString("name"));
            assertEquals(42, rs.getInt(3));
            assertEquals((short) 42, rs.getShort("small"));
            assertEquals((byte) 42, rs.getByte("small"));
            assertEquals(42L, rs.getLong("small"));
            assertEquals(1099511627776L, rs.getLong(4));
            assertEquals(1099511627776L, rs.getLong("big"));
            assertEquals(2.5, rs.getDouble(5));
            assertEquals(2.5f, rs.getFloat("r"));
            assertEquals(-0.125, rs.getDouble("d"));
            assertArrayEquals(BLOB, rs.getBytes(7));
            assertArrayEquals(BLOB, rs.getBytes("b"));
            assertEquals(new BigDecimal("12.75"), rs.getBigDecimal(8));
            assertEquals(new BigDecimal("12.75"), rs.getBigDecimal("n"));
            assertTrue(rs.getBoolean(9));
            assertTrue(rs.getBoolean("flag"));
            assertEquals("hello", rs.getString("txt"));
            assertEquals("hello", readAll(rs.getCharacterStream("txt")));
            assertEquals("hello", readAll(rs.getNCharacterStream(10)));
            assertEquals("hello", new String(rs.getAsciiStream("txt").readAllBytes(), StandardCharsets.US_ASCII));
            assertArrayEquals(BLOB, rs.getBinaryStream("b").readAllBytes());
            assertArrayEquals(BLOB, rs.getBinaryStream(7).readAllBytes());
            assertEquals("42", rs.getString("small"), "an integer read as text");
            assertEquals(42.0, rs.getDouble("small"));
            assertEquals(2, rs.getInt("r"), "a real read as int truncates");
        }
    }

    @Test
    void labelsAreCaseInsensitive() throws SQLException {
        try (ResultSet rs = first()) {
            assertEquals("alice", rs.getString("NAME"));
            assertEquals("alice", rs.getString("Name"));
            assertEquals(2, rs.findColumn("NAME"));
            assertEquals(42, rs.getInt("SMALL"));
            assertThrows(SQLException.class, () -> rs.getString("no_such_column"));
            assertThrows(SQLException.class, () -> rs.findColumn(null));
        }
        try (ResultSet rs = row("SELECT name AS Who, 1 AS \"Mixed Case\" FROM t WHERE id = 1")) {
            assertEquals("alice", rs.getString("who"));
            assertEquals("alice", rs.getString("WHO"));
            assertEquals(1, rs.getInt("mixed case"));
        }
    }

    @Test
    void nullsReadAsDefaultsWithWasNull() throws SQLException, IOException {
        try (ResultSet rs = allNull()) {
            assertEquals(0, rs.getInt(1));
            assertTrue(rs.wasNull());
            assertEquals(0L, rs.getLong(2));
            assertTrue(rs.wasNull());
            assertEquals(0.0, rs.getDouble(3));
            assertTrue(rs.wasNull());
            assertEquals(0.0f, rs.getFloat(3));
            assertTrue(rs.wasNull());
            assertNull(rs.getBytes(4));
            assertTrue(rs.wasNull());
            assertNull(rs.getBinaryStream(4));
            assertNull(rs.getBlob(4));
            assertNull(rs.getBigDecimal(5));
            assertTrue(rs.wasNull());
            assertFalse(rs.getBoolean(6));
            assertTrue(rs.wasNull());
            assertNull(rs.getString(7));
            assertTrue(rs.wasNull());
            assertNull(rs.getCharacterStream(7));
            assertNull(rs.getClob(7));
            assertNull(rs.getDate(8));
            assertTrue(rs.wasNull());
            assertNull(rs.getTime(8));
            assertNull(rs.getTimestamp(8));
            assertTrue(rs.wasNull());
            assertEquals((short) 0, rs.getShort(1));
            assertEquals((byte) 0, rs.getByte(1));
            assertTrue(rs.wasNull());
        }
    }

    @Test
    void getObjectTypes() throws SQLException {
        try (ResultSet rs = row("SELECT 42, 1099511627776, -2147483648, 2147483648, 2.5, 'text', x'0102', NULL")) {
            assertEquals(Integer.valueOf(42), assertInstanceOf(Integer.class, rs.getObject(1)));
            assertEquals(Long.valueOf(1099511627776L), assertInstanceOf(Long.class, rs.getObject(2)));
            assertEquals(Integer.valueOf(Integer.MIN_VALUE), assertInstanceOf(Integer.class, rs.getObject(3)));
            assertEquals(Long.valueOf(2147483648L), assertInstanceOf(Long.class, rs.getObject(4)));
            assertEquals(Double.valueOf(2.5), assertInstanceOf(Double.class, rs.getObject(5)));
            assertEquals("text", assertInstanceOf(String.class, rs.getObject(6)));
            assertArrayEquals(new byte[] {1, 2}, assertInstanceOf(byte[].class, rs.getObject(7)));
            assertNull(rs.getObject(8));
            assertTrue(rs.wasNull());
            assertEquals(Integer.valueOf(42), rs.getObject(1, (java.util.Map<String, Class<?>>) null));
        }
    }

    @Test
    void getObjectWithClass() throws SQLException {
        try (ResultSet rs = row("SELECT 42, 1099511627776, 2.5, 1, 'text', '12345678901234567890.5', x'0102',"
                + " '2024-02-29', '2024-02-29 12:34:56.789', '12:34:56', '2024-02-29T12:34:56+02:00',"
                + " '2024-02-29T10:34:56Z', '" + UUID_TEXT + "', 0, 'true'")) {
            assertEquals(42, rs.getObject(1, Integer.class));
            assertEquals(42L, rs.getObject(1, Long.class));
            assertEquals(1099511627776L, rs.getObject(2, Long.class));
            assertEquals(2.5, rs.getObject(3, Double.class));
            assertEquals(2.5f, rs.getObject(3, Float.class));
            assertEquals(true, rs.getObject(4, Boolean.class));
            assertEquals(false, rs.getObject(14, Boolean.class));
            assertEquals(true, rs.getObject(15, Boolean.class));
            assertEquals("text", rs.getObject(5, String.class));
            assertEquals("42", rs.getObject(1, String.class));
            assertEquals(new BigDecimal("12345678901234567890.5"), rs.getObject(6, BigDecimal.class));
            assertEquals(new BigDecimal("42"), rs.getObject(1, BigDecimal.class));
            assertArrayEquals(new byte[] {1, 2}, rs.getObject(7, byte[].class));
            assertEquals(LocalDate.of(2024, 2, 29), rs.getObject(8, LocalDate.class));
            assertEquals(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000), rs.getObject(9, LocalDateTime.class));
            assertEquals(LocalTime.of(12, 34, 56), rs.getObject(10, LocalTime.class));
            assertEquals(OffsetDateTime.of(2024, 2, 29, 12, 34, 56, 0, ZoneOffset.ofHours(2)),
                    rs.getObject(11, OffsetDateTime.class));
            assertEquals(Instant.parse("2024-02-29T10:34:56Z"), rs.getObject(11, Instant.class));
            assertEquals(Instant.parse("2024-02-29T10:34:56Z"), rs.getObject(12, Instant.class));
            assertEquals(UUID.fromString(UUID_TEXT), rs.getObject(13, UUID.class));
            assertThrows(SQLException.class, () -> rs.getObject(1, List.class));
            assertThrows(SQLException.class, () -> rs.getObject(1, (Class<?>) null));
            assertThrows(SQLException.class, () -> rs.getObject(5, UUID.class));
        }
    }

    @Test
    void getObjectWithClassOnNullGivesNull() throws SQLException {
        try (ResultSet rs = row("SELECT NULL")) {
            for (Class<?> type : new Class<?>[] {Integer.class, Long.class, Double.class, Float.class, Short.class,
                    Byte.class, Boolean.class, String.class, BigDecimal.class, java.math.BigInteger.class,
                    byte[].class, LocalDate.class, LocalDateTime.class, LocalTime.class, OffsetDateTime.class,
                    Instant.class, UUID.class, Date.class, Time.class, Timestamp.class, Blob.class, Clob.class,
                    Object.class}) {
                assertNull(rs.getObject(1, type), type.getName());
                assertTrue(rs.wasNull(), type.getName());
                assertNull(rs.getObject("NULL", type), type.getName());
            }
        }
    }

    @Test
    void blobAndClobContent() throws SQLException, IOException {
        try (ResultSet rs = first()) {
            Blob blob = rs.getBlob("b");
            assertEquals(BLOB.length, blob.length());
            assertArrayEquals(BLOB, blob.getBytes(1, (int) blob.length()));
            assertArrayEquals(new byte[] {2, 3}, blob.getBytes(3, 2));
            assertArrayEquals(BLOB, blob.getBinaryStream().readAllBytes());
            Clob clob = rs.getClob("txt");
            assertEquals(5, clob.length());
            assertEquals("hello", clob.getSubString(1, 5));
            assertEquals("ell", clob.getSubString(2, 3));
            assertEquals("hello", readAll(clob.getCharacterStream()));
            assertEquals("hello", rs.getNClob("txt").getSubString(1, 5));
        }
    }

    @Test
    void getBooleanOnNumbersAndText() throws SQLException {
        try (ResultSet rs = row("SELECT 0, 1, 2, 'true', 'false', 'TRUE', '1', '0', 0.0, 0.5")) {
            assertFalse(rs.getBoolean(1));
            assertTrue(rs.getBoolean(2));
            assertTrue(rs.getBoolean(3));
            assertTrue(rs.getBoolean(4));
            assertFalse(rs.getBoolean(5));
            assertTrue(rs.getBoolean(6));
            assertTrue(rs.getBoolean(7));
            assertFalse(rs.getBoolean(8));
            assertFalse(rs.getBoolean(9));
            assertTrue(rs.getBoolean(10));
        }
    }

    @Test
    void getBigDecimalOfEachStorageClass() throws SQLException {
        try (ResultSet rs = row("SELECT 7, 0.5, '123.4500', 9223372036854775807")) {
            assertEquals(new BigDecimal("7"), rs.getBigDecimal(1));
            assertEquals(new BigDecimal("0.5"), rs.getBigDecimal(2));
            assertEquals(new BigDecimal("123.4500"), rs.getBigDecimal(3));
            assertEquals(new BigDecimal(Long.MAX_VALUE), rs.getBigDecimal(4));
        }
    }

    // ------------------------------------------------------------------ misuse

    @Test
    void badColumnIndexThrowsSQLException() throws SQLException {
        try (ResultSet rs = row("SELECT 1, 'a'")) {
            List<Executable> calls = List.of(
                    () -> rs.getInt(0), () -> rs.getInt(3), () -> rs.getString(0), () -> rs.getString(3),
                    () -> rs.getLong(-1), () -> rs.getDouble(3), () -> rs.getBytes(3), () -> rs.getObject(3),
                    () -> rs.getObject(0, String.class), () -> rs.getBoolean(3), () -> rs.getBigDecimal(3),
                    () -> rs.getTimestamp(3), () -> rs.getDate(0), () -> rs.getBlob(3), () -> rs.getClob(3),
                    () -> rs.getObject(3, LocalDate.class));
            for (Executable call : calls) {
                assertThrows(SQLException.class, call);
            }
            assertEquals(1, rs.getInt(1), "still usable");
        }
    }

    @Test
    void gettersBeforeNextThrow() throws SQLException {
        try (ResultSet rs = stmt.executeQuery("SELECT 1, 'a'")) {
            assertThrows(SQLException.class, () -> rs.getInt(1));
            assertThrows(SQLException.class, () -> rs.getString(2));
            assertThrows(SQLException.class, () -> rs.getObject(1));
            assertThrows(SQLException.class, () -> rs.getTimestamp(1));
            assertThrows(SQLException.class, () -> rs.getObject(1, LocalDate.class));
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
        }
    }

    @Test
    void gettersAfterTheLastRowThrow() throws SQLException {
        try (ResultSet rs = stmt.executeQuery("SELECT 1, 'a'")) {
            assertTrue(rs.next());
            assertFalse(rs.next());
            assertThrows(SQLException.class, () -> rs.getInt(1));
            assertThrows(SQLException.class, () -> rs.getString(2));
            assertThrows(SQLException.class, () -> rs.getBytes(2));
            assertThrows(SQLException.class, () -> rs.getObject(1, LocalDateTime.class));
        }
    }

    @Test
    void closedResultSetThrows() throws SQLException {
        ResultSet rs = row("SELECT 1, 'a'");
        rs.close();
        assertTrue(rs.isClosed());
        rs.close(); // twice is fine
        assertThrows(SQLException.class, rs::next);
        assertThrows(SQLException.class, () -> rs.getInt(1));
        assertThrows(SQLException.class, () -> rs.getString("a"));
        assertThrows(SQLException.class, () -> rs.findColumn("a"));
        assertThrows(SQLException.class, rs::wasNull);
        assertThrows(SQLException.class, rs::getMetaData);
        assertThrows(SQLException.class, rs::getRow);
        assertThrows(SQLException.class, () -> rs.setFetchSize(1));
    }

    @Test
    void resultSetOfAClosedConnectionThrows() throws SQLException {
        ResultSet rs = row("SELECT 1");
        conn.close();
        assertThrows(SQLException.class, () -> rs.getInt(1));
        assertThrows(SQLException.class, rs::next);
        rs.close(); // closing is always allowed
    }

    @Test
    void forwardOnly() throws SQLException {
        try (ResultSet rs = row("SELECT 1")) {
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, rs.getType());
            assertEquals(ResultSet.CONCUR_READ_ONLY, rs.getConcurrency());
            assertEquals(ResultSet.FETCH_FORWARD, rs.getFetchDirection());
            assertThrows(SQLFeatureNotSupportedException.class, rs::previous);
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.absolute(1));
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.relative(1));
            assertThrows(SQLFeatureNotSupportedException.class, rs::first);
            assertThrows(SQLFeatureNotSupportedException.class, rs::last);
            assertThrows(SQLFeatureNotSupportedException.class, rs::beforeFirst);
            assertThrows(SQLFeatureNotSupportedException.class, rs::afterLast);
            assertThrows(SQLException.class, () -> rs.setFetchDirection(ResultSet.FETCH_REVERSE));
        }
    }

    @Test
    void emptyResultOfAPreparedStatementOrOfGeneratedKeysIsNotBeforeFirst() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM t WHERE id < ?")) {
            ps.setInt(1, 0);
            try (ResultSet rs = ps.executeQuery()) {
                assertFalse(rs.isBeforeFirst());
            }
            ps.setInt(1, 100);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.isBeforeFirst());
            }
        }
        try (ResultSet keys = stmt.getGeneratedKeys()) {
            assertFalse(keys.isBeforeFirst(), "no statement ran: no keys");
        }
    }

    @Test
    void statementFetchDirectionIsAHintTheResultSetStaysForward() throws SQLException {
        for (int direction : new int[] {ResultSet.FETCH_REVERSE, ResultSet.FETCH_UNKNOWN, ResultSet.FETCH_FORWARD}) {
            stmt.setFetchDirection(direction);
            assertEquals(direction, stmt.getFetchDirection());
            try (ResultSet rs = stmt.executeQuery("SELECT id FROM t ORDER BY id")) {
                assertEquals(ResultSet.FETCH_FORWARD, rs.getFetchDirection(), "a forward-only result set");
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1), "rows still come forward");
            }
        }
        assertThrows(SQLException.class, () -> stmt.setFetchDirection(12345));
        assertEquals(ResultSet.FETCH_FORWARD, stmt.getFetchDirection());
    }

    @Test
    void updatesThrow() throws SQLException {
        try (ResultSet rs = row("SELECT id, name FROM t")) {
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateInt(1, 5));
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateString("name", "x"));
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateNull(1));
            assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateObject(1, 5));
            assertThrows(SQLFeatureNotSupportedException.class, rs::updateRow);
            assertThrows(SQLFeatureNotSupportedException.class, rs::insertRow);
            assertThrows(SQLFeatureNotSupportedException.class, rs::deleteRow);
            assertThrows(SQLFeatureNotSupportedException.class, rs::moveToInsertRow);
        }
    }

    // ------------------------------------------------------------------ metadata

    @Test
    void metaDataNamesLabelsAndTypes() throws SQLException {
        try (ResultSet rs = row("SELECT id, name AS who, small, big, r, d, b, n, flag, txt, nada, 1 + 1 AS two"
                + " FROM t WHERE id = 1")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(12, md.getColumnCount());
            assertEquals("id", md.getColumnName(1));
            assertEquals("id", md.getColumnLabel(1));
            assertEquals("name", md.getColumnName(2));
            assertEquals("who", md.getColumnLabel(2));
            assertEquals("two", md.getColumnLabel(12));

            assertEquals("INTEGER", md.getColumnTypeName(1));
            assertEquals("VARCHAR(20)", md.getColumnTypeName(2));
            assertEquals("BIGINT", md.getColumnTypeName(4));
            assertEquals("REAL", md.getColumnTypeName(5));

            assertEquals(Types.INTEGER, md.getColumnType(1));
            assertEquals(Types.VARCHAR, md.getColumnType(2));
            assertEquals(Types.INTEGER, md.getColumnType(3));
            assertEquals(Types.BIGINT, md.getColumnType(4));
            assertEquals(Types.REAL, md.getColumnType(5));
            assertEquals(Types.DOUBLE, md.getColumnType(6));
            assertEquals(Types.BLOB, md.getColumnType(7));
            assertEquals(Types.NUMERIC, md.getColumnType(8));
            assertEquals(Types.BOOLEAN, md.getColumnType(9));
            assertEquals(Types.VARCHAR, md.getColumnType(10));
            assertEquals(20, md.getPrecision(2));

            assertEquals("t", md.getTableName(1));
            assertEquals("t", md.getTableName(2));
            assertEquals("", md.getTableName(12), "an expression has no table");
            assertEquals(Integer.class.getName(), md.getColumnClassName(1));
            assertEquals(String.class.getName(), md.getColumnClassName(2));
        }
    }

    @Test
    void metaDataNullabilityAndAutoIncrement() throws SQLException {
        TestDb.exec(conn, "CREATE TABLE a(k INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)",
                "CREATE TABLE c(k TEXT PRIMARY KEY, w INT NOT NULL)");
        try (ResultSet rs = row("SELECT id, name, small, 1 FROM t")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(1), "INTEGER PRIMARY KEY is the rowid");
            assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(2), "NOT NULL");
            assertEquals(ResultSetMetaData.columnNullable, md.isNullable(3));
            assertEquals(ResultSetMetaData.columnNullableUnknown, md.isNullable(4));
            assertTrue(md.isAutoIncrement(1), "INTEGER PRIMARY KEY");
            assertFalse(md.isAutoIncrement(2));
            assertFalse(md.isAutoIncrement(3));
            assertFalse(md.isAutoIncrement(4));
        }
        try (ResultSet rs = stmt.executeQuery("SELECT k, v FROM a")) {
            ResultSetMetaData md = rs.getMetaData();
            assertTrue(md.isAutoIncrement(1));
            assertFalse(md.isAutoIncrement(2));
        }
        try (ResultSet rs = stmt.executeQuery("SELECT k, w FROM c")) {
            ResultSetMetaData md = rs.getMetaData();
            assertFalse(md.isAutoIncrement(1), "a TEXT primary key is not assigned");
            assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(2));
        }
    }

    @Test
    void metaDataBadIndexThrows() throws SQLException {
        try (ResultSet rs = row("SELECT 1")) {
            ResultSetMetaData md = rs.getMetaData();
            assertThrows(SQLException.class, () -> md.getColumnName(0));
            assertThrows(SQLException.class, () -> md.getColumnType(2));
            assertThrows(SQLException.class, () -> md.getColumnLabel(2));
            assertThrows(SQLException.class, () -> md.isNullable(2));
        }
    }

    @Test
    void getStatementAndMetaDataOfAnEmptyResult() throws SQLException {
        try (ResultSet rs = stmt.executeQuery("SELECT id, name FROM t WHERE id < 0")) {
            assertSame(stmt, rs.getStatement());
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(2, md.getColumnCount());
            assertEquals("name", md.getColumnName(2));
            assertFalse(rs.next());
        }
    }

    @Test
    void dateGettersOfEpochMillis() throws SQLException {
        long millis = Timestamp.valueOf("2024-02-29 12:34:56.789").getTime();
        try (ResultSet rs = row("SELECT " + millis)) {
            assertEquals(millis, rs.getTimestamp(1).getTime());
            assertEquals(millis, rs.getDate(1).getTime());
            assertEquals(millis, rs.getTime(1).getTime());
            assertNotNull(rs.getObject(1, LocalDateTime.class));
        }
    }

    private static String readAll(Reader reader) throws IOException {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[64];
        int n;
        while ((n = reader.read(buf)) > 0) {
            sb.append(buf, 0, n);
        }
        return sb.toString();
    }

    @Test
    void columnDetailsAreLookedUpWhenFirstAskedForAndUnknownOnceTheConnectionClosed() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLE n(id INTEGER PRIMARY KEY AUTOINCREMENT, req TEXT NOT NULL, opt TEXT)");
            }
            ResultSetMetaData asked;
            ResultSetMetaData late;
            try (PreparedStatement ps = c.prepareStatement("SELECT id, req, opt, 1 + 1 FROM n")) {
                asked = ps.getMetaData();
                late = ps.getMetaData();
            }
            assertEquals(ResultSetMetaData.columnNoNulls, asked.isNullable(1));
            assertTrue(asked.isAutoIncrement(1));
            assertEquals(ResultSetMetaData.columnNoNulls, asked.isNullable(2));
            assertEquals(ResultSetMetaData.columnNullable, asked.isNullable(3));
            assertEquals(ResultSetMetaData.columnNullableUnknown, asked.isNullable(4), "an expression");
            c.close();
            assertEquals("req", late.getColumnName(2));
            assertEquals(ResultSetMetaData.columnNullableUnknown, late.isNullable(2), "asked first after close");
            assertFalse(late.isAutoIncrement(1));
        }
    }

    /**
     * Column details asked for by two threads at once, one of them inside a callback of the same
     * connection (holding its lock): a monitor on the metadata, taken before the connection's lock,
     * deadlocked the two.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard only
    void columnDetailsAskedForFromACallbackAndAnotherThreadAtOnce() throws Exception {
        try (Connection c = TestDb.open(dir)) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLE d(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
            }
            ResultSetMetaData meta;
            try (PreparedStatement ps = c.prepareStatement("SELECT id, v FROM d")) {
                meta = ps.getMetaData();
            }
            dev.panlite.TestThreads other = new dev.panlite.TestThreads();
            Thread[] asker = new Thread[1];
            c.unwrap(dev.panlite.PanliteConnection.class).createFunction("ask", 0, false, args -> {
                asker[0] = other.start("asker", () -> assertEquals(ResultSetMetaData.columnNoNulls, meta.isNullable(2)));
                // wait until the other thread waits for the lock this thread holds
                dev.panlite.TestDb.awaitQueued(c, asker[0]);
                return meta.isNullable(2);
            });
            try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT ask()")) {
                assertTrue(rs.next());
                assertEquals(ResultSetMetaData.columnNoNulls, rs.getInt(1));
            }
            other.join(); // the other thread's answer, or what it threw
        }
    }

    /** A wide result finds its columns by label (through an index built once) exactly as a narrow one does by scanning. */
    @Test
    void findColumnOnAWideResultFollowsTheScansRules() throws SQLException {
        for (int width : new int[] {8, 400}) { // below and above the width where the index is used
            StringBuilder select = new StringBuilder("SELECT ");
            for (int i = 0; i < width; i++) {
                select.append(i == 0 ? "" : ", ").append(i).append(" AS ").append(i % 3 == 0 ? "Dup" : "col" + i);
            }
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(select.toString())) {
                assertTrue(rs.next());
                assertEquals(1, rs.findColumn("Dup"), "the first of equal labels");
                assertEquals(1, rs.findColumn("dUP"), "case-insensitive after the exact match");
                assertEquals(2, rs.findColumn("col1"));
                assertEquals(3, rs.findColumn("COL2"));
                assertEquals(2, rs.findColumn("t.col1"), "a qualified label matches its last part");
                for (int i = 1; i < width; i++) {
                    if (i % 3 != 0) {
                        assertEquals(i + 1, rs.findColumn("col" + i));
                        assertEquals(i, rs.getInt("col" + i));
                    }
                }
                assertThrows(SQLException.class, () -> rs.findColumn("nothing"));
            }
        }
    }
}
