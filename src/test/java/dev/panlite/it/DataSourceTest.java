package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.PanliteConnectionPoolDataSource;
import dev.panlite.PanliteDataSource;
import dev.panlite.Setting;
import dev.panlite.TestThreads;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.ConnectionEvent;
import javax.sql.ConnectionEventListener;
import javax.sql.DataSource;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;

/** PanliteDataSource as a JavaBean, and the PooledConnection events of PanliteConnectionPoolDataSource. */
class DataSourceTest {
    @TempDir
    Path dir;

    private String url() {
        return "jdbc:sqlite:" + dir.resolve("ds.db");
    }

    /** {@code journal_mode} -> {@code journalMode}: the bean property name of a setting. */
    static String propertyName(Setting s) {
        String[] parts = s.key().split("[_.]");
        StringBuilder b = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            b.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
        }
        return b.toString();
    }

    /**
     * A new Setting without its bean property fails here, so frameworks can always configure it.
     * Spring's BeanWrapper reads the properties through java.beans.Introspector (java.beans itself is
     * not visible to the tests, which compile inside the driver's module).
     */
    @Test
    void everySettingIsAWritableBeanProperty() {
        PanliteDataSource ds = new PanliteDataSource();
        BeanWrapper bean = new BeanWrapperImpl(ds);
        for (Setting s : Setting.values()) {
            String name = propertyName(s);
            assertTrue(bean.isWritableProperty(name), "no writable bean property " + name + " for setting " + s.key());
            assertTrue(bean.isReadableProperty(name), "bean property " + name + " is not readable");
            assertEquals(String.class, bean.getPropertyType(name), name);
            String value = s.defaultValue() != null ? s.defaultValue() : "1";
            bean.setPropertyValue(name, value);
            assertEquals(value, bean.getPropertyValue(name), name);
            assertEquals(value, ds.get(s), name);
            assertEquals(value, ds.properties().getProperty(s.key()), name);
        }
        for (String name : List.of("url", "user", "password", "loginTimeout", "logWriter")) {
            assertTrue(bean.isWritableProperty(name), name);
        }
    }

    @Test
    void settingsFromPropertiesOverrideTheUrl() throws SQLException {
        PanliteDataSource ds = new PanliteDataSource();
        ds.setUrl(url() + "?busy_timeout=1000&foreign_keys=true");
        ds.setJournalMode("WAL");
        ds.setBusyTimeout("4321");
        ds.setUser("sa");
        ds.setPassword(""); // pools send an empty one: no key
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            assertEquals("wal", one(s, "PRAGMA journal_mode"));
            assertEquals("4321", String.valueOf(c.unwrap(PanliteConnection.class).config().busyTimeoutMillis()));
            assertEquals("1", one(s, "PRAGMA foreign_keys"));
        }
        ds.setBusyTimeout(null); // unset: back to what the URL says
        assertNull(ds.getBusyTimeout());
        ds.setJournalMode(null);
        assertFalse(ds.properties().containsKey("journal_mode"));
        try (Connection c = ds.getConnection("user", ""); Statement s = c.createStatement()) {
            assertEquals("1000", String.valueOf(c.unwrap(PanliteConnection.class).config().busyTimeoutMillis()));
        }
    }

    @Test
    void invalidValuesFailWhenConnecting() {
        PanliteDataSource ds = new PanliteDataSource(url());
        ds.setJournalMode("SIDEWAYS");
        SQLException e = assertThrows(SQLException.class, ds::getConnection);
        assertEquals("HY024", e.getSQLState());
        assertTrue(e.getMessage().contains("journal_mode"), e.getMessage());

        SQLException noUrl = assertThrows(SQLException.class, new PanliteDataSource()::getConnection);
        assertTrue(noUrl.getMessage().contains("url"), noUrl.getMessage());
        SQLException otherUrl = assertThrows(SQLException.class,
                new PanliteDataSource("jdbc:h2:mem:x")::getConnection);
        assertTrue(otherUrl.getMessage().contains("jdbc:sqlite:"), otherUrl.getMessage());
    }

    @Test
    void dataSourceContract() throws SQLException {
        PanliteDataSource ds = new PanliteDataSource(url());
        ds.setLoginTimeout(7);
        assertEquals(7, ds.getLoginTimeout());
        assertNull(ds.getLogWriter());
        assertTrue(ds.isWrapperFor(DataSource.class));
        assertSame(ds, ds.unwrap(PanliteDataSource.class));
        assertThrows(SQLException.class, () -> ds.unwrap(String.class));
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
            assertNotSame(a, b);
            assertEquals("SQLite", a.getMetaData().getDatabaseProductName());
        }
    }

    /** Records the events a pool manager would get. */
    static final class Events implements ConnectionEventListener {
        final List<String> seen = new ArrayList<>();
        final List<SQLException> errors = new ArrayList<>();

        @Override
        public void connectionClosed(ConnectionEvent event) {
            seen.add("closed");
        }

        @Override
        public void connectionErrorOccurred(ConnectionEvent event) {
            seen.add("error");
            errors.add(event.getSQLException());
        }
    }

    @Test
    void logicalCloseSendsConnectionClosedAndKeepsThePhysicalConnection() throws SQLException {
        PanliteConnectionPoolDataSource cpds = new PanliteConnectionPoolDataSource(url());
        cpds.setJournalMode("WAL"); // the bean properties are PanliteDataSource's
        PooledConnection pooled = cpds.getPooledConnection();
        Events events = new Events();
        pooled.addConnectionEventListener(events);
        try {
            Connection first = pooled.getConnection();
            PanliteConnection physical = first.unwrap(PanliteConnection.class);
            first.createStatement().execute("CREATE TABLE t(x)");
            first.setAutoCommit(false);
            first.createStatement().execute("INSERT INTO t VALUES (1)");
            Statement leftOpen = first.createStatement();
            ResultSet rs = leftOpen.executeQuery("SELECT * FROM t");
            first.close();
            first.close(); // a second close is a no-op: one event
            assertEquals(List.of("closed"), events.seen);
            assertTrue(first.isClosed());
            assertFalse(first.isValid(1));
            assertFalse(physical.isClosed(), "the physical connection stays open for the pool");
            assertTrue(leftOpen.isClosed() && rs.isClosed(), "statements of the handle are closed with it");
            SQLException e = assertThrows(SQLException.class, first::createStatement);
            assertEquals("08003", e.getSQLState());

            Connection second = pooled.getConnection();
            assertSame(physical, second.unwrap(PanliteConnection.class));
            assertTrue(second.getAutoCommit(), "a new handle starts in auto-commit mode");
            try (Statement s = second.createStatement()) {
                assertEquals("0", one(s, "SELECT count(*) FROM t"), "the handle's transaction was rolled back");
                assertEquals("wal", one(s, "PRAGMA journal_mode"));
            }
            // getConnection while a handle is open closes the old handle, without an event
            Connection third = pooled.getConnection();
            assertTrue(second.isClosed());
            assertFalse(third.isClosed());
            assertEquals(List.of("closed"), events.seen);
            third.close();
            assertEquals(List.of("closed", "closed"), events.seen);
        } finally {
            pooled.close();
        }
        assertThrows(SQLException.class, pooled::getConnection);
    }

    /** A listener that throws breaks neither the handle's close nor the other listeners; what it threw is logged. */
    @Test
    void aThrowingListenerDoesNotBreakCloseNorTheOtherListeners() throws SQLException {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(url()).getPooledConnection();
        List<String> called = new ArrayList<>();
        ConnectionEventListener throwing = new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                called.add("throwing closed");
                throw new IllegalStateException("listener bug on close");
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                called.add("throwing error");
                throw new IllegalStateException("listener bug on error");
            }
        };
        Events events = new Events();
        pooled.addConnectionEventListener(throwing);
        pooled.addConnectionEventListener(events);
        List<java.util.logging.LogRecord> logged = new ArrayList<>();
        java.util.logging.Handler recorder = new java.util.logging.Handler() {
            @Override
            public synchronized void publish(java.util.logging.LogRecord r) {
                logged.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.panlite");
        logger.addHandler(recorder);
        try {
            Connection handle = pooled.getConnection();
            handle.close();
            assertTrue(handle.isClosed());
            assertEquals(List.of("throwing closed"), called);
            assertEquals(List.of("closed"), events.seen, "the next listener is still told");

            Connection second = pooled.getConnection();
            second.unwrap(PanliteConnection.class).close();
            SQLException e = assertThrows(SQLException.class, second::createStatement, "the error, not the listener's");
            assertTrue(e.getSQLState().startsWith("08"), e.toString());
            assertEquals(List.of("throwing closed", "throwing error"), called);
            assertEquals(List.of("closed", "error"), events.seen);
            assertEquals(2, logged.stream().filter(r -> r.getThrown() instanceof IllegalStateException).count(),
                    "what the listener threw is logged");
        } finally {
            logger.removeHandler(recorder);
            pooled.close();
        }
    }

    @Test
    void fatalErrorsSendConnectionErrorOccurred() throws SQLException {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(url()).getPooledConnection();
        Events events = new Events();
        pooled.addConnectionEventListener(events);
        Connection handle = pooled.getConnection();
        // An ordinary SQL error is the application's: no event.
        assertThrows(SQLException.class, () -> handle.createStatement().execute("SELECT * FROM missing"));
        assertEquals(List.of(), events.seen);
        // The physical connection dies under the handle (here: closed behind the pool's back).
        handle.unwrap(PanliteConnection.class).close();
        SQLException e = assertThrows(SQLException.class, handle::createStatement);
        assertTrue(e.getSQLState().startsWith("08"), e.getSQLState() + ": " + e);
        assertEquals(List.of("error"), events.seen);
        assertSame(e, events.errors.get(0));
        pooled.close();
    }

    @Test
    void handleObjectMethodsAndToString() throws SQLException {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(url()).getPooledConnection();
        try {
            Connection h = pooled.getConnection();
            assertEquals(h, h);
            assertEquals(h.hashCode(), h.hashCode());
            assertTrue(h.toString().toLowerCase(Locale.ROOT).contains("logical"));
            assertTrue(h.isWrapperFor(PanliteConnection.class));
            assertTrue(h.isValid(1));
        } finally {
            pooled.close();
        }
    }

    static String one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    @Test
    void aClosedLogicalConnectionThrowsWhatEachMethodDeclares() throws SQLException {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(url()).getPooledConnection();
        try {
            Connection logical = pooled.getConnection();
            logical.close();
            // setClientInfo declares only SQLClientInfoException: a proxy throwing another kind was an
            // UndeclaredThrowableException (misuse fuzz F14)
            assertThrows(java.sql.SQLClientInfoException.class, () -> logical.setClientInfo("a", "b"));
            assertThrows(java.sql.SQLClientInfoException.class, () -> logical.setClientInfo(new java.util.Properties()));
            assertThrows(SQLException.class, logical::createStatement);
        } finally {
            pooled.close();
        }
    }

    /**
     * One thread closes the pooled connection while another, inside a callback of a running
     * statement (so holding the connection's lock), closes it too, as a ConnectionEventListener
     * may. close() held the pooled connection's monitor while it waited for the connection's lock:
     * the two deadlocked (misuse fuzz, seed 54).
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard only
    void closingThePooledConnectionFromACallbackWhileAnotherThreadClosesItDoesNotDeadlock() throws Exception {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(url()).getPooledConnection();
        Connection handle = pooled.getConnection();
        TestThreads other = new TestThreads();
        Thread[] closer = new Thread[1];
        dev.panlite.TestDb.Engine engine = dev.panlite.TestDb.engine(handle); // the handle refuses calls once closing
        handle.unwrap(PanliteConnection.class).createFunction("close_pooled", 0, false, args -> {
            closer[0] = other.start("pooled-closer", pooled::close);
            // wait until the other thread is inside close(), waiting for the lock this thread holds
            engine.awaitQueued(closer[0]);
            pooled.close(); // this thread's own close: deferred until the statement returns
            return 1;
        });
        // the statement returns, then the close is carried out: its rows meet the closed connection
        SQLException e = assertThrows(SQLNonTransientConnectionException.class, () -> {
            try (Statement s = handle.createStatement(); ResultSet rs = s.executeQuery("SELECT close_pooled()")) {
                rs.next();
            }
        });
        assertTrue(e.getMessage().contains("connection is closed"), e::toString);
        other.join(); // the other thread's close returned without an exception
        assertTrue(handle.isClosed());
    }
}
