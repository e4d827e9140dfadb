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
     * Makes {@code function} callable from SQL on this connection as {@code name} (the incumbent's
     * {@code org.sqlite.Function.create}). Registering a name again replaces the function.
     *
     * @param nArgs number of arguments, or -1 for any number (0..127)
     * @param deterministic same result for the same arguments: lets SQLite use it in indexes and
     *     factor calls out
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

    /** How many statements SQLite holds prepared on this connection (cached ones included). */
    int preparedStatementCount() throws SQLException;
}
