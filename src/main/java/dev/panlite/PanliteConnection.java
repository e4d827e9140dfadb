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

    /** How many statements SQLite holds prepared on this connection (cached ones included). */
    int preparedStatementCount() throws SQLException;
}
