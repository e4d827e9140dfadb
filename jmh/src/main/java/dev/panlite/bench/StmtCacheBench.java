package dev.panlite.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * The statement-cache cases of seed 000 (go-sqlite3's BenchmarkStmtCache): each op cycles to the next of
 * {@code keys} distinct SQL texts and does prepareStatement + bind + query + read + close. The case name is
 * {@code size<N>_keys<K>_(hit|evict)}: Panlite's URL gets {@code stmt_cache_size=N} ({@code off} = 0). The
 * incumbent has no statement cache and does not know the setting, so it runs the same ops without it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StmtCacheBench {

    @Param({Drivers.XERIAL, Drivers.PANLITE})
    public String driver;

    @Param({"off", "size4_keys1_hit", "size4_keys4_hit", "size16_keys8_hit", "size4_keys8_evict", "size16_keys32_evict"})
    public String cacheCase;

    private Path dbFile;
    private Connection conn;
    private String[] sqls;
    private int next;
    private Schema.Rng rng;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        int size;
        int keys;
        if (cacheCase.equals("off")) {
            size = 0;
            keys = 1;
        } else {
            String[] parts = cacheCase.split("_"); // size4, keys8, evict
            size = Integer.parseInt(parts[0].substring("size".length()));
            keys = Integer.parseInt(parts[1].substring("keys".length()));
        }
        Drivers.Target target = Drivers.target(driver, "stmt_cache_size=" + size);
        dbFile = Drivers.newDatabaseFile();
        conn = Drivers.open(target, dbFile);
        Schema.create(conn);
        sqls = new String[keys];
        for (int k = 0; k < keys; k++) sqls[k] = Schema.POINT_SQL + " /* " + k + " */";
        rng = new Schema.Rng(Schema.SEED);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        try {
            if (conn != null) conn.close();
        } finally {
            Drivers.deleteDatabase(dbFile);
        }
    }

    @Benchmark
    public void stmtCache(Blackhole bh) throws SQLException {
        String sql = sqls[next];
        if (++next == sqls.length) next = 0;
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setInt(1, rng.nextId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new IllegalStateException("no row");
                bh.consume(rs.getInt(1));
                bh.consume(rs.getString(2));
                bh.consume(rs.getInt(3));
                bh.consume(rs.getInt(4));
            }
        }
    }
}
