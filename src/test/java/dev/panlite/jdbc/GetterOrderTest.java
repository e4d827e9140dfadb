package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A getter's answer does not depend on the getters called before it on the same row, whether the
 * row is read in place (the first row, a row with a large value, every row with fetch size 1) or
 * read ahead (D1 in docs/fuzz-findings-2026-11-27.md): SQLite converts the value it holds, so
 * getString of a BLOB read in place made getObject return a String, and in a UTF-16 database made
 * getBytes return other bytes. getBytes of a TEXT is its UTF-8 in every database and on every path.
 */
class GetterOrderTest {
    @TempDir
    Path dir;

    /** The getters, by name, as a user's code calls them; each answer rendered comparable. */
    private static final List<String> GETTERS = List.of("getObject", "getString", "getBytes");

    private static String call(ResultSet rs, String getter, int column) throws SQLException {
        Object v = switch (getter) {
            case "getObject" -> rs.getObject(column);
            case "getString" -> rs.getString(column);
            default -> rs.getBytes(column);
        };
        return v == null ? "null" : v instanceof byte[] b ? "byte[]" + Arrays.toString(b) : v.getClass().getSimpleName() + ":" + v;
    }

    /** Every order of the three getters, each order on a fresh read of the same rows. */
    private static List<List<String>> orders() {
        List<List<String>> all = new ArrayList<>();
        for (String a : GETTERS) {
            for (String b : GETTERS) {
                for (String c : GETTERS) {
                    if (!a.equals(b) && !b.equals(c) && !a.equals(c)) {
                        all.add(List.of(a, b, c));
                    }
                }
            }
        }
        return all;
    }

    /**
     * Reads every row of {@code sql} with each order of getters, for every column, with fetch sizes 1
     * (in place throughout) and the default (row 1 in place, the rest read ahead); every answer of
     * a getter must be the one it gives first on a fresh row.
     */
    private static void assertOrderFree(Connection c, String sql) throws SQLException {
        List<String> expected = null;
        for (int fetch : new int[] {1, 0}) {
            for (List<String> order : orders()) {
                List<String> got = new ArrayList<>();
                try (Statement s = c.createStatement()) {
                    s.setFetchSize(fetch);
                    try (ResultSet rs = s.executeQuery(sql)) {
                        int cols = rs.getMetaData().getColumnCount();
                        int row = 0;
                        while (rs.next()) {
                            row++;
                            for (int col = 1; col <= cols; col++) {
                                String[] answers = new String[GETTERS.size()];
                                for (String g : order) {
                                    answers[GETTERS.indexOf(g)] = call(rs, g, col);
                                }
                                got.add("row " + row + " col " + col + ": " + String.join(" | ", answers));
                            }
                        }
                    }
                }
                if (expected == null) {
                    expected = got;
                } else {
                    assertEquals(expected, got, "fetch size " + fetch + ", getters in the order " + order + " of " + sql);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "UTF-16le", "UTF-16be"})
    void gettersAgreeWhateverTheirOrder(String encoding) throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=" + encoding)) {
            TestDb.exec(c, "CREATE TABLE t(b BLOB, s TEXT, i INTEGER, r REAL, n)",
                    "INSERT INTO t VALUES (x'C3A9', 'é', 7, 1.5, NULL), (x'0061', 'a€', -1, 0.25, NULL), "
                            + "(x'', '', 0, 0.0, NULL), (x'41', 'z', 1, 2.0, x'00')");
            assertOrderFree(c, "SELECT b, s, i, r, n FROM t");
            assertOrderFree(c, "SELECT x'00ff' AS e, 'é' || s AS f, b || '' AS g FROM t"); // computed values
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "UTF-16le", "UTF-16be"})
    void aBlobKeepsItsBytesAndClassAfterGetString(String encoding) throws SQLException {
        byte[] stored = {(byte) 0xC3, (byte) 0xA9};
        try (Connection c = TestDb.open(dir, "encoding=" + encoding)) {
            TestDb.exec(c, "CREATE TABLE t(b BLOB, s TEXT)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, 'é')")) {
                ps.setBytes(1, stored);
                ps.executeUpdate();
                ps.executeUpdate();
            }
            String sqliteText = TestDb.queryString(c, "SELECT CAST(b AS TEXT) FROM t LIMIT 1"); // SQLite's reading
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT b, s FROM t")) {
                while (rs.next()) { // row 1 in place, row 2 in place or read ahead (a UTF-16 database's blob: in place)
                    assertEquals(sqliteText, rs.getString(1), "a blob read as text, as SQLite reads it");
                    assertInstanceOf(byte[].class, rs.getObject(1), "still a BLOB after getString");
                    assertArrayEquals(stored, rs.getBytes(1), "the stored bytes after getString");
                    assertEquals("é", rs.getString(2));
                    assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), rs.getBytes(2), "a TEXT's UTF-8");
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "UTF-16le"})
    void anExpressionsColumnTypeDoesNotChangeUnderGetString(String encoding) throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=" + encoding);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT x'00ff' AS v")) {
            rs.next();
            int before = rs.getMetaData().getColumnType(1);
            rs.getString(1);
            assertEquals(before, rs.getMetaData().getColumnType(1), "the column's type as stepped");
            assertInstanceOf(byte[].class, rs.getObject(1));
        }
    }

    // Breaks an outside review found in the first fix (getString of a BLOB in place decoded its bytes
    // in Java, in the encoding "SELECT encoding FROM pragma_encoding" reported). Each asserts what
    // SQLite reads (CAST(v AS TEXT)); every row here is read in place (fetch size 1, a UTF-16 database).

    /** A user's table or view named pragma_encoding shadows the eponymous table the driver asks. */
    @Test
    void aViewNamedPragmaEncodingDoesNotChangeGetStringOfABlob() throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=UTF-16le")) {
            TestDb.exec(c, "CREATE TABLE t(v)", "INSERT INTO t VALUES (x'41004200'), (x'41004200')",
                    "CREATE TEMP VIEW pragma_encoding AS SELECT 'UTF-8' AS encoding");
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1);
                try (ResultSet rs = s.executeQuery("SELECT v, CAST(v AS TEXT) FROM t")) {
                    while (rs.next()) {
                        assertEquals("AB", rs.getString(2), "SQLite's reading");
                        assertEquals("AB", rs.getString(1), "the blob read as UTF-16le text"); // got "A\0B\0"
                        assertArrayEquals(new byte[] {0x41, 0, 0x42, 0}, rs.getBytes(1));
                    }
                }
            }
        }
    }

    /**
     * A progress handler that stops statements runs inside getString (on the driver's own
     * question), which then silently decodes in UTF-8; before, getString ran no statement.
     */
    @Test
    void aProgressHandlerDoesNotChangeGetStringOfABlob() throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=UTF-16le")) {
            TestDb.exec(c, "CREATE TABLE t(v)", "INSERT INTO t VALUES (x'41004200')");
            PanliteConnection pc = c.unwrap(PanliteConnection.class);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1);
                try (ResultSet rs = s.executeQuery("SELECT v FROM t")) {
                    rs.next();
                    pc.setProgressHandler(1, () -> 1); // stops any statement run from now on
                    String got;
                    try {
                        got = rs.getString(1);
                    } catch (SQLException e) {
                        return; // an error would at least not be a wrong value
                    } finally {
                        pc.setProgressHandler(0, null);
                    }
                    assertEquals("AB", got, "the blob read as UTF-16le text, not as UTF-8"); // got "A\0B\0"
                }
            }
        }
    }

    /** SQLite reads a computed zeroblob as UTF-8 text; the driver now reads it as UTF-16 (half the characters). */
    @Test
    void getStringOfAZeroblobInAUtf16DatabaseIsSqlitesReading() throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=UTF-16le")) {
            String sqlite = TestDb.queryString(c, "SELECT CAST(zeroblob(4) AS TEXT)");
            assertEquals("\0\0\0\0", sqlite, "SQLite's reading");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT zeroblob(4)")) {
                rs.next();
                assertEquals(sqlite, rs.getString(1)); // got "\0\0"
            }
        }
    }

    /**
     * SQLite reads UTF-16 with a lone high surrogate by pairing it with the next unit; the driver's
     * Java decoding answers U+FFFD (and a lone low surrogate: U+FFFD, 'A'), so a blob's getString no
     * longer matches CAST(v AS TEXT), nor the same bytes stored as TEXT.
     */
    @Test
    void getStringOfAnInvalidUtf16BlobIsSqlitesReading() throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=UTF-16le")) {
            TestDb.exec(c, "CREATE TABLE t(v)", "INSERT INTO t VALUES (x'00d84100'), (x'00dc4100')");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v, CAST(v AS TEXT) FROM t")) {
                while (rs.next()) {
                    String sqlite = rs.getString(2);
                    assertEquals(sqlite, rs.getString(1)); // got "\ufffd" / "\ufffdA"; SQLite: "\ud800\udc41"
                }
            }
        }
    }

    /**
     * The driver's question whether the encoding is fixed (system SQLite, or the helper off) read the
     * schema between two rows of a connection's first query, which read no table: SQLite then set the
     * file's encoding under the running statement, and its text literal "abc" came back as "\u6261"
     * from row 2 on. The question is never asked while a statement runs.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aFirstQueryReadingNoTableKeepsItsTextInAUtf16File(int fetchSize) throws SQLException {
        try (Connection c = TestDb.open(dir, "encoding=UTF-16le")) {
            TestDb.exec(c, "CREATE TABLE t(v)");
        }
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) { // a new connection: no schema read yet
            s.setFetchSize(fetchSize);
            try (ResultSet rs = s.executeQuery("SELECT x'41004200', CASE WHEN k > 0 THEN 'abc' END"
                    + " FROM (SELECT 1 AS k UNION ALL SELECT 2 UNION ALL SELECT 3)")) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                    assertEquals("abc", rs.getString(2), "row " + rows);
                }
                assertEquals(3, rows);
            }
        }
    }
}
