package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ContentionChild;
import dev.panlite.Driver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fair to other processes (issue 18, docs/experiments/040): telling whether another process has a
 * database open ({@link OtherProcesses}), and the window the write gate leaves them when asked to
 * ({@link GateWindow}, off by default).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang guard only
class OtherProcessesTest {
    @TempDir
    Path dir;

    @Test
    void procLocksLinesAreReadByPidAndInode() {
        String locks = """
                1: POSIX  ADVISORY  READ 100 fe:00:9977970 128 128
                2: POSIX  ADVISORY  READ 100 fe:00:19977970 1073741826 1073742335
                3: -> POSIX  ADVISORY  WRITE 200 fe:00:555 120 120
                """;
        assertFalse(OtherProcesses.heldByOthers(locks, "100", ":9977970"), "only this process holds it");
        assertTrue(OtherProcesses.heldByOthers(locks, "200", ":9977970"), "another pid holds it");
        assertFalse(OtherProcesses.heldByOthers(locks, "200", ":977970"), "an inode that merely ends the same");
        assertTrue(OtherProcesses.heldByOthers(locks, "100", null, ":555"), "a blocked request counts");
        assertFalse(OtherProcesses.heldByOthers("", "100", ":9977970"));
    }

    @Test
    void anotherProcessWithTheFileOpenIsSeen() throws Exception {
        assumeTrue(OtherProcesses.canTell(), "no /proc/locks on this system: the window assumes another process");
        Path db = dir.resolve("test.db");
        try (Connection c = new Driver().connect("jdbc:sqlite:" + db + "?journal_mode=WAL", new Properties());
                Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            assertFalse(OtherProcesses.share(db.toString()), "only this JVM has it open");
            Process child = childJvm(List.of(), ContentionChild.class.getName(), db);
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                assertEquals("locked", firstLineNotWarning(out));
                assertTrue(OtherProcesses.share(db.toString()), "the child JVM has it open");
                child.getOutputStream().write("commit\n".getBytes(StandardCharsets.UTF_8));
                child.getOutputStream().flush();
                assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            } finally {
                child.destroy();
            }
            assertFalse(OtherProcesses.share(db.toString()), "the child is gone");
        }
    }

    @Test
    void theNextWriterWaitsOutAWindowWithTheGate() throws Exception {
        Process child = childJvm(List.of("-Dpanlite.writeGate.window=always", "-Dpanlite.writeGate.windowMillis=0.001/600000"),
                GateWindowChild.class.getName(), dir.resolve("w.db"));
        boolean ended = child.waitFor(90, TimeUnit.SECONDS); // its few lines fit the pipe: read them after
        if (!ended) {
            child.destroyForcibly();
        }
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ended, "the child JVM hung:\n" + out);
        List<String> lines = out.lines().filter(l -> !l.startsWith("WARNING") && !l.contains("SqliteLibrary")
                && !l.startsWith("INFO")).toList();
        assertEquals(List.of("opened", "window", "done"), lines, out);
    }

    private static String firstLineNotWarning(BufferedReader out) throws java.io.IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.equals("locked") || line.equals("committed")) {
                return line;
            }
        }
        return null;
    }

    private static Process childJvm(List<String> options, String main, Path db) throws java.io.IOException {
        String java = ProcessHandle.current().info().command().orElseThrow(() -> new AssertionError("no java command"));
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main, db.toString()));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
