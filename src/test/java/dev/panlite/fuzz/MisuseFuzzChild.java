package dev.panlite.fuzz;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The misuse fuzz, run in a child JVM by {@link MisuseFuzzTest} (a crash kills only this JVM):
 * {@code threads} threads share a few connections, statements, result sets, blobs and savepoints
 * and make random calls from {@link Actions} for {@code seconds}. Prints each finding (a Throwable
 * other than SQLException out of a JDBC call), then a summary line {@code done ...}.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -ea -cp TEST_CLASSPATH dev.panlite.fuzz.MisuseFuzzChild SEED SECONDS THREADS DIR</pre>
 *
 * Exit codes: 0 clean, {@value #EXIT_FINDINGS} findings, {@value #EXIT_HANG} a thread made no progress
 * for {@code panlite.fuzz.hangSeconds} (all stacks printed), {@value #EXIT_USAGE} bad arguments; a
 * JVM crash exits with 134 and writes the hs_err file. A seed fixes each thread's random choices,
 * not the interleaving of threads, so a seed reproduces a crash often but not every time.
 */
public final class MisuseFuzzChild {
    static final int EXIT_FINDINGS = 1;
    static final int EXIT_HANG = 3;
    static final int EXIT_USAGE = 4;

    private static volatile List<Actions.Entry> table;
    private static volatile int totalWeight;
    private static volatile World world;

    private MisuseFuzzChild() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: MisuseFuzzChild SEED SECONDS THREADS DIR");
            System.exit(EXIT_USAGE);
        }
        long seed = Long.parseLong(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int threads = Integer.parseInt(args[2]);
        Path dir = Files.createDirectories(Path.of(args[3]));
        long hangNanos = (long) (Double.parseDouble(System.getProperty("panlite.fuzz.hangSeconds", "30")) * 1e9);
        List<String> skip = Arrays.asList(System.getProperty("panlite.fuzz.skip", "").split(","));
        boolean virtual = Boolean.parseBoolean(System.getProperty("panlite.fuzz.virtual", "true"));
        // A callback failing in a loop makes the driver log without end: cap what others print (the
        // harness's own lines, findings and summary, go to the real stdout uncapped).
        PrintStream out = System.out;
        PrintStream capped = new PrintStream(new CappedOutput(out, 16 << 20), true, java.nio.charset.StandardCharsets.UTF_8);
        System.setOut(capped);
        System.setErr(capped);

        World w = new World(dir, out);
        world = w;
        table = Actions.table(skip);
        w.virtualTables = table.stream().anyMatch(e -> e.name().startsWith("vtab."));
        totalWeight = table.stream().mapToInt(Actions.Entry::weight).sum();
        Trace trace = new Trace(dir.resolve("trace.txt"), threads);
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> w.finding("thread " + t.getName(), e));
        String sqlite;
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite::memory:", new java.util.Properties())) {
            sqlite = c.unwrap(dev.panlite.PanliteConnection.class).sqliteVersion() + " from "
                    + System.getProperty("panlite.sqlite.library", "the default library");
        }
        out.println("fuzz seed=" + seed + " seconds=" + seconds + " threads=" + threads + " sqlite=" + sqlite
                + " actions=" + table.size()
                + (skip.size() > 1 || !skip.get(0).isEmpty() ? " skip=" + skip : ""));
        dev.panlite.ChildJvm.reportEngine(out);

        long end = System.nanoTime() + (long) (seconds * 1e9);
        // one slot per worker, and the last for the main thread's final close
        AtomicLongArray progress = new AtomicLongArray(threads + 1);
        AtomicReferenceArray<String> doing = new AtomicReferenceArray<>(threads + 1);
        Thread[] workers = new Thread[threads + 1];
        for (int i = 0; i < threads; i++) {
            int id = i;
            Ctx x = new Ctx(w, new Random(seed * 1_000_003L + i), i, trace);
            progress.set(i, System.nanoTime());
            Runnable work = () -> {
                x.bind();
                while (System.nanoTime() < end) {
                    doing.set(id, runOne(x, "thread " + id));
                    Thread.interrupted(); // another thread's "conn.interrupt" ends here
                    progress.set(id, System.nanoTime());
                }
                doing.set(id, "finished");
            };
            // odd workers are virtual threads (FFM calls pin their carrier; upcalls run on them too)
            workers[i] = (virtual && i % 2 == 1 ? Thread.ofVirtual() : Thread.ofPlatform()).name("fuzz-" + i).unstarted(work);
        }
        w.workers = Arrays.copyOf(workers, threads);
        for (int i = 0; i < threads; i++) {
            workers[i].start();
        }
        Thread watchdog = new Thread(() -> watch(workers, progress, doing, hangNanos, out), "fuzz-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        for (int i = 0; i < threads; i++) {
            workers[i].join();
        }
        doing.set(threads, "final close");
        progress.set(threads, System.nanoTime());
        workers[threads] = Thread.currentThread();

        // The end: every connection still held is closed, as an application shutting down would.
        for (Connection c : w.opened) {
            try {
                c.close();
            } catch (SQLException e) {
                w.sqlException(e);
            } catch (Throwable t) {
                if (!Callbacks.poolListenerThrow(t)) { // a pool listener's throw may come out of close
                    w.finding("final close", t);
                }
            }
        }
        for (javax.sql.PooledConnection pc : w.openedPooled) {
            try {
                pc.close();
            } catch (SQLException e) {
                w.sqlException(e);
            } catch (Throwable t) {
                if (!Callbacks.poolListenerThrow(t)) {
                    w.finding("final close (pooled)", t);
                }
            }
        }
        for (Map.Entry<String, java.util.concurrent.atomic.AtomicLong> e : w.findingKinds().entrySet()) {
            out.println("finding x" + e.getValue() + ": " + e.getKey());
        }
        out.println("commonest SQLExceptions: " + w.commonSqlExceptions(Integer.getInteger("panlite.fuzz.commonest", 12)));
        out.println("actions by group: " + w.actionsByGroup());
        out.println("done seed=" + seed + " actions=" + w.actions + " sqlExceptions=" + w.sqlExceptions
                + " findings=" + w.findings + " sqliteMisuse=" + w.misuse + " leakedConnections=" + w.leaked);
        out.flush();
        System.exit(w.findings.get() > 0 ? EXIT_FINDINGS : 0);
    }

    /** Picks one action by weight and runs it; returns what it was, for the watchdog. */
    static String runOne(Ctx x, String who) {
        List<Actions.Entry> t = table;
        int pick = x.r.nextInt(totalWeight);
        Actions.Entry e = t.get(0);
        for (Actions.Entry candidate : t) {
            pick -= candidate.weight();
            if (pick < 0) {
                e = candidate;
                break;
            }
        }
        if (x.trace != null && x.thread >= 0) {
            x.trace.record(x.thread, (x.depth > 0 ? "  in " + who + ": " : "") + e.name());
        }
        x.w.actions.incrementAndGet();
        x.w.ran(e.name());
        try {
            e.action().run(x);
        } catch (SQLException ok) {
            x.w.sqlException(ok);
        } catch (Callbacks.PoolListenerThrow fromPoolListener) {
            // a pool listener's throw comes out of the close that fired it, as JDBC allows: not a finding.
            // What any other callback throws on purpose must come out as an SQLException: a finding if not
        } catch (Throwable t2) {
            x.w.finding(e.name() + " (" + who + ")", t2);
        }
        return e.name();
    }

    /** Passes on the first {@code limit} bytes, then one line saying the rest was dropped. */
    private static final class CappedOutput extends java.io.OutputStream {
        private final java.io.OutputStream target;
        private long left;

        CappedOutput(java.io.OutputStream target, long limit) {
            this.target = target;
            this.left = limit;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            if (left > 0) {
                int n = (int) Math.min(len, left);
                target.write(b, off, n);
                left -= n;
                if (left == 0) {
                    target.write("\n[fuzz: output capped here; the summary follows]\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
        }

        @Override
        public synchronized void flush() throws java.io.IOException {
            target.flush();
        }
    }

    /**
     * The native frames of every thread (jhsdb jstack --mixed, from the running JDK), for a hang whose
     * thread sits in native code, where the Java stack ends at the downcall (F24). Best effort: a JDK
     * without jhsdb, or a system that forbids attaching, just says so.
     */
    private static void nativeStacks(PrintStream out) {
        java.nio.file.Path jhsdb = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jhsdb");
        if (!java.nio.file.Files.isExecutable(jhsdb)) {
            out.println("native stacks: no " + jhsdb);
            return;
        }
        try {
            Process p = new ProcessBuilder(jhsdb.toString(), "jstack", "--mixed", "--pid",
                    Long.toString(ProcessHandle.current().pid())).redirectErrorStream(true).start();
            byte[] text = p.getInputStream().readAllBytes(); // ends when jhsdb detaches and exits
            p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
            out.println("native stacks (jhsdb jstack --mixed):");
            out.println(new String(text, java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException | InterruptedException | RuntimeException e) {
            out.println("native stacks: " + e);
        }
    }

    private static void printStack(String title, List<StackTraceElement> stack, PrintStream out) {
        out.println(title + ":");
        for (StackTraceElement f : stack) {
            out.println("    at " + f);
        }
    }

    /** How long the watchdog waits between its two looks at a thread that made no progress. */
    private static final long SECOND_LOOK_MILLIS = 5_000;

    /**
     * No progress by a thread for hangNanos: prints that thread's stack, looks again
     * {@link #SECOND_LOOK_MILLIS} later (did it move? the same stack?), so a loop or a slow chain of
     * callbacks can be told from a thread stuck in one place (F28), then prints every thread's stack
     * and ends the JVM.
     */
    private static void watch(Thread[] workers, AtomicLongArray progress, AtomicReferenceArray<String> doing,
            long hangNanos, PrintStream out) {
        while (true) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (int i = 0; i < workers.length; i++) {
                if (workers[i] != null && workers[i].isAlive() && now - progress.get(i) > hangNanos) {
                    // two looks, the wait between them outside the lock on out (a worker may be printing)
                    long seen = progress.get(i);
                    String after = doing.get(i);
                    List<StackTraceElement> first = List.of(workers[i].getStackTrace());
                    try {
                        Thread.sleep(SECOND_LOOK_MILLIS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    List<StackTraceElement> second = List.of(workers[i].getStackTrace());
                    boolean moved = progress.get(i) != seen;
                    synchronized (out) {
                        out.println("HANG: " + workers[i].getName() + " made no progress for " + (now - seen) / 1_000_000
                                + " ms after " + after);
                        printStack("first look", first, out);
                        out.println("second look, " + SECOND_LOOK_MILLIS + " ms later: "
                                + (moved ? "it moved on (a slow chain, not a stop), now after " + doing.get(i) : "no progress")
                                + "; stack " + (first.equals(second) ? "the same" : "changed"));
                        if (!first.equals(second)) {
                            printStack("second look", second, out);
                        }
                        Map<Thread, StackTraceElement[]> stacks = new java.util.LinkedHashMap<>();
                        for (Thread t : workers) {
                            if (t != null) {
                                stacks.put(t, t.getStackTrace()); // virtual ones too, which getAllStackTraces leaves out
                            }
                        }
                        Thread.getAllStackTraces().forEach(stacks::putIfAbsent);
                        for (Map.Entry<Thread, StackTraceElement[]> e : stacks.entrySet()) {
                            out.println("thread " + e.getKey().getName() + (e.getKey().isVirtual() ? " (virtual) " : " ")
                                    + e.getKey().getState());
                            for (StackTraceElement f : e.getValue()) {
                                out.println("    at " + f);
                            }
                        }
                        nativeStacks(out);
                        out.println("done HANG actions=" + world.actions);
                        out.flush();
                    }
                    Runtime.getRuntime().halt(EXIT_HANG);
                }
            }
        }
    }
}
