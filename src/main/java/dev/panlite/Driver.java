package dev.panlite;

import dev.panlite.engine.Database;
import dev.panlite.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver for {@code jdbc:sqlite:} URLs. Registered with DriverManager on class load and
 * through {@code META-INF/services/java.sql.Driver} / {@code module-info}; can also be created
 * directly ({@code new dev.panlite.Driver().connect(url, props)}).
 */
public final class Driver implements java.sql.Driver {
    public static final int MAJOR_VERSION = 0;
    public static final int MINOR_VERSION = 1;
    public static final String NAME = "Panlite";
    public static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION;

    static {
        try {
            DriverManager.registerDriver(new Driver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A driver instance; DriverManager already holds one, frameworks may create their own. */
    public Driver() {
        // nothing to set up: the SQLite library is loaded once per process, on first use
    }

    /** Returns null for URLs that are not {@code jdbc:sqlite:}, as JDBC asks, so DriverManager tries the next driver. */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Config config = Config.parse(url, info);
        return new JdbcConnection(Database.open(config.engine()), config);
    }

    @Override
    public boolean acceptsURL(String url) {
        return Config.acceptsURL(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return Config.propertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** Not JDBC compliant in the letter (SQLite lacks parts of SQL-92 entry level), as every SQLite driver. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("Panlite logs through System.Logger");
    }
}
