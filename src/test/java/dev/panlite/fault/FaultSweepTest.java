package dev.panlite.fault;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every workload at its fault points, in a child JVM per kind of fault ({@link FaultSweepRun}), on
 * the engine of this Surefire execution: I/O faults of each kind, power cuts, and failed
 * allocations (the child installs an allocator wrapper before SQLite initialises). Fails on any
 * crash, hang, wrong exception, inconsistent state, lost acknowledged commit or corrupt file, naming
 * the point.
 *
 * <p>{@code mvn verify} runs the first, the last and every {@value #IO_STRIDE}th point of each I/O
 * fault (every {@value #POWER_STRIDE}th power cut, every {@value #MEMORY_STRIDE}th allocation),
 * with WAL/NORMAL and DELETE/FULL: about half a minute per Surefire execution. tools/fault-soak.sh runs every point of every setting:
 * {@code -Dpanlite.faults.stride=1 -Dpanlite.faults.configs=all}; {@code -Dpanlite.faults.workloads=blob,vacuum}
 * narrows the workloads.
 */
class FaultSweepTest {
    /** The stride of mvn verify per kind of fault (allocations are many more than I/O calls). */
    static final int IO_STRIDE = 40;
    static final int POWER_STRIDE = 25;
    static final int MEMORY_STRIDE = 100;
    static final String DEFAULT_CONFIGS = "WAL/NORMAL,DELETE/FULL";

    /**
     * Findings of defects reported and not fixed yet, by a phrase of their text; shown, not failed,
     * unless -Dpanlite.faults.strict=true. Each names what it is; remove it with its fix. Empty: the
     * one found (SQLite's own rollback after a fault not reported, and acknowledged by a retried
     * commit()) is fixed in engine.Transactions.
     */
    static final List<String> KNOWN_OPEN = List.of();

    static boolean knownOpen(String finding) {
        return KNOWN_OPEN.stream().anyMatch(finding::contains);
    }

    private static void sweep(String mode, int defaultStride) throws Exception {
        assumeTrue(FaultVfs.unavailable() == null, FaultVfs.unavailable());
        int stride = Integer.getInteger("panlite.faults.stride", defaultStride);
        String configs = System.getProperty("panlite.faults.configs", DEFAULT_CONFIGS);
        String workloads = System.getProperty("panlite.faults.workloads", "all");
        String library = System.getProperty("panlite.sqlite.library", "default");
        String run = Path.of(library).getFileName().toString().replaceAll("[^\\w.-]", "_")
                + (Boolean.parseBoolean(System.getProperty("panlite.helper", "true")) ? "-helper-on" : "-helper-off");
        Path work = (System.getProperty("panlite.faults.dir") != null ? Path.of(System.getProperty("panlite.faults.dir"))
                : FaultVfs.buildDir().resolve("faults")).resolve(run).toAbsolutePath();
        FaultSweepRun.Tally tally = FaultSweepRun.run("panlite", mode, workloads, configs, stride, work, null);
        assumeTrue(tally.unavailable == null, tally.unavailable);
        List<String> open = tally.findings.stream().filter(FaultSweepTest::knownOpen).toList();
        if (!open.isEmpty()) {
            System.out.println("fault sweep " + mode + ": " + open.size() + " findings of open defects (KNOWN_OPEN),"
                    + " e.g. " + open.get(0));
        }
        assertTrue(tally.points > 0, "no point ran");
        assertTrue(tally.findings.stream().allMatch(FaultSweepTest::knownOpen), () -> tally.report(40));
    }

    @Test
    void ioFaults() throws Exception {
        sweep("io", IO_STRIDE);
    }

    @Test
    void powerCuts() throws Exception {
        sweep("power", POWER_STRIDE);
    }

    @Test
    void outOfMemory() throws Exception {
        sweep("memory", MEMORY_STRIDE);
    }
}
