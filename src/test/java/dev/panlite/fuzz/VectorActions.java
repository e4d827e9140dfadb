package dev.panlite.fuzz;

import dev.panlite.PanliteConnection;
import dev.panlite.SqlAggregate;
import dev.panlite.SqlFunction;
import dev.panlite.VectorType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * sqlite-vec in the misuse fuzz (group "vec."): vec0 virtual tables of every kind the bundled engine
 * has (float32 with each distance metric, int8, bit, metadata, partition-key and auxiliary columns,
 * a text primary key, small chunks, a TEMP table), vectors bound every way the driver takes them
 * (float[], its blob, JSON text, {@link VectorType} targets, batches) and malformed ones (wrong
 * length, NaN, infinities, empty, huge, text that is no JSON, blobs of odd length, wrong types),
 * KNN queries with every k (0, negative, over sqlite-vec's limit) left open for the other threads,
 * stopped mid-KNN from another thread (close, abort, cancel, a query timeout, closing the statement
 * or the result set, interrupting the thread), vector functions inside Java functions and aggregates
 * (which run KNNs, change or drop the table being scanned, close their connection), DROP TABLE
 * under an open cursor, TEMP vec0 tables in pooled handles whose reset drops them.
 *
 * <p>On an engine without sqlite-vec (the system SQLite, libSQL) the actions run all the same:
 * what needs vec0 or a vec_ function fails with an SQLException ("no such module: vec0", "no such
 * function"), counted and never a finding, and what does not (binding float[] vectors, reading
 * them with getObject(i, float[].class), vector_search at open) keeps its meaning there.
 */
final class VectorActions {
    private VectorActions() {}

    /** Actions.add, handed over so that the group lives in its own file. */
    interface Adder {
        void add(String name, int weight, Actions.Action action);
    }

    enum Kind { FLOAT32, INT8, BIT }

    /** The SQL type of a metadata, partition-key or auxiliary column, for the values bound to it. */
    enum ColumnType { TEXT, INTEGER, FLOAT, BOOLEAN, BLOB }

    record Extra(String name, ColumnType type) {}

    /**
     * A vec0 table of the catalogue. {@code key} is the rowid or the declared primary key; the one
     * vector column is {@code column}, of {@code dims} dimensions of {@code kind}.
     */
    record Table(String name, String schema, String args, String key, boolean textKey, String column, Kind kind, int dims,
            List<Extra> extras) {
        String ddl() {
            return "CREATE VIRTUAL TABLE IF NOT EXISTS " + schema + "." + name + " USING vec0(" + args + ")";
        }
    }

    private static Table table(String name, String args, Kind kind, int dims, Extra... extras) {
        return new Table(name, "main", args, "rowid", false, "embedding", kind, dims, List.of(extras));
    }

    /** The table long KNNs run over (filled by vec.fill): big enough that a KNN repeated per row takes a while. */
    static final Table BIG = table("vbig", "embedding float[64]", Kind.FLOAT32, 64);
    static final int BIG_ROWS = 1000;

    static final List<Table> TABLES = List.of(
            table("vf", "embedding float[8] distance_metric=cosine", Kind.FLOAT32, 8),
            new Table("vl", "main", "id INTEGER PRIMARY KEY, embedding float[8], chunk_size=8", "id", false, "embedding",
                    Kind.FLOAT32, 8, List.of()),
            table("vi", "embedding int8[8]", Kind.INT8, 8),
            table("vb", "embedding bit[16]", Kind.BIT, 16),
            table("vm", "embedding float[4], genre text, year integer, score float, flag boolean", Kind.FLOAT32, 4,
                    new Extra("genre", ColumnType.TEXT), new Extra("year", ColumnType.INTEGER),
                    new Extra("score", ColumnType.FLOAT), new Extra("flag", ColumnType.BOOLEAN)),
            table("vp", "user_id integer partition key, embedding float[4] distance_metric=l1", Kind.FLOAT32, 4,
                    new Extra("user_id", ColumnType.INTEGER)),
            table("va", "embedding float[4], +title text, +payload blob", Kind.FLOAT32, 4,
                    new Extra("title", ColumnType.TEXT), new Extra("payload", ColumnType.BLOB)),
            new Table("vt", "main", "id text primary key, genre text partition key, embedding float[4]", "id", true,
                    "embedding", Kind.FLOAT32, 4, List.of(new Extra("genre", ColumnType.TEXT))),
            // TEMP: a pooled handle's reset drops it, maybe under an open cursor
            new Table("vtmp", "temp", "embedding float[4]", "rowid", false, "embedding", Kind.FLOAT32, 4, List.of()),
            BIG);

    /** vec0 declarations sqlite-vec must refuse with an error (limits, unknown options, malformed columns). */
    static final List<String> BAD_DDL = List.of("vec0()", "vec0(embedding float[0])", "vec0(embedding float[8193])",
            "vec0(embedding float[-1])", "vec0(embedding float[99999999999999999999])", "vec0(embedding)",
            "vec0(embedding float[4] distance_metric=nosuch)", "vec0(embedding float[4], chunk_size=7)",
            "vec0(embedding float[4], chunk_size=0)", "vec0(embedding float[4], chunk_size=8192)",
            "vec0(embedding float[4], embedding float[4])", "vec0(embedding bit[12])", "vec0(embedding int8[4] distance_metric=hamming)",
            "vec0(a integer partition key, b integer partition key, c integer partition key, d integer partition key,"
                    + " e integer partition key, v float[4])",
            "vec0(v float[4], m1 text, m2 text, m3 text, m4 text, m5 text, m6 text, m7 text, m8 text, m9 text, m10 text,"
                    + " m11 text, m12 text, m13 text, m14 text, m15 text, m16 text, m17 text)",
            "vec0(id text primary key, id2 integer primary key, v float[4])", "vec0(v float[4], +)", "vec0(v float[4], x json)");

    @FunctionalInterface
    interface ConnAction {
        void run(Ctx x, Connection c) throws Exception;
    }

    /** An action on a shared connection ({@link Ctx#conn}); nothing when there is none. */
    private static void onConn(Adder a, String name, int weight, ConnAction action) {
        a.add(name, weight, x -> {
            Connection c = x.conn();
            if (c != null) {
                action.run(x, c);
            }
        });
    }

    static void register(Adder a) {
        onConn(a, "vec.create", 2, (x, c) -> run(x, c, x.chance(85) ? x.oneOf(TABLES).ddl()
                : "CREATE VIRTUAL TABLE IF NOT EXISTS vbad USING " + x.oneOf(BAD_DDL)));
        onConn(a, "vec.insert", 5, (x, c) -> insert(x, c, created(x, c, x.oneOf(TABLES))));
        onConn(a, "vec.fill", 1, (x, c) -> fill(x, c));
        onConn(a, "vec.knn", 5, (x, c) -> knn(x, c, created(x, c, x.oneOf(TABLES))));
        onConn(a, "vec.long", 2, (x, c) -> longKnn(x, c));
        onConn(a, "vec.scan", 3, (x, c) -> scan(x, c, created(x, c, x.oneOf(TABLES))));
        onConn(a, "vec.modify", 3, (x, c) -> modify(x, c, created(x, c, x.oneOf(TABLES))));
        onConn(a, "vec.drop", 1, (x, c) -> dropUnderCursor(x, c, created(x, c, x.oneOf(TABLES))));
        onConn(a, "vec.fn", 3, (x, c) -> functions(x, c));
        onConn(a, "vec.inFunction", 2, (x, c) -> inFunction(x, c));
        a.add("vec.fresh", 2, x -> fresh(x));
        a.add("vec.get", 3, x -> { // vectors read from whatever result the other threads left open
            ResultSet rs = x.w.results.pick(x.r);
            if (rs != null) {
                if (x.chance(30)) {
                    rs.next();
                }
                readVector(x, rs, x.index());
            }
        });
        a.add("vec.mutate", 2, x -> { // a float[] bound by another thread, changed before or while it executes
            float[] v = x.w.vectors.pick(x.r);
            if (v == null || x.chance(20)) {
                x.w.vectors.put(x.r, floats(x, x.oneOf(List.of(4, 8, 64, 3))));
            } else if (v.length > 0) {
                v[x.r.nextInt(v.length)] = x.oneOf(List.of(Float.NaN, Float.POSITIVE_INFINITY, 0f, x.r.nextFloat(), -1e30f));
            }
        });
        a.add("vec.open", 1, x -> {
            String url = x.w.url(x.r) + "&vector_search=" + x.oneOf(List.of("true", "false", "true", "maybe", ""));
            x.note(url);
            Connection c = java.sql.DriverManager.getConnection(url); // true on an engine without sqlite-vec: refused
            x.w.opened.add(c);
            Connection old = x.w.connections.put(x.r, c);
            if (old != null && x.chance(50)) {
                old.close();
            }
        });
        a.add("vec.pooled", 1, x -> pooled(x));
        onConn(a, "vec.plain", 2, (x, c) -> plain(x, c));
    }

    // ---------------------------------------------------------------- writing

    static void insert(Ctx x, Connection c, Table t) throws SQLException {
        StringBuilder columns = new StringBuilder();
        StringBuilder values = new StringBuilder();
        boolean withKey = t.textKey || x.chance(70);
        if (withKey) {
            columns.append(t.key).append(", ");
            values.append("?, ");
        }
        columns.append(t.column);
        values.append(wrap(x, t.kind));
        List<Extra> extras = x.chance(90) ? t.extras : List.of();
        for (Extra e : extras) {
            columns.append(", ").append(e.name());
            values.append(", ?");
        }
        String sql = (x.chance(10) ? "INSERT OR REPLACE INTO " : "INSERT INTO ") + t.name + "(" + columns + ") VALUES (" + values + ")";
        x.note(sql);
        PreparedStatement p = c.prepareStatement(sql);
        try {
            int rows = x.chance(30) ? 1 + x.r.nextInt(20) : 0; // 0: one executeUpdate, else a batch of that many
            for (int row = Math.max(rows, 1); row > 0; row--) {
                int i = 1;
                if (withKey) {
                    bindKey(x, p, i++, t);
                }
                bindVector(x, p, i++, t.kind, t.dims);
                for (Extra e : extras) {
                    bindExtra(x, p, i++, e);
                }
                if (rows > 0) {
                    p.addBatch();
                }
            }
            if (rows > 0) {
                p.executeBatch();
            } else {
                p.executeUpdate();
            }
        } finally {
            shareOrClose(x, p);
        }
    }

    /** vbig, filled by a batch of float[] vectors (BatchRows' float path) until it has BIG_ROWS rows. */
    static void fill(Ctx x, Connection c) throws SQLException {
        run(x, c, BIG.ddl());
        long have;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM vbig")) {
            have = rs.next() ? rs.getLong(1) : BIG_ROWS;
        }
        if (have >= BIG_ROWS) {
            return;
        }
        x.note("fill vbig from " + have);
        try (PreparedStatement p = c.prepareStatement("INSERT OR REPLACE INTO vbig(rowid, embedding) VALUES (?, ?)")) {
            for (long id = have + 1; id <= BIG_ROWS; id++) {
                p.setLong(1, id);
                float[] v = gaussian(x, BIG.dims);
                if (x.r.nextInt(2000) == 0) {
                    v[x.r.nextInt(v.length)] = Float.NaN; // refused at addBatch: the rows before it stay
                }
                p.setObject(2, v);
                p.addBatch();
            }
            boolean transaction = c.getAutoCommit() && x.chance(70);
            if (transaction) {
                c.setAutoCommit(false);
            }
            try {
                p.executeBatch();
            } finally {
                if (transaction) {
                    c.setAutoCommit(true); // commits, as JDBC says (another thread may have changed it meanwhile)
                }
            }
        }
    }

    /** A parameter binder of a statement that changes a vec0 table. */
    private interface Binder {
        void bind(Ctx x, PreparedStatement p, int i) throws SQLException;
    }

    static void modify(Ctx x, Connection c, Table t) throws SQLException {
        Binder vector = (y, p, i) -> bindVector(y, p, i, t.kind, t.dims);
        Binder key = (y, p, i) -> bindKey(y, p, i, t);
        Binder extra = t.extras.isEmpty() ? key : (y, p, i) -> bindExtra(y, p, i, t.extras.get(0));
        String keyPlus = t.textKey ? t.key + " || 'x'" : t.key + " + 1000";
        int draw = x.r.nextInt(8);
        String sql = switch (draw) {
            case 0 -> "DELETE FROM " + t.name + " WHERE " + t.key + " IN (SELECT " + t.key + " FROM " + t.name + " LIMIT 3)";
            case 1 -> "DELETE FROM " + t.name;
            case 2 -> "UPDATE " + t.name + " SET " + t.column + " = " + wrap(x, t.kind) + " WHERE " + t.key + " = ?";
            case 3 -> "UPDATE " + t.name + " SET " + (t.extras.isEmpty() ? t.key : t.extras.get(0).name()) + " = ? WHERE "
                    + t.key + " = ?";
            // from a scan of itself: sqlite-vec's cursor and its own write meet
            case 4 -> "INSERT INTO " + t.name + "(" + t.key + ", " + t.column + ") SELECT " + keyPlus + ", " + t.column
                    + " FROM " + t.name + " LIMIT 5";
            case 5 -> "DELETE FROM " + t.name + " WHERE " + t.column + " MATCH " + wrap(x, t.kind) + " AND k = 2";
            case 6 -> "INSERT INTO " + t.name + "(" + t.name + ") VALUES ('optimize')"; // a command vec0 may not know
            default -> "DELETE FROM " + t.name + " WHERE " + t.key + " = ?";
        };
        List<Binder> binders = switch (draw) {
            case 2 -> List.of(vector, key);
            case 3 -> List.of(extra, key);
            case 5 -> List.of(vector);
            case 7 -> List.of(key);
            default -> List.of();
        };
        x.note(sql);
        PreparedStatement p = c.prepareStatement(sql);
        try {
            for (int i = 0; i < binders.size(); i++) {
                binders.get(i).bind(x, p, i + 1);
            }
            p.executeUpdate();
        } finally {
            shareOrClose(x, p);
        }
    }

    // ---------------------------------------------------------------- reading

    static void knn(Ctx x, Connection c, Table t) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ").append(t.key).append(", distance");
        for (Extra e : t.extras) {
            if (x.chance(50)) {
                sql.append(", ").append(e.name());
            }
        }
        if (x.chance(30)) {
            sql.append(", ").append(t.column);
        }
        sql.append(" FROM ").append(t.name).append(" WHERE ").append(t.column).append(" MATCH ").append(wrap(x, t.kind));
        boolean limit = x.chance(25); // the other form of a KNN: ORDER BY distance LIMIT ?
        if (!limit) {
            sql.append(" AND k = ?");
        }
        List<Extra> filters = new ArrayList<>();
        for (Extra e : t.extras) {
            if (x.chance(40) && e.type() != ColumnType.BLOB) {
                filters.add(e);
                sql.append(" AND ").append(e.name()).append(x.oneOf(List.of(" = ?", " >= ?", " < ?", " != ?")));
            }
        }
        if (!limit && x.chance(40) || limit) {
            sql.append(" ORDER BY distance");
        }
        if (limit) {
            sql.append(" LIMIT ?");
        }
        x.note(sql.toString());
        PreparedStatement p = c.prepareStatement(sql.toString());
        boolean shared = false;
        try {
            int i = 1;
            bindVector(x, p, i++, t.kind, t.dims);
            if (!limit) {
                bindK(x, p, i++);
            }
            for (Extra e : filters) {
                bindExtra(x, p, i++, e);
            }
            if (limit) {
                bindK(x, p, i);
            }
            if (x.chance(30)) {
                p.setFetchSize(x.oneOf(List.of(1, 2, 64, 0)));
            }
            ResultSet rs = p.executeQuery();
            if (x.chance(40)) { // left open, with its statement, for the other threads to read, re-run and close
                x.w.results.put(x.r, rs);
                x.w.prepared.put(x.r, p);
                shared = true;
                return;
            }
            try (rs) {
                while (rs.next()) {
                    readVector(x, rs, x.chance(50) ? rs.getMetaData().getColumnCount() : x.index());
                    if (x.chance(20)) {
                        Actions.get(x, rs);
                    }
                }
            }
        } finally {
            if (!shared) {
                shareOrClose(x, p);
            }
        }
    }

    /**
     * A KNN repeated for each of many rows (a correlated k, so each row opens its own KNN cursor over
     * vbig): long enough for another thread to close the connection, abort it, cancel, time out, close
     * the statement or the result set, or interrupt this thread while it steps. Or left open for the
     * other threads' actions to meet it, or run under a query timeout.
     */
    static void longKnn(Ctx x, Connection c) throws Exception {
        fill(x, c); // at once when vbig is full
        int n = x.oneOf(List.of(100, 600, 2500)); // 2,500: about half a second on a laptop
        // vec_length(embedding) reads each row's vector: sqlite-vec looks its chunk up with a statement it
        // prepares at first use, which an interrupt arriving first made fail (and crash, before bundled.c's fix)
        String inner = x.oneOf(List.of("distance", "distance", "vec_length(embedding)", "fz_f(distance)", "fz_vec(distance)"));
        String sql = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < " + n + ") SELECT i, (SELECT sum("
                + inner + ") FROM vbig WHERE embedding MATCH ?1 AND k = 1 + i % 8) FROM r";
        x.note(sql);
        PreparedStatement p = c.prepareStatement(sql);
        p.setObject(1, x.chance(90) ? gaussian(x, BIG.dims) : floats(x, 3)); // a wrong length fails at the first row
        int how = x.r.nextInt(10);
        if (how == 0) { // for the other threads: their cancel, close, abort and reads meet it
            x.w.prepared.put(x.r, p);
            x.w.results.put(x.r, p.executeQuery());
            return;
        }
        if (how == 1) {
            p.setQueryTimeout(1);
        }
        Thread stopper = how >= 2 ? stopLater(x, c, p, Thread.currentThread()) : null;
        try {
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    rs.getObject(2);
                }
            }
        } finally {
            try {
                p.close();
            } finally {
                if (stopper != null) {
                    joinUninterruptibly(stopper);
                }
            }
        }
    }

    private static final long TIMEOUT_MILLIS = 60_000;

    /**
     * Waits for the stopper whatever interrupts this thread meanwhile (the stopper itself may, and so
     * may another thread's conn.interrupt), keeping the interrupt for whoever looks next.
     */
    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000;
        while (t.isAlive() && System.nanoTime() - deadline < 0) {
            try {
                t.join(TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A thread that stops {@code p}'s query (running on {@code runner}) after a random short while. */
    private static Thread stopLater(Ctx x, Connection c, PreparedStatement p, Thread runner) {
        int how = x.r.nextInt(7);
        int delayMicros = x.oneOf(List.of(0, x.r.nextInt(1000), x.r.nextInt(30_000))); // 0: before the KNN starts, often
        return Thread.ofVirtual().name("fuzz-vec-stopper").start(() -> {
            java.util.concurrent.locks.LockSupport.parkNanos(delayMicros * 1000L);
            try {
                switch (how) {
                    case 0 -> c.close();
                    case 1 -> c.abort(Callbacks.ABORTER);
                    case 2 -> c.abort(Runnable::run);
                    case 3 -> p.cancel();
                    case 4 -> p.close();
                    case 5 -> {
                        ResultSet rs = p.getResultSet();
                        if (rs != null) {
                            rs.close();
                        }
                    }
                    default -> runner.interrupt();
                }
            } catch (SQLException e) {
                x.w.sqlException(e);
            } catch (Throwable t) {
                x.w.finding("vec.long: stopping a KNN from another thread (" + how + ")", t);
            }
        });
    }

    static void scan(Ctx x, Connection c, Table t) throws SQLException {
        String sql = x.oneOf(List.of("SELECT " + t.key + ", * FROM " + t.name, "SELECT * FROM " + t.name + " WHERE " + t.key + " = ?",
                "SELECT " + t.column + " FROM " + t.name + " WHERE " + t.key + " IN (1, 2, 3, 'k1')",
                "SELECT count(*) FROM " + t.name, "SELECT * FROM " + t.name + " WHERE " + t.key + " > ? ORDER BY " + t.key + " DESC",
                "SELECT vec_to_json(" + t.column + "), vec_length(" + t.column + ") FROM " + t.name,
                "SELECT * FROM " + t.name + "_info", "SELECT * FROM " + t.name + "_chunks", "SELECT * FROM " + t.name + "_rowids"));
        x.note(sql);
        PreparedStatement p = c.prepareStatement(sql);
        if (sql.contains("?")) {
            bindKey(x, p, 1, t);
        }
        ResultSet rs = p.executeQuery();
        x.w.prepared.put(x.r, p);
        if (x.chance(50)) {
            x.w.results.put(x.r, rs);
        } else {
            try (rs) {
                while (rs.next()) {
                    readVector(x, rs, 1 + x.r.nextInt(rs.getMetaData().getColumnCount()));
                }
            }
        }
    }

    /**
     * DROP TABLE of a vec0 table while a cursor over it is open: on the same connection (SQLite
     * refuses, "database table is locked"), on another connection to the same file (a cursor reading
     * the dropped table's shadow tables from its own snapshot, or the drop waiting for the lock), or
     * through a shared statement; then the cursor is read on.
     */
    static void dropUnderCursor(Ctx x, Connection c, Table t) throws SQLException {
        PreparedStatement p = c.prepareStatement(x.chance(50) ? "SELECT * FROM " + t.name
                : "SELECT " + t.key + ", distance FROM " + t.name + " WHERE " + t.column + " MATCH " + wrap(t.kind) + " AND k = 50");
        ResultSet rs = null;
        try {
            if (p.getParameterMetaData().getParameterCount() > 0) {
                bindVector(x, p, 1, t.kind, t.dims);
            }
            rs = p.executeQuery();
            rs.next();
            Connection dropper = x.chance(50) ? c : x.conn();
            if (dropper != null) {
                run(x, dropper, "DROP TABLE " + (x.chance(50) ? "IF EXISTS " : "") + t.schema + "." + t.name);
            }
        } catch (SQLException e) {
            x.w.sqlException(e);
        } finally {
            try {
                if (rs != null) {
                    if (x.chance(40)) {
                        x.w.results.put(x.r, rs); // read on by others
                    } else {
                        try (ResultSet r = rs) {
                            while (r.next()) {
                                readVector(x, r, 1 + x.r.nextInt(2));
                            }
                        }
                    }
                }
            } finally {
                shareOrClose(x, p);
            }
        }
    }

    /** Vector functions with vectors of every form (and a table-valued one, vec_each), over stored ones and inside callbacks. */
    static final List<String> FUNCTIONS = List.of("SELECT vec_distance_cosine(?, ?)", "SELECT vec_distance_l2(?, ?)",
            "SELECT vec_distance_l1(?, ?)", "SELECT vec_distance_hamming(vec_bit(?), vec_bit(?))",
            "SELECT vec_distance_l2(vec_int8(?), vec_int8(?))", "SELECT vec_f32(?)", "SELECT vec_int8(?)", "SELECT vec_bit(?)",
            "SELECT vec_length(?), vec_type(?)", "SELECT vec_to_json(?)", "SELECT vec_normalize(?)", "SELECT vec_slice(?, ?, ?)",
            "SELECT vec_slice(vec_bit(?), ?, ?)", "SELECT vec_quantize_binary(?)", "SELECT vec_quantize_int8(?, 'unit')",
            "SELECT vec_quantize_int8(?, ?)", "SELECT vec_add(?, ?)", "SELECT vec_sub(?, ?)", "SELECT rowid, value FROM vec_each(?)",
            "SELECT value FROM vec_each(vec_int8(?)) ORDER BY value DESC", "SELECT vec_to_json(vec_slice(vec_normalize(?), 0, 4))",
            "SELECT vec_distance_l2(embedding, ?) AS d FROM vl ORDER BY d LIMIT 5",
            "SELECT fz_agg(vec_distance_cosine(embedding, ?)), fz_f(vec_length(embedding)) FROM vf",
            "SELECT fz_win(vec_length(embedding)) OVER (ORDER BY rowid) FROM va",
            "SELECT vec_to_json(embedding), fz_f(embedding) FROM vm WHERE embedding MATCH ? AND k = 3",
            "SELECT (SELECT group_concat(value) FROM vec_each(embedding)) FROM vl WHERE id < ?",
            "SELECT vec_version(), vec_debug()");

    static void functions(Ctx x, Connection c) throws SQLException {
        String sql = x.oneOf(FUNCTIONS);
        x.note(sql);
        PreparedStatement p = c.prepareStatement(sql);
        try {
            int n = p.getParameterMetaData().getParameterCount();
            int dims = x.oneOf(List.of(4, 8, 16));
            for (int i = 1; i <= n; i++) {
                if (x.chance(80)) {
                    bindVector(x, p, i, x.oneOf(List.of(Kind.FLOAT32, Kind.FLOAT32, Kind.INT8, Kind.BIT)), dims);
                } else {
                    p.setObject(i, x.oneOf(List.of(0, 4, -1, 3, 8, Integer.MAX_VALUE, "unit", "s8", "")));
                }
            }
            ResultSet rs = p.executeQuery();
            if (x.chance(20)) { // left open (with its statement) for the other threads
                x.w.results.put(x.r, rs);
                x.w.prepared.put(x.r, p);
                return;
            }
            drain(x, rs);
            p.close();
        } catch (SQLException | RuntimeException e) {
            shareOrClose(x, p);
            throw e;
        }
    }

    // ---------------------------------------------------------------- inside callbacks

    /** What fz_vec does, drawn when it is registered. */
    enum Mode { VECTOR_SQL, KNN_OWN, LEAVE_OPEN, CHANGE_SCANNED, DROP_SCANNED, CLOSE_OWN, ABORT_OWN, CANCEL_RUNNING, MISBEHAVE }

    /**
     * fz_vec (a function) and fz_vagg (an aggregate), Java callbacks that run vector SQL on their own
     * connection (a distance, a KNN, one left open for the other threads), change or drop the vec0
     * table the calling query scans, close or abort their connection, or misbehave as the fuzz's
     * other callbacks do; then a KNN or a scan that calls them per row.
     */
    static void inFunction(Ctx x, Connection c) throws SQLException {
        World w = x.w;
        PanliteConnection pc = c.unwrap(PanliteConnection.class);
        Mode mode = x.oneOf(List.of(Mode.values()));
        Callbacks.Mood mood = Callbacks.mood(x);
        java.util.concurrent.atomic.AtomicReference<Statement> running = new java.util.concurrent.atomic.AtomicReference<>();
        SqlFunction body = args -> callback(w, c, running, mode, mood, args);
        if (x.chance(70)) {
            pc.createFunction("fz_vec", -1, false, body);
        }
        if (x.chance(40)) {
            Mode finishMode = x.oneOf(List.of(Mode.values()));
            pc.createAggregate("fz_vagg", -1, false, () -> new SqlAggregate() {
                Object last;

                @Override
                public void step(Object[] args) throws Exception {
                    last = body.call(args);
                }

                @Override
                public Object finish() throws Exception {
                    callback(w, c, running, finishMode, mood, new Object[] {last});
                    return last;
                }
            });
        }
        String sql = x.oneOf(List.of("SELECT id, fz_vec(distance) FROM vl WHERE embedding MATCH ? AND k = 10",
                "SELECT id, fz_vec(distance), embedding FROM vl WHERE embedding MATCH ? AND k = 10", // reads vectors after it
                "SELECT fz_vec(rowid), vec_to_json(embedding) FROM vf",
                "SELECT fz_vec(embedding) FROM vl", "SELECT rowid FROM vf WHERE embedding MATCH ? AND k = 5 AND fz_vec(rowid) IS NOT NULL",
                "SELECT fz_vec(vec_distance_cosine(embedding, ?)) FROM vf", "SELECT fz_vagg(embedding) FROM vl",
                "SELECT fz_vagg(distance), fz_vagg(vec_to_json(embedding)) FROM vl WHERE embedding MATCH ? AND k = 20",
                "SELECT fz_vec(value) FROM vec_each(?)", "SELECT fz_vec(rowid, genre) FROM vm WHERE embedding MATCH ? AND k = 4"));
        x.note(sql);
        PreparedStatement p = c.prepareStatement(sql);
        running.set(p);
        try {
            if (p.getParameterMetaData().getParameterCount() > 0) {
                bindVector(x, p, 1, Kind.FLOAT32, sql.contains("vm") ? 4 : 8);
            }
            Actions.keepOrDrain(x, p.executeQuery(), 15);
        } finally {
            shareOrClose(x, p);
        }
    }

    private static Object callback(World w, Connection own, java.util.concurrent.atomic.AtomicReference<Statement> running,
            Mode mode, Callbacks.Mood mood, Object[] args) throws Exception {
        Ctx x = Ctx.current(w);
        Object arg = args.length > 0 ? args[0] : null;
        return switch (mode) {
            case VECTOR_SQL -> Callbacks.guard(w, "fz_vec", () -> {
                try (PreparedStatement p = own.prepareStatement(x.oneOf(List.of("SELECT vec_distance_l2(?, ?)",
                        "SELECT vec_length(vec_normalize(?)) + ?", "SELECT vec_to_json(vec_slice(?, 0, 4)) || ?")))) {
                    p.setObject(1, arg instanceof byte[] b ? b : floats(x, 8));
                    p.setObject(2, arg instanceof byte[] b ? b : floats(x, 8));
                    try (ResultSet rs = p.executeQuery()) {
                        return rs.next() ? rs.getObject(1) : null;
                    }
                }
            });
            case KNN_OWN, LEAVE_OPEN -> Callbacks.guard(w, "fz_vec", () -> {
                Table t = x.oneOf(List.of(TABLES.get(0), TABLES.get(1), BIG));
                PreparedStatement p = own.prepareStatement("SELECT " + t.key + ", distance FROM " + t.name + " WHERE "
                        + t.column + " MATCH ? AND k = 3");
                p.setObject(1, floats(x, t.dims));
                ResultSet rs = p.executeQuery();
                if (mode == Mode.LEAVE_OPEN) { // a KNN opened inside a callback, read and closed by the other threads
                    w.prepared.put(x.r, p);
                    w.results.put(x.r, rs);
                    return "left open";
                }
                try (p; rs) {
                    return rs.next() ? rs.getObject(2) : null;
                }
            });
            case CHANGE_SCANNED -> Callbacks.guard(w, "fz_vec", () -> {
                try (PreparedStatement p = own.prepareStatement(x.oneOf(List.of("DELETE FROM vl WHERE id IN (SELECT id FROM vl LIMIT 2)",
                        "INSERT INTO vl(embedding) VALUES (?)", "UPDATE vl SET embedding = ? WHERE id = (SELECT max(id) FROM vl)",
                        "DELETE FROM vf", "INSERT INTO vf(embedding) VALUES (?)")))) {
                    if (p.getParameterMetaData().getParameterCount() > 0) {
                        p.setObject(1, floats(x, 8));
                    }
                    return p.executeUpdate();
                }
            });
            case DROP_SCANNED -> Callbacks.guard(w, "fz_vec", () -> {
                try (Statement s = own.createStatement()) {
                    s.execute(x.oneOf(List.of("DROP TABLE vl", "DROP TABLE vf", "DROP TABLE IF EXISTS vm")));
                }
                return "dropped";
            });
            case CLOSE_OWN -> Callbacks.guard(w, "fz_vec", () -> {
                own.close(); // while the KNN calling it runs on this connection: deferred to its end
                return "closed";
            });
            case CANCEL_RUNNING -> Callbacks.guard(w, "fz_vec", () -> {
                // the query it was registered for (interrupted before it reads the row's vector); none when
                // that one failed to prepare, and fz_vec is called by another query (vec.long's)
                Statement s = running.get();
                if (s != null) {
                    s.cancel();
                }
                return "cancelled";
            });
            case ABORT_OWN -> Callbacks.guard(w, "fz_vec", () -> {
                own.abort(x.chance(50) ? Runnable::run : Callbacks.ABORTER);
                return "aborted";
            });
            default -> Callbacks.misbehave(w, mood, own, "fz_vec", args);
        };
    }

    /**
     * sqlite-vec prepares the statements it reads and writes its shadow tables with at their first
     * use on a connection: an interrupt in force then makes that prepare fail, and its error paths run
     * (one of them called sqlite3_clear_bindings(NULL) and took the JVM down). On a new connection to
     * a file whose vec0 tables exist, a statement over one of them interrupts itself through fz_stop
     * (cancel, abort, or a close from another thread) before sqlite-vec reads a vector or writes.
     */
    static void fresh(Ctx x) throws SQLException {
        Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + x.w.file(x.r.nextInt(2)) + "?busy_timeout=50",
                new java.util.Properties());
        x.w.opened.add(c);
        Table t = x.oneOf(TABLES.subList(0, TABLES.size() - 2)); // main's, not vtmp (TEMP) nor vbig
        String sql = switch (x.r.nextInt(6)) {
            case 0, 1 -> "SELECT " + t.key + ", fz_stop(distance), " + t.column + " FROM " + t.name + " WHERE " + t.column
                    + " MATCH " + wrap(t.kind) + " AND k = 5";
            case 2 -> "SELECT fz_stop(" + t.key + "), " + t.column + " FROM " + t.name;
            case 3 -> "DELETE FROM " + t.name + " WHERE fz_stop(" + t.key + ") IN (SELECT " + t.key + " FROM " + t.name + " LIMIT 1)";
            case 4 -> "UPDATE " + t.name + " SET " + t.column + " = " + t.column + " WHERE fz_stop(" + t.key + ") IS NOT NULL";
            default -> "INSERT INTO " + t.name + "(" + t.column + ") SELECT fz_stop(" + t.column + ") FROM " + t.name + " LIMIT 2";
        };
        x.note(sql);
        int how = x.r.nextInt(4);
        java.util.concurrent.atomic.AtomicReference<Statement> running = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        World w = x.w;
        c.unwrap(PanliteConnection.class).createFunction("fz_stop", 1, false, args -> {
            if (!stopped.getAndSet(true)) {
                Callbacks.guard(w, "fz_stop", () -> {
                    switch (how) {
                        case 0, 1 -> running.get().cancel();
                        case 2 -> c.abort(Runnable::run);
                        default -> Thread.ofVirtual().start(() -> { // interrupts, then waits for this statement
                            try {
                                c.close();
                            } catch (SQLException e) {
                                w.sqlException(e);
                            } catch (Throwable e) {
                                w.finding("vec.fresh: close from another thread", e);
                            }
                        });
                    }
                    return null;
                });
            }
            return args[0];
        });
        PreparedStatement p = c.prepareStatement(sql);
        running.set(p);
        try {
            if (sql.contains(" MATCH ")) {
                bindVector(x, p, 1, t.kind, t.dims);
            }
            if (p.execute()) {
                drain(x, p.getResultSet());
            }
        } finally {
            if (x.chance(50)) {
                p.close();
                c.close();
            } else {
                x.w.prepared.put(x.r, p);
                Connection old = x.w.connections.put(x.r, c);
                if (old != null && x.chance(50)) {
                    old.close();
                }
            }
        }
    }

    // ---------------------------------------------------------------- pooled handles, plain tables

    /**
     * A pooled handle with a TEMP vec0 table and a KNN over it left open; the handle is then closed
     * (its reset drops TEMP objects, under the cursor) or replaced by the next borrower, maybe while
     * another thread reads the KNN.
     */
    static void pooled(Ctx x) throws SQLException {
        javax.sql.PooledConnection pc = x.w.pooled.pick(x.r);
        if (pc == null) {
            return;
        }
        Connection handle = pc.getConnection(); // closes the previous handle, maybe mid-KNN on another thread
        x.w.opened.add(handle);
        Table t = TABLES.get(TABLES.size() - 2); // temp.vtmp
        run(x, handle, t.ddl());
        insert(x, handle, t);
        PreparedStatement p = handle.prepareStatement("SELECT rowid, distance, embedding FROM vtmp WHERE embedding MATCH ? AND k = 3");
        bindVector(x, p, 1, t.kind, t.dims);
        ResultSet rs = p.executeQuery();
        rs.next();
        x.w.prepared.put(x.r, p);
        x.w.results.put(x.r, rs);
        if (x.chance(50)) {
            handle.close(); // the reset: TEMP dropped while the KNN is open
        } else {
            x.w.connections.put(x.r, handle);
        }
    }

    /** float[] vectors through an ordinary table: the binding and reading paths, on every engine. */
    static void plain(Ctx x, Connection c) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t(a, d) VALUES (?, ?) RETURNING id")) {
            p.setString(1, "vec");
            bindVector(x, p, 2, Kind.FLOAT32, x.oneOf(List.of(1, 4, 64)));
            try (ResultSet rs = p.executeQuery()) {
                if (rs.next()) {
                    long id = rs.getLong(1);
                    try (PreparedStatement q = c.prepareStatement("SELECT d, a, b FROM t WHERE id = ?")) {
                        q.setLong(1, id);
                        try (ResultSet back = q.executeQuery()) {
                            while (back.next()) {
                                readVector(x, back, 1 + x.r.nextInt(3));
                            }
                        }
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- ingredients

    /**
     * {@code t}, created first half of the time (most connections are to a new memory database, and
     * vec.drop and vec.modify empty and drop tables): the other half meets whatever is there.
     */
    static Table created(Ctx x, Connection c, Table t) throws SQLException {
        if (x.chance(50)) {
            run(x, c, t.ddl());
        }
        return t;
    }

    static void run(Ctx x, Connection c, String sql) throws SQLException {
        x.note(sql);
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Puts the statement in the shared pool (the others re-run it, change its parameters, close it), or closes it. */
    static void shareOrClose(Ctx x, PreparedStatement p) throws SQLException {
        if (x.chance(25)) {
            x.w.prepared.put(x.r, p);
        } else {
            p.close();
        }
    }

    /** The parameter that carries a vector, wrapped as int8 and bit vectors need (sometimes the wrong wrapper). */
    static String wrap(Ctx x, Kind kind) {
        return x.chance(10) ? x.oneOf(List.of("?", "vec_f32(?)", "vec_int8(?)", "vec_bit(?)")) : wrap(kind);
    }

    static String wrap(Kind kind) {
        return switch (kind) {
            case FLOAT32 -> "?";
            case INT8 -> "vec_int8(?)";
            case BIT -> "vec_bit(?)";
        };
    }

    /** A vector of ordinary numbers. */
    static float[] gaussian(Ctx x, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) x.r.nextGaussian();
        }
        return v;
    }

    /** A vector's float32 elements: mostly ordinary numbers, now and then NaN, an infinity, or an extreme. */
    static float[] floats(Ctx x, int dims) {
        float[] v = gaussian(x, dims);
        if (dims > 0 && x.chance(8)) {
            v[x.r.nextInt(dims)] = x.oneOf(List.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE,
                    Float.MIN_VALUE, -0f));
        }
        return v;
    }

    static byte[] littleEndian(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return b.array();
    }

    static String json(float[] v) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            s.append(i == 0 ? "" : ", ").append(v[i]); // NaN and Infinity as Java spells them: not JSON
        }
        return s.append(']').toString();
    }

    /**
     * Binds a vector of {@code kind} and (mostly) {@code dims} dimensions at {@code i}, one of the ways
     * the driver takes it; a quarter of the time a malformed one.
     */
    static void bindVector(Ctx x, PreparedStatement p, int i, Kind kind, int dims) throws SQLException {
        if (x.chance(25)) {
            bindMalformed(x, p, i, kind, dims);
            return;
        }
        int n = x.chance(90) ? dims : x.oneOf(List.of(0, 1, dims - 1, dims + 1, dims * 2, 8192, 100_000));
        switch (kind) {
            case FLOAT32 -> {
                float[] v = floats(x, Math.max(n, 0));
                switch (x.r.nextInt(8)) {
                    case 0, 1, 2 -> p.setObject(i, v);
                    case 3 -> p.setObject(i, v, VectorType.FLOAT32);
                    case 4 -> p.setObject(i, v, Types.VARCHAR); // JSON text
                    case 5 -> p.setBytes(i, littleEndian(v));
                    case 6 -> p.setString(i, json(v));
                    default -> { // an array other threads change (vec.mutate), bound by reference
                        float[] shared = x.w.vectors.pick(x.r);
                        if (shared == null) {
                            shared = v;
                            x.w.vectors.put(x.r, v);
                        }
                        p.setObject(i, shared);
                    }
                }
            }
            case INT8, BIT -> {
                byte[] b = new byte[Math.max(kind == Kind.BIT ? n / 8 : n, 0)];
                x.r.nextBytes(b);
                switch (x.r.nextInt(4)) {
                    case 0 -> p.setObject(i, b, kind == Kind.INT8 ? VectorType.INT8 : VectorType.BIT);
                    case 1 -> p.setBytes(i, b);
                    case 2 -> p.setObject(i, b);
                    default -> p.setObject(i, b, x.oneOf(List.of(VectorType.values())));
                }
            }
        }
    }

    static void bindMalformed(Ctx x, PreparedStatement p, int i, Kind kind, int dims) throws SQLException {
        switch (x.r.nextInt(16)) {
            case 0 -> p.setBytes(i, new byte[dims * 4 + 1 + x.r.nextInt(3)]); // odd length
            case 1 -> p.setString(i, x.oneOf(List.of("not json", "[1, 2", "[]", "[1,,2]", "[nan]", "[1e999]", "[-1e-999]",
                    "[Inf]", "[null]", "{\"a\": 1}", "[\"1\"]", "[1] x", "[" + "1,".repeat(20_000) + "1]", "[0x10]", "[ 1 , 2 ]")));
            case 2 -> p.setObject(i, new float[0]);
            case 3 -> {
                float[] v = floats(x, dims);
                v[x.r.nextInt(Math.max(dims, 1)) % Math.max(v.length, 1)] = Float.NaN;
                p.setObject(i, v, x.oneOf(List.of(VectorType.FLOAT32, VectorType.FLOAT32, VectorType.INT8)));
            }
            case 4 -> {
                float[] v = floats(x, dims);
                if (v.length > 0) {
                    v[0] = Float.POSITIVE_INFINITY;
                }
                p.setObject(i, v, x.chance(50) ? Types.VARCHAR : Types.CLOB); // JSON cannot hold it
            }
            case 5 -> p.setObject(i, x.oneOf(List.of(42, 4.5, "x", new int[] {1, 2}, new double[] {1, 2})), VectorType.FLOAT32);
            case 6 -> p.setObject(i, floats(x, dims), x.oneOf(List.of(VectorType.INT8, VectorType.BIT)));
            case 7 -> p.setObject(i, new byte[7], VectorType.FLOAT32); // not a multiple of 4
            case 8 -> p.setObject(i, floats(x, dims), x.oneOf(List.of(Types.INTEGER, Types.BLOB, Types.ARRAY, Types.OTHER)));
            case 9 -> p.setNull(i, Types.BLOB);
            case 10 -> p.setObject(i, new float[x.oneOf(List.of(1 << 20, 8193))]); // huge
            case 11 -> p.setObject(i, new double[] {1, 2, 3, 4});
            case 12 -> p.setObject(i, new float[][] {{1, 2}});
            case 13 -> p.setLong(i, x.r.nextLong());
            case 14 -> p.setObject(i, new byte[0], x.oneOf(List.of(VectorType.values())));
            default -> Actions.setParameter(x, p, i);
        }
    }

    static void bindK(Ctx x, PreparedStatement p, int i) throws SQLException {
        if (x.chance(80)) {
            p.setLong(i, x.oneOf(List.of(1L, 3L, 10L, 50L)));
        } else {
            p.setObject(i, x.oneOf(List.of(0, -1, 4096, 4097, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, "ten", 2.5)));
        }
    }

    static void bindKey(Ctx x, PreparedStatement p, int i, Table t) throws SQLException {
        if (x.chance(5)) {
            p.setObject(i, x.value());
        } else if (t.textKey) {
            p.setString(i, "k" + x.r.nextInt(300));
        } else {
            p.setLong(i, 1 + x.r.nextInt(x.chance(90) ? 300 : Integer.MAX_VALUE));
        }
    }

    static void bindExtra(Ctx x, PreparedStatement p, int i, Extra e) throws SQLException {
        if (x.chance(10)) {
            p.setObject(i, x.value()); // any type: sqlite-vec checks its metadata and key types
            return;
        }
        switch (e.type()) {
            case TEXT -> p.setString(i, x.oneOf(List.of("news", "blog", "paper", "", "a longer genre than twelve bytes")));
            case INTEGER -> p.setLong(i, x.r.nextInt(5));
            case FLOAT -> p.setDouble(i, x.r.nextDouble());
            case BOOLEAN -> p.setBoolean(i, x.r.nextBoolean());
            case BLOB -> p.setBytes(i, new byte[x.r.nextInt(40)]);
        }
    }

    /** Reads up to 50 rows, each as vectors or with any getter, and closes the result. */
    static void drain(Ctx x, ResultSet rs) throws SQLException {
        try (rs) {
            for (int row = 0; row < 50 && rs.next(); row++) {
                if (x.chance(60)) {
                    readVector(x, rs, 1 + x.r.nextInt(rs.getMetaData().getColumnCount()));
                } else {
                    Actions.get(x, rs);
                }
            }
        }
    }

    /** Reads column {@code i} as a vector (or its bytes, or its JSON text). */
    static void readVector(Ctx x, ResultSet rs, int i) throws SQLException {
        switch (x.r.nextInt(4)) {
            case 0, 1 -> rs.getObject(i, float[].class);
            case 2 -> rs.getBytes(i);
            default -> rs.getObject(x.oneOf(List.of("embedding", "distance", "d", "id")), float[].class);
        }
    }
}
