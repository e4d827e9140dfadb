package dev.panlite;

import java.sql.SQLException;
import javax.sql.ConnectionPoolDataSource;
import javax.sql.PooledConnection;

/**
 * A {@link ConnectionPoolDataSource} for application servers' and other pools that manage
 * {@link PooledConnection}s: configured exactly as {@link PanliteDataSource} (same bean properties),
 * each {@link #getPooledConnection()} opens one physical connection.
 */
public final class PanliteConnectionPoolDataSource extends PanliteDataSource implements ConnectionPoolDataSource {

    public PanliteConnectionPoolDataSource() {
    }

    public PanliteConnectionPoolDataSource(String url) {
        super(url);
    }

    @Override
    public PooledConnection getPooledConnection() throws SQLException {
        return new PanlitePooledConnection(getConnection());
    }

    /** The same as {@link #getPooledConnection()}: SQLite has no users, so both are ignored. */
    @Override
    public PooledConnection getPooledConnection(String user, String password) throws SQLException {
        return getPooledConnection();
    }
}
