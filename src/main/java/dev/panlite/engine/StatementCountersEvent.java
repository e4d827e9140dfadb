package dev.panlite.engine;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR: one statement execution whose SQLite counters passed a threshold of its connection
 * ({@code fullscan_threshold}, {@code sort_threshold}, {@code autoindex_threshold}): a full scan an
 * index would avoid, a sort, an automatic index. Committed where the statement is reset (its stack
 * trace shows the code that ran it), with the statement's text (never its parameter values), its
 * counters and its query plan. Used only through {@link JfrEvents}, which knows whether the runtime
 * has jdk.jfr.
 */
@Name("dev.panlite.StatementCounters")
@Label("SQLite Statement Counters")
@Category({"Panlite", "SQLite"})
@Description("A statement execution that scanned, sorted or built an automatic index past the connection's thresholds")
final class StatementCountersEvent extends Event {
    /** Never committed: asks whether a recording enabled the event type, before any plan is asked for. */
    private static final StatementCountersEvent PROBE = new StatementCountersEvent();

    static boolean enabled() {
        return PROBE.isEnabled();
    }

    static void commit(StatementDiagnostics.Report r, String plan, String advice, String database, String file) {
        StatementCountersEvent event = new StatementCountersEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.sql = r.sql();
        event.database = database;
        event.file = file;
        event.fullscanSteps = r.fullscanSteps();
        event.sorts = r.sorts();
        event.autoindexes = r.autoindexes();
        event.vmSteps = r.vmSteps();
        event.reprepares = r.reprepares();
        event.runs = r.runs();
        event.memoryUsed = r.memoryUsed();
        event.plan = plan;
        event.advice = advice;
        event.commit();
    }

    @Label("SQL")
    @Description("The statement's text, without parameter values")
    String sql;

    @Label("Database")
    @Description("The file's name, or memory: the database tag of the panlite.* meters")
    String database;

    @Label("File")
    String file;

    @Label("Full-Scan Steps")
    @Description("Rows a full table or index scan stepped through (SQLITE_STMTSTATUS_FULLSCAN_STEP)")
    long fullscanSteps;

    @Label("Sorts")
    @Description("Sort operations (SQLITE_STMTSTATUS_SORT): an index in ORDER BY or GROUP BY order avoids them")
    long sorts;

    @Label("Automatic Index Rows")
    @Description("Rows put into indexes SQLite built for this execution alone (SQLITE_STMTSTATUS_AUTOINDEX)")
    long autoindexes;

    @Label("VM Steps")
    @Description("Virtual machine operations run: the statement's work (SQLITE_STMTSTATUS_VM_STEP)")
    long vmSteps;

    @Label("Reprepares")
    @Description("Times SQLite re-prepared the statement after a schema change, since it was prepared")
    long reprepares;

    @Label("Runs")
    @Description("Executions since the statement was prepared")
    long runs;

    @Label("Memory Used")
    @DataAmount
    long memoryUsed;

    @Label("Query Plan")
    @Description("EXPLAIN QUERY PLAN, as the sqlite3 shell draws it")
    String plan;

    @Label("Advice")
    @Description("The table scanned and the index that would avoid it")
    String advice;
}
