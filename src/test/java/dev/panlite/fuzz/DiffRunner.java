package dev.panlite.fuzz;

import dev.panlite.fuzz.DiffPath.Getters;
import dev.panlite.fuzz.DiffPath.Where;
import dev.panlite.fuzz.DiffScenario.Batch;
import dev.panlite.fuzz.DiffScenario.Close;
import dev.panlite.fuzz.DiffScenario.Dump;
import dev.panlite.fuzz.DiffScenario.Exec;
import dev.panlite.fuzz.DiffScenario.MultiUpdate;
import dev.panlite.fuzz.DiffScenario.Op;
import dev.panlite.fuzz.DiffScenario.Open;
import dev.panlite.fuzz.DiffScenario.Read;
import dev.panlite.fuzz.DiffScenario.Reopen;
import dev.panlite.fuzz.DiffScenario.TextBatch;
import dev.panlite.fuzz.DiffScenario.Tx;
import dev.panlite.fuzz.DiffScenario.Update;
import dev.panlite.fuzz.DiffTranscript.Context;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * Runs one program ({@link DiffScenario}) on one database file through one read path
 * ({@link DiffPath}) and writes what it saw into a {@link DiffTranscript}. After the last operation
 * it closes the connection and dumps the file from a new one (what was really committed).
 */
final class DiffRunner {
    /** Rows read by one "to the end" read at most, and exceptions from next() before it gives up. */
    private static final int MAX_NEXT = 20_000;
    private static final int MAX_NEXT_ERRORS = 3;

    private final DiffPath path;
    private final String url;
    private final DiffTranscript out = new DiffTranscript();
    private final Map<Integer, Cursor> cursors = new LinkedHashMap<>();
    private final Map<String, Savepoint> savepoints = new HashMap<>();
    private final Random getterOrder;
    private Connection conn;
    private int op; // the operation running

    /** An open cursor and what happened to its transaction while it was open. */
    private static final class Cursor {
        Statement statement;
        ResultSet rs;
        int columns;
        boolean[] uniqueLabel;
        String[] labels;
        long rows;
        boolean crossed; // a commit, rollback or rollback-to ran while it was open
        boolean writtenUnder; // its connection wrote while it was open
        boolean fetchSizeDue; // AFTER_FIRST_ROW: set after the first row
        int classChecks; // rows whose getColumnClassName was checked
    }

    private DiffRunner(DiffPath path, String url) {
        this.path = path;
        this.url = url;
        this.getterOrder = new Random(path.getterSeed());
    }

    /** Runs {@code scenario} on the file of {@code url}. */
    static DiffTranscript run(DiffScenario scenario, DiffPath path, String url) {
        DiffRunner runner = new DiffRunner(path, url);
        boolean wasBatching = RowBatches.enabled();
        RowBatches.set(!path.inPlace() && wasBatching);
        try {
            runner.runAll(scenario.ops());
        } finally {
            RowBatches.set(wasBatching);
        }
        return runner.out;
    }

    private Connection open() throws SQLException {
        String u = url;
        if (path.noCache()) {
            u += (u.contains("?") ? "&" : "?") + "stmt_cache_size=0";
        }
        return new dev.panlite.Driver().connect(u, new Properties());
    }

    private void runAll(List<Op> ops) {
        op = -1;
        try {
            conn = open();
        } catch (SQLException e) {
            out.add(-1, "open " + exception(e), e.getMessage(), Context.NONE);
            return;
        }
        for (int i = 0; i < ops.size(); i++) {
            op = i;
            try {
                run(ops.get(i));
            } catch (SQLException e) {
                out.add(op, "op " + exception(e), e.getMessage(), Context.NONE);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                unexpected("operation " + ops.get(i).shown(), e);
            }
        }
        op = ops.size();
        closeAll();
        try {
            conn.close();
        } catch (SQLException e) {
            out.add(op, "close " + exception(e), e.getMessage(), Context.NONE);
        } catch (RuntimeException e) {
            unexpected("Connection.close()", e);
        }
        // what was committed, read by a new connection
        try (Connection fresh = new dev.panlite.Driver().connect(url, new Properties())) {
            dump(fresh, "final");
        } catch (SQLException e) {
            out.add(op, "final " + exception(e), e.getMessage(), Context.NONE);
        } catch (RuntimeException e) {
            unexpected("the final dump", e);
        }
    }

    private void unexpected(String where, Throwable e) {
        // the throwing frame, then the driver's frames (the JDK's own in between say little)
        StackTraceElement[] trace = e.getStackTrace();
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < trace.length && frames.size() < 10; i++) {
            if (i == 0 || trace[i].getClassName().startsWith("dev.panlite.") && !trace[i].getClassName().startsWith("dev.panlite.fuzz.")) {
                frames.add(trace[i].toString());
            }
        }
        String top = String.join("\n        at ", frames);
        out.add(op, "UNEXPECTED " + e.getClass().getName(), String.valueOf(e.getMessage()), Context.NONE);
        out.absolute.add(new DiffTranscript.Absolute(op, "unexpected",
                where + " threw " + e + " (not an SQLException)\n        at " + top));
    }

    private void run(Op o) throws SQLException {
        switch (o) {
            case Open x -> openCursor(x);
            case Read x -> read(x);
            case Close x -> close(x.cur());
            case Update x -> update(x);
            case Batch x -> batch(x);
            case TextBatch x -> textBatch(x);
            case Exec x -> exec(x);
            case MultiUpdate x -> multiUpdate(x);
            case Tx x -> tx(x);
            case Dump x -> dump(conn, "dump");
            case Reopen x -> {
                closeAll();
                conn.close();
                savepoints.clear();
                conn = open();
                out.add(op, "reopened", Context.NONE);
            }
        }
    }

    // ------------------------------------------------------------------ cursors

    private Statement statement(String sql, boolean hasParams, int holdability) throws SQLException {
        if (hasParams || path.prepared()) {
            return conn.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
        }
        return conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    private void openCursor(Open o) throws SQLException {
        DiffScenario.Query q = o.query();
        Cursor c = new Cursor();
        String name = "c" + o.cur();
        try {
            c.statement = statement(q.sql(), !q.params().isEmpty(), o.holdability());
            if (o.maxRows() > 0) {
                c.statement.setMaxRows(o.maxRows());
            }
            if (path.fetchSize() != 0 && path.where() == Where.STATEMENT) {
                c.statement.setFetchSize(path.fetchSize());
            }
            boolean isRs;
            if (c.statement instanceof PreparedStatement ps) {
                for (int i = 0; i < q.params().size(); i++) {
                    q.params().get(i).bindTo(ps, i + 1);
                }
                if (path.executeQuery()) {
                    c.rs = ps.executeQuery();
                    isRs = true;
                } else {
                    isRs = ps.execute();
                    c.rs = ps.getResultSet();
                }
            } else if (path.executeQuery()) {
                c.rs = c.statement.executeQuery(q.sql());
                isRs = true;
            } else {
                isRs = c.statement.execute(q.sql());
                c.rs = c.statement.getResultSet();
            }
            if (!isRs || c.rs == null) {
                out.add(op, name + " no result set: execute=" + isRs + " count=" + c.statement.getUpdateCount(), Context.NONE);
                c.statement.close();
                return;
            }
        } catch (SQLException e) {
            out.add(op, name + " open " + exception(e), e.getMessage(), Context.NONE);
            if (c.statement != null) {
                c.statement.close();
            }
            return;
        }
        if (path.fetchSize() != 0 && path.where() == Where.RESULT_SET) {
            c.rs.setFetchSize(path.fetchSize());
        }
        c.fetchSizeDue = path.fetchSize() != 0 && path.where() == Where.AFTER_FIRST_ROW;
        describe(c, name);
        cursors.put(o.cur(), c);
    }

    /** The result's columns: count, labels, declared types and JDBC types (a hash of them when wide). */
    private void describe(Cursor c, String name) throws SQLException {
        ResultSetMetaData md = c.rs.getMetaData();
        int n = md.getColumnCount();
        c.columns = n;
        c.labels = new String[n];
        StringBuilder b = new StringBuilder();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 1; i <= n; i++) {
            String label = md.getColumnLabel(i);
            c.labels[i - 1] = label;
            seen.merge(label.toLowerCase(Locale.ROOT), 1, Integer::sum);
            b.append(i == 1 ? "" : ", ").append(label).append(' ').append(md.getColumnTypeName(i)).append('/')
                    .append(md.getColumnType(i));
        }
        c.uniqueLabel = new boolean[n];
        for (int i = 0; i < n; i++) {
            c.uniqueLabel[i] = seen.get(c.labels[i].toLowerCase(Locale.ROOT)) == 1;
        }
        String columns = n > 24 ? "hash " + hash(b.toString()) : b.toString();
        out.add(op, name + " columns " + n + ": " + columns, Context.NONE);
    }

    private Context context(Cursor c) {
        return c.crossed ? Context.CROSSED : c.writtenUnder ? Context.WRITTEN_UNDER : Context.NONE;
    }

    private void read(Read r) throws SQLException {
        Cursor c = cursors.get(r.cur());
        if (c == null) {
            return; // its open failed (in every run alike), or shrinking dropped it
        }
        readRows(c, "c" + r.cur(), r.n(), Context.NONE);
    }

    /** Calls next() {@code n} times (n < 0: to the end), reading every row it lands on. */
    private void readRows(Cursor c, String name, int n, Context fixed) {
        int calls = n < 0 ? MAX_NEXT : n;
        int errors = 0;
        for (int i = 0; i < calls; i++) {
            Context ctx = fixed != Context.NONE ? fixed : context(c);
            boolean more;
            try {
                more = c.rs.next();
            } catch (SQLException e) {
                out.add(op, name + " next " + exception(e), e.getMessage(), ctx);
                if (++errors >= MAX_NEXT_ERRORS) {
                    return;
                }
                continue;
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                unexpected(name + ".next()", e);
                return;
            }
            if (!more) {
                out.add(op, name + " end after " + c.rows + " rows", ctx);
                return;
            }
            c.rows++;
            out.row(op, name + " row " + c.rows, cells(c), ctx);
            checkClassNames(c, name);
            if (c.fetchSizeDue) {
                c.fetchSizeDue = false;
                try {
                    c.rs.setFetchSize(path.fetchSize());
                } catch (SQLException e) {
                    out.add(op, name + " setFetchSize " + exception(e), e.getMessage(), ctx);
                }
            }
        }
    }

    /** Every value of the current row by the path's getters: [column][getter]. */
    private String[][] cells(Cursor c) {
        String[][] cells = new String[c.columns][];
        for (int col = 0; col < c.columns; col++) {
            cells[col] = new String[DiffPath.GETTERS.length];
            for (int g : getters()) {
                cells[col][g] = get(c, col, g);
            }
        }
        return cells;
    }

    private static final int[] ALL = {0, 1, 2, 3, 4, 5, 6, 7};

    private int[] getters() {
        Getters g = path.getters();
        if (g == Getters.ALL) {
            return ALL;
        }
        if (g == Getters.OBJECT) {
            return new int[] {0};
        }
        if (g == Getters.STRING) {
            return new int[] {1};
        }
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7));
        Collections.shuffle(order, getterOrder);
        int k = 1 + getterOrder.nextInt(order.size());
        return order.subList(0, k).stream().mapToInt(Integer::intValue).toArray();
    }

    private String get(Cursor c, int col, int getter) {
        ResultSet rs = c.rs;
        // by label only on narrow results: findColumn looks a label up by a scan of the columns
        boolean label = path.byLabel() && c.uniqueLabel[col] && c.columns <= 64;
        int i = col + 1;
        String l = c.labels[col];
        try {
            Object v = switch (getter) {
                case 0 -> label ? rs.getObject(l) : rs.getObject(i);
                case 1 -> label ? rs.getString(l) : rs.getString(i);
                case 2 -> label ? rs.getLong(l) : rs.getLong(i);
                case 3 -> label ? rs.getInt(l) : rs.getInt(i);
                case 4 -> label ? rs.getDouble(l) : rs.getDouble(i);
                case 5 -> label ? rs.getBytes(l) : rs.getBytes(i);
                case 6 -> label ? rs.getBigDecimal(l) : rs.getBigDecimal(i);
                default -> label ? rs.getBoolean(l) : rs.getBoolean(i);
            };
            return canon(v) + (rs.wasNull() ? "~" : "");
        } catch (SQLException e) {
            return exception(e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            unexpected("the getter " + DiffPath.GETTERS[getter] + " of column " + i, e);
            return "UNEXPECTED " + e.getClass().getName();
        }
    }

    /**
     * getColumnClassName must name a class that getObject's value is an instance of (JDBC), asked on
     * the row (a column's values may differ in storage class) for the first rows of each cursor.
     */
    private void checkClassNames(Cursor c, String name) {
        if (c.classChecks >= 2 || c.classChecks < 0) {
            return;
        }
        c.classChecks++;
        try {
            ResultSetMetaData md = c.rs.getMetaData();
            for (int i = 1; i <= c.columns; i++) {
                String named = md.getColumnClassName(i);
                Object v = c.rs.getObject(i);
                if (v == null || named.equals("java.lang.Object")) {
                    continue;
                }
                Class<?> cls;
                try {
                    cls = Class.forName(named);
                } catch (ClassNotFoundException e) {
                    cls = null;
                }
                if (cls == null || !cls.isInstance(v)) {
                    out.absolute.add(new DiffTranscript.Absolute(op, "class-name", name + " column " + i + " ("
                            + md.getColumnLabel(i) + ", declared " + md.getColumnTypeName(i) + "): getColumnClassName says "
                            + named + ", getObject returned " + v.getClass().getName() + " " + canon(v)));
                    c.classChecks = -1; // once per cursor
                    return;
                }
            }
        } catch (SQLException e) {
            out.add(op, name + " metadata " + exception(e), e.getMessage(), context(c));
        }
    }

    private void close(int cur) throws SQLException {
        Cursor c = cursors.remove(cur);
        if (c != null) {
            c.rs.close();
            c.statement.close();
        }
    }

    private void closeAll() {
        for (Map.Entry<Integer, Cursor> e : new ArrayList<>(cursors.entrySet())) {
            try {
                close(e.getKey());
            } catch (SQLException x) {
                out.add(op, "c" + e.getKey() + " close " + exception(x), x.getMessage(), Context.NONE);
            } catch (RuntimeException x) {
                unexpected("closing c" + e.getKey(), x);
            }
        }
        cursors.clear();
    }

    // ------------------------------------------------------------------ writes and transactions

    /** What an executed text does to the cursors still open. */
    private void touched(String sql) {
        String s = sql.strip().toUpperCase(Locale.ROOT);
        // RELEASE is neither: it changes no data (and ends the transaction only when it began it, in auto-commit)
        boolean ends = s.startsWith("COMMIT") || s.startsWith("END") || s.startsWith("ROLLBACK");
        boolean writes = !ends && !s.startsWith("BEGIN") && !s.startsWith("SAVEPOINT") && !s.startsWith("RELEASE")
                && !s.startsWith("SELECT");
        for (Cursor c : cursors.values()) {
            c.crossed |= ends;
            c.writtenUnder |= writes;
        }
    }

    private void update(Update u) throws SQLException {
        touched(u.sql());
        try (Statement st = statement(u.sql(), !u.params().isEmpty(), ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
            long count;
            if (st instanceof PreparedStatement ps) {
                for (int i = 0; i < u.params().size(); i++) {
                    u.params().get(i).bindTo(ps, i + 1);
                }
                count = ps.executeUpdate();
            } else {
                count = st.executeUpdate(u.sql());
            }
            out.add(op, "update count " + count, Context.NONE);
        } catch (SQLException e) {
            out.add(op, "update " + exception(e), e.getMessage(), Context.NONE);
        }
    }

    private void batch(Batch b) throws SQLException {
        touched(b.sql());
        try (PreparedStatement ps = conn.prepareStatement(b.sql())) {
            for (List<DiffValue> row : b.rows()) {
                for (int i = 0; i < row.size(); i++) {
                    row.get(i).bindTo(ps, i + 1);
                }
                ps.addBatch();
            }
            out.add(op, "batch counts " + counts(ps.executeBatch()), Context.NONE);
        } catch (BatchUpdateException e) {
            out.add(op, "batch " + exception(e) + " counts " + counts(e.getUpdateCounts()), e.getMessage(), Context.NONE);
        } catch (SQLException e) {
            out.add(op, "batch " + exception(e), e.getMessage(), Context.NONE);
        }
    }

    private void textBatch(TextBatch b) throws SQLException {
        for (String s : b.sqls()) {
            touched(s);
        }
        try (Statement st = conn.createStatement()) {
            for (String s : b.sqls()) {
                st.addBatch(s);
            }
            out.add(op, "text batch counts " + counts(st.executeBatch()), Context.NONE);
        } catch (BatchUpdateException e) {
            out.add(op, "text batch " + exception(e) + " counts " + counts(e.getUpdateCounts()), e.getMessage(), Context.NONE);
        } catch (SQLException e) {
            out.add(op, "text batch " + exception(e), e.getMessage(), Context.NONE);
        }
    }

    /** Counts, runs of equal ones written once: [1 x512, 0, 1 x20]. */
    static String counts(int[] counts) {
        if (counts == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < counts.length;) {
            int j = i;
            while (j < counts.length && counts[j] == counts[i]) {
                j++;
            }
            b.append(i == 0 ? "" : ", ").append(counts[i]).append(j - i > 1 ? " x" + (j - i) : "");
            i = j;
        }
        return b.append(']').toString();
    }

    /**
     * A text of several statements. The reference runs each statement on its own, one execute each;
     * a path runs the whole text and walks JDBC's result loop. Both should give one result per
     * statement (DatabaseMetaData says so), and stop at the first error.
     */
    private void exec(Exec e) throws SQLException {
        for (String s : e.statements()) {
            touched(s);
        }
        try (Statement st = conn.createStatement()) {
            if (path.fetchSize() != 0 && path.where() != Where.AFTER_FIRST_ROW) {
                st.setFetchSize(path.fetchSize());
            }
            int result = 0;
            if (path.reference()) {
                // The driver runs the statements up to the next query together (at execute, or at the
                // getMoreResults past a query), so an error among them is thrown there, before the counts
                // of those that ran ahead of it (README, "Several statements in one string"): the reference
                // drops those counts too.
                int sinceQuery = out.lines.size();
                for (String s : e.statements()) {
                    boolean isRs;
                    try {
                        isRs = st.execute(s);
                    } catch (SQLException x) {
                        out.lines.subList(sinceQuery, out.lines.size()).clear();
                        out.add(op, "exec " + exception(x), x.getMessage(), Context.RESULT_LOOP);
                        return;
                    }
                    if (!resultOfLoop(st, isRs, result++)) {
                        return;
                    }
                    if (isRs) {
                        sinceQuery = out.lines.size();
                    }
                }
                out.add(op, "exec end", Context.RESULT_LOOP);
                return;
            }
            boolean isRs;
            try {
                isRs = st.execute(e.text());
            } catch (SQLException x) {
                out.add(op, "exec " + exception(x), x.getMessage(), Context.RESULT_LOOP);
                return;
            }
            for (int guard = 0; guard < 100; guard++) {
                if (!isRs && st.getUpdateCount() == -1) {
                    out.add(op, "exec end", Context.RESULT_LOOP);
                    return;
                }
                if (!resultOfLoop(st, isRs, result++)) {
                    return;
                }
                try {
                    isRs = st.getMoreResults();
                } catch (SQLException x) {
                    out.add(op, "exec " + exception(x), x.getMessage(), Context.RESULT_LOOP);
                    return;
                }
            }
            out.add(op, "exec: the result loop did not end after 100 results", Context.RESULT_LOOP);
        }
    }

    /** One result of a text: its rows, or its update count. False after an error. */
    private boolean resultOfLoop(Statement st, boolean isRs, int index) throws SQLException {
        String name = "exec result " + index;
        if (!isRs) {
            out.add(op, name + ": count " + st.getUpdateCount(), Context.RESULT_LOOP);
            return true;
        }
        Cursor c = new Cursor();
        c.statement = st;
        c.rs = st.getResultSet();
        out.add(op, name + ": rows", Context.RESULT_LOOP);
        describe(c, name);
        int before = out.lines.size();
        readRows(c, name, -1, Context.NONE);
        // an error ends the text as it would have ended its statement's own execute
        return out.lines.subList(before, out.lines.size()).stream().noneMatch(l -> l.text().contains(" next EXC "));
    }

    private void multiUpdate(MultiUpdate m) throws SQLException {
        String pre = stateHash();
        if (path.reference()) {
            boolean threw = false;
            String message = null;
            try (Statement st = conn.createStatement()) {
                for (String s : m.statements()) {
                    if (st.execute(s)) {
                        try (ResultSet rs = st.getResultSet()) {
                            while (rs.next()) {
                                // run out
                            }
                        }
                    }
                }
            } catch (SQLException e) { // running all of the text stops at its first error
                threw = true;
                message = exception(e) + ": " + e.getMessage();
            }
            out.add(op, DiffTranscript.MultiUpdateOutcome.reference(pre, stateHash(), threw), message, Context.MULTI_UPDATE);
            return;
        }
        boolean threw = false;
        String message = null;
        try (Statement st = conn.createStatement()) {
            st.executeUpdate(m.text());
        } catch (SQLException e) {
            threw = true;
            message = exception(e) + ": " + e.getMessage();
        }
        out.add(op, DiffTranscript.MultiUpdateOutcome.path(threw, pre, stateHash()), message, Context.MULTI_UPDATE);
    }

    private void tx(Tx t) throws SQLException {
        boolean ends = switch (t.kind()) {
            case COMMIT, ROLLBACK, ROLLBACK_TO, AUTOCOMMIT_ON -> true;
            default -> false;
        };
        for (Cursor c : cursors.values()) {
            c.crossed |= ends;
        }
        try {
            switch (t.kind()) {
                case AUTOCOMMIT_OFF -> conn.setAutoCommit(false);
                case AUTOCOMMIT_ON -> conn.setAutoCommit(true);
                case COMMIT -> conn.commit();
                case ROLLBACK -> conn.rollback();
                case SAVEPOINT -> savepoints.put(t.name(), conn.setSavepoint(t.name()));
                case ROLLBACK_TO -> {
                    Savepoint sp = savepoints.get(t.name());
                    if (sp == null) {
                        out.add(op, "tx no savepoint " + t.name(), Context.NONE);
                        return;
                    }
                    conn.rollback(sp);
                }
                case RELEASE -> {
                    Savepoint sp = savepoints.remove(t.name());
                    if (sp == null) {
                        out.add(op, "tx no savepoint " + t.name(), Context.NONE);
                        return;
                    }
                    conn.releaseSavepoint(sp);
                }
            }
            out.add(op, "tx " + t.kind() + " ok", Context.NONE);
        } catch (SQLException e) {
            out.add(op, "tx " + t.kind() + " " + exception(e), e.getMessage(), Context.NONE);
        }
    }

    // ------------------------------------------------------------------ dumps

    /** Every table of main, each row by getObject in storage order, as one line per table. */
    private void dump(Connection c, String what) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        for (String t : tables) {
            StringBuilder all = new StringBuilder();
            StringBuilder first = new StringBuilder();
            int rows = 0;
            try (Statement st = c.createStatement()) {
                st.setFetchSize(1);
                try (ResultSet rs = st.executeQuery("SELECT * FROM \"" + t + "\"")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= n; i++) {
                            row.append(i == 1 ? "" : ", ").append(canon(rs.getObject(i)));
                        }
                        all.append(row).append('\n');
                        if (rows < 12 && n <= 30) {
                            first.append(row).append("; ");
                        }
                        rows++;
                    }
                }
                out.add(op, what + " " + t + " rows " + rows + " hash " + hash(all.toString()), first.toString(), Context.NONE);
            } catch (SQLException e) {
                out.add(op, what + " " + t + " " + exception(e), e.getMessage(), Context.NONE);
            }
        }
    }

    /** A hash of every table's rows, read on this connection. */
    private String stateHash() throws SQLException {
        DiffRunner probe = new DiffRunner(path, url);
        probe.op = op;
        probe.dump(conn, "state");
        StringBuilder b = new StringBuilder();
        for (DiffTranscript.Line l : probe.out.lines) {
            b.append(l.text()).append('\n');
        }
        return hash(b.toString());
    }

    // ------------------------------------------------------------------ rendering

    /** An exception as compared: its class, SQLState and vendor code (the message is not compared). */
    static String exception(SQLException e) {
        return "EXC " + e.getClass().getSimpleName() + " state=" + e.getSQLState() + " code=" + e.getErrorCode();
    }

    /** A value as compared: its class and exact content (big ones by length and hash). */
    static String canon(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof byte[] b) {
            return b.length <= 48 ? "bytes:" + DiffValue.hex(b) : "bytes[" + b.length + " " + hash(b) + "]";
        }
        if (v instanceof String s) {
            return s.length() <= 48 ? "String:" + escape(s) : "String[" + s.length() + " " + hash(s.getBytes(StandardCharsets.UTF_16BE))
                    + "]:" + escape(s.substring(0, 16));
        }
        if (v instanceof Double d) {
            return "Double:" + d; // -0.0 shown as such
        }
        if (v instanceof BigDecimal d) {
            return "BigDecimal:" + d.toString();
        }
        return v.getClass().getSimpleName() + ":" + v;
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    static String hash(String s) {
        return hash(s.getBytes(StandardCharsets.UTF_8));
    }

    static String hash(byte[] b) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(b);
            return DiffValue.hex(Arrays.copyOf(d, 6));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ the row batches switch

    /**
     * The driver's switch between rows read ahead in batches and rows read in place
     * ({@code JdbcStatement.batching}, what {@code -Dpanlite.rowBatch=false} sets at start; read once
     * per result set and per executeBatch). The reference turns it off for its run.
     */
    static final class RowBatches {
        private static final Field FIELD;

        static {
            try {
                FIELD = Class.forName("dev.panlite.jdbc.JdbcStatement").getDeclaredField("batching");
                FIELD.setAccessible(true);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError("the differential fuzz needs JdbcStatement.batching to read its"
                        + " reference in place: " + e);
            }
        }

        private RowBatches() {}

        static boolean enabled() {
            try {
                return FIELD.getBoolean(null);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        static void set(boolean on) {
            try {
                FIELD.setBoolean(null, on);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
