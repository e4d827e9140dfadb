package dev.panlite.ffi;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The files the driver writes outside the application's own (extracted native libraries, the
 * copies of {@code ::resource:} databases): owner-only where the file system is POSIX (files
 * {@code rw-------}, directories it creates {@code rwx------}), as the incumbent makes them.
 *
 * <p>Unique names come from the process id, the clock and a counter, not from
 * {@link Files#createTempFile}: that seeds a {@code SecureRandom}, which on Windows under Wine calls
 * {@code NetworkInterface.getAll()}, which Wine lacks, and the JVM dies. {@code CREATE_NEW} makes
 * a name taken by anyone else (another JVM) a retry, never a shared file.
 */
public final class PrivateFiles {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_DIR =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final AtomicLong COUNTER = new AtomicLong();

    private PrivateFiles() {}

    /** A new empty file {@code dir/<prefix><unique><suffix>}, owner-only. */
    public static Path createFile(Path dir, String prefix, String suffix) throws IOException {
        String base = prefix + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime()) + "-";
        while (true) {
            Path file = dir.resolve(base + COUNTER.incrementAndGet() + suffix);
            try {
                return POSIX ? Files.createFile(file, OWNER_ONLY_FILE) : Files.createFile(file);
            } catch (FileAlreadyExistsException taken) {
                // another JVM's name: the counter gives the next one
            }
        }
    }

    /** Creates {@code dir} (owner-only) and its missing parents (the file system's defaults), unless it exists. */
    static void createDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            if (POSIX) {
                Files.createDirectory(dir, OWNER_ONLY_DIR);
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }
}
