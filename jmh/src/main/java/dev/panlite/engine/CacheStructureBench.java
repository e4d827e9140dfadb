package dev.panlite.engine;

import dev.panlite.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * Experiment 002: which data structure for the statement cache? Seed 000 found, in Go, that a flat
 * array scanned from the most-recent end beats a map plus linked list at the sizes people use.
 * This measures the same question in Java: Panlite's {@link StatementCache} (flat array, LRU
 * first) against the idiomatic Java alternative, an access-ordered {@link LinkedHashMap} that
 * evicts its eldest entry. Pure data-structure cost: one take (the statement leaves the cache while
 * in use) and one put (it comes back) per operation, over real {@link Stmt} objects; no SQLite call
 * is timed. Lives in package {@code dev.panlite.engine} to reach the package-private cache.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CacheStructureBench {
    /** Cache capacity. */
    @Param({"4", "16", "32", "128"})
    public int size;

    /** hit: as many distinct SQL texts as slots, used round-robin; evict: twice as many (every take misses). */
    @Param({"hit", "evict"})
    public String pattern;

    private Path dir;
    private Database db;
    private Stmt[] stmts;
    private String[] keys;
    private StatementCache flat;
    private MapCache map;
    private int next;

    /** The idiomatic Java LRU: LinkedHashMap in access order, evicting the eldest entry when full. */
    static final class MapCache {
        private final LinkedHashMap<String, Stmt> entries;

        MapCache(int capacity) {
            entries = new LinkedHashMap<>(capacity * 2, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Stmt> eldest) {
                    return size() > capacity;
                }
            };
        }

        Stmt take(String sql) {
            return entries.remove(sql);
        }

        void put(Stmt stmt) {
            entries.put(stmt.sql, stmt);
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("panlite-cache-bench");
        Config config = Config.parse("jdbc:sqlite:" + dir.resolve("b.db") + "?stmt_cache_size=0", new Properties());
        // Config.engine() is for the driver's package only (it carries the key): reached by reflection here
        java.lang.reflect.Method engine = Config.class.getDeclaredMethod("engine");
        engine.setAccessible(true);
        db = Database.open((EngineConfig) engine.invoke(config));
        int distinct = pattern.equals("hit") ? size : size * 2;
        keys = new String[distinct];
        stmts = new Stmt[distinct];
        db.lock();
        try {
            db.text().execute("CREATE TABLE monster(id INTEGER PRIMARY KEY, name TEXT, hp INTEGER, attack INTEGER)");
            for (int i = 0; i < distinct; i++) {
                // realistic keys: same length and prefix, differing near the end (as generated SQL does)
                keys[i] = "SELECT id, name, hp, attack FROM monster WHERE id = ? /* query " + (1000 + i) + " */";
                stmts[i] = db.prepare(keys[i]);
            }
        } finally {
            db.unlock();
        }
        flat = new StatementCache(size);
        map = new MapCache(size);
        for (int i = 0; i < distinct; i++) {
            flat.put(stmts[i]);
            map.put(stmts[i]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        db.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private int nextKey() {
        int i = next;
        next = i + 1 == keys.length ? 0 : i + 1;
        return i;
    }

    @Benchmark
    public void flatArray(Blackhole bh) {
        int i = nextKey();
        Stmt s = flat.take(keys[i]);
        bh.consume(s);
        flat.put(s != null ? s : stmts[i]); // a miss puts the "freshly prepared" statement back, evicting
    }

    @Benchmark
    public void linkedHashMap(Blackhole bh) {
        int i = nextKey();
        Stmt s = map.take(keys[i]);
        bh.consume(s);
        map.put(s != null ? s : stmts[i]);
    }
}
