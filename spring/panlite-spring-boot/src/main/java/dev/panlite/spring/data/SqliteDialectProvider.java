package dev.panlite.spring.data;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import org.springframework.data.jdbc.core.dialect.DialectResolver;
import org.springframework.data.relational.core.dialect.Dialect;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * Tells Spring Data JDBC's DialectResolver to use {@link SqliteDialect} for a SQLite database
 * (product name "SQLite", from Panlite or any other driver). Registered in META-INF/spring.factories
 * under the key Spring Data 3.5 and 4.0 read,
 * {@code org.springframework.data.jdbc.core.dialect.DialectResolver$JdbcDialectProvider}; its
 * subclass {@link LegacySqliteDialectProvider} under the older key they still read.
 */
public class SqliteDialectProvider implements DialectResolver.JdbcDialectProvider {
    @Override
    public Optional<Dialect> getDialect(JdbcOperations operations) {
        return Optional.ofNullable(operations.execute((ConnectionCallback<Dialect>) SqliteDialectProvider::dialectOf));
    }

    private static Dialect dialectOf(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        return product != null && product.toLowerCase(Locale.ROOT).contains("sqlite") ? SqliteDialect.INSTANCE : null;
    }
}
