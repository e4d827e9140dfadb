package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Virtual tables prepare statements of their own (FTS shadow tables, R*Tree nodes), which SQLite
 * finalizes when it closes the connection. Closing must finalize only the driver's statements:
 * finalizing theirs too crashed the JVM in sqlite3_finalize, every time.
 */
class VirtualTableTest {
    @TempDir
    Path dir;

    private Connection open(String where) throws SQLException {
        String url = where.equals("memory") ? "jdbc:sqlite::memory:" : "jdbc:sqlite:" + dir.resolve("vt.db");
        return DriverManager.getConnection(url);
    }

    private static String create(String module) {
        return module.equals("rtree")
                ? "CREATE VIRTUAL TABLE v USING rtree(id, minX, maxX, minY, maxY)"
                : "CREATE VIRTUAL TABLE v USING " + module + "(body)";
    }

    private static String insert(String module) {
        return module.equals("rtree") ? "INSERT INTO v VALUES (?, 0, 10, 0, 10)" : "INSERT INTO v(rowid, body) VALUES (?, 'hello world')";
    }

    private static String query(String module) {
        return module.equals("rtree") ? "SELECT id FROM v WHERE minX >= 0 AND maxX <= 20"
                : "SELECT rowid FROM v WHERE v MATCH 'hello'";
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"fts3, file", "fts4, file", "fts5, file", "rtree, file",
            "fts3, memory", "fts4, memory", "fts5, memory", "rtree, memory"})
    void closingWithOpenStatementsAndResultSetsFinalizesOnlyOurs(String module, String where) throws SQLException {
        Connection c = open(where);
        Statement s = c.createStatement();
        s.execute(create(module));
        PreparedStatement insert = c.prepareStatement(insert(module));
        for (int i = 1; i <= 3; i++) {
            insert.setInt(1, i);
            assertEquals(1, insert.executeUpdate());
        }
        PreparedStatement ps = c.prepareStatement(query(module));
        ResultSet rs = ps.executeQuery();
        assertTrue(rs.next()); // open mid-read
        ResultSet plain = s.executeQuery(query(module));
        assertTrue(plain.next());
        c.close(); // crashed the JVM here

        assertTrue(rs.isClosed() || assertThrows(SQLException.class, rs::next) != null);
        assertThrows(SQLException.class, () -> ps.executeQuery());
        assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1"));

        if (where.equals("file")) { // the data survived, and a new connection reads it
            try (Connection again = open(where); Statement q = again.createStatement();
                 ResultSet count = q.executeQuery("SELECT count(*) FROM (" + query(module) + ")")) {
                assertTrue(count.next());
                assertEquals(3, count.getInt(1));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"fts3", "fts4", "fts5", "rtree"})
    void closingAfterEverythingClosedAndInATransaction(String module) throws SQLException {
        Connection c = open("file");
        try (Statement s = c.createStatement()) {
            s.execute(create(module));
        }
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement(insert(module))) {
            insert.setInt(1, 7);
            insert.executeUpdate();
        }
        c.close(); // rolls the insert back, with the module's statements still prepared
        try (Connection again = open("file"); Statement q = again.createStatement();
             ResultSet count = q.executeQuery("SELECT count(*) FROM v")) {
            assertTrue(count.next());
            assertEquals(0, count.getInt(1));
        }
    }

    /**
     * sqlite3_table_column_metadata reads a table's first column unchecked: a virtual table that no
     * statement used since the schema was last loaded has none yet, and asking for its columns'
     * nullability crashed the JVM (misuse fuzz F23, SIGSEGV in sqlite3ColumnIndex).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"fts4", "fts5", "rtree"})
    void columnDetailsOfAVirtualTableAfterTheSchemaReloaded(String module) throws SQLException {
        try (Connection a = open("file"); Connection b = open("file")) {
            try (Statement s = a.createStatement()) {
                s.execute(create(module));
            }
            String column = module.equals("rtree") ? "minX" : "body";
            try (PreparedStatement ps = b.prepareStatement("SELECT " + column + " FROM v")) {
                try (Statement s = a.createStatement()) {
                    s.execute("CREATE TABLE other(x)"); // the schema changes under b
                }
                try (Statement s = b.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM other")) {
                    assertTrue(rs.next()); // b reloads its schema: v is not connected in it
                }
                java.sql.ResultSetMetaData meta = ps.getMetaData();
                assertEquals(column, meta.getColumnName(1));
                int nullable = meta.isNullable(1);
                assertTrue(nullable == java.sql.ResultSetMetaData.columnNullable
                        || nullable == java.sql.ResultSetMetaData.columnNullableUnknown, "nullable: " + nullable);
                meta.isAutoIncrement(1);
            }
        }
    }
}
