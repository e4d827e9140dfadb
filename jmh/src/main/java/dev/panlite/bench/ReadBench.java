package dev.panlite.bench;

import static dev.panlite.bench.Schema.ALL_SQL;
import static dev.panlite.bench.Schema.EXEC_SQL;
import static dev.panlite.bench.Schema.MONSTER_ROWS;
import static dev.panlite.bench.Schema.POINT_SQL;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Single-connection reads. pointAdHoc, pointPrepared, execNoArgs and rows1000 are floor.c's workloads of the same
 * name; wideRow and blobRoundTrip exercise the type getters and large values.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReadBench {

    @Param({Drivers.XERIAL, Drivers.PANLITE, Drivers.PANLITE_NOCACHE, Drivers.PANLITE_NOHELPER})
    public String driver;

    static final int WIDE_ROWS = 100;
    static final String WIDE_SQL = "SELECT id, i1, i2, i3, i4, l1, l2, l3, l4, d1, d2, d3, d4, t1, t2, t3, t4, b1, b2, n1 FROM wide";
    static final int BLOB_SIZE = 64 * 1024;
    static final String BLOB_PUT = "INSERT OR REPLACE INTO blobs(id, data) VALUES (1, ?)";
    static final String BLOB_GET = "SELECT data FROM blobs WHERE id = 1";

    private Path dbFile;
    private Connection conn;
    private PreparedStatement pointStmt;
    private PreparedStatement blobPut;
    private PreparedStatement blobGet;
    private byte[] blob;
    private Schema.Rng rng;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        Drivers.Target target = Drivers.target(driver);
        dbFile = Drivers.newDatabaseFile();
        conn = Drivers.open(target, dbFile);
        Schema.create(conn);
        createWide(conn);
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB)");
        }
        blob = new byte[BLOB_SIZE];
        Schema.Rng fill = new Schema.Rng(Schema.SEED);
        for (int i = 0; i < blob.length; i++) blob[i] = (byte) fill.nextId();
        pointStmt = conn.prepareStatement(POINT_SQL);
        blobPut = conn.prepareStatement(BLOB_PUT);
        blobGet = conn.prepareStatement(BLOB_GET);
        rng = new Schema.Rng(Schema.SEED);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        try {
            if (conn != null) conn.close(); // closes its statements
        } finally {
            Drivers.deleteDatabase(dbFile);
        }
    }

    private static void read4(ResultSet rs, Blackhole bh) throws SQLException {
        bh.consume(rs.getInt(1));
        bh.consume(rs.getString(2));
        bh.consume(rs.getInt(3));
        bh.consume(rs.getInt(4));
    }

    /** What Spring's JdbcTemplate does per query: prepare, bind, query, read, close. */
    @Benchmark
    public void pointAdHoc(Blackhole bh) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(POINT_SQL)) {
            ps.setInt(1, rng.nextId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new IllegalStateException("no row");
                read4(rs, bh);
            }
        }
    }

    /**
     * pointAdHoc closing only the statement, its result set still open (code that reads one row and
     * closes the statement): the statement goes back to Panlite's cache mid-read, so the handle is
     * reset and its bindings cleared together, one native call with the helper, two without.
     */
    @Benchmark
    public void pointAdHocOpenResult(Blackhole bh) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(POINT_SQL)) {
            ps.setInt(1, rng.nextId());
            ResultSet rs = ps.executeQuery();
            if (!rs.next()) throw new IllegalStateException("no row");
            read4(rs, bh);
        }
    }

    /** One PreparedStatement kept for the trial: bind, query, read. */
    @Benchmark
    public void pointPrepared(Blackhole bh) throws SQLException {
        pointStmt.setInt(1, rng.nextId());
        try (ResultSet rs = pointStmt.executeQuery()) {
            if (!rs.next()) throw new IllegalStateException("no row");
            read4(rs, bh);
        }
    }

    /** All 4 columns of all 1000 rows. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void rows1000(Blackhole bh) throws SQLException {
        int n = 0;
        try (PreparedStatement ps = conn.prepareStatement(ALL_SQL); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                read4(rs, bh);
                n++;
            }
        }
        if (n != MONSTER_ROWS) throw new IllegalStateException("rows1000 read " + n + " rows");
    }

    /** 100 rows of 20 mixed-type columns (ints, longs, doubles, text, blobs, nulls), each read with its getter. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void wideRow(Blackhole bh) throws SQLException {
        int n = 0;
        try (PreparedStatement ps = conn.prepareStatement(WIDE_SQL); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                bh.consume(rs.getInt(1));
                bh.consume(rs.getInt(2));
                bh.consume(rs.getInt(3));
                bh.consume(rs.getInt(4));
                bh.consume(rs.getInt(5)); // NULL every 5th row
                bh.consume(rs.wasNull());
                bh.consume(rs.getLong(6));
                bh.consume(rs.getLong(7));
                bh.consume(rs.getLong(8));
                bh.consume(rs.getLong(9));
                bh.consume(rs.getDouble(10));
                bh.consume(rs.getDouble(11));
                bh.consume(rs.getDouble(12));
                bh.consume(rs.getDouble(13));
                bh.consume(rs.getString(14));
                bh.consume(rs.getString(15));
                bh.consume(rs.getString(16)); // non-ASCII
                bh.consume(rs.getString(17)); // NULL every 3rd row
                bh.consume(rs.getBytes(18));
                bh.consume(rs.getBytes(19));
                bh.consume(rs.getString(20)); // always NULL
                bh.consume(rs.wasNull());
                n++;
            }
        }
        if (n != WIDE_ROWS) throw new IllegalStateException("wideRow read " + n + " rows");
    }

    /** Parameterless {@code Statement.execute} of floor.c's EXEC_SQL: prepare + step + finalize in C. */
    @Benchmark
    public void execNoArgs(Blackhole bh) throws SQLException {
        try (Statement s = conn.createStatement()) {
            bh.consume(s.execute(EXEC_SQL));
        }
    }

    /** A 64 KiB byte[] written with setBytes (auto-commit) and read back with getBytes. */
    @Benchmark
    public void blobRoundTrip(Blackhole bh) throws SQLException {
        blobPut.setBytes(1, blob);
        blobPut.executeUpdate();
        try (ResultSet rs = blobGet.executeQuery()) {
            if (!rs.next()) throw new IllegalStateException("no blob");
            byte[] back = rs.getBytes(1);
            if (back.length != BLOB_SIZE) throw new IllegalStateException("blob of " + back.length + " bytes");
            bh.consume(back);
        }
    }

    // ------------------------------------------------------------------ wide table

    static void createWide(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE wide(id INTEGER PRIMARY KEY,"
                    + " i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER,"
                    + " l1 INTEGER, l2 INTEGER, l3 INTEGER, l4 INTEGER,"
                    + " d1 REAL, d2 REAL, d3 REAL, d4 REAL,"
                    + " t1 TEXT, t2 TEXT, t3 TEXT, t4 TEXT,"
                    + " b1 BLOB, b2 BLOB, n1 TEXT)");
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO wide VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int r = 1; r <= WIDE_ROWS; r++) {
                int p = 1;
                ps.setInt(p++, r);
                ps.setInt(p++, r * 3);
                ps.setInt(p++, -r);
                ps.setInt(p++, r * 1_000_003);
                if (r % 5 == 0) ps.setNull(p++, java.sql.Types.INTEGER);
                else ps.setInt(p++, r % 7);
                ps.setLong(p++, 10_000_000_000L + r);
                ps.setLong(p++, -7_000_000_000_000L * r);
                ps.setLong(p++, Long.MAX_VALUE - r);
                ps.setLong(p++, (long) r << 40);
                ps.setDouble(p++, r * 0.5);
                ps.setDouble(p++, Math.PI * r);
                ps.setDouble(p++, -1e300 / r);
                ps.setDouble(p++, 1.0 / (r + 1));
                ps.setString(p++, "name-" + r);
                ps.setString(p++, "a somewhat longer ASCII text value for row " + r);
                ps.setString(p++, "Ünïcødé ✓ 行 " + r);
                if (r % 3 == 0) ps.setNull(p++, java.sql.Types.VARCHAR);
                else ps.setString(p++, "x".repeat(100));
                ps.setBytes(p++, ("blob-" + r + "-0123456").getBytes(StandardCharsets.US_ASCII));
                byte[] b2 = new byte[256];
                for (int i = 0; i < b2.length; i++) b2[i] = (byte) (i + r);
                ps.setBytes(p++, b2);
                ps.setNull(p++, java.sql.Types.VARCHAR);
                ps.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(auto);
    }
}
