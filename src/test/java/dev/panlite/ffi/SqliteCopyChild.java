package dev.panlite.ffi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Run in a child JVM by {@link NativeHelperTest}: reports, one {@code key=value} a line, which SQLite
 * files this process has mapped, whether the function pointers handed to the helper lie inside the
 * copy named by {@code -Dpanlite.sqlite.library} (if set), and runs the fused calls once.
 *
 * <p>Arguments: the path of the original library (must not be mapped).
 */
public final class SqliteCopyChild {
    private SqliteCopyChild() {}

    public static void main(String[] args) throws IOException {
        String chosen = System.getProperty(SqliteLibrary.LIBRARY_PROPERTY);
        String copy = chosen == null ? "(none)" : Path.of(chosen).toRealPath().toString();
        String original = Path.of(args[0]).toRealPath().toString();

        System.out.println("loadError=" + SqliteLibrary.loadError());
        System.out.println("helperActive=" + Fused.helperActive());
        System.out.println("helperStatus=" + Fused.helperStatus());
        System.out.println("helperPath=" + NativeHelper.path());

        // Run both fused calls (class init of NativeHelper has happened above).
        Scratch scratch = new Scratch();
        Scratch.Opened opened = Scratch.open(":memory:", Sqlite.OPEN_READWRITE | Sqlite.OPEN_CREATE
                | Sqlite.OPEN_NOMUTEX | Sqlite.OPEN_EXRESCODE);
        byte[] sql = "CREATE TABLE t(x); INSERT INTO t VALUES(41); SELECT x + 1 FROM t; -- end"
                .getBytes(StandardCharsets.UTF_8);
        int rc = Fused.execNoArgs(scratch, opened.db(), sql, 0, sql.length, false);
        long stmt = scratch.preparedStmt();
        System.out.println("exec=" + rc + " " + (stmt == 0 ? "none" : Sqlite.columnLong(stmt, 0)));
        System.out.println("resetClear=" + Fused.resetClear(stmt));
        Sqlite.finalizeStmt(stmt);
        Sqlite.closeV2(opened.db());
        scratch.close();

        List<String> maps = Files.readAllLines(Path.of("/proc/self/maps"));
        System.out.println("copyMapped=" + maps.stream().anyMatch(line -> line.endsWith(" " + copy)));
        System.out.println("originalMapped=" + maps.stream().anyMatch(line -> line.endsWith(" " + original)));
        System.out.println("otherSqliteMapped=" + maps.stream().anyMatch(
                line -> line.contains("libsqlite3") && !line.endsWith(" " + copy)));
        String helper = NativeHelper.path() == null ? null : Path.of(NativeHelper.path()).toRealPath().toString();
        System.out.println("helperMapped=" + (helper != null && maps.stream().anyMatch(line -> line.endsWith(" " + helper))));
        // the pointers panlite_init received: each must lie in a mapping of the copy
        boolean allInCopy = true;
        for (String name : NativeHelper.SQLITE_FUNCTIONS) {
            allInCopy &= inMappingOf(maps, Sqlite.symbol(name).address(), copy);
        }
        System.out.println("pointersInCopy=" + allInCopy);
    }

    private static boolean inMappingOf(List<String> maps, long address, String file) {
        for (String line : maps) {
            if (!line.endsWith(" " + file)) {
                continue;
            }
            String[] range = line.substring(0, line.indexOf(' ')).split("-");
            long from = Long.parseUnsignedLong(range[0], 16);
            long to = Long.parseUnsignedLong(range[1], 16);
            if (Long.compareUnsigned(address, from) >= 0 && Long.compareUnsigned(address, to) < 0) {
                return true;
            }
        }
        return false;
    }
}
