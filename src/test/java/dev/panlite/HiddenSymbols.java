package dev.panlite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Makes a copy of a shared library (ELF64, little-endian: Linux on x86_64 and aarch64) in which
 * some exported functions are no longer exported, the way an older SQLite or a build with an
 * {@code SQLITE_OMIT_*} option lacks them. Each named entry of the dynamic symbol table has its
 * binding changed from GLOBAL to LOCAL: dlsym (FFM's SymbolLookup) no longer finds it, while the
 * library's own references to it (its relocations name the same entry) still resolve to it, so the
 * copy loads and works as before otherwise.
 */
public final class HiddenSymbols {
    private HiddenSymbols() {}

    /** Copies {@code library} to {@code copy} with {@code names} hidden; fails if one is not exported by it. */
    public static void copyHiding(Path library, Path copy, List<String> names) throws IOException {
        byte[] bytes = Files.readAllBytes(library);
        ByteBuffer elf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (elf.getInt(0) != 0x464c457f || bytes[4] != 2 || bytes[5] != 1) {
            throw new IOException(library + " is not a little-endian ELF64 file");
        }
        long shoff = elf.getLong(0x28);
        int shentsize = Short.toUnsignedInt(elf.getShort(0x3a));
        int shnum = Short.toUnsignedInt(elf.getShort(0x3c));
        Set<String> left = new HashSet<>(names);
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            if (elf.getInt(sh + 4) != 11) { // SHT_DYNSYM
                continue;
            }
            int symOffset = (int) elf.getLong(sh + 0x18);
            int symSize = (int) elf.getLong(sh + 0x20);
            int entsize = (int) elf.getLong(sh + 0x38);
            int strSection = (int) (shoff + (long) elf.getInt(sh + 0x28) * shentsize); // sh_link: .dynstr
            int strOffset = (int) elf.getLong(strSection + 0x18);
            for (int sym = symOffset; sym < symOffset + symSize; sym += entsize) {
                String name = cString(bytes, strOffset + elf.getInt(sym));
                int info = bytes[sym + 4] & 0xff;
                if (left.remove(name) && (info >> 4) != 0) {
                    bytes[sym + 4] = (byte) (info & 0x0f); // STB_LOCAL, same type
                }
            }
        }
        if (!left.isEmpty()) {
            throw new IOException(library + " does not export " + left);
        }
        Files.write(copy, bytes);
    }

    private static String cString(byte[] bytes, int at) {
        int end = at;
        while (bytes[end] != 0) {
            end++;
        }
        return new String(bytes, at, end - at, StandardCharsets.ISO_8859_1);
    }
}
