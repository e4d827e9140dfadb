package dev.panlite.ffi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether an address lies in memory the process may execute: an extension's entry point that names a
 * variable, not a function, would otherwise be called by SQLite and crash the JVM. Linux only, from
 * {@code /proc/self/maps} (a plain file read: no native call); elsewhere the answer is unknown.
 */
final class ExecutableMemory {
    private static final Path MAPS = Path.of("/proc/self/maps");

    private ExecutableMemory() {}

    /** TRUE or FALSE on Linux; null where the process's mappings cannot be read. */
    static Boolean contains(long address) {
        List<String> lines;
        try {
            lines = Files.isReadable(MAPS) ? Files.readAllLines(MAPS) : null;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
        if (lines == null) {
            return null;
        }
        for (String line : lines) { // "start-end perms offset dev inode [path]", hexadecimal addresses
            int dash = line.indexOf('-');
            int space = line.indexOf(' ', dash + 1);
            if (dash <= 0 || space < 0 || line.length() < space + 4) {
                continue;
            }
            long start = Long.parseUnsignedLong(line, 0, dash, 16);
            long end = Long.parseUnsignedLong(line, dash + 1, space, 16);
            if (Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0) {
                return line.charAt(space + 3) == 'x';
            }
        }
        return Boolean.FALSE; // mapped nowhere
    }
}
