package dev.panlite.spring.data;

/**
 * {@link SqliteDialectProvider} under the older factory key,
 * {@code org.springframework.data.jdbc.repository.config.DialectResolver$JdbcDialectProvider}
 * (deprecated, still read by Spring Data 3.5 and 4.0), for code that resolves dialects through it.
 */
@SuppressWarnings({"deprecation", "removal"})
public class LegacySqliteDialectProvider extends SqliteDialectProvider
        implements org.springframework.data.jdbc.repository.config.DialectResolver.JdbcDialectProvider {
}
