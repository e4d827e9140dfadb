package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLState 54011 ("too many columns", not XX001 "corrupt") for a schema wider than limit_column, and
 * only for that: a genuinely corrupt schema row stays XX001 whatever its object's name (an outside
 * review's breaks; ErrorsTest has the plain case).
 */
class ColumnLimitErrorsTest {
    @TempDir
    Path dir;

    private SQLException failure(String query, String sql) {
        try (Connection c = TestDb.open(dir, query); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("no error from " + sql);
    }

    /**
     * A genuinely corrupt schema row (rootpage 9999, past the end of the file) of a table whose name
     * contains " - too many columns on ": SQLite's message names the object, and the driver's test is a
     * substring of the whole message, so it answered 54011 "The file is not corrupt". Matched whole now.
     */
    @Test
    void aCorruptSchemaRowIsXX001WhateverItsName() throws SQLException {
        try (Connection c = TestDb.open(dir, "defensive=false")) {
            TestDb.exec(c, "CREATE TABLE \"x - too many columns on y\"(a)", "PRAGMA writable_schema=ON",
                    "UPDATE sqlite_schema SET rootpage=9999 WHERE type='table'");
        }
        SQLException e = failure("", "SELECT * FROM \"x - too many columns on y\"");
        assertTrue(e.getMessage().contains("invalid rootpage"), e.getMessage());
        assertEquals("XX001", e.getSQLState(), e.getMessage());
        assertTrue(!e.getMessage().contains("The file is not corrupt"), e.getMessage());
    }

    /**
     * An index with more columns than limit_column (the table itself within it): SQLite reports the
     * schema malformed "- too many columns in index", as for a wide table, and the file is as sound;
     * the first mapping knew only "too many columns on" (a table), and this one stayed XX001 "corrupt".
     */
    @Test
    void anIndexWiderThanTheColumnLimitIsNotACorruptFile() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(a, b, c)", "CREATE INDEX ti ON t(a+1, a+2, a+3, a+4, a+5, a+6, a+7)");
        }
        SQLException e = failure("limit_column=6", "SELECT * FROM t");
        assertTrue(e.getMessage().contains("too many columns in index"), e.getMessage());
        assertEquals("54011", e.getSQLState(), e.getMessage());
    }
}
