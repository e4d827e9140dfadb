package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vectors through JDBC, on every engine (no sqlite-vec needed: these are the values the driver
 * writes and reads): a {@code float[]} is bound as sqlite-vec's float32 blob (little-endian floats,
 * bit for bit), read back by {@code getObject(i, float[].class)} from a blob or JSON text; a NaN is
 * refused; int8 and bit vectors are byte[] with a {@link VectorType}. VectorSearchTest runs them
 * through sqlite-vec itself.
 */
class VectorValuesTest {
    @TempDir
    Path dir;

    Connection conn;

    /** Every kind of float: signed zeros, the smallest subnormals, the largest finite values, infinities. */
    static final float[] EDGES = {
        0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, 1e-40f, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1f / 3, -123456.78f, Math.nextUp(1f)
    };

    /** {@link #EDGES} but the infinities, which JSON text cannot hold. */
    static final float[] FINITE_EDGES = {
        0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, 1e-40f, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE,
        1f / 3, -123456.78f, Math.nextUp(1f)
    };

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, e BLOB)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
    }

    static byte[] littleEndian(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putInt(Float.floatToRawIntBits(f));
        }
        return b.array();
    }

    private void insert(int id, Object vector) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            ps.setInt(1, id);
            ps.setObject(2, vector);
            ps.executeUpdate();
        }
    }

    private <T> T read(int id, Class<T> type) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT e FROM v WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "row " + id);
                return rs.getObject(1, type);
            }
        }
    }

    private int count() throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM v")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Bit for bit: Arrays.equals on float[] tells -0.0 from 0.0 (floatToIntBits). */
    @Test
    void aFloatArrayIsStoredAsLittleEndianFloatsAndReadBackBitForBit() throws SQLException {
        insert(1, EDGES);
        assertArrayEquals(littleEndian(EDGES), read(1, byte[].class), "sqlite-vec's blob: 4 little-endian bytes a float");
        float[] back = read(1, float[].class);
        assertTrue(Arrays.equals(EDGES, back), Arrays.toString(back));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(back[1]), "negative zero kept");
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT typeof(e), length(e) FROM v")) {
            rs.next();
            assertEquals("blob", rs.getString(1));
            assertEquals(EDGES.length * 4, rs.getInt(2));
        }
    }

    /** Random floats of every exponent, bound one statement at a time and read back. */
    @Test
    void randomBitPatternsRoundTrip() throws SQLException {
        Random random = new Random(30);
        float[][] vectors = new float[50][];
        for (int i = 0; i < vectors.length; i++) {
            float[] v = new float[1 + random.nextInt(400)];
            for (int j = 0; j < v.length; j++) {
                do {
                    v[j] = Float.intBitsToFloat(random.nextInt());
                } while (Float.isNaN(v[j]));
            }
            vectors[i] = v;
            insert(i, v);
        }
        for (int i = 0; i < vectors.length; i++) {
            assertTrue(Arrays.equals(vectors[i], read(i, float[].class)), "vector " + i);
        }
    }

    /** An empty vector is an empty blob (sqlite-vec refuses it, with its message, where it needs a vector). */
    @Test
    void anEmptyVectorIsAnEmptyBlob() throws SQLException {
        insert(1, new float[0]);
        assertArrayEquals(new byte[0], read(1, byte[].class));
        assertArrayEquals(new float[0], read(1, float[].class));
    }

    /** As setBytes: the array is bound as it is at execution, so a statement run again sends what it holds then. */
    @Test
    void theArrayIsBoundAsItIsAtExecution() throws SQLException {
        float[] v = {1, 2, 3};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            ps.setObject(2, v);
            ps.setInt(1, 1);
            ps.executeUpdate();
            v[0] = 9;
            ps.setInt(1, 2);
            ps.setObject(2, v);
            ps.executeUpdate();
        }
        assertArrayEquals(new float[] {1, 2, 3}, read(1, float[].class));
        assertArrayEquals(new float[] {9, 2, 3}, read(2, float[].class));
    }

    /**
     * A statement run again without setObject sends what the arrays hold then, vector and byte[] alike
     * (as the incumbent binds setBytes again at every execution), by executeQuery and executeUpdate;
     * the parameters set by value stay bound. Found by the adversarial review (helper "breaker").
     */
    @Test
    void aSecondExecutionSendsWhatTheArrayHoldsThen() throws SQLException {
        float[] vector = {1, 2};
        byte[] bytes = {1, 2};
        try (PreparedStatement p = conn.prepareStatement("SELECT ?, ?, ?")) {
            p.setObject(1, vector);
            p.setBytes(2, bytes);
            p.setInt(3, 5);
            for (int run = 1; run <= 3; run++) {
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertArrayEquals(new float[] {run * 7 - 6, 2}, rs.getObject(1, float[].class), "run " + run);
                    assertArrayEquals(new byte[] {(byte) (run * 7 - 6), 2}, rs.getBytes(2), "run " + run);
                    assertEquals(5, rs.getInt(3));
                }
                vector[0] += 7;
                bytes[0] += 7;
            }
        }
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            p.setInt(1, 1);
            p.setObject(2, vector);
            p.executeUpdate();
            vector[0] = 9;
            p.setInt(1, 2); // only the id set again
            p.executeUpdate();
            vector[1] = 8;
            p.setInt(1, 3);
            p.executeUpdate();
        }
        assertArrayEquals(new float[] {22, 2}, read(1, float[].class));
        assertArrayEquals(new float[] {9, 2}, read(2, float[].class));
        assertArrayEquals(new float[] {9, 8}, read(3, float[].class));
    }

    /**
     * The check is of what is sent: a NaN written into the array after a first execution is refused at
     * the second, nothing written; fixed in the array, the third execution sends it.
     */
    @Test
    void aNaNWrittenAfterTheFirstExecutionIsRefusedAtTheSecond() throws SQLException {
        float[] v = {1, 2, 3};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(e) VALUES (?)")) {
            ps.setObject(1, v);
            assertEquals(1, ps.executeUpdate());
            v[2] = Float.NaN;
            SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
            assertEquals("22005", e.getSQLState());
            assertTrue(e.getMessage().contains("Parameter 1") && e.getMessage().contains("NaN at element 2 (of 3)"),
                    e.getMessage());
            assertEquals(1, count());
            SQLException again = assertThrows(SQLException.class, ps::executeUpdate, "still refused, not skipped");
            assertTrue(again.getMessage().contains("NaN at element 2"), again.getMessage());
            v[2] = 4;
            assertEquals(1, ps.executeUpdate());
        }
        assertArrayEquals(new float[] {1, 2, 3}, read(1, float[].class));
        assertArrayEquals(new float[] {1, 2, 4}, read(2, float[].class));
        assertEquals(2, count());
    }

    /**
     * addBatch copies (the caller refills its buffer): a batch row keeps what the array held at
     * addBatch; plain executions after the batch, with the array set last and not set again, send
     * what it holds then. Row by row (auto-commit) and through the row buffer (in a transaction).
     */
    @Test
    void anExecutionAfterABatchSendsTheArrayAsItIsThen() throws SQLException {
        for (boolean transaction : new boolean[] {false, true}) {
            conn.createStatement().execute("DELETE FROM v");
            conn.setAutoCommit(!transaction);
            float[] buffer = {1, 1};
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, buffer);
                ps.addBatch();
                buffer[0] = 2;
                ps.setInt(1, 2);
                ps.addBatch();
                buffer[0] = 3;
                assertEquals(2, ps.executeBatch().length);
                buffer[0] = 4;
                ps.setInt(1, 4);
                ps.executeUpdate();
                buffer[0] = 5;
                ps.setInt(1, 5);
                ps.executeUpdate();
            }
            if (transaction) {
                conn.commit();
            }
            conn.setAutoCommit(true);
            assertArrayEquals(new float[] {1, 1}, read(1, float[].class), "transaction=" + transaction);
            assertArrayEquals(new float[] {2, 1}, read(2, float[].class), "transaction=" + transaction);
            assertArrayEquals(new float[] {4, 1}, read(4, float[].class), "transaction=" + transaction);
            assertArrayEquals(new float[] {5, 1}, read(5, float[].class), "transaction=" + transaction);
        }
    }

    /**
     * A statement from the cache (stmt_cache_size on, the default) binds its new user's array at every
     * execution, and nothing of its last user's: closed and prepared again, its values are gone.
     */
    @Test
    void aCachedStatementSendsItsUsersArrayAtEveryExecution() throws SQLException {
        String sql = "INSERT INTO v(id, e) VALUES (?, ?)";
        float[] first = {1};
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setInt(1, 1);
            ps.setObject(2, first);
            ps.executeUpdate();
        }
        first[0] = -1; // no longer anyone's parameter
        float[] second = {2};
        try (PreparedStatement ps = conn.prepareStatement(sql)) { // the cached statement
            ps.setInt(1, 2);
            ps.executeUpdate(); // unset: NULL, not the last user's array
            ps.setInt(1, 3);
            ps.setObject(2, second);
            ps.executeUpdate();
            second[0] = 3;
            ps.setInt(1, 4);
            ps.executeUpdate();
        }
        assertArrayEquals(new float[] {1}, read(1, float[].class));
        assertNull(read(2, float[].class));
        assertArrayEquals(new float[] {2}, read(3, float[].class));
        assertArrayEquals(new float[] {3}, read(4, float[].class));
    }

    /**
     * NaN: vector search has no distance for it (sqlite-vec would rank it among the nearest:
     * VectorSearchTest.sqliteVecRanksANaNAheadOfTheNearest), so the driver refuses it at execution,
     * naming the parameter and the element; nothing is written, and the statement runs once the
     * value is fixed. Any NaN: the canonical one, another payload, a negative one.
     */
    @Test
    void aNaNIsRefusedNamingTheParameterAndTheElement() throws SQLException {
        for (float nan : new float[] {Float.NaN, Float.intBitsToFloat(0x7f800001), Float.intBitsToFloat(0xffc00000)}) {
            float[] v = {1, 2, nan, 4};
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, v);
                SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
                assertTrue(e instanceof SQLDataException, e.toString());
                assertEquals("22005", e.getSQLState());
                assertTrue(e.getMessage().contains("Parameter 2") && e.getMessage().contains("NaN at element 2 (of 4)"),
                        e.getMessage());
                assertEquals(0, count());
                v[2] = 3;
                assertEquals(1, ps.executeUpdate(), "the fixed vector is bound at the next execution");
            }
            assertArrayEquals(new float[] {1, 2, 3, 4}, read(1, float[].class));
            conn.createStatement().execute("DELETE FROM v");
        }
    }

    /** The check is of what is bound: a NaN written into the array after setObject is refused too. */
    @Test
    void aNaNWrittenAfterSetObjectIsRefusedAtExecution() throws SQLException {
        float[] v = {1, 2, 3};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (1, ?)")) {
            ps.setObject(1, v);
            v[0] = Float.NaN;
            SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
            assertTrue(e.getMessage().contains("NaN at element 0"), e.getMessage());
        }
        assertEquals(0, count());
    }

    /** A query's vector is checked as an insert's is (a NaN query vector would answer k rows in no order). */
    @Test
    void aNaNInAQueryIsRefused() throws SQLException {
        insert(1, new float[] {1, 2});
        try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM v WHERE e = ?")) {
            ps.setObject(1, new float[] {Float.NaN, 2});
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertTrue(e.getMessage().contains("Parameter 1") && e.getMessage().contains("NaN at element 0"), e.getMessage());
            ps.setObject(1, new float[] {1, 2});
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
        }
    }

    /**
     * addBatch copies the vector (the caller refills one buffer for every row) and checks the copy: a
     * NaN fails addBatch, naming the parameter, and leaves the rows added before it. Both ways a batch
     * runs: row by row (auto-commit) and in chunks through the row buffer (in a transaction), with
     * vectors small and too large for one chunk.
     */
    @Test
    void batchesCopyEachRowsVectorAndRefuseNaN() throws SQLException {
        for (boolean transaction : new boolean[] {false, true}) {
            for (int dimensions : new int[] {3, 384, 20_000}) {
                conn.createStatement().execute("DELETE FROM v");
                conn.setAutoCommit(!transaction);
                float[] buffer = new float[dimensions];
                List<float[]> expected = new ArrayList<>();
                try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
                    for (int row = 0; row < 40; row++) {
                        Arrays.fill(buffer, row - 20.5f);
                        buffer[row % dimensions] = -0f;
                        ps.setInt(1, row);
                        ps.setObject(2, buffer);
                        ps.addBatch();
                        expected.add(buffer.clone());
                    }
                    buffer[1] = Float.NaN;
                    ps.setInt(1, 99);
                    ps.setObject(2, buffer);
                    SQLException e = assertThrows(SQLException.class, ps::addBatch);
                    assertTrue(e.getMessage().contains("addBatch: parameter 2") && e.getMessage().contains("NaN at element 1"),
                            e.getMessage());
                    int[] counts = ps.executeBatch();
                    assertEquals(40, counts.length);
                }
                if (transaction) {
                    conn.commit();
                }
                conn.setAutoCommit(true);
                assertEquals(40, count(), "transaction=" + transaction + ", dimensions=" + dimensions);
                for (int row = 0; row < 40; row++) {
                    assertTrue(Arrays.equals(expected.get(row), read(row, float[].class)), "row " + row);
                }
            }
        }
    }

    /** A batch mixes vectors with the other values, and NULL: each row as it was added. */
    @Test
    void aBatchMixesVectorsAndOtherValues() throws SQLException {
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            Object[] values = {new float[] {1, 2}, "text", new byte[] {1, 2, 3}, null, 4.5, new float[] {-0f}};
            for (int i = 0; i < values.length; i++) {
                ps.setInt(1, i);
                ps.setObject(2, values[i]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        conn.commit();
        conn.setAutoCommit(true);
        assertArrayEquals(littleEndian(new float[] {1, 2}), read(0, byte[].class));
        assertEquals("text", read(1, String.class));
        assertArrayEquals(new byte[] {1, 2, 3}, read(2, byte[].class));
        assertNull(read(3, float[].class));
        assertEquals(4.5, read(4, Double.class));
        assertArrayEquals(littleEndian(new float[] {-0f}), read(5, byte[].class));
    }

    /** clearParameters forgets a vector (NULL); a cached statement brings no vector of its last user along. */
    @Test
    void clearParametersAndTheStatementCacheForgetAVector() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setObject(2, new float[] {1});
            ps.clearParameters();
            ps.setInt(1, 1);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            ps.setInt(1, 2);
            ps.executeUpdate();
        }
        assertNull(read(1, float[].class));
        assertNull(read(2, float[].class));
    }

    /** JSON text, as sqlite-vec reads it and as vec_to_json writes it (null for NaN, Inf). */
    @Test
    void jsonTextIsReadAsAVector() throws SQLException {
        String[] texts = {"[1, -2.5e3, 0]", " [ 0.1 ,2E-3 ] ", "[]", "[null, Inf, -Inf, 1.000000]", "[-0.0]", "[1e-45]"};
        float[][] vectors = {
            {1, -2500, 0}, {0.1f, 0.002f}, {}, {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1}, {-0f},
            {Float.MIN_VALUE}
        };
        for (int i = 0; i < texts.length; i++) {
            insert(i, texts[i]);
            float[] v = read(i, float[].class);
            assertTrue(Arrays.equals(vectors[i], v), texts[i] + " -> " + Arrays.toString(v));
        }
    }

    /** Text that is not a JSON array of numbers: an SQLException naming the column, what was expected and where. */
    @Test
    void textThatIsNotAVectorIsAnSqlExceptionNamingTheColumn() throws SQLException {
        String[] texts = {"nope", "[1,2", "[1,,2]", "[1 2]", "[1]x", "[0x10]", "[1f]", "", "[true]", "[NaN]", "[Infinity]"};
        for (int i = 0; i < texts.length; i++) {
            insert(i, texts[i]);
            int id = i;
            SQLException e = assertThrows(SQLException.class, () -> read(id, float[].class), texts[i]);
            assertTrue(e instanceof SQLDataException, e.toString());
            assertTrue(e.getMessage().startsWith("Column 1 (e) is not a float32 vector: not a JSON vector: expected"),
                    e.getMessage());
        }
    }

    /** A blob whose length is not a multiple of 4, an INTEGER, a REAL: each an SQLException that says why. */
    @Test
    void aValueThatIsNotAFloat32VectorIsAnSqlException() throws SQLException {
        insert(1, new byte[7]);
        SQLException e = assertThrows(SQLException.class, () -> read(1, float[].class));
        assertTrue(e.getMessage().contains("Column 1 (e)") && e.getMessage().contains("has 7 bytes"), e.getMessage());
        insert(2, 5);
        e = assertThrows(SQLException.class, () -> read(2, float[].class));
        assertTrue(e.getMessage().contains("this value is an INTEGER"), e.getMessage());
        insert(3, 5.5);
        e = assertThrows(SQLException.class, () -> read(3, float[].class));
        assertTrue(e.getMessage().contains("this value is a REAL"), e.getMessage());
        assertArrayEquals(new byte[7], read(1, byte[].class), "getBytes still reads the blob");
    }

    @Test
    void nullIsReadAsNull() throws SQLException {
        insert(1, null);
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT e FROM v")) {
            rs.next();
            assertNull(rs.getObject(1, float[].class));
            assertTrue(rs.wasNull());
            assertNull(rs.getObject("e", float[].class));
        }
    }

    /**
     * With a target type: the binary types, OTHER and FLOAT32 bind the blob; the character types bind
     * JSON text that reads back as the same floats (NaN refused there too, at once, and infinities,
     * which JSON lacks); a number type cannot hold a vector.
     */
    @Test
    void aTargetTypeChoosesBlobOrJsonText() throws SQLException {
        float[] v = EDGES;
        int id = 0;
        for (Object type : new Object[] {Types.BLOB, Types.VARBINARY, Types.OTHER, JDBCType.LONGVARBINARY,
            VectorType.FLOAT32, VectorType.FLOAT32.getVendorTypeNumber()}) {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
                ps.setInt(1, ++id);
                if (type instanceof Integer t) {
                    ps.setObject(2, v, t);
                } else {
                    ps.setObject(2, v, (java.sql.SQLType) type);
                }
                ps.executeUpdate();
            }
            assertArrayEquals(littleEndian(v), read(id, byte[].class), type.toString());
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            ps.setInt(1, 100);
            ps.setObject(2, FINITE_EDGES, Types.VARCHAR);
            ps.executeUpdate();
            SQLException e = assertThrows(SQLException.class,
                    () -> ps.setObject(2, new float[] {Float.NaN}, JDBCType.VARCHAR));
            assertTrue(e.getMessage().contains("Parameter 2") && e.getMessage().contains("NaN at element 0"), e.getMessage());
            e = assertThrows(SQLException.class, () -> ps.setObject(2, EDGES, Types.NVARCHAR));
            assertTrue(e.getMessage().startsWith("Parameter 2 is a float32 vector holding Infinity at element 8, which JSON"
                    + " text cannot hold"), e.getMessage());
            e = assertThrows(SQLException.class, () -> ps.setObject(2, v, Types.DOUBLE));
            assertTrue(e.getMessage().contains("[F"), e.getMessage());
        }
        assertTrue(read(100, String.class).startsWith("[0.0,-0.0,1.4E-45,"), read(100, String.class));
        assertTrue(Arrays.equals(FINITE_EDGES, read(100, float[].class)));
    }

    /** VectorType: byte[] for INT8 and BIT, stored as they are; what each does not take, refused naming it. */
    @Test
    void vectorTypesTakeWhatTheirVectorsAre() throws SQLException {
        byte[] int8 = {-128, -1, 0, 1, 127};
        byte[] bits = {(byte) 0b1000_0001, 0x7f};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setObject(2, int8, VectorType.INT8);
            ps.executeUpdate();
            ps.setInt(1, 2);
            ps.setObject(2, bits, VectorType.BIT, 0);
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setObject(2, littleEndian(new float[] {1, 2}), VectorType.FLOAT32);
            ps.executeUpdate();
            ps.setInt(1, 4);
            ps.setObject(2, null, VectorType.FLOAT32);
            ps.executeUpdate();

            SQLException e = assertThrows(SQLException.class, () -> ps.setObject(2, new float[] {1}, VectorType.INT8));
            assertTrue(e.getMessage().startsWith("Parameter 2: an INT8 vector is a byte[]") && e.getMessage().endsWith("not a float[]"),
                    e.getMessage());
            e = assertThrows(SQLException.class, () -> ps.setObject(2, "[1]", VectorType.BIT));
            assertTrue(e.getMessage().contains("BIT vector is a byte[]") && e.getMessage().endsWith("not a java.lang.String"),
                    e.getMessage());
            e = assertThrows(SQLException.class, () -> ps.setObject(2, new byte[7], VectorType.FLOAT32));
            assertTrue(e.getMessage().contains("a FLOAT32 vector is a float[]") && e.getMessage().endsWith("not a byte[] of 7 bytes"),
                    e.getMessage());
            e = assertThrows(SQLException.class, () -> ps.setObject(2, new double[] {1}, VectorType.FLOAT32));
            assertTrue(e.getMessage().endsWith("not a double[]"), e.getMessage());
        }
        assertArrayEquals(int8, read(1, byte[].class));
        assertArrayEquals(bits, read(2, byte[].class));
        assertArrayEquals(new float[] {1, 2}, read(3, float[].class));
        assertNull(read(4, byte[].class));
    }

    @Test
    void vectorTypeIsPanlitesSqlType() {
        assertEquals("dev.panlite", VectorType.INT8.getVendor());
        assertEquals("FLOAT32", VectorType.FLOAT32.getName());
        // sqlite-vec's own codes for its element types (SQLITE_VEC_ELEMENT_TYPE_*), which no java.sql.Types uses
        assertEquals(223, VectorType.FLOAT32.getVendorTypeNumber());
        assertEquals(224, VectorType.BIT.getVendorTypeNumber());
        assertEquals(225, VectorType.INT8.getVendorTypeNumber());
        for (JDBCType t : JDBCType.values()) {
            for (VectorType v : VectorType.values()) {
                assertFalse(t.getVendorTypeNumber().equals(v.getVendorTypeNumber()), t + " vs " + v);
            }
        }
    }

    /** Other arrays still name what can be bound. */
    @Test
    void otherArraysAreRefusedNamingFloatArrays() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (1, ?)")) {
            SQLException e = assertThrows(SQLException.class, () -> ps.setObject(1, new double[] {1}));
            assertTrue(e.getMessage().contains("float[] (a vector)"), e.getMessage());
        }
    }

    /** A batch row that fails in SQLite after vectors: the rows before it are in, as for any batch. */
    @Test
    void aFailingBatchRowAfterVectors() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO v(id, e) VALUES (?, ?)")) {
            for (int id : new int[] {1, 2, 1}) {
                ps.setInt(1, id);
                ps.setObject(2, new float[] {id});
                ps.addBatch();
            }
            BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
            assertEquals(2, e.getUpdateCounts().length);
        }
        assertArrayEquals(new float[] {2}, read(2, float[].class));
    }
}
