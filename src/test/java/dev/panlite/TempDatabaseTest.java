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
 * The driver never opens the TEMP database behind the user's back (D2, and an outside review's
 * breaks): reading temp.sqlite_schema opens it, and PRAGMA database_list then lists temp where a new
 * connection lists only main.
 */
class TempDatabaseTest {
    @TempDir
    Path dir;

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    /**
     * DatabaseMetaData's table calls read temp.sqlite_master even when TEMP was never used (its
     * schemas always name temp), which opened the TEMP database on both engines: database_list then listed
     * temp, unlike a new connection's. getTables, getColumns, getPrimaryKeys, getIndexInfo,
     * getImported/ExportedKeys, getCrossReference, getBestRowIdentifier all did.
     */
    @Test
    void metadataOpensNoTempDatabase() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)");
            assertEquals("main", TestDb.databaseList(c));
            DatabaseMetaData md = c.getMetaData();
            drain(md.getTables(null, null, "%", null));
            assertEquals("main", TestDb.databaseList(c), "after getTables(null, null, \"%\", null)");
            drain(md.getColumns(null, null, "t", "%"));
            drain(md.getPrimaryKeys(null, null, "t"));
            assertEquals("main", TestDb.databaseList(c), "after getColumns, getPrimaryKeys");
        }
    }

    /** And a pooled handle passes that TEMP on to the next borrower, who did nothing. */
    @Test
    void aPooledBorrowerAfterMetadataSeesNoTempDatabase() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)");
        }
        PooledConnection pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "test.db", "")).getPooledConnection();
        try {
            try (Connection first = pooled.getConnection()) {
                drain(first.getMetaData().getTables(null, null, "t", null));
            }
            try (Connection next = pooled.getConnection()) {
                assertEquals("main", TestDb.databaseList(next), "as on a new connection");
            }
        } finally {
            pooled.close();
        }
    }

}
