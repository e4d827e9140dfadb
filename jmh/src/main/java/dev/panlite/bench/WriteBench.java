package dev.panlite.bench;

import static dev.panlite.bench.Schema.CLEAR_SCRATCH;
import static dev.panlite.bench.Schema.DELETE_LAST;
import static dev.panlite.bench.Schema.HP_SQL;
import static dev.panlite.bench.Schema.INSERT_SCRATCH;
import static dev.panlite.bench.Schema.SCRATCH_NAMES;

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
 * floor.c's write workloads on one connection. The scratch table is emptied before each iteration, outside the
 * timing, like floor.c's rounds.
 *
 * <p>Transactions are written the way Spring's DataSourceTransactionManager drives JDBC: {@code setAutoCommit(false)},
 * work, {@code commit()}, then {@code setAutoCommit(true)} to hand the connection back as it was.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WriteBench {

    @Param({Drivers.XERIAL, Drivers.PANLITE, Drivers.PANLITE_UNCACHEDTX})
    public String driver;

    private Path dbFile;
    private Connection conn;
    private Schema.Rng rng;
    private long counter;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        Drivers.Target target = Drivers.target(driver);
        dbFile = Drivers.newDatabaseFile();
        conn = Drivers.open(target, dbFile);
        Schema.create(conn);
        rng = new Schema.Rng(Schema.SEED);
    }

    @Setup(Level.Iteration)
    public void clearScratch() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate(CLEAR_SCRATCH);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        try {
            if (conn != null) conn.close();
        } finally {
            Drivers.deleteDatabase(dbFile);
        }
    }

    private static void bindRow(PreparedStatement ps, int i) throws SQLException {
        ps.setString(1, SCRATCH_NAMES[i % 100]);
        ps.setInt(2, i);
        ps.setInt(3, 2 * i);
    }

    /** One transaction of 100 inserts sent as a JDBC batch. */
    @Benchmark
    public void batchInsert100Tx(Blackhole bh) throws SQLException {
        conn.setAutoCommit(false);
        try {
            try (PreparedStatement ps = conn.prepareStatement(INSERT_SCRATCH)) {
                for (int i = 0; i < 100; i++) {
                    bindRow(ps, i);
                    ps.addBatch();
                }
                bh.consume(ps.executeBatch());
            }
            conn.commit();
        } finally {
            conn.setAutoCommit(true);
        }
    }

    /** One insert in its own (implicit) transaction; the statement is prepared per op, like floor.c. */
    @Benchmark
    public void singleInsertAutocommit(Blackhole bh) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(INSERT_SCRATCH)) {
            bindRow(ps, (int) (counter++ % 100000));
            bh.consume(ps.executeUpdate());
        }
    }

    /** begin; insert; select hp of a random monster; delete the insert if hp is even; commit. */
    @Benchmark
    public void interactiveTx(Blackhole bh) throws SQLException {
        int id = rng.nextId();
        int i = (int) (counter++ % 100000);
        conn.setAutoCommit(false);
        try {
            try (PreparedStatement ps = conn.prepareStatement(INSERT_SCRATCH)) {
                bindRow(ps, i);
                ps.executeUpdate();
            }
            int hp;
            try (PreparedStatement ps = conn.prepareStatement(HP_SQL)) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) throw new IllegalStateException("no row");
                    hp = rs.getInt(1);
                }
            }
            if ((hp & 1) == 0) {
                try (PreparedStatement ps = conn.prepareStatement(DELETE_LAST)) {
                    bh.consume(ps.executeUpdate());
                }
            }
            conn.commit();
        } finally {
            conn.setAutoCommit(true);
        }
    }
}
