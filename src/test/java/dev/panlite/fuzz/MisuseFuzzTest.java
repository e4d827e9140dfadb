package dev.panlite.fuzz;

import static org.junit.jupiter.api.Assertions.fail;

import dev.panlite.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs {@link MisuseFuzzChild} once per seed, each in its own JVM, and fails a seed whose JVM
 * crashed (exit 134 or an hs_err file), hung, or saw a Throwable other than SQLException. The
 * failure names the seed, the top frames of the crash, each thread's last actions, and the command
 * that reproduces it.
 *
 * <p>Soak mode (see README, "Tests"): {@code -Dpanlite.fuzz.seeds=1..200 -Dpanlite.fuzz.seconds=20
 * -Dpanlite.fuzz.threads=6}. Other properties: {@code panlite.fuzz.hangSeconds} (the watchdog),
 * {@code panlite.fuzz.skip} (action-name prefixes to leave out, e.g. {@code fn.,vtab.}),
 * {@code panlite.fuzz.virtual=false} (no virtual-thread workers). Every
 * {@code panlite.*} system property (the SQLite library, the helper switch) reaches the child.
 */
class MisuseFuzzTest {
    /** Seeds run by mvn verify: 3 x 4 s in each Surefire execution (3 of them: ~1 min in all). */
    private static final String DEFAULT_SEEDS = "1,2,3";
    private static final String DEFAULT_SECONDS = "4";
    private static final String DEFAULT_THREADS = "4";

    @TestFactory
    Stream<DynamicTest> seeds() throws IOException {
        String seconds = System.getProperty("panlite.fuzz.seconds", DEFAULT_SECONDS);
        String threads = System.getProperty("panlite.fuzz.threads", DEFAULT_THREADS);
        // one folder per Surefire execution: the library it loads and the helper switch
        String library = System.getProperty("panlite.sqlite.library", "default");
        String run = Path.of(library).getFileName().toString().replaceAll("[^\\w.-]", "_")
                + (Boolean.parseBoolean(System.getProperty("panlite.helper", "true")) ? "-helper-on" : "-helper-off");
        String dir = System.getProperty("panlite.fuzz.dir");
        Path out = (dir != null ? Path.of(dir) : buildDirectory().resolve("fuzz")).resolve(run).toAbsolutePath();
        Files.createDirectories(out);
        return parseSeeds(System.getProperty("panlite.fuzz.seeds", DEFAULT_SEEDS)).stream()
                .map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> runSeed(seed, seconds, threads, out)));
    }

    /**
     * The build directory this test was compiled into (the parent of test-classes): target, or the
     * -DbuildDir of a build beside others, whose fuzz runs must not delete each other's seed folders.
     */
    private static Path buildDirectory() {
        try {
            return Path.of(MisuseFuzzTest.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of("target");
        }
    }

    /** "1,5,7" or "1..200" or a mix: "1..10,42". */
    static List<Long> parseSeeds(String spec) {
        List<Long> seeds = new ArrayList<>();
        for (String part : spec.split(",")) {
            part = part.strip();
            if (part.isEmpty()) {
                continue;
            }
            int range = part.indexOf("..");
            if (range >= 0) {
                long from = Long.parseLong(part.substring(0, range).strip());
                long to = Long.parseLong(part.substring(range + 2).strip());
                for (long s = from; s <= to; s++) {
                    seeds.add(s);
                }
            } else {
                seeds.add(Long.parseLong(part));
            }
        }
        return seeds;
    }

    private static void runSeed(long seed, String seconds, String threads, Path out) throws Exception {
        Path work = out.resolve("seed" + seed);
        deleteTree(work);
        Files.createDirectories(work);
        Path hsErr = out.resolve("hs_err_seed" + seed + ".log");
        Files.deleteIfExists(hsErr);
        ProcessBuilder child = ChildJvm.of(MisuseFuzzChild.class)
                .options("-ea", "-XX:ErrorFile=" + hsErr, "-XX:-CreateCoredumpOnCrash")
                .property("panlite.fuzz.seeds", null)
                .args(Long.toString(seed), seconds, threads, work.toString())
                .builder();
        List<String> command = child.command();
        Path log = out.resolve("seed" + seed + ".log");
        Process p = child.redirectOutput(log.toFile()).start();
        double budget = Double.parseDouble(seconds) + Double.parseDouble(System.getProperty("panlite.fuzz.hangSeconds", "30")) + 60;
        boolean ended = p.waitFor((long) budget, TimeUnit.SECONDS);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
        }
        int exit = p.exitValue();
        String output = Files.readString(log, StandardCharsets.ISO_8859_1);
        boolean crashed = Files.exists(hsErr) || exit == 134 || exit > 128 && exit != 143;
        // "done seed=N actions=M ..." with M > 0: the child got to the end and did something
        boolean clean = ended && exit == 0 && !crashed
                && output.lines().anyMatch(l -> l.startsWith("done seed=") && !l.contains(" actions=0 "));
        if (clean) {
            new ChildJvm.Output(exit, output).assertSameEngine(); // the engine this execution names, not another
            deleteTree(work);
            Files.deleteIfExists(log);
            return;
        }
        String what = !ended ? "the child JVM did not end (the watchdog did not fire either)"
                : crashed ? "JVM CRASH (exit " + exit + ")"
                : exit == MisuseFuzzChild.EXIT_HANG ? "HANG (the watchdog printed every thread's stack)"
                : exit == MisuseFuzzChild.EXIT_FINDINGS ? "a Throwable other than SQLException from a JDBC call"
                : "exit " + exit;
        StringBuilder m = new StringBuilder("fuzz seed " + seed + ": " + what + "\n");
        if (Files.exists(hsErr)) {
            m.append("hs_err: ").append(hsErr).append('\n').append(crashSummary(hsErr)).append('\n');
        }
        Path trace = work.resolve("trace.txt");
        if (Files.exists(trace)) {
            m.append("last actions of each thread (t<thread>, oldest first):\n");
            for (String l : Trace.read(trace, 8)) {
                m.append("  ").append(l).append('\n');
            }
        }
        List<String> lines = output.lines().toList();
        List<String> findings = lines.stream().filter(l -> l.startsWith("FINDING") || l.startsWith("    | ")).limit(80).toList();
        if (!findings.isEmpty()) {
            m.append("findings (each kind once, with its stack):\n").append(String.join("\n", findings)).append('\n');
        }
        int hang = lines.indexOf(lines.stream().filter(l -> l.startsWith("HANG:")).findFirst().orElse(""));
        if (hang >= 0) {
            m.append("hang: every thread's stack (reflection frames left out):\n").append(String.join("\n",
                    lines.subList(hang, lines.size()).stream()
                            .filter(l -> !l.contains("java.lang.invoke.") && !l.contains("jdk.internal.")).limit(200).toList()))
                    .append('\n');
        }
        // kept under a name of its own: a later clean run of the same seed deletes seed<N>.log
        Path kept = out.resolve("seed" + seed + "-failed-" + System.currentTimeMillis() + ".log");
        Files.copy(log, kept);
        m.append("end of the child's output (all of it, native stacks of a hang included: ").append(kept).append("):\n")
                .append(tail(output, 30)).append('\n');
        m.append("reproduce: mvn -o test -Dtest=MisuseFuzzTest -Dpanlite.fuzz.seeds=").append(seed)
                .append(" -Dpanlite.fuzz.seconds=").append(seconds).append(" -Dpanlite.fuzz.threads=").append(threads).append('\n');
        Path script = out.resolve("seed" + seed + ".sh");
        Files.writeString(script, "#!/bin/sh\n# the child JVM of seed " + seed + ", as MisuseFuzzTest ran it\n"
                + String.join(" ", command.stream().map(MisuseFuzzTest::shellQuote).toList()) + "\n");
        m.append("  or, without Maven: sh ").append(script);
        fail(m.toString());
    }

    /** The crash's signal line, problematic frame and the top of its native and Java frames. */
    static String crashSummary(Path hsErr) throws IOException {
        List<String> lines = Files.readAllLines(hsErr, StandardCharsets.ISO_8859_1);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("Current thread") || l.startsWith("#  SIG") || l.startsWith("# C  [") || l.startsWith("# J ") || l.startsWith("# V  [")
                    || l.startsWith("#  Internal Error") || l.startsWith("#  Error:")) {
                s.append("  ").append(l).append('\n');
            }
            boolean nativeFrames = l.startsWith("Native frames:");
            if (nativeFrames || l.startsWith("Java frames:")) {
                s.append("  ").append(l).append('\n');
                String previous = "";
                for (int j = i + 1, n = 0; j < lines.size() && !lines.get(j).isBlank() && n < 12; j++) {
                    String f = lines.get(j);
                    boolean shown = nativeFrames ? f.startsWith("C ") || f.startsWith("V ") // Java ones come next
                            : !f.contains("java.lang.invoke.") && !f.contains("jdk.internal.foreign.");
                    if (!f.equals(previous) && shown) {
                        s.append("    ").append(f).append('\n');
                        n++;
                    }
                    previous = f;
                }
            }
        }
        return s.toString();
    }

    private static String tail(String text, int n) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    private static String shellQuote(String s) {
        return s.matches("[\\w@%+=:,./-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    private static void deleteTree(Path dir) throws IOException {
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
