package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's jar in a slim runtime: a jlink image of java.base, java.sql and java.logging, the
 * modules slim container images ship, without jdk.jfr. Built from the JDK running this test (its
 * jmods, or the linkable run-time image of JDK 24+). The jar's JFR events must not break it: before
 * {@code requires static jdk.jfr} and engine.JfrEvents, the class path failed at the first write
 * (ClassNotFoundException: jdk.jfr.Event) and the module path at startup (Module jdk.jfr not found).
 */
class SlimRuntimeIT {
    static Path image;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildImage() throws Exception {
        Path jdk = Path.of(System.getProperty("java.home"));
        Path jlink = jdk.resolve("bin/jlink");
        assumeTrue(Files.isExecutable(jlink), "no jlink in " + jdk);
        image = Path.of(System.getProperty("panlite.test.jar")).resolveSibling("slim-image");
        deleteTree(image);
        Result r = run(List.of(jlink.toString(), "--add-modules", "java.base,java.sql,java.logging",
                "--output", image.toString()));
        // a JDK without jmods whose run-time image cannot be linked says so: nothing to build the image from
        assumeTrue(r.exit == 0 || !r.output.contains("jmods"), "jlink cannot link from " + jdk + ": " + r.output);
        assertEquals(0, r.exit, r.output);
        Result modules = run(List.of(image.resolve("bin/java").toString(), "--list-modules"));
        assertTrue(!modules.output.contains("jdk.jfr") && modules.output.contains("java.sql"), modules.output);
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (var files = Files.walk(root)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    record Result(int exit, String output) {}

    static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }

    private static String testClasses() throws Exception {
        return Path.of(SlimRuntimeChild.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private void check(List<String> javaArgs) throws Exception {
        Path jar = Path.of(System.getProperty("panlite.test.jar"));
        assertTrue(Files.isRegularFile(jar), "the packaged jar: " + jar);
        List<String> command = new ArrayList<>(List.of(image.resolve("bin/java").toString(),
                "-Dpanlite.native.dir=" + dir.resolve("native")));
        command.addAll(javaArgs);
        command.addAll(List.of(SlimRuntimeChild.class.getName(), dir.resolve("slim.db").toString()));
        Result r = run(command.stream().map(a -> a.replace("{jar}", jar.toString())).toList());
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.contains("OK rows=4 [auto-commit,tx 0,tx 1,tx 2] jdk.jfr=false"), r.output);
    }

    @Test
    void theJarWorksOnTheClassPath() throws Exception {
        check(List.of("--enable-native-access=ALL-UNNAMED", "-cp", "{jar}" + java.io.File.pathSeparator + testClasses()));
    }

    @Test
    void theJarWorksOnTheModulePath() throws Exception {
        check(List.of("--enable-native-access=dev.panlite", "-p", "{jar}", "--add-modules", "dev.panlite",
                "-cp", testClasses()));
    }
}
