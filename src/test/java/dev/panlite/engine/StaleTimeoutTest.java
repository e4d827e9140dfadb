package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query timeout that fires after its statement ended must not interrupt a later statement. No
 * clock is involved: the test takes the timeout task from {@link QueryTimeouts} as it is scheduled
 * and runs it itself, from inside the later statement (a SQL function), at the moment that matters.
 */
class StaleTimeoutTest {
    /** Runs the SQL function {@code fire(x)} once, at row 10 of 100000: the rows after it are the later work. */
    static final String COUNTING = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) "
            + "SELECT sum(fire(x)) FROM c";

    record Scheduled(Runnable task, ScheduledFuture<?> future) {}

    @TempDir
    Path dir;

    Connection c;
    final List<Scheduled> scheduled = new CopyOnWriteArrayList<>();
    /** The timeout task fire() runs at row 10 (null: none). */
    final AtomicReference<Runnable> toFire = new AtomicReference<>();

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir);
        QueryTimeouts.scheduledForTest = (task, future) -> scheduled.add(new Scheduled(task, future));
        c.unwrap(PanliteConnection.class).createFunction("fire", 1, false, args -> {
            if ((Long) args[0] == 10 && toFire.get() != null) {
                toFire.get().run(); // the timeout fires now, on this thread, while the statement runs
            }
            return 1;
        });
    }

    @AfterEach
    void close() throws SQLException {
        QueryTimeouts.scheduledForTest = null;
        c.close();
    }

    /** Runs a quick statement with a (long) timeout; the timeout task it scheduled, cancelled when it ended. */
    private Runnable finishedTimedStatement(boolean prepared) throws SQLException {
        scheduled.clear();
        if (prepared) {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?")) {
                ps.setQueryTimeout(600);
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                }
            }
        } else {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(600);
                try (ResultSet rs = s.executeQuery("SELECT 1")) {
                    assertTrue(rs.next());
                }
            }
        }
        assertEquals(1, scheduled.size(), "one timeout armed");
        assertTrue(scheduled.get(0).future().isCancelled(), "the ended statement's timeout is cancelled: nothing left behind");
        return scheduled.get(0).task();
    }

    private long counting(int timeoutSeconds) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(timeoutSeconds);
            try (ResultSet rs = s.executeQuery(COUNTING)) {
                assertTrue(rs.next());
                return rs.getLong(1);
            }
        }
    }

    @Test
    void aStaleTimeoutFiringDuringALaterStatementWithoutATimeoutDoesNotInterruptIt() throws SQLException {
        for (boolean prepared : new boolean[] {false, true}) {
            toFire.set(finishedTimedStatement(prepared));
            assertEquals(100000, counting(0), "the later statement ran to its end");
        }
    }

    @Test
    void aStaleTimeoutFiringDuringALaterTimedStatementDoesNotInterruptIt() throws SQLException {
        for (boolean prepared : new boolean[] {false, true}) {
            toFire.set(finishedTimedStatement(prepared));
            assertEquals(100000, counting(600), "the later statement, armed with its own timeout, ran to its end");
        }
    }

    /** The control: the same signal, from the statement's own timeout, does interrupt it, as a timeout. */
    @Test
    void theStatementsOwnTimeoutFiringInterruptsItAsATimeout() throws SQLException {
        scheduled.clear();
        toFire.set(() -> scheduled.get(0).task().run()); // the task the running statement armed
        SQLException e = assertThrows(SQLException.class, () -> counting(600));
        assertInstanceOf(SQLTimeoutException.class, e, e::toString);
        toFire.set(null);
        assertEquals(100000, counting(0), "and nothing is left over for the next statement");
    }
}
