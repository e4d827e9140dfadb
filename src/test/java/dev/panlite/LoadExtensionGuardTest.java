package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An extension's entry point that is a variable, not a function, is refused before SQLite calls it
 * (a JVM crash): the ways an outside review (breaker2) got past the first guard, which looked only at
 * the mapping. Each test loads in a child JVM: a failure is a crash of that JVM.
 */
class LoadExtensionGuardTest {
    @TempDir
    Path dir;

    /** Compiles {@code source} into {@code dir/name} with extra linker/compiler flags; skips without cc. */
    private Path cc(String name, String source, String... flags) throws IOException, InterruptedException {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the guard is Linux only");
        Path include = EngineHeader.path().getParent();
        Path c = dir.resolve(name + ".c");
        Files.writeString(c, source);
        Path library = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of("cc", "-shared", "-fPIC", "-I" + include));
        command.addAll(List.of(flags));
        command.addAll(List.of("-o", library.toString(), c.toString()));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException noCompiler) {
            assumeTrue(false, "needs a C compiler: " + noCompiler.getMessage());
            throw noCompiler;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "cc " + command + " failed:\n" + out);
        return library;
    }

    /** Runs {@code sh -c script} (arguments $1...), for file names Java cannot spell (not UTF-8). */
    private static void sh(String script, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sh", "-c", script, "sh"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "sh failed: " + out);
    }

    /**
     * The child: loads each "path entry" pair of its arguments ("-": SQLite's default entry point) on one
     * in-memory connection; "NEW" starts a new connection (the old one stays open); "SWAP link target"
     * re-points a symbolic link. Prints "loaded" or "refused: message" for each.
     */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            List<Connection> open = new ArrayList<>();
            Connection c = memory();
            open.add(c);
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("NEW")) {
                    c = memory();
                    open.add(c);
                    continue;
                }
                if (args[i].equals("SWAP")) {
                    Path link = Path.of(args[++i]);
                    Files.delete(link);
                    Files.createSymbolicLink(link, Path.of(args[++i]));
                    continue;
                }
                Path library = Path.of(args[i]);
                String entry = args[++i].equals("-") ? null : args[i];
                try {
                    c.unwrap(PanliteConnection.class).loadExtension(library, entry);
                    System.out.println("loaded " + library);
                } catch (SQLException e) {
                    System.out.println("refused: " + e.getMessage());
                }
                System.out.flush();
            }
            for (Connection each : open) {
                each.close();
            }
            System.out.println("survived");
        }

        private static Connection memory() throws SQLException {
            return new Driver().connect("jdbc:sqlite::memory:", new java.util.Properties());
        }
    }

    /** What the child printed; fails (with its output) unless it survived. */
    private String child(String... args) throws IOException, InterruptedException {
        ChildJvm.Output out = ChildJvm.of(Child.class) // a crash's report in the test's folder, no core file
                .options("-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"), "-XX:-CreateCoredumpOnCrash")
                .args(args).run(); // asserts exit 0: a crash is 134
        assertTrue(out.text().contains("survived"), out.text());
        return out.text();
    }

    private static final String ANSWER = TestExtensions.ANSWER;

    /**
     * A const array under an entry point's name lands in read-only data, which a linker that does not
     * separate code from read-only data (gold, the default of some toolchains, or -z noseparate-code)
     * maps executable together with .text: a guard that looked at the mapping alone let it through and
     * SQLite called it (SIGSEGV in not_code+0x0, the JVM died). The symbol's type tells.
     */
    @Test
    void aConstVariableInTheTextSegmentIsRefused() throws Exception {
        Path library = cc("notcode_nsc.so", TestExtensions.NOT_CODE, "-Wl,-z,noseparate-code");
        String out = child(library.toString(), "not_code");
        assertTrue(out.contains("refused: ") && out.contains("not_code"), out);
    }

    /** The same through the gold linker, where read-only data shares the executable segment by default. */
    @Test
    void aConstVariableLinkedByGoldIsRefused() throws Exception {
        Path library = cc("notcode_gold.so", TestExtensions.NOT_CODE, "-fuse-ld=gold");
        String out = child(library.toString(), "not_code");
        assertTrue(out.contains("refused: ") && out.contains("not_code"), out);
    }

    /**
     * A symbolic link to a library in a folder whose name is not UTF-8 (Latin-1 "é"): looked up by its
     * real path, which a Java String cannot name, the library was never opened by the driver, nothing
     * was checked, and SQLite, given the link, called the variable sqlite3_extension_init (a crash).
     * It is looked up by the path as given now.
     */
    @Test
    void aVariableBehindALinkIntoANonUtf8FolderIsRefused() throws Exception {
        Path notCode = cc("notcode.so", TestExtensions.NOT_CODE);
        sh("mkdir \"$1/lat$(printf '\\351')\" && cp \"$2\" \"$1/lat$(printf '\\351')/notcode.so\""
                + " && ln -s \"$1/lat$(printf '\\351')/notcode.so\" \"$1/ext.so\"", dir.toString(), notCode.toString());
        String out = child(dir.resolve("ext.so").toString(), "-");
        assertTrue(out.contains("refused: ") && out.contains("not a function"), out);
    }

    /**
     * Once any file whose path is not UTF-8 is mapped into the process (here a real extension, loaded
     * through a link), /proc/self/maps is no longer UTF-8: read as UTF-8 it failed, the guard answered
     * "cannot tell" and let every later variable through, for every connection of the process.
     */
    @Test
    void aNonUtf8MappingDoesNotTurnTheGuardOff() throws Exception {
        Path answer = cc("answer.so", ANSWER);
        Path notCode = cc("notcode.so", TestExtensions.NOT_CODE);
        sh("mkdir \"$1/lat$(printf '\\351')\" && cp \"$2\" \"$1/lat$(printf '\\351')/answer.so\""
                + " && ln -s \"$1/lat$(printf '\\351')/answer.so\" \"$1/ans.so\"", dir.toString(), answer.toString());
        String out = child(dir.resolve("ans.so").toString(), "-", notCode.toString(), "-");
        assertTrue(out.contains("loaded " + dir.resolve("ans.so")), out);
        assertTrue(out.contains("refused: ") && out.contains("not a function"), out);
    }

    /**
     * An upgrade by re-pointing a symbolic link (current.so: v1.so, then v2.so). SQLite dlopens the
     * link's name, which the process already knows as v1.so; a guard that looked up the link's real
     * path checked v2.so, whose sqlite3_feature_init is a function, and SQLite called v1's, a variable
     * (a crash). The driver looks the library up by the name SQLite is given.
     */
    @Test
    void aReLinkedLibraryIsCheckedAsSqliteWillCallIt() throws Exception {
        Path v1 = cc("v1.so", ANSWER + "int sqlite3_feature_init = 0; /* v1: a flag */\n");
        Path v2 = cc("v2.so", """
                #include <sqlite3ext.h>
                SQLITE_EXTENSION_INIT1
                static void f(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_int(c, 2); }
                int sqlite3_feature_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
                    SQLITE_EXTENSION_INIT2(api);
                    return sqlite3_create_function(db, "feature", 0, SQLITE_UTF8, 0, f, 0, 0);
                }
                """);
        Path link = dir.resolve("current.so");
        Files.createSymbolicLink(link, v1.getFileName());
        String out = child(link.toString(), "-", "SWAP", link.toString(), v2.getFileName().toString(), "NEW",
                link.toString(), "sqlite3_feature_init");
        assertTrue(out.contains("loaded " + link), out);
        // SQLite calls v1's sqlite3_feature_init (the name is v1's in this process): a variable, to refuse
        assertTrue(out.contains("refused: ") && out.contains("not a function"), out);
    }

}
