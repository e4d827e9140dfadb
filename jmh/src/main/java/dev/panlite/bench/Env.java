package dev.panlite.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Records the machine and the drivers beside a run, in {@code env.properties}: what {@link Report} prints above
 * the table. Run by {@code ./bench} before the benchmarks, from the same jar and JDK as the forks:
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp jmh/target/benchmarks.jar dev.panlite.bench.Env OUT [key=value ...]</pre>
 *
 * The SQLite version of each driver comes from {@code select sqlite_version()} through that driver. A driver that
 * fails is recorded as unavailable with its error; this never fails the run.
 */
public final class Env {

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: Env OUT.properties [key=value ...]");
            System.exit(2);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (int k = 1; k < args.length; k++) {
            int eq = args[k].indexOf('=');
            if (eq > 0) env.put(args[k].substring(0, eq), args[k].substring(eq + 1));
        }
        env.put("arch", firstLine(List.of("uname", "-m"), System.getProperty("os.arch")));
        env.put("os", firstLine(List.of("uname", "-sr"), System.getProperty("os.name") + " " + System.getProperty("os.version")));
        env.put("cpu", cpuModel());
        env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        env.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        for (String d : List.of(Drivers.XERIAL, Drivers.PANLITE)) {
            try {
                Drivers.Target t = Drivers.target(d);
                env.put("sqlite." + d, Drivers.sqliteVersion(t));
                env.put("driver." + d, driverVersion(t));
                env.put("vec." + d, VectorBench.vecVersion(VectorBench.target(d, 0))); // built in, or loaded (VectorBench)
                if (d.equals(Drivers.PANLITE)) { // which engine: the bundled one or the library named by -Dpanlite.sqlite.library
                    env.put("engine.panlite", (dev.panlite.ffi.SqliteLibrary.bundled() ? "bundled, " : "")
                            + dev.panlite.ffi.SqliteLibrary.loadedFrom());
                }
            } catch (Throwable e) {
                Throwable root = e;
                while (root.getCause() != null && root.getCause() != root) root = root.getCause();
                env.put("sqlite." + d, "unavailable (" + oneLine(root.toString()) + ")");
            }
        }
        StringBuilder out = new StringBuilder("# written by dev.panlite.bench.Env\n");
        env.forEach((k, v) -> out.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        Path file = Path.of(args[0]);
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Files.writeString(file, out, StandardCharsets.UTF_8);
        env.forEach((k, v) -> System.out.println("  " + k + ": " + v));
    }

    private static String driverVersion(Drivers.Target t) throws Exception {
        Path db = Drivers.newDatabaseFile();
        try (Connection c = t.connect(db)) {
            DatabaseMetaData md = c.getMetaData();
            return md.getDriverName() + " " + md.getDriverVersion();
        } catch (Exception | LinkageError e) {
            return t.driver().getClass().getName() + " " + t.driver().getMajorVersion() + "." + t.driver().getMinorVersion();
        } finally {
            Drivers.deleteDatabase(db);
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name") || line.startsWith("Model") || line.startsWith("Hardware")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        return firstLine(List.of("sysctl", "-n", "machdep.cpu.brand_string"), "unknown");
    }

    private static String firstLine(List<String> cmd, String fallback) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty()) return oneLine(out);
        } catch (IOException | InterruptedException ignored) {
            // fall through
        }
        return fallback;
    }

    private static String oneLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
