package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Window functions in Java (sqlite3_create_window_function) and the progress handler, misuse included. */
class WindowAndProgressTest {
    @TempDir
    Path dir;
    Connection c;
    PanliteConnection p;

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir);
        p = c.unwrap(PanliteConnection.class);
        TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, g TEXT, x INTEGER)",
                "INSERT INTO t(g, x) VALUES ('a', 1), ('a', 2), ('a', 3), ('a', 4), ('b', 10), ('b', 20)");
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    /** A sum that counts how often each callback ran, to show the frame slides by inverse, not by restarts. */
    static class SlidingSum implements SqlWindowFunction {
        static final AtomicInteger INVERSES = new AtomicInteger();
        long sum;

        @Override
        public void step(Object[] args) {
            sum += (Long) args[0];
        }

        @Override
        public void inverse(Object[] args) {
            INVERSES.incrementAndGet();
            sum -= (Long) args[0];
        }

        @Override
        public Object value() {
            return sum;
        }
    }

    private List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void aSlidingFrameUsesInverse() throws SQLException {
        p.createWindowFunction("jsum", 1, true, SlidingSum::new);
        SlidingSum.INVERSES.set(0);
        assertEquals(List.of("1", "3", "5", "7", "10", "30"), rows(
                "SELECT jsum(x) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id"));
        assertEquals(2, SlidingSum.INVERSES.get(), "rows 3 and 4 of 'a' pushed one out each; 'b' only one");
        assertEquals(rows("SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id"),
                rows("SELECT jsum(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id"),
                "the same answers as SQLite's own sum");
        assertEquals(List.of("10", "30"), rows("SELECT jsum(x) FROM t GROUP BY g ORDER BY g"), "as a plain aggregate");
        assertEquals(List.of("0"), rows("SELECT jsum(x) FROM t WHERE x < 0"), "no rows: a fresh instance's finish");
    }

    @Test
    void failingWindowCallbacksBecomeTheStatementsErrorNeverACrash() throws SQLException {
        p.createWindowFunction("bad_inverse", 1, false, () -> new SlidingSum() {
            @Override
            public void inverse(Object[] args) {
                throw new IllegalStateException("cannot take back");
            }
        });
        SQLException e = assertThrows(SQLException.class, () -> rows(
                "SELECT bad_inverse(x) OVER (ORDER BY id ROWS 1 PRECEDING) FROM t"));
        assertTrue(e.getMessage().contains("cannot take back"), e.getMessage());
        p.createWindowFunction("bad_value", 1, false, () -> new SlidingSum() {
            @Override
            public Object value() {
                throw new StackOverflowError("pretend");
            }
        });
        assertThrows(SQLException.class, () -> rows("SELECT bad_value(x) OVER (ORDER BY id) FROM t"));
        p.createWindowFunction("closer", 1, false, () -> new SlidingSum() {
            @Override
            public void step(Object[] args) {
                try {
                    c.close(); // deferred by the driver until SQLite is out of the callback
                } catch (SQLException ignored) {
                    throw new IllegalStateException(ignored);
                }
            }
        });
        assertThrows(SQLException.class, () -> rows("SELECT closer(x) OVER () FROM t"));
        assertTrue(c.isClosed());
    }

    @Test
    void wrongArgumentsAreRefused() {
        assertThrows(SQLException.class, () -> p.createWindowFunction(null, 1, true, SlidingSum::new));
        assertThrows(SQLException.class, () -> p.createWindowFunction("f", 200, true, SlidingSum::new));
        assertThrows(SQLException.class, () -> p.createWindowFunction("f", 1, true, null));
    }

    // ------------------------------------------------------------------ progress handler

    private static final String LONG_QUERY = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
            + " WHERE i < 2000000) SELECT count(*) FROM n";

    @Test
    void theHandlerIsCalledAndNonZeroInterrupts() throws SQLException {
        AtomicInteger calls = new AtomicInteger();
        p.setProgressHandler(1000, () -> {
            calls.incrementAndGet();
            return 0;
        });
        assertEquals(List.of("2000000"), rows(LONG_QUERY));
        assertTrue(calls.get() > 100, "called every 1000 instructions: " + calls.get());

        p.setProgressHandler(1000, () -> calls.incrementAndGet() > 50 ? 1 : 0);
        calls.set(0);
        SQLException e = assertThrows(SQLException.class, () -> rows(LONG_QUERY));
        assertEquals(9, e.getErrorCode() & 0xff, "SQLITE_INTERRUPT: " + e.getMessage());
        assertEquals(51, calls.get(), "stopped at the first non-zero answer");

        p.setProgressHandler(0, null);
        calls.set(0);
        assertEquals(List.of("2000000"), rows(LONG_QUERY));
        assertEquals(0, calls.get(), "removed");
    }

    @Test
    void aHandlerThatThrowsOrMisusesTheConnectionInterruptsNeverCrashes() throws SQLException {
        p.setProgressHandler(100, () -> {
            throw new OutOfMemoryError("pretend");
        });
        assertThrows(SQLException.class, () -> rows(LONG_QUERY));
        p.setProgressHandler(100, () -> {
            rows("SELECT count(*) FROM t a, t b, t c"); // SQLite forbids using the connection from the handler
            return 0;
        });
        SQLException refused = assertThrows(SQLException.class, () -> rows(LONG_QUERY));
        assertEquals(9, refused.getErrorCode() & 0xff, "the refusal interrupts: " + refused.getMessage());
        p.setProgressHandler(100, () -> {
            p.setProgressHandler(0, null); // replacing itself is a use of the connection too: refused, interrupts
            return 0;
        });
        assertThrows(SQLException.class, () -> rows(LONG_QUERY));
        p.setProgressHandler(100, () -> {
            c.close(); // carried out when the statement returns
            return 0;
        });
        // the statement ends, then the close is carried out: reading its rows meets the closed connection
        SQLException closed = assertThrows(java.sql.SQLNonTransientConnectionException.class, () -> rows(LONG_QUERY));
        assertTrue(closed.getMessage().contains("connection is closed"), closed::toString);
        assertTrue(c.isClosed());
        assertThrows(SQLException.class, () -> p.setProgressHandler(1, () -> 0));
    }
}
