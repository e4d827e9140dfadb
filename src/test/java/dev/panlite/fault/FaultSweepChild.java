package dev.panlite.fault;

import dev.panlite.fault.FaultSweep.Config;
import dev.panlite.fault.FaultSweep.Fault;
import dev.panlite.fault.FaultSweep.Finding;
import dev.panlite.fault.FaultSweep.Outcome;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A sweep in a JVM of its own, so that a crash is counted, not fatal ({@link FaultSweepRun} starts
 * it and starts it again after the point that crashed or hung). For each workload and setting: a
 * run without a fault (which must find nothing) counts the calls of each kind; then each fault at
 * the nth call of its kind, n from 1 to that count with a stride (the first, the last and every
 * stride-th; every n with stride 1). Prints
 * one line per point before running it ({@code point <index> ...}), one per finding
 * ({@code finding <CATEGORY> <index> ...}), one per workload and setting ({@code size ...}), and
 * {@code done} at the end. A point that runs longer than the watchdog's limit prints every thread's
 * stack and ends the JVM with {@link #EXIT_HANG}.
 *
 * <p>Arguments: target (panlite, incumbent), mode (io, power, memory), workloads (comma list or all),
 * stride, first point index to run, work directory, settings (comma list of journal/synchronous
 * such as WAL/NORMAL, or all; default all).
 */
public final class FaultSweepChild {
    public static final int EXIT_HANG = 3;
    /** Seconds a point may take before the watchdog calls it a hang. */
    static final long HANG_SECONDS = Long.getLong("panlite.faults.hangSeconds", 60);

    private FaultSweepChild() {}

    public static void main(String[] args) throws Throwable {
        Target target = Target.named(args[0]);
        boolean power = args[1].equals("power");
        boolean memory = args[1].equals("memory");
        List<Workload> workloads = args[2].equals("all") ? Workload.all()
                : Arrays.stream(args[2].split(",")).map(Workload::named).toList();
        int stride = Integer.parseInt(args[3]);
        long start = Long.parseLong(args[4]);
        Path work = Path.of(args[5]);
        List<Config> configs = args.length < 7 || args[6].equals("all") ? Config.all()
                : Arrays.stream(args[6].split(",")).map(Config::parse).toList();
        Files.createDirectories(work);
        PrintStream out = System.out;

        String why = FaultVfs.unavailable();
        if (why != null) {
            out.println("unavailable " + why);
            return;
        }
        if (memory) {
            String refused = target instanceof Target.Panlite ? SqliteAllocator.install()
                    : "the allocator is configured only under Panlite's engine";
            if (refused != null) {
                out.println("unavailable " + refused);
                return;
            }
        }
        try (Connection c = target.connect("jdbc:sqlite::memory:?enable_load_extension=true")) {
            FaultVfs.register(c);
        }
        FaultVfs.realSync(false); // cuts are simulated from the shim's record: no need to wait for the disk
        out.println("engine " + target.engine());
        if (target instanceof Target.Panlite) {
            dev.panlite.ChildJvm.reportEngine(out);
        }
        FaultSweep sweep = new FaultSweep(target, work);
        long index = 0;
        for (Workload w : workloads) {
            if (power && !w.power()) {
                continue;
            }
            for (Config config : configs) {
                if (w.walOnly() && !config.journal().equals("WAL")) {
                    continue;
                }
                String where = w.name() + " " + config;
                Outcome clean = point(sweep, w, config, null, 0, where + " none", out, index++, start);
                long[] counts = clean.counts();
                long points = 0;
                long dropped = 0; // acknowledged commits a cut took, as synchronous=NORMAL allows
                List<Fault> faults = power ? Fault.cuts() : memory ? List.of(Fault.MEMORY) : Fault.io();
                for (int f = 0; f < faults.size(); f++) {
                    Fault fault = faults.get(f);
                    long calls = clean.calls(fault);
                    // a power cut after the last call too: the work returned, then the power went
                    long last = power ? calls + 1 : calls;
                    int offset = Math.floorMod((w.name() + config + f).hashCode(), stride);
                    for (long n = 1; n <= last; n++) {
                        if (n > 1 && n != last && n % stride != offset) {
                            continue;
                        }
                        points++;
                        Outcome o = point(sweep, w, config, fault, n, where + " " + fault + "@" + n, out, index++, start);
                        dropped += o == null ? 0 : o.dropped();
                    }
                }
                StringBuilder kinds = new StringBuilder();
                for (FaultVfs.Kind k : FaultVfs.Kind.values()) {
                    kinds.append(kinds.isEmpty() ? "" : ",").append(k.name().toLowerCase()).append(':').append(counts[k.ordinal()]);
                }
                out.println("size " + where + " points=" + points + " calls=" + kinds + ",malloc:" + clean.allocations()
                        + (power ? " dropped=" + dropped : ""));
            }
        }
        out.println("done " + index);
        out.flush();
        System.exit(0); // pools' and the driver's daemon threads need not be waited for
    }

    /** Runs one point under the watchdog (the run without a fault always runs: it counts the calls). */
    private static Outcome point(FaultSweep sweep, Workload w, Config config, Fault fault, long nth, String what,
                                 PrintStream out, long index, long start) throws Exception {
        boolean quiet = index < start; // before the first point asked for: only the run that counts
        if (fault != null && quiet) {
            return null;
        }
        if (!quiet) {
            out.println("point " + index + " " + what);
            out.flush();
        }
        AtomicReference<Object> result = new AtomicReference<>();
        Thread worker = Thread.ofPlatform().name("fault-point").daemon().start(() -> {
            try {
                result.set(sweep.run(w, config, fault, nth));
            } catch (Throwable t) {
                result.set(t);
            }
        });
        worker.join(HANG_SECONDS * 1000);
        if (worker.isAlive()) {
            out.println("HANG point " + index + " " + what + ": every thread's stack follows");
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                out.println("thread " + e.getKey().getName());
                for (StackTraceElement f : e.getValue()) {
                    out.println("    at " + f);
                }
            }
            out.flush();
            Runtime.getRuntime().halt(EXIT_HANG);
        }
        Object r = result.get();
        if (r instanceof Throwable t) { // the harness itself failed: say so as a finding of this point
            out.println("finding WRONG_EXCEPTION " + index + " " + what + " : the sweep failed: " + FaultSweep.describe(t));
            return new Outcome(List.of(), new long[FaultVfs.Kind.values().length], 0, false, 0);
        }
        Outcome o = (Outcome) r;
        List<Finding> findings = new ArrayList<>(o.findings());
        for (Finding f : quiet ? List.<Finding>of() : findings) {
            out.println("finding " + f.category() + " " + index + " " + what + " : " + f.detail());
        }
        out.flush();
        return o;
    }
}
