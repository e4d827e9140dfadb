package dev.panlite.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The last actions of each fuzz thread, in a memory-mapped file: the page cache keeps what was
 * written when the JVM dies in native code, so the parent can print what every thread was doing
 * at the crash. One ring of {@link #ENTRIES} fixed-size lines per thread; no system call per write.
 */
final class Trace {
    static final int ENTRIES = 64;
    static final int LINE = 160;

    private final MappedByteBuffer map;
    private final int[] next;
    private final AtomicLong seq = new AtomicLong();

    Trace(Path file, int threads) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, (long) threads * ENTRIES * LINE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        next = new int[threads];
    }

    /** Records that {@code thread} starts {@code what}; only that thread writes its ring. */
    void record(int thread, String what) {
        String line = seq.incrementAndGet() + " t" + thread + " " + what.replace('\n', ' ');
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(bytes.length, LINE - 1);
        int at = (thread * ENTRIES + next[thread]) * LINE;
        next[thread] = (next[thread] + 1) % ENTRIES;
        for (int i = 0; i < LINE - 1; i++) {
            map.put(at + i, i < len ? bytes[i] : (byte) ' ');
        }
        map.put(at + LINE - 1, (byte) '\n');
    }

    /** The recorded lines of a trace file, oldest first, the last {@code perThread} of each thread. */
    static List<String> read(Path file, int perThread) throws IOException {
        List<String> all = new ArrayList<>();
        byte[] bytes = Files.readAllBytes(file);
        int threads = bytes.length / (ENTRIES * LINE);
        for (int t = 0; t < threads; t++) {
            List<String> mine = new ArrayList<>();
            for (int i = 0; i < ENTRIES; i++) {
                int at = (t * ENTRIES + i) * LINE;
                if (Character.isDigit(bytes[at])) {
                    mine.add(new String(bytes, at, LINE - 1, StandardCharsets.UTF_8).strip());
                }
            }
            mine.sort(Comparator.comparingLong(Trace::seqOf));
            all.addAll(mine.subList(Math.max(0, mine.size() - perThread), mine.size()));
        }
        all.sort(Comparator.comparingLong(Trace::seqOf));
        return all;
    }

    private static long seqOf(String line) {
        int sp = line.indexOf(' ');
        try {
            return Long.parseLong(sp < 0 ? line : line.substring(0, sp));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // a torn line (the crash cut a write): sorts last
        }
    }
}
