package dev.panlite.spring.boot;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The environment defaults for each kind of URL, read from the URL as SQLite reads it (issue 27,
 * items 17 to 19): a Panlite setting whose text looks like an SQLite parameter changes nothing,
 * SQLite's parameters count as SQLite counts them, a placeholder only a later property source
 * resolves does not fail the start, and Flyway's and Liquibase's own jdbc:sqlite: URLs get the driver.
 */
class SqliteDataSourceDefaultsTest {
    private static StandardEnvironment apply(String... properties) {
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < properties.length; i += 2) {
            given.put(properties[i], properties[i + 1]);
        }
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application", given));
        SqliteDataSourceDefaults.apply(environment, LogFactory.getLog(SqliteDataSourceDefaultsTest.class));
        return environment;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            app.db                                        | FILE
            app.db?journal_mode=memory                    | FILE
            app.db?JOURNAL_MODE=MEMORY                    | FILE
            file:app.db?journal_mode=memory               | FILE
            file:app.db?journal_mode=memory&cache=shared  | FILE
            :memory:                                      | PRIVATE
            :memory:?foreign_keys=true                    | PRIVATE
            :MEMORY:                                      | FILE
            ''                                            | PRIVATE
            file:                                         | PRIVATE
            file:?cache=shared                            | PRIVATE
            file::memory:                                 | PRIVATE
            file::memory:?cache=shared                    | SHARED_MEMORY
            file::memory:?cache=shared&cache=private      | PRIVATE
            FILE::memory:?cache=shared                    | FILE
            file:x.db?mode=memory                         | PRIVATE
            file:x.db?mode=memory&cache=shared            | SHARED_MEMORY
            file:x.db?cache=shared&mode=memory            | SHARED_MEMORY
            file:x.db?mode=memory&mode=rwc                | FILE
            file:x.db?mode=MEMORY                         | FILE
            file:x.db?mode=memory&cache=SHARED            | FILE
            file:x.db?%6Dode=memory                       | PRIVATE
            file:x.db?mode=memory#&cache=shared           | PRIVATE
            file:///:memory:?cache=shared                 | FILE
            file://localhost/x.db?mode=memory             | PRIVATE
            file://elsewhere/x.db?mode=memory             | FILE
            :memory:?shared_cache=true                    | PRIVATE
            file::memory:?shared_cache=true               | SHARED_MEMORY
            file::memory:?shared_cache=true&cache=private | PRIVATE
            app.db?open_mode=134                          | PRIVATE
            file:/shared?vfs=memdb                        | SHARED_MEMORY
            file:private?vfs=memdb                        | PRIVATE
            :memory:?no_such_setting=1                    | FILE
            """)
    void theDefaultsFollowTheDatabaseSqliteOpens(String rest, DatabaseKind kind) {
        assertEquals(kind, DatabaseKind.of("jdbc:sqlite:" + rest));
        StandardEnvironment environment = apply("spring.datasource.url", "jdbc:sqlite:" + rest);
        assertEquals(kind == DatabaseKind.PRIVATE ? "1" : null, environment.getProperty("spring.datasource.hikari.maximum-pool-size"),
                "one connection only for a database private to each connection");
        assertEquals(kind == DatabaseKind.FILE ? null : "always", environment.getProperty("spring.sql.init.mode"),
                "the scripts run by default only for a database that starts empty");
    }

    @Test
    void aFileWhoseJournalIsInMemoryKeepsThePoolAndTheScripts() {
        StandardEnvironment environment = apply("spring.datasource.url", "jdbc:sqlite:app.db?journal_mode=memory");
        assertEquals("dev.panlite.Driver", environment.getProperty("spring.datasource.driver-class-name"));
        assertNull(environment.getProperty("spring.datasource.hikari.maximum-pool-size"));
        assertNull(environment.getProperty("spring.sql.init.mode"));
    }

    @Test
    void aSharedInMemoryDatabaseKeepsThePoolAndRunsTheScripts() {
        StandardEnvironment environment = apply("spring.datasource.url", "jdbc:sqlite:file::memory:?cache=shared");
        assertNull(environment.getProperty("spring.datasource.hikari.maximum-pool-size"));
        assertEquals("always", environment.getProperty("spring.sql.init.mode"));
    }

    @Test
    void aPrivateInMemoryDatabaseIsOneConnectionAndRunsTheScripts() {
        StandardEnvironment environment = apply("spring.datasource.url", "jdbc:sqlite:file:x.db?mode=memory");
        assertEquals("1", environment.getProperty("spring.datasource.hikari.maximum-pool-size"));
        assertEquals("always", environment.getProperty("spring.sql.init.mode"));
    }

    @Test
    void aPlaceholderOnlyALaterPropertySourceResolvesDoesNotFailTheStart() {
        StandardEnvironment environment = assertDoesNotThrow(() -> apply("spring.datasource.url", "${later.url}",
                "spring.datasource.driver-class-name", "${later.driver}", "spring.flyway.url", "${later.url}"));
        assertFalse(environment.getPropertySources().contains(SqliteDataSourceDefaults.PROPERTY_SOURCE),
                "nothing is known about the URL yet: no defaults");
    }

    @Test
    void aSqliteUrlWhosePathResolvesLaterStillGetsTheDriver() {
        StandardEnvironment environment = assertDoesNotThrow(() -> apply("spring.datasource.url", "jdbc:sqlite:${later.dir}/app.db"));
        assertEquals("dev.panlite.Driver", environment.getProperty("spring.datasource.driver-class-name"));
        assertEquals("0", environment.getProperty("spring.datasource.hikari.max-lifetime"));
    }

    @Test
    void flywayAndLiquibaseUrlsOnSqliteGetTheDriver() {
        StandardEnvironment environment = apply("spring.flyway.url", "jdbc:sqlite:app.db", "spring.liquibase.url", "jdbc:sqlite:app.db");
        assertEquals("dev.panlite.Driver", environment.getProperty("spring.flyway.driver-class-name"));
        assertEquals("dev.panlite.Driver", environment.getProperty("spring.liquibase.driver-class-name"));
        assertNull(environment.getProperty("spring.datasource.driver-class-name"), "no spring.datasource.url: nothing for it");
    }

    @Test
    void migrationsRunOnTheDriverTheUserChoseForTheApplication() {
        StandardEnvironment environment = apply("spring.datasource.url", "jdbc:sqlite:app.db",
                "spring.datasource.driver-class-name", "org.sqlite.JDBC", "spring.flyway.url", "jdbc:sqlite:app.db",
                "spring.liquibase.url", "jdbc:sqlite:app.db", "spring.liquibase.driver-class-name", "com.example.Driver");
        assertEquals("org.sqlite.JDBC", environment.getProperty("spring.flyway.driver-class-name"));
        assertEquals("com.example.Driver", environment.getProperty("spring.liquibase.driver-class-name"), "the user's own wins");
    }

    @Test
    void otherUrlsGetNothing() {
        StandardEnvironment environment = apply("spring.datasource.url", "jdbc:h2:mem:x", "spring.flyway.url", "jdbc:h2:mem:x");
        assertFalse(environment.getPropertySources().contains(SqliteDataSourceDefaults.PROPERTY_SOURCE));
    }
}
