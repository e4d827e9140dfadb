package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PanliteConnection's serialize/deserialize and online backup/restore with a progress callback. */
class DatabaseImageTest {
    @TempDir
    Path dir;

    /** 1..2000 without the series extension (not in every SQLite build). */
    static final String SERIES = "WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n LIMIT 2000)"
            + " SELECT value FROM n";

    private static PanliteConnection extras(Connection c) throws SQLException {
        return c.unwrap(PanliteConnection.class);
    }

    @Test
    void serializeThenDeserializeElsewhere() throws SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(deserializeOffered(), "deserialize needs SQLite 3.54+");
        byte[] image;
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t SELECT value FROM (" + SERIES + ") WHERE value <= 1000");
            image = extras(c).serialize("main");
            assertEquals(TestDb.queryLong(c, "PRAGMA page_count") * TestDb.queryLong(c, "PRAGMA page_size"), image.length);
            assertEquals("SQLite format 3\0", new String(image, 0, 16, StandardCharsets.US_ASCII));
        }
        byte[] kept = image.clone();
        try (Connection m = new Driver().connect("jdbc:sqlite::memory:", new Properties())) {
            extras(m).deserialize("main", image);
            Arrays.fill(image, (byte) 0); // the connection holds its own copy
            assertEquals(1000, TestDb.queryLong(m, "SELECT count(*) FROM t"));
            assertEquals(500500, TestDb.queryLong(m, "SELECT sum(x) FROM t"));
            TestDb.exec(m, "INSERT INTO t VALUES (1001)"); // writable and resizeable
            assertEquals(1001, TestDb.queryLong(m, "SELECT count(*) FROM t"));
            assertArrayEquals(extras(m).serialize("main"), extras(m).serialize(null), "null means main");
        }
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "ATTACH ':memory:' AS aux");
            extras(c).deserialize("aux", kept);
            assertEquals(1000, TestDb.queryLong(c, "SELECT count(*) FROM aux.t"));
            SQLException e = assertThrows(SQLException.class, () -> extras(c).serialize("nowhere"));
            assertTrue(e.getMessage().contains("nowhere"), e.getMessage());
            assertThrows(SQLException.class, () -> extras(c).deserialize("nowhere", kept));
        }
    }

    @Test
    void deserializeOfGarbageFailsAtFirstUseNotWithACrash() throws SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(deserializeOffered(), "deserialize needs SQLite 3.54+");
        try (Connection m = new Driver().connect("jdbc:sqlite::memory:", new Properties())) {
            // SQLite 3.54 refuses the image at once; older versions (Debian's 3.40) at the first read
            SQLException e;
            try {
                extras(m).deserialize("main", "not a database at all, not even close to 512 bytes".getBytes());
                e = assertThrows(SQLException.class, () -> TestDb.queryLong(m, "SELECT count(*) FROM sqlite_schema"));
            } catch (SQLException atOnce) {
                e = atOnce;
            }
            assertTrue(e.getMessage().contains("not a database"), e.getMessage());
        }
        // (on a fresh connection: after garbage, SQLite 3.54 refuses any further image with NOTADB)
        try (Connection m = new Driver().connect("jdbc:sqlite::memory:", new Properties())) {
            extras(m).deserialize("main", new byte[0]);
            assertEquals(0, TestDb.queryLong(m, "SELECT count(*) FROM sqlite_schema"), "an empty image is an empty database");
        }
    }

    @Test
    void backupAndRestoreReportProgress() throws SQLException {
        Path copy = dir.resolve("copy.db");
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t SELECT randomblob(1000) FROM (" + SERIES + ") WHERE value <= 2000");
            long pages = TestDb.queryLong(c, "PRAGMA page_count");
            List<int[]> steps = new ArrayList<>();
            extras(c).backup("main", copy, (remaining, total) -> steps.add(new int[] {remaining, total}));
            assertTrue(steps.size() >= pages / 100, "100 pages a step: " + steps.size() + " steps for " + pages);
            assertEquals(0, steps.get(steps.size() - 1)[0], "the last report says nothing remains");
            for (int i = 1; i < steps.size(); i++) {
                assertTrue(steps.get(i)[0] < steps.get(i - 1)[0], "remaining falls");
                assertEquals(pages, steps.get(i)[1]);
            }
            TestDb.exec(c, "DELETE FROM t");
            extras(c).restore("main", copy, null);
            assertEquals(2000, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
        try (Connection b = new Driver().connect("jdbc:sqlite:" + copy, new Properties())) {
            assertEquals(2000, TestDb.queryLong(b, "SELECT count(*) FROM t"));
        }
    }

    @Test
    void aProgressCallbackThatThrowsStopsTheCopyAndTheConnectionStaysUsable() throws Exception {
        Path copy = dir.resolve("stopped.db");
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t SELECT randomblob(1000) FROM (" + SERIES + ") WHERE value <= 1000");
            SQLException stop = assertThrows(SQLException.class,
                    () -> extras(c).backup("main", copy, (remaining, total) -> {
                        throw new IllegalStateException("enough");
                    }));
            assertEquals("enough", stop.getCause().getMessage()); // the callback's failure, as the cause
            assertEquals(1000, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            SQLException missing = assertThrows(SQLException.class,
                    () -> extras(c).restore("main", dir.resolve("no/such/dir/x.db"), null));
            assertTrue(missing.getMessage().contains("restore from"), missing.getMessage());
            assertEquals(1000, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
        assertTrue(Files.exists(copy));
    }

    /** sqlite3_deserialize would close the b-tree under a running statement's cursors (a crash the fuzz found). */
    @Test
    void deserializeIsRefusedWhileAStatementReadsOrABlobIsOpen() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(deserializeOffered(), "deserialize needs SQLite 3.54+");
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (x'01'), (x'02'), (x'03')");
            byte[] image = extras(c).serialize("main");
            try (ResultSet rs = s.executeQuery("SELECT x FROM t")) {
                assertTrue(rs.next());
                SQLException e = assertThrows(SQLException.class, () -> extras(c).deserialize("main", image));
                assertTrue(e.getMessage().contains("still running"), e.getMessage());
                assertTrue(rs.next(), "the reading statement goes on unharmed");
                assertTrue(rs.next());
            }
            java.sql.Blob blob = extras(c).openBlob("main", "t", "x", 1, false);
            SQLException e = assertThrows(SQLException.class, () -> extras(c).deserialize("main", image));
            assertTrue(e.getMessage().contains("blob"), e.getMessage());
            assertEquals(1, blob.getBytes(1, 1)[0]);
            blob.free();
            extras(c).deserialize("main", image); // nothing reads now
            assertEquals(3, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
    }

    @Test
    void closedConnectionRefuses() throws SQLException {
        Connection c = TestDb.open(dir);
        PanliteConnection p = extras(c);
        c.close();
        assertThrows(SQLException.class, () -> p.serialize("main"));
        assertThrows(SQLException.class, () -> p.deserialize("main", new byte[0]));
        assertThrows(SQLException.class, () -> p.backup("main", dir.resolve("x.db"), null));
        assertThrows(SQLException.class, () -> p.openBlob("main", "t", "x", 1, false));
    }

    private static boolean deserializeOffered() {
        return dev.panlite.engine.Database.libraryVersionNumber() >= 3_054_000;
    }

    @Test
    void olderSqliteRefusesDeserialize() throws SQLException {
        org.junit.jupiter.api.Assumptions.assumeFalse(deserializeOffered(), "this SQLite offers deserialize");
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
            byte[] image = extras(c).serialize("main");
            java.sql.SQLFeatureNotSupportedException e = assertThrows(java.sql.SQLFeatureNotSupportedException.class,
                    () -> extras(c).deserialize("main", image));
            assertTrue(e.getMessage().contains("3.54"), e.getMessage());
        }
    }
}
