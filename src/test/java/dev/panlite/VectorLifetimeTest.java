package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sqlite-vec's vec0 is a virtual table with cursors and statements of its own, so the engine's
 * lifetime rules meet it (DESIGN.md, "Connections, threads, memory"): a KNN stepping while its
 * connection closes, is aborted or cancelled from another thread; a user function that closes its
 * connection while a KNN runs on it, or runs vector SQL itself; a statement over a vec0 table
 * finalized while rows are read ahead; a vec0 table dropped under an open cursor; a pooled handle's
 * reset dropping a TEMP vec0 table under an open KNN. Each ends in an SQLException or a right answer,
 * never a crash. Ordered by latches and the connection lock's queue (TestDb), not by time. Runs on the
 * bundled engine (sqlite-vec compiled in); skipped, with the reason, on engines without it.
 */
class VectorLifetimeTest {
    private static final int ROWS = 200;
    private static final int DIMS = 8;

    @TempDir
    Path dir;

    @BeforeEach
    void needsSqliteVec() {
        assumeTrue(SqliteLibrary.sqliteVecVersion() != null,
                "no sqlite-vec compiled into " + SqliteLibrary.loadedFrom() + ": the bundled engine's run tests these");
    }

    /** A connection to WAL file {@code file} with items(embedding float[8]): row i holds (i*i, 0, ...), so i-1 is i's nearest other (i >= 2). */
    private Connection openWithItems(String file) throws SQLException {
        Connection c = connect(file);
        TestDb.exec(c, "PRAGMA journal_mode = WAL", "CREATE VIRTUAL TABLE IF NOT EXISTS items USING vec0(embedding float[" + DIMS + "])");
        if (TestDb.queryLong(c, "SELECT count(*) FROM items") == 0) {
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO items(rowid, embedding) VALUES (?, ?)")) {
                for (int i = 1; i <= ROWS; i++) {
                    p.setLong(1, i);
                    p.setObject(2, point(i));
                    p.addBatch();
                }
                p.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
        }
        return c;
    }

    private Connection connect(String file) throws SQLException {
        return new Driver().connect(TestDb.url(dir, file, ""), new java.util.Properties());
    }

    private static float[] point(int i) {
        float[] v = new float[DIMS];
        v[0] = (float) i * i;
        return v;
    }

    /** An SQLException (any subclass), with a message. */
    private static SQLException assertSqlException(Object outcome) {
        SQLException e = assertInstanceOf(SQLException.class, outcome, () -> "not an SQLException: " + outcome);
        assertFalse(e.getMessage() == null || e.getMessage().isEmpty());
        return e;
    }

    /**
     * A KNN query that never ends by itself: a KNN (its own cursor, reading sqlite-vec's chunks with
     * statements and blob handles of its own) for each row of an endless recursion. inside() blocks
     * at its first call, inside the first KNN cursor, until the test releases it.
     */
    private static final String ENDLESS_KNN = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
            + " SELECT count(*) FROM n WHERE (SELECT count(*) FROM items WHERE embedding MATCH ?1 AND k = 1 + i % 50"
            + " AND inside(rowid) >= 0) >= 0";

    /** A function that blocks its first call until {@code release} opens, telling {@code inside} when it is there. */
    private static void registerInside(Connection c, CountDownLatch inside, CountDownLatch release) throws SQLException {
        AtomicInteger calls = new AtomicInteger();
        c.unwrap(PanliteConnection.class).createFunction("inside", 1, false, args -> {
            if (calls.getAndIncrement() == 0) {
                inside.countDown();
                if (!release.await(TestDb.GUARD_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("not released within the guard");
                }
            }
            return 1;
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"close", "abort", "cancel"})
    void aKnnSteppingWhileItsConnectionIsClosedAbortedOrCancelledFromAnotherThread(String how) throws Exception {
        Connection c = openWithItems("test.db");
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        registerInside(c, inside, release);
        PreparedStatement knn = c.prepareStatement(ENDLESS_KNN);
        knn.setObject(1, point(7));
        TestThreads threads = new TestThreads();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        threads.start("knn", () -> {
            try (ResultSet rs = knn.executeQuery()) {
                rs.next();
                outcome.set(new AssertionError("an endless KNN returned"));
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        assertTrue(inside.await(TestDb.GUARD_MILLIS, TimeUnit.MILLISECONDS), "the KNN never called inside()");
        Thread stopper = threads.start("stopper", () -> {
            switch (how) {
                case "close" -> c.close(); // interrupts, then waits for the lock the KNN holds
                case "abort" -> c.abort(Runnable::run); // the same, on this thread
                default -> knn.cancel(); // sqlite3_interrupt, no lock
            }
        });
        if (!how.equals("cancel")) {
            assertTrue(TestDb.awaitQueued(c, stopper), "the " + how + " did not wait for the running KNN");
        } else {
            stopper.join(TestDb.GUARD_MILLIS);
        }
        release.countDown(); // the KNN steps on, and meets the interrupt
        threads.join();
        assertSqlException(outcome.get());
        if (how.equals("cancel")) { // the connection lives on, and its next KNN answers right
            try (PreparedStatement p = c.prepareStatement("SELECT rowid FROM items WHERE embedding MATCH ? AND k = 2 ORDER BY distance")) {
                p.setObject(1, point(30));
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(30, rs.getLong(1));
                    assertTrue(rs.next());
                    assertEquals(29, rs.getLong(1));
                }
            }
            c.close();
        } else {
            assertTrue(c.isClosed());
            assertTrue(TestDb.engine(c).isClosed());
            assertSqlException(assertThrows(SQLException.class, knn::executeQuery));
        }
    }

    /**
     * An interrupt (cancel, abort, a close from another thread) that arrives while a KNN runs, before
     * sqlite-vec has prepared the statement it looks a row's vector up with (the first KNN on a
     * connection that reads the vector column): its prepare fails with SQLITE_INTERRUPT, and sqlite-vec
     * 0.1.9 then called sqlite3_clear_bindings(NULL) and took the JVM down (the misuse fuzz and
     * aUserFunctionClosesItsConnectionWhileAKnnRunsOnIt(abort) met it; bundled.c makes that call
     * harmless). Now the KNN fails with an SQLException.
     */
    @ParameterizedTest
    @ValueSource(strings = {"cancel", "abort", "closeFromAnotherThread"})
    void anInterruptBeforeSqliteVecPreparesItsLookupIsAnSqlException(String how) throws Exception {
        try (Connection setup = openWithItems("test.db")) {
            // filled; the connection below is a fresh one, whose vec0 has prepared nothing yet
        }
        Connection c = connect("test.db");
        AtomicReference<PreparedStatement> running = new AtomicReference<>();
        TestThreads threads = new TestThreads();
        AtomicInteger calls = new AtomicInteger();
        c.unwrap(PanliteConnection.class).createFunction("interrupt_here", 1, false, args -> {
            if (calls.getAndIncrement() == 0) { // before the first row's embedding is read
                switch (how) {
                    case "cancel" -> running.get().cancel();
                    case "abort" -> c.abort(Runnable::run);
                    default -> {
                        Thread closer = threads.start("closer", c::close); // interrupts, then waits for this KNN
                        assertTrue(TestDb.awaitQueued(c, closer));
                    }
                }
            }
            return args[0];
        });
        PreparedStatement knn = c.prepareStatement("SELECT rowid, interrupt_here(distance), embedding FROM items"
                + " WHERE embedding MATCH ? AND k = 5");
        running.set(knn);
        knn.setObject(1, point(3));
        SQLException e = assertThrows(SQLException.class, () -> {
            try (ResultSet rs = knn.executeQuery()) {
                while (rs.next()) {
                    rs.getObject(3, float[].class);
                }
            }
        });
        assertSqlException(e);
        threads.join();
        if (how.equals("cancel")) { // an interrupt, whatever sqlite-vec made of it; the connection lives on
            assertEquals(9, e.getErrorCode() & 0xff, e.getMessage()); // SQLITE_INTERRUPT
            try (ResultSet rs = knn.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(3, rs.getLong(1));
                assertArrayEquals(point(3), rs.getObject(3, float[].class));
            }
            c.close();
        } else {
            assertTrue(c.isClosed());
        }
    }

    /** The same KNN stopped by its query timeout: an SQLTimeoutException, and the connection lives on. */
    @Test
    void aKnnStoppedByItsQueryTimeout() throws Exception {
        try (Connection c = openWithItems("test.db")) {
            registerInside(c, new CountDownLatch(1), new CountDownLatch(0));
            try (PreparedStatement knn = c.prepareStatement(ENDLESS_KNN)) {
                knn.setObject(1, point(7));
                knn.setQueryTimeout(1);
                SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> knn.executeQuery().next());
                // sqlite-vec reports the interrupt as an error of its own ("chunks iter error"): the driver
                // tells the interrupt by SQLite's flag, and the timeout by its own
                assertEquals(9, e.getErrorCode() & 0xff, e.getMessage()); // SQLITE_INTERRUPT
            }
            assertEquals(ROWS, TestDb.queryLong(c, "SELECT count(*) FROM items"));
        }
    }

    /**
     * A user function called per row of a KNN closes (or aborts) its own connection: the close waits
     * until the thread leaves SQLite (DESIGN: a close inside a callback takes effect when the thread
     * leaves its outermost call), the connection refuses every call from then on, inside the
     * function too, and the KNN ends with its rows or an SQLException.
     */
    @ParameterizedTest
    @ValueSource(strings = {"close", "abort"})
    void aUserFunctionClosesItsConnectionWhileAKnnRunsOnIt(String how) throws Exception {
        Connection c = openWithItems("test.db");
        AtomicReference<Throwable> insideOutcome = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean closedInside = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        c.unwrap(PanliteConnection.class).createFunction("closer", 1, false, args -> {
            if (calls.getAndIncrement() == 0) {
                if (how.equals("close")) {
                    c.close();
                } else {
                    c.abort(Runnable::run);
                }
                closedInside.set(c.isClosed());
                try (Statement s = c.createStatement()) { // the connection refuses a new statement, inside the KNN too
                    s.executeQuery("SELECT vec_length(embedding) FROM items");
                    insideOutcome.set(new AssertionError("a query ran on a closed connection"));
                } catch (Throwable t) {
                    insideOutcome.set(t);
                }
            }
            return args[0];
        });
        int rows = 0;
        Throwable outcome = null;
        try (PreparedStatement knn = c.prepareStatement("SELECT rowid, closer(distance), embedding FROM items"
                + " WHERE embedding MATCH ? AND k = 20")) {
            knn.setObject(1, point(100));
            try (ResultSet rs = knn.executeQuery()) {
                while (rs.next()) {
                    rs.getObject(3, float[].class);
                    rows++;
                }
            }
        } catch (SQLException e) {
            outcome = e;
        }
        assertTrue(closedInside.get(), "closed for its user from the close on, inside the function too");
        assertSqlException(insideOutcome.get());
        assertTrue(outcome != null || rows == 20, "neither all rows nor an SQLException: " + rows + " rows");
        assertTrue(c.isClosed());
        assertTrue(TestDb.engine(c).isClosed(), "closed once the KNN's thread left SQLite");
        assertSqlException(assertThrows(SQLException.class, c::createStatement));
    }

    /**
     * Vector SQL inside Java callbacks that run inside a KNN: a function that runs a KNN of its own
     * (and a distance function) on its own connection for each row of the outer KNN, and an aggregate
     * whose steps run vec_length on their argument. Both answer what the same SQL answers outside.
     */
    @Test
    void vectorFunctionsInsideAUserFunctionAndAnAggregate() throws Exception {
        try (Connection c = openWithItems("test.db")) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.createFunction("nearest_other", 1, false, args -> {
                try (PreparedStatement inner = c.prepareStatement("SELECT rowid, vec_distance_l2(embedding, ?1) FROM items"
                        + " WHERE embedding MATCH ?1 AND k = 2 ORDER BY distance")) {
                    inner.setBytes(1, (byte[]) args[0]); // the outer row's embedding, as sqlite-vec's blob
                    try (ResultSet rs = inner.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(0.0, rs.getDouble(2), "a vector is its own nearest");
                        assertTrue(rs.next());
                        return rs.getLong(1);
                    }
                }
            });
            p.createAggregate("total_length", 1, false, () -> new SqlAggregate() {
                long total;

                @Override
                public void step(Object[] args) throws Exception {
                    try (PreparedStatement inner = c.prepareStatement("SELECT vec_length(?)")) {
                        inner.setBytes(1, (byte[]) args[0]);
                        try (ResultSet rs = inner.executeQuery()) {
                            rs.next();
                            total += rs.getLong(1);
                        }
                    }
                }

                @Override
                public Object finish() {
                    return total;
                }
            });
            List<long[]> pairs = new ArrayList<>();
            try (PreparedStatement knn = c.prepareStatement("SELECT rowid, nearest_other(embedding) FROM items"
                    + " WHERE embedding MATCH ? AND k = 5 ORDER BY distance")) {
                knn.setObject(1, point(50));
                try (ResultSet rs = knn.executeQuery()) {
                    while (rs.next()) {
                        pairs.add(new long[] {rs.getLong(1), rs.getLong(2)});
                    }
                }
            }
            // the five nearest to 50 (at 2,500): 50, 49, 51, 48, 52; each one's nearest other is the one below it
            long[][] expected = {{50, 49}, {49, 48}, {51, 50}, {48, 47}, {52, 51}};
            assertArrayEquals(expected, pairs.toArray(new long[0][]));
            assertEquals((long) ROWS * DIMS, TestDb.queryLong(c, "SELECT total_length(embedding) FROM items"));
            assertEquals(20L * DIMS, TestDb.queryLong(c, "SELECT total_length(embedding) FROM items"
                    + " WHERE embedding MATCH vec_f32('[1,0,0,0,0,0,0,0]') AND k = 20"));
        }
    }

    /**
     * A statement over a vec0 table closed (finalized) while its result set holds rows read ahead,
     * by the statement's close, the connection's, or from another thread while the reader steps: the
     * result set then answers SQLException at its next call, never a row read ahead, never a crash.
     */
    @ParameterizedTest
    @ValueSource(strings = {"statement", "connection", "statementFromAnotherThread"})
    void aResultSetOverVec0ReadAfterItsStatementClosed(String closing) throws Exception {
        Connection c = openWithItems("test.db");
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        registerInside(c, inside, closing.equals("statementFromAnotherThread") ? release : new CountDownLatch(0));
        PreparedStatement knn = c.prepareStatement("SELECT rowid, distance, embedding FROM items WHERE embedding MATCH ?"
                + " AND k = 100 AND inside(rowid) >= 0");
        knn.setObject(1, point(10));
        TestThreads threads = new TestThreads();
        AtomicReference<ResultSet> result = new AtomicReference<>();
        switch (closing) {
            case "statement" -> {
                result.set(knn.executeQuery());
                assertTrue(result.get().next());
                assertEquals(DIMS, result.get().getObject(3, float[].class).length);
                knn.close();
            }
            case "connection" -> {
                result.set(knn.executeQuery());
                assertTrue(result.get().next());
                c.close();
            }
            default -> {
                // executeQuery steps to the first row, whose inside() blocks: the close from another thread
                // waits for it, then finalizes the statement under the rows read ahead
                threads.start("reader", () -> result.set(knn.executeQuery()));
                assertTrue(inside.await(TestDb.GUARD_MILLIS, TimeUnit.MILLISECONDS));
                Thread closer = threads.start("closer", knn::close);
                assertTrue(TestDb.awaitQueued(c, closer), "the close did not wait for the stepping reader");
                release.countDown();
                threads.join();
            }
        }
        ResultSet rs = result.get();
        assertTrue(rs.isClosed());
        assertSqlException(assertThrows(SQLException.class, rs::next));
        assertSqlException(assertThrows(SQLException.class, () -> rs.getObject(3, float[].class)));
        assertSqlException(assertThrows(SQLException.class, () -> rs.getDouble("distance")));
        if (!c.isClosed()) {
            assertEquals(ROWS, TestDb.queryLong(c, "SELECT count(*) FROM items"), "the connection lives on");
            c.close();
        }
    }

    /**
     * DROP TABLE of a vec0 table while a cursor over it is open: refused on the same connection
     * ("database table is locked", the cursor reads on); from another connection of the WAL file the
     * drop commits, the open cursor reads on from its snapshot, and the reader's next query says the
     * table is gone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sameConnection", "otherConnection"})
    void dropTableOfAVec0TableUnderAnOpenCursor(String where) throws Exception {
        String[] cursors = {"SELECT rowid, embedding FROM items", // a full scan: reads chunk by chunk as it steps
            "SELECT rowid, embedding FROM items WHERE embedding MATCH vec_f32('[1,0,0,0,0,0,0,0]') AND k = 150"};
        for (int round = 0; round < cursors.length; round++) {
            String file = "drop" + round + ".db";
            try (Connection c = openWithItems(file); Connection other = connect(file)) {
                int rows = 0;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(cursors[round])) {
                    assertTrue(rs.next());
                    rows++;
                    if (where.equals("sameConnection")) {
                        SQLException refused = assertThrows(SQLException.class, () -> TestDb.exec(c, "DROP TABLE items"));
                        assertTrue(refused.getMessage().contains("locked"), refused.getMessage());
                    } else {
                        TestDb.exec(other, "DROP TABLE items");
                    }
                    while (rs.next()) {
                        assertEquals(DIMS, rs.getObject(2, float[].class).length);
                        rows++;
                    }
                }
                assertEquals(round == 0 ? ROWS : 150, rows, "the cursor read on to its end: " + cursors[round]);
                if (where.equals("sameConnection")) {
                    TestDb.exec(c, "DROP TABLE items"); // the cursor is closed: now it drops
                }
                SQLException gone = assertThrows(SQLException.class, () -> TestDb.queryLong(c, "SELECT count(*) FROM items"));
                assertTrue(gone.getMessage().contains("no such table"), gone.getMessage());
            }
        }
    }

    /**
     * A pooled handle's close resets the physical connection for its next borrower, dropping TEMP
     * objects: here a TEMP vec0 table under a KNN still open on it. The KNN's result set is closed
     * with the handle; the next borrower finds no TEMP table and working vector search.
     */
    @Test
    void aPooledHandlesResetDropsItsTempVec0TableUnderAnOpenKnn() throws Exception {
        PooledConnection pooled = new PanliteConnectionPoolDataSource(TestDb.url(dir, "pool.db", "")).getPooledConnection();
        try {
            Connection handle = pooled.getConnection();
            TestDb.exec(handle, "CREATE VIRTUAL TABLE temp.scratch USING vec0(embedding float[2])",
                    "INSERT INTO scratch(rowid, embedding) VALUES (1, '[0, 0]'), (2, '[1, 1]'), (3, '[5, 5]')");
            PreparedStatement knn = handle.prepareStatement("SELECT rowid, embedding FROM scratch WHERE embedding MATCH ? AND k = 3");
            knn.setObject(1, new float[] {1, 1});
            ResultSet rs = knn.executeQuery();
            assertTrue(rs.next());
            handle.close();
            assertSqlException(assertThrows(SQLException.class, rs::next));
            assertSqlException(assertThrows(SQLException.class, () -> rs.getObject(2, float[].class)));
            try (Connection next = pooled.getConnection()) {
                SQLException gone = assertThrows(SQLException.class, () -> TestDb.queryLong(next, "SELECT count(*) FROM scratch"));
                assertTrue(gone.getMessage().contains("no such table"), gone.getMessage());
                assertEquals(3, TestDb.queryLong(next, "SELECT vec_length(vec_f32('[1, 2, 3]'))"));
            }
        } finally {
            pooled.close();
        }
    }
}
