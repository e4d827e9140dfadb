package dev.panlite.fuzz;

import dev.panlite.fuzz.DiffSchema.Column;
import dev.panlite.fuzz.DiffSchema.Key;
import dev.panlite.fuzz.DiffSchema.Table;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One program of the differential fuzz: a list of JDBC operations on one connection (open a
 * cursor, read some of its rows, write, end a transaction with the cursor still open, run a text of
 * several statements, dump the database). {@link DiffRunner} runs it once as the reference and once
 * per read path; the two transcripts must be equal. Operations name cursors by number, so any of
 * them can be dropped when a failing program is shrunk.
 *
 * @param family what the program exercises (a name for the report)
 * @param ops    the operations, in order
 */
record DiffScenario(String family, List<Op> ops) {

    /**
     * A query: SQL text, its parameters (a query with parameters always runs prepared), and the
     * number of its columns when the generator knows it (-1 when not).
     */
    record Query(String sql, List<DiffValue> params, int columns) {
        String shown() {
            String s = sql.length() > 400 ? sql.substring(0, 200) + " ...(" + sql.length() + " chars)" : sql;
            return params.isEmpty() ? s : s + "  params " + params.stream().map(DiffValue::shown).toList();
        }
    }

    /** One operation. */
    sealed interface Op {
        /** As a line of the reproduction listing. */
        String shown();
    }

    /**
     * Opens cursor {@code cur}: executes {@code query} on a new statement of the run's kind, with
     * {@code holdability} and {@code maxRows}.
     */
    record Open(int cur, Query query, int holdability, int maxRows) implements Op {
        public String shown() {
            return "c" + cur + " = execute(" + query.shown() + ")"
                    + (holdability == ResultSet.CLOSE_CURSORS_AT_COMMIT ? " [CLOSE_CURSORS_AT_COMMIT]" : "")
                    + (maxRows > 0 ? " [maxRows " + maxRows + "]" : "");
        }
    }

    /** Calls next() {@code n} times on cursor {@code cur} (n < 0: until it returns false), reading each row. */
    record Read(int cur, int n) implements Op {
        public String shown() {
            return "c" + cur + ".next() " + (n < 0 ? "to the end" : n + " times") + ", reading every column";
        }
    }

    record Close(int cur) implements Op {
        public String shown() {
            return "c" + cur + ".close()";
        }
    }

    /** executeUpdate of one statement (prepared when it has parameters). */
    record Update(String sql, List<DiffValue> params) implements Op {
        public String shown() {
            String s = sql.length() > 300 ? sql.substring(0, 200) + " ...(" + sql.length() + " chars)" : sql;
            return "executeUpdate(" + s + (params.isEmpty() ? "" : ", params " + params.stream().map(DiffValue::shown).toList()) + ")";
        }
    }

    /** A PreparedStatement batch: one row of parameters per addBatch. */
    record Batch(String sql, List<List<DiffValue>> rows) implements Op {
        public String shown() {
            return "prepareStatement(" + sql + ") with addBatch x" + rows.size() + ", executeBatch()";
        }
    }

    /** Statement.addBatch of each text, then executeBatch. */
    record TextBatch(List<String> sqls) implements Op {
        public String shown() {
            return "createStatement() addBatch " + sqls + ", executeBatch()";
        }
    }

    /**
     * Statement.execute of the statements joined into one text, then the JDBC result loop
     * (getResultSet/getUpdateCount/getMoreResults); the reference runs each statement on its own.
     */
    record Exec(List<String> statements, String separator) implements Op {
        String text() {
            return String.join(separator, statements);
        }

        public String shown() {
            return "execute(\"" + text() + "\") and the result loop";
        }
    }

    /**
     * executeUpdate of a text of several statements with a query among them (issue 27, item 12):
     * either it is refused before any runs, or every statement runs. Always the last operation.
     */
    record MultiUpdate(List<String> statements) implements Op {
        String text() {
            return String.join("; ", statements);
        }

        public String shown() {
            return "executeUpdate(\"" + text() + "\")";
        }
    }

    /** Transaction control through JDBC calls. */
    enum TxKind { AUTOCOMMIT_OFF, AUTOCOMMIT_ON, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO, RELEASE }

    record Tx(TxKind kind, String name) implements Op {
        public String shown() {
            return switch (kind) {
                case AUTOCOMMIT_OFF -> "setAutoCommit(false)";
                case AUTOCOMMIT_ON -> "setAutoCommit(true)";
                case COMMIT -> "commit()";
                case ROLLBACK -> "rollback()";
                case SAVEPOINT -> name + " = setSavepoint(\"" + name + "\")";
                case ROLLBACK_TO -> "rollback(" + name + ")";
                case RELEASE -> "releaseSavepoint(" + name + ")";
            };
        }
    }

    /** The whole database read back (main's tables, each value by getObject). */
    record Dump() implements Op {
        public String shown() {
            return "dump every table";
        }
    }

    /** Closes the connection and opens a new one on the same file. */
    record Reopen() implements Op {
        public String shown() {
            return "close the connection, open a new one";
        }
    }

    /** The listing of a reproduction. */
    String listing() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ops.size(); i++) {
            b.append(String.format("  %2d. %s%n", i, ops.get(i).shown()));
        }
        return b.toString();
    }

    DiffScenario withOps(List<Op> fewer) {
        return new DiffScenario(family, fewer);
    }

    // ================================================================== generation

    /** Makes programs over one schema. */
    static final class Generator {
        private final DiffSchema schema;
        private final Random r;
        private final int columnLimit; // the most result columns a query may ask for in this JVM
        private final int engineLimit; // SQLITE_LIMIT_COLUMN
        private int cursors;
        private int savepoints;

        Generator(DiffSchema schema, Random r, int columnLimit, int engineLimit) {
            this.schema = schema;
            this.r = r;
            this.columnLimit = columnLimit;
            this.engineLimit = engineLimit;
        }

        DiffScenario next() {
            int pick = r.nextInt(schema.wide != null ? 13 : 10);
            return switch (pick) {
                case 0, 1, 2, 3 -> plain();
                case 4, 5, 6 -> held();
                case 7, 8 -> multi();
                case 9 -> batches();
                default -> wide();
            };
        }

        private Table table() {
            return schema.tables.get(r.nextInt(schema.tables.size()));
        }

        // ------------------------------------------------------------ families

        /** Reads and writes, each cursor read to its end before the next operation. */
        DiffScenario plain() {
            List<Op> ops = new ArrayList<>();
            if (r.nextInt(3) == 0) {
                ops.add(new Tx(TxKind.AUTOCOMMIT_OFF, null));
            }
            int n = 3 + r.nextInt(8);
            String sp = null;
            for (int i = 0; i < n; i++) {
                switch (r.nextInt(11)) {
                    case 0, 1, 2, 3 -> readWhole(ops, query(table()));
                    case 4, 5 -> ops.add(write(table()));
                    case 6 -> ops.add(new Dump());
                    case 7 -> ops.add(new Tx(r.nextBoolean() ? TxKind.COMMIT : TxKind.ROLLBACK, null));
                    case 8 -> {
                        if (sp == null) {
                            sp = "sp" + savepoints++;
                            ops.add(new Tx(TxKind.SAVEPOINT, sp));
                        } else {
                            ops.add(new Tx(r.nextBoolean() ? TxKind.ROLLBACK_TO : TxKind.RELEASE, sp));
                            sp = null;
                        }
                    }
                    case 9 -> ops.add(new Reopen());
                    default -> readWhole(ops, r.nextBoolean() ? generated() : joinOrAggregate());
                }
            }
            ops.add(new Dump());
            return new DiffScenario("plain", ops);
        }

        /**
         * A cursor kept open while the transaction it read in ends (commit, rollback, rollback to a
         * savepoint, through JDBC or SQL). Its connection writes other tables meanwhile, never the
         * one the cursor reads: whether a scan sees its own connection's later writes is undefined
         * in SQLite (sqlite.org/isolation.html), so that is no difference to hold a path to.
         */
        DiffScenario held() {
            List<Op> ops = new ArrayList<>();
            Table t = table();
            Table other = schema.tables.size() > 1 ? schema.tables.get((schema.tables.indexOf(t) + 1) % schema.tables.size()) : null;
            boolean sqlTx = r.nextInt(3) == 0;
            if (sqlTx) {
                ops.add(new Update(r.nextBoolean() ? "BEGIN" : "BEGIN IMMEDIATE", List.of()));
            } else {
                ops.add(new Tx(TxKind.AUTOCOMMIT_OFF, null));
            }
            String sp = null;
            if (r.nextInt(3) == 0) {
                sp = "sp" + savepoints++;
                ops.add(sqlTx ? new Update("SAVEPOINT " + sp, List.of()) : new Tx(TxKind.SAVEPOINT, sp));
            }
            int writes = 1 + r.nextInt(3);
            for (int i = 0; i < writes; i++) {
                ops.add(insertRows(t, 1 + r.nextInt(r.nextBoolean() ? 5 : 150)));
            }
            if (r.nextBoolean()) {
                ops.add(write(t));
            }
            int cur = cursors++;
            Query q = r.nextInt(4) == 0 ? query(t) : heldQuery(t);
            ops.add(new Open(cur, q, r.nextInt(4) == 0 ? ResultSet.CLOSE_CURSORS_AT_COMMIT : ResultSet.HOLD_CURSORS_OVER_COMMIT,
                    r.nextInt(8) == 0 ? 1 + r.nextInt(50) : 0));
            ops.add(new Read(cur, r.nextInt(4)));
            int ends = 1 + r.nextInt(2);
            for (int i = 0; i < ends; i++) {
                switch (r.nextInt(7)) {
                    case 0, 5 -> ops.add(sqlTx ? new Update("ROLLBACK", List.of()) : new Tx(TxKind.ROLLBACK, null));
                    case 1 -> ops.add(sqlTx ? new Update(r.nextBoolean() ? "COMMIT" : "END", List.of()) : new Tx(TxKind.COMMIT, null));
                    case 2 -> {
                        if (sp != null) {
                            ops.add(sqlTx ? new Update("ROLLBACK TO " + sp, List.of()) : new Tx(TxKind.ROLLBACK_TO, sp));
                        } else {
                            ops.add(new Tx(TxKind.ROLLBACK, null));
                        }
                    }
                    case 3 -> {
                        if (sp != null && r.nextBoolean()) { // releasing the savepoint: the transaction goes on
                            ops.add(sqlTx ? new Update("RELEASE " + sp, List.of()) : new Tx(TxKind.RELEASE, sp));
                            sp = null;
                        } else {
                            ops.add(new Tx(TxKind.AUTOCOMMIT_ON, null));
                        }
                    }
                    case 4 -> {
                        if (other != null) {
                            readWhole(ops, query(other), cursors++);
                        }
                    }
                    default -> {
                        if (other != null) {
                            ops.add(r.nextBoolean() ? insertRows(other, 1 + r.nextInt(3)) : write(other));
                        }
                    }
                }
                ops.add(new Read(cur, r.nextInt(3) == 0 ? -1 : r.nextInt(6)));
            }
            ops.add(new Read(cur, -1));
            ops.add(new Close(cur));
            ops.add(new Dump());
            return new DiffScenario("held", ops);
        }

        /** Texts of several statements through execute() and its result loop, or executeUpdate. */
        DiffScenario multi() {
            List<Op> ops = new ArrayList<>();
            if (r.nextInt(3) == 0) {
                ops.add(new Tx(TxKind.AUTOCOMMIT_OFF, null));
            }
            int texts = 1 + r.nextInt(2);
            for (int i = 0; i < texts; i++) {
                List<String> stmts = new ArrayList<>();
                int n = 2 + r.nextInt(4);
                for (int k = 0; k < n; k++) {
                    Table t = table();
                    switch (r.nextInt(7)) {
                        case 0, 1 -> stmts.add(query(t).sql());
                        case 2 -> stmts.add(insertRows(t, 1 + r.nextInt(3)).sql());
                        case 3 -> stmts.add(write(t).sql());
                        case 4 -> stmts.add("CREATE TABLE IF NOT EXISTS m" + r.nextInt(3) + "(a, b)");
                        case 5 -> stmts.add("INSERT INTO " + t.name() + " DEFAULT VALUES RETURNING " + t.keyColumn() + ", *");
                        default -> stmts.add(r.nextBoolean() ? "PRAGMA user_version = " + r.nextInt(9) : "SELECT " + r.nextInt(9));
                    }
                }
                String sep = new String[] {"; ", ";\n", " ;; ", "; /* c */ ", ";"}[r.nextInt(5)];
                ops.add(new Exec(stmts, sep));
            }
            ops.add(new Dump());
            if (r.nextInt(3) == 0) {
                Table t = table();
                ops.add(new MultiUpdate(List.of(insertRows(t, 1).sql(), "SELECT 1", insertRows(t, 1).sql())));
            }
            return new DiffScenario("multi", ops);
        }

        /** Batches of writes, prepared (chunked) and of texts. */
        DiffScenario batches() {
            List<Op> ops = new ArrayList<>();
            if (r.nextBoolean()) {
                ops.add(new Tx(TxKind.AUTOCOMMIT_OFF, null));
            }
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                Table t = table();
                if (r.nextInt(3) == 0) {
                    List<String> texts = new ArrayList<>();
                    int k = 1 + r.nextInt(5);
                    for (int j = 0; j < k; j++) {
                        texts.add(r.nextBoolean() ? insertRows(t, 1).sql() : write(t).sql());
                    }
                    ops.add(new TextBatch(texts));
                } else {
                    ops.add(batch(t));
                }
                if (r.nextBoolean()) {
                    readWhole(ops, query(t));
                }
            }
            if (ops.get(0) instanceof Tx && r.nextBoolean()) {
                ops.add(new Tx(TxKind.ROLLBACK, null));
            }
            ops.add(new Dump());
            return new DiffScenario("batches", ops);
        }

        /** Wide rows: the wide table, all of it and twice over, within this JVM's column limit. */
        DiffScenario wide() {
            List<Op> ops = new ArrayList<>();
            Table w = schema.wide;
            int cols = w.columns().size();
            List<String> shapes = new ArrayList<>();
            shapes.add("SELECT * FROM w ORDER BY rowid");
            if (2 * cols <= columnLimit) {
                shapes.add("SELECT *, * FROM w ORDER BY rowid");
            }
            if (cols + 1 <= columnLimit) {
                shapes.add("SELECT w.*, t.rowid FROM w, " + table().name() + " t ORDER BY w.rowid, t.rowid LIMIT 40");
            }
            shapes.add(DiffSchema.selectOfColumns(Math.min(columnLimit, cols + r.nextInt(cols + 1))));
            if (engineLimit < columnLimit) {
                shapes.add(DiffSchema.selectOfColumns(engineLimit)); // the engine's limit: allowed
                shapes.add(DiffSchema.selectOfColumns(engineLimit + 1)); // one past it: an error, alike on every path
            }
            shapes.add("SELECT " + String.join(", ", w.columns().subList(0, Math.min(cols, 50)).stream().map(Column::name).toList())
                    + " FROM w ORDER BY rowid DESC");
            if (r.nextBoolean()) {
                ops.add(new Tx(TxKind.AUTOCOMMIT_OFF, null));
                ops.add(new Update("INSERT INTO w(w0, w" + (cols - 1) + ") VALUES (1, 'last')", List.of()));
            }
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                String sql = shapes.get(r.nextInt(shapes.size()));
                int c = cursors++;
                ops.add(new Open(c, new Query(sql, List.of(), -1), ResultSet.HOLD_CURSORS_OVER_COMMIT, 0));
                if (ops.get(0) instanceof Tx && r.nextBoolean()) {
                    ops.add(new Read(c, 1));
                    ops.add(new Tx(TxKind.ROLLBACK, null));
                }
                ops.add(new Read(c, -1));
                ops.add(new Close(c));
            }
            ops.add(new Dump());
            return new DiffScenario("wide", ops);
        }

        // ------------------------------------------------------------ pieces

        private void readWhole(List<Op> ops, Query q) {
            readWhole(ops, q, cursors++);
        }

        private void readWhole(List<Op> ops, Query q, int cur) {
            ops.add(new Open(cur, q, ResultSet.HOLD_CURSORS_OVER_COMMIT, r.nextInt(10) == 0 ? 1 + r.nextInt(20) : 0));
            ops.add(new Read(cur, -1));
            ops.add(new Close(cur));
        }

        /** A query of a held cursor: a scan in key order (no sorter), so later writes can reach it. */
        private Query heldQuery(Table t) {
            String cols = r.nextBoolean() ? "*" : t.keyColumn() + ", " + columnList(t, 1 + r.nextInt(3));
            String order = r.nextInt(4) == 0 ? " DESC" : "";
            return new Query("SELECT " + cols + " FROM " + t.name() + " ORDER BY " + t.keyColumn() + order, List.of(), -1);
        }

        private String columnList(Table t, int n) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                names.add(t.data().get(r.nextInt(t.data().size())).name());
            }
            return String.join(", ", names);
        }

        /** A SELECT over one table: expressions, a filter, an order, a limit; sometimes parameters. */
        Query query(Table t) {
            List<DiffValue> params = new ArrayList<>();
            int n = 1 + r.nextInt(6);
            List<String> exprs = new ArrayList<>();
            if (r.nextInt(4) == 0) {
                exprs.add("*");
            }
            for (int i = 0; i < n; i++) {
                exprs.add(expr(t, 2, params) + (r.nextInt(5) == 0 ? " AS x" + i : ""));
            }
            StringBuilder b = new StringBuilder("SELECT ");
            if (r.nextInt(10) == 0) {
                b.append("DISTINCT ");
            }
            b.append(String.join(", ", exprs)).append(" FROM ").append(t.name());
            if (r.nextBoolean()) {
                b.append(" WHERE ").append(predicate(t, params));
            }
            b.append(" ORDER BY ").append(r.nextInt(3) == 0 ? expr(t, 1, params) + ", " : "").append(t.keyColumn());
            if (r.nextInt(5) == 0) {
                b.append(" DESC");
            }
            if (r.nextInt(5) == 0) {
                b.append(" LIMIT ").append(r.nextInt(100));
                if (r.nextBoolean()) {
                    b.append(" OFFSET ").append(r.nextInt(10));
                }
            }
            return new Query(b.toString(), params, -1);
        }

        /** Rows that no table holds: a recursive CTE, VALUES, compound selects, RETURNING. */
        Query generated() {
            return switch (r.nextInt(7)) {
                case 5 -> {
                    Table t = table();
                    // database_list: not its file column (each run has a file of its own); temp too (D2, fixed)
                    yield new Query(new String[] {"PRAGMA table_info(" + t.name() + ")", "SELECT * FROM pragma_index_list('" + t.name()
                            + "') ORDER BY name", "SELECT seq, name FROM pragma_database_list",
                            "SELECT * FROM pragma_table_xinfo('" + t.name() + "')"}[r.nextInt(4)], List.of(), -1);
                }
                case 6 -> { // read at execution into Java values (ExplainRows), then through the same getters
                    Query q = query(table());
                    yield new Query((r.nextBoolean() ? "EXPLAIN QUERY PLAN " : "EXPLAIN ") + q.sql(), q.params(), -1);
                }
                case 0 -> {
                    int n = new int[] {1, 8, 9, 64, 65, 500, 3000}[r.nextInt(7)];
                    yield new Query("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < " + n
                            + ") SELECT x, x * x, printf('%0" + (1 + r.nextInt(300)) + "d', x), CASE WHEN x % 3 = 0 THEN NULL"
                            + " WHEN x % 3 = 1 THEN x * 0.5 ELSE zeroblob(x % 7) END FROM n", List.of(), 4);
                }
                case 1 -> {
                    StringBuilder v = new StringBuilder("VALUES ");
                    int rows = 1 + r.nextInt(12);
                    int cols = 1 + r.nextInt(4);
                    for (int i = 0; i < rows; i++) {
                        v.append(i == 0 ? "(" : ", (");
                        for (int c = 0; c < cols; c++) {
                            v.append(c == 0 ? "" : ", ").append(DiffValue.random(r, r.nextInt(8) == 0).sql());
                        }
                        v.append(')');
                    }
                    yield new Query(v.toString(), List.of(), cols);
                }
                case 2 -> {
                    Table a = table();
                    Table c = table();
                    String e1 = expr(a, 1, null);
                    String e2 = expr(c, 1, null);
                    yield new Query("SELECT " + e1 + " FROM " + a.name() + (r.nextBoolean() ? " UNION ALL " : " UNION ")
                            + "SELECT " + e2 + " FROM " + c.name() + " ORDER BY 1", List.of(), 1);
                }
                case 3 -> {
                    Table t = table();
                    yield new Query(insertRows(t, 1 + r.nextInt(3)).sql() + " RETURNING *", List.of(), -1);
                }
                default -> {
                    List<DiffValue> params = new ArrayList<>();
                    int n = 1 + r.nextInt(4);
                    List<String> exprs = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        DiffValue v = DiffValue.randomBindable(r, r.nextInt(6) == 0);
                        params.add(v);
                        exprs.add(r.nextBoolean() ? "?" : "typeof(?)");
                        if (exprs.get(i).startsWith("typeof")) {
                            params.add(v);
                            exprs.set(i, "?, typeof(?)");
                        }
                    }
                    yield new Query("SELECT " + String.join(", ", exprs), params, -1);
                }
            };
        }

        /** A join or an aggregate over the tables. */
        Query joinOrAggregate() {
            Table a = table();
            Table b = table();
            if (r.nextBoolean()) {
                String ca = a.data().get(r.nextInt(a.data().size())).name();
                String cb = b.data().get(r.nextInt(b.data().size())).name();
                String join = r.nextBoolean() ? " LEFT JOIN " : " JOIN ";
                String on = r.nextInt(4) == 0 ? "1" : "a." + ca + " = b." + cb;
                return new Query("SELECT a.*, b." + cb + ", b." + b.keyColumn() + " FROM " + a.name() + " a" + join + b.name()
                        + " b ON " + on + " ORDER BY a." + a.keyColumn() + ", b." + b.keyColumn() + " LIMIT 2000", List.of(), -1);
            }
            String c = a.data().get(r.nextInt(a.data().size())).name();
            String g = a.data().get(r.nextInt(a.data().size())).name();
            String aggs = new String[] {
                "count(*), count(" + c + "), sum(" + c + "), total(" + c + "), min(" + c + "), max(" + c + ")",
                "avg(" + c + "), group_concat(" + c + ", '|')", "sum(" + c + ") FILTER (WHERE " + c + " > 0), count(DISTINCT " + c + ")",
                "max(length(" + c + ")), min(typeof(" + c + "))",
            }[r.nextInt(4)];
            boolean group = r.nextBoolean();
            return new Query("SELECT " + (group ? g + ", " : "") + aggs + " FROM " + a.name()
                    + (group ? " GROUP BY " + g + (r.nextInt(3) == 0 ? " HAVING count(*) > 1" : "") + " ORDER BY 1" : ""),
                    List.of(), -1);
        }

        /** An expression over {@code t}'s columns; {@code params} (null: none allowed) collects parameters. */
        String expr(Table t, int depth, List<DiffValue> params) {
            String c = t.columns().get(r.nextInt(t.columns().size())).name();
            if (depth <= 0 || r.nextInt(3) == 0) {
                return switch (r.nextInt(6)) {
                    case 0 -> DiffValue.random(r, false).sql();
                    case 1 -> t.keyColumn();
                    case 2 -> {
                        if (params != null && r.nextBoolean()) {
                            params.add(DiffValue.randomBindable(r, false));
                            yield "?";
                        }
                        yield c;
                    }
                    default -> c;
                };
            }
            String e = expr(t, depth - 1, params);
            String f = expr(t, depth - 1, params);
            return switch (r.nextInt(30)) {
                case 0 -> "(" + e + " + " + f + ")";
                case 1 -> "(" + e + " || " + f + ")";
                case 2 -> "(" + e + " * " + f + ")";
                case 3 -> "typeof(" + e + ")";
                case 4 -> "length(" + e + ")";
                case 5 -> "CAST(" + e + " AS " + new String[] {"INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC"}[r.nextInt(5)] + ")";
                case 6 -> "abs(" + e + ")"; // integer overflow on Long.MIN: an error at that row
                case 7 -> "hex(" + e + ")";
                case 8 -> "quote(" + e + ")";
                case 9 -> "coalesce(" + e + ", " + f + ")";
                case 10 -> "CASE WHEN " + e + " > " + f + " THEN " + e + " ELSE " + f + " END";
                case 11 -> "(" + e + " / " + f + ")";
                case 12 -> "(" + e + " % " + f + ")";
                case 13 -> "-(" + e + ")";
                case 14 -> "substr(" + e + ", 2, 5)";
                case 15 -> "upper(" + e + ")";
                case 16 -> "round(" + e + ", 2)";
                case 17 -> "nullif(" + e + ", " + f + ")";
                case 18 -> "(" + e + " = " + f + ")";
                case 19 -> "(" + e + " IS NULL)";
                case 20 -> "json_quote(" + e + ")";
                case 21 -> "json(" + e + ")"; // malformed JSON: an error at that row
                case 22 -> "printf('%d|%s|%.2f', " + e + ", " + f + ", " + e + ")";
                case 23 -> "instr(" + e + ", 'a')";
                case 24 -> "replace(" + e + ", 'a', char(0))";
                case 25 -> "zeroblob(abs(" + e + ") % 9000)";
                case 26 -> "max(" + e + ", " + f + ")";
                case 27 -> "(" + e + " COLLATE NOCASE)";
                case 28 -> "unicode(" + e + ")";
                default -> "(" + e + " - " + f + ")";
            };
        }

        String predicate(Table t, List<DiffValue> params) {
            String c = t.data().get(r.nextInt(t.data().size())).name();
            String v = DiffValue.small(r).sql();
            if (params != null && r.nextInt(3) == 0) {
                params.add(DiffValue.small(r));
                v = "?";
            }
            return switch (r.nextInt(8)) {
                case 0 -> c + " IS NOT NULL";
                case 1 -> c + " > " + v;
                case 2 -> "typeof(" + c + ") = '" + new String[] {"integer", "real", "text", "blob", "null"}[r.nextInt(5)] + "'";
                case 3 -> c + " LIKE 'a%'";
                case 4 -> t.keyColumn() + " % 2 = 0";
                case 5 -> c + " IN (1, 'a', x'00', " + v + ")";
                case 6 -> c + " BETWEEN -5 AND " + v;
                default -> "NOT (" + c + " < " + v + ")";
            };
        }

        /** An INSERT of {@code n} rows of random values (the key left to SQLite, or a fresh one). */
        Update insertRows(Table t, int n) {
            List<Column> cols = t.data();
            StringBuilder b = new StringBuilder("INSERT ");
            if (r.nextInt(4) == 0) {
                b.append(r.nextBoolean() ? "OR IGNORE " : "OR REPLACE ");
            }
            b.append("INTO ").append(t.name()).append('(');
            boolean withKey = t.key() == Key.WITHOUT_ROWID;
            if (withKey) {
                b.append("id, ");
            }
            b.append(String.join(", ", cols.stream().map(Column::name).toList())).append(") VALUES ");
            for (int i = 0; i < n; i++) {
                b.append(i == 0 ? "(" : ", (");
                if (withKey) {
                    // fresh keys mostly; a key that may exist already now and then (a constraint error, or IGNORE/REPLACE)
                    boolean text = t.columns().get(0).decl().equals("TEXT");
                    long k = r.nextInt(5) == 0 ? r.nextInt(60) * 3L + 1 : 1_000_000L + r.nextInt(1_000_000);
                    b.append(text ? "'k" + k + "'" : Long.toString(k)).append(", ");
                }
                for (int c = 0; c < cols.size(); c++) {
                    DiffValue v = t.strict() ? DiffValue.small(r) : DiffValue.random(r, r.nextInt(40) == 0);
                    b.append(c == 0 ? "" : ", ").append(cols.get(c).notNull() && v.sql().equals("NULL") ? "0" : v.sql());
                }
                b.append(')');
            }
            return new Update(b.toString(), List.of());
        }

        /** An UPDATE or DELETE of some rows, or an INSERT ... SELECT, or an upsert. */
        Update write(Table t) {
            String c = t.data().get(r.nextInt(t.data().size())).name();
            List<DiffValue> params = new ArrayList<>();
            return switch (r.nextInt(6)) {
                case 0, 1 -> new Update("UPDATE " + t.name() + " SET " + c + " = " + expr(t, 1, params) + " WHERE "
                        + predicate(t, params), params);
                case 2 -> new Update("DELETE FROM " + t.name() + " WHERE " + predicate(t, params), params);
                case 3 -> new Update("UPDATE " + t.name() + " SET " + c + " = " + DiffValue.random(r, r.nextInt(10) == 0).sql()
                        + " WHERE " + t.keyColumn() + " IN (SELECT " + t.keyColumn() + " FROM " + t.name() + " ORDER BY "
                        + t.keyColumn() + " LIMIT 3 OFFSET " + r.nextInt(5) + ")", List.of());
                case 4 -> t.key() == Key.WITHOUT_ROWID ? insertRows(t, 2)
                        : new Update("INSERT INTO " + t.name() + "(" + c + ") SELECT " + c + " FROM " + t.name() + " ORDER BY "
                                + t.keyColumn() + " LIMIT " + (1 + r.nextInt(40)), List.of());
                default -> t.key() == Key.ROWID ? insertRows(t, 1)
                        : new Update("INSERT INTO " + t.name() + "(id, " + c + ") VALUES (" + (r.nextInt(30) * 3 + 1) + ", "
                                + DiffValue.small(r).sql() + ") ON CONFLICT(id) DO UPDATE SET " + c + " = excluded." + c, List.of());
            };
        }

        /** A prepared INSERT run as a batch, some rows repeating a key (BatchUpdateException). */
        Batch batch(Table t) {
            List<Column> cols = t.data();
            boolean withKey = t.key() != Key.ROWID && r.nextBoolean() || t.key() == Key.WITHOUT_ROWID;
            boolean text = t.key() == Key.WITHOUT_ROWID && t.columns().get(0).decl().equals("TEXT");
            String names = (withKey ? "id, " : "") + String.join(", ", cols.stream().map(Column::name).toList());
            String marks = String.join(", ", java.util.Collections.nCopies(cols.size() + (withKey ? 1 : 0), "?"));
            String verb = r.nextInt(5) == 0 ? "INSERT OR IGNORE" : "INSERT";
            int n = new int[] {1, 2, 5, 511, 512, 513, 1100}[r.nextInt(7)];
            if (n > 100 && r.nextBoolean()) {
                n = 1 + r.nextInt(100);
            }
            List<List<DiffValue>> rows = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                List<DiffValue> row = new ArrayList<>();
                if (withKey) {
                    long k = r.nextInt(40) == 0 ? r.nextInt(60) * 3L + 1 : 2_000_000L + i;
                    row.add(text ? DiffValue.ofText("k" + k) : DiffValue.ofLong(k));
                }
                for (Column c : cols) {
                    DiffValue v = t.strict() ? DiffValue.small(r)
                            : r.nextInt(15) == 0 ? DiffValue.objectValue(r) : DiffValue.randomBindable(r, r.nextInt(200) == 0);
                    row.add(c.notNull() && v.bind() == null ? DiffValue.ofLong(0) : v);
                }
                rows.add(row);
            }
            return new Batch(verb + " INTO " + t.name() + "(" + names + ") VALUES (" + marks + ")", rows);
        }
    }
}
