package dev.panlite.fuzz;

import dev.panlite.fuzz.DiffScenario.Close;
import dev.panlite.fuzz.DiffScenario.Open;
import dev.panlite.fuzz.DiffScenario.Op;
import dev.panlite.fuzz.DiffScenario.Query;
import dev.panlite.fuzz.DiffScenario.Read;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

/**
 * Results wider than the row buffer (4,096 cells), up to the engine's column limit, run by
 * {@link DifferentialFuzzTest} in a child JVM so that a crash (issue 27 item 1) is counted, not
 * fatal: a table of {@code COLUMNS} columns and three rows read through the reference and several
 * paths. Prints each finding (a line starting {@code FINDING}, details indented), then {@code done}.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp TEST_CLASSPATH dev.panlite.fuzz.DiffWideChild SEED COLUMNS DIR</pre>
 */
public final class DiffWideChild {
    private DiffWideChild() {}

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int cols = Integer.parseInt(args[1]);
        Path dir = Files.createDirectories(Path.of(args[2]));
        Random r = new Random(seed);
        Path base = dir.resolve("wide.db");
        Files.deleteIfExists(base);
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + base, new Properties());
                Statement s = c.createStatement()) {
            StringBuilder ddl = new StringBuilder("CREATE TABLE w(");
            for (int i = 0; i < cols; i++) {
                ddl.append(i == 0 ? "" : ", ").append('w').append(i).append(' ')
                        .append(DiffSchema.pick(r, DiffSchema.DECLARED[r.nextInt(DiffSchema.DECLARED.length)]));
            }
            s.execute(ddl.append(')').toString());
            for (int row = 0; row < 3; row++) {
                StringBuilder ins = new StringBuilder("INSERT INTO w VALUES (");
                for (int i = 0; i < cols; i++) {
                    ins.append(i == 0 ? "" : ", ").append(r.nextInt(50) == 0 ? DiffValue.random(r, false).sql() : DiffValue.small(r).sql());
                }
                s.executeUpdate(ins.append(')').toString());
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pragma_table_info('w')")) {
                rs.next();
                System.out.println("wide child: a table of " + rs.getInt(1) + " columns, limit " + DiffSchema.columnLimit(c));
            }
        }
        dev.panlite.ChildJvm.reportEngine(System.out);
        List<Op> ops = new ArrayList<>();
        ops.add(new Open(0, new Query("SELECT * FROM w ORDER BY rowid", List.of(), cols), ResultSet.HOLD_CURSORS_OVER_COMMIT, 0));
        ops.add(new Read(0, -1));
        ops.add(new Close(0));
        ops.add(new Open(1, new Query("SELECT * FROM w ORDER BY rowid DESC LIMIT 2", List.of(), cols),
                ResultSet.HOLD_CURSORS_OVER_COMMIT, 0));
        ops.add(new Read(1, -1));
        ops.add(new Close(1));
        DiffScenario sc = new DiffScenario("wide child", ops);
        int findings = 0;
        Path file = dir.resolve("run.db");
        Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
        DiffTranscript ref = DiffRunner.run(sc, DiffPath.REFERENCE, "jdbc:sqlite:" + file);
        findings += report("reference", ref);
        List<DiffPath> paths = new ArrayList<>(DiffPath.choose(new Random(r.nextLong()), 3));
        paths.add(new DiffPath(true, true, 1, DiffPath.Where.STATEMENT, DiffPath.Getters.OBJECT, 0, false, false, false));
        for (DiffPath p : paths) {
            Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
            System.out.println("path: " + p.shown());
            DiffTranscript t = DiffRunner.run(sc, p, "jdbc:sqlite:" + file);
            findings += report(p.shown(), t);
            DiffTranscript.Difference d = DiffTranscript.compare(ref, t);
            if (d != null) {
                // a known defect of its own (not item 1's) is noted, not counted: the in-process runs report it
                String key = DiffKnown.classify(d, p);
                boolean other = key != null && DiffKnown.active().contains(key);
                if (!other) {
                    findings++;
                }
                System.out.println((other ? "NOTE (" + key + ") " : "FINDING ") + p.shown() + ": differs from the reference at line "
                        + d.index());
                d.shown().lines().limit(12).forEach(l -> System.out.println("  " + l.strip()));
            }
        }
        System.out.println("done findings=" + findings);
        System.exit(findings == 0 ? 0 : 1);
    }

    /** Prints what went wrong in one run; counts all but item 16's class names (the in-process runs report those). */
    private static int report(String path, DiffTranscript t) {
        int n = 0;
        for (DiffTranscript.Absolute a : t.absolute) {
            boolean className = a.key().equals("class-name");
            System.out.println((className ? "NOTE " : "FINDING ") + path + ": " + firstLine(a.message()));
            a.message().lines().skip(1).limit(10).forEach(l -> System.out.println("  " + l.strip()));
            n += className ? 0 : 1;
        }
        return n;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
