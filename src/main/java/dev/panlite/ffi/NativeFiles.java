package dev.panlite.ffi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Native libraries shipped in the jar as {@code native/<platform>/<libname>} (the bundled SQLite,
 * the separate helper): this platform's directory name, and extraction to a per-user cache
 * directory with a content hash in the file name and an atomic rename, so concurrent JVMs never load
 * a half-written file and a new build never reuses an old file. Keep the names in step with
 * {@code src/main/native/platform.sh}, which puts the libraries there.
 */
final class NativeFiles {
    /** A directory to extract native libraries to instead of the per-user cache directory. */
    static final String DIR_PROPERTY = "panlite.native.dir";
    /** The older name of {@link #DIR_PROPERTY}, still honoured. */
    static final String OLD_DIR_PROPERTY = "panlite.helper.dir";

    private static final int HASH_HEX_CHARS = 16;
    private static final String PLATFORM = os() + "-" + arch() + (os().equals("linux") && isMusl() ? "-musl" : "");

    private NativeFiles() {}

    /** Normalised OS name. */
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

    /** Normalised CPU architecture. */
    static String arch() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64", "x86-64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            case "x86", "i386", "i486", "i586", "i686" -> "x86";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
    }

    /**
     * Whether this JVM runs on musl (Alpine): the C library this process has mapped, from
     * /proc/self/maps (musl's loader is its libc, ld-musl-*.so.1); where that cannot be read, an
     * installed musl loader with no glibc loader beside it. Not the text of {@code ldd}, which
     * differs between versions and may not be installed.
     */
    static boolean isMusl() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1)) {
                if (line.contains("/ld-musl-") || line.contains("/libc.musl-")) {
                    return true;
                }
                if (line.contains("/libc.so.6") || line.contains("/ld-linux")) {
                    return false;
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: look at what is installed
        }
        return hasFile(Path.of("/lib"), "ld-musl-*.so.1") && !hasFile(Path.of("/lib64"), "ld-linux-*.so.2")
                && !hasFile(Path.of("/lib"), "ld-linux-*.so.*");
    }

    private static boolean hasFile(Path dir, String glob) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, glob)) {
            return files.iterator().hasNext();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** This platform's directory under native/: linux-x86_64, linux-aarch64-musl, macos-aarch64, windows-x86_64, ... */
    static String platform() {
        return PLATFORM;
    }

    /** The file name of library {@code base} on this OS: libbase.so, libbase.dylib, base.dll. */
    static String libraryName(String base) {
        return switch (os()) {
            case "macos" -> "lib" + base + ".dylib";
            case "windows" -> base + ".dll";
            default -> "lib" + base + ".so";
        };
    }

    /** The classpath resource holding this platform's library {@code base}. */
    static String resourceName(String base) {
        return "/native/" + platform() + "/" + libraryName(base);
    }

    /** The text of this platform's {@code native/<platform>/<file>} (a build's NOT-BUILT note), or null. */
    static String note(String file) {
        try (InputStream in = NativeFiles.class.getResourceAsStream("/native/" + platform() + "/" + file)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return null;
        }
    }

    /** The resource's bytes, or null when the jar has none. */
    static byte[] read(String resource) throws IOException {
        try (InputStream in = NativeFiles.class.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    /** {@code libname-<sha256 prefix>.so}: a new build never reuses an old file. */
    static String fileName(String libraryName, byte[] content) {
        String hash;
        try {
            hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content))
                    .substring(0, HASH_HEX_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        int dot = libraryName.lastIndexOf('.');
        return libraryName.substring(0, dot) + "-" + hash + libraryName.substring(dot);
    }

    /**
     * Where libraries are extracted: {@code -Dpanlite.native.dir} (or its older name
     * {@code -Dpanlite.helper.dir}), else the per-user cache: {@code $XDG_CACHE_HOME/panlite} or
     * {@code ~/.cache/panlite}; macOS {@code ~/Library/Caches/panlite}; Windows
     * {@code %LOCALAPPDATA%\panlite}. Never the temporary directory, which may be mounted noexec.
     */
    static Path cacheDir() {
        String chosen = System.getProperty(DIR_PROPERTY);
        if (chosen == null || chosen.isBlank()) {
            chosen = System.getProperty(OLD_DIR_PROPERTY);
        }
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
     * Puts {@code content} at {@code dir/fileName} (owner-only, in a directory created owner-only:
     * {@link PrivateFiles}) and returns that path. An existing file with the
     * same content is reused. Otherwise the content goes to a temporary file in the same directory,
     * is flushed to disk, and is renamed over the target atomically: a concurrent extractor (another
     * thread or JVM) either sees no file or a complete one, never a half-written one.
     */
    static Path extract(byte[] content, Path dir, String fileName) throws IOException {
        PrivateFiles.createDirectories(dir);
        Path target = dir.resolve(fileName);
        if (sameContent(target, content)) {
            return target;
        }
        Path tmp = PrivateFiles.createFile(dir, "." + fileName + ".", ".tmp"); // owner-only, as the target then is
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                var buffer = java.nio.ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
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

    private static boolean sameContent(Path file, byte[] content) {
        try {
            return Files.isRegularFile(file) && Files.size(file) == content.length
                    && Arrays.equals(Files.readAllBytes(file), content);
        } catch (IOException e) {
            return false;
        }
    }
}
