package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java code running inside SQLite (functions, aggregates, collations, change listeners) may use
 * its own connection, but nothing it does may free what SQLite is using at that moment, and no
 * Throwable may travel back into C. Each case here crashed the JVM or could have.
 */
class CallbackSafetyTest {
    @TempDir
    Path dir;
    Connection c;
    PanliteConnection p;

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir);
        p = c.unwrap(PanliteConnection.class);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(x INTEGER)");
            s.execute("INSERT INTO t VALUES (1), (2), (3)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    /** Runs {@code sql} both ways a query reaches SQLite: a PreparedStatement, and a plain Statement (fused exec). */
    private List<SQLException> runBothWays(String sql) {
        List<SQLException> failures = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rs.getObject(1);
            }
        } catch (SQLException e) {
            failures.add(e);
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        } catch (SQLException e) {
            failures.add(e);
        }
        return failures;
    }

    @Test
    void aFunctionMayQueryItsOwnConnection() throws SQLException {
        p.createFunction("total", 0, false, args -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sum(x) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT x + total() FROM t ORDER BY x")) {
            assertTrue(rs.next());
            assertEquals(7, rs.getLong(1));
        }
        assertTrue(runBothWays("SELECT total() FROM t").isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"prepared", "plain", "update"})
    void aFunctionClosingItsConnectionClosesItWhenTheStatementReturns(String how) throws SQLException {
        p.createFunction("bye", 1, false, args -> {
            c.close(); // SQLite is inside this connection: the close waits for the outermost call
            assertTrue(c.isClosed());
            assertThrows(SQLException.class, () -> c.createStatement()); // refused from now on
            return args[0];
        });
        switch (how) {
            case "prepared" -> assertClosedUnderTheStatement(() -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT bye(x) FROM t"); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rs.getLong(1);
                    }
                }
            });
            case "plain" -> assertClosedUnderTheStatement(() -> c.createStatement().executeQuery("SELECT bye(x) FROM t").next());
            default -> {
                // an update has no rows to read afterwards: it runs to its end, then the close is carried out
                assertEquals(3, c.createStatement().executeUpdate("UPDATE t SET x = bye(x) + 1"));
                try (Connection other = TestDb.open(dir)) {
                    assertEquals(9, TestDb.queryLong(other, "SELECT sum(x) FROM t"), "the update was committed");
                }
            }
        }
        assertTrue(c.isClosed());
        assertThrows(SQLException.class, () -> c.createStatement());
    }

    /**
     * A query whose callback closed the connection: the close is carried out when the statement
     * returns, so reading its rows fails with the closed connection's error (not a crash, not another kind).
     */
    private static void assertClosedUnderTheStatement(org.junit.jupiter.api.function.Executable query) {
        SQLException e = assertThrows(SQLNonTransientConnectionException.class, query);
        assertEquals("08003", e.getSQLState(), e::toString);
        assertTrue(e.getMessage().contains("connection is closed"), e::toString);
    }

    /** The same for each way a query reaches SQLite: each failed, the first with the closed connection's error. */
    private static void assertClosedUnderTheStatement(List<SQLException> failures) {
        assertEquals(2, failures.size(), failures::toString);
        for (SQLException e : failures) {
            assertInstanceOf(SQLNonTransientConnectionException.class, e, e::toString);
            assertTrue(e.getMessage().contains("connection is closed"), e::toString);
        }
    }

    @Test
    void abortFromInsideAFunctionWithADirectExecutor() throws SQLException {
        p.createFunction("abort_me", 0, false, args -> {
            c.abort(Runnable::run); // runs close() on this very thread, inside SQLite
            return 1;
        });
        assertClosedUnderTheStatement(() -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT abort_me() FROM t")) {
                rs.next();
            }
        });
        assertTrue(c.isClosed());
    }

    @Test
    void aFunctionClosingItsOwnStatementOrResultSetIsRefused() throws SQLException {
        AtomicReference<Object> victim = new AtomicReference<>();
        AtomicReference<Throwable> seen = new AtomicReference<>();
        p.createFunction("close_it", 0, false, args -> {
            try {
                ((AutoCloseable) victim.get()).close();
            } catch (Throwable t) {
                seen.set(t);
                throw t;
            }
            return 1;
        });
        try (PreparedStatement ps = c.prepareStatement("SELECT close_it() FROM t")) {
            victim.set(ps);
            SQLException e = assertThrows(SQLException.class, () -> ps.executeQuery().next());
            assertTrue(e.getMessage().contains("cannot be used or closed from inside"), e.getMessage());
            assertInstanceOf(SQLException.class, seen.get());
            assertFalse(ps.isClosed());
            // still usable afterwards, once SQLite has left it
            victim.set((AutoCloseable) () -> { });
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT x FROM t WHERE close_it() = 1")) {
            ResultSet rs = ps.executeQuery(); // the first step already ran the function once
            victim.set(rs);
            assertThrows(SQLException.class, () -> {
                while (rs.next()) {
                    rs.getLong(1);
                }
            });
        }
        try (Statement s = c.createStatement()) {
            victim.set(s);
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT close_it() FROM t"));
            assertFalse(s.isClosed());
        }
    }

    @Test
    void aFunctionReusingItsOwnStatementIsRefused() throws SQLException {
        AtomicReference<Statement> self = new AtomicReference<>();
        p.createFunction("again", 0, false, args -> {
            try (ResultSet rs = self.get().executeQuery("SELECT 1")) {
                return rs.next() ? 1 : 0;
            }
        });
        try (Statement s = c.createStatement()) {
            self.set(s);
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT again() FROM t").next());
            assertTrue(e.getMessage().contains("cannot be used or closed from inside"), e.getMessage());
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT again() FROM t")) {
            self.set(ps);
            assertThrows(SQLException.class, () -> ps.executeQuery().next());
        }
    }

    @Test
    void unboundedRecursionThroughSqlEndsInAnSqlException() throws SQLException {
        p.createFunction("deeper", 1, false, args -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT deeper(? + 1)")) {
                ps.setLong(1, (Long) args[0]);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
        List<SQLException> failures = runBothWays("SELECT deeper(0)");
        assertEquals(2, failures.size(), failures::toString); // both ways fail, neither crashes
        for (SQLException e : failures) {
            assertTrue(e.getMessage().contains("nested more than 16 deep"), e.getMessage());
        }
        assertTrue(runBothWays("SELECT count(*) FROM t").isEmpty()); // and the connection still works
    }

    @Test
    void errorsInAFunctionBecomeTheStatementsError() throws SQLException {
        p.createFunction("overflow", 0, false, args -> overflow(0));
        p.createFunction("oom", 0, false, args -> {
            throw new OutOfMemoryError("pretend");
        });
        p.createFunction("assertion", 0, false, args -> {
            throw new AssertionError("pretend");
        });
        p.createFunction("odd", 0, false, args -> new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("no text for you");
            }
        });
        for (String f : new String[] {"overflow", "oom", "assertion", "odd"}) {
            List<SQLException> failures = runBothWays("SELECT " + f + "() FROM t");
            assertEquals(2, failures.size(), f);
        }
        assertTrue(runBothWays("SELECT count(*) FROM t").isEmpty());
    }

    private static long overflow(long n) {
        return overflow(n + 1) + 1;
    }

    @Test
    void aggregatesThatFailOrCloseTheConnection() throws SQLException {
        p.createAggregate("bad_finish", 1, false, () -> new SqlAggregate() {
            @Override
            public void step(Object[] args) {}

            @Override
            public Object finish() {
                throw new StackOverflowError("pretend");
            }
        });
        assertEquals(2, runBothWays("SELECT bad_finish(x) FROM t").size());
        p.createAggregate("closer", 1, false, () -> new SqlAggregate() {
            @Override
            public void step(Object[] args) throws SQLException {
                c.close();
            }

            @Override
            public Object finish() {
                return 1;
            }
        });
        assertClosedUnderTheStatement(runBothWays("SELECT closer(x) FROM t"));
        assertTrue(c.isClosed());
    }

    /**
     * A collation that throws fails its statement with the Throwable as the cause, as any other user
     * code does (README). Until issue 19's engine change, the throw was swallowed and the rows came
     * back in an arbitrary order: this test fails on a driver that does that.
     */
    @Test
    void aCollationThatThrowsFailsItsStatementWithTheThrowableAsCause() throws SQLException {
        IllegalStateException thrown = new IllegalStateException("no order");
        p.createCollation("angry", (a, b) -> {
            throw thrown;
        });
        List<SQLException> failures = runBothWays("SELECT x FROM t ORDER BY CAST(x AS TEXT) COLLATE angry");
        assertEquals(2, failures.size(), "both ways must fail: " + failures);
        for (SQLException e : failures) {
            assertTrue(causes(e).contains(thrown), () -> "the collation's Throwable is not in the cause chain of " + e);
        }
        assertTrue(runBothWays("SELECT count(*) FROM t").isEmpty()); // the connection still works
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    @Test
    void aCollationThatClosesTheConnection() throws SQLException {
        p.createCollation("closer", (a, b) -> {
            try {
                c.close();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return a.compareTo(b);
        });
        assertClosedUnderTheStatement(runBothWays("SELECT x FROM t ORDER BY CAST(x AS TEXT) COLLATE closer"));
        assertTrue(c.isClosed());
    }

    @Test
    void changeListenersCannotUseTheirConnectionButMayCloseIt() throws SQLException {
        List<Throwable> refused = new ArrayList<>();
        p.addChangeListener(new ChangeListener() {
            @Override
            public void rowChanged(Kind kind, String schema, String table, long rowId) {
                // SQLite forbids any use of the connection in its update hook: writing here recursed without end
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO t VALUES (100)");
                } catch (SQLException e) {
                    refused.add(e);
                }
            }

            @Override
            public void committed() {
                throw new OutOfMemoryError("pretend"); // logged; the commit goes on
            }
        });
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t VALUES (4)");
        }
        assertEquals(1, refused.size());
        assertTrue(refused.get(0).getMessage().contains("change listener cannot use its connection"),
                refused.get(0).getMessage());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertEquals(4, rs.getLong(1)); // the listener's insert never ran
        }
        p.addChangeListener(new ChangeListener() {
            @Override
            public void rowChanged(Kind kind, String schema, String table, long rowId) {
                try {
                    c.close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        try (Statement s = c.createStatement()) {
            // the insert runs to its end (and commits), then the close is carried out
            assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (5)"));
        }
        assertTrue(c.isClosed());
        try (Connection other = TestDb.open(dir)) {
            assertEquals(1, TestDb.queryLong(other, "SELECT count(*) FROM t WHERE x = 5"), "the insert was committed");
        }
    }

    @Test
    void replacingTheRunningFunctionFromInsideItIsRefused() throws SQLException {
        p.createFunction("swap", 0, false, args -> {
            p.createFunction("swap", 0, false, a -> 2);
            return 1;
        });
        List<SQLException> failures = runBothWays("SELECT swap() FROM t");
        assertEquals(2, failures.size(), failures::toString); // both ways are refused by SQLite
        for (SQLException e : failures) {
            assertTrue(e.getMessage().contains("unable to delete/modify user-function due to active statements"),
                    e.getMessage());
        }
        // outside any statement the replacement works
        p.createFunction("swap", 0, false, a -> 3);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT swap()")) {
            rs.next();
            assertEquals(3, rs.getInt(1));
        }
    }

    @Test
    void aBackupProgressThatClosesTheConnectionOrThrows() throws SQLException {
        TestDb.exec(c, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 5000) "
                + "INSERT INTO t SELECT printf('%.500c', 'x') FROM n"); // several hundred pages: several steps
        SQLException stopped = assertThrows(SQLException.class, () -> p.backup("main", dir.resolve("b1.db"),
                (remaining, pages) -> {
                    throw new StackOverflowError("pretend");
                }));
        assertInstanceOf(StackOverflowError.class, stopped.getCause());
        assertTrue(runBothWays("SELECT count(*) FROM t").isEmpty()); // the backup object was finished
        java.util.concurrent.atomic.AtomicInteger reports = new java.util.concurrent.atomic.AtomicInteger();
        p.backup("main", dir.resolve("b2.db"), (remaining, pages) -> {
            reports.incrementAndGet();
            try {
                c.close(); // the backup still points into the connection: freed once it has finished
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(reports.get() > 1);
        assertTrue(c.isClosed());
        try (Connection copy = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("b2.db"));
             Statement s = copy.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertEquals(5003, rs.getInt(1)); // the copy completed
        }
    }

    /**
     * A restore's destination is this connection, which SQLite forbids using until the restore ends:
     * a read, a write or a transaction from its progress callback made the next step write into a
     * b-tree whose first page was gone (SIGSEGV in sqlite3BtreeUpdateMeta; found by the misuse fuzz).
     * Each is refused with an SQLException naming why; the restore completes.
     */
    @Test
    void aRestoreProgressCannotUseItsConnection() throws SQLException {
        java.nio.file.Path source = dir.resolve("source.db");
        try (Connection src = java.sql.DriverManager.getConnection("jdbc:sqlite:" + source)) {
            TestDb.exec(src, "CREATE TABLE big(x)", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 2000)"
                    + " INSERT INTO big SELECT randomblob(1000) FROM n"); // about 500 pages: several steps of 100
        }
        List<String> sqls = List.of("SELECT count(*) FROM t", "INSERT INTO t VALUES (4)", "BEGIN", "ROLLBACK", "VACUUM");
        List<SQLException> refused = new ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger steps = new java.util.concurrent.atomic.AtomicInteger();
        p.restore("main", source, (remaining, pages) -> {
            int step = steps.getAndIncrement();
            if (step < sqls.size()) {
                try (Statement s = c.createStatement()) {
                    s.execute(sqls.get(step));
                } catch (SQLException e) {
                    refused.add(e);
                }
            }
        });
        assertTrue(steps.get() > sqls.size(), "steps: " + steps.get());
        assertEquals(sqls.size(), refused.size());
        for (SQLException e : refused) {
            assertTrue(e.getMessage().contains("A restore's progress callback cannot use its connection"), e.getMessage());
        }
        assertEquals(2000, TestDb.queryLong(c, "SELECT count(*) FROM big")); // the restore completed
        assertThrows(SQLException.class, () -> TestDb.queryLong(c, "SELECT count(*) FROM t")); // and replaced main
    }
}
