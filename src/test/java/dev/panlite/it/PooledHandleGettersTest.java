package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.PanliteConnectionPoolDataSource;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing made through a pooled handle hands out the physical connection (issue 27, item 8):
 * {@code Statement.getConnection()}, {@code DatabaseMetaData.getConnection()} and
 * {@code ResultSet.getStatement().getConnection()} return the handle, as HikariCP's proxies do, so
 * what a borrower sets or closes through them is the handle's, reset and reported to the pool.
 */
class PooledHandleGettersTest {
    @TempDir
    Path dir;

    PooledConnection pooled;
    final DataSourceTest.Events events = new DataSourceTest.Events();

    @BeforeEach
    void open() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
        }
        pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "test.db", "")).getPooledConnection();
        pooled.addConnectionEventListener(events);
    }

    @AfterEach
    void close() throws SQLException {
        pooled.close();
    }

    @Test
    void everyGetterGivesTheHandle() throws SQLException {
        try (Connection handle = pooled.getConnection()) {
            Connection physical = handle.unwrap(PanliteConnection.class);
            assertNotSame(physical, handle);
            try (Statement s = handle.createStatement(); ResultSet rs = s.executeQuery("SELECT x FROM t")) {
                assertSame(handle, s.getConnection());
                assertSame(handle, rs.getStatement().getConnection());
            }
            try (PreparedStatement ps = handle.prepareStatement("SELECT x FROM t WHERE x = ?")) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    assertSame(handle, ps.getConnection());
                    assertSame(handle, rs.getStatement().getConnection());
                }
            }
            try (PreparedStatement ps = handle.prepareStatement("INSERT INTO t VALUES (2)", Statement.RETURN_GENERATED_KEYS)) {
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    Statement owner = keys.getStatement();
                    if (owner != null) { // JDBC allows null; if there is one, it names the handle
                        assertSame(handle, owner.getConnection());
                    }
                }
            }
            assertSame(handle, handle.getMetaData().getConnection());
            try (ResultSet tables = handle.getMetaData().getTables(null, null, "t", null)) {
                Statement owner = tables.getStatement();
                if (owner != null) {
                    assertSame(handle, owner.getConnection());
                }
            }
        }
    }

    /** {@code rs.getStatement().getConnection().close()} closed the physical connection with no pool event. */
    @Test
    void closingThroughAStatementClosesTheHandleNotThePhysicalConnection() throws SQLException {
        Connection handle = pooled.getConnection();
        PanliteConnection physical = handle.unwrap(PanliteConnection.class);
        Statement s = handle.createStatement();
        ResultSet rs = s.executeQuery("SELECT x FROM t");
        rs.getStatement().getConnection().close();
        assertTrue(handle.isClosed());
        assertFalse(physical.isClosed(), "the pool's connection stays open");
        assertEquals(List.of("closed"), events.seen, "the pool hears the close");
        try (Connection next = pooled.getConnection()) {
            assertEquals(1, TestDb.queryLong(next, "SELECT count(*) FROM t"));
        }
    }

    @Test
    void closingThroughTheMetaDataClosesTheHandle() throws SQLException {
        Connection handle = pooled.getConnection();
        handle.getMetaData().getConnection().close();
        assertTrue(handle.isClosed());
        assertEquals(List.of("closed"), events.seen);
        pooled.getConnection().close();
        assertEquals(List.of("closed", "closed"), events.seen);
    }

    /** What a borrower sets through a statement's connection is set on the handle, so the reset puts it back. */
    @Test
    void whatIsSetThroughAStatementsConnectionIsPutBack() throws SQLException {
        try (Connection handle = pooled.getConnection(); Statement s = handle.createStatement()) {
            s.getConnection().setReadOnly(true);
            handle.getMetaData().getConnection().setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        }
        try (Connection next = pooled.getConnection()) {
            assertFalse(next.isReadOnly());
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, next.getTransactionIsolation());
            TestDb.exec(next, "INSERT INTO t VALUES (3)");
        }
    }

    /** Each handle's statements and metadata name that handle, not the one before or after it. */
    @Test
    void eachHandleNamesItself() throws SQLException {
        Connection first = pooled.getConnection();
        java.sql.DatabaseMetaData firstMeta = first.getMetaData();
        first.close();
        try (Connection second = pooled.getConnection(); Statement s = second.createStatement()) {
            assertSame(second, s.getConnection());
            assertSame(second, second.getMetaData().getConnection());
            assertSame(first, firstMeta.getConnection(), "the first handle's metadata still names it (closed)");
        }
    }

    /** Without a pool, the getters give the connection itself. */
    @Test
    void aPlainConnectionIsItsOwn() throws SQLException {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            assertSame(c, s.getConnection());
            assertSame(c, c.getMetaData().getConnection());
        }
    }
}
