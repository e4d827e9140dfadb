package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PRAGMA busy_timeout} run as SQL (issue 27, item 15), as applications do at start or in a
 * pool's connectionInitSql: setting it sets the wait the driver does in Java, reading it returns
 * that wait, as on the incumbent; SQLite's own busy timeout stays 0, so SQLite never sleeps inside a
 * call. Before, setting it made SQLite sleep and left the Java wait at the URL's value, and reading
 * it returned 0.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BusyTimeoutPragmaTest {
    @TempDir
    Path dir;

    @BeforeEach
    void schema() throws SQLException {
        try (Connection c = TestDb.open(dir, "journal_mode=WAL")) {
            TestDb.exec(c, "CREATE TABLE t(a)");
        }
    }

    @Test
    void readingReturnsTheWaitInForce() throws SQLException {
        try (Connection c = TestDb.open(dir, "busy_timeout=1234")) {
            assertEquals(1234, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            assertEquals(1234, TestDb.queryLong(c, "pragma MAIN . Busy_Timeout;"));
            try (PreparedStatement p = c.prepareStatement("PRAGMA busy_timeout"); ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("timeout", rs.getMetaData().getColumnLabel(1), "SQLite's column name");
                assertEquals(1234, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
        try (Connection c = TestDb.open(dir)) {
            assertEquals(3000, TestDb.queryLong(c, "PRAGMA busy_timeout"), "the default");
        }
    }

    /**
     * The table-valued form, which SQLite answers itself from its own field: the bundled engine keeps
     * that field at the wait in force (SQLite's busy handler stays off). Elsewhere it reads 0.
     */
    @Test
    void theTableValuedFormReadsTheWaitInForceToo() throws SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.panlite.ffi.BusyTimeoutField.available(),
                "only the bundled engine lets the driver set SQLite's own busy timeout");
        String read = "SELECT timeout FROM pragma_busy_timeout";
        try (Connection c = TestDb.open(dir, "busy_timeout=1234")) {
            assertEquals(1234, TestDb.queryLong(c, read), "the URL's");
            TestDb.exec(c, "PRAGMA busy_timeout = 77");
            assertEquals(77, TestDb.queryLong(c, read), "PRAGMA busy_timeout's");
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> false);
            assertEquals(0, TestDb.queryLong(c, read), "a busy handler decides: 0, as in SQLite");
            c.unwrap(PanliteConnection.class).setBusyHandler(null);
            assertEquals(77, TestDb.queryLong(c, read), "busy_timeout again");
            assertEquals(TestDb.queryLong(c, "PRAGMA busy_timeout"), TestDb.queryLong(c, read));
        }
        try (Connection c = TestDb.open(dir)) {
            assertEquals(3000, TestDb.queryLong(c, read), "the default");
        }
    }

    @Test
    void settingItChangesWhatReadingReturnsAndAnswersWithTheNewValue() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            assertEquals(2500, TestDb.queryLong(c, "PRAGMA busy_timeout = 2500"), "SQLite answers a set with the value");
            assertEquals(2500, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            assertEquals(0, s.executeUpdate("PRAGMA busy_timeout(700)"), "executeUpdate runs a PRAGMA's rows out");
            assertEquals(700, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            TestDb.exec(c, "PRAGMA busy_timeout = -5"); // SQLite: a negative timeout is none
            assertEquals(0, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            TestDb.exec(c, "PRAGMA busy_timeout = '0x10'"); // read as SQLite reads it: 16
            assertEquals(16, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            TestDb.exec(c, "PRAGMA busy_timeout = 'soon'"); // not a number: sets nothing
            assertEquals(16, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            assertWriteGateWaitHonours(c, 16);
        }
    }

    /** A write of {@code c} while another connection holds the write gate gives up saying it honoured {@code millis}. */
    private void assertWriteGateWaitHonours(Connection c, int millis) throws SQLException {
        try (Connection holder = TestDb.open(dir)) {
            holder.setAutoCommit(false);
            TestDb.exec(holder, "INSERT INTO t VALUES (0)"); // holds the gate
            SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t VALUES (1)"));
            assertTrue(e.getMessage().contains("write gate") && e.getMessage().contains("busy_timeout=" + millis + " ms"),
                    e.getMessage());
            holder.rollback();
        }
    }

    /** Inside a text of several statements, each runs and the PRAGMA's row is one of the text's results. */
    @Test
    void inATextOfSeveralStatements() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            assertFalse(s.execute("PRAGMA foreign_keys = ON; /* busy_timeout */ PRAGMA busy_timeout = 4321; SELECT 'busy_timeout'"));
            assertTrue(s.getMoreResults(), "one result per statement: the PRAGMA busy_timeout's row after foreign_keys'");
            try (ResultSet rs = s.getResultSet()) {
                assertTrue(rs.next());
                assertEquals(4321, rs.getInt(1));
            }
            assertTrue(s.getMoreResults());
            try (ResultSet rs = s.getResultSet()) {
                assertTrue(rs.next());
                assertEquals("busy_timeout", rs.getString(1));
            }
            assertEquals(4321, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            assertEquals(1, TestDb.queryLong(c, "PRAGMA foreign_keys"));
            s.execute("CREATE TABLE busy_timeout(busy_timeout); INSERT INTO busy_timeout VALUES (1);"
                    + " PRAGMA busy_timeout = 11; UPDATE busy_timeout SET busy_timeout = 2");
            while (s.getMoreResults() || s.getUpdateCount() != -1) {
                // the statements after the PRAGMA's row run as their results are asked for
            }
            assertEquals(2, TestDb.queryLong(c, "SELECT busy_timeout FROM busy_timeout"));
            assertEquals(11, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            assertWriteGateWaitHonours(c, 11);
        }
    }

    /** The wait for the write gate follows the PRAGMA: the message of a wait that ran out says which timeout it honoured. */
    @Test
    void theWriteGateWaitFollowsThePragma() throws SQLException {
        try (Connection holder = TestDb.open(dir); Connection c = TestDb.open(dir, "busy_timeout=0")) {
            holder.setAutoCommit(false);
            TestDb.exec(holder, "INSERT INTO t VALUES (1)"); // holds the gate
            TestDb.exec(c, "PRAGMA busy_timeout = 150");
            SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t VALUES (2)"));
            assertTrue(e.getMessage().contains("write gate") && e.getMessage().contains("busy_timeout=150 ms"), e.getMessage());
            TestDb.exec(c, "PRAGMA busy_timeout = 0");
            e = assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t VALUES (3)"));
            assertTrue(e.getMessage().contains("busy_timeout=0 ms"), e.getMessage());
            holder.rollback();
        }
    }

    /**
     * Another connection holds SQLite's exclusive lock on a rollback-journal file, so a read gets
     * SQLITE_BUSY: after {@code PRAGMA busy_timeout = 60000} the wait is still the driver's, in Java,
     * which consults the busy handler set afterwards. Had SQLite's own timeout been set, SQLite would
     * have slept inside the call without ever returning to Java.
     */
    @Test
    void sqliteNeverSleepsInsideACall() throws Exception {
        try (Connection setup = TestDb.open(dir, "journal_mode=DELETE")) {
            TestDb.exec(setup, "INSERT INTO t VALUES (1)");
        }
        try (Connection holder = TestDb.open(dir); Connection c = TestDb.open(dir, "busy_timeout=0")) {
            TestDb.exec(c, "PRAGMA busy_timeout = 60000");
            CountDownLatch waitingInJava = new CountDownLatch(1);
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                waitingInJava.countDown();
                return waited.toSeconds() < 60;
            });
            TestDb.exec(holder, "BEGIN EXCLUSIVE");
            TestThreads threads = new TestThreads();
            threads.start("holder", () -> {
                waitingInJava.await(20, TimeUnit.SECONDS); // a hang guard: lets a reader asleep in SQLite go
                TestDb.exec(holder, "ROLLBACK");
            });
            assertEquals(1, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            threads.join();
            assertEquals(0, waitingInJava.getCount(), "the read never came back to Java to wait: SQLite slept");
        }
    }

    /** As in SQLite, setting the timeout replaces a busy handler, and setting a handler leaves no timeout to read. */
    @Test
    void aBusyHandlerAndTheTimeoutReplaceEachOther() throws SQLException {
        try (Connection holder = TestDb.open(dir); Connection c = TestDb.open(dir, "busy_timeout=0")) {
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> waited.toSeconds() < 10);
            assertEquals(0, TestDb.queryLong(c, "PRAGMA busy_timeout"));
            TestDb.exec(c, "PRAGMA busy_timeout = 100");
            holder.setAutoCommit(false);
            TestDb.exec(holder, "INSERT INTO t VALUES (1)");
            SQLException e = assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t VALUES (2)"));
            assertTrue(e.getMessage().contains("busy_timeout=100 ms"), "the handler was replaced: " + e.getMessage());
            holder.rollback();
        }
    }

    /** A pooled connection's next borrower starts with the configured timeout, whatever the previous one set. */
    @Test
    void aPooledHandlesCloseRestoresTheConfiguredTimeout() throws SQLException {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "test.db", "busy_timeout=4444"))
                .getPooledConnection();
        try {
            try (Connection first = pooled.getConnection()) {
                TestDb.exec(first, "PRAGMA busy_timeout = 5");
                assertEquals(5, TestDb.queryLong(first, "PRAGMA busy_timeout"));
            }
            try (Connection next = pooled.getConnection()) {
                assertEquals(4444, TestDb.queryLong(next, "PRAGMA busy_timeout"));
            }
        } finally {
            pooled.close();
        }
    }
}
