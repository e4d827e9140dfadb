package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Java functions, aggregates and collations called from SQL (PanliteConnection.create*): FFM upcalls. */
class SqlFunctionTest {
    @TempDir
    Path dir;
    Connection c;
    PanliteConnection p;

    @BeforeEach
    void open() throws SQLException {
        c = TestDb.open(dir);
        p = c.unwrap(PanliteConnection.class);
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    private Object one(String sql) throws SQLException {
        return TestDb.queryObject(c, sql);
    }

    @Test
    void argumentsArriveTypedAndResultsGoBackTyped() throws SQLException {
        List<Object> seen = new ArrayList<>();
        p.createFunction("probe", -1, true, args -> {
            for (Object a : args) {
                seen.add(a == null ? "NULL" : a);
            }
            return args.length == 0 ? null : args[0];
        });
        assertEquals(42, one("SELECT probe(42)"));
        assertEquals(1.5, one("SELECT probe(1.5)"));
        assertEquals("héllo", one("SELECT probe('héllo')"));
        assertArrayEquals(new byte[] {1, 2}, (byte[]) one("SELECT probe(x'0102')"));
        assertNull(one("SELECT probe(NULL)"));
        assertNull(one("SELECT probe()"));
        assertEquals(List.of(42L, 1.5, "héllo", "NULL"), seen.stream().filter(o -> !(o instanceof byte[])).toList());
    }

    @Test
    void javaValuesMapToSqliteTypes() throws SQLException {
        p.createFunction("answer", 1, true, args -> switch ((String) args[0]) {
            case "int" -> 7;
            case "bool" -> true;
            case "float" -> 2.5f;
            case "decimal" -> new java.math.BigDecimal("1.10");
            case "blob" -> new byte[] {9};
            default -> java.util.List.of("x");
        });
        assertEquals("integer", one("SELECT typeof(answer('int'))"));
        assertEquals(1, one("SELECT answer('bool')"));
        assertEquals("real", one("SELECT typeof(answer('float'))"));
        assertEquals("1.10", one("SELECT answer('decimal')"));
        assertEquals("blob", one("SELECT typeof(answer('blob'))"));
        assertEquals("[x]", one("SELECT answer('other')"));
    }

    /**
     * A float[] result is a float32 vector, as setObject binds one: sqlite-vec's blob (4 little-endian
     * bytes per element), read back bit for bit, from a function and an aggregate alike. No sqlite-vec
     * needed: these are the bytes stored.
     */
    @Test
    void aFloatArrayResultIsAFloat32Vector() throws SQLException {
        float[] v = {1, -0f, Float.MIN_VALUE, Float.POSITIVE_INFINITY, 1f / 3};
        p.createFunction("emb", 0, true, args -> v.clone());
        assertEquals("blob", one("SELECT typeof(emb())"));
        assertEquals(20, one("SELECT length(emb())"));
        assertArrayEquals(VectorValuesTest.littleEndian(v), (byte[]) one("SELECT emb()"));
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT emb()")) {
            rs.next();
            assertTrue(java.util.Arrays.equals(v, rs.getObject(1, float[].class)), "bit for bit, -0 included");
        }
        TestDb.exec(c, "CREATE TABLE g(v REAL)", "INSERT INTO g VALUES (1), (2), (3)");
        p.createAggregate("collect", 1, true, () -> new SqlAggregate() {
            final List<Float> seen = new ArrayList<>();

            @Override
            public void step(Object[] args) {
                seen.add(((Number) args[0]).floatValue());
            }

            @Override
            public Object finish() {
                float[] out = new float[seen.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = seen.get(i);
                }
                return out;
            }
        });
        assertArrayEquals(VectorValuesTest.littleEndian(new float[] {1, 2, 3}), (byte[]) one("SELECT collect(v) FROM g"));
        assertArrayEquals(new byte[0], (byte[]) one("SELECT collect(v) FROM g WHERE 0"), "an empty vector: an empty blob");
    }

    /**
     * A NaN in a float[] result is refused as a bound one is (vector search has no distance for it):
     * the statement fails naming the result and the element; the connection goes on.
     */
    @Test
    void aFloatArrayResultHoldingNaNFailsTheStatement() throws SQLException {
        p.createFunction("emb", 1, true, args -> new float[] {1, ((Number) args[0]).floatValue() == 0 ? Float.NaN : 2, 3});
        SQLException e = assertThrows(SQLException.class, () -> one("SELECT emb(0)"));
        assertTrue(e.getMessage().contains("result is a float32 vector holding NaN at element 1 (of 3)"), e.getMessage());
        assertEquals(1, e.getErrorCode());
        assertEquals(12, one("SELECT length(emb(1))"));
    }

    @Test
    void worksInPreparedStatementsOverManyRows() throws SQLException {
        p.createFunction("twice", 1, true, args -> (Long) args[0] * 2);
        TestDb.exec(c, "CREATE TABLE n(v INTEGER)",
                "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10000) INSERT INTO n SELECT i FROM r");
        try (PreparedStatement ps = c.prepareStatement("SELECT sum(twice(v)) FROM n WHERE v <= ?")) {
            ps.setInt(1, 10000);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(10000L * 10001, rs.getLong(1));
            }
        }
    }

    @Test
    void anExceptionFailsTheStatementWithItsMessageAndTheConnectionGoesOn() throws SQLException {
        p.createFunction("boom", 0, false, args -> {
            throw new IllegalStateException("kaboom from Java");
        });
        SQLException e = assertThrows(SQLException.class, () -> one("SELECT boom()"));
        assertTrue(e.getMessage().contains("kaboom from Java"), e.getMessage());
        assertEquals(1, e.getErrorCode());
        assertEquals(1, one("SELECT 1"));
    }

    @Test
    void wrongArgumentCountIsAnSqlError() throws SQLException {
        p.createFunction("unary", 1, true, args -> args[0]);
        assertThrows(SQLException.class, () -> one("SELECT unary(1, 2)"));
    }

    @Test
    void onlyDeterministicFunctionsGoIntoIndexes() throws SQLException {
        p.createFunction("det", 1, true, args -> args[0]);
        p.createFunction("nondet", 1, false, args -> args[0]);
        TestDb.exec(c, "CREATE TABLE t(x)", "CREATE INDEX t_det ON t(det(x))");
        assertThrows(SQLException.class, () -> TestDb.exec(c, "CREATE INDEX t_nondet ON t(nondet(x))"));
    }

    @Test
    void registeringANameAgainReplacesTheFunction() throws SQLException {
        p.createFunction("v", 0, true, args -> 1);
        assertEquals(1, one("SELECT v()"));
        p.createFunction("v", 0, true, args -> 2);
        assertEquals(2, one("SELECT v()"));
    }

    @Test
    void badArgumentsAndAClosedConnectionAreSqlExceptions() throws SQLException {
        assertThrows(SQLException.class, () -> p.createFunction(null, 0, true, args -> 1));
        assertThrows(SQLException.class, () -> p.createFunction("f", 0, true, null));
        assertThrows(SQLException.class, () -> p.createFunction("f", 200, true, args -> 1));
        c.close();
        assertThrows(SQLException.class, () -> p.createFunction("f", 0, true, args -> 1));
    }

    private List<String> ordered(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * A collation cannot report an error to SQLite: the one that throws fails its statement with
     * its Throwable as the cause (it used to sort as "equal" and the statement succeeded, in an
     * arbitrary order), by every path a statement runs, and the connection works on afterwards.
     */
    @Test
    void aCollationThatThrowsFailsItsStatementWithTheCause() throws SQLException {
        IllegalStateException thrown = new IllegalStateException("no order today");
        p.createCollation("angry", (a, b) -> {
            throw thrown;
        });
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE w(name TEXT)");
            s.execute("INSERT INTO w VALUES ('b'), ('a'), ('c')");
        }
        String sql = "SELECT name FROM w ORDER BY name COLLATE angry";
        List<SQLException> failures = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            failures.add(assertThrows(SQLException.class, () -> s.executeQuery(sql).next()));
            failures.add(assertThrows(SQLException.class, () -> {
                s.execute("SELECT 1; " + sql);
                s.getMoreResults();
                s.getResultSet().next();
            }));
            failures.add(assertThrows(SQLException.class, () -> s.execute("CREATE INDEX w_angry ON w(name COLLATE angry)")));
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            failures.add(assertThrows(SQLException.class, () -> ps.executeQuery().next()));
        }
        assertEquals(4, failures.size());
        for (SQLException e : failures) {
            assertTrue(e.getCause() == thrown, "the Throwable is the cause: " + e);
            assertTrue(e.getMessage().contains("no order today"), e.getMessage());
        }
        assertEquals(3, one("SELECT count(*) FROM w"), "the connection goes on working");
        assertEquals(0, one("SELECT count(*) FROM sqlite_master WHERE name = 'w_angry'"), "the index was not made");
    }

    @Test
    void aCollationOrdersByTheJavaComparator() throws SQLException {
        p.createCollation("by_length", java.util.Comparator.comparingInt(String::length)
                .thenComparing(java.util.Comparator.naturalOrder()));
        TestDb.exec(c, "CREATE TABLE w(x TEXT)", "INSERT INTO w VALUES ('ccc'), ('a'), ('éé'), ('bb'), ('')");
        assertEquals(List.of("", "a", "bb", "éé", "ccc"), ordered("SELECT x FROM w ORDER BY x COLLATE by_length"));
        TestDb.exec(c, "CREATE TABLE v(x TEXT COLLATE by_length)", "INSERT INTO v SELECT x FROM w",
                "CREATE INDEX v_x ON v(x)");
        assertEquals(List.of("bb", "éé", "ccc"), ordered("SELECT x FROM v WHERE x > 'a' ORDER BY x"));
    }

    @Test
    void collationArgumentsAreChecked() throws SQLException {
        assertThrows(SQLException.class, () -> p.createCollation(null, String::compareTo));
        assertThrows(SQLException.class, () -> p.createCollation("c", null));
        c.close();
        assertThrows(SQLException.class, () -> p.createCollation("c", String::compareTo));
    }

    /** A Java aggregate: the product of its arguments per group. */
    static final class Product implements SqlAggregate {
        long product = 1;
        int rows;

        @Override
        public void step(Object[] args) {
            product *= (Long) args[0];
            rows++;
        }

        @Override
        public Object finish() {
            return rows == 0 ? null : product;
        }
    }

    @Test
    void anAggregateGetsOneInstancePerGroup() throws SQLException {
        p.createAggregate("product", 1, true, Product::new);
        TestDb.exec(c, "CREATE TABLE g(k TEXT, v INTEGER)",
                "INSERT INTO g VALUES ('a', 2), ('a', 3), ('b', 5), ('b', 7), ('b', 11)");
        assertEquals(List.of("a=6", "b=385"),
                ordered("SELECT k || '=' || product(v) FROM g GROUP BY k ORDER BY k"));
        assertEquals(2310L, ((Number) one("SELECT product(v) FROM g")).longValue());
        assertNull(one("SELECT product(v) FROM g WHERE 0"), "no rows: finish of a fresh instance");
    }

    @Test
    void anAggregateThatThrowsFailsTheStatement() throws SQLException {
        p.createAggregate("fails", 1, false, () -> new SqlAggregate() {
            @Override
            public void step(Object[] args) {
                throw new IllegalArgumentException("bad row " + args[0]);
            }

            @Override
            public Object finish() {
                return 0;
            }
        });
        TestDb.exec(c, "CREATE TABLE g(v)", "INSERT INTO g VALUES (1)");
        SQLException e = assertThrows(SQLException.class, () -> one("SELECT fails(v) FROM g"));
        assertTrue(e.getMessage().contains("bad row 1"), e.getMessage());
        p.createAggregate("product", 1, true, Product::new);
        assertEquals(1, ((Number) one("SELECT product(v) FROM g")).intValue(), "the connection goes on");
    }
}
