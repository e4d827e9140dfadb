package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite library is chosen once per process ({@value SqliteLibrary#LIBRARY_PROPERTY}), so each
 * case runs {@link LibraryLoadingChild} in a child JVM.
 */
@EnabledOnOs(OS.LINUX)
class LibraryLoadingTest {
    @TempDir
    Path dir;

    /** Runs the child with {@code -Dpanlite.sqlite.library=library}; its report as a map. */
    static Map<String, String> runChild(String library) throws IOException, InterruptedException {
        return runChild(List.of("-D" + SqliteLibrary.LIBRARY_PROPERTY + "=" + library));
    }

    /**
     * Runs the child with these -D options; the library property is not passed on from this JVM
     * (none given: the default engine), the other panlite.* properties are (the helper mode).
     */
    static Map<String, String> runChild(List<String> properties) throws IOException, InterruptedException {
        ChildJvm child = ChildJvm.of(LibraryLoadingChild.class).property(SqliteLibrary.LIBRARY_PROPERTY, null);
        for (String p : properties) {
            int eq = p.indexOf('=');
            child.property(p.substring("-D".length(), eq), p.substring(eq + 1));
        }
        String text = child.run().text();
        Map<String, String> report = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).matches("[A-Za-z]+")) {
                report.put(line.substring(0, eq), line.substring(eq + 1).replace("\\n", "\n"));
            }
        }
        report.put("(output)", text);
        return report;
    }

    /**
     * A child JVM started by the shared launcher runs the engine this Surefire execution names
     * (the system SQLite where panlite.sqlite.library=system), and the check would see a child
     * that ran another one.
     */
    @Test
    void aChildJvmRunsTheEngineItsExecutionNames() throws Exception {
        Map<String, String> child = ChildJvm.of(LibraryLoadingChild.class).run().assertSameEngine().values();
        String named = System.getProperty(SqliteLibrary.LIBRARY_PROPERTY);
        if (SqliteLibrary.SYSTEM.equals(named)) {
            assertEquals("false", child.get("bundled"), child::toString);
            assertEquals("libsqlite3.so.0", child.get("loadedFrom"), child::toString);
        }
        assertEquals(SqliteLibrary.version(), child.get("version"), child::toString);
        assertEquals(SqliteLibrary.sourceId(), child.get("sourceId"), child::toString);
        if (named != null && engineBundled()) {
            // the control: without the property the child runs the bundled engine, and the check says so
            ChildJvm.Output other = ChildJvm.of(LibraryLoadingChild.class).property(SqliteLibrary.LIBRARY_PROPERTY, null).run();
            assertThrows(AssertionError.class, other::assertSameEngine, other::text);
        }
    }

    @Test
    void missingLibrarySaysWhatToInstallAndWhichProperty() throws Exception {
        Map<String, String> r = runChild("/nonexistent/libsqlite3.so");
        assertNull(r.get("version"), () -> "connected without a library: " + r);
        assertNull(r.get("unexpected"), () -> "not an SQLException: " + r);
        assertNotNull(r.get("exception"), () -> "no SQLException: " + r);
        String message = r.get("message");
        assertTrue(message.contains(SqliteLibrary.LIBRARY_PROPERTY), "property not named: " + message);
        assertTrue(message.contains("/nonexistent/libsqlite3.so"), "the tried path not named: " + message);
        assertTrue(message.toLowerCase().contains("install"), "nothing to install named: " + message);
        assertTrue(message.contains("libsqlite3"), "no package named: " + message);
        assertEquals("08001", r.get("sqlState"), r::toString);
    }

    @Test
    void notAnSqliteLibrary() throws Exception {
        Path fake = dir.resolve("libsqlite3.so");
        Files.writeString(fake, "not a shared object");
        Map<String, String> r = runChild(fake.toString());
        assertNull(r.get("unexpected"), () -> "not an SQLException: " + r);
        assertNotNull(r.get("exception"), () -> "no SQLException: " + r);
        assertTrue(r.get("message").contains(SqliteLibrary.LIBRARY_PROPERTY), r::toString);
        assertTrue(r.get("message").contains(fake.toString()), r::toString);
    }

    @Test
    void aTooOldSqliteIsRefusedWithItsVersion() throws Exception {
        // a stand-in library that claims to be SQLite 3.36.0 (sqlite3_changes64 came in 3.37)
        Path source = dir.resolve("old.c");
        Files.writeString(source, "int sqlite3_libversion_number(void) { return 3036000; }\n");
        Path old = dir.resolve("libsqlite3-old.so");
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-o", old.toString(), source.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException noCompiler) {
            assumeTrue(false, "needs a C compiler");
            return;
        }
        String ccOutput = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, cc.exitValue(), ccOutput);
        Map<String, String> r = runChild(old.toString());
        assertNull(r.get("version"), () -> "connected to a too old SQLite: " + r);
        assertNull(r.get("unexpected"), () -> "not an SQLException: " + r);
        String message = r.get("message");
        assertNotNull(message, r::toString);
        assertTrue(message.contains("3.36.0"), message);
        assertTrue(message.contains("3.37 or newer"), message);
        assertTrue(message.contains(SqliteLibrary.LIBRARY_PROPERTY), message);
    }

    @Test
    void aCopyOfTheRealLibraryIsUsed() throws Exception {
        Path system = systemLibrary();
        assumeTrue(system != null, "no system libsqlite3 found");
        Path copy = dir.resolve("copy").resolve("libsqlite3-copy.so");
        Files.createDirectories(copy.getParent());
        Files.copy(system, copy);
        Map<String, String> r = runChild(copy.toString());
        assertNull(r.get("exception"), () -> "the copy did not load: " + r);
        assertNull(r.get("unexpected"), r::toString);
        String version = r.get("version");
        assertNotNull(version, r::toString);
        assertTrue(version.matches("3\\.\\d+\\.\\d+.*"), version);
        assertEquals(copy.toString(), r.get("loadedFrom"), r::toString);
        assertEquals("true", r.get("chosenMapped"), () -> "the copy is not mapped in the child: " + r);
    }

    /** Whether this build put an engine into the jar for this platform (else it said why, and the default is the system library). */
    private static boolean engineBundled() {
        return LibraryLoadingTest.class.getResource("/native/linux-" + (isX64() ? "x86_64" : "aarch64") + "/libsqlite3.so") != null;
    }

    @Test
    void theDefaultIsTheBundledEngineAndItSaysSo() throws Exception {
        assumeTrue(engineBundled(), "this build has no bundled engine");
        Map<String, String> r = runChild(List.of("-Dpanlite.native.dir=" + dir.resolve("cache")));
        assertNull(r.get("exception"), r::toString);
        assertEquals("true", r.get("bundled"), r::toString);
        assertTrue(r.get("loadedFrom").matches(java.util.regex.Pattern.quote(dir.resolve("cache").toString())
                + "/libsqlite3-[0-9a-f]{16}\\.so"), r::toString);
        assertEquals(r.get("sqlSourceId"), r.get("sourceId"), r::toString);
        assertTrue(r.get("sourceId").matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [0-9a-f]{40,}.*"), r::toString);
        long logged = r.get("(output)").lines().filter(l -> l.contains("Panlite uses the bundled SQLite " + r.get("version")
                + " (" + r.get("sourceId") + ") from " + r.get("loadedFrom"))).count();
        assertEquals(1, logged, r::toString);
    }

    @Test
    void systemSkipsTheBundledEngine() throws Exception {
        assumeTrue(systemLibrary() != null, "no system libsqlite3 found");
        Map<String, String> r = runChild(SqliteLibrary.SYSTEM);
        assertNull(r.get("exception"), r::toString);
        assertEquals("false", r.get("bundled"), r::toString);
        assertEquals("libsqlite3.so.0", r.get("loadedFrom"), r::toString);
        assertEquals(r.get("sqlSourceId"), r.get("sourceId"), r::toString);
        assertTrue(r.get("(output)").contains("Panlite uses SQLite " + r.get("version")), r::toString);
    }

    @Test
    void anUnusableCacheDirectoryFallsBackToTheSystemLibrary() throws Exception {
        assumeTrue(engineBundled(), "this build has no bundled engine");
        assumeTrue(systemLibrary() != null, "no system libsqlite3 found");
        Path notADirectory = dir.resolve("plain-file");
        Files.writeString(notADirectory, "x");
        Map<String, String> r = runChild(List.of("-Dpanlite.native.dir=" + notADirectory.resolve("panlite")));
        assertNull(r.get("exception"), r::toString);
        assertEquals("false", r.get("bundled"), r::toString);
        assertEquals("libsqlite3.so.0", r.get("loadedFrom"), r::toString);
    }

    @Test
    void whenNothingLoadsTheErrorListsWhatWasTried() throws Exception {
        Path notADirectory = dir.resolve("plain-file");
        Files.writeString(notADirectory, "x");
        // the bundled engine cannot be extracted, and the chosen path does not exist
        Map<String, String> r = runChild(List.of("-Dpanlite.native.dir=" + notADirectory.resolve("panlite"),
                "-D" + SqliteLibrary.LIBRARY_PROPERTY + "=/nonexistent/libsqlite3.so"));
        String message = r.get("message");
        assertNotNull(message, r::toString);
        assertTrue(message.contains("Tried:"), message);
        assertTrue(message.contains("/nonexistent/libsqlite3.so"), message);
    }

    /** libsqlite3.so.0 as ldconfig knows it, or the usual Debian path. */
    static Path systemLibrary() throws IOException, InterruptedException {
        try {
            Process p = new ProcessBuilder("ldconfig", "-p").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            for (String line : out.split("\n")) {
                if (line.contains("libsqlite3.so.0") && line.contains("x86-64") == isX64() && line.contains("=>")) {
                    Path path = Path.of(line.substring(line.indexOf("=>") + 2).trim());
                    if (isLibrary(path)) {
                        return path.toRealPath();
                    }
                }
            }
        } catch (IOException notThere) {
            // fall through to the usual paths
        }
        for (String candidate : List.of("/usr/lib/x86_64-linux-gnu/libsqlite3.so.0", "/lib/x86_64-linux-gnu/libsqlite3.so.0",
                "/usr/lib/aarch64-linux-gnu/libsqlite3.so.0", "/usr/lib64/libsqlite3.so.0", "/usr/lib/libsqlite3.so.0")) {
            Path path = Path.of(candidate);
            if (isLibrary(path)) {
                return path.toRealPath();
            }
        }
        return null;
    }

    /** A readable ELF file (not, e.g., an empty file mounted over the library to hide it). */
    private static boolean isLibrary(Path path) throws IOException {
        if (!Files.isReadable(path) || Files.size(path) < 4) {
            return false;
        }
        try (var in = Files.newInputStream(path)) {
            byte[] magic = in.readNBytes(4);
            return magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
        }
    }

    private static boolean isX64() {
        String arch = System.getProperty("os.arch");
        return arch.equals("amd64") || arch.equals("x86_64");
    }

    @Test
    void theTestProcessLoadedALibrary() {
        // the parent itself runs on the default search: it must have found one
        assertNull(SqliteLibrary.loadError(), SqliteLibrary::loadError);
        assertNotNull(SqliteLibrary.loadedFrom());
        assertFalse(SqliteLibrary.loadedFrom().isBlank());
    }
}
