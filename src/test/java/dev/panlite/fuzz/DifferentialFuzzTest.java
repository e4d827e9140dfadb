package dev.panlite.fuzz;

import static org.junit.jupiter.api.Assertions.fail;

import dev.panlite.ChildJvm;
import dev.panlite.fuzz.DiffTranscript.Difference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential fuzz (issue 27): random schemas, data and programs, each run through several
 * read paths and held against the reference, the same program read in place ({@link DiffPath}).
 * Any difference in rows, values, classes, update counts or exceptions is a defect; so is a
 * Throwable other than SQLException, a getColumnClassName that getObject does not return, and a
 * pooled handle whose next borrower finds what a new connection would not ({@link DiffPool}).
 *
 * <p>A seed is a fixed amount of work (a schema, {@value #PROGRAMS} programs, a pool lifecycle), so
 * a seed reproduces its findings exactly. {@code mvn verify} runs seeds {@value #DEFAULT_SEEDS} once
 * in each Surefire execution. Soak: {@code -Dpanlite.difffuzz.seeds=1..100 -Dpanlite.difffuzz.seconds=20}
 * repeats each seed in further rounds (round r: a schema and programs of their own) for that long; a
 * finding names its round ({@code -Dpanlite.difffuzz.round=R} runs that one alone). Known defects
 * not fixed yet are reported without failing: {@link DiffKnown#KNOWN}. Other properties:
 * {@code panlite.difffuzz.wide=child|always} (results of more than 4,096 columns, in a child JVM,
 * in a third of the rounds or in all; by default none), {@code panlite.difffuzz.shrinkKnown=true} (shrink known findings
 * too), {@code panlite.difffuzz.dir} (default: the build folder's {@code difffuzz}).
 */
class DifferentialFuzzTest {
    private static final String DEFAULT_SEEDS = "1,29";
    private static final int PROGRAMS = 8;
    private static final int PATHS = 3;

    /** A defect found: {@code key} names it in {@link DiffKnown#DEFECTS} (null: not known). */
    record Finding(String key, long seed, int round, String where, String message) {}

    @TestFactory
    Stream<DynamicTest> seeds() throws IOException {
        String library = System.getProperty("panlite.sqlite.library", "default");
        String run = Path.of(library).getFileName().toString().replaceAll("[^\\w.-]", "_")
                + (Boolean.parseBoolean(System.getProperty("panlite.helper", "true")) ? "-helper-on" : "-helper-off");
        Path out = Path.of(System.getProperty("panlite.difffuzz.dir", buildDir().resolve("difffuzz").toString())).resolve(run)
                .toAbsolutePath();
        Files.createDirectories(out);
        return MisuseFuzzTest.parseSeeds(System.getProperty("panlite.difffuzz.seeds", DEFAULT_SEEDS)).stream()
                .map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> runSeed(seed, out)));
    }

    private static void runSeed(long seed, Path out) throws Exception {
        double seconds = Double.parseDouble(System.getProperty("panlite.difffuzz.seconds", "0"));
        String only = System.getProperty("panlite.difffuzz.round");
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long started = System.nanoTime();
        List<Finding> findings = new ArrayList<>();
        int rounds = 0;
        int round = only == null ? 0 : Integer.parseInt(only);
        Stats stats = new Stats();
        do {
            findings.addAll(new Round(seed, round, out, stats).run());
            rounds++;
            round++;
        } while (only == null && System.nanoTime() < deadline);

        Set<String> known = DiffKnown.active();
        Map<String, Integer> knownCounts = new TreeMap<>();
        List<Finding> failing = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (Finding f : findings) {
            boolean excluded = f.key() != null && known.contains(f.key());
            if (excluded) {
                knownCounts.merge(f.key(), 1, Integer::sum);
            } else {
                failing.add(f);
            }
            report.append(excluded ? "KNOWN " + f.key() : f.key() == null ? "FINDING" : "FINDING (defect " + f.key() + ", not excluded)")
                    .append(" seed ").append(f.seed()).append(" round ").append(f.round()).append(", ").append(f.where()).append('\n')
                    .append(f.message()).append("\n\n");
        }
        if (!findings.isEmpty()) {
            // getBytes, not writeString: a message may hold a lone surrogate (from invalid UTF-8), written as '?'
            Files.write(out.resolve("seed" + seed + "-findings.txt"), report.toString().getBytes(StandardCharsets.UTF_8));
        }
        System.out.printf("difffuzz seed=%d rounds=%d programs=%d runs=%d known=%s findings=%d (%.1f s)%s%n", seed, rounds,
                stats.programs, stats.runs, knownCounts, failing.size(), (System.nanoTime() - started) / 1e9,
                findings.isEmpty() ? "" : " report: " + out.resolve("seed" + seed + "-findings.txt"));
        if (!failing.isEmpty()) {
            StringBuilder m = new StringBuilder("differential fuzz, seed " + seed + ": " + failing.size() + " finding(s)\n\n");
            for (Finding f : failing.subList(0, Math.min(3, failing.size()))) {
                m.append(f.where()).append(f.key() == null ? "" : " [" + DiffKnown.describe(f.key()) + "]").append('\n')
                        .append(f.message()).append('\n')
                        .append("reproduce: ").append(command(f.seed(), f.round())).append("\n\n");
            }
            m.append("all of them: ").append(out.resolve("seed" + seed + "-findings.txt"));
            fail(m.toString());
        }
    }

    /** The command that runs round {@code round} of {@code seed} alone, on this execution's engine. */
    static String command(long seed, int round) {
        StringBuilder b = new StringBuilder("mvn -o test -Dtest=DifferentialFuzzTest -Dpanlite.difffuzz.seeds=" + seed);
        if (round != 0) {
            b.append(" -Dpanlite.difffuzz.round=").append(round);
        }
        for (String p : new String[] {"panlite.sqlite.library", "panlite.helper"}) {
            if (System.getProperty(p) != null) {
                b.append(" -D").append(p).append('=').append(System.getProperty(p));
            }
        }
        return b.toString();
    }

    private static final class Stats {
        int programs;
        int runs;
    }

    // ================================================================== one round of one seed

    /** A schema, its programs, each through the reference and {@value #PATHS} paths; a pool lifecycle; a wide child. */
    private static final class Round {
        private final long seed;
        private final int round;
        private final Path dir;
        private final Stats stats;
        private final List<Finding> findings = new ArrayList<>();
        private DiffSchema schema;
        private Path base;

        Round(long seed, int round, Path out, Stats stats) {
            this.seed = seed;
            this.round = round;
            this.dir = out.resolve("seed" + seed + "-r" + round);
            this.stats = stats;
        }

        List<Finding> run() throws Exception {
            deleteTree(dir);
            Files.createDirectories(dir);
            Random r = new Random(seed * 0x9E3779B97F4A7C15L + round);
            int engineLimit = engineColumnLimit();
            int inProcess = Math.min(engineLimit, WIDE_IN_PROCESS);
            int wide = 0;
            if (r.nextInt(4) == 0) {
                int[] widths = {100, 700, 1500, 2000, 2048, 4096};
                wide = Math.min(inProcess, widths[r.nextInt(widths.length)]);
            }
            schema = DiffSchema.random(r, wide);
            base = dir.resolve("base.db");
            long built = System.nanoTime();
            schema.build(url(base, schema.createQuery), new Random(r.nextLong()));
            if (VERBOSE) {
                System.out.printf("  seed %d round %d: built in %.0f ms (%d bytes)%n", seed, round, (System.nanoTime() - built) / 1e6, Files.size(base));
            }
            DiffScenario.Generator gen = new DiffScenario.Generator(schema, new Random(r.nextLong()), inProcess, engineLimit);
            for (int k = 0; k < PROGRAMS; k++) {
                DiffScenario sc = gen.next();
                List<DiffPath> paths = DiffPath.choose(new Random(r.nextLong()), PATHS);
                long t0 = System.nanoTime();
                check(k, sc, paths);
                stats.programs++;
                if (VERBOSE) {
                    System.out.printf("  seed %d round %d program %d (%s, %d operations): %.0f ms%n", seed, round, k, sc.family(),
                            sc.ops().size(), (System.nanoTime() - t0) / 1e6);
                }
            }
            long t1 = System.nanoTime();
            pool(new Random(r.nextLong()));
            if (VERBOSE) {
                System.out.printf("  seed %d round %d: pool lifecycle %.0f ms%n", seed, round, (System.nanoTime() - t1) / 1e6);
            }
            long wideSeed = r.nextLong();
            if (engineLimit > WIDE_IN_PROCESS && wideChildEnabled()
                    && (new Random(wideSeed).nextInt(3) == 0 || "always".equals(System.getProperty("panlite.difffuzz.wide")))) {
                wideChild(wideSeed, engineLimit);
            }
            Set<String> known = DiffKnown.active();
            if (findings.stream().allMatch(f -> f.key() != null && known.contains(f.key()))) {
                deleteTree(dir); // its files are made again by the seed; kept only for a failing finding
            }
            return findings;
        }

        private String where(int k, DiffScenario sc) {
            return "program " + k + " (" + sc.family() + ")";
        }

        /** Runs {@code sc} as the reference and through each path; a difference is shrunk and reported. */
        private void check(int k, DiffScenario sc, List<DiffPath> paths) throws IOException {
            DiffTranscript ref = runCopy(sc, DiffPath.REFERENCE, "ref.db");
            Set<String> absolutes = new LinkedHashSet<>();
            absolute(k, sc, DiffPath.REFERENCE, ref, absolutes);
            for (DiffPath p : paths) {
                DiffTranscript t = runCopy(sc, p, "path.db");
                absolute(k, sc, p, t, absolutes);
                Difference d = DiffTranscript.compare(ref, t);
                if (d == null) {
                    continue;
                }
                String key = DiffKnown.classify(d, p);
                DiffScenario shown = sc;
                Difference shownDiff = d;
                boolean shrink = key == null || !DiffKnown.active().contains(key)
                        || Boolean.getBoolean("panlite.difffuzz.shrinkKnown");
                if (shrink) {
                    shown = shrink(sc, p, key, d);
                    shownDiff = DiffTranscript.compare(runCopy(shown, DiffPath.REFERENCE, "ref.db"), runCopy(shown, p, "path.db"));
                    if (shownDiff == null) { // cannot happen: shrinking keeps only programs that still differ
                        shown = sc;
                        shownDiff = d;
                    }
                }
                findings.add(new Finding(key, seed, round, where(k, sc) + ", path: " + p.shown(),
                        differenceReport(shown, sc, p, shownDiff)));
                break; // one finding per program: the next paths would mostly repeat it
            }
        }

        private void absolute(int k, DiffScenario sc, DiffPath p, DiffTranscript t, Set<String> seen) {
            for (DiffTranscript.Absolute a : t.absolute) {
                String key = DiffKnown.classifyAbsolute(a);
                if (seen.add(a.key() + a.message())) {
                    findings.add(new Finding(key, seed, round, where(k, sc) + ", path: " + p.shown(),
                            a.message() + "\n  at operation " + a.op() + " of:\n" + sc.listing() + schemaNote()));
                }
            }
        }

        private String schemaNote() {
            return "  schema:\n" + schema.describe().indent(4);
        }

        private String differenceReport(DiffScenario shown, DiffScenario original, DiffPath p, Difference d) {
            StringBuilder b = new StringBuilder();
            b.append("  the program").append(shown.ops().size() < original.ops().size()
                    ? " (shrunk from " + original.ops().size() + " operations)" : "").append(":\n").append(shown.listing());
            b.append(schemaNote());
            String opShown = d.reference() != null && d.reference().op() >= 0 && d.reference().op() < shown.ops().size()
                    ? shown.ops().get(d.reference().op()).shown() : d.path() != null && d.path().op() >= 0 && d.path().op() < shown.ops().size()
                    ? shown.ops().get(d.path().op()).shown() : "after the last operation";
            b.append("  first difference, at transcript line ").append(d.index()).append(" (").append(opShown).append("):\n");
            b.append(d.shown());
            return b.toString();
        }

        /**
         * Drops operations while the program still differs the same way (the same defect, the same
         * kind of line): halves, then quarters, down to single operations. Bounded in runs.
         */
        private DiffScenario shrink(DiffScenario sc, DiffPath p, String key, Difference d) {
            List<DiffScenario.Op> ops = new ArrayList<>(sc.ops());
            String kind = kind(d);
            int budget = 160;
            for (int chunk = Math.max(1, ops.size() / 2); chunk >= 1 && budget > 0; chunk /= 2) {
                for (int at = ops.size() - chunk; at >= 0 && budget > 0; at -= chunk) {
                    List<DiffScenario.Op> fewer = new ArrayList<>(ops.subList(0, at));
                    fewer.addAll(ops.subList(at + chunk, ops.size()));
                    if (fewer.isEmpty()) {
                        continue;
                    }
                    DiffScenario candidate = sc.withOps(fewer);
                    budget--;
                    Difference e = DiffTranscript.compare(runCopy(candidate, DiffPath.REFERENCE, "ref.db"), runCopy(candidate, p, "path.db"));
                    if (e != null && java.util.Objects.equals(DiffKnown.classify(e, p), key) && kind(e).equals(kind)) {
                        ops = fewer;
                    }
                }
            }
            return sc.withOps(ops);
        }

        /** The kind of line a difference is at: its words up to the first number. */
        private static String kind(Difference d) {
            var l = d.reference() != null ? d.reference() : d.path();
            return l == null ? "" : l.text().replaceAll("^c\\d+ ", "").replaceAll("[0-9].*", "");
        }

        private DiffTranscript runCopy(DiffScenario sc, DiffPath p, String name) {
            stats.runs++;
            Path file = dir.resolve(name);
            try {
                for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                    Files.deleteIfExists(Path.of(file + suffix));
                }
                Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return DiffRunner.run(sc, p, url(file, schema.runQuery));
        }

        /** A pooled connection's lifecycle on a copy of the seed's file. */
        private void pool(Random r) throws Exception {
            Path file = dir.resolve("pool.db");
            Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
            try (Connection c = new dev.panlite.Driver().connect(url(file, ""), new Properties());
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE pool_t(a DEFAULT 1)");
            }
            StringBuilder listing = new StringBuilder();
            for (DiffPool.Finding f : DiffPool.run(r, file, "pool_t", listing)) {
                findings.add(new Finding(f.key(), seed, round, "pool lifecycle", "  " + f.message() + "\n  the lifecycle:\n" + listing));
            }
        }

        /**
         * Results wider than {@value #WIDE_IN_PROCESS} columns, up to the engine's limit, in a child
         * JVM (issue 27 item 1 crashes the JVM there). Any crash or finding of the child is item 1's.
         */
        private void wideChild(long wideSeed, int engineLimit) throws Exception {
            Random r = new Random(wideSeed);
            int[] widths = {WIDE_IN_PROCESS + 1, 6000, 10_000, engineLimit};
            int cols = Math.min(engineLimit, widths[r.nextInt(widths.length)]);
            Path work = dir.resolve("wide");
            Files.createDirectories(work);
            Path hsErr = dir.resolve("hs_err_wide.log");
            ProcessBuilder child = ChildJvm.of(DiffWideChild.class)
                    .options("-XX:ErrorFile=" + hsErr, "-XX:-CreateCoredumpOnCrash")
                    .args(Long.toString(r.nextLong()), Integer.toString(cols), work.toString())
                    .builder();
            Path log = dir.resolve("wide.log");
            Process p = child.redirectOutput(log.toFile()).start();
            boolean ended = p.waitFor(300, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            String output = Files.readString(log, StandardCharsets.ISO_8859_1);
            int exit = p.exitValue();
            boolean crashed = Files.exists(hsErr) || exit == 134 || exit > 128 && exit != 143;
            boolean clean = ended && exit == 0 && output.lines().anyMatch(l -> l.startsWith("done "));
            if (clean) {
                return;
            }
            String what = !ended ? "the child did not end in 300 s" : crashed ? "JVM CRASH (exit " + exit + ")" : "findings (exit " + exit + ")";
            StringBuilder m = new StringBuilder("  a result of " + cols + " columns (SELECT * FROM a table of " + cols
                    + " columns, 3 rows), in a child JVM: " + what + "\n");
            if (Files.exists(hsErr)) {
                m.append(MisuseFuzzTest.crashSummary(hsErr).indent(2));
            }
            output.lines().filter(l -> l.startsWith("FINDING") || l.startsWith("  ")).limit(40)
                    .forEach(l -> m.append("  ").append(l).append('\n'));
            List<String> lines = output.lines().toList();
            m.append("  the child's last lines:\n");
            lines.subList(Math.max(0, lines.size() - 3), lines.size()).forEach(l -> m.append("    ").append(l).append('\n'));
            m.append("  child's log: ").append(log).append('\n');
            findings.add(new Finding("1", seed, round, "wide child (" + cols + " columns)", m.toString()));
        }
    }

    /** -Dpanlite.difffuzz.verbose=true: each program's time. */
    private static final boolean VERBOSE = Boolean.getBoolean("panlite.difffuzz.verbose");

    /** Result columns a run in this JVM may ask for: RowBuffer's 4,096 cells (item 1 crashes past them). */
    static final int WIDE_IN_PROCESS = 4096;

    /**
     * The child JVM runs only when asked (a soak): each costs tens of seconds. Once item 1's fix has
     * landed, raising {@link #WIDE_IN_PROCESS} to the engine's limit brings results of any width
     * into every run, without a child.
     */
    private static boolean wideChildEnabled() {
        String p = System.getProperty("panlite.difffuzz.wide", "skip");
        return p.equals("child") || p.equals("always");
    }

    private static volatile int columnLimit;

    static int engineColumnLimit() throws SQLException {
        if (columnLimit == 0) {
            try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite::memory:", new Properties())) {
                columnLimit = DiffSchema.columnLimit(c);
            }
        }
        return columnLimit;
    }

    /** The build folder (-DbuildDir): the parent of the folder this class was loaded from (test-classes). */
    static Path buildDir() {
        try {
            Path classes = Path.of(DifferentialFuzzTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isDirectory(classes) ? classes.getParent() : Path.of("target");
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of("target");
        }
    }

    static String url(Path file, String query) {
        return "jdbc:sqlite:" + file + (query == null || query.isEmpty() ? "" : "?" + query);
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
