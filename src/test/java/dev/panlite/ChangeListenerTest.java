package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Row changes, commits and rollbacks reported to listeners (SQLite's hooks as FFM upcalls). */
class ChangeListenerTest {
    @TempDir
    Path dir;

    /** Records what it is told, one line per event. */
    static final class Recorder implements ChangeListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void rowChanged(Kind kind, String schema, String table, long rowId) {
            events.add(kind + " " + schema + "." + table + " " + rowId);
        }

        @Override
        public void committed() {
            events.add("commit");
        }

        @Override
        public void rolledBack() {
            events.add("rollback");
        }
    }

    @Test
    void rowChangesCommitsAndRollbacksAreReported() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            Recorder r = new Recorder();
            c.unwrap(PanliteConnection.class).addChangeListener(r);
            TestDb.exec(c, "INSERT INTO t VALUES (7, 'a')");
            TestDb.exec(c, "UPDATE t SET v = 'b' WHERE id = 7");
            TestDb.exec(c, "DELETE FROM t WHERE id = 7");
            assertEquals(List.of("INSERT main.t 7", "commit", "UPDATE main.t 7", "commit", "DELETE main.t 7", "commit"),
                    r.events);
            r.events.clear();
            c.setAutoCommit(false);
            TestDb.exec(c, "INSERT INTO t VALUES (8, 'x')");
            c.rollback();
            assertEquals(List.of("INSERT main.t 8", "rollback"), r.events);
            c.setAutoCommit(true);
        }
    }

    @Test
    void removingTheLastListenerStopsTheReports() throws SQLException {
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            TestDb.exec(c, "CREATE TABLE t(v)");
            Recorder r = new Recorder();
            p.addChangeListener(r);
            TestDb.exec(c, "INSERT INTO t VALUES (1)");
            p.removeChangeListener(r);
            TestDb.exec(c, "INSERT INTO t VALUES (2)");
            assertEquals(List.of("INSERT main.t 1", "commit"), r.events);
        }
    }

    /**
     * A listener's exception does not stop the statement; it is logged as a warning, and logged by
     * another thread than the one inside SQLite's hook (which holds the connection and may be a
     * pinned virtual thread: a blocking log handler must not stall it, fuzz finding F27).
     */
    @Test
    void aThrowingListenerDoesNotStopTheStatementAndIsLoggedOffItsThread() throws Exception {
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("dev.panlite.ffi.ChangeHooks");
        java.util.concurrent.BlockingQueue<java.util.logging.LogRecord> logged = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                logged.add(r);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        jul.addHandler(handler);
        try (Connection c = TestDb.open(dir)) {
            TestDb.exec(c, "CREATE TABLE t(v)");
            c.unwrap(PanliteConnection.class).addChangeListener(new ChangeListener() {
                @Override
                public void rowChanged(Kind kind, String schema, String table, long rowId) {
                    throw new IllegalStateException("listener bug");
                }
            });
            TestDb.exec(c, "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)");
            try (var s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM t")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
            java.util.logging.LogRecord r = logged.poll(30, java.util.concurrent.TimeUnit.SECONDS); // a guard, not a timing
            assertTrue(r != null, "the listener's failure was not logged");
            assertEquals(java.util.logging.Level.WARNING, r.getLevel());
            assertEquals("listener bug", r.getThrown().getMessage());
            assertTrue(r.getLongThreadID() != Thread.currentThread().threadId(),
                    "logged on the thread inside SQLite's hook");
        } finally {
            jul.removeHandler(handler);
        }
    }

    @Test
    void nullAndClosedAreSqlExceptions() throws SQLException {
        Connection c = TestDb.open(dir);
        PanliteConnection p = c.unwrap(PanliteConnection.class);
        assertThrows(SQLException.class, () -> p.addChangeListener(null));
        c.close();
        assertThrows(SQLException.class, () -> p.addChangeListener(new Recorder()));
    }
}
