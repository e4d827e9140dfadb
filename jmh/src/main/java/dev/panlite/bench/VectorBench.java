package dev.panlite.bench;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
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
 * Vector search with sqlite-vec (issue 30): Panlite with the sqlite-vec compiled into its bundled engine against the
 * incumbent loading the same sqlite-vec version (0.1.9, {@code tools/install-sqlite-vec.sh}) as an extension. floor.c
 * runs the same workloads in C on the library Panlite ran on (its {@code knn}, {@code knnMmap} and {@code insertBatch};
 * docs/experiments/091).
 *
 * <ul>
 * <li>{@code knn}: one query {@value #KNN_SQL} over {@value #ROWS} vectors of {@value #DIM} float32 (cosine) with a
 *     query vector from a pre-generated pool, all 10 rows read (rowid and distance).
 * <li>{@code knnMmap}: the same with {@code mmap_size} set in both drivers.
 * <li>{@code insertBatch}: 100 vectors inserted into an empty-at-each-iteration vec0 table, one JDBC batch in one
 *     transaction (WriteBench.batchInsert100Tx's shape). The table is dropped and created again before every
 *     iteration, outside the timing, so it never grows past one iteration's rows.
 * </ul>
 *
 * <p>Vectors start as {@code float[]} in both: Panlite binds them with {@code setObject(i, float[])} (a float32
 * little-endian blob, as sqlite-vec expects); the incumbent has no such binding, so its op converts them to a
 * little-endian {@code byte[]} and calls {@code setBytes}, as its users must.
 *
 * <p>The 100k-vector database (157 MB) takes seconds to build, so it is built once and cached, keyed by its
 * parameters ({@link #vectorDatabase}), in {@code -Dpanlite.bench.vectorDir} (./bench passes
 * {@code $PANLITE_BUILD_CACHE/bench-vectors}, and hands the same directory to floor.c). The data come from floor.c's
 * xorshift64 ({@link Gen}), so C and Java build the same file; knn and knnMmap only read it.
 */
public class VectorBench {

    static final int ROWS = 100_000;
    static final int DIM = 384;
    static final int K = 10;
    static final int BATCH = 100;
    /** Query vectors cycled by knn and vectors cycled by insertBatch (floor.c: the same pools). */
    static final int QUERY_POOL = 64;
    static final int INSERT_POOL = 1024;
    /** knnMmap's mmap_size: more than the 157 MB file. */
    static final long MMAP_SIZE = 268_435_456L;

    static final String KNN_SQL = "SELECT rowid, distance FROM items WHERE embedding MATCH ? AND k = 10";
    static final String CREATE_ITEMS = "CREATE VIRTUAL TABLE items USING vec0(embedding float[384] distance_metric=cosine)";
    static final String INSERT_ITEM = "INSERT INTO items(rowid, embedding) VALUES (?, ?)";
    static final String CREATE_SCRATCH = "CREATE VIRTUAL TABLE scratch_vec USING vec0(embedding float[384] distance_metric=cosine)";
    static final String DROP_SCRATCH = "DROP TABLE IF EXISTS scratch_vec";
    static final String INSERT_SCRATCH = "INSERT INTO scratch_vec(embedding) VALUES (?)";

    /** xorshift64 seeds of the three streams: the table's vectors, the query pool, the insert pool (floor.c's). */
    static final long SEED_ITEMS = Schema.SEED;
    static final long SEED_QUERIES = 0xD1B54A32D192ED03L;
    static final long SEED_INSERTS = 0x8CB92BA72F3D8DD7L;

    /** The loadable sqlite-vec for the incumbent (and Panlite on a system SQLite): ./bench sets it. */
    static final String VEC0_PROPERTY = "panlite.bench.vec0";
    static final String VECTOR_DIR_PROPERTY = "panlite.bench.vectorDir";

    // ------------------------------------------------------------------ benchmarks

    /** A KNN query over the cached 100k-vector table, all k rows read; SQLite's default page cache (2 MB), no mmap. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void knn(KnnState s, Blackhole bh) throws SQLException {
        query(s, bh);
    }

    /**
     * knn with {@code mmap_size} of {@value #MMAP_SIZE} bytes in both drivers: the vectors are read from the mapped
     * file, not copied out of the OS page cache by a read() per page (half of knn's time, docs/experiments/091).
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void knnMmap(KnnMmapState s, Blackhole bh) throws SQLException {
        query(s, bh);
    }

    private static void query(KnnState s, Blackhole bh) throws SQLException {
        float[] q = s.queries[s.next++ & (QUERY_POOL - 1)];
        int n = 0;
        try (PreparedStatement ps = s.conn.prepareStatement(KNN_SQL)) {
            s.bind.bind(ps, 1, q);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    bh.consume(rs.getLong(1));
                    bh.consume(rs.getDouble(2));
                    n++;
                }
            }
        }
        if (n != K) throw new IllegalStateException("knn read " + n + " rows, expected " + K);
    }

    /** 100 vectors in one transaction, as one JDBC batch. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void insertBatch(InsertState s, Blackhole bh) throws SQLException {
        Connection c = s.conn;
        c.setAutoCommit(false);
        try {
            try (PreparedStatement ps = c.prepareStatement(INSERT_SCRATCH)) {
                for (int i = 0; i < BATCH; i++) {
                    s.bind.bind(ps, 1, s.vectors[s.next++ & (INSERT_POOL - 1)]);
                    ps.addBatch();
                }
                bh.consume(ps.executeBatch());
            }
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
    }

    // ------------------------------------------------------------------ states

    @State(Scope.Benchmark)
    public static class KnnState {
        @Param({Drivers.XERIAL, Drivers.PANLITE})
        public String driver;

        Connection conn;
        Binder bind;
        float[][] queries;
        int next;

        /** The mmap_size both drivers open the database with: 0 (SQLite's default, none). */
        long mmapSize() {
            return 0;
        }

        @Setup(Level.Trial)
        public void setup() throws Exception {
            Drivers.Target target = target(driver, mmapSize());
            Path db = vectorDatabase(target);
            conn = openWithVec(target, db, mmapSize());
            bind = Binder.of(target);
            queries = Gen.vectors(SEED_QUERIES, QUERY_POOL);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            if (conn != null) conn.close();
        }
    }

    /** KnnState with the database memory-mapped (mmap_size, a URL setting both drivers take). */
    @State(Scope.Benchmark)
    public static class KnnMmapState extends KnnState {
        @Override
        long mmapSize() {
            return MMAP_SIZE;
        }
    }

    @State(Scope.Benchmark)
    public static class InsertState {
        @Param({Drivers.XERIAL, Drivers.PANLITE})
        public String driver;

        Path dbFile;
        Connection conn;
        Binder bind;
        float[][] vectors;
        int next;

        @Setup(Level.Trial)
        public void setup() throws Exception {
            Drivers.Target target = target(driver, 0);
            dbFile = Drivers.newDatabaseFile();
            conn = openWithVec(target, dbFile, 0);
            bind = Binder.of(target);
            vectors = Gen.vectors(SEED_INSERTS, INSERT_POOL);
        }

        /** A new, empty vec0 table before every iteration (floor.c's round setup does the same). */
        @Setup(Level.Iteration)
        public void freshTable() throws SQLException {
            try (Statement s = conn.createStatement()) {
                s.execute(DROP_SCRATCH);
                s.execute(CREATE_SCRATCH);
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
    }

    // ------------------------------------------------------------------ binding

    /** How a driver's user binds a float[] vector. */
    interface Binder {
        void bind(PreparedStatement ps, int index, float[] v) throws SQLException;

        static Binder of(Drivers.Target target) {
            // Panlite: its own binding (issue 30, item 2); the incumbent: convert, then setBytes.
            return target.isPanlite() ? (ps, i, v) -> ps.setObject(i, v) : (ps, i, v) -> ps.setBytes(i, littleEndian(v));
        }
    }

    /** The float32 little-endian blob sqlite-vec reads. */
    static byte[] littleEndian(float[] v) {
        byte[] b = new byte[v.length * Float.BYTES];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(v);
        return b;
    }

    // ------------------------------------------------------------------ connections with sqlite-vec

    /**
     * The driver param's target; the incumbent with {@code enable_load_extension=true} (its URL setting for
     * {@code SQLiteConfig.enableLoadExtension}), which {@link #openWithVec} needs to load sqlite-vec; both with
     * {@code mmap_size} when it is not 0.
     */
    static Drivers.Target target(String driver, long mmapSize) {
        String mmap = mmapSize == 0 ? null : "mmap_size=" + mmapSize;
        return Drivers.target(driver, mmap, "enable_load_extension=true" + (mmap == null ? "" : "&" + mmap));
    }

    /**
     * Opens with {@link Drivers#open} (the common settings, checked) and makes sure sqlite-vec answers: built into
     * Panlite's bundled engine; loaded from the loadable library otherwise (the incumbent with SQL's
     * {@code load_extension}, Panlite on another SQLite with {@code PanliteConnection.loadExtension}).
     */
    static Connection openWithVec(Drivers.Target target, Path dbFile, long mmapSize) throws SQLException {
        Connection c = Drivers.open(target, dbFile);
        try {
            if (!hasVec(c)) {
                Path lib = loadable(target);
                if (target.isPanlite()) {
                    panliteLoadExtension(c, lib);
                } else {
                    try (PreparedStatement ps = c.prepareStatement("SELECT load_extension(?, 'sqlite3_vec_init')")) {
                        ps.setString(1, lib.toString());
                        ps.executeQuery().close();
                    }
                }
                if (!hasVec(c)) throw new IllegalStateException(target.name() + ": loaded " + lib + " but vec_version() is still unknown");
            }
            checkSameSettings(c, target, mmapSize);
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    static boolean hasVec(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM pragma_function_list WHERE name = 'vec_version'")) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }

    /** sqlite-vec's version through a driver (Env records it), or why there is none. */
    static String vecVersion(Drivers.Target target) {
        try {
            Path db = Drivers.newDatabaseFile();
            try (Connection c = openWithVec(target, db, 0);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT vec_version()")) {
                return (rs.next() ? rs.getString(1) : "?") + (hasBuiltIn(target) ? " (built in)" : " (loaded: " + loadable(target) + ")");
            } finally {
                Drivers.deleteDatabase(db);
            }
        } catch (Exception e) {
            return "unavailable (" + e.getMessage() + ")";
        }
    }

    /** Whether the driver's engine has sqlite-vec without loading anything. */
    private static boolean hasBuiltIn(Drivers.Target target) throws Exception {
        Path db = Drivers.newDatabaseFile();
        try (Connection c = Drivers.open(target, db)) {
            return hasVec(c);
        } finally {
            Drivers.deleteDatabase(db);
        }
    }

    private static Path loadable(Drivers.Target target) {
        String lib = System.getProperty(VEC0_PROPERTY);
        if (lib == null || lib.isBlank()) {
            throw new IllegalStateException(target.name() + " has no sqlite-vec built in and no loadable one: -D" + VEC0_PROPERTY
                    + " is not set (./bench sets it from tools/install-sqlite-vec.sh, or says why that failed; by hand: "
                    + "-jvmArgsAppend -D" + VEC0_PROPERTY + "=$(sh tools/install-sqlite-vec.sh))");
        }
        return Path.of(lib);
    }

    /** PanliteConnection.loadExtension(Path, String), reflectively like the rest of the suite's Panlite calls. */
    private static void panliteLoadExtension(Connection c, Path lib) throws SQLException {
        try {
            Class<?> type = Class.forName("dev.panlite.PanliteConnection");
            type.getMethod("loadExtension", Path.class, String.class).invoke(c.unwrap(type), lib, "sqlite3_vec_init");
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof SQLException se) throw se;
            throw new IllegalStateException("PanliteConnection.loadExtension failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Panlite has no PanliteConnection.loadExtension(Path, String): " + e, e);
        }
    }

    /**
     * The settings that decide how many pages a KNN scan reads through SQLite's pager (the vectors are 1.5 MB blobs
     * in overflow pages): the same in both drivers, so neither has a larger page cache or another memory map.
     */
    private static void checkSameSettings(Connection c, Drivers.Target target, long mmapSize) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String[] p : new String[][] {{"cache_size", "-2000"}, {"mmap_size", Long.toString(mmapSize)}}) {
                try (ResultSet rs = s.executeQuery("PRAGMA " + p[0])) {
                    String got = rs.next() ? rs.getString(1) : null;
                    if (!p[1].equals(got)) {
                        throw new IllegalStateException(target.name() + ": PRAGMA " + p[0] + " is " + got + ", expected " + p[1]);
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ the cached 100k-vector database

    /** The cache directory: -Dpanlite.bench.vectorDir, else $PANLITE_BUILD_CACHE/bench-vectors (~/.cache/panlite-build). */
    static Path vectorDir() {
        String dir = System.getProperty(VECTOR_DIR_PROPERTY);
        if (dir != null && !dir.isBlank()) return Path.of(dir);
        String cache = System.getenv("PANLITE_BUILD_CACHE");
        return cache != null && !cache.isBlank() ? Path.of(cache, "bench-vectors")
                : Path.of(System.getProperty("user.home"), ".cache", "panlite-build", "bench-vectors");
    }

    /** floor.c's vector_db_name: the parameters and the generator's version ("g1") name the file. */
    static String vectorFileName() {
        return String.format(Locale.ROOT, "items-n%d-d%d-cosine-g1.db", ROWS, DIM);
    }

    /**
     * The cached database of {@value #ROWS} vectors in {@code items}, built with this driver if it is not there yet
     * (into a temp file renamed when complete, so a build cut short never counts as the database).
     */
    static Path vectorDatabase(Drivers.Target target) throws Exception {
        Path dir = vectorDir();
        Path file = dir.resolve(vectorFileName());
        if (Files.exists(file)) return file;
        Files.createDirectories(dir);
        Path tmp = Files.createTempDirectory(dir, "building-").resolve("items.db");
        long t0 = System.nanoTime();
        try {
            try (Connection c = openWithVec(target, tmp, 0)) {
                build(c);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Drivers.deleteDatabase(tmp);
        }
        System.out.printf(Locale.ROOT, "VectorBench: built %s with %s in %.1f s%n", file, target.name(), (System.nanoTime() - t0) / 1e9);
        return file;
    }

    /** floor.c's build_vectors: rowids 1..ROWS, the items stream in order, in one transaction. */
    private static void build(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(CREATE_ITEMS);
        }
        c.setAutoCommit(false);
        Gen gen = new Gen(SEED_ITEMS);
        float[] v = new float[DIM];
        try (PreparedStatement ps = c.prepareStatement(INSERT_ITEM)) {
            for (int id = 1; id <= ROWS; id++) {
                gen.fill(v);
                ps.setInt(1, id);
                ps.setBytes(2, littleEndian(v)); // either driver: the file must not depend on a driver's binding
                ps.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
                if (!rs.next() || rs.getInt(1) != ROWS) throw new IllegalStateException("items not populated");
            }
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    // ------------------------------------------------------------------ interleaved, CPU time

    /**
     * Both drivers in one JVM, interleaved, for a machine too loaded for JMH forks minutes apart to compare
     * (docs/experiments/091, as Interleaved does for ReadBench and WriteBench): each round runs knn, knnMmap and
     * insertBatch of xerial and Panlite in a shuffled order, blocks of about {@code blockMillis} each, and records per op
     * the wall time, this thread's CPU time and the bytes it allocated; then, with a floor binary, floor.c's same three
     * workloads in CPU time ({@code -cpu}). Prints every round and the medians.
     *
     * <pre>java --enable-native-access=ALL-UNNAMED -Dpanlite.bench.vec0=$(sh tools/install-sqlite-vec.sh) \
     *     -cp jmh/target/benchmarks.jar dev.panlite.bench.VectorBench ROUNDS BLOCK_MILLIS [FLOOR [FLOOR_ARGS...]]</pre>
     *
     * FLOOR_ARGS are passed to the floor as they are (e.g. {@code -vecdir DIR}, {@code -vec LOADABLE});
     * {@code -Ddrivers=xerial} runs one driver only.
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long blockMillis = args.length > 1 ? Long.parseLong(args[1]) : 2000;
        List<String> floor = args.length > 2 ? List.of(Arrays.copyOfRange(args, 2, args.length)) : List.of();
        Blackhole bh = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        VectorBench bench = new VectorBench();
        List<String> workloads = List.of("knn", "knnMmap", "insertBatch");
        Map<String, Op> ops = new LinkedHashMap<>(); // "workload driver"
        List<Runnable> closers = new ArrayList<>();
        for (String d : System.getProperty("drivers", Drivers.XERIAL + "," + Drivers.PANLITE).split(",")) {
            KnnState k = new KnnState();
            KnnMmapState m = new KnnMmapState();
            InsertState i = new InsertState();
            k.driver = m.driver = i.driver = d;
            k.setup();
            m.setup();
            i.setup();
            ops.put("knn " + d, new Op(null, b -> bench.knn(k, b)));
            ops.put("knnMmap " + d, new Op(null, b -> bench.knnMmap(m, b)));
            ops.put("insertBatch " + d, new Op(i::freshTable, b -> bench.insertBatch(i, b)));
            closers.add(() -> {
                try {
                    k.tearDown();
                    m.tearDown();
                    i.tearDown();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<String, List<double[]>> results = new LinkedHashMap<>(); // "workload driver" -> per round {wall, cpu, bytes} per op
        Random shuffle = new Random(42);
        for (int round = -1; round < rounds; round++) { // one warm-up round, not recorded
            List<String> order = new ArrayList<>(ops.keySet());
            Collections.shuffle(order, shuffle);
            for (String key : order) {
                Op op = ops.get(key);
                if (op.before() != null) op.before().run();
                long n = 0, wall0 = System.nanoTime(), cpu0 = threads.getCurrentThreadCpuTime();
                long bytes0 = threads.getCurrentThreadAllocatedBytes();
                long end = wall0 + blockMillis * 1_000_000L;
                do {
                    op.run().run(bh);
                    n++;
                } while (System.nanoTime() < end);
                double wall = (System.nanoTime() - wall0) / (double) n;
                double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / (double) n;
                double bytes = (threads.getCurrentThreadAllocatedBytes() - bytes0) / (double) n;
                if (round >= 0) results.computeIfAbsent(key, x -> new ArrayList<>()).add(new double[] {wall, cpu, bytes});
            }
            if (round >= 0 && !floor.isEmpty()) {
                List<String> cmd = new ArrayList<>(floor);
                cmd.addAll(1, List.of("-nomutex", "-cached", "-cpu", "-w", "1", "-i", "1", "-t", Double.toString(blockMillis / 1000.0)));
                cmd.addAll(workloads);
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() != 0) throw new IllegalStateException("the floor failed: " + cmd + "\n" + out);
                for (String line : out.split("\n")) {
                    String[] f = line.trim().split("\\s+");
                    if (!line.startsWith("#") && f.length > 2 && f[2].equals("±")) {
                        results.computeIfAbsent(f[0] + " floor", k -> new ArrayList<>())
                                .add(new double[] {Double.NaN, Double.parseDouble(f[1]), Double.NaN});
                    }
                }
            }
            if (round >= 0) System.out.println("round " + round + " done");
        }
        System.out.println("per op, every round (wall ns | thread CPU ns, the floor's: process CPU | bytes this thread allocated),"
                + " then medians");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            StringBuilder walls = new StringBuilder(), cpus = new StringBuilder();
            double[] w = new double[e.getValue().size()], c = new double[w.length], b = new double[w.length];
            for (int k = 0; k < w.length; k++) {
                double[] r = e.getValue().get(k);
                w[k] = r[0];
                c[k] = r[1];
                b[k] = r[2];
                walls.append(Double.isNaN(r[0]) ? "-" : Long.toString(Math.round(r[0]))).append(' ');
                cpus.append(Math.round(r[1])).append(' ');
            }
            System.out.printf(Locale.ROOT, "RESULT %-20s | wall %s| cpu %s%n", e.getKey(), walls, cpus);
            System.out.printf(Locale.ROOT, "MEDIAN %-20s | wall %,.0f | cpu %,.0f | B/op %,.0f%n",
                    e.getKey(), median(w), median(c), median(b));
        }
        closers.forEach(Runnable::run);
    }

    private interface Body {
        void run(Blackhole bh) throws Exception;
    }

    private interface Before {
        void run() throws Exception;
    }

    /** One workload of one driver: what runs before its block (outside the timing), and the op. */
    private record Op(Before before, Body run) {}

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * floor.c's vector generator: xorshift64 (Schema.Rng's step), each component the top 24 bits mapped exactly to
     * [-1, 1) in float32, so C and Java make the same vectors bit for bit.
     */
    static final class Gen {
        private long state;

        Gen(long seed) {
            state = seed;
        }

        float next() {
            long x = state;
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            state = x;
            return ((int) (x >>> 40) - 8_388_608) / 8_388_608.0f;
        }

        void fill(float[] v) {
            for (int i = 0; i < v.length; i++) v[i] = next();
        }

        static float[][] vectors(long seed, int n) {
            Gen g = new Gen(seed);
            float[][] out = new float[n][DIM];
            for (float[] v : out) g.fill(v);
            return out;
        }
    }
}
