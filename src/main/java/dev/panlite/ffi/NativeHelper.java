package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The native helper library ({@code src/main/native/panlite_helper.c}): fused calls that cross into
 * SQLite once instead of several times. The Maven build compiles it into the jar as
 * {@code native/<os>-<arch>/<libname>}; at class initialisation it is extracted once into a per-user
 * cache directory (content hash in the file name, written to a temporary file and renamed
 * atomically, so concurrent JVMs never load a half-written file), loaded with FFM, and handed the
 * function pointers of the SQLite the driver loaded, so it always calls that same library.
 *
 * <p>When anything fails (no helper built for this platform, unwritable or noexec cache directory,
 * load error, SQLite not loaded) or {@code -Dpanlite.helper=false} turns it off, {@link #ACTIVE} is
 * false, one line is logged, and {@link Fused} runs every fused call as plain downcalls. Class
 * initialisation never throws.
 */
final class NativeHelper {
    /** {@code false} turns the helper off (both paths can then be tested and benchmarked). */
    static final String ENABLE_PROPERTY = "panlite.helper";
    /** A directory to extract the helper to instead of the per-user cache directory. */
    static final String DIR_PROPERTY = "panlite.helper.dir";

    private static final String BASE_NAME = "panlite_helper";
    private static final int HASH_HEX_CHARS = 16;

    static final boolean ACTIVE;
    private static final MethodHandle RESET_CLEAR;
    private static final MethodHandle EXEC_NO_ARGS;
    private static final String PATH;
    private static final String REASON;

    /** Why the helper is not used; its message is the reason logged and reported. */
    private static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message, null, false, false);
        }
    }

    static {
        MethodHandle resetClear = null;
        MethodHandle execNoArgs = null;
        String path = null;
        String reason = null;
        System.Logger.Level level = System.Logger.Level.WARNING;
        try {
            if ("false".equalsIgnoreCase(System.getProperty(ENABLE_PROPERTY, "").strip())) {
                level = System.Logger.Level.INFO;
                throw new Unavailable("turned off by -D" + ENABLE_PROPERTY + "=false");
            }
            if (SqliteLibrary.lookup() == null) {
                throw new Unavailable("the SQLite library is not loaded");
            }
            String resource = resourceName();
            byte[] content;
            try (InputStream in = NativeHelper.class.getResourceAsStream(resource)) {
                if (in == null) {
                    level = System.Logger.Level.INFO;
                    String why = notBuiltReason();
                    throw new Unavailable("no helper built for this platform (" + resource.substring(1)
                            + " is not in the jar" + (why == null ? "" : ": " + why) + ")");
                }
                content = in.readAllBytes();
            }
            Path dir = cacheDir();
            Path file;
            try {
                file = extract(content, dir, fileName(content));
            } catch (IOException | RuntimeException e) {
                throw new Unavailable("cannot extract it to " + dir + ": " + e);
            }
            SymbolLookup lookup;
            try {
                lookup = SymbolLookup.libraryLookup(file, Arena.global());
            } catch (RuntimeException e) {
                throw new Unavailable("cannot load " + file + " (a noexec directory? set -D" + DIR_PROPERTY
                        + "): " + e.getMessage());
            }
            Linker linker = Linker.nativeLinker();
            MethodHandle init = linker.downcallHandle(find(lookup, "panlite_init"), FunctionDescriptor.of(JAVA_INT,
                    ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            // Never critical: reset can commit and run user code, exec runs whole statements.
            resetClear = linker.downcallHandle(find(lookup, "panlite_reset_clear"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS));
            execNoArgs = linker.downcallHandle(find(lookup, "panlite_exec_no_args"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
            int rc = (int) init.invokeExact(sqliteSymbol("sqlite3_prepare_v3"), sqliteSymbol("sqlite3_step"),
                    sqliteSymbol("sqlite3_reset"), sqliteSymbol("sqlite3_clear_bindings"),
                    sqliteSymbol("sqlite3_finalize"), sqliteSymbol("sqlite3_column_count"));
            if (rc != 0) {
                throw new Unavailable("panlite_init returned " + rc
                        + (rc == -2 ? " (already bound to another SQLite library in this process)" : ""));
            }
            path = file.toString();
        } catch (Unavailable e) {
            reason = e.getMessage();
        } catch (Throwable t) {
            reason = "unexpected failure: " + t;
        }
        if (reason != null) {
            resetClear = null;
            execNoArgs = null;
            path = null;
        }
        RESET_CLEAR = resetClear;
        EXEC_NO_ARGS = execNoArgs;
        PATH = path;
        REASON = reason;
        ACTIVE = reason == null;
        try {
            System.Logger log = System.getLogger(NativeHelper.class.getName());
            if (ACTIVE) {
                log.log(System.Logger.Level.DEBUG, "Panlite native helper loaded from " + PATH);
            } else {
                log.log(level, "Panlite native helper not used: " + REASON + "; fused calls use plain downcalls");
            }
        } catch (RuntimeException ignored) {
            // logging must never break class initialisation
        }
    }

    private NativeHelper() {}

    private static MemorySegment find(SymbolLookup lookup, String name) throws Unavailable {
        return lookup.find(name).orElseThrow(() -> new Unavailable(name + " is missing from the helper library"));
    }

    private static MemorySegment sqliteSymbol(String name) throws Unavailable {
        MemorySegment address = Sqlite.symbol(name);
        if (address.address() == 0) {
            throw new Unavailable("the loaded SQLite has no " + name);
        }
        return address;
    }

    // ------------------------------------------------------------------ the fused calls

    /** sqlite3_reset then sqlite3_clear_bindings (always), in one crossing; returns reset's code. */
    static int resetClear(long stmt) {
        try {
            return (int) RESET_CLEAR.invokeExact(MemorySegment.ofAddress(stmt));
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }

    /** {@link Fused#execNoArgs} in one crossing; the text goes through the scratch buffer. */
    static int execNoArgs(Scratch scratch, long db, byte[] sql, int offset, int length) {
        MemorySegment text = scratch.copyIn(sql, offset, length);
        MemorySegment outStmt = scratch.helperOutStmt();
        MemorySegment outTail = scratch.helperOutTail();
        int rc;
        scratch.holdText(); // C reads the text until it returns; a callback's SQL takes another buffer
        try {
            rc = (int) EXEC_NO_ARGS.invokeExact(MemorySegment.ofAddress(db), text, length, outStmt, outTail);
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        } finally {
            scratch.releaseText();
        }
        int tail = outTail.get(JAVA_INT, 0);
        scratch.setResult(outStmt.get(ADDRESS, 0).address(), tail < 0 ? tail : offset + tail); // -1: prepare failed
        return rc;
    }

    // ------------------------------------------------------------------ diagnostics

    /** The loaded helper file, or null when the helper is not active. */
    static String path() {
        return PATH;
    }

    /** Why the helper is not active, or null when it is. */
    static String reason() {
        return REASON;
    }

    // ------------------------------------------------------------------ platform names

    /** Normalised OS name; keep in step with src/main/native/build.sh. */
    static String os() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            return "linux";
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return "macos";
        }
        if (os.startsWith("windows")) {
            return "windows";
        }
        if (os.startsWith("freebsd")) {
            return "freebsd";
        }
        return os.replaceAll("[^a-z0-9]", "");
    }

    /** Normalised CPU architecture; keep in step with src/main/native/build.sh. */
    static String arch() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64", "x86-64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            case "x86", "i386", "i486", "i586", "i686" -> "x86";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
    }

    /** The library's file name on this OS (without the hash). */
    static String libraryName() {
        return switch (os()) {
            case "macos" -> "lib" + BASE_NAME + ".dylib";
            case "windows" -> BASE_NAME + ".dll";
            default -> "lib" + BASE_NAME + ".so";
        };
    }

    /** The classpath resource holding this platform's helper. */
    static String resourceName() {
        return "/native/" + os() + "-" + arch() + "/" + libraryName();
    }

    /** Why the build left the helper out (its NOT-BUILT.txt, e.g. no C compiler), or null. */
    static String notBuiltReason() {
        String resource = resourceName();
        try (InputStream in = NativeHelper.class.getResourceAsStream(
                resource.substring(0, resource.lastIndexOf('/') + 1) + "NOT-BUILT.txt")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code libpanlite_helper-<sha256 prefix>.so}: a new build never reuses an old file. */
    static String fileName(byte[] content) {
        String hash;
        try {
            hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content))
                    .substring(0, HASH_HEX_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        String name = libraryName();
        int dot = name.lastIndexOf('.');
        return name.substring(0, dot) + "-" + hash + name.substring(dot);
    }

    /**
     * Where the helper is extracted: {@code -Dpanlite.helper.dir}, else the per-user cache:
     * {@code $XDG_CACHE_HOME/panlite} or {@code ~/.cache/panlite}; macOS {@code ~/Library/Caches/panlite};
     * Windows {@code %LOCALAPPDATA%\panlite}.
     */
    static Path cacheDir() {
        String chosen = System.getProperty(DIR_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            return Path.of(chosen.strip()).toAbsolutePath();
        }
        String home = System.getProperty("user.home", "");
        switch (os()) {
            case "macos":
                return Path.of(home, "Library", "Caches", "panlite");
            case "windows": {
                String local = System.getenv("LOCALAPPDATA");
                return local != null && !local.isBlank() ? Path.of(local, "panlite")
                        : Path.of(home, "AppData", "Local", "panlite");
            }
            default: {
                String xdg = System.getenv("XDG_CACHE_HOME");
                // the XDG spec says a relative value is invalid and must be ignored
                return xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg, "panlite")
                        : Path.of(home, ".cache", "panlite");
            }
        }
    }

    /**
     * Puts {@code content} at {@code dir/fileName} and returns that path. An existing file with the
     * same content is reused. Otherwise the content goes to a temporary file in the same directory,
     * is flushed to disk, and is renamed over the target atomically: a concurrent extractor (another
     * thread or JVM) either sees no file or a complete one, never a half-written one.
     */
    static Path extract(byte[] content, Path dir, String fileName) throws IOException {
        createPrivateDirectories(dir);
        Path target = dir.resolve(fileName);
        if (sameContent(target, content)) {
            return target;
        }
        Path tmp = Files.createTempFile(dir, "." + fileName + ".", ".tmp");
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                var buffer = java.nio.ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                // the content is the jar's, no secret: readable by others sharing a -Dpanlite.helper.dir
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // e.g. Windows will not replace a file another JVM has loaded: fine if it is complete
                if (sameContent(target, content)) {
                    return target;
                }
                throw e;
            }
            return target;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectory(dir,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }

    private static boolean sameContent(Path file, byte[] content) {
        try {
            return Files.isRegularFile(file) && Files.size(file) == content.length
                    && Arrays.equals(Files.readAllBytes(file), content);
        } catch (IOException e) {
            return false;
        }
    }
}
