package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether an extension's entry point is a function: one that names a variable would be called by
 * SQLite and crash the JVM. Two answers, on Linux: the symbol's own type, from the dynamic linker
 * (glibc's {@code dladdr1}: a function, or a variable even where the linker put read-only data beside
 * the code); else whether its address lies in memory the process may execute ({@code /proc/self/maps},
 * a plain file read). Elsewhere, and for a symbol neither can tell, the answer is unknown.
 */
final class ExecutableMemory {
    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final int RTLD_DL_SYMENT = 1;
    private static final int STT_OBJECT = 1, STT_FUNC = 2, STT_COMMON = 5, STT_TLS = 6, STT_GNU_IFUNC = 10;
    /** dladdr1, where the C library has it (glibc, 64-bit); null elsewhere (musl, macOS, Windows). */
    private static final MethodHandle DLADDR1 = ADDRESS.byteSize() != 8 || !System.getProperty("os.name").startsWith("Linux")
            ? null
            : Linker.nativeLinker().defaultLookup().find("dladdr1")
                    .map(f -> Linker.nativeLinker().downcallHandle(f,
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT)))
                    .orElse(null);

    private ExecutableMemory() {}

    /**
     * TRUE when the symbol at {@code address} is a function, FALSE when it is not (a variable, or
     * not in executable memory), null when this platform cannot tell. The library holding it must
     * stay loaded meanwhile (the caller has it open).
     */
    static Boolean isFunction(long address) {
        Boolean byType = symbolIsFunction(address);
        return byType != null ? byType : contains(address);
    }

    /** The symbol's type as the dynamic linker knows it: TRUE a function, FALSE a variable, null unknown. */
    private static Boolean symbolIsFunction(long address) {
        if (DLADDR1 == null) {
            return null;
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment info = call.allocate(ADDRESS, 4); // Dl_info: fname, fbase, sname, saddr
            MemorySegment extra = call.allocate(ADDRESS); // const ElfW(Sym) *
            int found = (int) DLADDR1.invokeExact(MemorySegment.ofAddress(address), info, extra, RTLD_DL_SYMENT);
            MemorySegment symbol = extra.get(ADDRESS, 0);
            if (found == 0 || symbol.address() == 0 || info.getAtIndex(ADDRESS, 3).address() != address) {
                return null; // not a symbol of its own (dladdr found the nearest one below it)
            }
            int type = symbol.reinterpret(24).get(JAVA_BYTE, 4) & 0xf; // Elf64_Sym: st_name (4), st_info
            return switch (type) {
                case STT_FUNC, STT_GNU_IFUNC -> Boolean.TRUE;
                case STT_OBJECT, STT_COMMON, STT_TLS -> Boolean.FALSE;
                default -> null; // no type (an assembler's label): the mapping tells
            };
        } catch (Throwable t) {
            return null;
        }
    }

    /** Whether {@code address} lies in an executable mapping: TRUE or FALSE on Linux; null where the mappings cannot be read. */
    static Boolean contains(long address) {
        String maps;
        try {
            // bytes, not UTF-8: a library's path may be in any encoding, and one such line must not hide the rest
            maps = Files.isReadable(MAPS) ? new String(Files.readAllBytes(MAPS), StandardCharsets.ISO_8859_1) : null;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
        if (maps == null) {
            return null;
        }
        for (String line : maps.split("\n")) { // "start-end perms offset dev inode [path]", hexadecimal addresses
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
