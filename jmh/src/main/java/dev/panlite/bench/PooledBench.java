package dev.panlite.bench;

import static dev.panlite.bench.Schema.POINT_SQL;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The point query through a HikariCP pool, as a web application does it: each op borrows a connection,
 * prepares, binds, queries, reads and closes everything (the connection goes back to the pool).
 *
 * <p>The thread counts are fixed per method with {@code @Threads} (1, 4, 16); the pool size is read from
 * {@link BenchmarkParams#getThreads()}, so it always equals the thread count. Do not pass {@code -t}: it would
 * override all three methods with the same count.
 *
 * <p>The pool gets the driver through {@link HikariConfig#setDataSource}: a tiny {@link DataSource} over
 * {@code driver.connect(url, props)}, so the Driver class is instantiated directly like everywhere else.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PooledBench {

    @Param({Drivers.XERIAL, Drivers.PANLITE, Drivers.PANLITE_NOCACHE})
    public String driver;

    private Path dbFile;
    private HikariDataSource pool;

    @Setup(Level.Trial)
    public void setup(BenchmarkParams params) throws Exception {
        Drivers.Target target = Drivers.target(driver);
        dbFile = Drivers.newDatabaseFile();
        try (Connection c = Drivers.open(target, dbFile)) {
            Schema.create(c);
        }
        int threads = params.getThreads();
        HikariConfig config = new HikariConfig();
        config.setPoolName("bench-" + driver + "-" + threads);
        config.setDataSource(new DriverDataSource(target, dbFile));
        config.setMaximumPoolSize(threads);
        config.setMinimumIdle(threads);
        config.setConnectionTimeout(30_000);
        config.setInitializationFailTimeout(30_000);
        pool = new HikariDataSource(config);
        // Fill the pool before measuring.
        Connection[] held = new Connection[threads];
        for (int i = 0; i < threads; i++) held[i] = pool.getConnection();
        for (Connection c : held) c.close();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (pool != null) pool.close();
        } finally {
            Drivers.deleteDatabase(dbFile);
        }
    }

    /** Per-thread random ids (the pool state is shared). */
    @State(Scope.Thread)
    public static class ThreadRng {
        Schema.Rng rng;

        @Setup(Level.Trial)
        public void setup(ThreadParams tp) {
            rng = new Schema.Rng(Schema.SEED + 0x632BE59BD9B4E019L * tp.getThreadIndex());
        }
    }

    private void op(ThreadRng r, Blackhole bh) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(POINT_SQL)) {
            ps.setInt(1, r.rng.nextId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new IllegalStateException("no row");
                bh.consume(rs.getInt(1));
                bh.consume(rs.getString(2));
                bh.consume(rs.getInt(3));
                bh.consume(rs.getInt(4));
            }
        }
    }

    @Benchmark
    @Threads(1)
    public void pointPooled_t01(ThreadRng r, Blackhole bh) throws SQLException {
        op(r, bh);
    }

    @Benchmark
    @Threads(4)
    public void pointPooled_t04(ThreadRng r, Blackhole bh) throws SQLException {
        op(r, bh);
    }

    @Benchmark
    @Threads(16)
    public void pointPooled_t16(ThreadRng r, Blackhole bh) throws SQLException {
        op(r, bh);
    }

    /** The smallest DataSource over {@code driver.connect}: what Hikari needs, nothing more. */
    static final class DriverDataSource implements DataSource {
        private final Drivers.Target target;
        private final Path dbFile;
        private PrintWriter logWriter;
        private int loginTimeout;

        DriverDataSource(Drivers.Target target, Path dbFile) {
            this.target = target;
            this.dbFile = dbFile;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return target.connect(dbFile);
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return logWriter;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            logWriter = out;
        }

        @Override
        public void setLoginTimeout(int seconds) {
            loginTimeout = seconds;
        }

        @Override
        public int getLoginTimeout() {
            return loginTimeout;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            if (iface.isInstance(this)) return iface.cast(this);
            throw new SQLException("not a wrapper for " + iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(this);
        }
    }
}
