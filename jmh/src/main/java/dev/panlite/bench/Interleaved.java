package dev.panlite.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Before and after in one JVM, interleaved, for a machine too loaded for separate JMH forks to compare
 * (docs/experiments/050): the incumbent, Panlite, and Panlite with rows read in place and batch rows
 * run from Java (its package-private switch {@code JdbcStatement.batching} turned off by reflection
 * for that variant's blocks only). Each round runs every variant once, in a shuffled order, for
 * about {@code blockMillis}; per block it records wall time, the thread's CPU time and the bytes it allocated, per operation.
 * Optionally runs the C floor (jmh/floor, its CPU time) after each round. Prints per-round
 * numbers and medians.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp jmh/target/benchmarks.jar dev.panlite.bench.Interleaved
 *     rounds blockMillis [floorPath|-] [workload,workload...]</pre>
 *
 * <p>{@code -Dvariants=panlite,panlite-nodiag} picks other variants: any {@link Drivers} param (each its own
 * connection, in this one JVM; those set by a system property, such as panlite-nohelper, cannot be mixed), plus
 * panlite-unbatched as above (docs/experiments/071 compares statement diagnostics on and off this way).
 */
public final class Interleaved {
    private interface Op {
        void run(Blackhole bh) throws Exception;
    }

    private record Variant(String name, Boolean batching, Object state, Map<String, Op> ops) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long blockMillis = args.length > 1 ? Long.parseLong(args[1]) : 300;
        String floor = args.length > 2 && !args[2].equals("-") ? args[2] : null;
        Blackhole bh = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        Field batching = null;
        List<Variant> variants = new ArrayList<>();
        for (String v : System.getProperty("variants", "xerial,panlite,panlite-unbatched").split(",")) {
            ReadBench read = new ReadBench();
            read.driver = v.equals("panlite-unbatched") ? Drivers.PANLITE : v;
            read.setup();
            WriteBench write = new WriteBench();
            write.driver = read.driver;
            write.setup();
            if (batching == null && v.startsWith("panlite")) {
                batching = Class.forName("dev.panlite.jdbc.JdbcStatement").getDeclaredField("batching");
                batching.setAccessible(true);
            }
            Map<String, Op> ops = new LinkedHashMap<>();
            ops.put("pointPrepared", read::pointPrepared);
            ops.put("rows1000", read::rows1000);
            ops.put("wideRow", read::wideRow);
            ops.put("batchInsert100Tx", write::batchInsert100Tx);
            ops.put("pointAdHoc", read::pointAdHoc);
            ops.put("pointAdHocOpenResult", read::pointAdHocOpenResult);
            ops.put("execNoArgs", read::execNoArgs);
            ops.put("blobRoundTrip", read::blobRoundTrip);
            ops.put("singleInsertAutocommit", write::singleInsertAutocommit);
            ops.put("interactiveTx", write::interactiveTx);
            ops.put("clear", b -> write.clearScratch());
            variants.add(new Variant(v, v.startsWith("panlite") ? !v.equals("panlite-unbatched") : null, read, ops));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<String> workloads = args.length > 3 ? List.of(args[3].split(","))
                : List.of("pointPrepared", "rows1000", "wideRow", "batchInsert100Tx");
        Map<String, List<double[]>> results = new LinkedHashMap<>(); // workload/variant -> per round {wall, cpu, bytes}
        // bytes this thread allocated per operation: exact, and unmoved by other processes' load
        com.sun.management.ThreadMXBean allocation = (com.sun.management.ThreadMXBean) threads;
        Random shuffle = new Random(42);
        for (int round = -2; round < rounds; round++) { // two warm-up rounds, not recorded
            for (String w : workloads) {
                List<Variant> order = new ArrayList<>(variants);
                Collections.shuffle(order, shuffle);
                for (Variant v : order) {
                    if (v.batching() != null) {
                        batching.setBoolean(null, v.batching());
                    }
                    v.ops().get("clear").run(bh);
                    Op op = v.ops().get(w);
                    long n = 0;
                    long wall0 = System.nanoTime();
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    long bytes0 = allocation.getCurrentThreadAllocatedBytes();
                    long end = wall0 + blockMillis * 1_000_000L;
                    do {
                        op.run(bh);
                        n++;
                    } while (System.nanoTime() < end);
                    double wall = (System.nanoTime() - wall0) / (double) n;
                    double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / (double) n;
                    double bytes = (allocation.getCurrentThreadAllocatedBytes() - bytes0) / (double) n;
                    if (round >= 0) {
                        results.computeIfAbsent(w + " " + v.name(), k -> new ArrayList<>()).add(new double[] {wall, cpu, bytes});
                    }
                }
            }
            if (round >= 0) {
                System.out.println("round " + round + " done");
                if (floor != null) {
                    // -cpu: the floor's CPU time, to set beside the drivers' thread CPU time (jmh/floor)
                    Process p = new ProcessBuilder(floor, "-nomutex", "-cached", "-cpu", "-w", "1", "-i", "1", "-t", "0.5",
                            "pointPrepared", "rows1000", "wideRow", "batchInsert100Tx").redirectErrorStream(true).start();
                    String out = new String(p.getInputStream().readAllBytes());
                    p.waitFor();
                    for (String line : out.split("\n")) {
                        if (!line.startsWith("#") && !line.isBlank()) {
                            String[] f = line.trim().split("\\s+");
                            results.computeIfAbsent(f[0] + " floor", k -> new ArrayList<>())
                                    .add(new double[] {Double.NaN, Double.parseDouble(f[1]), Double.NaN});
                        }
                    }
                }
            }
        }
        batching.setBoolean(null, true);
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            StringBuilder walls = new StringBuilder();
            StringBuilder cpus = new StringBuilder();
            StringBuilder bytes = new StringBuilder();
            for (double[] r : e.getValue()) {
                walls.append(Double.isNaN(r[0]) ? "-" : Long.toString(Math.round(r[0]))).append(' ');
                cpus.append(Double.isNaN(r[1]) ? "-" : Long.toString(Math.round(r[1]))).append(' ');
                bytes.append(Double.isNaN(r[2]) ? "-" : Long.toString(Math.round(r[2]))).append(' ');
            }
            System.out.println("RESULT " + e.getKey() + " | wall " + walls.toString().trim() + " | cpu " + cpus.toString().trim()
                    + " | bytes " + bytes.toString().trim());
        }
        System.exit(0);
    }

    private Interleaved() {}
}
