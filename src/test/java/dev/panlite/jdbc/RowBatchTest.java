package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ChildJvm;
import dev.panlite.PanliteConnection;
import dev.panlite.TestDb;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows read ahead in batches ({@link StmtResultSet}, engine.RowBatch) and batch rows run in chunks
 * (engine.BatchRows) must give exactly what reading each row in place gave: each scenario runs
 * with batching and with {@code JdbcStatement.batching = false} (every row read in place, every
 * batch row from Java) in the same JVM, and the transcripts must be equal.
 */
class RowBatchTest {
    @TempDir
    java.nio.file.Path dir;

    @AfterEach
    void restore() {
        JdbcStatement.batching = dev.panlite.engine.RowBatch.ENABLED;
    }

    /** Turns the chunked executeBatch on or off the way -Dpanlite.rowBatch=false would. */
    private static void batchWrites(boolean on) {
        JdbcStatement.batching = on;
    }

    private Connection open() throws SQLException {
        // the views here call the tests' own counting functions (side effects): a trusted schema
        return TestDb.open(dir, "trusted_schema=true");
    }

    /**
     * Reading ahead opens no TEMP database (D2 in docs/fuzz-findings-2026-11-27.md): asking whether the
     * encoding was fixed read temp.sqlite_schema, which on SQLite 3.40 opens TEMP, and database_list
     * listed it from the first query that read rows ahead on.
     */
    @Test
    void readingAheadOpensNoTempDatabase() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(b BLOB)", "INSERT INTO t VALUES (x'01'), (x'02'), (x'03')");
            assertEquals("main", TestDb.databaseList(c));
            try (PreparedStatement ps = c.prepareStatement("SELECT b FROM t"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rs.getBytes(1);
                }
            }
            assertEquals("main", TestDb.databaseList(c), "as on a new connection");
            TestDb.exec(c, "CREATE TEMP TABLE x(a)");
            assertEquals("main temp", TestDb.databaseList(c), "TEMP once it is used");
        }
    }

    // ------------------------------------------------------------------ every getter, every conversion

    private static final String[] VALUES = {
        "0", "-1", "2147483648", "-9223372036854775808", "9223372036854775807", "255", "65537",
        "0.0", "1.5", "-2.5e300", "1e999", "-1e999", "0.1", "1e15 + 0.3", "9.2233720368547758e18", "-9.3e18", "3.7",
        "'12abc'", "' 12'", "'1e3'", "'-0'", "''", "'abc'", "'99999999999999999999999'", "'0x10'", "'1.5'", "'true'",
        "'  3.7e2xyz'", "'héllo wörld'", "'2024-05-06 07:08:09.123'", "'2024-05-06'", "'550e8400-e29b-41d4-a716-446655440000'",
        "x''", "x'3132'", "x'00ff'", "x'00112233445566778899aabbccddeeff'", "x'313233616263'", "NULL", "'yes'", "'N'",
    };

    /**
     * Every getter on every value, in five columns of different declared types: the text of what each
     * gave. Each getter reads a fresh execution: in place, a conversion changes what sqlite3_column_type
     * says afterwards (SQLite leaves it undefined), so getters are not mixed on one row here.
     */
    private List<String> everyGetter(Connection c, int fetchSize) throws SQLException {
        List<String> out = new ArrayList<>();
        List<Getter> getters = getters();
        for (int g = 0; g < getters.size(); g++) {
            try (PreparedStatement ps = c.prepareStatement("SELECT i, r, t, b, n, n + 0, typeof(n) FROM every")) {
                ps.setFetchSize(fetchSize);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        for (int col = 1; col <= 6; col++) {
                            out.add(rs.getRow() + "." + col + "." + g + " " + read(rs, getters.get(g), col));
                        }
                        if (g == 0) {
                            ResultSetMetaData md = rs.getMetaData();
                            out.add("types " + md.getColumnType(6) + " " + md.getColumnTypeName(6));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static List<Getter> getters() {
        return List.of(
                (r, col) -> r.getInt(col), (r, col) -> r.getLong(col), (r, col) -> r.getDouble(col),
                (r, col) -> r.getFloat(col), (r, col) -> r.getShort(col), (r, col) -> r.getByte(col),
                (r, col) -> r.getBoolean(col), (r, col) -> r.getBigDecimal(col), (r, col) -> r.getString(col),
                (r, col) -> bytes(r.getBytes(col)), (r, col) -> show(r.getObject(col)),
                (r, col) -> r.getObject(col, Long.class), (r, col) -> r.getObject(col, Integer.class),
                (r, col) -> r.getObject(col, Double.class), (r, col) -> r.getObject(col, BigDecimal.class),
                (r, col) -> r.getObject(col, java.util.UUID.class), (r, col) -> r.getTimestamp(col),
                (r, col) -> r.getDate(col), (r, col) -> r.getObject(col, java.time.LocalDateTime.class),
                (r, col) -> r.getNString(col), (r, col) -> r.getObject(col, java.math.BigInteger.class),
                (r, col) -> bytes(r.getObject(col, byte[].class)),
                // two reads of one row: the first's conversion must not change the second's answer
                (r, col) -> r.getString(col) + "/" + r.getLong(col), (r, col) -> r.getDouble(col) + "/" + r.getInt(col));
    }

    private static String read(ResultSet rs, Getter g, int col) {
        try {
            return g.get(rs, col) + (rs.wasNull() ? "~null" : "");
        } catch (SQLException e) {
            return "!" + e.getClass().getSimpleName() + ":" + e.getMessage();
        }
    }

    private interface Getter {
        Object get(ResultSet rs, int column) throws SQLException;
    }

    private static String bytes(byte[] b) {
        return b == null ? "null" : Arrays.toString(b);
    }

    private static String show(Object o) {
        return o == null ? "null" : o instanceof byte[] b ? "bytes" + bytes(b) : o.getClass().getSimpleName() + ":" + o;
    }

    private void createEvery(Connection c) throws SQLException {
        TestDb.exec(c, "CREATE TABLE every(i INTEGER, r REAL, t TEXT, b BLOB, n)");
        try (Statement s = c.createStatement()) {
            for (String v : VALUES) {
                s.execute("INSERT INTO every VALUES (" + v + ", " + v + ", " + v + ", " + v + ", " + v + ")");
            }
        }
    }

    @Test
    void everyGetterAndConversionReadsAsInPlace() throws SQLException {
        try (Connection c = open()) {
            createEvery(c);
            JdbcStatement.batching = false;
            List<String> inPlace = everyGetter(c, 0);
            JdbcStatement.batching = true;
            for (int fetch : new int[] {0, 1, 3, 1000}) {
                List<String> batched = everyGetter(c, fetch);
                assertEquals(inPlace.size(), batched.size());
                for (int i = 0; i < inPlace.size(); i++) {
                    assertEquals(inPlace.get(i), batched.get(i), "fetch size " + fetch);
                }
            }
        }
    }

    // ------------------------------------------------------------------ large and empty values, the limits

    @Test
    void largeAndEmptyTextAndBlobsReadAsInPlace() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE big(id INTEGER PRIMARY KEY, t TEXT, b BLOB)");
            int[] sizes = {0, 1, 7000, 8192, 8193, 100_000, 0, 30_000, 5, 7000, 7000, 7000, 7000, 7000, 1};
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO big(t, b) VALUES (?, ?)")) {
                for (int n : sizes) {
                    ps.setString(1, "é".repeat(n / 2) + "x".repeat(n % 2));
                    byte[] b = new byte[n];
                    for (int i = 0; i < n; i++) {
                        b[i] = (byte) (i * 31);
                    }
                    ps.setBytes(2, b);
                    ps.executeUpdate();
                }
            }
            String sql = "SELECT id, t, b, length(t) FROM big ORDER BY id";
            JdbcStatement.batching = false;
            List<String> inPlace = transcript(c, sql, 0);
            JdbcStatement.batching = true;
            for (int fetch : new int[] {0, 2, 50}) {
                assertEquals(inPlace, transcript(c, sql, fetch), "fetch size " + fetch);
            }
        }
    }

    /**
     * executeQuery copies its first row with its step (Stmt.stepCopying): reading that row needs
     * neither the connection's lock nor SQLite, so it is read while another thread holds the
     * connection inside a step (a function waiting on a latch). Read in place, it would wait for
     * that step to end, which it never does before the read: the guard below fails instead of hanging.
     */
    @Test
    void aQuerysFirstRowIsReadWithoutTheConnection() throws Exception {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO t VALUES (7, 'seven')");
            try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM t WHERE id = ?")) {
                ps.setInt(1, 7);
                ResultSet rs = ps.executeQuery();
                try (TestDb.ConnectionHold hold = TestDb.holdConnection(c)) {
                    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
                        assertTrue(rs.next());
                        assertEquals(7, rs.getInt(1));
                        assertEquals("seven", rs.getString(2));
                    }, "the first row waited for the connection");
                }
                rs.close();
            }
        }
    }

    /**
     * The fill marks all-ASCII text so its String is made without a decoder (RowBuffer.ASCII): one
     * byte of 0x80 or more anywhere, inside or after the 8-byte words the check reads, must send the
     * text through UTF-8 decoding. Every length from 0 to 40, with one non-ASCII character at every
     * place, and 0x7F (the last ASCII byte).
     */
    @Test
    void textIsTheSameWhetherOrNotItIsAllAscii() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(v TEXT)");
            List<String> values = new ArrayList<>();
            for (int n = 0; n <= 40; n++) {
                values.add("a".repeat(n));
                values.add("\u007f".repeat(n));
                for (int at = 0; at < n; at++) {
                    values.add("b".repeat(at) + (at % 2 == 0 ? "é" : "行") + "c".repeat(n - at - 1));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                for (String v : values) {
                    ps.setString(1, v);
                    ps.executeUpdate();
                }
            }
            for (int fetch : new int[] {0, 7, 1000}) {
                List<String> read = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t ORDER BY rowid")) {
                    ps.setFetchSize(fetch);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            read.add(rs.getString(1));
                        }
                    }
                }
                assertEquals(values.size(), read.size(), "fetch size " + fetch);
                for (int i = 0; i < values.size(); i++) {
                    assertEquals(values.get(i), read.get(i), "fetch size " + fetch + ", value " + i);
                }
            }
        }
    }

    private static List<String> transcript(Connection c, String sql, int fetch) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setFetchSize(fetch);
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder b = new StringBuilder();
                    for (int i = 1; i <= n; i++) {
                        Object o = rs.getObject(i);
                        b.append(o instanceof byte[] bytes ? Arrays.hashCode(bytes) + "/" + bytes.length : o).append(',');
                        String s = rs.getString(i);
                        b.append(s == null ? "null" : s.hashCode() + "/" + s.length()).append(',');
                        b.append(rs.getLong(i)).append(';');
                    }
                    out.add(b.toString());
                }
            }
        } catch (SQLException e) {
            out.add("!" + e.getMessage());
        }
        return out;
    }

    /**
     * The bundled engine's row copy reads a text or blob straight from SQLite's result row when that
     * is what sqlite3_value_text/_blob would give (panlite_helper.c, linked_bytes); a zeroblob and
     * the text of a UTF-16 database need SQLite's conversion, and must read as they do in place. In
     * a UTF-16 database a blob's text is converted from the encoding its value carries (the
     * database's for a stored blob, UTF-8 for a computed zeroblob), which a copy loses: a row holding
     * a blob is read in place there (Conversions.blobsReadAhead), here with bytes that are no valid
     * UTF-16 (a byte-order mark, lone surrogates, an odd length). getLong reads the blobs as numbers.
     */
    @Test
    void zeroblobsAndUtf16TextReadAsInPlace() throws SQLException {
        String text = "'', 'héllo', CAST(x'41' AS TEXT), t, t || 'ü', zeroblob(3) || 'x'";
        String blobs = "zeroblob(5), zeroblob(0), zeroblob(length(t) + 2), zeroblob(length(t) - 1), x'', CAST('é' AS BLOB), b, "
                + "x'fffe4100', x'feff0041', x'41', x'00d8', x'00d841', x'3dd800de', x'3100320033', CAST('7' AS BLOB), ";
        for (String encoding : new String[] {"UTF-8", "UTF-16le", "UTF-16be"}) {
            for (String sql : new String[] {"SELECT " + blobs + text + " FROM u", "SELECT " + text + " FROM u"}) {
                try (Connection c = new dev.panlite.Driver().connect(TestDb.url(dir, encoding + sql.length() + ".db", ""),
                        new java.util.Properties())) {
                    TestDb.exec(c, "PRAGMA encoding = '" + encoding + "'", "CREATE TABLE u(t TEXT, b BLOB)",
                            "INSERT INTO u VALUES ('ascii', x'00ff'), ('wörld ✓', zeroblob(4)), ('', x''), (NULL, NULL), "
                                    + "('12', CAST('34' AS BLOB))");
                    JdbcStatement.batching = false;
                    List<String> inPlace = transcript(c, sql, 0);
                    assertEquals(5, inPlace.size(), inPlace.toString());
                    JdbcStatement.batching = true;
                    for (int fetch : new int[] {0, 1, 3}) {
                        assertEquals(inPlace, transcript(c, sql, fetch), encoding + ", fetch size " + fetch + ": " + sql);
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ errors at the k-th row

    @Test
    void anErrorOnTheKthRowComesWhenTheReaderReachesIt() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
                    + "WHERE x < 100) INSERT INTO t SELECT x FROM n");
            String sql = "SELECT x, abs(CASE WHEN x = 40 THEN -9223372036854775808 ELSE x END) FROM t";
            List<String> seen = new ArrayList<>();
            for (boolean batched : new boolean[] {false, true}) {
                JdbcStatement.batching = batched;
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setFetchSize(1000);
                    ResultSet rs = ps.executeQuery();
                    for (int i = 1; i < 40; i++) {
                        assertTrue(rs.next());
                        assertEquals(i, rs.getInt(2));
                    }
                    SQLException e = assertThrows(SQLException.class, rs::next);
                    seen.add(e.getClass().getName() + " " + e.getErrorCode() + " " + e.getMessage());
                    rs.close();
                }
            }
            assertEquals(seen.get(0), seen.get(1));
            assertTrue(seen.get(0).contains("integer overflow"), seen.get(0));
        }
    }

    /**
     * Two threads sharing a result set (misuse, which must still end in SQLExceptions) both reach the
     * row whose step failed during the fill: the first gets its error, the second steps on as a second
     * step would in place. The second threw null (a NullPointerException: the misuse fuzz, system
     * SQLite seed 9). Both readers pass the unlocked check of the row's state while a third thread
     * holds the connection (inside a function), so both wait in failHere.
     */
    @Test
    void twoReadersReachingTheFailedRowGetItsErrorOnce() throws Exception {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
                    + "WHERE x < 50) INSERT INTO t SELECT x FROM n");
            PreparedStatement ps = c.prepareStatement(
                    "SELECT x, abs(CASE WHEN x = 40 THEN -9223372036854775808 ELSE x END) FROM t");
            ps.setFetchSize(1000);
            ResultSet rs = ps.executeQuery();
            for (int i = 1; i < 40; i++) {
                assertTrue(rs.next());
            }
            Object[] outcomes = new Object[2];
            Thread[] readers = new Thread[2];
            for (int r = 0; r < 2; r++) {
                int me = r;
                readers[r] = new Thread(() -> {
                    try {
                        outcomes[me] = rs.next();
                    } catch (Throwable e) {
                        outcomes[me] = e;
                    }
                });
            }
            try (TestDb.ConnectionHold hold = TestDb.holdConnection(c)) {
                for (Thread reader : readers) {
                    reader.start();
                    hold.awaitQueued(reader);
                }
            }
            for (Thread reader : readers) {
                reader.join();
            }
            int errors = 0;
            for (Object o : outcomes) {
                if (o instanceof SQLException e) {
                    assertTrue(e.getMessage().contains("integer overflow"), e.getMessage());
                    errors++;
                } else {
                    assertTrue(o instanceof Boolean, "a reader got " + o);
                }
            }
            assertEquals(1, errors, Arrays.toString(outcomes));
            rs.close();
        }
    }

    // ------------------------------------------------------------------ callbacks run when the reader moves

    @Test
    void userFunctionsRunRowByRowAsInPlace() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
                    + "WHERE x < 50) INSERT INTO t SELECT x FROM n");
            AtomicInteger calls = new AtomicInteger();
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.createFunction("counted", 1, false, args -> {
                calls.incrementAndGet();
                return args[0];
            });
            TestDb.exec(c, "CREATE VIEW hidden AS SELECT x, CASE WHEN x >= 10 THEN counted(x) END AS y FROM t");
            // named in the text, or behind a view (EXPLAIN names it): never read ahead
            // (no ORDER BY: a sort would run every call in the first step, batched or not)
            for (String sql : new String[] {"SELECT counted(x) FROM t", "SELECT y FROM hidden"}) {
                calls.set(0);
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setFetchSize(1000);
                    try (ResultSet rs = ps.executeQuery()) {
                        int row = 0;
                        while (rs.next()) {
                            row++;
                            int expected = sql.contains("hidden") ? Math.max(0, row - 9) : row;
                            assertEquals(expected, calls.get(), "calls when the reader is on row " + row + " of " + sql);
                        }
                    }
                }
            }
        }
    }

    @Test
    void setMaxRowsStepsNoFurther() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3), (4), (5)");
            AtomicInteger calls = new AtomicInteger();
            c.unwrap(PanliteConnection.class).createFunction("seen", 1, false, args -> {
                calls.incrementAndGet();
                return args[0];
            });
            TestDb.exec(c, "CREATE VIEW v AS SELECT x, CASE WHEN x > 3 THEN seen(x) END AS y FROM t");
            try (PreparedStatement ps = c.prepareStatement("SELECT x, y FROM v")) {
                ps.setFetchSize(100);
                ps.setMaxRows(3);
                try (ResultSet rs = ps.executeQuery()) {
                    int n = 0;
                    while (rs.next()) {
                        n++;
                    }
                    assertEquals(3, n);
                }
            }
            assertEquals(0, calls.get(), "row 4 was never stepped to");
        }
    }

    // ------------------------------------------------------------------ cancel, interrupt, timeout

    @Test
    void aCancelWhileRowsAreHeldIsThrownByTheNextNext() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3), (4), (5)");
            List<String> seen = new ArrayList<>();
            for (boolean batched : new boolean[] {false, true}) {
                JdbcStatement.batching = batched;
                try (PreparedStatement ps = c.prepareStatement("SELECT x FROM t ORDER BY x")) {
                    ps.setFetchSize(100);
                    ResultSet rs = ps.executeQuery();
                    assertTrue(rs.next());
                    assertTrue(rs.next()); // batched: every row is held now
                    ps.cancel();
                    assertEquals(2, rs.getInt(1)); // the current row stays readable
                    SQLException e = assertThrows(SQLException.class, rs::next);
                    seen.add(e.getClass().getName() + " " + e.getErrorCode() + " " + e.getMessage());
                    rs.close();
                }
            }
            assertEquals(seen.get(0), seen.get(1));
        }
    }

    @Test
    void anInterruptedThreadReadsAsBefore() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3)");
            Thread.currentThread().interrupt();
            try (PreparedStatement ps = c.prepareStatement("SELECT x FROM t ORDER BY x"); ResultSet rs = ps.executeQuery()) {
                int sum = 0;
                while (rs.next()) {
                    sum += rs.getInt(1);
                }
                assertEquals(6, sum);
            } finally {
                assertTrue(Thread.interrupted());
            }
        }
    }

    // ------------------------------------------------------------------ closed, and writes while open

    @Test
    void gettersAfterCloseFailAsInPlace() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2)");
            for (boolean batched : new boolean[] {false, true}) {
                JdbcStatement.batching = batched;
                PreparedStatement ps = c.prepareStatement("SELECT x FROM t");
                ResultSet rs = ps.executeQuery();
                assertTrue(rs.next());
                rs.close();
                assertThrows(SQLException.class, () -> rs.getInt(1));
                ResultSet rs2 = ps.executeQuery();
                assertTrue(rs2.next());
                ps.close();
                assertThrows(SQLException.class, () -> rs2.getInt(1));
                assertThrows(SQLException.class, rs2::next);
            }
            Connection other = open();
            PreparedStatement ps = other.prepareStatement("SELECT x FROM t");
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            other.close();
            assertThrows(SQLException.class, () -> rs.getInt(1));
            assertThrows(SQLException.class, () -> rs.getString(1));
        }
    }

    /**
     * A held value read as its own class takes the getters' fast path (StmtResultSet.held), which must
     * refuse every read the general path refuses: past setMaxRows, after the last row, a column out of
     * range, inside a change listener of the connection, after an abort whose close has not run yet.
     * Each getter the fast path serves is tried, batched and in place.
     */
    @Test
    void aHeldValueIsRefusedWhereARowReadInPlaceIs() throws Exception {
        for (boolean batched : new boolean[] {false, true}) {
            String mode = batched ? "batched" : "in place";
            try (Connection c = open()) {
                TestDb.exec(c, "DROP TABLE IF EXISTS t", "DROP TABLE IF EXISTS log", "CREATE TABLE t(i INTEGER, r REAL, s TEXT, b BLOB)",
                        "INSERT INTO t VALUES (1, 1.5, 'a', x'01'), (2, 2.5, 'b', x'02')", "CREATE TABLE log(x)");
                JdbcStatement.batching = batched;
                try (PreparedStatement ps = c.prepareStatement("SELECT i, r, s, b FROM t")) {
                    ps.setMaxRows(1);
                    ResultSet rs = ps.executeQuery();
                    assertTrue(rs.next());
                    assertEquals(1, rs.getInt(1));
                    assertFalse(rs.next());
                    assertEveryGetterRefused(rs, 1, mode + ", past setMaxRows");
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT i, r, s, b FROM t")) {
                    ps.setFetchSize(10);
                    ResultSet rs = ps.executeQuery();
                    assertTrue(rs.next());
                    assertEveryGetterRefused(rs, 0, mode + ", column 0");
                    assertEveryGetterRefused(rs, 5, mode + ", column 5");
                    assertEquals("a", rs.getString(3));
                    assertTrue(rs.next());
                    assertFalse(rs.next());
                    assertEveryGetterRefused(rs, 1, mode + ", after the last row");
                }
                PanliteConnection p = c.unwrap(PanliteConnection.class);
                try (PreparedStatement ps = c.prepareStatement("SELECT i, r, s, b FROM t")) {
                    ps.setFetchSize(10);
                    ResultSet rs = ps.executeQuery();
                    assertTrue(rs.next());
                    List<String> inListener = new ArrayList<>();
                    dev.panlite.ChangeListener listener = new dev.panlite.ChangeListener() {
                        @Override
                        public void rowChanged(Kind kind, String schema, String table, long rowId) {
                            for (int col = 1; col <= 4; col++) {
                                inListener.add(read(rs, (r, k) -> r.getObject(k), col));
                                inListener.add(read(rs, (r, k) -> r.getString(k), col));
                            }
                        }
                    };
                    p.addChangeListener(listener);
                    TestDb.exec(c, "INSERT INTO log VALUES (1)");
                    p.removeChangeListener(listener);
                    assertEquals(8, inListener.size());
                    for (String r : inListener) {
                        assertTrue(r.startsWith("!") && r.contains("change listener cannot use its connection"),
                                mode + ", inside a change listener: " + r);
                    }
                    assertEquals(1, rs.getInt(1), mode + ": readable again after the listener");
                }
                PreparedStatement ps = c.prepareStatement("SELECT i, r, s, b FROM t");
                ps.setFetchSize(10);
                ResultSet rs = ps.executeQuery();
                assertTrue(rs.next());
                c.abort(task -> { }); // closed for every caller now; the close itself never runs here
                assertEveryGetterRefused(rs, 1, mode + ", after abort");
                assertEveryGetterRefused(rs, 3, mode + ", after abort");
            }
        }
    }

    private static void assertEveryGetterRefused(ResultSet rs, int col, String where) {
        List<Getter> getters = List.of((r, k) -> r.getInt(k), (r, k) -> r.getLong(k), (r, k) -> r.getDouble(k),
                (r, k) -> r.getBoolean(k), (r, k) -> r.getString(k), (r, k) -> r.getBytes(k), (r, k) -> r.getObject(k));
        for (Getter g : getters) {
            String got = read(rs, g, col);
            assertTrue(got.startsWith("!"), where + ": a getter gave " + got);
        }
    }

    /**
     * Documented in the README: rows already read ahead (up to the fetch size) keep the values they
     * had when read; a write on the same connection shows, or not, in later rows as SQLite decides.
     */
    @Test
    void rowsReadAheadKeepTheirValuesWhenTheSameConnectionWrites() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)", "WITH RECURSIVE n(x) AS (SELECT 1 "
                    + "UNION ALL SELECT x + 1 FROM n WHERE x < 30) INSERT INTO t SELECT x, x FROM n");
            try (PreparedStatement ps = c.prepareStatement("SELECT id, v FROM t ORDER BY id")) {
                ps.setFetchSize(10);
                try (ResultSet rs = ps.executeQuery()) { // copies row 1 with its step
                    assertTrue(rs.next());
                    assertTrue(rs.next()); // reads rows 2..11 ahead
                    TestDb.exec(c, "UPDATE t SET v = -v");
                    assertEquals(2, rs.getInt(2), "row 2 was read before the write");
                    int rows = 2;
                    while (rs.next()) {
                        rows++;
                        if (rows <= 11) {
                            assertEquals(rows, rs.getInt(2), "row " + rows + " was read before the write");
                        }
                    }
                    assertEquals(30, rows);
                }
            }
        }
    }

    @Test
    void aConversionLeavesNoStatementThatBlocksADeserialize() throws SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.panlite.engine.Database.libraryVersionNumber() >= 3_054_000,
                "deserialize needs SQLite 3.54+");
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x TEXT)", "INSERT INTO t VALUES ('12abc'), ('7')");
            try (PreparedStatement ps = c.prepareStatement("SELECT x FROM t")) {
                ps.setFetchSize(10); // read ahead: getInt on text asks SQLite through the connection
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(12, rs.getInt(1));
                }
            }
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.deserialize("main", p.serialize("main"));
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    // ------------------------------------------------------------------ batches of writes

    @Test
    void executeBatchInATransactionGivesWhatRowByRowGave() throws Exception {
        List<String> results = new ArrayList<>();
        for (boolean chunked : new boolean[] {false, true}) {
            batchWrites(chunked);
            java.nio.file.Path sub = java.nio.file.Files.createDirectories(dir.resolve(chunked ? "chunked" : "plain"));
            try (Connection c = TestDb.open(sub)) {
                TestDb.exec(c, "CREATE TABLE w(id INTEGER PRIMARY KEY, i INTEGER, d REAL, t TEXT UNIQUE, b BLOB)");
                c.setAutoCommit(false);
                StringBuilder out = new StringBuilder();
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO w(i, d, t, b) VALUES (?, ?, ?, ?)",
                        Statement.RETURN_GENERATED_KEYS)) {
                    for (int i = 0; i < 1500; i++) {
                        ps.setLong(1, i * 1_000_000_007L);
                        if (i % 7 == 0) {
                            ps.setNull(2, java.sql.Types.REAL);
                        } else {
                            ps.setDouble(2, i / 3.0);
                        }
                        ps.setString(3, i == 1200 ? "dup 5" : "dup " + i + "é".repeat(i % 5));
                        ps.setBytes(4, i % 97 == 0 ? new byte[20_000 + i] : new byte[i % 13]);
                        ps.addBatch();
                    }
                    BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                    out.append(e.getErrorCode()).append(' ').append(e.getMessage()).append(' ')
                            .append(e.getLargeUpdateCounts().length).append(' ')
                            .append(Arrays.stream(e.getLargeUpdateCounts()).sum()).append('\n');
                    for (int i = 0; i < 10; i++) {
                        ps.setInt(1, i);
                        ps.setDouble(2, 0.5);
                        ps.setString(3, "again " + i);
                        ps.setBytes(4, new byte[] {(byte) i});
                        ps.addBatch();
                    }
                    out.append(Arrays.toString(ps.executeBatch())).append('\n');
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        while (keys.next()) {
                            out.append(keys.getLong(1)).append(',');
                        }
                    }
                }
                c.commit();
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT count(*), sum(i), total(d), sum(length(t)), "
                                + "sum(length(b)), group_concat(hex(substr(b, 1, 2))) FROM w")) {
                    assertTrue(rs.next());
                    for (int i = 1; i <= 6; i++) {
                        out.append(' ').append(rs.getString(i));
                    }
                }
                results.add(out.toString());
            }
        }
        assertEquals(results.get(0), results.get(1));
        assertTrue(results.get(0).contains("SQLITE_CONSTRAINT_UNIQUE"), results.get(0)); // at row 1200
        assertTrue(results.get(0).contains(" 1200 1200\n"), results.get(0));
    }

    @Test
    void batchRowsReadAheadSurviveAClosedStatementReuse() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(x INTEGER)", "INSERT INTO t VALUES (1), (2), (3)");
            for (int round = 0; round < 3; round++) { // the cached statement brings its row batch along
                try (PreparedStatement ps = c.prepareStatement("SELECT x, 'v' || x FROM t ORDER BY x");
                        ResultSet rs = ps.executeQuery()) {
                    List<String> got = new ArrayList<>();
                    while (rs.next()) {
                        got.add(rs.getInt(1) + rs.getString(2));
                    }
                    assertEquals(List.of("1v1", "2v2", "3v3"), got);
                    assertFalse(rs.next());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT x FROM t WHERE x > 99"); ResultSet rs = ps.executeQuery()) {
                assertFalse(rs.isBeforeFirst());
                assertFalse(rs.next());
            }
            assertArrayEquals("1".getBytes(StandardCharsets.US_ASCII), firstBytes(c));
        }
    }

    // ------------------------------------------------------------------ rows wider than the buffer

    /**
     * Issue 27: a row of more than RowBuffer.CELLS (4,096) columns was copied past the row buffer: an
     * IndexOutOfBoundsException from executeQuery at 4,097, the process aborted from about 6,000. In a
     * child JVM (a crash fails this test instead of ending the run): up to the engine's column limit,
     * Statement and PreparedStatement, fetch sizes 1, default and large, every getter, as in place.
     */
    @Test
    void rowsWiderThanTheBufferReadAsInPlace() throws Exception {
        ChildJvm.Output out = ChildJvm.of(WideRowsChild.class).args(dir.toString()).run().assertSameEngine();
        assertTrue(out.text().lines().anyMatch("ok"::equals), out.text());
    }

    /** A batch row of more parameters than the buffer has cells runs alone, as a row too large always did. */
    @Test
    void aBatchRowWiderThanTheBufferRunsAlone() throws SQLException {
        try (Connection c = open()) {
            int width = dev.panlite.ffi.RowBuffer.CELLS + 1;
            org.junit.jupiter.api.Assumptions.assumeTrue(WideRowsChild.columnLimit(c) >= width,
                    "this engine's column limit is under " + width);
            StringBuilder columns = new StringBuilder();
            StringBuilder marks = new StringBuilder();
            for (int i = 0; i < width; i++) {
                columns.append(i == 0 ? "" : ", ").append("c").append(i);
                marks.append(i == 0 ? "?" : ", ?");
            }
            TestDb.exec(c, "CREATE TABLE w(" + columns + ")");
            c.setAutoCommit(false); // where executeBatch sends chunks of rows
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO w VALUES (" + marks + ")")) {
                for (int row = 0; row < 3; row++) {
                    for (int i = 1; i <= width; i++) {
                        ps.setLong(i, row * 100_000L + i);
                    }
                    ps.addBatch();
                }
                assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
            }
            c.commit();
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT c0, c" + (width - 1) + ", count(*) OVER () FROM w ORDER BY c0")) {
                for (int row = 0; row < 3; row++) {
                    assertTrue(rs.next());
                    assertEquals(row * 100_000L + 1, rs.getLong(1));
                    assertEquals(row * 100_000L + width, rs.getLong(2));
                    assertEquals(3, rs.getInt(3));
                }
                assertFalse(rs.next());
            }
        }
    }

    // ------------------------------------------------------------------ rows read ahead and the end of a transaction

    /** How a scenario ends its transaction, or rolls part of it back, while the result set is open. */
    private enum TxEnd {
        /** Connection.rollback(). */
        ROLLBACK,
        /** ROLLBACK run as SQL. */
        ROLLBACK_SQL,
        /** Connection.rollback(Savepoint) of a savepoint set after the inserts, before the updates. */
        ROLLBACK_TO_SAVEPOINT,
        /** ROLLBACK TO run as SQL, of a SAVEPOINT run as SQL before every write. */
        ROLLBACK_TO_SQL,
        /** Connection.commit(). */
        COMMIT,
        /** COMMIT run as SQL. */
        COMMIT_SQL,
        /** Connection.commit() with the statement's holdability CLOSE_CURSORS_AT_COMMIT: the result set closes. */
        COMMIT_CLOSING_CURSORS
    }

    /** A WITH clause naming the integers {@code from..to} {@code n(value)} (generate_series is not in every SQLite). */
    private static String series(int from, int to) {
        return "WITH RECURSIVE n(value) AS (SELECT " + from + " UNION ALL SELECT value + 1 FROM n WHERE value < " + to + ") ";
    }

    private static final List<String> TX_QUERIES = List.of(
            "SELECT id, v FROM t", // stepped from the table as it is: a rollback shows in the rows after it
            "SELECT id, v FROM t ORDER BY v DESC"); // sorted at the first step: every row is already computed

    /**
     * Rows 1..5 committed ('old'); auto-commit off; rows 6..40 inserted ('new'), rows 1..5 updated
     * ('upd'); the query reads two rows, {@code end} ends the transaction, then the rest is read: what
     * each next() and getter gave, the end marked by "|".
     */
    private List<String> aroundTransactionEnd(Connection c, TxEnd end, String query, boolean prepared, int fetchSize)
            throws SQLException {
        c.setAutoCommit(true);
        TestDb.exec(c, "DROP TABLE IF EXISTS t", "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)",
                series(1, 5) + "INSERT INTO t SELECT value, 'old' || value FROM n");
        c.setAutoCommit(false);
        java.sql.Savepoint savepoint = null;
        try (Statement s = c.createStatement()) {
            if (end == TxEnd.ROLLBACK_TO_SQL) {
                s.execute("SAVEPOINT before_writes");
            }
            s.execute(series(6, 40) + "INSERT INTO t SELECT value, 'new' || value FROM n");
            if (end == TxEnd.ROLLBACK_TO_SAVEPOINT) {
                savepoint = c.setSavepoint();
            }
            s.execute("UPDATE t SET v = 'upd' || id WHERE id <= 5");
        }
        List<String> out = new ArrayList<>();
        int holdability = end == TxEnd.COMMIT_CLOSING_CURSORS ? ResultSet.CLOSE_CURSORS_AT_COMMIT
                : ResultSet.HOLD_CURSORS_OVER_COMMIT;
        Statement s = prepared ? c.prepareStatement(query, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability)
                : c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
        try (s) {
            s.setFetchSize(fetchSize);
            try (ResultSet rs = prepared ? ((PreparedStatement) s).executeQuery() : s.executeQuery(query)) {
                for (int i = 0; i < 2 && rs.next(); i++) {
                    out.add(rs.getInt(1) + rs.getString(2));
                }
                switch (end) {
                    case ROLLBACK -> c.rollback();
                    case ROLLBACK_SQL -> TestDb.exec(c, "ROLLBACK");
                    case ROLLBACK_TO_SAVEPOINT -> c.rollback(savepoint);
                    case ROLLBACK_TO_SQL -> TestDb.exec(c, "ROLLBACK TO before_writes");
                    case COMMIT, COMMIT_CLOSING_CURSORS -> c.commit();
                    case COMMIT_SQL -> TestDb.exec(c, "COMMIT");
                }
                out.add("|");
                try {
                    while (rs.next()) {
                        out.add(rs.getInt(1) + rs.getString(2));
                    }
                    out.add("end");
                } catch (SQLException e) {
                    out.add("!" + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
        } finally {
            if (!c.getAutoCommit()) {
                c.rollback(); // what is left of it (a ROLLBACK TO keeps the transaction)
            }
        }
        return out;
    }

    /**
     * Issue 27: auto-commit off, rows inserted, a query read two of them, rollback(): the next next()
     * returned rows of the rolled-back transaction that read ahead before it, where reading in place
     * (a fetch size of 1) goes on from the restored table. Every way a transaction ends or rolls back
     * to a savepoint, Statement and PreparedStatement, a table scan and a sorted query: the default and
     * a large fetch size give what a fetch size of 1 gives, and so does reading every row in place.
     */
    @Test
    void rowsReadAheadNeverOutliveTheTransactionThatSawThem() throws SQLException {
        try (Connection c = open()) {
            for (TxEnd end : TxEnd.values()) {
                for (String query : TX_QUERIES) {
                    for (boolean prepared : new boolean[] {false, true}) {
                        String what = end + " " + (prepared ? "PreparedStatement " : "Statement ") + query;
                        List<String> reference = aroundTransactionEnd(c, end, query, prepared, 1);
                        assertEquals(reference, aroundTransactionEnd(c, end, query, prepared, 0), what + ", default fetch size");
                        assertEquals(reference, aroundTransactionEnd(c, end, query, prepared, 100), what + ", fetch size 100");
                        JdbcStatement.batching = false;
                        assertEquals(reference, aroundTransactionEnd(c, end, query, prepared, 0), what + ", in place");
                        JdbcStatement.batching = true;
                        if (query.equals(TX_QUERIES.get(0)) && end.name().startsWith("ROLLBACK")) {
                            // the scan goes on from the restored table: no row inserted after the savepoint or
                            // the transaction's start, every row 1..5 as it was then
                            boolean keepsInserts = end == TxEnd.ROLLBACK_TO_SAVEPOINT;
                            List<String> after = reference.subList(reference.indexOf("|") + 1, reference.size());
                            assertEquals(keepsInserts ? 39 : 4, after.size(), what + ": " + reference);
                            assertTrue(after.stream().noneMatch(r -> r.contains("upd")), what + ": " + reference);
                            assertEquals(keepsInserts, after.stream().anyMatch(r -> r.contains("new")), what + ": " + reference);
                        }
                    }
                }
            }
        }
    }

    /** The issue's own steps: default fetch size, two rows read, rollback(), next(). */
    @Test
    void aRollbackLeavesNoRowOfTheRolledBackTransaction() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            c.setAutoCommit(false);
            TestDb.exec(c, series(1, 100) + "INSERT INTO t SELECT value, 'v' || value FROM n");
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM t"); ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertTrue(rs.next());
                c.rollback();
                assertFalse(rs.next(), "the rows were rolled back: none follows");
            }
        }
    }

    /**
     * A table the transaction created (CREATE TABLE AS, whose rows sqlite3_total_changes does not count)
     * and read: its rollback takes the table away, and the reader gets SQLite's SQLITE_ABORT_ROLLBACK at
     * once, as in place, not rows of a table that never existed.
     */
    @Test
    void aTableCreatedByTheRolledBackTransactionIsNotReadAhead() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY)", series(1, 5) + "INSERT INTO t SELECT value FROM n");
            List<List<String>> transcripts = new ArrayList<>();
            for (int fetchSize : new int[] {1, 0, 100}) {
                c.setAutoCommit(false);
                TestDb.exec(c, "CREATE TABLE made AS " + series(1, 50) + "SELECT value AS id FROM n");
                List<String> out = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT id FROM made")) {
                    ps.setFetchSize(fetchSize);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertTrue(rs.next());
                        c.rollback();
                        while (rs.next()) {
                            out.add(rs.getString(1));
                        }
                    } catch (SQLException e) {
                        out.add("error " + (e.getErrorCode() & 0xff) + ": " + e.getMessage());
                    }
                }
                c.setAutoCommit(true);
                transcripts.add(out);
            }
            assertEquals(1, transcripts.get(0).size(), transcripts.get(0).toString());
            assertTrue(transcripts.get(0).get(0).startsWith("error 4: "), "SQLITE_ABORT in place: " + transcripts.get(0));
            assertEquals(transcripts.get(0), transcripts.get(1), "default fetch size");
            assertEquals(transcripts.get(0), transcripts.get(2), "fetch size 100");
        }
    }

    /**
     * Reading ahead stays on where a rollback cannot change what was read: auto-commit off, a query
     * before the transaction wrote anything reads ahead, so a write after it does not show in the rows
     * already read (as documented for any write while a result set is open). Only the bundled engine
     * can tell a write transaction that changed nothing (BEGIN IMMEDIATE, read only so far) from one
     * that did; on another SQLite the rows are read one at a time in any write transaction.
     */
    @Test
    void aTransactionThatHasOnlyReadStillReadsAhead() throws SQLException {
        try (Connection c = open()) {
            TestDb.exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)",
                    series(1, 30) + "INSERT INTO t SELECT value, value FROM n");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT id, v FROM t"); ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertTrue(rs.next()); // the fill after the first row: 8 rows ahead, when allowed
                TestDb.exec(c, "UPDATE t SET v = -v");
                assertTrue(rs.next());
                boolean exact = dev.panlite.ffi.SqliteLibrary.bundled() && dev.panlite.ffi.Fused.helperActive();
                assertEquals(exact ? 3 : -3, rs.getInt(2), exact ? "read ahead before the write" : "read after the write");
                c.rollback();
                int rows = 3;
                while (rs.next()) {
                    rows++;
                    assertEquals(rows, rs.getInt(2), "the write was rolled back");
                }
                assertEquals(30, rows);
            }
        }
    }

    private static byte[] firstBytes(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT x FROM t ORDER BY x")) {
            assertTrue(rs.next());
            return rs.getBytes(1);
        }
    }
}
