package dev.panlite;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Panlite's extras on a connection: {@code connection.unwrap(PanliteConnection.class)} works on a
 * Panlite connection and through pools that implement unwrap (HikariCP does).
 */
public interface PanliteConnection extends Connection {
    /** Counters of this connection's prepared-statement cache. */
    record CacheStats(long hits, long misses, long evictions, int size, int capacity) {}

    CacheStats statementCacheStats() throws SQLException;

    /** The settings this connection was opened with. */
    Config config();

    /** The version of the SQLite library the driver loaded, e.g. "3.40.1". */
    String sqliteVersion();

    /**
     * The source id of the SQLite library the driver loaded (its check-in date and hash, e.g.
     * "2026-10-16 14:45:20 555e07ef..."): tells the bundled engine from another build of the same
     * version. The log line written when the library loads names it too, with the file.
     */
    String sqliteSourceId();

    /**
     * The version of sqlite-vec (vector search: vec0 tables, vec_* functions) registered on this
     * connection, as its {@code vec_version()} says it ({@code "v0.1.9"}); null when none is: the
     * setting vector_search is false, or the engine has no sqlite-vec compiled in (only the bundled
     * engine has; one loaded as an extension is not counted). The log line written when the library
     * loads names the version compiled in.
     */
    String sqliteVecVersion();

    /**
     * Makes {@code function} callable from SQL on this connection as {@code name} (the incumbent's
     * {@code org.sqlite.Function.create}). Registering a name again replaces the function.
     *
     * @param nArgs number of arguments, or -1 for any number (0..127)
     * @param deterministic same result for the same arguments and no side effects: lets SQLite use
     *     it in indexes and factor calls out, and marks it innocuous (SQLITE_INNOCUOUS), so schema
     *     code (views, triggers, indexes) may call it under the default {@code trusted_schema=false};
     *     a non-deterministic function called from schema code fails with "unsafe use of f()"
     */
    void createFunction(String name, int nArgs, boolean deterministic, SqlFunction function) throws SQLException;

    /**
     * Makes an aggregate function callable from SQL as {@code name}: {@code factory} supplies one
     * {@link SqlAggregate} per group (the incumbent's {@code Function.Aggregate}).
     *
     * @param nArgs number of arguments, or -1 for any number (0..127)
     */
    void createAggregate(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends SqlAggregate> factory) throws SQLException;

    /**
     * Makes {@code order} a collation of this connection, usable as {@code COLLATE name} in columns,
     * indexes and {@code ORDER BY} (the incumbent's {@code org.sqlite.Collation.create}). A comparator
     * that throws sorts the two texts as equal: SQLite gives collations no way to fail.
     */
    void createCollation(String name, java.util.Comparator<String> order) throws SQLException;

    /** Starts telling {@code listener} of this connection's row changes, commits and rollbacks. */
    void addChangeListener(ChangeListener listener) throws SQLException;

    /** Stops telling {@code listener}; with no listener left, the SQLite hooks are removed. */
    void removeChangeListener(ChangeListener listener) throws SQLException;

    /**
     * Lets {@code handler} decide how long this connection waits for a lock another connection
     * holds, instead of {@code busy_timeout} (the incumbent's {@code BusyHandler.setHandler}); null
     * goes back to {@code busy_timeout}. It is consulted by the driver's Java-side wait, never
     * inside SQLite.
     */
    void setBusyHandler(BusyHandler handler) throws SQLException;

    /**
     * Makes an aggregate window function callable from SQL as {@code name}: {@code factory}
     * supplies one {@link SqlWindowFunction} per partition (sqlite3_create_window_function). Works
     * with sliding frames ({@code ROWS BETWEEN 2 PRECEDING AND CURRENT ROW}) and as a plain aggregate.
     *
     * @param nArgs number of arguments, or -1 for any number (0..127)
     */
    void createWindowFunction(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends SqlWindowFunction> factory) throws SQLException;

    /**
     * Calls {@code handler} every {@code instructions} virtual machine instructions of this
     * connection's statements (sqlite3_progress_handler); a non-zero answer interrupts the running
     * statement. {@code null} (or {@code instructions <= 0}) removes it. One per connection. The
     * handler must not use this connection (SQLite forbids it): such calls throw, and the exception
     * interrupts the statement.
     */
    void setProgressHandler(int instructions, ProgressHandler handler) throws SQLException;

    /**
     * The database {@code schema} ("main", "temp" or an attached name) as bytes: the image of its
     * file (sqlite3_serialize), which {@link #deserialize} or any SQLite can open.
     */
    byte[] serialize(String schema) throws SQLException;

    /**
     * Replaces the database {@code schema} of this connection with an in-memory database holding
     * {@code image} (sqlite3_deserialize; the bytes are copied, the array stays the caller's). It
     * can be read and written; nothing is written back to a file. Refused (SQLException) inside a
     * transaction, inside a callback, and while this connection has open statements or blobs: they
     * would keep pointers into the database it replaces.
     */
    void deserialize(String schema, byte[] image) throws SQLException;

    /**
     * Copies the database {@code schema} into {@code file} with SQLite's online backup, 100 pages
     * per step, telling {@code progress} (may be null) after each step. Anything thrown by
     * {@code progress} (Errors included) stops the copy and is the cause of the SQLException thrown here.
     */
    void backup(String schema, java.nio.file.Path file, BackupProgress progress) throws SQLException;

    /** The reverse of {@link #backup}: replaces the database {@code schema} with the content of {@code file}. */
    void restore(String schema, java.nio.file.Path file, BackupProgress progress) throws SQLException;

    /**
     * Incremental I/O on one BLOB or TEXT value (sqlite3_blob_open): a {@link java.sql.Blob} whose
     * streams and {@code getBytes}/{@code setBytes} read and write the database in chunks, without
     * copying the whole value. Its size is fixed (write {@code zeroblob(N)} first to make room); an
     * UPDATE of the row makes it fail with SQLITE_ABORT. {@code free()} closes it, as does closing
     * the connection. The incumbent has nothing like it.
     *
     * @param writable false opens it read-only
     */
    java.sql.Blob openBlob(String schema, String table, String column, long rowid, boolean writable)
            throws SQLException;

    /**
     * Runs a checkpoint of the main database's WAL in {@code mode} (sqlite3_wal_checkpoint_v2) and
     * says how far it got. FULL, RESTART and TRUNCATE first take this JVM's write gate (within
     * busy_timeout), as they need SQLite's write lock. Recorded as a {@code dev.panlite.Checkpoint}
     * JFR event. SQLException when the connection is closed, the mode is null, or SQLite fails
     * (inside a transaction, for one).
     */
    Checkpoint checkpoint(CheckpointMode mode) throws SQLException;

    /** How many statements SQLite holds prepared on this connection (cached ones included). */
    int preparedStatementCount() throws SQLException;

    /**
     * Loads the SQLite extension {@code library} into this connection (sqlite3_load_extension) and
     * runs its entry point, which registers its functions, collations and virtual-table modules here.
     * Loading is enabled for this one C call only ({@code SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION}), so
     * SQL's {@code load_extension()} stays refused: no SQL text can run a library (the
     * {@code enable_load_extension} setting, off by default, is what turns that on, and it stays as it
     * was). The extension stays loaded as long as the connection: a pooled connection keeps it for its
     * next borrowers. The {@code load_extensions} setting loads a list at every open.
     *
     * @param library the shared library (.so, .dylib, .dll); a relative path is taken from the working
     *     directory, never searched for on the library path; without a suffix, SQLite also tries the
     *     platform's
     * @param entryPoint the C function to call, or null for SQLite's rule: {@code sqlite3_X_init}, X
     *     the file's name without directory, {@code lib} prefix and suffix, lower-cased letters only
     *     ({@code vec0.so}: {@code sqlite3_vec_init}), else {@code sqlite3_extension_init}
     * @throws SQLException with the path and SQLite's message when the file is missing, is no library
     *     this process can load, lacks the entry point, or the entry point fails; SQLState 08003 on a
     *     closed connection; HYC00 when the SQLite library was built without extension loading
     */
    void loadExtension(java.nio.file.Path library, String entryPoint) throws SQLException;
}
