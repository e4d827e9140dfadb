package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many writers, one file (issue 11): the default IMMEDIATE transactions, the write gate (FIFO,
 * released on every path, never touched by readers), the Java-side wait for other processes, the
 * busy handler, and the errors where waiting cannot help. No timed assertions: a test that would
 * hang without the feature has a generous JUnit timeout as its guard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ContentionTest {
    @TempDir
    Path dir;

    @BeforeEach
    void schema() throws SQLException {
        try (Connection c = open("journal_mode=WAL")) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)", "CREATE TABLE n(k INTEGER PRIMARY KEY, c INTEGER)",
                    "INSERT INTO n VALUES (1, 0)");
        }
    }

    private Connection open(String query) throws SQLException {
        return TestDb.open(dir, query);
    }

    private static void insert(Connection c, String v) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            ps.setString(1, v);
            ps.executeUpdate();
        }
    }

    /** A connection holding the write transaction (and so the gate) until committed or rolled back. */
    private Connection writerInTransaction(String v) throws SQLException {
        Connection c = open("");
        c.setAutoCommit(false);
        insert(c, v);
        return c;
    }

    /** The gate and SQLite's write lock are free: a writer that may not wait at all succeeds. */
    private void assertWritable(String v) throws SQLException {
        try (Connection probe = open("busy_timeout=0")) {
            insert(probe, v);
        }
    }

    private void assertNotWritable() throws SQLException {
        try (Connection probe = open("busy_timeout=0")) {
            SQLException e = assertThrows(SQLException.class, () -> insert(probe, "probe"));
            assertEquals(5, e.getErrorCode(), e.getMessage());
        }
    }

    /** A busy handler that counts down {@code waiting} at its first call, then keeps waiting. */
    private static BusyHandler signalling(CountDownLatch waiting) {
        return (attempts, waited) -> {
            if (attempts == 0) {
                waiting.countDown();
            }
            return true;
        };
    }

    // ------------------------------------------------------------------ defaults that don't fail

    @Test
    void readThenWriteTransactionsFromManyThreadsAllCommit() throws Exception {
        int threads = 12;
        int each = 40;
        TestThreads started = new TestThreads();
        for (int i = 0; i < threads; i++) {
            int id = i;
            started.start("writer-" + i, () -> {
                try (Connection c = open("busy_timeout=60000")) {
                    c.setAutoCommit(false);
                    for (int k = 0; k < each; k++) {
                        long seen = TestDb.queryLong(c, "SELECT c FROM n WHERE k = 1"); // read first ...
                        try (PreparedStatement up = c.prepareStatement("UPDATE n SET c = ? WHERE k = 1")) {
                            up.setLong(1, seen + 1); // ... then write what was read: lost updates would show
                            up.executeUpdate();
                        }
                        insert(c, id + "-" + k);
                        c.commit();
                    }
                }
            });
        }
        started.join();
        try (Connection c = open("")) {
            assertEquals(threads * each, TestDb.queryLong(c, "SELECT c FROM n WHERE k = 1"), "no update was lost");
            assertEquals(threads * each, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
    }

    /** Readers opened while the writer holds the gate, with the README's URL: opening does not queue either (issue 27). */
    @Test
    void readersNeverQueueBehindAWriter() throws SQLException {
        try (Connection writer = writerInTransaction("w");
                Connection reader = open("busy_timeout=0&journal_mode=WAL");
                Connection readOnly = open("busy_timeout=0&journal_mode=WAL&synchronous=NORMAL")) {
            assertEquals(0, TestDb.queryLong(reader, "SELECT count(*) FROM t"), "auto-commit query while the gate is held");
            readOnly.setReadOnly(true);
            readOnly.setAutoCommit(false); // a read-only transaction begins deferred and never takes the gate
            assertEquals(0, TestDb.queryLong(readOnly, "SELECT count(*) FROM t"));
            readOnly.commit();
            writer.commit();
        }
    }

    // ------------------------------------------------------------------ the gate: FIFO, released on every path

    @Test
    void queuedWritersAreServedInArrivalOrder() throws Exception {
        List<Connection> writers = new ArrayList<>();
        TestThreads threads = new TestThreads();
        try (Connection holder = writerInTransaction("holder")) {
            for (int i = 0; i < 6; i++) {
                Connection w = open("busy_timeout=60000");
                writers.add(w);
                CountDownLatch waiting = new CountDownLatch(1);
                w.unwrap(PanliteConnection.class).setBusyHandler(signalling(waiting));
                String v = "w" + i;
                threads.startVirtual("writer-" + i, () -> insert(w, v));
                waiting.await(); // writer i queues before writer i+1 starts
            }
            holder.commit();
            threads.join();
        } finally {
            for (Connection w : writers) {
                w.close();
            }
        }
        List<String> order = new ArrayList<>();
        try (Connection c = open(""); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT v FROM t WHERE v LIKE 'w%' ORDER BY id")) {
            while (rs.next()) {
                order.add(rs.getString(1));
            }
        }
        assertEquals(List.of("w0", "w1", "w2", "w3", "w4", "w5"), order);
    }

    @Test
    void theGateIsReleasedByCommitRollbackCloseAndAbort() throws SQLException {
        Connection c = writerInTransaction("a");
        assertNotWritable();
        c.commit();
        assertWritable("p1");

        insert(c, "b");
        assertNotWritable();
        c.rollback();
        assertWritable("p2");

        insert(c, "c");
        c.close();
        assertWritable("p3");

        Connection aborted = writerInTransaction("d");
        aborted.abort(Runnable::run);
        assertWritable("p4");

        Connection switched = writerInTransaction("e");
        switched.setAutoCommit(true); // commits
        assertWritable("p5");
        switched.close();
    }

    @Test
    void theGateIsReleasedWhenAStatementFails() throws SQLException {
        try (Connection c = open("")) {
            insert(c, "dup");
            assertThrows(SQLException.class, () -> insert(c, "dup")); // auto-commit write fails
            assertWritable("p1");
            assertThrows(SQLException.class, () -> TestDb.exec(c, "INSERT INTO t(v) VALUES ('dup')")); // SQL text
            assertWritable("p2");
            c.setAutoCommit(false);
            assertThrows(SQLException.class, () -> insert(c, "dup")); // the transaction stays open ...
            assertNotWritable();
            c.rollback(); // ... until rolled back
            assertWritable("p3");
        }
    }

    @Test
    void aWaitThatRunsOutSaysHowLongAndForWhat() throws SQLException {
        try (Connection holder = writerInTransaction("h"); Connection late = open("busy_timeout=50")) {
            SQLException e = assertThrows(SQLException.class, () -> insert(late, "late"));
            assertEquals(5, e.getErrorCode());
            assertTrue(e.getMessage().contains("waited") && e.getMessage().contains("write gate")
                    && e.getMessage().contains("busy_timeout=50"), e.getMessage());
            late.setAutoCommit(false);
            SQLException begin = assertThrows(SQLException.class, () -> insert(late, "late"));
            assertTrue(begin.getMessage().contains("write gate"), begin.getMessage());
            late.rollback();
            late.setAutoCommit(true);
            holder.commit();
            insert(late, "late"); // nothing of the failed waits is left in the queue
        }
    }

    @Test
    void closingAConnectionFromAnotherThreadEndsItsWait() throws Exception {
        try (Connection holder = writerInTransaction("h")) {
            Connection waiter = open("busy_timeout=600000");
            CountDownLatch waiting = new CountDownLatch(1);
            waiter.unwrap(PanliteConnection.class).setBusyHandler(signalling(waiting));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = Thread.ofVirtual().start(() -> {
                try {
                    insert(waiter, "never");
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            waiting.await();
            waiter.close(); // would block until the wait ends, for busy_timeout, if close did not end it
            t.join();
            assertInstanceOf(SQLNonTransientConnectionException.class, failure.get());
            holder.commit();
        }
        assertWritable("after"); // the closed waiter left nothing behind
    }

    @Test
    void anInterruptedWaitFailsAndKeepsTheInterruptFlag() throws Exception {
        try (Connection holder = writerInTransaction("h"); Connection waiter = open("busy_timeout=600000")) {
            CountDownLatch waiting = new CountDownLatch(1);
            waiter.unwrap(PanliteConnection.class).setBusyHandler(signalling(waiting));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicReference<Boolean> flag = new AtomicReference<>();
            Thread t = Thread.ofVirtual().start(() -> {
                try {
                    insert(waiter, "never");
                } catch (Throwable e) {
                    failure.set(e);
                    flag.set(Thread.currentThread().isInterrupted());
                }
            });
            waiting.await();
            t.interrupt();
            t.join();
            assertInstanceOf(SQLException.class, failure.get());
            assertTrue(failure.get().getMessage().contains("Interrupted"), failure.get().getMessage());
            assertEquals(Boolean.TRUE, flag.get());
            holder.commit();
            insert(waiter, "after");
        }
    }

    // ------------------------------------------------------------------ the busy handler

    @Test
    void theBusyHandlerDecidesHowLongToWait() throws SQLException {
        try (Connection holder = writerInTransaction("h"); Connection waiter = open("busy_timeout=600000")) {
            PanliteConnection p = waiter.unwrap(PanliteConnection.class);
            List<Integer> asked = new CopyOnWriteArrayList<>();
            p.setBusyHandler((attempts, waited) -> {
                asked.add(attempts);
                return attempts < 3;
            });
            SQLException e = assertThrows(SQLException.class, () -> insert(waiter, "w"));
            assertEquals(List.of(0, 1, 2, 3), asked);
            assertTrue(e.getMessage().contains("busy handler gave up"), e.getMessage());

            // a handler that frees the lock and keeps waiting: the wait ends with the gate
            p.setBusyHandler((attempts, waited) -> {
                try {
                    holder.commit();
                } catch (SQLException ex) {
                    throw new IllegalStateException(ex);
                }
                return true;
            });
            insert(waiter, "w");
            p.setBusyHandler(null);
        }
    }

    @Test
    void aBusyHandlerThatThrowsFailsTheStatementWithItsCause() throws SQLException {
        try (Connection holder = writerInTransaction("h"); Connection waiter = open("")) {
            waiter.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                throw new IllegalStateException("no waiting here");
            });
            SQLException e = assertThrows(SQLException.class, () -> insert(waiter, "w"));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            holder.commit();
        }
    }

    @Test
    void aBusyHandlerThatClosesItsConnectionEndsTheWait() throws SQLException {
        try (Connection holder = writerInTransaction("h"); Connection waiter = open("busy_timeout=600000")) {
            waiter.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                try {
                    waiter.close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return true;
            });
            SQLException e = assertThrows(SQLException.class, () -> insert(waiter, "w"));
            assertEquals("08003", e.getSQLState(), e.getMessage());
            assertTrue(waiter.isClosed());
            holder.commit();
        }
        assertWritable("after");
    }

    // ------------------------------------------------------------------ where waiting cannot help

    @Test
    void aStaleSnapshotAsksToRetryTheTransaction() throws SQLException {
        try (Connection deferred = open("transaction_mode=DEFERRED&busy_timeout=600000"); Connection other = open("")) {
            deferred.setAutoCommit(false);
            TestDb.queryLong(deferred, "SELECT count(*) FROM t"); // the transaction's snapshot
            insert(other, "newer"); // commits after it
            SQLTransactionRollbackException e = assertThrows(SQLTransactionRollbackException.class,
                    () -> insert(deferred, "stale"));
            assertEquals("40001", e.getSQLState());
            assertEquals(517, ((SqliteError) e).extendedCode());
            assertTrue(e.getMessage().contains("retry the transaction")
                    && e.getMessage().contains("transaction_mode=IMMEDIATE"), e.getMessage());
            deferred.rollback();
        }
    }

    @Test
    void aDeferredTransactionThatReadFirstFailsAtOnceInsteadOfDeadlocking() throws SQLException {
        try (Connection deferred = open("transaction_mode=DEFERRED&busy_timeout=600000");
                Connection holder = writerInTransaction("h")) {
            deferred.setAutoCommit(false);
            TestDb.queryLong(deferred, "SELECT count(*) FROM t");
            SQLException e = assertThrows(SQLException.class, () -> insert(deferred, "upgrade"));
            assertEquals(5, e.getErrorCode());
            assertTrue(e.getMessage().contains("transaction_mode=IMMEDIATE"), e.getMessage());
            deferred.rollback();
            holder.commit();
        }
    }

    // ------------------------------------------------------------------ another process

    /** A child JVM ({@link ContentionChild}) holds the write lock until told to commit. */
    private Process lockingChild() throws Exception {
        return ChildJvm.of(ContentionChild.class).args(dir.resolve("test.db").toString()).start();
    }

    /** Reads the child's lines up to {@code expected}; the lines before it. */
    private static String awaitLine(BufferedReader out, String expected) throws Exception {
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.equals(expected)) {
                return seen.toString();
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("child ended before '" + expected + "':\n" + seen);
    }

    @Test
    void anotherProcessHoldingTheLockIsWaitedForInJava() throws Exception {
        Process child = lockingChild();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                OutputStream in = child.getOutputStream();
                Connection c = open("busy_timeout=600000")) {
            new ChildJvm.Output(0, awaitLine(out, "locked")).assertSameEngine();
            // the child holds SQLite's write lock; this JVM's gate is free, so SQLite says BUSY and Java retries
            PanliteStats before = PanliteStats.snapshot();
            try (Connection quick = open("busy_timeout=50")) {
                SQLException e = assertThrows(SQLException.class, () -> insert(quick, "quick"));
                assertTrue(e.getMessage().contains("another process") && e.getMessage().contains("waited"),
                        e.getMessage());
            }
            PanliteStats after = PanliteStats.snapshot(); // the metrics count the wait that ran out
            assertEquals(1, after.busyWaits() - before.busyWaits());
            assertEquals(1, after.busyTimeouts() - before.busyTimeouts());
            assertTrue(after.busyRetries() > before.busyRetries());
            assertTrue(after.busyWaitTime().compareTo(before.busyWaitTime()) > 0);
            AtomicInteger asked = new AtomicInteger();
            c.unwrap(PanliteConnection.class).setBusyHandler((attempts, waited) -> {
                if (asked.getAndIncrement() == 0) {
                    try {
                        in.write("commit\n".getBytes(StandardCharsets.UTF_8));
                        in.flush();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                return true;
            });
            insert(c, "parent"); // SQLITE_BUSY until the child commits, then succeeds
            assertTrue(asked.get() >= 1, "the write did wait");
            awaitLine(out, "committed");
            assertEquals(2, TestDb.queryLong(c, "SELECT count(*) FROM t WHERE v IN ('child', 'parent')"));
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue());
        } finally {
            child.destroy();
        }
    }

    /**
     * Two JVMs write the same file at full speed: each has its own write gate, so they meet
     * at SQLite's lock, where each waits for the other in Java. No transaction may fail, and neither
     * process may be starved (the share each gets is a benchmark number: ./bench --contention).
     */
    @Test
    void twoJvmsOnOneFileBothCommitAndNeitherStarves() throws Exception {
        long target = 6000;
        List<Process> children = new ArrayList<>();
        List<BufferedReader> outs = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Process p = ChildJvm.of(TwoJvmsChild.class) // the engine of this test run, as every child
                        .args(dir.resolve("test.db").toString(), Long.toString(target)).start();
                children.add(p);
                outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader out : outs) {
                awaitLine(out, "ready");
            }
            for (Process p : children) { // both start together
                p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
                p.getOutputStream().flush();
            }
            long[] commits = new long[2];
            for (int i = 0; i < 2; i++) {
                String result = null;
                StringBuilder seen = new StringBuilder();
                for (String line = outs.get(i).readLine(); line != null; line = outs.get(i).readLine()) {
                    seen.append(line).append('\n');
                    if (line.startsWith("commits=")) {
                        result = line;
                    }
                }
                assertTrue(result != null && result.endsWith(" failed=0"), "JVM " + i + ":\n" + seen);
                commits[i] = Long.parseLong(result.substring("commits=".length(), result.indexOf(' ')));
            }
            assertEquals(target, commits[0] + commits[1], "every commit counted once");
            for (int i = 0; i < 2; i++) { // how evenly they share is measured by ./bench --contention, not asserted
                assertTrue(commits[i] > 0, "JVM " + i + " was starved: " + commits[i] + " of " + target + " commits");
            }
            try (Connection c = open("")) {
                assertEquals(target, TestDb.queryLong(c, "SELECT c FROM n WHERE k = 1"), "no update was lost");
                assertEquals(target, TestDb.queryLong(c, "SELECT count(*) FROM t"));
            }
        } finally {
            children.forEach(Process::destroy);
        }
    }

    @Test
    void virtualThreadsWaitingForTheGateDoNotStallTheOneHoldingIt() throws Exception {
        // one carrier: a waiter that pinned it would stall every other virtual thread
        String out = ChildJvm.of(dev.panlite.engine.VirtualThreadsChild.class)
                .property("jdk.virtualThreadScheduler.parallelism", "1")
                .property("jdk.virtualThreadScheduler.maxPoolSize", "1")
                .args(dir.resolve("test.db").toString())
                .run().assertSameEngine().text();
        assertTrue(out.lines().anyMatch("done"::equals), () -> "child JVM did not finish its work:\n" + out);
        try (Connection c = open("")) {
            assertEquals(9, TestDb.queryLong(c, "SELECT count(*) FROM t"));
        }
    }

    @Test
    void lockWaitsAndSlowStatementsAreJfrEvents() throws Exception {
        Path jfr = dir.resolve("events.jfr");
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable("dev.panlite.LockWait");
            recording.enable("dev.panlite.Statement").withThreshold(java.time.Duration.ZERO);
            recording.start();
            PanliteStats before = PanliteStats.snapshot();
            try (Connection holder = writerInTransaction("h"); Connection late = open("busy_timeout=20")) {
                assertThrows(SQLException.class, () -> insert(late, "late"));
                holder.commit();
            }
            PanliteStats after = PanliteStats.snapshot(); // and the metrics count it
            assertEquals(1, after.gateWaits() - before.gateWaits());
            assertEquals(1, after.gateTimeouts() - before.gateTimeouts());
            assertTrue(after.gateWaitTime().compareTo(before.gateWaitTime()) > 0);
            assertEquals(0, after.busyWaits() - before.busyWaits());
            recording.stop();
            recording.dump(jfr);
        }
        List<jdk.jfr.consumer.RecordedEvent> events = jdk.jfr.consumer.RecordingFile.readAllEvents(jfr);
        jdk.jfr.consumer.RecordedEvent wait = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.panlite.LockWait")).findFirst()
                .orElseThrow(() -> new AssertionError("no LockWait event in " + events.size() + " events"));
        assertEquals("timed out", wait.getString("outcome"));
        assertEquals("write gate", wait.getString("lock"));
        assertTrue(wait.getString("file").endsWith("test.db"), wait.getString("file"));
        assertTrue(wait.getLong("nanos") > 0);
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("dev.panlite.Statement")
                && "INSERT INTO t(v) VALUES (?)".equals(e.getString("sql"))), "no Statement event for the insert");
    }

    @Test
    void inMemoryDatabasesHaveNoGate() throws SQLException {
        // two private in-memory databases share nothing: both hold a write transaction at once
        try (Connection a = new Driver().connect("jdbc:sqlite::memory:?busy_timeout=0", null);
                Connection b = new Driver().connect("jdbc:sqlite::memory:?busy_timeout=0", null)) {
            for (Connection c : List.of(a, b)) {
                c.setAutoCommit(false);
                TestDb.exec(c, "CREATE TABLE m(x)", "INSERT INTO m VALUES (1)");
            }
            a.commit();
            b.commit();
        }
    }
}
