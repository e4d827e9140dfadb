package dev.panlite.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** For tests: what SQLite itself says of a connection's state, beside what JDBC reports. */
public final class SqliteState {
    private SqliteState() {}

    /**
     * Whether SQLite has a transaction open on {@code c} ({@code sqlite3_get_autocommit} is 0);
     * false once the connection is closed. {@code c} may be a pool's handle: it is unwrapped.
     */
    public static boolean inTransaction(Connection c) throws SQLException {
        JdbcConnection physical = c.unwrap(JdbcConnection.class);
        try (var held = physical.db.hold()) {
            return !physical.db.isClosed() && physical.db.transactions().inTransaction();
        }
    }
}
