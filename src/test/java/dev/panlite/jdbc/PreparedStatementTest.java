package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
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
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** java.sql.PreparedStatement: every setter through a real table and back through a getter. */
class PreparedStatementTest {
    @TempDir
    Path dir;

    Connection conn;

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        // v has no declared type (no affinity): what is bound is what is stored
        TestDb.exec(conn, "CREATE TABLE t(id INTEGER PRIMARY KEY, v, txt TEXT, num NUMERIC, u INTEGER UNIQUE)");
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
    }

    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Inserts one row binding column {@code column} with {@code binder}; returns its id. */
    private long insert(String column, Binder binder) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(" + column + ") VALUES (?)")) {
            binder.bind(ps);
            assertEquals(1, ps.executeUpdate());
        }
        return lastId();
    }

    private long lastId() throws SQLException {
        return TestDb.queryLong(conn, "SELECT max(id) FROM t");
    }

    private Object read(long id, String column, Reader<?> reader) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT " + column + " FROM t WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                Object value = reader.read(rs);
                assertFalse(rs.next());
                return value;
            }
        }
    }

    /** Binds into v, reads back with the reader. */
    private Object roundTrip(Binder binder, Reader<?> reader) throws SQLException {
        return read(insert("v", binder), "v", reader);
    }

    private String typeOf(long id, String column) throws SQLException {
        return (String) read(id, "typeof(" + column + ")", rs -> rs.getString(1));
    }

    // ------------------------------------------------------------------ nulls and primitives

    @Test
    void setNullWithAnySqlTypeStoresNull() throws SQLException {
        for (int type : new int[] {Types.VARCHAR, Types.INTEGER, Types.BLOB, Types.DATE, Types.TIMESTAMP,
                Types.DECIMAL, Types.NULL, Types.OTHER}) {
            long id = insert("v", ps -> ps.setNull(1, type));
            assertEquals("null", typeOf(id, "v"), "setNull with type " + type);
            assertNull(read(id, "v", rs -> rs.getObject(1)));
            assertTrue((Boolean) read(id, "v", rs -> {
                rs.getInt(1);
                return rs.wasNull();
            }));
        }
        long id = insert("v", ps -> ps.setNull(1, Types.STRUCT, "MY_TYPE"));
        assertEquals("null", typeOf(id, "v"));
    }

    @Test
    void setObjectNullStoresNull() throws SQLException {
        long id = insert("v", ps -> ps.setObject(1, null));
        assertEquals("null", typeOf(id, "v"));
        id = insert("v", ps -> ps.setObject(1, null, Types.INTEGER));
        assertEquals("null", typeOf(id, "v"));
        id = insert("v", ps -> ps.setString(1, null));
        assertEquals("null", typeOf(id, "v"));
        id = insert("v", ps -> ps.setBytes(1, null));
        assertEquals("null", typeOf(id, "v"));
        id = insert("v", ps -> ps.setBigDecimal(1, null));
        assertEquals("null", typeOf(id, "v"));
        id = insert("v", ps -> ps.setTimestamp(1, null));
        assertEquals("null", typeOf(id, "v"));
    }

    @Test
    void setBoolean() throws SQLException {
        long yes = insert("v", ps -> ps.setBoolean(1, true));
        long no = insert("v", ps -> ps.setBoolean(1, false));
        assertEquals("integer", typeOf(yes, "v"));
        assertTrue((Boolean) read(yes, "v", rs -> rs.getBoolean(1)));
        assertEquals(1, read(yes, "v", rs -> rs.getInt(1)));
        assertFalse((Boolean) read(no, "v", rs -> rs.getBoolean(1)));
        assertEquals(0, read(no, "v", rs -> rs.getInt(1)));
        assertFalse((Boolean) read(no, "v", rs -> {
            rs.getBoolean(1);
            return rs.wasNull();
        }));
    }

    @Test
    void setIntegers() throws SQLException {
        assertEquals((byte) -128, roundTrip(ps -> ps.setByte(1, (byte) -128), rs -> rs.getByte(1)));
        assertEquals((short) -32768, roundTrip(ps -> ps.setShort(1, Short.MIN_VALUE), rs -> rs.getShort(1)));
        assertEquals(Integer.MIN_VALUE, roundTrip(ps -> ps.setInt(1, Integer.MIN_VALUE), rs -> rs.getInt(1)));
        assertEquals(Integer.MAX_VALUE, roundTrip(ps -> ps.setInt(1, Integer.MAX_VALUE), rs -> rs.getInt(1)));
        assertEquals(Long.MAX_VALUE, roundTrip(ps -> ps.setLong(1, Long.MAX_VALUE), rs -> rs.getLong(1)));
        assertEquals(Long.MIN_VALUE, roundTrip(ps -> ps.setLong(1, Long.MIN_VALUE), rs -> rs.getLong(1)));
        long id = insert("v", ps -> ps.setLong(1, 1L << 40));
        assertEquals("integer", typeOf(id, "v"));
        assertEquals(1L << 40, read(id, "v", rs -> rs.getObject(1)));
    }

    @Test
    void setFloatingPoint() throws SQLException {
        assertEquals(0.1f, roundTrip(ps -> ps.setFloat(1, 0.1f), rs -> rs.getFloat(1)));
        assertEquals(Math.PI, roundTrip(ps -> ps.setDouble(1, Math.PI), rs -> rs.getDouble(1)));
        assertEquals(-1.5e300, roundTrip(ps -> ps.setDouble(1, -1.5e300), rs -> rs.getDouble(1)));
        assertEquals(Double.MIN_VALUE, roundTrip(ps -> ps.setDouble(1, Double.MIN_VALUE), rs -> rs.getDouble(1)));
        long id = insert("v", ps -> ps.setDouble(1, 2.0));
        assertEquals("real", typeOf(id, "v"));
        assertEquals(2.0, read(id, "v", rs -> rs.getObject(1)));
    }

    @Test
    void setBigDecimalIsExact() throws SQLException {
        BigDecimal big = new BigDecimal("12345678901234567890.123");
        long id = insert("txt", ps -> ps.setBigDecimal(1, big));
        assertEquals(big, read(id, "txt", rs -> rs.getBigDecimal(1)));
        assertEquals(big, read(id, "txt", rs -> rs.getObject(1, BigDecimal.class)));

        BigDecimal small = new BigDecimal("1.25");
        id = insert("num", ps -> ps.setBigDecimal(1, small));
        assertEquals(0, small.compareTo((BigDecimal) read(id, "num", rs -> rs.getBigDecimal(1))));
        assertEquals(small, read(id, "num", rs -> rs.getBigDecimal(1)));
        assertEquals(1.25, read(id, "num", rs -> rs.getDouble(1)));

        BigDecimal whole = new BigDecimal("42");
        id = insert("num", ps -> ps.setBigDecimal(1, whole));
        assertEquals("integer", typeOf(id, "num"));
        assertEquals(whole, read(id, "num", rs -> rs.getBigDecimal(1)));
    }

    // ------------------------------------------------------------------ text and bytes

    @Test
    void setStringUnicode() throws SQLException {
        for (String s : new String[] {"plain", "héllo wörld ß", "日本語のテキスト", "😀👍🏽 emoji \uD83E\uDD84",
                "tab\tnew\nline", "nul\u0000inside", "x".repeat(100_000)}) {
            assertEquals(s, roundTrip(ps -> ps.setString(1, s), rs -> rs.getString(1)));
            assertEquals(s, roundTrip(ps -> ps.setNString(1, s), rs -> rs.getNString(1)));
        }
        long id = insert("v", ps -> ps.setString(1, "😀"));
        assertEquals(1, read(id, "length(v)", rs -> rs.getInt(1)), "SQLite counts one character");
        assertEquals(4, read(id, "length(CAST(v AS BLOB))", rs -> rs.getInt(1)), "stored as 4 UTF-8 bytes");
    }

    @Test
    void emptyStringIsNotNull() throws SQLException {
        long empty = insert("v", ps -> ps.setString(1, ""));
        assertEquals("text", typeOf(empty, "v"));
        assertEquals("", read(empty, "v", rs -> rs.getString(1)));
        assertFalse((Boolean) read(empty, "v", rs -> {
            rs.getString(1);
            return rs.wasNull();
        }));
        long nul = insert("v", ps -> ps.setString(1, null));
        assertNull(read(nul, "v", rs -> rs.getString(1)));
        assertTrue((Boolean) read(nul, "v", rs -> {
            rs.getString(1);
            return rs.wasNull();
        }));
    }

    @Test
    void setBytesEmptyIsAnEmptyBlob() throws SQLException {
        long id = insert("v", ps -> ps.setBytes(1, new byte[0]));
        assertEquals("blob", typeOf(id, "v"));
        byte[] back = (byte[]) read(id, "v", rs -> rs.getBytes(1));
        assertNotNull(back);
        assertEquals(0, back.length);
        assertFalse((Boolean) read(id, "v", rs -> {
            rs.getBytes(1);
            return rs.wasNull();
        }));
    }

    @Test
    void setBytes64KiBRandom() throws SQLException {
        byte[] data = new byte[64 * 1024];
        new Random(42).nextBytes(data);
        long id = insert("v", ps -> ps.setBytes(1, data));
        assertEquals("blob", typeOf(id, "v"));
        assertArrayEquals(data, (byte[]) read(id, "v", rs -> rs.getBytes(1)));
        assertArrayEquals(data, (byte[]) read(id, "v", rs -> (byte[]) rs.getObject(1)));
        assertEquals(data.length, read(id, "length(v)", rs -> rs.getInt(1)));
    }

    @Test
    void setBytesSendsWhatTheArrayHoldsAtExecution() throws SQLException {
        byte[] data = {1, 2, 3};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            ps.setBytes(1, data);
            data[0] = 99; // JDBC: "the driver converts this ... when it sends it to the database"; not copied
            ps.executeUpdate();
            assertArrayEquals(new byte[] {99, 2, 3}, (byte[]) read(lastId(), "v", rs -> rs.getBytes(1)));
            data[0] = 42; // a second execution without a new setBytes sends what it holds then, as the incumbent's
            ps.executeUpdate();
            assertArrayEquals(new byte[] {42, 2, 3}, (byte[]) read(lastId(), "v", rs -> rs.getBytes(1)));
        }
    }

    /**
     * Every execution sends what the array holds then, by executeQuery as by executeUpdate, after a
     * batch (whose rows keep their addBatch copies), and from a cached statement, whose last user's
     * array is not sent; the values set by value stay bound. A stream's bytes are the driver's: sent
     * as read.
     */
    @Test
    void setBytesSendsWhatTheArrayHoldsAtEveryExecution() throws SQLException {
        byte[] data = {1, 2};
        try (PreparedStatement ps = conn.prepareStatement("SELECT hex(?), ?, hex(?)")) {
            ps.setBytes(1, data);
            ps.setString(2, "kept");
            ps.setBinaryStream(3, new java.io.ByteArrayInputStream(new byte[] {5}));
            for (int run = 1; run <= 3; run++) {
                data[1] = (byte) run;
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("010" + run, rs.getString(1), "run " + run);
                    assertEquals("kept", rs.getString(2));
                    assertEquals("05", rs.getString(3));
                }
            }
        }
        byte[] buffer = {1};
        String insert = "INSERT INTO t(id, v) VALUES (?, ?)";
        try (PreparedStatement ps = conn.prepareStatement(insert)) {
            ps.setBytes(2, buffer);
            ps.setInt(1, 1);
            ps.addBatch();
            buffer[0] = 2;
            ps.setInt(1, 2);
            ps.addBatch();
            buffer[0] = 3;
            ps.executeBatch();
            ps.setInt(1, 3);
            ps.executeUpdate();
            buffer[0] = 4;
            ps.setInt(1, 4);
            ps.executeUpdate();
        }
        byte[] other = {5};
        try (PreparedStatement ps = conn.prepareStatement(insert)) { // the cached statement (stmt_cache_size: 32)
            ps.setInt(1, 5);
            ps.executeUpdate(); // unset: NULL, not the last user's array
            ps.setInt(1, 6);
            ps.setBytes(2, other);
            ps.executeUpdate();
            other[0] = 7;
            ps.setInt(1, 7);
            ps.executeUpdate();
        }
        for (int id = 1; id <= 7; id++) {
            byte[] expected = id == 5 ? null : new byte[] {(byte) (id == 6 ? 5 : id)};
            assertArrayEquals(expected, (byte[]) read(id, "v", rs -> rs.getBytes(1)), "row " + id);
        }
    }

    @Test
    void aBatchRowKeepsTheBytesOfItsAddBatchWhenTheCallerRefillsOneBuffer() throws SQLException {
        byte[] buffer = new byte[3];
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            for (byte row = 1; row <= 3; row++) {
                java.util.Arrays.fill(buffer, row);
                ps.setBytes(1, buffer);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        long last = lastId();
        for (int row = 1; row <= 3; row++) {
            byte b = (byte) row;
            assertArrayEquals(new byte[] {b, b, b}, (byte[]) read(last - 3 + row, "v", rs -> rs.getBytes(1)));
        }
    }

    // ------------------------------------------------------------------ java.sql dates

    @Test
    void setDateTimeTimestamp() throws SQLException {
        Date date = Date.valueOf("2024-02-29");
        assertEquals(date, roundTrip(ps -> ps.setDate(1, date), rs -> rs.getDate(1)));
        Time time = Time.valueOf("12:34:56");
        assertEquals(time.toString(), roundTrip(ps -> ps.setTime(1, time), rs -> rs.getTime(1)).toString());
        Timestamp ts = Timestamp.valueOf("2024-02-29 12:34:56.789");
        assertEquals(ts, roundTrip(ps -> ps.setTimestamp(1, ts), rs -> rs.getTimestamp(1)));
        assertEquals(ts, roundTrip(ps -> ps.setObject(1, ts), rs -> rs.getTimestamp(1)));
        assertEquals(date, roundTrip(ps -> ps.setObject(1, date), rs -> rs.getDate(1)));
        java.util.Date utilDate = new java.util.Date(ts.getTime());
        assertEquals(ts, roundTrip(ps -> ps.setObject(1, utilDate), rs -> rs.getTimestamp(1)));
    }

    @Test
    void setDateTimeTimestampWithCalendar() throws SQLException {
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
        Timestamp ts = Timestamp.valueOf("2024-02-29 12:34:56.789");
        assertEquals(ts, roundTrip(ps -> ps.setTimestamp(1, ts, utc), rs -> rs.getTimestamp(1, utc)));
        assertEquals(ts, roundTrip(ps -> ps.setTimestamp(1, ts, tokyo), rs -> rs.getTimestamp(1, tokyo)));
        Date date = new Date(ts.getTime());
        assertEquals(date.getTime(), ((Date) roundTrip(ps -> ps.setDate(1, date, utc), rs -> rs.getDate(1, utc))).getTime());
        Time time = new Time(ts.getTime());
        assertEquals(time.getTime(), ((Time) roundTrip(ps -> ps.setTime(1, time, utc), rs -> rs.getTime(1, utc))).getTime());
    }

    @Test
    void calendarDecidesTheZoneOfTextDates() throws SQLException {
        conn.close();
        conn = TestDb.open(dir, "date_class=TEXT");
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
        Timestamp ts = new Timestamp(Instant.parse("2024-02-29T03:04:05.678Z").toEpochMilli());
        long id = insert("v", ps -> ps.setTimestamp(1, ts, utc));
        assertEquals("2024-02-29 03:04:05.678", read(id, "v", rs -> rs.getString(1)));
        assertEquals(ts, read(id, "v", rs -> rs.getTimestamp(1, utc)));
        id = insert("v", ps -> ps.setTimestamp(1, ts, tokyo));
        assertEquals("2024-02-29 12:04:05.678", read(id, "v", rs -> rs.getString(1)));
        assertEquals(ts, read(id, "v", rs -> rs.getTimestamp(1, tokyo)));
    }

    // ------------------------------------------------------------------ java.time, UUID

    @Test
    void javaTimeThroughSetObject() throws SQLException {
        LocalDate date = LocalDate.of(2024, 2, 29);
        assertEquals(date, roundTrip(ps -> ps.setObject(1, date), rs -> rs.getObject(1, LocalDate.class)));
        LocalDateTime dateTime = LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_000_000);
        assertEquals(dateTime, roundTrip(ps -> ps.setObject(1, dateTime), rs -> rs.getObject(1, LocalDateTime.class)));
        LocalTime time = LocalTime.of(7, 8, 9);
        assertEquals(time, roundTrip(ps -> ps.setObject(1, time), rs -> rs.getObject(1, LocalTime.class)));
        OffsetDateTime offset = OffsetDateTime.of(2024, 2, 29, 12, 0, 1, 0, ZoneOffset.ofHours(2));
        assertEquals(offset, roundTrip(ps -> ps.setObject(1, offset), rs -> rs.getObject(1, OffsetDateTime.class)));
        Instant instant = Instant.parse("2024-02-29T10:11:12.345Z");
        assertEquals(instant, roundTrip(ps -> ps.setObject(1, instant), rs -> rs.getObject(1, Instant.class)));
        long id = insert("v", ps -> ps.setObject(1, date));
        assertEquals("text", typeOf(id, "v"));
        assertEquals("2024-02-29", read(id, "v", rs -> rs.getString(1)));
    }

    @Test
    void javaTimeKeepsSubMillisecondPrecision() throws SQLException {
        LocalDateTime dateTime = LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_789);
        assertEquals(dateTime, roundTrip(ps -> ps.setObject(1, dateTime), rs -> rs.getObject(1, LocalDateTime.class)));
        LocalTime time = LocalTime.of(7, 8, 9, 123_456_000);
        assertEquals(time, roundTrip(ps -> ps.setObject(1, time), rs -> rs.getObject(1, LocalTime.class)));
        Instant instant = Instant.parse("2024-02-29T10:11:12.345678Z");
        assertEquals(instant, roundTrip(ps -> ps.setObject(1, instant), rs -> rs.getObject(1, Instant.class)));
    }

    @Test
    void uuidRoundTrips() throws SQLException {
        UUID uuid = UUID.randomUUID();
        long id = insert("v", ps -> ps.setObject(1, uuid));
        assertEquals(uuid.toString(), read(id, "v", rs -> rs.getString(1)));
        assertEquals(uuid, read(id, "v", rs -> rs.getObject(1, UUID.class)));
    }

    // ------------------------------------------------------------------ streams and LOBs

    @Test
    void binaryStreams() throws SQLException {
        byte[] data = new byte[10_000];
        new Random(7).nextBytes(data);
        assertArrayEquals(data, (byte[]) roundTrip(ps -> ps.setBinaryStream(1, new ByteArrayInputStream(data)),
                rs -> rs.getBytes(1)));
        assertArrayEquals(data, (byte[]) roundTrip(ps -> ps.setBinaryStream(1, new ByteArrayInputStream(data), data.length),
                rs -> rs.getBytes(1)));
        assertArrayEquals(data, (byte[]) roundTrip(ps -> ps.setBinaryStream(1, new ByteArrayInputStream(data), (long) data.length),
                rs -> rs.getBytes(1)));
        // a length shorter than the stream takes that many bytes
        byte[] head = java.util.Arrays.copyOf(data, 100);
        assertArrayEquals(head, (byte[]) roundTrip(ps -> ps.setBinaryStream(1, new ByteArrayInputStream(data), 100),
                rs -> rs.getBytes(1)));
        assertArrayEquals(data, (byte[]) roundTrip(ps -> ps.setBlob(1, new ByteArrayInputStream(data)), rs -> rs.getBytes(1)));
        assertArrayEquals(head, (byte[]) roundTrip(ps -> ps.setBlob(1, new ByteArrayInputStream(data), 100L),
                rs -> rs.getBytes(1)));
        long id = insert("v", ps -> ps.setBinaryStream(1, new ByteArrayInputStream(data)));
        assertEquals("blob", typeOf(id, "v"));
        // a stream shorter than the length given is an error
        assertThrows(SQLException.class, () -> insert("v",
                ps -> ps.setBinaryStream(1, new ByteArrayInputStream(new byte[3]), 10)));
    }

    @Test
    void characterAndAsciiStreams() throws SQLException {
        String text = "héllo 😀 wörld\n".repeat(500);
        assertEquals(text, roundTrip(ps -> ps.setCharacterStream(1, new StringReader(text)), rs -> rs.getString(1)));
        assertEquals(text, roundTrip(ps -> ps.setCharacterStream(1, new StringReader(text), text.length()),
                rs -> rs.getString(1)));
        assertEquals(text, roundTrip(ps -> ps.setCharacterStream(1, new StringReader(text), (long) text.length()),
                rs -> rs.getString(1)));
        assertEquals("héllo", roundTrip(ps -> ps.setCharacterStream(1, new StringReader(text), 5),
                rs -> rs.getString(1)));
        assertEquals(text, roundTrip(ps -> ps.setClob(1, new StringReader(text)), rs -> rs.getString(1)));
        assertEquals(text, roundTrip(ps -> ps.setNCharacterStream(1, new StringReader(text)), rs -> rs.getString(1)));
        long id = insert("v", ps -> ps.setCharacterStream(1, new StringReader(text)));
        assertEquals("text", typeOf(id, "v"));

        String ascii = "plain ASCII text 123";
        byte[] bytes = ascii.getBytes(StandardCharsets.US_ASCII);
        assertEquals(ascii, roundTrip(ps -> ps.setAsciiStream(1, new ByteArrayInputStream(bytes)), rs -> rs.getString(1)));
        assertEquals(ascii, roundTrip(ps -> ps.setAsciiStream(1, new ByteArrayInputStream(bytes), bytes.length),
                rs -> rs.getString(1)));
        assertEquals("plain", roundTrip(ps -> ps.setAsciiStream(1, new ByteArrayInputStream(bytes), 5L),
                rs -> rs.getString(1)));
        id = insert("v", ps -> ps.setAsciiStream(1, new ByteArrayInputStream(bytes)));
        assertEquals("text", typeOf(id, "v"));
    }

    /** JDBC: setUnicodeStream's bytes are UTF-8; ResultSet.getUnicodeStream answers UTF-16BE (two-byte units). */
    @Test
    @SuppressWarnings("deprecation")
    void unicodeStreamIsUtf8InAndUtf16Out() throws SQLException {
        String text = "héllo € 😀";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(text, roundTrip(ps -> ps.setUnicodeStream(1, new ByteArrayInputStream(utf8), utf8.length),
                rs -> rs.getString(1)));
        assertEquals("hé", roundTrip(ps -> ps.setUnicodeStream(1, new ByteArrayInputStream(utf8), 3),
                rs -> rs.getString(1)), "length counts bytes");
        byte[] out = (byte[]) roundTrip(ps -> ps.setString(1, text), rs -> {
            try {
                return rs.getUnicodeStream(1).readAllBytes();
            } catch (java.io.IOException e) {
                throw new SQLException(e);
            }
        });
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_16BE), out);
        assertEquals("null", typeOf(insert("v", ps -> ps.setUnicodeStream(1, null, 0)), "v"));
    }

    @Test
    void nullStreamsStoreNull() throws SQLException {
        assertEquals("null", typeOf(insert("v", ps -> ps.setBinaryStream(1, null)), "v"));
        assertEquals("null", typeOf(insert("v", ps -> ps.setCharacterStream(1, null)), "v"));
        assertEquals("null", typeOf(insert("v", ps -> ps.setAsciiStream(1, null)), "v"));
        assertEquals("null", typeOf(insert("v", ps -> ps.setBlob(1, (Blob) null)), "v"));
        assertEquals("null", typeOf(insert("v", ps -> ps.setClob(1, (Clob) null)), "v"));
    }

    @Test
    void setBlobAndClobFromTheConnection() throws SQLException {
        Blob blob = conn.createBlob();
        byte[] data = {0, 1, 2, (byte) 0xff, 42};
        blob.setBytes(1, data);
        long id = insert("v", ps -> ps.setBlob(1, blob));
        assertEquals("blob", typeOf(id, "v"));
        assertArrayEquals(data, (byte[]) read(id, "v", rs -> rs.getBytes(1)));
        assertArrayEquals(data, (byte[]) roundTrip(ps -> ps.setObject(1, blob), rs -> rs.getBytes(1)));

        Clob clob = conn.createClob();
        clob.setString(1, "clob text ünïcode 😀");
        id = insert("v", ps -> ps.setClob(1, clob));
        assertEquals("text", typeOf(id, "v"));
        assertEquals("clob text ünïcode 😀", read(id, "v", rs -> rs.getString(1)));
        assertEquals("clob text ünïcode 😀", roundTrip(ps -> ps.setObject(1, clob), rs -> rs.getString(1)));
        java.sql.NClob nclob = conn.createNClob();
        nclob.setString(1, "nclob ü");
        assertEquals("nclob ü", roundTrip(ps -> ps.setNClob(1, nclob), rs -> rs.getString(1)));
        // an empty Blob from the connection is an empty blob, not NULL
        id = insert("v", ps -> ps.setBlob(1, conn.createBlob()));
        assertEquals("blob", typeOf(id, "v"));
    }

    // ------------------------------------------------------------------ setObject with a target type

    @Test
    void setObjectWithTargetType() throws SQLException {
        long id = insert("v", ps -> ps.setObject(1, "42", Types.INTEGER));
        assertEquals("integer", typeOf(id, "v"));
        assertEquals(42, read(id, "v", rs -> rs.getInt(1)));

        id = insert("v", ps -> ps.setObject(1, 42, Types.VARCHAR));
        assertEquals("text", typeOf(id, "v"));
        assertEquals("42", read(id, "v", rs -> rs.getString(1)));

        id = insert("v", ps -> ps.setObject(1, "3.5", Types.DOUBLE));
        assertEquals("real", typeOf(id, "v"));
        assertEquals(3.5, read(id, "v", rs -> rs.getDouble(1)));

        id = insert("v", ps -> ps.setObject(1, "true", Types.BOOLEAN));
        assertEquals(1, read(id, "v", rs -> rs.getInt(1)));
        id = insert("v", ps -> ps.setObject(1, 0, Types.BIT));
        assertEquals(0, read(id, "v", rs -> rs.getInt(1)));
        assertEquals("integer", typeOf(id, "v"));

        id = insert("v", ps -> ps.setObject(1, "1.25", Types.DECIMAL, 1));
        assertEquals(new BigDecimal("1.3"), read(id, "v", rs -> rs.getBigDecimal(1)));
        id = insert("v", ps -> ps.setObject(1, 7L, Types.NUMERIC));
        assertEquals(new BigDecimal("7"), read(id, "v", rs -> rs.getBigDecimal(1)));

        id = insert("v", ps -> ps.setObject(1, LocalDate.of(2024, 2, 29), Types.VARCHAR));
        assertEquals("2024-02-29", read(id, "v", rs -> rs.getString(1)));

        id = insert("v", ps -> ps.setObject(1, 5, JDBCType.BIGINT));
        assertEquals("integer", typeOf(id, "v"));
        assertEquals(5L, read(id, "v", rs -> rs.getLong(1)));

        assertThrows(SQLException.class, () -> insert("v", ps -> ps.setObject(1, "abc", Types.INTEGER)));
        assertThrows(SQLException.class, () -> insert("v", ps -> ps.setObject(1, "abc", Types.DOUBLE)));
        assertThrows(SQLException.class, () -> insert("v", ps -> ps.setObject(1, new Object())));
    }

    @Test
    void setObjectPicksTheStorageClassByJavaType() throws SQLException {
        assertEquals("integer", typeOf(insert("v", ps -> ps.setObject(1, 5)), "v"));
        assertEquals("integer", typeOf(insert("v", ps -> ps.setObject(1, 5L)), "v"));
        assertEquals("integer", typeOf(insert("v", ps -> ps.setObject(1, (short) 5)), "v"));
        assertEquals("integer", typeOf(insert("v", ps -> ps.setObject(1, (byte) 5)), "v"));
        assertEquals("integer", typeOf(insert("v", ps -> ps.setObject(1, Boolean.TRUE)), "v"));
        assertEquals("real", typeOf(insert("v", ps -> ps.setObject(1, 5.5)), "v"));
        assertEquals("real", typeOf(insert("v", ps -> ps.setObject(1, 5.5f)), "v"));
        assertEquals("text", typeOf(insert("v", ps -> ps.setObject(1, "5")), "v"));
        assertEquals("blob", typeOf(insert("v", ps -> ps.setObject(1, new byte[] {5})), "v"));
        assertEquals("integer", typeOf(insert("v", ps -> ps.setObject(1, java.math.BigInteger.TEN)), "v"));
    }

    // ------------------------------------------------------------------ parameters across executions

    @Test
    void clearParametersThenExecuteBindsNulls() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v, txt) VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "one");
            ps.executeUpdate();
            ps.clearParameters();
            ps.executeUpdate();
        }
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT v, txt FROM t ORDER BY id")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
            assertEquals("one", rs.getString(2));
            assertTrue(rs.next());
            assertNull(rs.getObject(1));
            assertNull(rs.getObject(2));
        }
    }

    @Test
    void parametersPersistAcrossExecutions() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v, txt) VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "same");
            ps.executeUpdate();
            ps.setInt(1, 2); // only the first changes
            ps.executeUpdate();
            ps.executeUpdate();
        }
        try (PreparedStatement q = conn.prepareStatement("SELECT v, txt FROM t WHERE txt = ? ORDER BY id")) {
            q.setString(1, "same");
            List<Integer> got = new ArrayList<>();
            for (int round = 0; round < 2; round++) { // the query's parameter persists too
                got.clear();
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        got.add(rs.getInt(1));
                        assertEquals("same", rs.getString(2));
                    }
                }
                assertEquals(List.of(1, 2, 2), got);
            }
        }
    }

    @Test
    void parametersDoNotLeakThroughTheStatementCache() throws SQLException {
        String sql = "INSERT INTO t(v) VALUES (?)";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, "stale");
        }
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.executeUpdate(); // nothing bound on this statement: NULL
        }
        assertEquals("null", typeOf(lastId(), "v"));
    }

    @Test
    void twoOpenStatementsWithTheSameSqlAreIndependent() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES (1),(2),(3)");
        String sql = "SELECT v FROM t WHERE v >= ? ORDER BY v";
        try (PreparedStatement a = conn.prepareStatement(sql); PreparedStatement b = conn.prepareStatement(sql)) {
            a.setInt(1, 1);
            b.setInt(1, 3);
            try (ResultSet ra = a.executeQuery(); ResultSet rb = b.executeQuery()) {
                assertTrue(ra.next());
                assertTrue(rb.next());
                assertEquals(1, ra.getInt(1));
                assertEquals(3, rb.getInt(1));
                assertFalse(rb.next());
                assertTrue(ra.next());
                assertEquals(2, ra.getInt(1));
            }
        }
    }

    @Test
    void preparedUpdateGeneratesNoKeys() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES (1)");
        try (PreparedStatement ps = conn.prepareStatement("UPDATE t SET v = ?", Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, 2);
            assertEquals(1, ps.executeUpdate());
            try (ResultSet rs = ps.getGeneratedKeys()) {
                assertFalse(rs.next(), "an UPDATE inserts no row: the earlier INSERT's rowid is not its key");
            }
        }
    }

    @Test
    void errorWhileSteppingAPreparedQuery() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT abs(?)")) {
            ps.setLong(1, Long.MIN_VALUE);
            assertThrows(SQLException.class, ps::executeQuery, "integer overflow surfaces at execution");
            ps.setLong(1, -5);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(5, rs.getLong(1));
            }
        }
    }

    @Test
    void reExecutionAfterAnErrorWorks() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(u) VALUES (?)")) {
            ps.setInt(1, 1);
            assertEquals(1, ps.executeUpdate());
            assertThrows(SQLException.class, ps::executeUpdate); // UNIQUE
            assertThrows(SQLException.class, ps::executeUpdate); // still the same value
            ps.setInt(1, 2);
            assertEquals(1, ps.executeUpdate());
        }
        try (PreparedStatement q = conn.prepareStatement("SELECT count(*) FROM t")) {
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    @Test
    void reExecutingAQueryClosesThePreviousResultSet() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?")) {
            ps.setInt(1, 1);
            ResultSet first = ps.executeQuery();
            assertTrue(first.next());
            ps.setInt(1, 2);
            ResultSet second = ps.executeQuery();
            assertTrue(first.isClosed());
            assertTrue(second.next());
            assertEquals(2, second.getInt(1));
        }
    }

    @Test
    void settingParametersAfterReadingAllRowsWithoutClosing() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES (1),(2),(3)");
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM t WHERE v >= ?")) {
            for (int v = 1; v <= 3; v++) {
                ps.setInt(1, v); // the previous result set was read to the end but never closed
                ResultSet rs = ps.executeQuery();
                assertTrue(rs.next());
                assertEquals(4 - v, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void executeReportsResultKinds() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT 7")) {
            assertTrue(ps.execute());
            assertEquals(-1, ps.getUpdateCount());
            try (ResultSet rs = ps.getResultSet()) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
            assertFalse(ps.getMoreResults());
            assertEquals(-1, ps.getUpdateCount());
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (1), (2)")) {
            assertFalse(ps.execute());
            assertNull(ps.getResultSet());
            assertEquals(2, ps.getUpdateCount());
            assertFalse(ps.getMoreResults());
            assertEquals(-1, ps.getUpdateCount());
        }
    }

    // ------------------------------------------------------------------ batches

    @Test
    void batchWithParameters() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v, txt) VALUES (?, ?)")) {
            for (int i = 1; i <= 3; i++) {
                ps.setInt(1, i);
                ps.setString(2, "row" + i);
                ps.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
            assertArrayEquals(new int[0], ps.executeBatch(), "the batch is empty after executeBatch");
        }
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT v, txt FROM t ORDER BY id")) {
            for (int i = 1; i <= 3; i++) {
                assertTrue(rs.next());
                assertEquals(i, rs.getInt(1));
                assertEquals("row" + i, rs.getString(2));
            }
            assertFalse(rs.next());
        }
    }

    @Test
    void batchUpdateCountsPerRow() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES (1),(1),(2),(3),(3),(3)");
        try (PreparedStatement ps = conn.prepareStatement("UPDATE t SET txt = 'x' WHERE v = ?")) {
            for (int v : new int[] {3, 1, 9, 2}) {
                ps.setInt(1, v);
                ps.addBatch();
            }
            assertArrayEquals(new long[] {3, 2, 0, 1}, ps.executeLargeBatch());
        }
    }

    @Test
    void failingBatchRowGivesCountsBefore() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(u) VALUES (?)")) {
            for (int u : new int[] {1, 2, 1, 3}) {
                ps.setInt(1, u);
                ps.addBatch();
            }
            BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
            assertArrayEquals(new int[] {1, 1}, e.getUpdateCounts());
            // the statement works afterwards
            ps.setInt(1, 10);
            assertEquals(1, ps.executeUpdate());
        }
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertEquals(3, rs.getInt(1));
        }
    }

    @Test
    void clearBatchOnPrepared() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            ps.setInt(1, 1);
            ps.addBatch();
            ps.clearBatch();
            assertArrayEquals(new int[0], ps.executeBatch());
        }
        assertEquals(0, lastId());
    }

    @Test
    void generatedKeysForABatchGiveOneKeyPerRow() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(id) VALUES (100)");
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < 3; i++) {
                ps.setInt(1, i);
                ps.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
            List<Long> keys = new ArrayList<>();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                while (rs.next()) {
                    keys.add(rs.getLong(1));
                }
            }
            assertEquals(List.of(101L, 102L, 103L), keys);
        }
    }

    @Test
    void generatedKeysAskedForOrTheIncumbentsWay() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, 5);
            ps.executeUpdate();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                assertTrue(rs.next());
                assertEquals(lastId(), rs.getLong(1));
                assertFalse(rs.next());
            }
        }
        try (Connection off = TestDb.open(dir, "jdbc.get_generated_keys=false");
             PreparedStatement ps = off.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            ps.setInt(1, 5);
            ps.executeUpdate();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                assertFalse(rs.next(), "jdbc.get_generated_keys=false: keys only when asked for");
            }
        }
    }

    // ------------------------------------------------------------------ metadata

    @Test
    void parameterMetaDataCountsParameters() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT ? + ?, ?")) {
            ParameterMetaData md = ps.getParameterMetaData();
            assertEquals(3, md.getParameterCount());
            assertThrows(SQLException.class, () -> md.getParameterType(4));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1")) {
            assertEquals(0, ps.getParameterMetaData().getParameterCount());
        }
    }

    @Test
    void metaDataBeforeExecution() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT id, txt AS label, num FROM t WHERE id = ?")) {
            ResultSetMetaData md = ps.getMetaData();
            assertNotNull(md);
            assertEquals(3, md.getColumnCount());
            assertEquals("id", md.getColumnName(1));
            assertEquals("label", md.getColumnLabel(2));
            assertEquals("txt", md.getColumnName(2));
            assertEquals(Types.INTEGER, md.getColumnType(1));
            assertEquals("INTEGER", md.getColumnTypeName(1));
            assertEquals(Types.VARCHAR, md.getColumnType(2));
            assertEquals("TEXT", md.getColumnTypeName(2));
            assertEquals(Types.NUMERIC, md.getColumnType(3));
            assertEquals("t", md.getTableName(1));
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            assertNull(ps.getMetaData(), "a statement without result columns has no result set metadata");
        }
    }

    // ------------------------------------------------------------------ misuse

    @Test
    void badParameterIndexThrowsSQLException() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v, txt) VALUES (?, ?)")) {
            List<Executable> calls = new ArrayList<>();
            for (int bad : new int[] {0, 3, -1}) {
                calls.add(() -> ps.setInt(bad, 1));
                calls.add(() -> ps.setLong(bad, 1));
                calls.add(() -> ps.setDouble(bad, 1));
                calls.add(() -> ps.setBoolean(bad, true));
                calls.add(() -> ps.setString(bad, "x"));
                calls.add(() -> ps.setString(bad, null));
                calls.add(() -> ps.setBytes(bad, new byte[1]));
                calls.add(() -> ps.setNull(bad, Types.INTEGER));
                calls.add(() -> ps.setObject(bad, "x"));
                calls.add(() -> ps.setObject(bad, null));
                calls.add(() -> ps.setObject(bad, LocalDate.now()));
                calls.add(() -> ps.setObject(bad, 1, Types.VARCHAR));
                calls.add(() -> ps.setBigDecimal(bad, BigDecimal.ONE));
                calls.add(() -> ps.setTimestamp(bad, new Timestamp(0)));
                calls.add(() -> ps.setDate(bad, new Date(0)));
                calls.add(() -> ps.setBinaryStream(bad, new ByteArrayInputStream(new byte[1])));
                calls.add(() -> ps.setCharacterStream(bad, new StringReader("x")));
            }
            for (Executable call : calls) {
                assertThrows(SQLException.class, call);
            }
            // the statement is fine afterwards
            ps.setInt(1, 1);
            ps.setInt(2, 2);
            assertEquals(1, ps.executeUpdate());
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1")) {
            assertThrows(SQLException.class, () -> ps.setInt(1, 1));
        }
    }

    @Test
    void executeUpdateOnASelectThrows() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT * FROM t")) {
            assertThrows(SQLException.class, ps::executeUpdate);
            assertThrows(SQLException.class, ps::executeLargeUpdate);
            ps.addBatch();
            assertThrows(SQLException.class, ps::executeBatch);
            try (ResultSet rs = ps.executeQuery()) { // still usable
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void executeQueryOnAnInsertThrows() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO t(v) VALUES (1)")) {
            assertThrows(SQLException.class, ps::executeQuery);
        }
        assertEquals(0, lastId(), "executeQuery must not have run the insert");
    }

    @Test
    void statementMethodsWithSqlThrowOnAPreparedStatement() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1")) {
            assertThrows(SQLException.class, () -> ps.execute("SELECT 2"));
            assertThrows(SQLException.class, () -> ps.executeQuery("SELECT 2"));
            assertThrows(SQLException.class, () -> ps.executeUpdate("INSERT INTO t(v) VALUES (1)"));
            assertThrows(SQLException.class, () -> ps.executeLargeUpdate("INSERT INTO t(v) VALUES (1)"));
            assertThrows(SQLException.class, () -> ps.addBatch("INSERT INTO t(v) VALUES (1)"));
            assertThrows(SQLException.class, () -> ps.execute("SELECT 2", Statement.NO_GENERATED_KEYS));
            assertThrows(SQLException.class, () -> ps.execute("SELECT 2", new int[] {1}));
            assertThrows(SQLException.class, () -> ps.execute("SELECT 2", new String[] {"a"}));
            assertThrows(SQLException.class, () -> ps.executeUpdate("INSERT INTO t(v) VALUES (1)", 1));
            assertThrows(SQLException.class, () -> ps.executeUpdate("INSERT INTO t(v) VALUES (1)", new int[] {1}));
            assertThrows(SQLException.class, () -> ps.executeUpdate("INSERT INTO t(v) VALUES (1)", new String[] {"a"}));
            assertThrows(SQLException.class, () -> ps.executeLargeUpdate("INSERT INTO t(v) VALUES (1)", 1));
        }
        assertEquals(0, lastId());
    }

    @Test
    void twoStatementsAreRejectedAtPrepare() throws SQLException {
        assertThrows(SQLException.class, () -> conn.prepareStatement("SELECT 1; SELECT 2"));
        assertThrows(SQLException.class, () -> conn.prepareStatement("INSERT INTO t(v) VALUES (1); DELETE FROM t"));
        assertEquals(0, lastId(), "nothing ran");
        // a trailing semicolon, whitespace or comment is one statement
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1; -- done\n ; ")) {
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
            }
        }
        assertThrows(SQLException.class, () -> conn.prepareStatement(null));
        assertThrows(SQLException.class, () -> conn.prepareStatement("SELEC 1"));
        assertThrows(SQLException.class, () -> conn.prepareStatement("   "));
    }

    @Test
    void closedPreparedStatementThrows() throws SQLException {
        PreparedStatement ps = conn.prepareStatement("SELECT ?");
        ps.close();
        assertTrue(ps.isClosed());
        assertThrows(SQLException.class, () -> ps.setInt(1, 1));
        assertThrows(SQLException.class, ps::executeQuery);
        assertThrows(SQLException.class, ps::execute);
        assertThrows(SQLException.class, ps::addBatch);
        assertThrows(SQLException.class, ps::clearParameters);
        assertThrows(SQLException.class, ps::getMetaData);
    }

    @Test
    void maxRowsOnAPreparedQuery() throws SQLException {
        TestDb.exec(conn, "INSERT INTO t(v) VALUES (1),(2),(3),(4),(5)");
        try (PreparedStatement ps = conn.prepareStatement("SELECT v FROM t ORDER BY v")) {
            ps.setMaxRows(2);
            int n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    n++;
                }
            }
            assertEquals(2, n);
        }
    }
}
