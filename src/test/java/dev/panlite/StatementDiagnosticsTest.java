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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statement diagnostics: SQLite's own counters of each execution (sqlite3_stmt_status) become the
 * dev.panlite.StatementCounters JFR event, one WARNING per statement text, per-database counts in
 * PanliteStats (the panlite.statements.* meters) and the public PanliteStatement.counters(). A query
 * that scans a table an index would serve is reported; the same query with the index is not.
 */
class StatementDiagnosticsTest {
    private static final int ROWS = 20_000; // twice fullscan_threshold's default
    private static final String QUERY = "SELECT count(*) FROM t WHERE b = ?";

    @TempDir
    Path dir;

    private Connection open(String name, String query) throws SQLException {
        return new Driver().connect(TestDb.url(dir, name, query), new Properties());
    }

    /** t(a, b, c) with ROWS rows and no index on b. */
    private static void fill(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b INTEGER, c TEXT)");
            s.execute("CREATE TABLE u(x INTEGER, y TEXT)");
            s.executeUpdate("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < " + ROWS + ")"
                    + " INSERT INTO t SELECT i, i % 100, 'row ' || i FROM k");
            s.executeUpdate("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 200)"
                    + " INSERT INTO u SELECT i, 'u ' || i FROM k");
        }
    }

    private static long count(Connection c, String sql, int b) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, b);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getLong(1);
            }
        }
    }

    /** WARNING records of the driver's logger while {@code body} runs, and the JFR events it recorded. */
    private record Seen<T>(T result, List<LogRecord> warnings, List<RecordedEvent> events) {}

    private <T> Seen<T> watch(Callable<T> body) throws Exception {
        List<LogRecord> warnings = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                if (r.getLevel() == Level.WARNING) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger("dev.panlite");
        logger.addHandler(handler);
        Path jfr = dir.resolve("events-" + System.nanoTime() + ".jfr");
        T result;
        try (Recording recording = new Recording()) {
            recording.enable("dev.panlite.StatementCounters");
            recording.start();
            result = body.call();
            recording.stop();
            recording.dump(jfr);
        } finally {
            logger.removeHandler(handler);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("dev.panlite.StatementCounters")).toList();
        synchronized (handler) {
            return new Seen<>(result, List.copyOf(warnings), events);
        }
    }

    @Test
    void aQueryWithoutAnIndexIsWarnedOnceRecordedEachTimeAndCounted() throws Exception {
        try (Connection c = open("scan.db", "")) {
            fill(c);
            PanliteStats before = PanliteStats.snapshot("scan.db");
            Seen<StatementCounters> seen = watch(() -> {
                assertEquals(ROWS / 100, count(c, QUERY, 7));
                try (PreparedStatement ps = c.prepareStatement(QUERY)) {
                    ps.setInt(1, 8);
                    ps.executeQuery().close();
                    return ps.unwrap(PanliteStatement.class).counters();
                }
            });
            PanliteStats after = PanliteStats.snapshot("scan.db");

            List<LogRecord> ours = seen.warnings().stream().filter(r -> r.getMessage().contains(QUERY)).toList();
            assertEquals(1, ours.size(), "one warning per statement text: " + seen.warnings());
            String warning = ours.get(0).getMessage();
            assertTrue(warning.contains("full scan of t") && warning.contains("scan.db") && warning.contains("SCAN t")
                    && warning.contains("CREATE INDEX t_b ON t(b)"), warning);

            List<RecordedEvent> events = seen.events().stream().filter(e -> QUERY.equals(e.getString("sql"))).toList();
            assertEquals(2, events.size(), "an event per execution past the threshold");
            RecordedEvent event = events.get(0);
            assertTrue(event.getLong("fullscanSteps") >= ROWS - 1, event.toString());
            assertEquals("scan.db", event.getString("database"));
            assertTrue(event.getString("plan").contains("SCAN t"), event.getString("plan"));
            assertTrue(event.getString("advice").contains("CREATE INDEX t_b ON t(b)"), event.getString("advice"));
            assertTrue(event.getLong("vmSteps") > event.getLong("fullscanSteps"));
            assertFalse(event.getString("sql").contains("7"), "no parameter values");

            assertTrue(after.fullscanSteps() - before.fullscanSteps() >= 2L * (ROWS - 1));
            assertTrue(after.vmSteps() - before.vmSteps() >= 2L * (ROWS - 1));
            assertEquals(0, after.autoindexes() - before.autoindexes());
            StatementCounters counters = seen.result();
            assertTrue(counters.fullscanSteps() >= ROWS - 1, counters.toString());
            assertTrue(counters.vmSteps() > counters.fullscanSteps() && counters.runs() >= 1, counters.toString());
        }
    }

    @Test
    void theSameQueryWithAnIndexSeesNone() throws Exception {
        try (Connection c = open("indexed.db", "")) {
            fill(c);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE INDEX t_b ON t(b)");
            }
            PanliteStats before = PanliteStats.snapshot("indexed.db");
            Seen<StatementCounters> seen = watch(() -> {
                assertEquals(ROWS / 100, count(c, QUERY, 7));
                try (PreparedStatement ps = c.prepareStatement(QUERY)) {
                    ps.setInt(1, 8);
                    ps.executeQuery().close();
                    return ps.unwrap(PanliteStatement.class).counters();
                }
            });
            PanliteStats after = PanliteStats.snapshot("indexed.db");
            assertEquals(List.of(), seen.warnings().stream().filter(r -> r.getMessage().contains(QUERY)).toList());
            assertEquals(List.of(), seen.events().stream().filter(e -> QUERY.equals(e.getString("sql"))).toList());
            assertEquals(0, after.fullscanSteps() - before.fullscanSteps());
            assertTrue(after.vmSteps() > before.vmSteps(), "its work is still counted");
            assertEquals(0, seen.result().fullscanSteps());
            assertTrue(seen.result().vmSteps() > 0);
        }
    }

    @Test
    void countsArePerDatabaseAndAddUpToTheTotal() throws Exception {
        try (Connection a = open("first.db", ""); Connection b = open("second.db", "")) {
            fill(a);
            fill(b);
            try (Statement s = b.createStatement()) {
                s.execute("CREATE INDEX t_b ON t(b)");
            }
            PanliteStats total = PanliteStats.snapshot();
            PanliteStats first = PanliteStats.snapshot("first.db");
            PanliteStats second = PanliteStats.snapshot("second.db");
            count(a, QUERY, 1);
            count(b, QUERY, 1);
            count(b, QUERY, 2);
            PanliteStats firstAfter = PanliteStats.snapshot("first.db");
            PanliteStats secondAfter = PanliteStats.snapshot("second.db");
            assertTrue(firstAfter.fullscanSteps() - first.fullscanSteps() >= ROWS - 1);
            assertEquals(0, secondAfter.fullscanSteps() - second.fullscanSteps(), "the indexed file scans nothing");
            assertEquals(1, firstAfter.executions() - first.executions());
            assertEquals(2, secondAfter.executions() - second.executions());
            assertEquals(1, firstAfter.connectionsOpen());
            assertEquals(1, secondAfter.connectionsOpen());
            PanliteStats totalAfter = PanliteStats.snapshot();
            assertEquals(3, totalAfter.executions() - total.executions());
            assertEquals(firstAfter.fullscanSteps() - first.fullscanSteps(), totalAfter.fullscanSteps() - total.fullscanSteps());
            assertTrue(PanliteStats.databases().containsAll(List.of("first.db", "second.db")));
            assertEquals(firstAfter, PanliteStats.byDatabase().get("first.db"));
        }
        // closed connections' counts stay with their database
        assertEquals(0, PanliteStats.snapshot("first.db").connectionsOpen());
        assertTrue(PanliteStats.snapshot("first.db").fullscanSteps() >= ROWS - 1);
        try (Connection memory = new Driver().connect("jdbc:sqlite::memory:", new Properties())) {
            assertTrue(PanliteStats.databases().contains("memory"));
            assertTrue(PanliteStats.snapshot("memory").connectionsOpen() >= 1);
        }
        assertEquals(0, PanliteStats.snapshot("no-such.db").executions());
    }

    @Test
    void aDatabaseListenerHearsOfEachDatabaseOnce() throws Exception {
        List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.function.Consumer<String> listener = heard::add;
        PanliteStats.addDatabaseListener(listener);
        try {
            assertTrue(heard.containsAll(PanliteStats.databases()), "those counted so far, at once");
            heard.clear();
            try (Connection c = open("heard.db", ""); Connection again = open("heard.db", "")) {
                assertEquals(List.of("heard.db"), heard);
            }
        } finally {
            PanliteStats.removeDatabaseListener(listener);
        }
        heard.clear();
        open("unheard.db", "").close();
        assertEquals(List.of(), heard);
    }

    @Test
    void aJoinThatBuildsAnAutomaticIndexIsToldWhichIndexToCreate() throws Exception {
        String join = "SELECT count(*) FROM t JOIN u ON u.x = t.b WHERE t.a > ?"; // u.x has no index
        try (Connection c = open("join.db", "fullscan_threshold=0")) { // the scan of t alone is not reported
            fill(c);
            PanliteStats before = PanliteStats.snapshot("join.db");
            Seen<Long> seen = watch(() -> count(c, join, 3));
            assertEquals(ROWS - 3 - ROWS / 100, seen.result(), "rows of t past 3 whose b (a % 100) is in u: not 0");
            List<LogRecord> ours = seen.warnings().stream().filter(r -> r.getMessage().contains(join)).toList();
            assertEquals(1, ours.size(), seen.warnings().toString());
            assertTrue(ours.get(0).getMessage().contains("CREATE INDEX u_x ON u(x)"), ours.get(0).getMessage());
            RecordedEvent event = seen.events().stream().filter(e -> join.equals(e.getString("sql"))).findFirst().orElseThrow();
            assertTrue(event.getLong("autoindexes") > 0 && event.getString("plan").contains("AUTOMATIC"), event.toString());
            assertTrue(PanliteStats.snapshot("join.db").autoindexes() > before.autoindexes());
        }
    }

    @Test
    void sortsAreReportedOnlyWhenAskedFor() throws Exception {
        String sorted = "SELECT c FROM t WHERE a < ? ORDER BY c";
        try (Connection quiet = open("sorts.db", ""); Connection told = open("sorts.db", "sort_threshold=1")) {
            fill(quiet);
            PanliteStats before = PanliteStats.snapshot("sorts.db");
            Seen<StatementCounters> seen = watch(() -> {
                for (Connection c : List.of(quiet, told)) {
                    try (PreparedStatement ps = c.prepareStatement(sorted)) {
                        ps.setInt(1, 50);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                rs.getString(1);
                            }
                        }
                    }
                }
                try (PreparedStatement ps = told.prepareStatement(sorted)) {
                    ps.setInt(1, 50);
                    ResultSet rs = ps.executeQuery();
                    rs.next();
                    return ps.unwrap(PanliteStatement.class).counters(); // the execution in progress
                }
            });
            List<RecordedEvent> events = seen.events().stream().filter(e -> sorted.equals(e.getString("sql"))).toList();
            assertEquals(2, events.size(), "the connection with sort_threshold=1 only: " + events);
            assertEquals(1, events.get(0).getLong("sorts"));
            assertTrue(events.get(0).getString("plan").contains("USE TEMP B-TREE FOR ORDER BY"), events.get(0).getString("plan"));
            assertEquals(List.of(), seen.warnings().stream().filter(r -> r.getMessage().contains(sorted)).toList(),
                    "a sort is an event, not a warning");
            assertEquals(1, seen.result().sorts());
            assertEquals(3, PanliteStats.snapshot("sorts.db").sorts() - before.sorts());
        }
    }

    @Test
    void thresholdsAtZeroReportNothingAndTheSwitchStopsTheCounting() throws Exception {
        String scan = "SELECT count(*) FROM t WHERE c = ?";
        try (Connection counted = open("switch.db", "fullscan_threshold=0&autoindex_threshold=0");
                Connection off = open("switch.db", "statement_diagnostics=false")) {
            fill(counted);
            PanliteStats before = PanliteStats.snapshot("switch.db");
            Seen<StatementCounters> seen = watch(() -> {
                try (PreparedStatement ps = counted.prepareStatement(scan)) {
                    ps.setString(1, "row 5");
                    ps.executeQuery().close();
                }
                try (PreparedStatement ps = off.prepareStatement(scan)) {
                    ps.setString(1, "row 5");
                    ps.executeQuery().close();
                    ps.executeQuery().close();
                    return ps.unwrap(PanliteStatement.class).counters(); // never zeroed: both executions
                }
            });
            assertEquals(List.of(), seen.warnings().stream().filter(r -> r.getMessage().contains(scan)).toList());
            assertEquals(List.of(), seen.events().stream().filter(e -> scan.equals(e.getString("sql"))).toList());
            long counted1 = PanliteStats.snapshot("switch.db").fullscanSteps() - before.fullscanSteps();
            assertTrue(counted1 >= ROWS - 1 && counted1 < 2L * (ROWS - 1), "only the counting connection: " + counted1);
            assertTrue(seen.result().fullscanSteps() >= 2L * (ROWS - 1), seen.result().toString());
        }
    }

    @Test
    void theWarningNamesTheTableBehindAnAliasAndTheColumnTested() throws Exception {
        String aliased = "SELECT o.a FROM t AS o WHERE o.c = ?";
        try (Connection c = open("alias.db", "")) {
            fill(c);
            Seen<Integer> seen = watch(() -> {
                try (PreparedStatement ps = c.prepareStatement(aliased)) {
                    ps.setString(1, "row 17");
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        int a = rs.getInt(1);
                        assertFalse(rs.next()); // read to the end: the scan went through the whole table
                        return a;
                    }
                }
            });
            assertEquals(17, seen.result());
            List<LogRecord> ours = seen.warnings().stream().filter(r -> r.getMessage().contains(aliased)).toList();
            assertEquals(1, ours.size(), seen.warnings().toString());
            String warning = ours.get(0).getMessage();
            assertTrue(warning.contains("full scan of t ") && warning.contains("SCAN o"), warning);
            assertTrue(warning.contains("CREATE INDEX t_c ON t(c)"), warning);
        }
    }

    @Test
    void aPlainStatementReadsTheCountersOfItsQuery() throws Exception {
        try (Connection c = open("plain.db", "fullscan_threshold=0"); Statement s = c.createStatement()) {
            fill(c);
            assertEquals(new StatementCounters(0, 0, 0, 0, 0, 0, 0), s.unwrap(PanliteStatement.class).counters());
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE c = 'row 9'")) {
                assertTrue(rs.next());
            }
            StatementCounters read = s.unwrap(PanliteStatement.class).counters();
            assertTrue(read.fullscanSteps() >= ROWS - 1, read.toString());
            assertTrue(s.isWrapperFor(PanliteStatement.class));
            s.close();
            assertThrows(SQLException.class, () -> s.unwrap(PanliteStatement.class).counters());
        }
    }
}
