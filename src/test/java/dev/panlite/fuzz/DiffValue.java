package dev.panlite.fuzz;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Random;

/**
 * One value of the differential fuzz: an SQL expression that makes it (for texts run through
 * Statement), or a Java object bound with a setter (for PreparedStatement; NaN binds as NULL, as
 * SQLite stores it). Covers every storage class and the odd ones: Long.MIN/MAX, -0.0, infinities,
 * empty strings, embedded NULs, non-BMP characters, invalid UTF-8 and lone surrogates (a blob cast
 * to text), texts and blobs around the row buffer's limits (8 KiB per value, 32 KiB per batch) and
 * far past them.
 *
 * @param sql  the expression (never null; "NULL" for a null)
 * @param bind the object to bind, or {@link #SQL_ONLY} when only the expression can make it
 */
record DiffValue(String sql, Object bind) {
    /** A value only an SQL expression makes (a blob cast to text, zeroblob, char(0)). */
    static final Object SQL_ONLY = new Object() {
        @Override
        public String toString() {
            return "(sql only)";
        }
    };

    /** Sizes around the row buffer's value limit (8 KiB) and batch heap (32 KiB), and far past them. */
    private static final int[] BIG_SIZES = {8191, 8192, 8193, 16384, 32767, 32768, 40000, 100_000};

    static DiffValue ofNull() {
        return new DiffValue("NULL", null);
    }

    static DiffValue ofLong(long v) {
        // -9223372036854775808 as a literal is a REAL in some versions' parsers: write it as arithmetic
        return new DiffValue(v == Long.MIN_VALUE ? "(-9223372036854775807-1)" : Long.toString(v), v);
    }

    static DiffValue ofDouble(double d) {
        String sql;
        if (Double.isNaN(d)) {
            sql = "NULL"; // SQLite stores a bound NaN as NULL
        } else if (Double.isInfinite(d)) {
            sql = d > 0 ? "1e999" : "-1e999";
        } else if (d == 0 && 1 / d < 0) {
            sql = "-0.0";
        } else {
            sql = Double.toString(d).replace("E", "e");
            if (!sql.contains(".") && !sql.contains("e")) {
                sql += ".0";
            }
        }
        return new DiffValue(sql, d);
    }

    static DiffValue ofText(String s) {
        return new DiffValue(literal(s), s);
    }

    static DiffValue ofBytes(byte[] b) {
        return new DiffValue("x'" + hex(b) + "'", b);
    }

    /** An SQL literal for {@code s}; NUL characters are spliced in with char(0). */
    static String literal(String s) {
        if (s.indexOf('\0') < 0) {
            return "'" + s.replace("'", "''") + "'";
        }
        StringBuilder b = new StringBuilder("(");
        String[] parts = s.split("\0", -1);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                b.append(" || char(0) || ");
            }
            b.append('\'').append(parts[i].replace("'", "''")).append('\'');
        }
        return b.append(')').toString();
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return s.toString().toUpperCase();
    }

    /** Binds this value as parameter {@code i}, with the setter its Java class calls for. */
    void bindTo(PreparedStatement ps, int i) throws SQLException {
        Object b = bind;
        if (b == SQL_ONLY) {
            throw new IllegalStateException("not bindable: " + sql);
        }
        if (b == null) {
            ps.setNull(i, Types.NULL);
        } else if (b instanceof Long l) {
            ps.setLong(i, l);
        } else if (b instanceof Integer n) {
            ps.setInt(i, n);
        } else if (b instanceof Double d) {
            ps.setDouble(i, d);
        } else if (b instanceof String s) {
            ps.setString(i, s);
        } else if (b instanceof byte[] bytes) {
            ps.setBytes(i, bytes);
        } else {
            ps.setObject(i, b); // BigDecimal, Boolean
        }
    }

    boolean bindable() {
        return bind != SQL_ONLY;
    }

    /** A short description for a reproduction listing (big values by size). */
    String shown() {
        if (sql.length() <= 80) {
            return sql;
        }
        return sql.substring(0, 40) + "...(" + sql.length() + " chars of SQL)";
    }

    // ------------------------------------------------------------------ generation

    /** The storage-class families values are drawn from. */
    enum Kind { NULL, INTEGER, REAL, TEXT, BLOB, ODD_TEXT, BIG }

    /** A random value of any storage class, odd ones often; {@code big} allows huge texts and blobs. */
    static DiffValue random(Random r, boolean big) {
        Kind[] kinds = Kind.values();
        Kind k = kinds[r.nextInt(big ? kinds.length : kinds.length - 1)];
        return of(r, k);
    }

    /** A random value that binds (no SQL-only ones), for parameters and batches. */
    static DiffValue randomBindable(Random r, boolean big) {
        DiffValue v;
        do {
            v = random(r, big);
        } while (!v.bindable());
        return v;
    }

    static DiffValue of(Random r, Kind k) {
        switch (k) {
            case NULL:
                return r.nextInt(4) == 0 ? ofDouble(Double.NaN) : ofNull();
            case INTEGER: {
                long[] odd = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
                        Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L,
                        (1L << 53) + 1, -(1L << 53) - 1, 255, 65537, 1_000_000_007};
                switch (r.nextInt(4)) {
                    case 0:
                        return ofLong(odd[r.nextInt(odd.length)]);
                    case 1:
                        return ofLong(r.nextLong());
                    case 2:
                        return ofInt(r.nextInt(100) - 50);
                    default:
                        return ofLong(r.nextInt(2001) - 1000);
                }
            }
            case REAL: {
                double[] odd = {0.0, -0.0, 1.5, -2.25, 0.1, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
                        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 9.223372036854775807e18, -9.3e18, 1e15 + 0.3,
                        2147483648.0, 3.0, -7.0, 1e100, 123456789.125};
                return r.nextBoolean() ? ofDouble(odd[r.nextInt(odd.length)])
                        : ofDouble((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20));
            }
            case TEXT: {
                String[] odd = {"", "a", "abc", " 12", "12abc", "1e3", "-0", "0x10", "1.5", "true", "yes", "N",
                        "héllo wörld", "日本語", "😀𝄞 non-BMP", "a\0b", "\0", "2024-05-06 07:08:09.123", "2024-05-06",
                        "99999999999999999999999", "9223372036854775808", "-9223372036854775809", "  3.7e2xyz",
                        "'quoted'", "semi;colon", "tab\tnew\nline", "\u00a0nbsp", "NULL", "null"};
                return r.nextInt(3) > 0 ? ofText(odd[r.nextInt(odd.length)]) : ofText(randomText(r, r.nextInt(30)));
            }
            case BLOB: {
                switch (r.nextInt(4)) {
                    case 0:
                        return ofBytes(new byte[0]);
                    case 1:
                        return ofBytes(new byte[] {0});
                    case 2:
                        return ofBytes("123".getBytes(StandardCharsets.US_ASCII)); // a blob that looks like a number
                    default: {
                        byte[] b = new byte[r.nextInt(40)];
                        r.nextBytes(b);
                        return ofBytes(b);
                    }
                }
            }
            case ODD_TEXT: {
                // made only by SQL: invalid UTF-8, a lone surrogate (CESU-8 of U+D800), a text with a NUL
                // made by a cast, a zeroblob, a big-looking number, -0.0 computed
                String[] sqlOnly = {"CAST(x'EDA080' AS TEXT)", "CAST(x'FF' AS TEXT)", "CAST(x'C0AF' AS TEXT)",
                        "CAST(x'F09F9880EDB080' AS TEXT)", "CAST(x'610062' AS TEXT)", "CAST(x'00' AS TEXT)",
                        "zeroblob(3)", "zeroblob(0)", "char(0)", "(0.0 * -1)", "CAST('-0' AS REAL)",
                        "CAST(9223372036854775807 AS REAL)", "9223372036854775808", "-9223372036854775809",
                        "CAST('12' AS BLOB)", "CAST(x'3132' AS TEXT)", "printf('%.3f', 2.0/3)", "(1e308 * 10)",
                        "(-1e308 * 10)"};
                return new DiffValue(sqlOnly[r.nextInt(sqlOnly.length)], SQL_ONLY);
            }
            default: { // BIG
                int n = r.nextInt(20) == 0 ? 1 << 20 : BIG_SIZES[r.nextInt(BIG_SIZES.length)];
                switch (r.nextInt(4)) {
                    case 0: { // ASCII
                        return new DiffValue("printf('%." + n + "c', 'x')", "x".repeat(n));
                    }
                    case 1: { // multi-byte, the value limit falling inside a character
                        String unit = r.nextBoolean() ? "é" : "😀";
                        int count = n / unit.getBytes(StandardCharsets.UTF_8).length + r.nextInt(3);
                        String s = unit.repeat(count);
                        return new DiffValue(literal(s), s);
                    }
                    case 2: {
                        byte[] b = new byte[n];
                        new Random(r.nextLong()).nextBytes(b);
                        return new DiffValue("x'" + hex(b) + "'", b);
                    }
                    default:
                        return new DiffValue("zeroblob(" + n + ")", new byte[n]);
                }
            }
        }
    }

    /** An Integer, bound with setInt. */
    static DiffValue ofInt(int v) {
        return new DiffValue(Integer.toString(v), v);
    }

    static String randomText(Random r, int n) {
        StringBuilder s = new StringBuilder();
        String alphabet = "abcXYZ 019_-'%.éü日😀";
        for (int i = 0; i < n; i++) {
            int at = r.nextInt(alphabet.length());
            char c = alphabet.charAt(at);
            if (Character.isHighSurrogate(c)) {
                s.append(c).append(alphabet.charAt(at + 1));
            } else if (!Character.isLowSurrogate(c)) {
                s.append(c);
            }
        }
        return s.toString();
    }

    /** A small value safe to compare with: a few kinds, for WHERE clauses and parameters. */
    static DiffValue small(Random r) {
        switch (r.nextInt(5)) {
            case 0:
                return ofLong(r.nextInt(200) - 100);
            case 1:
                return ofDouble((r.nextInt(400) - 200) / 4.0);
            case 2:
                return ofText(new String[] {"a", "abc", "", "12", "m", "é"}[r.nextInt(6)]);
            case 3:
                return ofLong(r.nextInt(10));
            default:
                return ofBytes(new byte[] {(byte) r.nextInt(256)});
        }
    }

    /** A BigDecimal or Boolean bound with setObject: the setters' conversions, compared between paths. */
    static DiffValue objectValue(Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> new DiffValue("'" + "12.50" + "'", new BigDecimal("12.50"));
            case 1 -> new DiffValue("1", Boolean.TRUE);
            default -> new DiffValue("'" + "-0.000001" + "'", new BigDecimal("-0.000001"));
        };
    }
}
