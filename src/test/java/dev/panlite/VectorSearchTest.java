package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vector search through JDBC on sqlite-vec: vec0 tables queried by KNN with a bound float[] and k,
 * the distance functions, metadata, partition-key and auxiliary columns, int8 and bit vectors, the
 * cosine metric, batches, and every malformed vector an SQLException that names the problem. Runs
 * where sqlite-vec is compiled into the engine (the bundled one); skipped, with the reason, on the
 * system SQLite and libSQL, which have none (LoadExtensionTest loads it into those).
 */
class VectorSearchTest {
    @TempDir
    Path dir;

    Connection conn;

    @BeforeEach
    void open() throws SQLException {
        conn = TestDb.open(dir);
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT vec_version()")) {
            assertTrue(rs.next());
            assertEquals("v0.1.9", rs.getString(1));
        } catch (SQLException noVectors) {
            conn.close();
            assertFalse(SqliteLibrary.bundled(), "the bundled engine carries sqlite-vec: " + noVectors.getMessage());
            assumeTrue(false, "this engine has no sqlite-vec compiled in (" + SqliteLibrary.loadedFrom()
                    + "): the run on the bundled engine tests vector search");
        }
    }

    @AfterEach
    void close() throws SQLException {
        if (conn != null) {
            conn.close();
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute(sql);
        }
    }

    private long count(String table) throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static float[][] randomVectors(int n, int dimensions, long seed) {
        Random random = new Random(seed);
        float[][] v = new float[n][dimensions];
        for (float[] row : v) {
            for (int j = 0; j < dimensions; j++) {
                row[j] = (float) random.nextGaussian();
            }
        }
        return v;
    }

    static double l2(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            double d = (double) a[i] - b[i];
            sum += d * d;
        }
        return Math.sqrt(sum);
    }

    static double l1(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs((double) a[i] - b[i]);
        }
        return sum;
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return 1 - dot / (Math.sqrt(na) * Math.sqrt(nb));
    }

    private interface Distance {
        double of(float[] a, float[] b);
    }

    /** The k rows nearest to {@code query} among those {@code keep} accepts, by brute force: their indexes. */
    static List<Integer> nearest(float[][] rows, float[] query, int k, Distance distance, IntPredicate keep) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            if (keep.test(i)) {
                ids.add(i);
            }
        }
        ids.sort(Comparator.comparingDouble(i -> distance.of(rows[i], query)));
        return ids.subList(0, Math.min(k, ids.size()));
    }

    /** Runs a KNN query (its parameters bound by {@code bind}) and checks its rows against brute force. */
    private void assertKnn(String sql, Binder bind, float[][] rows, float[] query, int k, Distance distance,
            IntPredicate keep) throws SQLException {
        List<Integer> expected = nearest(rows, query, k, distance, keep);
        List<Integer> got = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            bind.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                double last = -1;
                while (rs.next()) {
                    int id = rs.getInt("id");
                    double d = rs.getDouble("distance");
                    got.add(id);
                    assertEquals(distance.of(rows[id], query), d, 1e-4 * Math.max(1, d), "distance of " + id);
                    assertTrue(d >= last, "ascending distances");
                    last = d;
                }
            }
        }
        assertEquals(expected, got, sql);
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Inserts {@code rows} as (id, embedding) in one batch, inside a transaction (the batch's chunked path). */
    private void insertAll(String table, float[][] rows) throws SQLException {
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table + "(id, embedding) VALUES (?, ?)")) {
            for (int i = 0; i < rows.length; i++) {
                ps.setInt(1, i);
                ps.setObject(2, rows[i]);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            assertEquals(rows.length, counts.length);
        }
        conn.commit();
        conn.setAutoCommit(true);
    }

    // ------------------------------------------------------------------ KNN

    @Test
    void knnWithABoundVectorAndK() throws SQLException {
        float[][] rows = randomVectors(300, 16, 1);
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[16])");
        insertAll("items", rows);
        float[] query = randomVectors(1, 16, 2)[0];
        for (int k : new int[] {1, 5, 20}) {
            assertKnn("SELECT id, distance FROM items WHERE embedding MATCH ? AND k = ? ORDER BY distance",
                    ps -> {
                        ps.setObject(1, query);
                        ps.setInt(2, k);
                    }, rows, query, k, VectorSearchTest::l2, i -> true);
        }
        // k as a long, the vector again from the statement cache
        assertKnn("SELECT id, distance FROM items WHERE embedding MATCH ? AND k = ? ORDER BY distance",
                ps -> {
                    ps.setObject(1, query);
                    ps.setLong(2, 7L);
                }, rows, query, 7, VectorSearchTest::l2, i -> true);
    }

    @Test
    void knnByOrderByDistanceLimit() throws SQLException {
        float[][] rows = randomVectors(200, 8, 3);
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[8])");
        insertAll("items", rows);
        float[] query = randomVectors(1, 8, 4)[0];
        assertKnn("SELECT id, distance FROM items WHERE embedding MATCH ? ORDER BY distance LIMIT 6",
                ps -> ps.setObject(1, query), rows, query, 6, VectorSearchTest::l2, i -> true);
        assertKnn("SELECT id, distance FROM items WHERE embedding MATCH ? ORDER BY distance LIMIT ?",
                ps -> {
                    ps.setObject(1, query);
                    ps.setInt(2, 3);
                }, rows, query, 3, VectorSearchTest::l2, i -> true);
    }

    /** The vector the KNN matches is the stored one: a stored row queried by its own vector is at distance 0. */
    @Test
    void aStoredVectorIsItsOwnNearest() throws SQLException {
        float[][] rows = randomVectors(50, 32, 5);
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[32])");
        insertAll("items", rows);
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, distance FROM items WHERE embedding MATCH (SELECT embedding FROM items WHERE id = ?) AND k = 1")) {
            for (int id : new int[] {0, 17, 49}) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(id, rs.getInt(1));
                    assertEquals(0.0, rs.getDouble(2));
                }
            }
        }
    }

    // ------------------------------------------------------------------ functions

    @Test
    void distanceFunctionsOnBoundVectors() throws SQLException {
        float[][] pairs = randomVectors(20, 24, 6);
        try (PreparedStatement ps = conn.prepareStatement("SELECT vec_distance_l2(?1, ?2), vec_distance_l1(?1, ?2),"
                + " vec_distance_cosine(?1, ?2), vec_length(?1), vec_to_json(?1)")) {
            for (int i = 0; i + 1 < pairs.length; i += 2) {
                float[] a = pairs[i];
                float[] b = pairs[i + 1];
                ps.setObject(1, a);
                ps.setObject(2, b);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(l2(a, b), rs.getDouble(1), 1e-4);
                    assertEquals(l1(a, b), rs.getDouble(2), 1e-3);
                    assertEquals(cosine(a, b), rs.getDouble(3), 1e-5);
                    assertEquals(24, rs.getInt(4));
                    float[] json = rs.getObject(5, float[].class); // vec_to_json writes 6 decimals
                    for (int j = 0; j < a.length; j++) {
                        assertEquals(a[j], json[j], 1e-6);
                    }
                }
            }
        }
    }

    /** A stored vector against a bound one, and vec_f32 / vec_normalize's results read as float[]. */
    @Test
    void functionsOverStoredAndComputedVectors() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[3])");
        insertAll("items", new float[][] {{3, 4, 0}});
        try (PreparedStatement ps = conn.prepareStatement("SELECT vec_distance_l2(embedding, ?), vec_normalize(embedding),"
                + " vec_f32(?), vec_add(embedding, ?) FROM items WHERE id = 0")) {
            ps.setObject(1, new float[] {0, 0, 0});
            ps.setString(2, "[1.5, -2, 0.25]");
            ps.setObject(3, new float[] {1, 1, 1});
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(5.0, rs.getDouble(1), 1e-6);
                assertArrayEquals(new float[] {0.6f, 0.8f, 0}, rs.getObject(2, float[].class), 1e-6f);
                assertArrayEquals(new float[] {1.5f, -2, 0.25f}, rs.getObject(3, float[].class));
                assertArrayEquals(new float[] {4, 5, 1}, rs.getObject(4, float[].class));
            }
        }
    }

    // ------------------------------------------------------------------ columns

    /** Metadata columns filter inside the KNN: the k nearest among the rows that match, not k filtered afterwards. */
    @Test
    void metadataColumnsFilterTheKnn() throws SQLException {
        float[][] rows = randomVectors(300, 8, 7);
        String[] genres = {"news", "blog", "paper"};
        execute("CREATE VIRTUAL TABLE docs USING vec0(id INTEGER PRIMARY KEY, embedding float[8], genre text, year integer)");
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO docs(id, embedding, genre, year) VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < rows.length; i++) {
                ps.setInt(1, i);
                ps.setObject(2, rows[i]);
                ps.setString(3, genres[i % 3]);
                ps.setInt(4, 2000 + i % 25);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        conn.commit();
        conn.setAutoCommit(true);
        float[] query = randomVectors(1, 8, 8)[0];
        assertKnn("SELECT id, distance FROM docs WHERE embedding MATCH ? AND k = ? AND genre = ? AND year >= ?"
                        + " ORDER BY distance",
                ps -> {
                    ps.setObject(1, query);
                    ps.setInt(2, 5);
                    ps.setString(3, "paper");
                    ps.setInt(4, 2015);
                }, rows, query, 5, VectorSearchTest::l2, i -> i % 3 == 2 && 2000 + i % 25 >= 2015);
        assertKnn("SELECT id, distance FROM docs WHERE embedding MATCH ? AND k = 4 AND genre IN ('news', 'blog')"
                        + " ORDER BY distance",
                ps -> ps.setObject(1, query), rows, query, 4, VectorSearchTest::l2, i -> i % 3 != 2);
    }

    /** A partition key shards the index: a KNN with the key searches that partition only. */
    @Test
    void partitionKeyColumns() throws SQLException {
        float[][] rows = randomVectors(240, 8, 9);
        execute("CREATE VIRTUAL TABLE notes USING vec0(id INTEGER PRIMARY KEY, user_id integer partition key,"
                + " embedding float[8])");
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO notes(id, user_id, embedding) VALUES (?, ?, ?)")) {
            for (int i = 0; i < rows.length; i++) {
                ps.setInt(1, i);
                ps.setInt(2, i % 4);
                ps.setObject(3, rows[i]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        conn.commit();
        conn.setAutoCommit(true);
        float[] query = randomVectors(1, 8, 10)[0];
        for (int user = 0; user < 4; user++) {
            int u = user;
            assertKnn("SELECT id, distance FROM notes WHERE embedding MATCH ? AND k = 5 AND user_id = ? ORDER BY distance",
                    ps -> {
                        ps.setObject(1, query);
                        ps.setInt(2, u);
                    }, rows, query, 5, VectorSearchTest::l2, i -> i % 4 == u);
        }
    }

    /** Auxiliary (+) columns ride along with the vector, text and blob, and come back with the KNN's rows. */
    @Test
    void auxiliaryColumns() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[2], +title text,"
                + " +payload blob)");
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding, title, payload) VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < 4; i++) {
                ps.setInt(1, i);
                ps.setObject(2, new float[] {i, 0});
                ps.setString(3, "item " + i);
                ps.setBytes(4, new byte[] {(byte) i, 42});
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, title, payload, embedding FROM items WHERE embedding MATCH ? AND k = 2 ORDER BY distance")) {
            ps.setObject(1, new float[] {2.9f, 0});
            try (ResultSet rs = ps.executeQuery()) {
                for (int id : new int[] {3, 2}) {
                    assertTrue(rs.next());
                    assertEquals(id, rs.getInt("id"));
                    assertEquals("item " + id, rs.getString("title"));
                    assertArrayEquals(new byte[] {(byte) id, 42}, rs.getBytes("payload"));
                    assertArrayEquals(new float[] {id, 0}, rs.getObject("embedding", float[].class));
                }
                assertFalse(rs.next());
            }
        }
    }

    /**
     * int8 vectors: a byte[] bound as VectorType.INT8, wrapped in vec_int8(?) in the SQL (the subtype
     * a bound parameter cannot carry), to insert and to query. Unwrapped, sqlite-vec reads it as
     * float32 and says so.
     */
    @Test
    void int8Vectors() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding int8[4])");
        byte[][] rows = {{1, 2, 3, 4}, {-128, 0, 0, 127}, {10, 10, 10, 10}, {0, 0, 0, 0}};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding) VALUES (?, vec_int8(?))")) {
            for (int i = 0; i < rows.length; i++) {
                ps.setInt(1, i);
                ps.setObject(2, rows[i], VectorType.INT8);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, distance, embedding FROM items WHERE embedding MATCH vec_int8(?) AND k = 4 ORDER BY distance")) {
            ps.setObject(1, new byte[] {1, 1, 1, 1}, VectorType.INT8);
            try (ResultSet rs = ps.executeQuery()) {
                for (int id : new int[] {3, 0, 2, 1}) {
                    assertTrue(rs.next());
                    assertEquals(id, rs.getInt(1));
                    double l2 = 0;
                    for (int j = 0; j < 4; j++) {
                        l2 += Math.pow(rows[id][j] - 1, 2);
                    }
                    assertEquals(Math.sqrt(l2), rs.getDouble(2), 1e-4);
                    assertArrayEquals(rows[id], rs.getBytes(3), "an int8 vector reads back as its bytes");
                }
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding) VALUES (9, ?)")) {
            ps.setObject(1, rows[0], VectorType.INT8);
            SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
            assertTrue(e.getMessage().contains("Inserted vector for the \"embedding\" column is expected to be of type"
                    + " int8, but a float32 vector was provided"), e.getMessage());
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM items WHERE embedding MATCH ? AND k = 1")) {
            ps.setObject(1, rows[0], VectorType.INT8);
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertTrue(e.getMessage().contains("is expected to be of type int8, but a float32 vector was provided"),
                    e.getMessage());
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT vec_distance_l1(vec_int8(?), vec_int8(?)), vec_length(vec_int8(?1))")) {
            ps.setObject(1, new byte[] {-1, 2}, VectorType.INT8);
            ps.setObject(2, new byte[] {1, -2}, VectorType.INT8);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(6.0, rs.getDouble(1));
                assertEquals(2, rs.getInt(2));
            }
        }
        assertEquals(4, count("items"));
    }

    /**
     * Bit vectors: a byte[] of 8 dimensions a byte, least significant bit first, bound as
     * VectorType.BIT in vec_bit(?); KNN by Hamming distance. vec_quantize_binary packs a float32
     * vector in the same order (what VectorType.BIT documents).
     */
    @Test
    void bitVectors() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding bit[16])");
        byte[][] rows = {{0, 0}, {(byte) 0xff, 0}, {0x0f, 0x01}, {(byte) 0xff, (byte) 0xff}};
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding) VALUES (?, vec_bit(?))")) {
            for (int i = 0; i < rows.length; i++) {
                ps.setInt(1, i);
                ps.setObject(2, rows[i], VectorType.BIT);
                ps.executeUpdate();
            }
        }
        byte[] query = {0x07, 0};
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, distance FROM items WHERE embedding MATCH vec_bit(?) AND k = 4 ORDER BY distance")) {
            ps.setObject(1, query, VectorType.BIT);
            try (ResultSet rs = ps.executeQuery()) {
                for (int id : new int[] {2, 0, 1, 3}) { // Hamming distances 2, 3, 5, 13
                    assertTrue(rs.next());
                    assertEquals(id, rs.getInt(1));
                    int hamming = Integer.bitCount((rows[id][0] ^ query[0]) & 0xff) + Integer.bitCount((rows[id][1] ^ query[1]) & 0xff);
                    assertEquals(hamming, rs.getDouble(2));
                }
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT vec_quantize_binary(?), vec_distance_hamming(vec_bit(?), vec_bit(?))")) {
            float[] v = {1, -1, -1, -1, -1, -1, -1, 1, -1, 1, -1, -1, -1, -1, -1, -1};
            ps.setObject(1, v);
            ps.setObject(2, new byte[] {1}, VectorType.BIT);
            ps.setObject(3, new byte[] {(byte) 0x80}, VectorType.BIT);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertArrayEquals(new byte[] {(byte) 0b1000_0001, 0b0000_0010}, rs.getBytes(1),
                        "dimension i is bit i % 8 of byte i / 8");
                assertEquals(2.0, rs.getDouble(2));
            }
        }
    }

    @Test
    void cosineDistanceMetric() throws SQLException {
        float[][] rows = randomVectors(100, 12, 11);
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[12] distance_metric=cosine)");
        insertAll("items", rows);
        float[] query = randomVectors(1, 12, 12)[0];
        assertKnn("SELECT id, distance FROM items WHERE embedding MATCH ? AND k = ? ORDER BY distance",
                ps -> {
                    ps.setObject(1, query);
                    ps.setInt(2, 8);
                }, rows, query, 8, VectorSearchTest::cosine, i -> true);
    }

    /** Batches: row by row (auto-commit) and in chunks (in a transaction) store the same vectors. */
    @Test
    void batchInsertsBothWays() throws SQLException {
        float[][] rows = randomVectors(500, 64, 13);
        execute("CREATE VIRTUAL TABLE chunked USING vec0(id INTEGER PRIMARY KEY, embedding float[64])");
        execute("CREATE VIRTUAL TABLE rowwise USING vec0(id INTEGER PRIMARY KEY, embedding float[64])");
        insertAll("chunked", rows);
        float[] buffer = new float[64];
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO rowwise(id, embedding) VALUES (?, ?)")) {
            for (int i = 0; i < rows.length; i++) {
                System.arraycopy(rows[i], 0, buffer, 0, 64); // one buffer refilled: addBatch keeps a copy
                ps.setInt(1, i);
                ps.setObject(2, buffer);
                ps.addBatch();
            }
            assertEquals(500, ps.executeBatch().length);
        }
        for (String table : new String[] {"chunked", "rowwise"}) {
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT id, embedding FROM " + table + " ORDER BY id")) {
                int n = 0;
                while (rs.next()) {
                    assertArrayEquals(rows[rs.getInt(1)], rs.getObject(2, float[].class), table);
                    n++;
                }
                assertEquals(500, n, table);
            }
        }
    }

    // ------------------------------------------------------------------ values through sqlite-vec

    /** Through a vec0 table and back: bit for bit, negative zero, subnormals and the largest floats included. */
    @Test
    void floatsRoundTripThroughVec0() throws SQLException {
        float[] v = VectorValuesTest.EDGES;
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[" + v.length + "])");
        insertAll("items", new float[][] {v});
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT embedding, vec_f32(embedding) FROM items")) {
            assertTrue(rs.next());
            assertTrue(Arrays.equals(v, rs.getObject(1, float[].class)));
            assertTrue(Arrays.equals(v, rs.getObject(2, float[].class)));
        }
    }

    /**
     * JSON text (setObject with VARCHAR) is read by sqlite-vec as the same floats as the blob: its
     * reading (to double, then to float) agrees with Float.toString. JSON has no infinity (sqlite-vec
     * here reads numbers only), so a vector holding one is refused as text, and works as a blob.
     */
    @Test
    void jsonTextAndBlobAreTheSameVectorToSqliteVec() throws SQLException {
        Random random = new Random(14);
        float[] v = new float[4096];
        for (int i = 0; i < v.length; i++) {
            do {
                v[i] = Float.intBitsToFloat(random.nextInt());
            } while (Float.isNaN(v[i]));
        }
        v[0] = Float.POSITIVE_INFINITY;
        System.arraycopy(VectorValuesTest.FINITE_EDGES, 0, v, 1, VectorValuesTest.FINITE_EDGES.length);
        try (PreparedStatement ps = conn.prepareStatement("SELECT vec_f32(?), ? ")) {
            assertThrows(SQLException.class, () -> ps.setObject(1, v, Types.VARCHAR));
            v[0] = 1;
            ps.setObject(1, v, Types.VARCHAR);
            ps.setObject(2, v);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertArrayEquals(rs.getBytes(2), rs.getBytes(1));
                assertTrue(Arrays.equals(v, rs.getObject(1, float[].class)));
            }
        }
    }

    // ------------------------------------------------------------------ malformed vectors

    /** Fails with an SQLException whose message holds {@code expected}; the connection goes on working. */
    private SQLException assertFails(String expected, Executable action) throws SQLException {
        SQLException e = assertThrows(SQLException.class, action);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertTrue(rs.next());
        }
        return e;
    }

    @Test
    void malformedVectorsInAnInsert() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[4])");
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding) VALUES (1, ?)")) {
            Object[] values = {new float[3], new float[5], new float[0], Float.valueOf(1), "not json", "[1, 2, 3, 4",
                new byte[7], 5, null};
            String[] messages = {
                "Dimension mismatch for inserted vector for the \"embedding\" column. Expected 4 dimensions but received 3",
                "Expected 4 dimensions but received 5",
                "Inserted vector for the \"embedding\" column is invalid: zero-length vectors are not supported",
                "Input must have type BLOB (compact format) or TEXT (JSON), found FLOAT",
                "JSON array parsing error: Input does not start with '['",
                null, // sqlite-vec reads an unterminated JSON array as far as it goes: accepted
                "invalid float32 vector BLOB length. Must be divisible by 4, found 7",
                "Input must have type BLOB (compact format) or TEXT (JSON), found INTEGER",
                "found NULL",
            };
            for (int i = 0; i < values.length; i++) {
                ps.setObject(1, values[i]);
                if (messages[i] == null) {
                    assertEquals(1, ps.executeUpdate());
                    execute("DELETE FROM items");
                } else {
                    assertFails(messages[i], ps::executeUpdate);
                }
            }
            ps.setObject(1, new float[] {1, Float.NaN, 3, 4});
            assertFails("Parameter 1 is a float32 vector holding NaN at element 1 (of 4)", ps::executeUpdate);
        }
        assertEquals(0, count("items"));
    }

    @Test
    void malformedQueryVectors() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[4])");
        insertAll("items", randomVectors(10, 4, 15));
        try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM items WHERE embedding MATCH ? AND k = ?")) {
            ps.setInt(2, 3);
            ps.setObject(1, new float[2]);
            assertFails("Dimension mismatch for query vector for the \"embedding\" column. Expected 4 dimensions but received 2",
                    ps::executeQuery);
            ps.setObject(1, new byte[6]);
            assertFails("Query vector on the \"embedding\" column is invalid: invalid float32 vector BLOB length."
                    + " Must be divisible by 4, found 6", ps::executeQuery);
            ps.setString(1, "{\"x\": 1}");
            assertFails("JSON array parsing error", ps::executeQuery);
            ps.setObject(1, new float[] {Float.NaN, 0, 0, 0});
            assertFails("Parameter 1 is a float32 vector holding NaN at element 0", ps::executeQuery);
            ps.setObject(1, new float[4]);
            ps.setInt(2, -1);
            assertFails("k value in knn queries must be greater than or equal to 0", ps::executeQuery);
            ps.setInt(2, 2);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the statement works again");
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT vec_distance_l2(?, ?)")) {
            ps.setObject(1, new float[3]);
            ps.setObject(2, new float[4]);
            assertFails("Vector dimension mistmatch. First vector has 3 dimensions, while the second has 4 dimensions",
                    ps::executeQuery);
            ps.setObject(2, new byte[5]);
            assertFails("Error reading 2nd vector: invalid float32 vector BLOB length", ps::executeQuery);
        }
    }

    /** A malformed row in a batch: a BatchUpdateException with sqlite-vec's message; the rows before it are in. */
    @Test
    void aMalformedVectorInABatch() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[4])");
        for (boolean transaction : new boolean[] {false, true}) {
            execute("DELETE FROM items");
            conn.setAutoCommit(!transaction);
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding) VALUES (?, ?)")) {
                for (int i = 0; i < 5; i++) {
                    ps.setInt(1, i);
                    ps.setObject(2, i == 3 ? new float[2] : new float[4]);
                    ps.addBatch();
                }
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                assertTrue(e.getMessage().contains("Expected 4 dimensions but received 2"), e.getMessage());
                assertEquals(3, e.getUpdateCounts().length, "transaction=" + transaction);
            }
            if (transaction) {
                conn.commit();
                conn.setAutoCommit(true);
            }
            assertEquals(3, count("items"), "transaction=" + transaction);
        }
    }

    /**
     * Why the driver refuses NaN: sqlite-vec stores it, and a KNN then ranks the NaN row ahead of
     * the true nearest with a NULL distance (a wrong answer, no error). Infinities are ordered: L2
     * ranks an infinite vector last, at distance Infinity. (Raw bytes, which the driver does not read,
     * still reach sqlite-vec as they are.)
     */
    @Test
    void sqliteVecRanksANaNAheadOfTheNearest() throws SQLException {
        execute("CREATE VIRTUAL TABLE items USING vec0(id INTEGER PRIMARY KEY, embedding float[2])");
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items(id, embedding) VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setObject(2, new float[] {1, 1});
            ps.executeUpdate();
            ps.setInt(1, 2);
            ps.setBytes(2, VectorValuesTest.littleEndian(new float[] {Float.NaN, 5}));
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setObject(2, new float[] {Float.POSITIVE_INFINITY, 0});
            ps.executeUpdate();
        }
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, distance FROM items WHERE embedding MATCH ? AND k = 3 ORDER BY distance")) {
            ps.setObject(1, new float[] {1, 1});
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1), "the NaN row first");
                assertNull(rs.getObject(2), "at a NULL distance");
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertEquals(0.0, rs.getDouble(2));
                assertTrue(rs.next());
                assertEquals(3, rs.getInt(1));
                assertEquals(Double.POSITIVE_INFINITY, rs.getDouble(2));
            }
        }
    }
}
