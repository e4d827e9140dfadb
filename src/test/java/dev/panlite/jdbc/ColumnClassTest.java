package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.TestDb;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 16: ResultSetMetaData.getColumnClassName names the class getObject returns (JDBC:
 * that class or a subclass), for every declared type family and values of every storage class. On a
 * current row it is the value's own class, as the incumbent's; before the first row, the class of
 * the values the declared type holds.
 */
class ColumnClassTest {
    @TempDir
    Path dir;

    Connection conn;

    /** Declared type of each column of table v, with the class named before the first row. */
    static final String[][] DECLARED = {
        {"INT", "java.lang.Number"}, {"INTEGER", "java.lang.Number"}, {"BIGINT", "java.lang.Number"},
        {"TINYINT", "java.lang.Number"}, {"SMALLINT", "java.lang.Number"}, {"BOOLEAN", "java.lang.Number"},
        {"NUMERIC", "java.lang.Number"}, {"DECIMAL(10,2)", "java.lang.Number"}, {"REAL", "java.lang.Double"},
        {"DOUBLE", "java.lang.Double"}, {"FLOAT", "java.lang.Double"}, {"TEXT", "java.lang.String"},
        {"VARCHAR(20)", "java.lang.String"}, {"CHAR(3)", "java.lang.String"}, {"CLOB", "java.lang.String"},
        {"BLOB", "[B"}, {"DATE", "java.lang.Object"}, {"DATETIME", "java.lang.Object"},
        {"TIMESTAMP", "java.lang.Object"}, {"JSON", "java.lang.Object"}, {"", "java.lang.Object"},
    };

    /** Values of every storage class, with edges of getObject's Integer/Long choice. */
    static final String[] VALUES = {"NULL", "0", "1", "-7", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "1.5", "2.0", "1e300", "'text'", "'12'", "'2.5'", "'2024-05-06 07:08:09'", "x'0102'",
        "x''", "''"};

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        StringBuilder create = new StringBuilder("CREATE TABLE v(");
        for (int i = 0; i < DECLARED.length; i++) {
            create.append(i == 0 ? "" : ", ").append("c").append(i).append(' ').append(DECLARED[i][0]);
        }
        TestDb.exec(conn, create.append(')').toString());
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
    }

    private void insertEverywhere(String literal) throws SQLException {
        StringBuilder insert = new StringBuilder("INSERT INTO v VALUES (");
        for (int i = 0; i < DECLARED.length; i++) {
            insert.append(i == 0 ? "" : ", ").append(literal);
        }
        TestDb.exec(conn, insert.append(')').toString());
    }

    /** Every column of the current row: getObject's class is the one the metadata taken on that row names. */
    private static void assertRowAgrees(ResultSet rs, String where) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        for (int c = 1; c <= md.getColumnCount(); c++) {
            Object value = rs.getObject(c);
            String named = md.getColumnClassName(c);
            if (value != null) {
                assertEquals(value.getClass().getName(), named,
                        where + ", column " + md.getColumnLabel(c) + " " + md.getColumnTypeName(c) + " = " + value);
            } else {
                assertTrue(loads(named), named);
            }
        }
    }

    private static boolean loads(String className) {
        try {
            Class.forName(className);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Test
    void onACurrentRowTheClassIsTheValuesOwnForEveryDeclaredTypeAndStorageClass() throws SQLException {
        for (String value : VALUES) {
            insertEverywhere(value);
        }
        try (Statement s = conn.createStatement()) {
            for (int fetch : new int[] {1, 0}) { // read in place, and read ahead
                s.setFetchSize(fetch);
                try (ResultSet rs = s.executeQuery("SELECT *, c1 + 0 AS sum, c12 || '' AS joined, NULL AS none,"
                        + " CAST(c1 AS REAL) AS real_one FROM v")) {
                    int row = 0;
                    while (rs.next()) {
                        assertRowAgrees(rs, "fetch " + fetch + ", value " + VALUES[row++]);
                    }
                    assertEquals(VALUES.length, row);
                }
            }
            for (String value : VALUES) { // expressions with no table behind them
                try (ResultSet rs = s.executeQuery("SELECT " + value + ", " + value + " AS again")) {
                    assertTrue(rs.next());
                    assertRowAgrees(rs, "expression " + value);
                }
            }
        }
    }

    /** Typed values as their setters store them: before the first row, the class named is one each value is an instance of. */
    @Test
    void beforeTheFirstRowTheClassCoversTheValuesTheDeclaredTypeHolds() throws SQLException {
        List<Map<Integer, Object>> rows = List.of(
                Map.of(1, 0, 2, 2147483648L, 3, Long.MIN_VALUE, 4, 100, 5, 7, 6, true, 7, new BigDecimal("1.25"),
                        8, new BigDecimal("3"), 9, 2, 10, 1.5),
                Map.of(1, -5L, 2, 1, 3, 42, 4, 1, 5, -300, 6, false, 7, 4, 8, new BigDecimal("2.50"), 9, 0.25, 10, 3),
                Map.of(11, 8, 12, "text", 13, 12, 14, "abc", 15, 2.5, 16, new byte[] {1, 2},
                        17, Date.valueOf("2024-05-06"), 18, new Timestamp(0), 19, new Timestamp(1_700_000_000_000L)),
                Map.of(20, "{\"a\": 1}", 21, 3, 11, 2.75, 16, new byte[0]));
        try (PreparedStatement insert = conn.prepareStatement("INSERT INTO v VALUES (" + "?, ".repeat(20) + "?)")) {
            for (Map<Integer, Object> row : rows) {
                for (int p = 1; p <= DECLARED.length; p++) {
                    insert.setObject(p, row.get(p));
                }
                insert.executeUpdate();
            }
        }
        String query = "SELECT * FROM v";
        try (PreparedStatement ps = conn.prepareStatement(query)) {
            ResultSetMetaData prepared = ps.getMetaData(); // not executed yet
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData before = rs.getMetaData();
                for (int c = 1; c <= DECLARED.length; c++) {
                    assertEquals(DECLARED[c - 1][1], before.getColumnClassName(c), DECLARED[c - 1][0]);
                    assertEquals(DECLARED[c - 1][1], prepared.getColumnClassName(c), DECLARED[c - 1][0]);
                }
                int row = 0;
                while (rs.next()) {
                    ResultSetMetaData on = rs.getMetaData();
                    for (int c = 1; c <= DECLARED.length; c++) {
                        Object value = rs.getObject(c);
                        String what = DECLARED[c - 1][0] + " in row " + row + " = " + value;
                        if (value != null) {
                            assertTrue(Class.forName(before.getColumnClassName(c)).isInstance(value), what);
                        }
                        if (!DECLARED[c - 1][0].isEmpty()) { // the SQL type follows the declared type, on a row as before it
                            assertEquals(before.getColumnType(c), on.getColumnType(c), what);
                        }
                    }
                    row++;
                }
                assertEquals(rows.size(), row);
            } catch (ClassNotFoundException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void anExpressionIsOtherAndObjectBeforeTheFirstRowThenItsValuesTypeAndClass() throws SQLException {
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1 + 1, 1 << 40, 0.5, 'a' || 'b', x'00', NULL")) {
            ResultSetMetaData before = rs.getMetaData();
            for (int c = 1; c <= 6; c++) {
                assertEquals(Types.OTHER, before.getColumnType(c));
                assertEquals("java.lang.Object", before.getColumnClassName(c));
            }
            assertTrue(rs.next());
            ResultSetMetaData on = rs.getMetaData();
            int[] types = {Types.BIGINT, Types.BIGINT, Types.DOUBLE, Types.VARCHAR, Types.BLOB, Types.NULL};
            String[] classes = {"java.lang.Integer", "java.lang.Long", "java.lang.Double", "java.lang.String", "[B",
                "java.lang.Object"};
            for (int c = 1; c <= 6; c++) {
                assertEquals(types[c - 1], on.getColumnType(c), "column " + c);
                assertEquals(classes[c - 1], on.getColumnClassName(c), "column " + c);
            }
            assertFalse(rs.next());
        }
    }

    /** The driver's own result sets (generated keys, DatabaseMetaData answers) agree the same way. */
    @Test
    void resultSetsTheDriverMakesAgreeToo() throws SQLException {
        TestDb.exec(conn, "CREATE TABLE k(id INTEGER PRIMARY KEY, x)");
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("INSERT INTO k(x) VALUES (1)", Statement.RETURN_GENERATED_KEYS);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertEquals("java.lang.Number", keys.getMetaData().getColumnClassName(1));
                assertTrue(keys.next());
                assertRowAgrees(keys, "generated key");
            }
        }
        List<ResultSet> answers = new ArrayList<>();
        answers.add(conn.getMetaData().getTypeInfo());
        answers.add(conn.getMetaData().getColumns(null, null, "v", null));
        answers.add(conn.getMetaData().getTables(null, null, null, null));
        answers.add(conn.getMetaData().getPrimaryKeys(null, null, "k"));
        for (ResultSet answer : answers) {
            try (answer) {
                int rows = 0;
                while (answer.next()) {
                    assertRowAgrees(answer, "DatabaseMetaData row " + rows++);
                }
                assertTrue(rows > 0);
            }
        }
    }
}
