package dev.panlite.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Turns a run's {@code jmh.json} (and {@code env.properties}, if there) into a table on stdout,
 * {@code results.md} and {@code ratios.svg} in the same directory, and copies those two to {@code latest/} beside it.
 *
 * <pre>java -cp jmh/target/benchmarks.jar dev.panlite.bench.Report results/TIMESTAMP [--latest DIR|none] [--mode NAME]</pre>
 *
 * One row per workload and Panlite variant: the incumbent's time, Panlite's time, their ratio (Panlite / incumbent:
 * below 1 Panlite is faster) and the bytes allocated per op of each ({@code gc.alloc.rate.norm} from -prof gc).
 */
public final class Report {

    /** One JMH result: a benchmark method under one param combination. */
    record Result(String group, String method, String params, String workload, String driver, double score, double error, String unit, double bytesPerOp) {}

    /** Table order of the benchmark classes; JMH runs them alphabetically. Unknown classes go last. */
    static final List<String> GROUP_ORDER = List.of("ReadBench", "StmtCacheBench", "PooledBench", "WriteBench", "VectorBench");

    /** A line of the table: a workload, the incumbent and one Panlite variant (either may be missing). */
    record Row(String workload, String variant, Result xerial, Result panlite) {
        double ratio() {
            return xerial != null && panlite != null ? panlite.score / xerial.score : Double.NaN;
        }

        /** Half-width of the ratio's interval from JMH's 99.9% errors, first-order propagation. */
        double ratioError() {
            double r = ratio();
            if (Double.isNaN(r)) return Double.NaN;
            double a = rel(xerial), b = rel(panlite);
            return r * Math.sqrt(a * a + b * b);
        }

        private static double rel(Result x) {
            return x.score == 0 ? 0 : x.error / x.score; // NaN when JMH had too few iterations for an error
        }

        boolean isVariant() {
            return !variant.equals(Drivers.PANLITE);
        }

        boolean inGroup(String group) {
            return (xerial != null && xerial.group.equals(group)) || (panlite != null && panlite.group.equals(group));
        }

        String label() {
            return isVariant() ? workload + " · " + variant.replace("panlite-", "") : workload;
        }
    }

    /**
     * SQLite's own time per workload (ns/op) from {@code floor.txt} (jmh/floor, run by ./bench after JMH on the
     * library Panlite ran on), or the reason it was not run; empty when the run has neither.
     */
    record Floor(Map<String, Double> nanos, String skipped) {
        static Floor read(Path dir) throws IOException {
            Map<String, Double> nanos = new LinkedHashMap<>();
            Path txt = dir.resolve("floor.txt");
            if (Files.exists(txt)) {
                for (String line : Files.readAllLines(txt, StandardCharsets.UTF_8)) {
                    String[] f = line.trim().split("\\s+");
                    if (!line.startsWith("#") && f.length > 2 && f[2].equals("±")) {
                        nanos.put(f[0], Double.parseDouble(f[1]));
                    }
                }
            }
            Path skipped = dir.resolve("floor-skipped.txt");
            return new Floor(nanos, Files.exists(skipped) ? Files.readString(skipped).strip() : null);
        }

        /** The floor of a row's workload, for the default Panlite row only; NaN when there is none. */
        double of(Row r) {
            Double ns = r.isVariant() ? null : nanos.get(r.workload);
            return ns == null ? Double.NaN : ns;
        }

        /** Panlite's time over the floor. */
        double ratio(Row r) {
            double f = of(r);
            return Double.isNaN(f) || r.panlite == null ? Double.NaN : nanosPerOp(r.panlite) / f;
        }

        boolean any() {
            return !nanos.isEmpty();
        }
    }

    static double nanosPerOp(Result r) {
        return switch (r.unit) {
            case "us/op" -> r.score * 1e3;
            case "ms/op" -> r.score * 1e6;
            case "s/op" -> r.score * 1e9;
            default -> r.score;
        };
    }

    public static void main(String[] args) throws IOException {
        Path dir = null, latest = null;
        String mode = null;
        for (int k = 0; k < args.length; k++) {
            switch (args[k]) {
                case "--latest" -> latest = Path.of(args[++k]);
                case "--mode" -> mode = args[++k];
                default -> dir = Path.of(args[k]);
            }
        }
        if (dir == null) {
            System.err.println("usage: Report RESULTS_DIR [--latest DIR] [--mode NAME]   (RESULTS_DIR holds jmh.json)");
            System.exit(2);
        }
        if (latest == null) latest = dir.toAbsolutePath().getParent().resolve("latest");

        Path json = dir.resolve("jmh.json");
        if (!Files.exists(json)) {
            System.err.println("no " + json + ": did the benchmarks run?");
            System.exit(1);
        }
        List<?> raw = (List<?>) Json.parse(Files.readString(json));
        List<Result> results = new ArrayList<>();
        String jdk = null;
        for (Object o : raw) {
            Map<?, ?> m = (Map<?, ?>) o;
            results.add(toResult(m));
            if (jdk == null) jdk = str(m.get("vmName")) + " " + str(m.get("jdkVersion")) + " (" + str(m.get("vmVersion")) + ")";
        }
        Properties env = new Properties();
        Path envFile = dir.resolve("env.properties");
        if (Files.exists(envFile)) {
            try (InputStream in = Files.newInputStream(envFile)) {
                env.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            }
        }
        if (mode == null) mode = env.getProperty("mode", "?");
        if (jdk != null) env.setProperty("jdk", jdk);

        List<Result> others = new ArrayList<>();
        for (Result r : results) if (r.driver == null) others.add(r);
        results.removeAll(others);
        List<Row> rows = rows(results);
        Floor floor = Floor.read(dir);
        String title = "Panlite vs xerial sqlite-jdbc — " + dir.getFileName();

        System.out.println();
        System.out.println(title);
        System.out.println(console(rows, floor));
        if (!others.isEmpty()) {
            System.out.println("Other benchmarks (no driver param):");
            System.out.println(consoleOthers(others));
        }

        String md = markdown(title, mode, env, rows, floor, others, raw);
        String svg = svg(rows, dir.getFileName() + " · " + env.getProperty("cpu", "") + " · " + env.getProperty("cores", "?")
                + " cores · " + mode);
        Files.writeString(dir.resolve("results.md"), md, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("ratios.svg"), svg, StandardCharsets.UTF_8);
        if (latest.toString().equals("none")) { // a run of part of the suite: the tracked full table stays
            System.out.println("wrote " + dir.resolve("results.md") + ", " + dir.resolve("ratios.svg"));
            return;
        }
        Files.createDirectories(latest);
        for (String f : List.of("results.md", "ratios.svg")) {
            Files.copy(dir.resolve(f), latest.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println("wrote " + dir.resolve("results.md") + ", " + dir.resolve("ratios.svg") + " (copied to " + latest + ")");
    }

    // ------------------------------------------------------------------ model

    private static Result toResult(Map<?, ?> m) {
        String bench = str(m.get("benchmark"));
        String method = bench.substring(bench.lastIndexOf('.') + 1);
        String cls = bench.substring(0, Math.max(0, bench.lastIndexOf('.')));
        String group = cls.substring(cls.lastIndexOf('.') + 1);
        StringBuilder workload = new StringBuilder(method);
        List<String> other = new ArrayList<>();
        String driver = null; // no driver param: an experiment benchmark, listed apart
        Object params = m.get("params");
        if (params instanceof Map<?, ?> p) {
            for (Map.Entry<?, ?> e : p.entrySet()) {
                if (e.getKey().equals("driver")) {
                    driver = str(e.getValue());
                } else {
                    workload.append('/').append(e.getValue());
                    other.add(e.getKey() + "=" + e.getValue());
                }
            }
        }
        Map<?, ?> primary = (Map<?, ?>) m.get("primaryMetric");
        double bytes = Double.NaN;
        Object secondary = m.get("secondaryMetrics");
        if (secondary instanceof Map<?, ?> s && s.get("gc.alloc.rate.norm") instanceof Map<?, ?> norm) {
            bytes = num(norm.get("score"));
        }
        return new Result(group, method, String.join(", ", other), workload.toString(), driver, num(primary.get("score")), num(primary.get("scoreError")),
                str(primary.get("scoreUnit")), bytes);
    }

    /** Workloads in run order; under each, the default Panlite first, then its variants in run order. */
    static List<Row> rows(List<Result> results) {
        Map<String, Map<String, Result>> byWorkload = new LinkedHashMap<>();
        results = new ArrayList<>(results);
        results.sort(java.util.Comparator.comparingInt(r -> {
            int g = GROUP_ORDER.indexOf(r.group);
            return g < 0 ? GROUP_ORDER.size() : g;
        })); // stable: run order within a class
        for (Result r : results) byWorkload.computeIfAbsent(r.workload, k -> new LinkedHashMap<>()).put(r.driver, r);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Map<String, Result>> e : byWorkload.entrySet()) {
            Map<String, Result> d = e.getValue();
            Result x = d.get(Drivers.XERIAL);
            rows.add(new Row(e.getKey(), Drivers.PANLITE, x, d.get(Drivers.PANLITE)));
            for (Map.Entry<String, Result> v : d.entrySet()) {
                String name = v.getKey();
                if (!name.equals(Drivers.XERIAL) && !name.equals(Drivers.PANLITE)) rows.add(new Row(e.getKey(), name, x, v.getValue()));
            }
        }
        return rows;
    }

    // ------------------------------------------------------------------ text

    private static final String[] HEAD = {"workload", "variant", "xerial", "panlite", "ratio p/x", "xerial B/op", "panlite B/op"};
    private static final String[] FLOOR_HEAD = {"C floor", "p/floor"};

    private static String[] head(Floor floor) {
        return floor.any() ? concat(HEAD, FLOOR_HEAD) : HEAD;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static String[] cells(Row r, Floor floor) {
        String[] c = {
            r.workload, r.variant.replace("panlite-", "").replace("panlite", "default"),
            time(r.xerial), time(r.panlite),
            Double.isNaN(r.ratio()) ? "—"
                    : Double.isNaN(r.ratioError()) ? String.format(Locale.ROOT, "%.2f", r.ratio())
                    : String.format(Locale.ROOT, "%.2f ± %.2f", r.ratio(), r.ratioError()),
            bytes(r.xerial), bytes(r.panlite)
        };
        if (!floor.any()) return c;
        double f = floor.of(r);
        return concat(c, new String[] {
            Double.isNaN(f) ? "" : floorTime(f, r.panlite),
            Double.isNaN(floor.ratio(r)) ? "" : String.format(Locale.ROOT, "%.2f", floor.ratio(r))
        });
    }

    static String console(List<Row> rows, Floor floor) {
        List<String[]> lines = new ArrayList<>();
        String[] head = head(floor);
        lines.add(head);
        for (Row r : rows) lines.add(cells(r, floor));
        int[] w = new int[head.length];
        for (String[] l : lines) for (int c = 0; c < l.length; c++) w[c] = Math.max(w[c], l[c].length());
        StringBuilder b = new StringBuilder();
        for (int n = 0; n < lines.size(); n++) {
            String[] l = lines.get(n);
            for (int c = 0; c < l.length; c++) {
                String fmt = c < 2 ? "%-" + w[c] + "s" : "%" + w[c] + "s";
                b.append(String.format(fmt, l[c])).append(c + 1 < l.length ? "  " : "\n");
            }
            if (n == 0) {
                for (int c = 0; c < w.length; c++) b.append("-".repeat(w[c])).append(c + 1 < w.length ? "  " : "\n");
            }
        }
        return b.toString();
    }

    static String consoleOthers(List<Result> others) {
        StringBuilder b = new StringBuilder();
        int w = 0;
        for (Result r : others) w = Math.max(w, label(r).length());
        for (Result r : others) {
            b.append(String.format("%-" + w + "s  %22s  %12s B/op%n", label(r), time(r), bytes(r)));
        }
        return b.toString();
    }

    private static String label(Result r) {
        return r.group + "." + r.method + (r.params.isEmpty() ? "" : " (" + r.params + ")");
    }

    static String markdown(String title, String mode, Properties env, List<Row> rows, Floor floor, List<Result> others,
            List<?> raw) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title).append("\n\n");
        b.append("Mode: **").append(mode).append("**");
        if (!raw.isEmpty() && raw.get(0) instanceof Map<?, ?> first) {
            b.append(" — ").append(fmtInt(num(first.get("forks")))).append(" fork(s), ")
                    .append(fmtInt(num(first.get("warmupIterations")))).append(" × ").append(str(first.get("warmupTime")))
                    .append(" warmup, ").append(fmtInt(num(first.get("measurementIterations")))).append(" × ")
                    .append(str(first.get("measurementTime"))).append(" measurement");
        }
        b.append(".\n\n");
        b.append("## Machine\n\n");
        b.append("| | |\n|---|---|\n");
        row(b, "arch (`uname -m`)", env.getProperty("arch", "?"));
        row(b, "OS", env.getProperty("os", "?"));
        row(b, "CPU", env.getProperty("cpu", "?"));
        row(b, "cores", env.getProperty("cores", "?"));
        row(b, "JDK", env.getProperty("jdk", "?"));
        row(b, "SQLite in xerial", env.getProperty("sqlite.xerial", "?") + (env.containsKey("driver.xerial") ? " — " + env.getProperty("driver.xerial") : ""));
        row(b, "SQLite in Panlite", env.getProperty("sqlite.panlite", "?") + (env.containsKey("driver.panlite") ? " — " + env.getProperty("driver.panlite") : "")
                + (env.containsKey("engine.panlite") ? " (" + env.getProperty("engine.panlite") + ")" : ""));
        if (env.containsKey("vec.xerial") || env.containsKey("vec.panlite")) {
            row(b, "sqlite-vec (VectorBench)",
                    "xerial: " + env.getProperty("vec.xerial", "?") + "; Panlite: " + env.getProperty("vec.panlite", "?"));
        }
        if (env.containsKey("jmh.args")) row(b, "JMH arguments", "`" + env.getProperty("jmh.args") + "`");
        b.append("\n## Results\n\n");
        b.append("Times are JMH averages ± the 99.9% confidence half-width; **ratio = Panlite time / xerial time, lower is better** "
                + "(below 1.00 Panlite is faster). B/op is `gc.alloc.rate.norm` (bytes allocated per op). A variant row compares that "
                + "Panlite configuration with the same xerial run; `—` means not run or failed (see the JMH log).\n\n");
        String[] head = head(floor);
        b.append("| ").append(String.join(" | ", head)).append(" |\n");
        b.append("|---|---").append("|---:".repeat(head.length - 2)).append("|\n");
        for (Row r : rows) {
            String[] c = cells(r, floor);
            if (!r.isVariant()) c[0] = "**" + c[0] + "**";
            b.append("| ").append(String.join(" | ", c)).append(" |\n");
        }
        b.append("\n![Panlite / xerial time ratios](ratios.svg)\n\n");
        if (!others.isEmpty()) {
            b.append("### Other benchmarks (no driver param)\n\n| benchmark | params | time | B/op |\n|---|---|---:|---:|\n");
            for (Result r : others) {
                b.append("| ").append(r.group).append('.').append(r.method).append(" | ").append(r.params).append(" | ")
                        .append(time(r)).append(" | ").append(bytes(r)).append(" |\n");
            }
            b.append('\n');
        }
        b.append("Variants: `nocache` = `stmt_cache_size=0`; `nohelper` = `-Dpanlite.helper=false` (pure-Java fallback for the fused "
                + "native calls); `uncachedtx` = `cache_tx_statements=false`.\n\n");
        if (rows.stream().anyMatch(r -> r.inGroup("VectorBench"))) {
            b.append("VectorBench (sqlite-vec, 100k × 384-dim float32, cosine): `knn` = one `MATCH ... AND k = 10` query, all 10 rows "
                    + "read; `knnMmap` = the same with `mmap_size` = 256 MiB in both; `insertBatch` = 100 vectors in one transaction. "
                    + "Panlite uses the sqlite-vec compiled into its engine and binds `float[]`; xerial loads the same version as an "
                    + "extension and binds the vector converted to a little-endian `byte[]` (the conversion is in its time). "
                    + "See docs/experiments/091.\n\n");
        }
        if (floor.any()) {
            b.append("**C floor**: SQLite's own time for the workload (`jmh/floor`, the same SQL and data in C, every statement "
                    + "prepared once), run by `./bench` right after JMH on the very library Panlite ran on; **p/floor** = Panlite's "
                    + "time / the floor: what the driver adds to SQLite. The floor's raw output is `floor.txt`.\n");
        } else {
            b.append("No C floor in this run").append(floor.skipped() == null ? "" : " (" + floor.skipped() + ")")
                    .append(": SQLite's own cost, `jmh/floor`, is what a ratio to SQLite must be measured against.\n");
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String k, String v) {
        b.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n");
    }

    private static String time(Result r) {
        if (r == null) return "—";
        String unit = r.unit.replace("us/", "µs/").replace("/op", "");
        return fmt(r.score) + (Double.isNaN(r.error) ? "" : " ± " + fmt(r.error)) + " " + unit;
    }

    /** The floor's ns/op in the unit of the Panlite result beside it (ms for a knn query, ns for a point query). */
    private static String floorTime(double nanos, Result beside) {
        String unit = beside == null ? "ns/op" : beside.unit;
        return switch (unit) {
            case "us/op" -> fmt(nanos / 1e3) + " µs";
            case "ms/op" -> fmt(nanos / 1e6) + " ms";
            case "s/op" -> fmt(nanos / 1e9) + " s";
            default -> fmt(nanos) + " ns";
        };
    }

    private static String bytes(Result r) {
        if (r == null || Double.isNaN(r.bytesPerOp)) return "—";
        return String.format(Locale.ROOT, "%,.0f", r.bytesPerOp);
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) return "?";
        double a = Math.abs(v);
        if (a >= 100) return String.format(Locale.ROOT, "%,.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String fmtInt(double v) {
        return Double.isNaN(v) ? "?" : Long.toString(Math.round(v));
    }

    private static String str(Object o) {
        return o == null ? "?" : o.toString();
    }

    private static double num(Object o) {
        if (o instanceof Number n) return n.doubleValue();
        if (o instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    // ------------------------------------------------------------------ chart

    /**
     * Horizontal bars of Panlite/xerial per row on a log2 axis, each drawn from the 1.0 line: to the left (green)
     * Panlite is faster, to the right (red) slower. Variants are lighter. Thin whiskers show the ratio's interval.
     */
    static String svg(List<Row> all, String subtitle) {
        List<Row> rows = new ArrayList<>();
        for (Row r : all) if (!Double.isNaN(r.ratio())) rows.add(r);

        int labelW = 330, plotW = 480, rightW = 110, top = 70, barH = 18, gap = 6, bottom = 70;
        int width = labelW + plotW + rightW;
        int height = top + Math.max(1, rows.size()) * (barH + gap) + bottom;

        double lo = 0.5, hi = 2.0;
        for (Row r : rows) {
            double a = r.ratio() - r.ratioError(), z = r.ratio() + r.ratioError();
            lo = Math.min(lo, (a > 0 ? a : r.ratio()) / 1.1);
            hi = Math.max(hi, (Double.isNaN(z) ? r.ratio() : z) * 1.1);
        }
        lo = Math.max(1.0 / 64, Math.pow(2, Math.floor(log2(lo))));
        hi = Math.min(64, Math.pow(2, Math.ceil(log2(hi))));
        final double flo = lo, fhi = hi;
        java.util.function.DoubleUnaryOperator x = r -> {
            double c = Math.min(Math.max(r, flo), fhi);
            return labelW + (log2(c) - log2(flo)) / (log2(fhi) - log2(flo)) * plotW;
        };

        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
                width, height, width, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height));
        s.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Panlite time / xerial time (lower is better)</text>\n", 10));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"44\" fill=\"#555\">%s</text>\n", 10, esc(subtitle)));

        int plotBottom = top + Math.max(1, rows.size()) * (barH + gap);
        // grid at powers of two, labelled
        for (double t = lo; t <= hi * 1.0001; t *= 2) {
            double gx = x.applyAsDouble(t);
            boolean one = Math.abs(t - 1) < 1e-9;
            s.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                    gx, top - 8, gx, plotBottom, one ? "#000" : "#ddd", one ? "1.5" : "1"));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%s×</text>\n",
                    gx, plotBottom + 16, t >= 1 ? fmtInt(t) : trimZeros(t)));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#2e7d32\">◀ Panlite faster</text>\n",
                x.applyAsDouble(1) - 6, plotBottom + 34));
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#c62828\">Panlite slower ▶</text>\n",
                x.applyAsDouble(1) + 6, plotBottom + 34));
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#777\" font-size=\"11\">"
                        + "log scale; lighter bars: Panlite variants; whiskers: 99.9%% interval</text>\n",
                x.applyAsDouble(1), plotBottom + 54));

        if (rows.isEmpty()) {
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#c62828\">no Panlite results to compare</text>\n",
                    labelW + 10, top + 14));
        }
        for (int n = 0; n < rows.size(); n++) {
            Row r = rows.get(n);
            double ratio = r.ratio(), err = r.ratioError();
            int y = top + n * (barH + gap);
            double x1 = x.applyAsDouble(1), xr = x.applyAsDouble(ratio);
            boolean faster = ratio < 1;
            String fill = faster ? (r.isVariant() ? "#a5d6a7" : "#2e7d32") : (r.isVariant() ? "#ef9a9a" : "#c62828");
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"%s\">%s</text>\n",
                    labelW - 10, y + barH - 5, r.isVariant() ? "#666" : "#000", esc(r.label())));
            s.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %.3f ± %.3f</title></rect>\n",
                    Math.min(x1, xr), y, Math.max(1, Math.abs(xr - x1)), barH, fill, esc(r.label()), ratio, err));
            if (err > 0 && !Double.isNaN(err)) {
                double ea = x.applyAsDouble(Math.max(ratio - err, flo)), eb = x.applyAsDouble(ratio + err);
                int my = y + barH / 2;
                s.append(String.format(Locale.ROOT,
                        "<path d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\" stroke=\"#333\" stroke-width=\"1\" fill=\"none\"/>\n",
                        ea, my, eb, ea, my - 4, my + 4, eb, my - 4, my + 4));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#000\">%.2f</text>\n",
                    labelW + plotW + 8, y + barH - 5, ratio));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private static String trimZeros(double v) {
        String t = String.format(Locale.ROOT, "%.4f", v);
        t = t.replaceAll("0+$", "");
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }

    private static String esc(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
