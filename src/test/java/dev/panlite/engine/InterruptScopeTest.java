package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import dev.panlite.ffi.InterruptFlag;
import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interrupt (Statement.cancel, a query timeout, a failing collation) stops the execution it was
 * aimed at, and neither a result set held open on the connection nor a later statement (SQLite's
 * flag is connection-wide, and SQLite clears it only when no statement is active). Found by the
 * adversarial review of issue 30 (a KNN cursor held while another statement timed out).
 *
 * <p>No clock: the interrupt is made from inside the running statement, by a SQL function at row 10
 * (a cancel, or the timeout task taken from {@link QueryTimeouts} as it was scheduled). On an engine
 * that cannot clear the flag (the system SQLite, libSQL) the tests check the documented limitation:
 * the later statement's error says why, and closing the held result set ends it.
 */
class InterruptScopeTest {
    /** Calls {@code fire(x)} at every row; it runs {@link #toFire} at row 10 of 100000. */
    static final String COUNTING = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) "
            + "SELECT sum(fire(x)) FROM c";

    @TempDir
    Path dir;

    Connection c;
    final List<Runnable> scheduled = new CopyOnWriteArrayList<>();
    final AtomicReference<Runnable> toFire = new AtomicReference<>();
    final AtomicReference<Runnable> toFireInner = new AtomicReference<>();

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir);
        QueryTimeouts.scheduledForTest = (task, future) -> scheduled.add(task);
        PanliteConnection p = c.unwrap(PanliteConnection.class);
        p.createFunction("fire", 1, false, args -> fireAt(args, toFire));
        p.createFunction("fire_inner", 1, false, args -> fireAt(args, toFireInner));
        TestDb.exec(c, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2), (3)");
    }

    private static Object fireAt(Object[] args, AtomicReference<Runnable> what) {
        Runnable r = what.get();
        if ((Long) args[0] == 10 && r != null) {
            r.run();
        }
        return 1;
    }

    @AfterEach
    void close() throws SQLException {
        QueryTimeouts.scheduledForTest = null;
        c.close();
    }

    /** A result set left open mid-way (its statement active), as a reader's would be. */
    private ResultSet held(Statement s) throws SQLException {
        s.setFetchSize(1);
        ResultSet held = s.executeQuery("SELECT x FROM t ORDER BY x");
        assertTrue(held.next());
        return held;
    }

    private long counting(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery(COUNTING)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /**
     * After an interrupt of another statement while {@code held} was open: the bundled engine runs
     * on; an engine that cannot clear the flag fails with a message that says why, until the held
     * result set is closed.
     */
    private void connectionRunsOn(ResultSet held) throws SQLException {
        if (InterruptFlag.available()) {
            assertEquals(42, TestDb.queryLong(c, "SELECT 42"), "a later statement met the stale interrupt");
            assertEquals(42, TestDb.queryLong(c, "SELECT 42"), "and the one after it");
            assertTrue(held.next(), "the held result set was interrupted by another statement's interrupt");
            assertEquals(2, held.getLong(1));
            assertTrue(held.next());
            assertFalse(held.next());
        } else {
            SQLException e = assertThrows(SQLException.class, () -> TestDb.queryLong(c, "SELECT 42"));
            assertTrue(e.getMessage().contains("left over from another statement's cancel")
                    && e.getMessage().contains("close the open result sets"), e::toString);
            held.close();
        }
        assertEquals(42, TestDb.queryLong(c, "SELECT 42"));
    }

    @Test
    void aTimeoutOfOneStatementDoesNotInterruptTheHeldResultSetNorLaterStatements() throws SQLException {
        try (Statement open = c.createStatement(); ResultSet held = held(open); Statement s = c.createStatement()) {
            s.setQueryTimeout(600);
            scheduled.clear();
            toFire.set(() -> scheduled.get(0).run()); // s's own timeout fires, now
            SQLException e = assertThrows(SQLException.class, () -> counting(s));
            assertInstanceOf(SQLTimeoutException.class, e, e::toString);
            toFire.set(null);
            connectionRunsOn(held);
        }
    }

    @Test
    void aCancelOfOneStatementDoesNotInterruptTheHeldResultSetNorLaterStatements() throws SQLException {
        try (Statement open = c.createStatement(); ResultSet held = held(open); Statement s = c.createStatement()) {
            toFire.set(() -> {
                try {
                    s.cancel();
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            });
            SQLException e = assertThrows(SQLException.class, () -> counting(s));
            assertEquals(9, e.getErrorCode() & 0xff, e::toString); // SQLITE_INTERRUPT
            toFire.set(null);
            connectionRunsOn(held);
        }
    }

    /** The review's case: a KNN cursor of sqlite-vec (a virtual table) held while another statement times out. */
    @Test
    void aTimeoutDoesNotInterruptAHeldKnnCursor() throws SQLException {
        assumeTrue(SqliteLibrary.sqliteVecVersion() != null, "needs sqlite-vec (the bundled engine)");
        TestDb.exec(c, "CREATE VIRTUAL TABLE v USING vec0(e float[2])",
                "INSERT INTO v(rowid, e) VALUES (1, '[1,0]'), (2, '[2,0]'), (3, '[3,0]')");
        try (PreparedStatement knn = c.prepareStatement("SELECT rowid FROM v WHERE e MATCH ? AND k = 3 ORDER BY distance")) {
            knn.setObject(1, new float[] {0, 0});
            knn.setFetchSize(1);
            try (ResultSet held = knn.executeQuery(); Statement s = c.createStatement()) {
                assertTrue(held.next());
                s.setQueryTimeout(600);
                scheduled.clear();
                toFire.set(() -> scheduled.get(0).run());
                assertThrows(SQLTimeoutException.class, () -> counting(s));
                toFire.set(null);
                assertEquals(42, TestDb.queryLong(c, "SELECT 42"), "a later statement met the stale interrupt");
                assertTrue(held.next(), "the KNN reader was interrupted by another statement's timeout");
                assertEquals(2, held.getLong(1));
            }
        }
    }

    /** The race's outcome: a cancel or a timeout arriving after its statement ended interrupts nothing. */
    @Test
    void aCancelOrTimeoutAfterItsStatementEndedDoesNotHitTheNextOne() throws SQLException {
        try (Statement open = c.createStatement(); ResultSet held = held(open); Statement s = c.createStatement()) {
            s.setQueryTimeout(600);
            scheduled.clear();
            assertEquals(1, TestDb.queryLong(c, "SELECT 1"));
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
            Runnable lateTimeout = scheduled.get(0);
            s.cancel(); // s has ended: nothing of it runs
            lateTimeout.run(); // nor does its timeout's execution
            try (Statement later = c.createStatement()) {
                toFire.set(() -> {
                    try {
                        s.cancel(); // s, not the later statement, even while that one runs
                    } catch (SQLException e) {
                        throw new AssertionError(e);
                    }
                    lateTimeout.run();
                });
                assertEquals(100000, counting(later), "the later statement ran to its end");
            }
            assertTrue(held.next());
            assertEquals(2, held.getLong(1));
        }
    }

    /** A statement that a SQL function runs, cancelled inside it: the function's own statement runs on. */
    @Test
    void aCancelledNestedStatementLeavesTheOuterOneRunning() throws SQLException {
        AtomicReference<Statement> inner = new AtomicReference<>();
        c.unwrap(PanliteConnection.class).createFunction("run_inner", 1, false, args -> {
            if ((Long) args[0] != 10) {
                return 0;
            }
            try (Statement s = c.createStatement()) {
                inner.set(s);
                try (ResultSet rs = s.executeQuery(COUNTING.replace("fire(", "fire_inner("))) {
                    rs.next();
                    return rs.getLong(1);
                }
            } catch (SQLException e) {
                return -(e.getErrorCode() & 0xff); // the inner statement's failure, handled by the function
            }
        });
        toFireInner.set(() -> {
            try {
                inner.get().cancel();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        try (Statement outer = c.createStatement()) {
            String sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) "
                    + "SELECT sum(run_inner(x)), count(*) FROM c";
            if (InterruptFlag.available()) {
                try (ResultSet rs = outer.executeQuery(sql)) {
                    assertTrue(rs.next());
                    assertEquals(-9, rs.getLong(1), "the inner statement was interrupted");
                    assertEquals(1000, rs.getLong(2), "the outer statement ran to its end");
                }
            } else { // the flag stays in force while the outer statement is active: it is stopped too
                assertThrows(SQLException.class, () -> outer.executeQuery(sql).next());
            }
        }
        assertEquals(42, TestDb.queryLong(c, "SELECT 42"));
    }

    /** The converse: cancelling the outer statement while a nested one runs stops both. */
    @Test
    void aCancelledOuterStatementStopsWithItsNestedOne() throws SQLException {
        AtomicReference<Statement> outerRef = new AtomicReference<>();
        c.unwrap(PanliteConnection.class).createFunction("run_inner", 1, false, args -> {
            if ((Long) args[0] != 10) {
                return 0;
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(COUNTING.replace("fire(", "fire_inner("))) {
                rs.next();
                return rs.getLong(1);
            } catch (SQLException e) {
                return -1; // swallowed: the outer statement must still stop
            }
        });
        toFireInner.set(() -> {
            try {
                outerRef.get().cancel();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        try (Statement outer = c.createStatement()) {
            outerRef.set(outer);
            SQLException e = assertThrows(SQLException.class, () -> outer.executeQuery(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) "
                            + "SELECT sum(run_inner(x)) FROM c").next());
            assertEquals(9, e.getErrorCode() & 0xff, e::toString);
        }
        assertEquals(42, TestDb.queryLong(c, "SELECT 42"));
    }

    /** A timed statement nested in a timed one: each timeout stops its own execution (the outer one's, both). */
    @Test
    void nestedTimeoutsStopTheirOwnExecution() throws SQLException {
        c.unwrap(PanliteConnection.class).createFunction("run_inner", 1, false, args -> {
            if ((Long) args[0] != 10) {
                return 0;
            }
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(600);
                try (ResultSet rs = s.executeQuery(COUNTING.replace("fire(", "fire_inner("))) {
                    rs.next();
                    return rs.getLong(1);
                }
            } catch (SQLException e) {
                return e instanceof SQLTimeoutException ? -1 : -2;
            }
        });
        String sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) "
                + "SELECT sum(run_inner(x)), count(*) FROM c";
        try (Statement outer = c.createStatement()) {
            outer.setQueryTimeout(600);
            // the inner statement's own timeout (scheduled second)
            scheduled.clear();
            toFireInner.set(() -> scheduled.get(1).run());
            if (InterruptFlag.available()) {
                try (ResultSet rs = outer.executeQuery(sql)) {
                    assertTrue(rs.next());
                    assertEquals(-1, rs.getLong(1), "the inner statement timed out");
                    assertEquals(1000, rs.getLong(2), "the outer one ran on");
                }
            }
            // the outer statement's timeout, fired while the inner one runs: both stop
            scheduled.clear();
            toFireInner.set(() -> scheduled.get(0).run());
            assertThrows(SQLTimeoutException.class, () -> outer.executeQuery(sql).next());
        }
        toFireInner.set(null);
        assertEquals(42, TestDb.queryLong(c, "SELECT 42"));
    }

    /** A collation that throws stops its statement (sqlite3_interrupt): not a held result set nor later ones. */
    @Test
    void aFailingCollationDoesNotInterruptTheOthers() throws SQLException {
        c.unwrap(PanliteConnection.class).createCollation("boom", (a, b) -> {
            throw new IllegalStateException("boom");
        });
        TestDb.exec(c, "CREATE TABLE s(x TEXT)", "INSERT INTO s VALUES ('a'), ('b'), ('c')");
        try (Statement open = c.createStatement(); ResultSet held = held(open)) {
            assertThrows(SQLException.class, () -> {
                try (Statement q = c.createStatement(); ResultSet r = q.executeQuery("SELECT x FROM s ORDER BY x COLLATE boom")) {
                    r.next();
                }
            });
            connectionRunsOn(held);
        }
    }

    /** cancel() between two next() calls of a reader stops that reader only, at its next step. */
    @Test
    void aCancelBetweenStepsStopsOnlyThatReader() throws SQLException {
        try (Statement open = c.createStatement(); ResultSet held = held(open);
                Statement reader = c.createStatement(); ResultSet rs = held(reader)) {
            reader.cancel();
            assertEquals(1, rs.getLong(1), "the current row stays readable");
            SQLException e = assertThrows(SQLException.class, rs::next);
            assertEquals(9, e.getErrorCode() & 0xff, e::toString);
            assertTrue(held.next(), "the other reader runs on");
            assertEquals(2, held.getLong(1));
            assertEquals(42, TestDb.queryLong(c, "SELECT 42"));
        }
    }
}
