package dev.panlite.fuzz;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random schema and its data for one seed of the differential fuzz: one to three tables (a rowid
 * table, an INTEGER PRIMARY KEY, WITHOUT ROWID, sometimes STRICT) with declared types of every
 * family and none, indexes (plain, composite, DESC, partial, on an expression), rows of every
 * storage class and size; sometimes a wide table of hundreds to thousands of columns. Built once
 * into a file that every run of the seed copies, so the reference and each path start from the
 * same bytes.
 */
final class DiffSchema {
    /** How a table is keyed. */
    enum Key { ROWID, INTEGER_PK, WITHOUT_ROWID }

    record Column(String name, String decl, boolean notNull) {}

    /** A table: its key expression orders it totally ({@code rowid} or the primary key column). */
    record Table(String name, Key key, boolean strict, List<Column> columns, List<String> indexes, int rows) {
        String keyColumn() {
            return key == Key.ROWID ? "rowid" : "id";
        }

        /** The columns that are not the key. */
        List<Column> data() {
            return key == Key.ROWID ? columns : columns.subList(1, columns.size());
        }

        String ddl() {
            StringBuilder b = new StringBuilder("CREATE TABLE ").append(name).append('(');
            for (int i = 0; i < columns.size(); i++) {
                Column c = columns.get(i);
                if (i > 0) {
                    b.append(", ");
                }
                b.append(c.name());
                if (!c.decl().isEmpty()) {
                    b.append(' ').append(c.decl());
                }
                if (i == 0 && key == Key.INTEGER_PK) {
                    b.append(" PRIMARY KEY");
                }
                if (c.notNull()) {
                    b.append(" NOT NULL");
                }
            }
            if (key == Key.WITHOUT_ROWID) {
                b.append(", PRIMARY KEY(id)");
            }
            b.append(')');
            if (key == Key.WITHOUT_ROWID) {
                b.append(" WITHOUT ROWID");
            }
            if (strict) {
                b.append(key == Key.WITHOUT_ROWID ? ", STRICT" : " STRICT");
            }
            return b.toString();
        }
    }

    /** Declared types by family: integer, boolean, real, numeric, text, blob, date/time, none, odd. */
    static final String[][] DECLARED = {
        {"INTEGER", "INT", "BIGINT", "SMALLINT", "TINYINT", "UNSIGNED BIG INT", "INT8", "MEDIUMINT"},
        {"BOOLEAN", "BOOL"},
        {"REAL", "DOUBLE", "DOUBLE PRECISION", "FLOAT"},
        {"NUMERIC", "DECIMAL(10,2)", "DECIMAL", "NUMBER"},
        {"TEXT", "VARCHAR(20)", "CHARACTER(5)", "NVARCHAR(100)", "CLOB", "NATIVE CHARACTER(70)"},
        {"BLOB", "BINARY(16)", "VARBINARY"},
        {"DATE", "DATETIME", "TIMESTAMP", "TIME"},
        {""},
        {"JSON", "UUID", "STRING", "FLOATING POINT", "ANY", "CHARINT", "BIT"},
    };
    /** What a STRICT table accepts. */
    static final String[] STRICT_TYPES = {"INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"};

    final List<Table> tables = new ArrayList<>();
    final Table wide; // null when this seed has none
    /** Settings the file is created with (journal mode, encoding): only the build uses them. */
    final String createQuery;
    /** Settings every run opens its copy with. */
    final String runQuery;

    private DiffSchema(Table wide, String createQuery, String runQuery) {
        this.wide = wide;
        this.createQuery = createQuery;
        this.runQuery = runQuery;
    }

    /**
     * A random schema; {@code wideColumns} > 0 adds a table of that many columns ({@code w}).
     */
    static DiffSchema random(Random r, int wideColumns) {
        // synchronous=OFF: the runs copy and reopen files all the time, and nothing here is about durability
        List<String> create = new ArrayList<>(List.of("synchronous=OFF"));
        if (r.nextInt(3) == 0) {
            create.add("journal_mode=WAL");
        }
        if (r.nextInt(5) == 0) {
            create.add("encoding=" + (r.nextBoolean() ? "UTF-16le" : "UTF-16be"));
        }
        List<String> run = new ArrayList<>(List.of("synchronous=OFF"));
        if (r.nextInt(4) == 0) {
            run.add("transaction_mode=DEFERRED");
        }
        Table wide = wideColumns > 0 ? wideTable(r, wideColumns) : null;
        DiffSchema s = new DiffSchema(wide, String.join("&", create), String.join("&", run));
        int n = 1 + r.nextInt(3);
        int[] rowCounts = {0, 1, 2, 7, 8, 9, 20, 40, 63, 64, 65, 130, 300};
        for (int i = 0; i < n; i++) {
            Key key = Key.values()[r.nextInt(3)];
            boolean strict = r.nextInt(6) == 0;
            List<Column> cols = new ArrayList<>();
            if (key == Key.INTEGER_PK) {
                cols.add(new Column("id", "INTEGER", false));
            } else if (key == Key.WITHOUT_ROWID) {
                cols.add(new Column("id", r.nextBoolean() ? "INTEGER" : "TEXT", false));
            }
            int width = 1 + r.nextInt(r.nextInt(4) == 0 ? 24 : 7);
            for (int c = 0; c < width; c++) {
                String decl = strict ? STRICT_TYPES[r.nextInt(STRICT_TYPES.length)]
                        : pick(r, DECLARED[r.nextInt(DECLARED.length)]);
                cols.add(new Column("c" + c, decl, r.nextInt(12) == 0));
            }
            String name = "t" + i;
            List<String> indexes = new ArrayList<>();
            int nIndexes = r.nextInt(3);
            for (int x = 0; x < nIndexes; x++) {
                String a = "c" + r.nextInt(width);
                String b = "c" + r.nextInt(width);
                String ix = name + "_ix" + x;
                indexes.add(switch (r.nextInt(5)) {
                    case 0 -> "CREATE INDEX " + ix + " ON " + name + "(" + a + ")";
                    case 1 -> "CREATE INDEX " + ix + " ON " + name + "(" + a + " DESC, " + b + ")";
                    case 2 -> "CREATE INDEX " + ix + " ON " + name + "(" + a + ") WHERE " + a + " IS NOT NULL";
                    case 3 -> "CREATE INDEX " + ix + " ON " + name + "(length(" + a + "))";
                    default -> "CREATE INDEX " + ix + " ON " + name + "(" + a + " COLLATE NOCASE)";
                });
            }
            int rows = r.nextInt(20) == 0 ? 700 : rowCounts[r.nextInt(rowCounts.length)];
            s.tables.add(new Table(name, key, strict, cols, indexes, rows));
        }
        return s;
    }

    private static Table wideTable(Random r, int columns) {
        List<Column> cols = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            cols.add(new Column("w" + c, pick(r, DECLARED[r.nextInt(DECLARED.length)]), false));
        }
        return new Table("w", Key.ROWID, false, cols, List.of(), 2 + r.nextInt(5));
    }

    static String pick(Random r, String[] from) {
        return from[r.nextInt(from.length)];
    }

    List<Table> allTables() {
        List<Table> all = new ArrayList<>(tables);
        if (wide != null) {
            all.add(wide);
        }
        return all;
    }

    /** The DDL and the row counts, for a reproduction listing. */
    String describe() {
        StringBuilder b = new StringBuilder();
        b.append("-- created with ?").append(createQuery).append(", opened with ?").append(runQuery).append('\n');
        for (Table t : allTables()) {
            b.append(t == wide ? "CREATE TABLE w(w0 .. w" + (t.columns().size() - 1) + ")" : t.ddl())
                    .append(";  -- ").append(t.rows()).append(" rows\n");
            for (String ix : t.indexes()) {
                b.append(ix).append(";\n");
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ building the file

    /** Creates the tables in a new file at {@code url} and fills them from {@code r}. */
    void build(String url, Random r) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            try (Statement s = c.createStatement()) {
                for (Table t : allTables()) {
                    s.execute(t == wide ? wideDdl(t) : t.ddl());
                    for (String ix : t.indexes()) {
                        s.execute(ix);
                    }
                }
            }
            c.setAutoCommit(false);
            for (Table t : tables) {
                fill(c, t, r);
            }
            if (wide != null) {
                fillWide(c, wide, r);
            }
            c.commit();
        }
    }

    private static String wideDdl(Table t) {
        StringBuilder b = new StringBuilder("CREATE TABLE w(");
        for (int i = 0; i < t.columns().size(); i++) {
            Column c = t.columns().get(i);
            b.append(i == 0 ? "" : ", ").append(c.name()).append(c.decl().isEmpty() ? "" : " " + c.decl());
        }
        return b.append(')').toString();
    }

    private static void fill(Connection c, Table t, Random r) throws SQLException {
        List<Column> cols = t.columns();
        String names = String.join(", ", cols.stream().map(Column::name).toList());
        String marks = String.join(", ", cols.stream().map(x -> "?").toList());
        int bigLeft = 3; // huge values per table: enough to cross every limit, few enough to stay fast
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t.name() + "(" + names + ") VALUES (" + marks + ")");
                Statement s = c.createStatement()) {
            for (int row = 0; row < t.rows(); row++) {
                List<DiffValue> values = new ArrayList<>();
                for (int i = 0; i < cols.size(); i++) {
                    Column col = cols.get(i);
                    if (i == 0 && t.key() != Key.ROWID) {
                        values.add(keyValue(r, t, col, row));
                        continue;
                    }
                    boolean big = bigLeft > 0 && r.nextInt(60) == 0;
                    DiffValue v = t.strict() ? strictValue(r, col.decl()) : DiffValue.random(r, big);
                    if (v.sql().length() > 8000) {
                        bigLeft--;
                    }
                    if (col.notNull() && (v.bind() == null || v.sql().equals("NULL"))) {
                        v = t.strict() && !col.decl().startsWith("INT") ? strictValue(r, col.decl(), false) : DiffValue.ofLong(0);
                    }
                    values.add(v);
                }
                if (values.stream().allMatch(DiffValue::bindable) && r.nextBoolean()) {
                    for (int i = 0; i < values.size(); i++) {
                        values.get(i).bindTo(ps, i + 1);
                    }
                    ps.executeUpdate();
                } else {
                    s.executeUpdate("INSERT INTO " + t.name() + "(" + names + ") VALUES ("
                            + String.join(", ", values.stream().map(DiffValue::sql).toList()) + ")");
                }
            }
        }
    }

    /** A unique key for row {@code row}: integers spread over the whole range, or texts. */
    private static DiffValue keyValue(Random r, Table t, Column col, int row) {
        if (col.decl().equals("TEXT")) {
            return DiffValue.ofText(String.format("k%05d%s", row, r.nextInt(4) == 0 ? "é" : ""));
        }
        if (t.key() == Key.INTEGER_PK && r.nextInt(3) == 0) {
            return DiffValue.ofNull(); // the next rowid
        }
        if (row == 0 && r.nextInt(4) == 0) {
            return DiffValue.ofLong(r.nextBoolean() ? Long.MIN_VALUE : -1_000_000_000_000L);
        }
        return DiffValue.ofLong(row * 3L + 1);
    }

    private static DiffValue strictValue(Random r, String decl) {
        return strictValue(r, decl, true);
    }

    private static DiffValue strictValue(Random r, String decl, boolean nullable) {
        for (;;) {
            DiffValue v = DiffValue.random(r, false);
            Object b = v.bind();
            if (b == null || v.sql().equals("NULL")) {
                if (nullable) {
                    return v;
                }
                continue;
            }
            boolean fits = switch (decl) {
                case "INT", "INTEGER" -> b instanceof Long || b instanceof Integer;
                case "REAL" -> b instanceof Double d && !Double.isNaN(d);
                case "TEXT" -> b instanceof String;
                case "BLOB" -> b instanceof byte[];
                default -> true; // ANY
            };
            if (fits && v.bindable()) {
                return v;
            }
        }
    }

    private static void fillWide(Connection c, Table t, Random r) throws SQLException {
        int n = t.columns().size();
        int bigLeft = 2;
        try (Statement s = c.createStatement()) {
            for (int row = 0; row < t.rows(); row++) {
                StringBuilder b = new StringBuilder("INSERT INTO w VALUES (");
                for (int i = 0; i < n; i++) {
                    DiffValue v = r.nextInt(3) == 0 ? DiffValue.random(r, false) : DiffValue.small(r);
                    if (bigLeft > 0 && r.nextInt(n * 2) == 0) {
                        v = DiffValue.of(r, DiffValue.Kind.BIG);
                        bigLeft--;
                    }
                    b.append(i == 0 ? "" : ", ").append(v.sql());
                }
                s.executeUpdate(b.append(')').toString());
            }
        }
    }

    // ------------------------------------------------------------------ the engine's limit

    /**
     * SQLITE_LIMIT_COLUMN of the engine loaded: its compile-time SQLITE_MAX_COLUMN (a build that
     * changed it lists MAX_COLUMN among its compile options; else SQLite's default, 2000), which is
     * the run-time limit of a connection that set none (the wide programs query at it and one past it).
     */
    static int columnLimit(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT compile_options FROM pragma_compile_options")) {
            while (rs.next()) {
                String o = rs.getString(1);
                if (o.startsWith("MAX_COLUMN=")) {
                    return Integer.parseInt(o.substring("MAX_COLUMN=".length()));
                }
            }
        }
        return 2000;
    }

    /** A SELECT of {@code n} constant columns. */
    static String selectOfColumns(int n) {
        StringBuilder b = new StringBuilder("SELECT ");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append(i % 7);
        }
        return b.toString();
    }
}
