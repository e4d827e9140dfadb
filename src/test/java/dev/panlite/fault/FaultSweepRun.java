package dev.panlite.fault;

import dev.panlite.ChildJvm;
import dev.panlite.fault.FaultSweep.Category;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Runs a sweep in child JVMs ({@link FaultSweepChild}): when one crashes or hangs, the point it was
 * running is counted as a crash or a hang and a new child goes on from the next point. Tallies what
 * was found, per category, as points that found it.
 */
public final class FaultSweepRun {
    private FaultSweepRun() {}

    /** What a sweep found. */
    public static final class Tally {
        public final String target;
        public String engine = "?";
        public String unavailable;
        public long points;
        public final Map<Category, TreeSet<Long>> pointsWith = new EnumMap<>(Category.class);
        public final List<String> findings = new ArrayList<>();
        /** "workload config" to "points=... calls=...". */
        public final Map<String, String> sizes = new LinkedHashMap<>();

        Tally(String target) {
            this.target = target;
            for (Category c : Category.values()) {
                pointsWith.put(c, new TreeSet<>());
            }
        }

        public int count(Category c) {
            return pointsWith.get(c).size();
        }

        public boolean clean() {
            return pointsWith.values().stream().allMatch(TreeSet::isEmpty);
        }

        void add(Tally other) {
            long base = points;
            points += other.points;
            engine = other.engine;
            unavailable = unavailable != null ? unavailable : other.unavailable;
            other.pointsWith.forEach((c, set) -> set.forEach(i -> pointsWith.get(c).add(base + i)));
            findings.addAll(other.findings);
            sizes.putAll(other.sizes);
        }

        /** The first findings, for a failure message. */
        public String report(int max) {
            StringBuilder s = new StringBuilder(target + " on " + engine + ": " + points + " points;");
            for (Category c : Category.values()) {
                s.append(' ').append(c.name().toLowerCase()).append('=').append(count(c));
            }
            findings.stream().limit(max).forEach(f -> s.append("\n  ").append(f));
            if (findings.size() > max) {
                s.append("\n  ... ").append(findings.size() - max).append(" more");
            }
            return s.toString();
        }
    }

    /**
     * Sweeps {@code workloads} ("all" or a comma list) with {@code target} in {@code mode} (io, power,
     * memory) and {@code configs} ("all" or a comma list such as WAL/NORMAL), every {@code stride}th
     * point, in {@code work}; {@code extraClassPath} (may be null) is added to
     * the children's class path (the incumbent's jar).
     */
    public static Tally run(String target, String mode, String workloads, String configs, int stride, Path work,
                            String extraClassPath) throws IOException, InterruptedException {
        Tally tally = new Tally(target);
        Files.createDirectories(work);
        long start = 0;
        long timeout = Long.getLong("panlite.faults.childSeconds", 3600);
        for (int attempt = 0; attempt < 50; attempt++) {
            String tag = target + "-" + mode + "-" + workloads.replace(',', '+') + "-" + attempt;
            Path hsErr = work.resolve("hs_err-" + tag + ".log");
            Path log = work.resolve(tag + ".log");
            Files.deleteIfExists(hsErr);
            ChildJvm child = ChildJvm.of(FaultSweepChild.class)
                    .options("-ea", "-XX:ErrorFile=" + hsErr, "-XX:-CreateCoredumpOnCrash")
                    .args(target, mode, workloads, Integer.toString(stride), Long.toString(start),
                            work.resolve("db-" + tag).toString(), configs);
            if (extraClassPath != null) {
                child.classPath(System.getProperty("java.class.path") + File.pathSeparator + extraClassPath);
            }
            Process p = child.builder().redirectOutput(log.toFile()).start();
            p.getOutputStream().close();
            boolean ended = p.waitFor(timeout, TimeUnit.SECONDS);
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            long last = -1;
            boolean done = false;
            for (String l : lines) {
                if (l.startsWith("point ")) {
                    last = Long.parseLong(l.split(" ")[1]);
                    tally.points = Math.max(tally.points, last + 1);
                } else if (l.startsWith("finding ")) {
                    String[] w = l.split(" ", 4);
                    tally.pointsWith.get(Category.valueOf(w[1])).add(Long.parseLong(w[2]));
                    tally.findings.add(target + " " + mode + " #" + w[2] + " " + w[1] + " " + w[3]);
                } else if (l.startsWith("size ")) {
                    int eq = l.indexOf(" points=");
                    tally.sizes.put(mode + " " + l.substring(5, eq), l.substring(eq + 1));
                } else if (l.startsWith("engine ")) {
                    tally.engine = l.substring(7);
                } else if (l.startsWith("unavailable ")) {
                    tally.unavailable = l.substring(12);
                } else if (l.startsWith("done ")) {
                    done = true;
                    tally.points = Math.max(tally.points, Long.parseLong(l.substring(5)));
                }
            }
            int exit = p.exitValue();
            if (ended && done && exit == 0) {
                Files.deleteIfExists(log);
                FaultSweep.deleteTree(work.resolve("db-" + tag));
                return tally;
            }
            if (tally.unavailable != null) {
                return tally;
            }
            boolean hang = !ended || exit == FaultSweepChild.EXIT_HANG;
            Category c = hang ? Category.HANG : Category.CRASH;
            String where = last < 0 ? "before the first point" : lines.stream().filter(l -> l.startsWith("point "))
                    .reduce((a, b) -> b).orElse("");
            String detail = hang ? "the point did not end" : "exit " + exit
                    + (Files.exists(hsErr) ? ", hs_err " + hsErr : "");
            tally.pointsWith.get(c).add(Math.max(last, 0));
            tally.findings.add(target + " " + mode + " " + c + " at " + where + ": " + detail + " (log " + log + ")");
            if (last < 0) {
                return tally; // nothing ran: starting again would meet the same end
            }
            start = last + 1;
        }
        tally.findings.add(target + " " + mode + ": gave up after 50 child JVMs");
        return tally;
    }
}
