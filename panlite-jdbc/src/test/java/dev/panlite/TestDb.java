package dev.panlite;

import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Opening test databases: a real SQLite file in a JUnit temp directory, through the driver. */
public final class TestDb {
    private TestDb() {}

    /** The URL of {@code name} in {@code dir}, with an optional query string ("" for none). */
    public static String url(Path dir, String name, String query) {
        return "jdbc:sqlite:" + dir.resolve(name) + (query == null || query.isEmpty() ? "" : "?" + query);
    }

    /** A connection to {@code test.db} in {@code dir}. */
    public static Connection open(Path dir) throws SQLException {
        return open(dir, "");
    }

    /** A connection to {@code test.db} in {@code dir} with settings in {@code query} (e.g. "stmt_cache_size=0"). */
    public static Connection open(Path dir, String query) throws SQLException {
        return new Driver().connect(url(dir, "test.db", query), new Properties());
    }

    /** Runs each SQL text (each may hold several statements). */
    public static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        }
    }

    /** Reads one value of the current row. */
    public interface Column<T> {
        T get(ResultSet rs) throws SQLException;
    }

    /** What {@code column} reads from the one row {@code sql} returns; fails on no row or on a second. */
    public static <T> T queryOne(Connection c, String sql, Column<T> column) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), () -> "no row from " + sql);
            T value = column.get(rs);
            assertFalse(rs.next(), () -> "more than one row from " + sql);
            return value;
        }
    }

    /** The first column of the one row {@code sql} returns, as a long. */
    public static long queryLong(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getLong(1));
    }

    /** The first column of the one row {@code sql} returns, as a String. */
    public static String queryString(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getString(1));
    }

    /** The first column of the one row {@code sql} returns, as getObject gives it. */
    public static Object queryObject(Connection c, String sql) throws SQLException {
        return queryOne(c, sql, rs -> rs.getObject(1));
    }
}
