package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dates and times: reading every form SQLite's own functions produce and the incumbent writes,
 * and writing in the incumbent's format by default. The JVM zone is set to one far from UTC (and
 * off the hour) for this class, so a value read in the wrong zone cannot pass by accident.
 */
class DateTimeTest {
    private static TimeZone savedZone;

    @TempDir
    Path dir;

    Connection conn;

    @BeforeAll
    static void farFromUtc() {
        savedZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata")); // +05:30, no DST
    }

    @AfterAll
    static void restoreZone() {
        TimeZone.setDefault(savedZone);
    }

    @AfterEach
    void close() throws SQLException {
        if (conn != null) {
            conn.close();
        }
    }

    private Connection open(String query) throws SQLException {
        conn = TestDb.open(dir, query);
        return conn;
    }

    private ResultSet row(String sql) throws SQLException {
        ResultSet rs = conn.createStatement().executeQuery(sql);
        assertTrue(rs.next(), sql);
        return rs;
    }

    private String text(String sql) throws SQLException {
        try (ResultSet rs = row(sql)) {
            return rs.getString(1);
        }
    }

    private static long utcMillis(String isoInstant) {
        return Instant.parse(isoInstant).toEpochMilli();
    }

    // ------------------------------------------------------------------ reading

    @Test
    void readsWhatSqliteDateFunctionsReturn() throws SQLException {
        open("");
        try (ResultSet rs = row("SELECT date('2024-02-29'), datetime('2024-02-29 12:34:56'), time('2024-02-29 12:34:56')")) {
            assertEquals("2024-02-29", rs.getDate(1).toString());
            assertEquals(LocalDate.of(2024, 2, 29), rs.getObject(1, LocalDate.class));
            assertEquals(Timestamp.valueOf("2024-02-29 00:00:00"), rs.getTimestamp(1));
            assertEquals(Timestamp.valueOf("2024-02-29 12:34:56"), rs.getTimestamp(2));
            assertEquals("2024-02-29", rs.getDate(2).toString());
            assertEquals(LocalDateTime.of(2024, 2, 29, 12, 34, 56), rs.getObject(2, LocalDateTime.class));
            assertEquals("12:34:56", rs.getTime(3).toString());
            assertEquals(LocalTime.of(12, 34, 56), rs.getObject(3, LocalTime.class));
        }
    }

    @Test
    void readsCurrentTimestamp() throws SQLException {
        open("");
        try (ResultSet rs = row("SELECT CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME, datetime('now')")) {
            String text = rs.getString(1);
            Timestamp ts = rs.getTimestamp(1);
            assertNotNull(ts);
            assertEquals(Timestamp.valueOf(text), ts, "text without offset reads as local date-time");
            assertEquals(rs.getString(2), rs.getDate(2).toString());
            assertEquals(rs.getString(3), rs.getTime(3).toString());
            assertNotNull(rs.getTimestamp(4));
        }
    }

    @Test
    void readsIsoWithTAndOffsets() throws SQLException {
        open("");
        try (ResultSet rs = row("SELECT '2024-02-29T12:34:56', '2024-02-29T12:34:56Z', '2024-02-29T12:34:56+02:00',"
                + " '2024-02-29 12:34:56-08:00', '2024-02-29T12:34'")) {
            assertEquals(Timestamp.valueOf("2024-02-29 12:34:56"), rs.getTimestamp(1));
            assertEquals(utcMillis("2024-02-29T12:34:56Z"), rs.getTimestamp(2).getTime(), "Z is UTC");
            assertEquals(utcMillis("2024-02-29T10:34:56Z"), rs.getTimestamp(3).getTime(), "+02:00 is honoured");
            assertEquals(utcMillis("2024-02-29T20:34:56Z"), rs.getTimestamp(4).getTime(), "-08:00 is honoured");
            assertEquals(Timestamp.valueOf("2024-02-29 12:34:00"), rs.getTimestamp(5));
            // with a Calendar the explicit offset still wins
            Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
            assertEquals(utcMillis("2024-02-29T10:34:56Z"), rs.getTimestamp(3, tokyo).getTime());
            assertEquals(utcMillis("2024-02-29T03:34:56Z"), rs.getTimestamp(1, tokyo).getTime(),
                    "no offset: the calendar's zone");
            assertEquals(Instant.parse("2024-02-29T10:34:56Z"), rs.getObject(3, Instant.class));
            assertEquals(OffsetDateTime.of(2024, 2, 29, 12, 34, 56, 0, ZoneOffset.ofHours(2)),
                    rs.getObject(3, OffsetDateTime.class));
        }
    }

    @Test
    void textWithFractionalSecondsKeepsThem() throws SQLException {
        open("");
        try (ResultSet rs = row("SELECT '2024-02-29 12:34:56.123456', '2024-02-29 12:34:56.5',"
                + " '2024-02-29T12:34:56.123456789Z', strftime('%Y-%m-%d %H:%M:%f', '2024-02-29 12:34:56.789')")) {
            Timestamp micros = rs.getTimestamp(1);
            assertEquals(123_456_000, micros.getNanos());
            assertEquals(Timestamp.valueOf("2024-02-29 12:34:56.123456"), micros);
            assertEquals(500_000_000, rs.getTimestamp(2).getNanos());
            Timestamp utc = rs.getTimestamp(3);
            assertEquals(utcMillis("2024-02-29T12:34:56.123Z"), utc.getTime());
            assertEquals(123_456_789, utc.getNanos());
            assertEquals(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123_456_000), rs.getObject(1, LocalDateTime.class));
            assertEquals(789_000_000, rs.getTimestamp(4).getNanos());
        }
    }

    @Test
    void readsEpochMilliseconds() throws SQLException {
        open("");
        long millis = utcMillis("2024-02-29T12:34:56.789Z");
        try (ResultSet rs = row("SELECT " + millis + ", NULL")) {
            assertEquals(millis, rs.getTimestamp(1).getTime());
            assertEquals(millis, rs.getDate(1).getTime());
            assertEquals(millis, rs.getTime(1).getTime());
            assertEquals(Instant.ofEpochMilli(millis), rs.getObject(1, Instant.class));
            assertEquals(LocalDateTime.of(2024, 2, 29, 18, 4, 56, 789_000_000), rs.getObject(1, LocalDateTime.class),
                    "epoch time shown in the JVM zone (+05:30)");
        }
    }

    @Test
    void readsJulianDay() throws SQLException {
        open("");
        try (ResultSet rs = row("SELECT julianday('2024-02-29 12:34:56'), julianday('1970-01-01')")) {
            assertEquals("real", text("SELECT typeof(julianday('2024-02-29'))"));
            assertEquals(utcMillis("2024-02-29T12:34:56Z"), rs.getTimestamp(1).getTime());
            assertEquals(0L, rs.getTimestamp(2).getTime());
            assertEquals(Instant.parse("2024-02-29T12:34:56Z"), rs.getObject(1, Instant.class));
        }
    }

    @Test
    void readsBareTimeOfDay() throws SQLException {
        open("");
        try (ResultSet rs = row("SELECT '12:34:56', '23:59', '07:08:09.250'")) {
            assertEquals("12:34:56", rs.getTime(1).toString());
            assertEquals(Time.valueOf("12:34:56").getTime(), rs.getTime(1).getTime());
            assertEquals("23:59:00", rs.getTime(2).toString());
            assertEquals(Time.valueOf("07:08:09").getTime() + 250, rs.getTime(3).getTime());
            assertEquals(LocalTime.of(7, 8, 9, 250_000_000), rs.getObject(3, LocalTime.class));
        }
    }

    @Test
    void readsEpochSecondsInSecondsPrecision() throws SQLException {
        open("date_precision=SECONDS");
        try (ResultSet rs = row("SELECT unixepoch('2024-02-29 12:34:56'), strftime('%s', '2024-02-29 12:34:56')")) {
            assertEquals(utcMillis("2024-02-29T12:34:56Z"), rs.getTimestamp(1).getTime());
            assertEquals(utcMillis("2024-02-29T12:34:56Z"), rs.getTimestamp(2).getTime(), "strftime('%s') is text");
            assertEquals(Instant.parse("2024-02-29T12:34:56Z"), rs.getObject(1, Instant.class));
            assertEquals(Instant.parse("2024-02-29T12:34:56Z"), rs.getObject(2, Instant.class));
        }
    }

    // ------------------------------------------------------------------ writing

    private void createTable() throws SQLException {
        TestDb.exec(conn, "CREATE TABLE d(id INTEGER PRIMARY KEY, v)");
    }

    private void insert(Object value) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO d(v) VALUES (?)")) {
            if (value instanceof Timestamp ts) {
                ps.setTimestamp(1, ts);
            } else if (value instanceof Date date) {
                ps.setDate(1, date);
            } else if (value instanceof Time time) {
                ps.setTime(1, time);
            } else {
                ps.setObject(1, value);
            }
            ps.executeUpdate();
        }
    }

    private ResultSet last(String columns) throws SQLException {
        return row("SELECT " + columns + " FROM d ORDER BY id DESC LIMIT 1");
    }

    @Test
    void timestampIsWrittenAsEpochMillisecondsByDefault() throws SQLException {
        open("");
        createTable();
        Timestamp ts = new Timestamp(utcMillis("2024-02-29T12:34:56.789Z"));
        insert(ts);
        try (ResultSet rs = last("typeof(v), v, datetime(v / 1000, 'unixepoch')")) {
            assertEquals("integer", rs.getString(1));
            assertEquals(ts.getTime(), rs.getLong(2));
            assertEquals("2024-02-29 12:34:56", rs.getString(3));
            assertEquals(ts, rs.getTimestamp(2));
        }
        Date date = Date.valueOf("2024-02-29");
        insert(date);
        try (ResultSet rs = last("typeof(v), v")) {
            assertEquals("integer", rs.getString(1));
            assertEquals(date.getTime(), rs.getLong(2));
            assertEquals(date, rs.getDate(2));
        }
        Time time = Time.valueOf("12:34:56");
        insert(time);
        try (ResultSet rs = last("typeof(v), v")) {
            assertEquals("integer", rs.getString(1));
            assertEquals(time.getTime(), rs.getLong(2));
            assertEquals(time, rs.getTime(2));
        }
    }

    @Test
    void secondsPrecisionWritesEpochSeconds() throws SQLException {
        open("date_precision=SECONDS");
        createTable();
        Timestamp ts = new Timestamp(utcMillis("2024-02-29T12:34:56.789Z"));
        insert(ts);
        try (ResultSet rs = last("typeof(v), v, datetime(v, 'unixepoch')")) {
            assertEquals("integer", rs.getString(1));
            assertEquals(utcMillis("2024-02-29T12:34:56Z") / 1000, rs.getLong(2));
            assertEquals("2024-02-29 12:34:56", rs.getString(3));
            assertEquals(utcMillis("2024-02-29T12:34:56Z"), rs.getTimestamp(2).getTime());
        }
        // before the epoch: seconds round down, as SQLite's unixepoch does
        Timestamp early = new Timestamp(-1500);
        insert(early);
        try (ResultSet rs = last("v")) {
            assertEquals(-2, rs.getLong(1));
        }
    }

    @Test
    void textClassWritesTheDefaultFormatAndReadsTheSameInstant() throws SQLException {
        open("date_class=TEXT");
        createTable();
        Timestamp ts = new Timestamp(utcMillis("2024-02-29T12:34:56.789Z"));
        insert(ts);
        String expected = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS").format(ts);
        assertEquals("2024-02-29 18:04:56.789", expected, "sanity: the JVM zone is +05:30");
        try (ResultSet rs = last("typeof(v), v")) {
            assertEquals("text", rs.getString(1));
            assertEquals(expected, rs.getString(2));
            assertEquals(ts, rs.getTimestamp(2));
            assertEquals(ts.getTime(), rs.getTimestamp(2).getTime());
            assertEquals(ts.toInstant(), rs.getObject(2, Instant.class));
        }
        Date date = Date.valueOf("2024-02-29");
        insert(date);
        try (ResultSet rs = last("v")) {
            assertEquals("2024-02-29 00:00:00.000", rs.getString(1));
            assertEquals(date, rs.getDate(1));
        }
    }

    @Test
    void textClassWithACustomFormat() throws SQLException {
        open("date_class=TEXT&date_string_format=dd.MM.yyyy%20HH:mm:ss");
        createTable();
        Timestamp ts = new Timestamp(utcMillis("2024-02-29T12:34:56Z"));
        insert(ts);
        try (ResultSet rs = last("v")) {
            assertEquals("29.02.2024 18:04:56", rs.getString(1));
            assertEquals(ts, rs.getTimestamp(1));
            assertEquals(ts.getTime(), rs.getDate(1).getTime());
            assertEquals(LocalDateTime.of(2024, 2, 29, 18, 4, 56), rs.getObject(1, LocalDateTime.class));
            assertEquals(ts.toInstant(), rs.getObject(1, Instant.class));
        }
    }

    @Test
    void realClassWritesAJulianDay() throws SQLException {
        open("date_class=REAL");
        createTable();
        Timestamp ts = new Timestamp(utcMillis("2024-02-29T12:34:56.789Z"));
        insert(ts);
        try (ResultSet rs = last("typeof(v), v, datetime(v), strftime('%Y-%m-%d %H:%M:%f', v),"
                + " v - julianday('2024-02-29 12:34:56.789')")) {
            assertEquals("real", rs.getString(1));
            assertEquals(ts.getTime() / 86_400_000.0 + 2440587.5, rs.getDouble(2), 1e-9);
            assertEquals("2024-02-29 12:34:56", rs.getString(3));
            assertEquals("2024-02-29 12:34:56.789", rs.getString(4));
            assertEquals(0.0, rs.getDouble(5), 1e-8);
            assertEquals(ts, rs.getTimestamp(2));
        }
    }

    @Test
    void javaTimeIsWrittenAsIsoTextSqliteUnderstands() throws SQLException {
        open("");
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT date(?), datetime(?), time(?), datetime(?), datetime(?), typeof(?), strftime('%H:%M:%f', ?)")) {
            LocalDate date = LocalDate.of(2024, 2, 29);
            ps.setObject(1, date);
            ps.setObject(2, LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000));
            ps.setObject(3, LocalTime.of(7, 8, 9));
            ps.setObject(4, OffsetDateTime.of(2024, 2, 29, 12, 34, 56, 0, ZoneOffset.ofHours(2)));
            ps.setObject(5, Instant.parse("2024-02-29T10:34:56.789Z"));
            ps.setObject(6, date);
            ps.setObject(7, LocalTime.of(7, 8, 9, 250_000_000));
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("2024-02-29", rs.getString(1));
                assertEquals("2024-02-29 12:34:56", rs.getString(2));
                assertEquals("07:08:09", rs.getString(3));
                assertEquals("2024-02-29 10:34:56", rs.getString(4), "the offset is applied by SQLite");
                assertEquals("2024-02-29 10:34:56", rs.getString(5));
                assertEquals("text", rs.getString(6));
                assertEquals("07:08:09.250", rs.getString(7));
            }
        }
    }

    @Test
    void javaTimeEdgeValuesStayReadableBySqlite() throws SQLException {
        open("");
        try (PreparedStatement ps = conn.prepareStatement("SELECT datetime(?), datetime(?), time(?)")) {
            ps.setObject(1, OffsetDateTime.of(2024, 2, 29, 12, 0, 0, 0, ZoneOffset.ofHours(2))); // no seconds
            ps.setObject(2, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 123_456_789)); // sub-millisecond
            ps.setObject(3, LocalTime.MIDNIGHT);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("2024-02-29 10:00:00", rs.getString(1));
                assertEquals("2024-02-29 12:00:00", rs.getString(2));
                assertEquals("00:00:00", rs.getString(3));
            }
        }
    }

    @Test
    void javaTimeIsIsoTextWhateverTheDateClass() throws SQLException {
        for (String q : new String[] {"date_class=TEXT", "date_class=REAL", "date_precision=SECONDS"}) {
            open(q);
            try (PreparedStatement ps = conn.prepareStatement("SELECT ?, typeof(?)")) {
                ps.setObject(1, LocalDate.of(2024, 2, 29));
                ps.setObject(2, LocalDate.of(2024, 2, 29));
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("2024-02-29", rs.getString(1), q);
                    assertEquals("text", rs.getString(2), q);
                    assertEquals(LocalDate.of(2024, 2, 29), rs.getObject(1, LocalDate.class));
                }
            }
            conn.close();
            conn = null;
        }
    }

    @Test
    void sqliteDateFunctionsOnStoredDefaultValues() throws SQLException {
        open("");
        createTable();
        Statement s = conn.createStatement();
        s.executeUpdate("INSERT INTO d(v) VALUES (CURRENT_TIMESTAMP)");
        try (ResultSet rs = last("v")) {
            String text = rs.getString(1);
            assertEquals(Timestamp.valueOf(text), rs.getTimestamp(1));
        }
        s.close();
    }
}
