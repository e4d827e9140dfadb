package dev.panlite.engine;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What SQLite itself counted for each statement execution ({@code sqlite3_stmt_status}): full-scan
 * steps, sorts, automatic indexes and VM steps, read and zeroed where the statement is reset,
 * returned to the cache or finalized ({@link Stmt}), so each read covers one execution. One per
 * connection; every method runs with its lock held.
 *
 * <p>The hot path is four short downcalls and a few additions per execution: the counts go to the
 * connection's {@link EngineStats.Counters} (metrics, per database) and stay with the statement
 * (its public read). Only an execution that passes a threshold ({@code fullscan_threshold},
 * {@code sort_threshold}, {@code autoindex_threshold}) goes further, after its reset: a
 * {@code dev.panlite.StatementCounters} JFR event when a recording wants one, and a WARNING naming the
 * table scanned, once per statement text. Both carry the query plan, asked once per text
 * ({@code EXPLAIN QUERY PLAN}, kept for the JVM).
 *
 * <p>Statements the native helper runs whole inside one downcall (Statement.execute of a text that
 * returns no rows, inside a transaction or on an in-memory database) are prepared and finalized in C
 * and never seen here; neither are BEGIN, COMMIT and ROLLBACK, which never scan.
 */
public final class StatementDiagnostics {
    /**
     * The URL settings: {@code statement_diagnostics}, and the thresholds per execution from which a
     * statement is reported ({@code fullscan_threshold}, {@code sort_threshold},
     * {@code autoindex_threshold}; 0 turns that report off).
     */
    public record Settings(boolean enabled, int fullscanThreshold, int sortThreshold, int autoindexThreshold) {}

    /** One execution that passed a threshold: its counters, read before its reset. */
    record Report(String sql, int fullscanSteps, int sorts, int autoindexes, int vmSteps, int reprepares, int runs,
            int memoryUsed) {}

    /** A statement text's query plan as SQLite's shell draws it, the tables it scans, and what would avoid that. */
    record Plan(String text, List<String> scanned, String advice) {}

    private static final System.Logger LOG = System.getLogger("dev.panlite");
    /** Statement texts whose plan is kept, and texts warned about, per JVM: bounded, for applications that splice values into SQL. */
    static final int MAX_TEXTS = 1024;
    private static final ConcurrentHashMap<String, Plan> PLANS = new ConcurrentHashMap<>();
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private final Database db;
    private final EngineStats.Counters counts;
    private final boolean enabled;
    private final int fullscanAt; // Integer.MAX_VALUE: that report is off
    private final int sortAt;
    private final int autoindexAt;
    private final Settings settings;
    private final String file; // the main file ("" in memory), for events
    private final String key; // plans and warnings are per file; per connection for an in-memory database

    StatementDiagnostics(Database db, Settings settings, EngineStats.Counters counts, String file) {
        this.db = db;
        this.settings = settings;
        this.counts = counts;
        this.enabled = settings.enabled();
        this.fullscanAt = at(settings.fullscanThreshold());
        this.sortAt = at(settings.sortThreshold());
        this.autoindexAt = at(settings.autoindexThreshold());
        this.file = file;
        this.key = file.isEmpty() ? "memory@" + System.identityHashCode(db) : file;
    }

    private static int at(int threshold) {
        return threshold <= 0 ? Integer.MAX_VALUE : threshold;
    }

    /** Whether the counters are read at all (statement_diagnostics). */
    boolean enabled() {
        return enabled;
    }

    /**
     * The execution of {@code s} is over (it is about to be reset or finalized; its handle is live and
     * no downcall on it is running): reads and zeroes SQLite's counters, keeps them with the statement
     * and adds them to the connection's counts. Returns what to report once the reset is done when the
     * execution passed a threshold, else null.
     */
    Report ended(Stmt s) {
        if (!enabled || s.internal) {
            return null;
        }
        long h = s.handle;
        int scan = Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_FULLSCAN_STEP, true);
        int sorts = Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_SORT, true);
        int autoindexes = Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_AUTOINDEX, true);
        int vm = Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_VM_STEP, true);
        s.fullscanSteps = scan;
        s.sorts = sorts;
        s.autoindexes = autoindexes;
        s.vmSteps = vm;
        EngineStats.Counters c = counts;
        c.fullscanSteps += scan;
        c.sorts += sorts;
        c.autoindexes += autoindexes;
        c.vmSteps += vm;
        if (scan < fullscanAt && sorts < sortAt && autoindexes < autoindexAt) {
            return null;
        }
        return new Report(s.sql, scan, sorts, autoindexes, vm, Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_REPREPARE, false),
                Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_RUN, false), Sqlite.stmtStatus(h, Sqlite.STMTSTATUS_MEMUSED, false));
    }

    /**
     * After the reset (or finalize) of a statement {@link #ended} returned {@code r} for, which
     * returned {@code rc}: the JFR event, and the warning once per text. Nothing when the reset
     * reported an error (the caller may still read SQLite's message for it) or the connection is
     * closing. Asking for the plan prepares a statement, so it runs only here, never mid-execution.
     */
    void report(Report r, int rc) {
        if (rc != Sqlite.OK || db.isClosed()) {
            return;
        }
        boolean jfr = JfrEvents.statementCountersWanted();
        String warnKey = r.fullscanSteps() >= fullscanAt || r.autoindexes() >= autoindexAt ? key + '\0' + r.sql() : null;
        boolean warn = warnKey != null && WARNED.size() < MAX_TEXTS && !WARNED.contains(warnKey);
        if (!jfr && !warn) {
            return;
        }
        Plan plan = plan(r.sql());
        String name = counts.database.name;
        if (jfr) {
            JfrEvents.statementCounters(r, plan.text(), plan.advice(), name, file);
        }
        if (warn && WARNED.add(warnKey)) {
            LOG.log(System.Logger.Level.WARNING, warning(r, plan, name));
        }
    }

    private String warning(Report r, Plan plan, String name) {
        StringBuilder m = new StringBuilder("Panlite: ").append(r.sql());
        if (r.fullscanSteps() >= fullscanAt) {
            m.append(" stepped through ").append(r.fullscanSteps()).append(" rows of a full scan");
            m.append(plan.scanned().isEmpty() ? "" : " of " + String.join(", ", plan.scanned()));
        } else {
            m.append(" made SQLite build an automatic index of ").append(r.autoindexes()).append(" rows");
        }
        return m.append(" in ").append(name).append(" (").append(plan.text().replace("\n", " ")).append("). ")
                .append(plan.advice()).append(" Logged once per statement text; fullscan_threshold=")
                .append(settings.fullscanThreshold()).append(", autoindex_threshold=")
                .append(settings.autoindexThreshold()).append(" (0: off).").toString();
    }

    // ------------------------------------------------------------------ the query plan (slow path)

    private Plan plan(String sql) {
        String k = key + '\0' + sql;
        Plan p = PLANS.get(k);
        if (p == null) {
            p = explain(sql);
            if (PLANS.size() >= MAX_TEXTS) {
                PLANS.clear(); // the next reports ask again: bounded memory for texts that are all different
            }
            PLANS.put(k, p);
        }
        return p;
    }

    private static final Pattern SCAN = Pattern.compile("^SCAN (?:TABLE )?(\\S+)(.*)$");
    private static final Pattern AUTOMATIC = Pattern.compile("^SEARCH (?:TABLE )?(\\S+) USING AUTOMATIC (?:PARTIAL )?(?:COVERING )?INDEX \\(([^)]*)\\)");
    private static final Pattern TERM_COLUMN = Pattern.compile("([^\\s=<>!]+)\\s*(?:=|>|<|!|IS |IN )");

    /** EXPLAIN QUERY PLAN of {@code sql} on this connection: drawn, with the tables it scans and the indexes it lacks. */
    private Plan explain(String sql) {
        List<int[]> nodes = new ArrayList<>(); // {id, parent}
        List<String> details = new ArrayList<>();
        String failure = null;
        Scratch scratch = db.scratch();
        byte[] text = ("EXPLAIN QUERY PLAN " + sql).getBytes(StandardCharsets.UTF_8);
        int rc = scratch.prepare(db.handle(), text, 0, text.length, 0);
        long h = scratch.preparedStmt();
        if (rc != Sqlite.OK || h == 0) {
            failure = rc != Sqlite.OK ? Sqlite.errmsg(db.handle()) : "no statement";
        } else {
            try {
                while ((rc = Sqlite.step(h)) == Sqlite.ROW) {
                    nodes.add(new int[] {Sqlite.columnInt(h, 0), Sqlite.columnInt(h, 1)});
                    String detail = Sqlite.columnText(h, 3);
                    details.add(detail == null ? "" : detail);
                }
                if (rc != Sqlite.DONE) {
                    failure = Sqlite.errmsg(db.handle());
                }
            } finally {
                Sqlite.finalizeStmt(h);
            }
        }
        StringBuilder drawn = new StringBuilder("QUERY PLAN");
        draw(nodes, details, 0, "", drawn);
        if (failure != null) {
            drawn.append("\n(plan incomplete: ").append(failure).append(')');
        }
        Set<String> scanned = new LinkedHashSet<>();
        List<String> advice = new ArrayList<>();
        for (String detail : details) {
            Matcher scan = SCAN.matcher(detail);
            if (scan.matches() && !detail.startsWith("SCAN CONSTANT ROW") && !scan.group(1).startsWith("(")
                    && !scan.group(2).contains("VIRTUAL TABLE")) {
                String table = tableOf(sql, scan.group(1));
                if (table != null && scanned.add(table)) {
                    List<String> columns = testedColumns(sql, table, scan.group(1));
                    advice.add(columns.isEmpty()
                            ? "An index on " + table + " for the columns this statement filters or joins it by would"
                                    + " avoid the scan (CREATE INDEX ... ON " + table + "(those columns))."
                            : "An index on the columns of " + table + " that the statement tests would let SQLite search"
                                    + " instead of scanning, e.g. " + createIndex(table, columns) + ".");
                }
            }
            Matcher automatic = AUTOMATIC.matcher(detail);
            if (automatic.find()) {
                String table = tableOf(sql, automatic.group(1));
                List<String> columns = new ArrayList<>();
                Matcher term = TERM_COLUMN.matcher(automatic.group(2));
                while (term.find()) {
                    columns.add(term.group(1));
                }
                if (table != null && !columns.isEmpty()) {
                    advice.add("SQLite builds an automatic index on " + table + "(" + String.join(", ", columns)
                            + ") at each execution: " + createIndex(table, columns) + " would keep one.");
                }
            }
        }
        if (advice.isEmpty()) {
            advice.add("No table of its own is scanned (a subquery, a view's or CTE's rows, a virtual table): see the plan.");
        }
        return new Plan(drawn.toString(), List.copyOf(scanned), String.join(" ", advice));
    }

    /** The children of {@code parent}, as the sqlite3 shell draws them ("|--" and "`--"). */
    private static void draw(List<int[]> nodes, List<String> details, int parent, String indent, StringBuilder out) {
        List<Integer> children = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i)[1] == parent && nodes.get(i)[0] != parent) {
                children.add(i);
            }
        }
        for (int j = 0; j < children.size(); j++) {
            boolean last = j == children.size() - 1;
            int i = children.get(j);
            out.append('\n').append(indent).append(last ? "`--" : "|--").append(details.get(i));
            draw(nodes, details, nodes.get(i)[0], indent + (last ? "   " : "|  "), out);
        }
    }

    private static String createIndex(String table, List<String> columns) {
        return "CREATE INDEX " + (table + "_" + String.join("_", columns)).replace("\"", "") + " ON " + table + "("
                + String.join(", ", columns) + ")";
    }

    /** A column tested in the text ({@code name = ?}, {@code alias.name IN (...)}, {@code name > 5}). */
    private static final Pattern TESTED = Pattern.compile("(?i)(?:(\"[^\"]+\"|[A-Za-z_][\\w$]*)\\s*\\.\\s*)?"
            + "(\"[^\"]+\"|[A-Za-z_][\\w$]*)\\s*(?:==?|<>|!=|<=?|>=?|\\bIN\\b|\\bIS\\b|\\bBETWEEN\\b|\\bLIKE\\b|\\bGLOB\\b)");

    /**
     * The columns of {@code table} (called {@code planName} in the plan: itself or an alias) that the
     * text after its FROM compares with something, in order, at most three: a guess for the index
     * the warning suggests, each checked to be a column of the table by preparing a read of it. Lock held.
     */
    private List<String> testedColumns(String sql, String table, String planName) {
        int from = sql.toUpperCase(java.util.Locale.ROOT).indexOf("FROM");
        List<String> columns = new ArrayList<>();
        Matcher m = TESTED.matcher(from < 0 ? sql : sql.substring(from));
        while (m.find() && columns.size() < 3) {
            String qualifier = m.group(1) == null ? null : m.group(1).replace("\"", "");
            String column = m.group(2);
            if (qualifier != null && !qualifier.equalsIgnoreCase(planName) && !qualifier.equalsIgnoreCase(table.replace("\"", ""))) {
                continue; // another table's column
            }
            String bare = column.replace("\"", "");
            if (columns.stream().noneMatch(c -> c.replace("\"", "").equalsIgnoreCase(bare))
                    && prepares("SELECT " + quoted(table) + "." + SqlText.quoteIdentifier(bare) + " FROM " + quoted(table)
                            + " LIMIT 0")) { // qualified: never a string literal, whatever dqs_dml says
                columns.add(bare.matches("[A-Za-z_][\\w$]*") ? bare : SqlText.quoteIdentifier(bare));
            }
        }
        return columns;
    }

    private static String quoted(String table) {
        return table.startsWith("\"") || table.contains(".") ? table : SqlText.quoteIdentifier(table);
    }

    /** Whether {@code sql} prepares on this connection (the statement is finalized at once). Lock held. */
    private boolean prepares(String sql) {
        byte[] probe = sql.getBytes(StandardCharsets.UTF_8);
        Scratch scratch = db.scratch();
        int rc = scratch.prepare(db.handle(), probe, 0, probe.length, 0);
        long h = scratch.preparedStmt();
        if (h != 0) {
            Sqlite.finalizeStmt(h);
        }
        return rc == Sqlite.OK && h != 0;
    }

    /**
     * The table the plan calls {@code name}: the name itself, or the table it aliases in the text
     * ({@code FROM orders o}); null when neither prepares as a table (a CTE, a subquery). Lock held.
     */
    private String tableOf(String sql, String name) {
        String candidate = name;
        Matcher alias = Pattern.compile("(?i)(?:\\bFROM|\\bJOIN|,)\\s+((?:\"[^\"]+\"|[\\w$]+)(?:\\.(?:\"[^\"]+\"|[\\w$]+))?)"
                + "\\s+(?:AS\\s+)?\"?" + Pattern.quote(name) + "\"?(?![\\w$])").matcher(sql);
        if (alias.find() && !alias.group(1).equalsIgnoreCase(name)) {
            candidate = alias.group(1);
        }
        return prepares("SELECT 1 FROM " + quoted(candidate) + " LIMIT 0") ? candidate : null;
    }
}
