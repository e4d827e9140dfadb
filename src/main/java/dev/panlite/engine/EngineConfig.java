package dev.panlite.engine;

import java.util.List;
import java.util.Map;

/**
 * What the engine needs to open and run one connection, built by {@code dev.panlite.Config} from a
 * URL and its Properties after validation. It lives here, not in the exported package, because it
 * holds what users must not read through the public API: the PRAGMA that sets the encryption key.
 *
 * @param filename what sqlite3_open_v2 opens ("" temporary, ":memory:", a path or a file: URI)
 * @param resource for {@code :resource:NAME} URLs, NAME (copied to a private file, opened read-only); else null
 * @param openFlags SQLITE_OPEN_* flags without NOMUTEX and EXRESCODE (the engine adds those)
 * @param readOnlyOpen the file is opened read-only: transactions begin deferred and never queue for the gate
 * @param busyTimeoutMillis how long the Java-side wait for locks lasts
 * @param loadExtensions SQL's load_extension() may load extensions
 * @param vectorSearch whether sqlite-vec is registered at open (vector_search)
 * @param pragmas PRAGMA statements to run right after open, in order
 * @param legacyPragmas deprecated PRAGMAs, each applied only where SQLite still has it
 * @param keyPragma the PRAGMA setting the encryption key, run before anything reads the file; null for none
 * @param limits SQLITE_LIMIT_* id to value
 * @param dbConfig SQLITE_DBCONFIG_* op to 0 or 1 (the hardening settings, always present)
 * @param cellSizeCheck PRAGMA cell_size_check = ON at open (hardening; SQLite's default is off)
 * @param beginSql the BEGIN a read-write transaction starts with
 * @param deferredTransactions transactions begin DEFERRED: no write gate at BEGIN
 * @param stmtCacheSize statements the LRU cache keeps (0: no cache)
 * @param cacheTxStatements BEGIN/COMMIT/ROLLBACK are prepared once per connection
 * @param leakWarning an unclosed connection is logged with where it was opened
 * @param walAutocheckpoint pages in the WAL after a commit that start a PASSIVE checkpoint (0: none)
 * @param walSizeMark pages in the WAL past which a commit records a WalSize JFR event
 * @param litestreamSocket Litestream's control socket, asked to sync when the WAL passes litestreamSyncPages; null: none
 * @param litestreamSyncPages pages in the WAL past which a commit asks Litestream to sync (in the background)
 * @param litestreamWaitPages pages in the WAL past which the write gate's next holder waits for that sync request
 * @param setlkTimeoutMillis sqlite3_setlk_timeout, SQLite's blocking locks (0: off; experiment 041)
 * @param description the settings for messages, without the key
 * @param diagnostics statement_diagnostics and the thresholds of its reports (StatementDiagnostics)
 * @param extensions load_extensions: the libraries loaded at open, in order, after every other setting
 */
public record EngineConfig(String filename, String resource, int openFlags, boolean readOnlyOpen,
        int busyTimeoutMillis, boolean loadExtensions, VectorSearch vectorSearch, List<String> pragmas,
        List<LegacyPragma> legacyPragmas,
        String keyPragma, Map<Integer, Integer> limits, Map<Integer, Integer> dbConfig, boolean cellSizeCheck,
        String beginSql, boolean deferredTransactions,
        int stmtCacheSize, boolean cacheTxStatements, boolean leakWarning, int walAutocheckpoint, int walSizeMark,
        String litestreamSocket, int litestreamSyncPages, int litestreamWaitPages, int setlkTimeoutMillis,
        String description, StatementDiagnostics.Settings diagnostics, List<Extensions.Library> extensions) {

    /** vector_search: whether the engine registers sqlite-vec on the connection at open. */
    public enum VectorSearch {
        /** false: not registered. */
        OFF,
        /** Not given (the default): registered where the engine has sqlite-vec compiled in, else nothing. */
        WHERE_COMPILED_IN,
        /** true: registered, and an engine without sqlite-vec fails the open. */
        REQUIRED
    }

    /** A deprecated PRAGMA to apply: {@code set}, then {@code query} returns no row if SQLite lacks it. */
    public record LegacyPragma(String key, String set, String query) {}

    /** The description: never the key. */
    @Override
    public String toString() {
        return description;
    }
}
