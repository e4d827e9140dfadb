package dev.panlite.jdbc;

import dev.panlite.ChildJvm;
import dev.panlite.ffi.RowBuffer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Run by {@link RowBatchTest#rowsWiderThanTheBufferReadAsInPlace} in a child JVM, since a row copy
 * that writes past the row buffer aborts the process (glibc's "double free or corruption" from about
 * 6,000 columns). Reads results of up to the engine's column limit (SQLITE_MAX_COLUMN: 32,767 on the
 * bundled engine, 2,000 by default on a system SQLite; widths over it are left out) through Statement
 * and PreparedStatement, with fetch sizes 1, default and large, each column of each row with one of
 * every getter in turn, and compares what it read with reading every row in place (no batches) and
 * with the values the query computes. Prints {@code widths=...} and {@code ok}; any difference or
 * exception exits non-zero.
 *
 * <p>Args: a directory for the database file.
 */
public final class WideRowsChild {
    private static final int ROWS = 3;

    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + Path.of(args[0]).resolve("wide.db");
        try (Connection c = DriverManager.getConnection(url)) {
            ChildJvm.reportEngine(System.out);
            int limit = columnLimit(c);
            List<Integer> widths = new ArrayList<>();
            for (int w : new int[] {2000, RowBuffer.CELLS / 2 + 1, RowBuffer.CELLS, RowBuffer.CELLS + 1, 6000, 32767}) {
                if (w <= limit) {
                    widths.add(w);
                }
            }
            System.out.println("limit=" + limit);
            System.out.println("widths=" + widths);
            for (int w : widths) {
                readEveryWay(c, w);
                System.out.println("width " + w + " ok");
            }
            System.out.println("ok");
        }
    }

    /** SQLITE_MAX_COLUMN as the engine was built (compile_options names it when it is not the default 2000). */
    static int columnLimit(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA compile_options")) {
            while (rs.next()) {
                String option = rs.getString(1);
                if (option.startsWith("MAX_COLUMN=")) {
                    return Integer.parseInt(option.substring("MAX_COLUMN=".length()));
                }
            }
        }
        return 2000;
    }

    /**
     * A query of {@code width} columns and {@link #ROWS} rows: column i holds, by i % 6, an integer,
     * a real, a text, a blob, NULL, or a text over {@link RowBuffer#VALUE_LIMIT} on the second row
     * (so the row is read in place for that reason too) and a short text otherwise.
     */
    static String query(int width) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < width; i++) {
            if (i > 0) {
                sql.append(',');
            }
            switch (i % 6) {
                case 0 -> sql.append("k*100000+").append(i);
                case 1 -> sql.append("k+").append(i).append(".5");
                case 2 -> sql.append("'t'||k||'.").append(i).append('\'');
                case 3 -> sql.append("CAST('b'||k||'.").append(i).append("' AS BLOB)");
                case 4 -> sql.append("NULL");
                default -> sql.append(i == 5 ? "CASE k WHEN 2 THEN printf('%.*c', 9000, 'x') ELSE '" + i + "' END"
                        : "'" + i + "'");
            }
        }
        return sql.append(" FROM (SELECT column1 AS k FROM (VALUES (1), (2), (3)))").toString();
    }

    /** What column {@code i} of row {@code k} is, as getObject gives it. */
    static Object expected(int k, int i) {
        return switch (i % 6) {
            case 0 -> {
                long v = k * 100000L + i;
                yield v == (int) v ? (Object) (int) v : (Object) v;
            }
            case 1 -> k + i + 0.5;
            case 2 -> "t" + k + "." + i;
            case 3 -> ("b" + k + "." + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            case 4 -> null;
            default -> i == 5 && k == 2 ? "x".repeat(9000) : Integer.toString(i);
        };
    }

    private static void readEveryWay(Connection c, int width) throws SQLException {
        String sql = query(width);
        for (boolean prepared : new boolean[] {false, true}) {
            JdbcStatement.batching = false;
            checkValues(c, sql, width, prepared, 0);
            List<String> inPlace = read(c, sql, width, prepared, 0);
            JdbcStatement.batching = true;
            for (int fetchSize : new int[] {1, 0, 100_000}) {
                checkValues(c, sql, width, prepared, fetchSize);
                List<String> batched = read(c, sql, width, prepared, fetchSize);
                if (!batched.equals(inPlace)) {
                    throw new AssertionError("width " + width + (prepared ? " PreparedStatement" : " Statement")
                            + " fetch size " + fetchSize + ": " + firstDifference(inPlace, batched));
                }
            }
        }
        JdbcStatement.batching = dev.panlite.engine.RowBatch.ENABLED;
    }

    private static ResultSet execute(Statement s, String sql, boolean prepared, int fetchSize) throws SQLException {
        s.setFetchSize(fetchSize);
        return prepared ? ((PreparedStatement) s).executeQuery() : s.executeQuery(sql);
    }

    /** getObject of every column of every row is the value the query computes. */
    private static void checkValues(Connection c, String sql, int width, boolean prepared, int fetchSize)
            throws SQLException {
        String how = "width " + width + (prepared ? " PreparedStatement" : " Statement") + " fetch size " + fetchSize
                + (JdbcStatement.batching ? "" : " in place");
        try (Statement s = prepared ? c.prepareStatement(sql) : c.createStatement();
                ResultSet rs = execute(s, sql, prepared, fetchSize)) {
            if (rs.getMetaData().getColumnCount() != width) {
                throw new AssertionError(how + ": " + rs.getMetaData().getColumnCount() + " columns");
            }
            int k = 0;
            while (rs.next()) {
                k++;
                for (int col = 1; col <= width; col++) {
                    Object want = expected(k, col - 1);
                    Object got = rs.getObject(col);
                    if (want instanceof byte[] b ? !(got instanceof byte[] gb && Arrays.equals(b, gb)) : !Objects.equals(want, got)) {
                        throw new AssertionError(how + ", row " + k + " column " + col + ": " + show(got) + ", expected "
                                + show(want));
                    }
                }
            }
            if (k != ROWS) {
                throw new AssertionError(how + ": " + k + " rows");
            }
        }
    }

    /**
     * A transcript of every row, one getter per column, each column's getter moving on by one per row
     * and column so that every getter meets every storage class (one read of a value each: in place, a
     * conversion may change what SQLite answers next for it). Past 6,000 columns, the columns around
     * the ends and the buffer's edge only ({@link #checkValues} reads them all).
     */
    private static List<String> read(Connection c, String sql, int width, boolean prepared, int fetchSize)
            throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = prepared ? c.prepareStatement(sql) : c.createStatement();
                ResultSet rs = execute(s, sql, prepared, fetchSize)) {
            int k = 0;
            while (rs.next()) {
                k++;
                StringBuilder row = new StringBuilder();
                for (int col = 1; col <= width; col++) {
                    if (width <= 6000 || col <= 200 || Math.abs(col - RowBuffer.CELLS) <= 200 || col > width - 200) {
                        row.append(col).append(':').append(read(rs, (col + k) % GETTERS.size(), col)).append(SEPARATOR);
                    }
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private static final String SEPARATOR = "\u0001";

    private record Getter(String name, Get get) {}

    private interface Get {
        Object get(ResultSet rs, int column) throws SQLException;
    }

    /** Every getter. */
    private static final List<Getter> GETTERS = List.of(
            new Getter("getObject", ResultSet::getObject),
            new Getter("getInt", ResultSet::getInt),
            new Getter("getLong", ResultSet::getLong),
            new Getter("getDouble", ResultSet::getDouble),
            new Getter("getFloat", ResultSet::getFloat),
            new Getter("getShort", ResultSet::getShort),
            new Getter("getByte", ResultSet::getByte),
            new Getter("getBoolean", ResultSet::getBoolean),
            new Getter("getBigDecimal", ResultSet::getBigDecimal),
            new Getter("getString", ResultSet::getString),
            new Getter("getBytes", (rs, col) -> show(rs.getBytes(col))),
            new Getter("getObject(Long)", (rs, col) -> rs.getObject(col, Long.class)),
            new Getter("getObject(BigDecimal)", (rs, col) -> rs.getObject(col, BigDecimal.class)),
            new Getter("getTimestamp", ResultSet::getTimestamp),
            new Getter("getDate", ResultSet::getDate),
            new Getter("getNString", ResultSet::getNString),
            new Getter("getObject(byte[])", (rs, col) -> show(rs.getObject(col, byte[].class))),
            new Getter("getCharacterStream", (rs, col) -> {
                try (java.io.Reader r = rs.getCharacterStream(col)) {
                    if (r == null) {
                        return null;
                    }
                    StringBuilder b = new StringBuilder();
                    r.transferTo(new java.io.Writer() {
                        @Override
                        public void write(char[] cbuf, int off, int len) {
                            b.append(cbuf, off, len);
                        }

                        @Override
                        public void flush() {}

                        @Override
                        public void close() {}
                    });
                    return b.toString();
                } catch (java.io.IOException e) {
                    throw new SQLException(e);
                }
            }),
            new Getter("getBinaryStream", (rs, col) -> {
                try (java.io.InputStream in = rs.getBinaryStream(col)) {
                    return in == null ? null : show(in.readAllBytes());
                } catch (java.io.IOException e) {
                    throw new SQLException(e);
                }
            }));

    private static String read(ResultSet rs, int getter, int col) {
        Getter g = GETTERS.get(getter);
        try {
            Object v = g.get().get(rs, col);
            return g.name() + "=" + show(v) + (rs.wasNull() ? "~null" : "");
        } catch (SQLException e) {
            return g.name() + "!" + e.getClass().getSimpleName() + ":" + e.getMessage();
        }
    }

    private static String show(Object o) {
        return o == null ? "null" : o instanceof byte[] b ? "bytes" + Arrays.toString(b)
                : o instanceof String s && s.length() > 40 ? "text(" + s.length() + ")" + s.hashCode()
                : o.getClass().getSimpleName() + ":" + o;
    }

    private static String firstDifference(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return a.size() + " rows in place, " + b.size() + " batched";
        }
        for (int r = 0; r < a.size(); r++) {
            String[] x = a.get(r).split(SEPARATOR);
            String[] y = b.get(r).split(SEPARATOR);
            for (int i = 0; i < Math.min(x.length, y.length); i++) {
                if (!x[i].equals(y[i])) {
                    return "row " + (r + 1) + ": in place " + x[i] + ", batched " + y[i];
                }
            }
        }
        return "transcripts differ";
    }
}
