package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.PanliteConnection.CacheStats;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-connection LRU cache of prepared statements (stmt_cache_size). */
class StatementCacheTest {
    @TempDir
    Path dir;

    private static CacheStats stats(Connection c) throws SQLException {
        return c.unwrap(PanliteConnection.class).statementCacheStats();
    }

    private static int live(Connection c) throws SQLException {
        return c.unwrap(PanliteConnection.class).preparedStatementCount();
    }

    /** Prepares, runs and closes {@code sql}: one use, as JdbcTemplate makes it. */
    private static void use(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
        }
    }

    private static long handle(PreparedStatement ps) throws SQLException {
        return ((JdbcPreparedStatement) ps).stmtHandle();
    }

    @Test
    void defaultSizeIs32AndSettingChangesIt() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            assertEquals(32, stats(c).capacity());
        }
        try (Connection c = TestDb.open(dir, "stmt_cache_size=5")) {
            assertEquals(5, stats(c).capacity());
        }
    }

    @Test
    void hitsMissesAndLeastRecentlyUsedEviction() throws SQLException {
        try (Connection c = TestDb.open(dir, "stmt_cache_size=2")) {
            use(c, "SELECT 1");
            use(c, "SELECT 2");
            assertEquals(new CacheStats(0, 2, 0, 2, 2), stats(c));
            use(c, "SELECT 1"); // hit: SELECT 1 becomes most recently used, SELECT 2 least
            assertEquals(1, stats(c).hits());
            use(c, "SELECT 3"); // full: evicts SELECT 2
            assertEquals(1, stats(c).evictions());
            use(c, "SELECT 1"); // still cached
            assertEquals(2, stats(c).hits());
            use(c, "SELECT 2"); // was evicted: a miss
            CacheStats s = stats(c);
            assertEquals(4, s.misses());
            assertEquals(2, s.size());
        }
    }

    @Test
    void aHotStatementFirstUsedLateStillGetsCached() throws SQLException {
        try (Connection c = TestDb.open(dir, "stmt_cache_size=4")) {
            for (int i = 0; i < 10; i++) {
                use(c, "SELECT " + i); // cold statements fill the cache first
            }
            for (int i = 0; i < 20; i++) {
                use(c, "SELECT 'hot'");
            }
            assertEquals(19, stats(c).hits());
        }
    }

    @Test
    void theCacheHandsBackTheSameHandleAndNeverSharesOneInUse() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3)");
            String sql = "SELECT x FROM t WHERE x >= ? ORDER BY x";
            long first;
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                first = handle(ps);
            }
            try (PreparedStatement a = c.prepareStatement(sql); PreparedStatement b = c.prepareStatement(sql)) {
                assertEquals(first, handle(a), "the cached handle is reused");
                assertFalse(handle(a) == handle(b), "two open statements never share a handle");
                a.setInt(1, 1);
                b.setInt(1, 3);
                try (ResultSet ra = a.executeQuery(); ResultSet rb = b.executeQuery()) {
                    assertTrue(ra.next());
                    assertTrue(rb.next());
                    assertEquals(1, ra.getInt(1));
                    assertEquals(3, rb.getInt(1));
                    assertTrue(ra.next());
                    assertEquals(2, ra.getInt(1));
                    assertFalse(rb.next());
                }
            }
            assertEquals(2, stats(c).size(), "both handles went back to the cache");
        }
    }

    @Test
    void stateSetByOneUserNeverReachesTheNext() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3)");
            String sql = "SELECT x FROM t WHERE x >= coalesce(?, 0) ORDER BY x";
            long handle;
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setInt(1, 3);
                ps.setMaxRows(1);
                ps.setQueryTimeout(7);
                ps.setFetchSize(11);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                }
                handle = handle(ps);
            }
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                assertEquals(handle, handle(ps));
                assertEquals(0, ps.getMaxRows());
                assertEquals(0, ps.getQueryTimeout());
                assertEquals(0, ps.getFetchSize());
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) { // parameter unbound: NULL, so every row
                    while (rs.next()) {
                        rows++;
                    }
                }
                assertEquals(3, rows);
            }
        }
    }

    @Test
    void schemaChangesAfterCachingGiveCorrectResults() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(a INTEGER)", "INSERT INTO t VALUES (1)");
            String sql = "SELECT * FROM t";
            try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                assertEquals(1, rs.getMetaData().getColumnCount());
            }
            TestDb.exec(c, "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'");
            try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(2, rs.getMetaData().getColumnCount());
                assertEquals("x", rs.getString(2));
                assertEquals("x", rs.getString("b"));
            }
            TestDb.exec(c, "DROP TABLE t", "CREATE TABLE t(p TEXT, q TEXT, r TEXT)", "INSERT INTO t VALUES ('1', '2', '3')");
            try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(3, rs.getMetaData().getColumnCount());
                assertEquals("r", rs.getMetaData().getColumnName(3));
                assertEquals("3", rs.getString("r"));
            }
            TestDb.exec(c, "DROP TABLE t");
            assertThrows(SQLException.class, () -> c.prepareStatement(sql).executeQuery());
            assertTrue(stats(c).hits() >= 2);
        }
    }

    @Test
    void aStatementThatFailedIsNotReusedInABadState() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
            String insert = "INSERT INTO t(id, v) VALUES (?, ?)";
            try (PreparedStatement ps = c.prepareStatement(insert)) {
                ps.setInt(1, 1);
                ps.setString(2, "a");
                assertEquals(1, ps.executeUpdate());
                assertThrows(SQLIntegrityConstraintViolationException.class, ps::executeUpdate); // duplicate id
            }
            try (PreparedStatement ps = c.prepareStatement(insert)) { // the cached handle, after its failure
                ps.setInt(1, 2);
                ps.setString(2, "b");
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM t"); ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
            assertTrue(stats(c).hits() >= 1);
        }
    }

    @Test
    void evictionFinalizesAndTheCacheNeverGrowsPastItsSize() throws SQLException {
        try (Connection c = TestDb.open(dir, "stmt_cache_size=3")) {
            int before = live(c);
            for (int i = 0; i < 50; i++) {
                use(c, "SELECT " + i);
            }
            assertEquals(3, stats(c).size());
            assertEquals(before + 3, live(c), "only the cached statements stay prepared");
            assertEquals(47, stats(c).evictions());
        }
    }

    @Test
    void connectionCloseFinalizesEverythingAndClosesOpenStatements() throws SQLException {
        Connection c = TestDb.open(dir, "stmt_cache_size=8");
        for (int i = 0; i < 5; i++) {
            use(c, "SELECT " + i);
        }
        PreparedStatement open = c.prepareStatement("SELECT 'in use'");
        assertEquals(6, live(c));
        c.close();
        assertTrue(open.isClosed());
        assertThrows(SQLException.class, open::executeQuery);
        assertThrows(SQLException.class, () -> stats(c));
    }

    @Test
    void sizeZeroBehavesExactlyLikeNoCache() throws SQLException {
        try (Connection c = TestDb.open(dir, "stmt_cache_size=0")) {
            int before = live(c);
            long first;
            try (PreparedStatement ps = c.prepareStatement("SELECT 1")) {
                first = handle(ps);
                assertEquals(before + 1, live(c));
            }
            assertEquals(before, live(c), "closing finalizes at once");
            for (int i = 0; i < 10; i++) {
                use(c, "SELECT 1");
            }
            assertEquals(new CacheStats(0, 0, 0, 0, 0), stats(c));
            assertEquals(before, live(c));
            try (PreparedStatement a = c.prepareStatement("SELECT 1"); PreparedStatement b = c.prepareStatement("SELECT 1")) {
                assertNotSame(a, b);
                assertFalse(handle(a) == handle(b));
            }
            assertTrue(first != 0);
        }
    }

    @Test
    void aNegativeOrNonNumericSizeIsRejected() {
        assertThrows(SQLException.class, () -> TestDb.open(dir, "stmt_cache_size=-1"));
        assertThrows(SQLException.class, () -> TestDb.open(dir, "stmt_cache_size=lots"));
    }

    @Test
    void eachPooledConnectionHasItsOwnCache() throws SQLException {
        try (Connection a = TestDb.open(dir); Connection b = TestDb.open(dir)) {
            use(a, "SELECT 1");
            use(a, "SELECT 1");
            assertEquals(1, stats(a).hits());
            assertEquals(0, stats(b).hits());
            assertEquals(0, stats(b).size());
            assertSame(a.unwrap(PanliteConnection.class), a);
        }
    }

    // ------------------------------------------------------------------ Statement.execute

    @Test
    void aQueryTextStatementExecuteRanBeforeIsCachedAndItsNextRunSkipsThePrepare() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            assertEquals(1, TestDb.queryLong(c, "SELECT 1"));
            assertEquals(0, stats(c).size(), "a text run once is not cached");
            assertEquals(1, TestDb.queryLong(c, "SELECT 1"));
            assertEquals(1, stats(c).size(), "run twice: cached when its result set closed");
            long hits = stats(c).hits();
            assertEquals(1, TestDb.queryLong(c, "SELECT 1"));
            assertEquals(hits + 1, stats(c).hits());
            assertEquals(1, stats(c).size(), "back in the cache after the hit");
            assertEquals(0, stats(c).misses(), "Statement.execute's look-ups do not count as misses");
        }
    }

    @Test
    void oneOffTextsDoNotPushPreparedStatementsOut() throws SQLException {
        try (Connection c = TestDb.open(dir, "stmt_cache_size=2")) {
            use(c, "SELECT 'a'");
            use(c, "SELECT 'b'");
            for (int i = 0; i < 50; i++) {
                assertEquals(i, TestDb.queryLong(c, "SELECT " + i));
            }
            assertEquals(0, stats(c).evictions());
            long hits = stats(c).hits();
            use(c, "SELECT 'a'");
            use(c, "SELECT 'b'");
            assertEquals(hits + 2, stats(c).hits());
        }
    }

    @Test
    void severalStatementsInOneTextAreNeverCached() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            for (int i = 0; i < 3; i++) {
                try (java.sql.Statement s = c.createStatement()) {
                    assertTrue(s.execute("SELECT 1; SELECT 2"));
                    assertTrue(s.getMoreResults());
                }
            }
            assertEquals(0, stats(c).size());
        }
    }

    @Test
    void aCachedTextSeesSchemaChangesAndWritesThroughTheWritePath() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t(a INTEGER)");
            }
            for (int i = 0; i < 3; i++) {
                assertEquals(0, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            }
            // the text of a PreparedStatement, run by Statement.execute: a cached statement that writes
            use(c, "SELECT 1");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(a) VALUES (7)")) {
                assertEquals(1, ps.executeUpdate());
            }
            try (java.sql.Statement s = c.createStatement()) {
                long hits = stats(c).hits();
                assertEquals(1, s.executeUpdate("INSERT INTO t(a) VALUES (7)"));
                assertEquals(hits + 1, stats(c).hits(), "taken from the cache");
                s.execute("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'");
            }
            assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM t")) {
                assertEquals(2, rs.getMetaData().getColumnCount());
            }
            try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM t")) {
                assertEquals(2, rs.getMetaData().getColumnCount());
            }
            c.setAutoCommit(false);
            try (java.sql.Statement s = c.createStatement()) {
                assertEquals(1, s.executeUpdate("INSERT INTO t(a) VALUES (7)"));
            }
            c.rollback();
            c.setAutoCommit(true);
            assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
    }

    @Test
    void aFailingCachedTextReportsItsErrorAndIsDropped() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLE u(a INTEGER PRIMARY KEY)");
                s.execute("INSERT INTO u VALUES (1)");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO u VALUES (1)")) {
                assertThrows(SQLIntegrityConstraintViolationException.class, ps::executeUpdate);
            }
            try (java.sql.Statement s = c.createStatement()) {
                assertThrows(SQLIntegrityConstraintViolationException.class, () -> s.executeUpdate("INSERT INTO u VALUES (1)"));
                assertEquals(2, s.executeUpdate("INSERT INTO u VALUES (2), (3)"));
            }
            assertEquals(3, TestDb.queryLong(c, "SELECT count(*) FROM u"));
        }
    }
}
