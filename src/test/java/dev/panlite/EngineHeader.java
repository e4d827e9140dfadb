package dev.panlite;

import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sqlite3.h of the engine under test: the vendored one for the bundled engine
 * ({@code panlite.test.bundledHeader}), the one beside a library named by path (tools/install-libsql.sh
 * puts libSQL's headers beside libsql.so), else the installed system header.
 */
public final class EngineHeader {
    private EngineHeader() {}

    public static Path path() {
        String bundledHeader = System.getProperty("panlite.test.bundledHeader");
        if (SqliteLibrary.bundled() && bundledHeader != null) {
            return Path.of(bundledHeader);
        }
        String from = SqliteLibrary.loadedFrom();
        if (from != null && from.indexOf('/') >= 0) {
            Path beside = Path.of(from).resolveSibling("sqlite3.h");
            if (Files.isReadable(beside)) {
                return beside;
            }
        }
        return Path.of("/usr/include/sqlite3.h");
    }
}
