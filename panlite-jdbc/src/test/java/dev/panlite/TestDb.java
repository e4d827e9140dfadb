package dev.panlite;

import java.nio.file.Path;
import java.sql.Connection;
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
}
