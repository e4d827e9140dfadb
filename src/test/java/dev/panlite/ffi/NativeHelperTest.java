package dev.panlite.ffi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which path the fused calls take, how the helper is extracted, and that it calls the SQLite the
 * driver loaded. The suite runs with and without {@code -Dpanlite.helper=false}.
 */
class NativeHelperTest {
    private static final boolean TURNED_OFF = "false".equals(System.getProperty(NativeHelper.ENABLE_PROPERTY));

    @TempDir
    Path tmp;

    @Test
    void theActivePathFollowsTheSystemProperty() {
        if (TURNED_OFF) {
            assertFalse(NativeHelper.ACTIVE);
            assertFalse(Fused.helperActive());
            assertNull(NativeHelper.path());
            assertTrue(NativeHelper.reason().contains("panlite.helper=false"), NativeHelper.reason());
            assertTrue(Fused.helperStatus().contains("plain downcalls"), Fused.helperStatus());
            return;
        }
        if (SqliteLibrary.bundled()) {
            // the bundled engine has the helper compiled in: nothing else is extracted or loaded
            assertTrue(NativeHelper.ACTIVE, Fused.helperStatus());
            assertNull(NativeHelper.reason());
            assertEquals(SqliteLibrary.loadedFrom(), NativeHelper.path());
            Path loaded = Path.of(NativeHelper.path());
            assertEquals(NativeFiles.cacheDir(), loaded.getParent());
            assertTrue(loaded.getFileName().toString().matches("libsqlite3-[0-9a-f]{16}\\.so"), loaded.toString());
            return;
        }
        if (!NativeFiles.os().equals("linux")) {
            // other platforms: active exactly when the build produced a helper for them
            assertEquals(NativeHelper.class.getResource(NativeHelper.resourceName()) != null, NativeHelper.ACTIVE,
                    Fused.helperStatus());
            return;
        }
        // Linux, the project's build machine: the build must have compiled and packaged the helper,
        // unless it had no C compiler at all (then it said so, and the fallback is what runs)
        if (NativeHelper.class.getResource(NativeHelper.resourceName()) == null) {
            String why = NativeHelper.notBuiltReason();
            assertFalse(NativeHelper.ACTIVE);
            assertTrue(why != null && why.startsWith("no C compiler"),
                    () -> "the build did not package " + NativeHelper.resourceName() + ": " + why);
            Assumptions.abort("built without a C compiler: " + why);
        }
        assertTrue(NativeHelper.ACTIVE, Fused.helperStatus());
        assertTrue(Fused.helperActive());
        assertNull(NativeHelper.reason());
        Path loaded = Path.of(NativeHelper.path());
        assertEquals(NativeFiles.cacheDir(), loaded.getParent());
        assertTrue(loaded.getFileName().toString().matches("libpanlite_helper-[0-9a-f]{16}\\.so"), loaded.toString());
        assertTrue(Fused.helperStatus().contains(loaded.toString()), Fused.helperStatus());
    }

    @Test
    void namesAreNormalised() {
        assertTrue(NativeHelper.resourceName().matches("/native/[a-z0-9]+-[a-z0-9_]+/[a-z_]+\\.(so|dylib|dll)"),
                NativeHelper.resourceName());
        String name = NativeFiles.fileName(NativeHelper.libraryName(), new byte[] {1, 2, 3});
        assertEquals(name, NativeFiles.fileName(NativeHelper.libraryName(), new byte[] {1, 2, 3}));
        assertFalse(name.equals(NativeFiles.fileName(NativeHelper.libraryName(), new byte[] {1, 2, 4})), "the hash is in the name");
    }

    private static byte[] someLibrary() throws IOException {
        try (InputStream in = NativeHelper.class.getResourceAsStream(NativeHelper.resourceName())) {
            if (in != null) {
                return in.readAllBytes();
            }
        }
        byte[] content = new byte[64 * 1024]; // no helper for this platform: the extraction is the same
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        return content;
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    @Test
    void concurrentExtractionsGiveOneCompleteFile() throws Exception {
        byte[] content = someLibrary();
        String name = NativeFiles.fileName(NativeHelper.libraryName(), content);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 25; round++) {
                Path dir = tmp.resolve("round-" + round).resolve("panlite"); // not there yet: created in the race too
                CyclicBarrier start = new CyclicBarrier(4);
                List<Future<Path>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    results.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return NativeFiles.extract(content, dir, name);
                    }));
                }
                for (Future<Path> result : results) {
                    assertEquals(dir.resolve(name), result.get(30, TimeUnit.SECONDS));
                }
                assertEquals(List.of(dir.resolve(name)), filesIn(dir), "one file, no temporary left behind");
                assertArrayEquals(content, Files.readAllBytes(dir.resolve(name)));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Owner-only, as the incumbent extracts: the file rw-------, the directory it creates rwx------. */
    @Test
    void extractedFilesAreOwnerOnly() throws IOException {
        byte[] content = someLibrary();
        String name = NativeFiles.fileName(NativeHelper.libraryName(), content);
        Path dir = tmp.resolve("cache").resolve("panlite");
        Path file = NativeFiles.extract(content, dir, name);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.getFileStore(file).supportsFileAttributeView("posix"),
                "POSIX permissions only");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals(List.of(file), filesIn(dir), "no temporary left behind");
    }

    @Test
    void anExistingCompleteFileIsReusedAndABrokenOneReplaced() throws IOException {
        byte[] content = someLibrary();
        String name = NativeFiles.fileName(NativeHelper.libraryName(), content);
        Path dir = tmp.resolve("cache");
        Path file = NativeFiles.extract(content, dir, name);
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(file, old);
        assertEquals(file, NativeFiles.extract(content, dir, name));
        assertEquals(old, Files.getLastModifiedTime(file), "reused, not rewritten");

        Files.write(file, new byte[] {0x7f, 'E', 'L', 'F'}); // a truncated file left by something else
        assertEquals(file, NativeFiles.extract(content, dir, name));
        assertArrayEquals(content, Files.readAllBytes(file));
        assertEquals(List.of(file), filesIn(dir));
    }

    // ------------------------------------------------------------------ child JVMs

    /** The real path of the SQLite library this JVM loaded, from /proc/self/maps. */
    private static Path loadedSqlite() throws IOException {
        Sqlite.libversionNumber(); // make sure it is loaded
        String from = SqliteLibrary.loadedFrom();
        if (from.indexOf('/') >= 0) { // named by path (the bundled engine's extracted file, libSQL's libsql.so)
            return Path.of(from).toRealPath();
        }
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash > 0 && line.substring(slash).contains("libsqlite3")) {
                return Path.of(line.substring(slash)).toRealPath();
            }
        }
        throw new IllegalStateException("libsqlite3 not mapped; loaded from " + SqliteLibrary.loadedFrom());
    }

    private static String codeSource(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private record Child(Map<String, String> values, String output) {
        String get(String key) {
            assertTrue(values.containsKey(key), () -> "no " + key + " in the child's output:\n" + output);
            return values.get(key);
        }
    }

    /** Runs {@link SqliteCopyChild} on the driver's classes alone (no test dependency), with these -D options. */
    private static Child runChild(List<String> properties, String... args) throws Exception {
        ChildJvm child = ChildJvm.of(SqliteCopyChild.class)
                .classPath(codeSource(SqliteCopyChild.class) + File.pathSeparator + codeSource(NativeHelper.class))
                .args(args);
        for (String p : properties) {
            int eq = p.indexOf('=');
            child.property(p.substring("-D".length(), eq), p.substring(eq + 1));
        }
        ChildJvm.Output out = child.run();
        return new Child(out.values(), out.text());
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void theHelperCallsTheSqliteNamedByTheLibraryProperty() throws Exception {
        Path original = loadedSqlite();
        Path copy = tmp.resolve("lib").resolve("libsqlite3-copy.so.0");
        Files.createDirectories(copy.getParent());
        Files.copy(original, copy);
        List<String> properties = new ArrayList<>(List.of("-D" + SqliteLibrary.LIBRARY_PROPERTY + "=" + copy,
                "-D" + NativeFiles.DIR_PROPERTY + "=" + tmp.resolve("cache")));
        if (TURNED_OFF) {
            properties.add("-D" + NativeHelper.ENABLE_PROPERTY + "=false"); // the fallback must use the copy too
        }
        Child child = runChild(properties, original.toString());

        assertEquals("null", child.get("loadError"), child.output());
        boolean expectActive = !TURNED_OFF && NativeHelper.class.getResource(NativeHelper.resourceName()) != null;
        assertEquals(String.valueOf(expectActive), child.get("helperActive"), child.output());
        assertEquals(Sqlite.ROW + " 42", child.get("exec"), child.output());
        assertEquals(String.valueOf(Sqlite.OK), child.get("resetClear"), child.output());
        assertEquals("true", child.get("copyMapped"), child.output());
        assertEquals("false", child.get("originalMapped"), child.output());
        assertEquals("false", child.get("otherSqliteMapped"), child.output());
        assertEquals("true", child.get("pointersInCopy"), child.output());
        if (expectActive) {
            assertEquals("true", child.get("helperMapped"), child.output());
            assertTrue(child.get("helperPath").startsWith(tmp.resolve("cache").toString()), child.output());
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void anUnusableCacheDirectoryFallsBackWithOneLogLine() throws Exception {
        Path notADirectory = tmp.resolve("plain-file");
        Files.writeString(notADirectory, "x");
        // the SQLite this JVM runs on, named by path: no extraction needed for it, the separate helper's fails
        Path sqlite = loadedSqlite();
        // the helper on (whatever this execution says): its extraction is what fails here
        Child child = runChild(List.of("-D" + NativeFiles.DIR_PROPERTY + "=" + notADirectory.resolve("panlite"),
                "-D" + SqliteLibrary.LIBRARY_PROPERTY + "=" + sqlite, "-D" + NativeHelper.ENABLE_PROPERTY + "=true"),
                sqlite.toString());

        assertEquals("false", child.get("helperActive"), child.output());
        assertEquals("null", child.get("helperPath"), child.output());
        assertEquals(Sqlite.ROW + " 42", child.get("exec"), child.output());
        assertEquals(String.valueOf(Sqlite.OK), child.get("resetClear"), child.output());
        long logged = child.output().lines().filter(l -> l.contains("Panlite native helper not used")).count();
        assertEquals(1, logged, child.output());
        if (NativeHelper.class.getResource(NativeHelper.resourceName()) != null) {
            assertTrue(child.get("helperStatus").contains("cannot extract"), child.output());
        }
    }
}
