package dev.panlite.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process other than this one has a database file open, for the write gate's window
 * ({@link GateWindow}): SQLite in WAL mode holds a shared POSIX lock on the file's {@code -shm}
 * for as long as a connection is open (its "DMS" byte), and a transaction holds locks on the main
 * file. On Linux {@code /proc/locks} lists every POSIX lock of the machine with its process id and
 * the file's inode, so a lock on either file by another pid means another process shares the
 * database. It is read, never written, and no file of the database is opened here: closing a
 * descriptor of a file releases every POSIX lock this process holds on it, SQLite's included.
 *
 * <p>Elsewhere (no {@code /proc/locks}: macOS, Windows) the answer is "unknown", which the window
 * treats as "yes".
 */
final class OtherProcesses {
    static final Path PROC_LOCKS = Path.of("/proc/locks");
    private static final boolean AVAILABLE = Files.isReadable(PROC_LOCKS);
    private static final String SELF = Long.toString(ProcessHandle.current().pid());

    /** Whether this platform can tell (Linux). */
    static boolean canTell() {
        return AVAILABLE;
    }

    /**
     * True when another process holds a lock on {@code database} or its {@code -shm}, or when this
     * cannot be told (no {@code /proc/locks}, unreadable attributes).
     */
    static boolean share(String database) {
        if (!AVAILABLE) {
            return true;
        }
        try {
            String main = inode(Path.of(database));
            Path shmPath = Path.of(database + "-shm");
            String shm = Files.exists(shmPath) ? inode(shmPath) : null;
            String locks = Files.readString(PROC_LOCKS, StandardCharsets.US_ASCII);
            return heldByOthers(locks, SELF, main, shm);
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** The ":inode" suffix of the device field /proc/locks prints for the file. */
    private static String inode(Path file) throws IOException {
        return ":" + Files.getAttribute(file, "unix:ino");
    }

    /**
     * Whether a line of {@code locks} (the /proc/locks format: {@code "1: POSIX ADVISORY READ 1234
     * fe:00:9977970 128 128"}, blocked requests marked {@code "->"}) names a process other than
     * {@code self} on a file whose device field ends with one of {@code inodes}.
     */
    static boolean heldByOthers(String locks, String self, String... inodes) {
        for (String line : locks.split("\n")) {
            String[] f = line.trim().split("\\s+");
            int at = f.length > 1 && f[1].equals("->") ? 2 : 1; // a blocked request: "1: -> POSIX ..."
            if (f.length < at + 6) {
                continue;
            }
            String pid = f[at + 3];
            String device = f[at + 4];
            for (String inode : inodes) {
                if (inode != null && device.endsWith(inode) && !pid.equals(self)) {
                    return true;
                }
            }
        }
        return false;
    }

    private OtherProcesses() {}
}
