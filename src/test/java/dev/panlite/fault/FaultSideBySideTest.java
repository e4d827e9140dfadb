package dev.panlite.fault;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.fault.FaultSweep.Category;
import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The same sweeps with Panlite and with the incumbent (xerial sqlite-jdbc, which loads the shim
 * through SQL's load_extension and opens its files with vfs=faultvfs), for the experiment page
 * (docs/experiments/080-faults-side-by-side.md). A report, not a check: it runs only when
 * {@code -Dpanlite.faults.incumbent=<the incumbent's jar>} names the jar (tools/fault-side-by-side.sh),
 * on the bundled engine (SQLite 3.54.1, the incumbent's own version), and writes
 * {@code target/faults/side-by-side.md}. Every point of every setting unless
 * {@code panlite.faults.stride} and {@code panlite.faults.configs} say otherwise.
 */
class FaultSideBySideTest {
    /**
     * A finding without its point ("panlite io #12 INCONSISTENT batch WAL/FULL write:error@3 : text"
     * becomes "INCONSISTENT: text"), numbers folded to N, cut to 160 characters.
     */
    static String kind(String finding) {
        String[] w = finding.split(" ", 8);
        if (w.length < 8 || !w[2].startsWith("#")) {
            return finding.replaceAll("[0-9]+", "N");
        }
        String text = w[7].startsWith(": ") ? w[7].substring(2) : w[7];
        String k = w[3] + ": " + text.replaceAll("[0-9]+", "N");
        return k.length() > 160 ? k.substring(0, 160) + "…" : k;
    }

    @Test
    void sideBySide() throws Exception {
        String jar = System.getProperty("panlite.faults.incumbent", "");
        assumeTrue(!jar.isBlank(), "the side-by-side run needs -Dpanlite.faults.incumbent=<sqlite-jdbc jar>");
        assumeTrue(Files.isReadable(Path.of(jar)), "no incumbent jar at " + jar);
        assumeTrue(SqliteLibrary.bundled(), "the side-by-side run compares on the bundled engine only");
        assumeTrue(FaultVfs.unavailable() == null, FaultVfs.unavailable());
        int stride = Integer.getInteger("panlite.faults.stride", 1);
        String configs = System.getProperty("panlite.faults.configs", "all");
        String workloads = System.getProperty("panlite.faults.workloads", "all");
        Path work = (System.getProperty("panlite.faults.dir") != null ? Path.of(System.getProperty("panlite.faults.dir"))
                : FaultVfs.buildDir().resolve("faults")).resolve("side-by-side")
                .toAbsolutePath();
        Map<String, Map<String, FaultSweepRun.Tally>> tallies = new LinkedHashMap<>();
        for (String target : List.of("panlite", "incumbent")) {
            Map<String, FaultSweepRun.Tally> byMode = new LinkedHashMap<>();
            for (String mode : List.of("io", "power", "memory")) {
                byMode.put(mode, FaultSweepRun.run(target, mode, workloads, configs, stride, work,
                        target.equals("incumbent") ? jar : null));
            }
            tallies.put(target, byMode);
        }
        StringBuilder page = new StringBuilder();
        page.append("| driver | faults | points tried | crashes | hangs | wrong exceptions | inconsistent states"
                + " | lost acknowledged commits | corrupt files |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        tallies.forEach((target, byMode) -> byMode.forEach((mode, t) -> {
            if (t.unavailable != null) {
                page.append("| ").append(target).append(" | ").append(mode).append(" | not run: ")
                        .append(t.unavailable).append(" |||||||\n");
                return;
            }
            page.append("| ").append(target).append(" | ").append(mode).append(" | ").append(t.points);
            for (Category c : Category.values()) {
                page.append(" | ").append(t.count(c));
            }
            page.append(" |\n");
        }));
        page.append("\nEngines: ");
        List<String> engines = new ArrayList<>();
        tallies.forEach((target, byMode) -> engines.add(target + ": " + byMode.get("io").engine));
        page.append(String.join("; ", engines)).append("\n\nPoints per workload and setting (Panlite; the"
                + " incumbent's are the same workloads, its own call counts):\n\n");
        tallies.get("panlite").forEach((mode, t) -> t.sizes.forEach((where, size) ->
                page.append("- ").append(where).append(": ").append(size).append('\n')));
        page.append("\nFindings by kind (points; numbers in the text folded to N):\n\n");
        tallies.forEach((target, byMode) -> {
            Map<String, Integer> kinds = new java.util.TreeMap<>();
            byMode.forEach((mode, t) -> t.findings.forEach(f -> kinds.merge(target + " " + mode + " " + kind(f), 1, Integer::sum)));
            kinds.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> page.append("- ").append(e.getValue()).append(" × ")
                            .append(e.getKey().replace("|", "\\|")).append('\n'));
        });
        Files.createDirectories(work);
        Path out = work.getParent().resolve("side-by-side.md");
        Files.writeString(out, page.toString());
        List<String> all = new ArrayList<>();
        tallies.values().forEach(byMode -> byMode.values().forEach(t -> all.addAll(t.findings)));
        Files.write(work.getParent().resolve("side-by-side-findings.txt"), all);
        System.out.println("side by side: " + out + "\n" + page);
    }
}
