package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a test's main class as this JVM runs: the same java binary and class path,
 * native access enabled, and every {@code panlite.*} system property of this JVM passed on, so a
 * child of the system-SQLite Surefire execution runs the system SQLite too. A test changes what it
 * must with {@link #property} (a null value passes that property on not at all).
 *
 * <p>A child that connects prints {@link #reportEngine} once; {@link Output#assertSameEngine} then
 * checks that it ran the engine this JVM runs.
 */
public final class ChildJvm {
    /** The line prefix of {@link #reportEngine}. */
    public static final String ENGINE = "engine=";

    private final Class<?> main;
    private final List<String> options = new ArrayList<>();
    private final Map<String, String> properties = new TreeMap<>();
    private final List<String> args = new ArrayList<>();
    private String classPath = System.getProperty("java.class.path");

    private ChildJvm(Class<?> main) {
        this.main = main;
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("panlite.")) {
                properties.put(name, System.getProperty(name));
            }
        }
    }

    /** A child running {@code main}'s {@code main} method. */
    public static ChildJvm of(Class<?> main) {
        return new ChildJvm(main);
    }

    /** The java binary of this JVM. */
    public static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** JVM options before the main class (not -D: see {@link #property}). */
    public ChildJvm options(String... jvmOptions) {
        options.addAll(List.of(jvmOptions));
        return this;
    }

    /** Sets (or, with null, leaves out) a system property of the child, whatever this JVM has. */
    public ChildJvm property(String name, String value) {
        if (value == null) {
            properties.remove(name);
        } else {
            properties.put(name, value);
        }
        return this;
    }

    /** A class path other than this JVM's. */
    public ChildJvm classPath(String path) {
        classPath = path;
        return this;
    }

    /** Arguments of the main method. */
    public ChildJvm args(String... mainArgs) {
        args.addAll(List.of(mainArgs));
        return this;
    }

    /** The whole command line. */
    public List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(options);
        properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(args);
        return command;
    }

    /** The process builder for {@link #command}, standard error merged into standard output. */
    public ProcessBuilder builder() {
        return new ProcessBuilder(command()).redirectErrorStream(true);
    }

    /** Starts the child; its input and output are the caller's to use. */
    public Process start() throws IOException {
        return builder().start();
    }

    /** Runs the child to its end (a minute at most) with no input; fails unless it exits with 0. */
    public Output run() throws IOException, InterruptedException {
        return finish(start(), String.join(" ", command()));
    }

    /** Waits for a started child to end (a minute at most), reading all it prints; fails unless it exits with 0. */
    public static Output finish(Process p) throws IOException, InterruptedException {
        return finish(p, p.info().commandLine().orElse("(the command line is not known)"));
    }

    private static Output finish(Process p, String command) throws IOException, InterruptedException {
        p.getOutputStream().close();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM did not finish:\n" + command + "\n" + text);
        }
        Output out = new Output(p.exitValue(), text);
        assertEquals(0, out.exit(), () -> "child JVM failed:\n" + command + "\n" + text);
        return out;
    }

    /** What a child printed, and how it exited. */
    public record Output(int exit, String text) {
        /** Every {@code key=value} line, the first of each key, in order. */
        public Map<String, String> values() {
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : text.split("\\R")) {
                int eq = line.indexOf('=');
                if (eq > 0 && line.substring(0, eq).matches("\\w+")) {
                    values.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            return values;
        }

        /** Fails unless the child printed {@link #reportEngine} with the engine this JVM runs. */
        public Output assertSameEngine() {
            List<String> reported = text.lines().filter(l -> l.startsWith(ENGINE)).toList();
            assertTrue(!reported.isEmpty(), () -> "the child did not report its engine:\n" + text);
            for (String line : reported) {
                assertEquals(ENGINE + engine(), line, () -> "the child ran another engine than this JVM:\n" + text);
            }
            return this;
        }
    }

    /** The engine this JVM loaded: version, source id, and where it came from. */
    public static String engine() {
        return SqliteLibrary.version() + " " + SqliteLibrary.sourceId() + " from " + SqliteLibrary.loadedFrom()
                + (SqliteLibrary.bundled() ? " (bundled)" : "");
    }

    /** Called by a child once it has connected: one {@link #ENGINE} line for {@link Output#assertSameEngine}. */
    public static void reportEngine(PrintStream out) {
        out.println(ENGINE + engine());
        out.flush();
    }
}
