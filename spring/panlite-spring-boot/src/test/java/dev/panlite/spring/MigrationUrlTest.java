package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import liquibase.integration.spring.SpringLiquibase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * spring.flyway.url and spring.liquibase.url on jdbc:sqlite: migrate through Panlite, as the
 * application runs (issue 27, item 19): Boot would otherwise derive the incumbent's org.sqlite.JDBC
 * from the URL, and fail without it, or migrate through it while the application runs on Panlite.
 * The incumbent is on this test classpath, so without the module's default the migration's
 * connections are the incumbent's.
 */
class MigrationUrlTest {
    @TempDir
    Path dir;

    private String url() {
        return "jdbc:sqlite:" + dir.resolve("app.db");
    }

    private static void assertPanlite(DataSource migrations) throws SQLException {
        try (Connection c = migrations.getConnection()) {
            assertTrue(c.isWrapperFor(PanliteConnection.class), "the migration runs on " + c.getClass().getName());
        }
    }

    @Test
    void flywaysOwnUrlMigratesThroughPanlite() throws SQLException {
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=" + url(),
                "--spring.flyway.enabled=true", "--spring.flyway.url=" + url(),
                "--spring.flyway.locations=classpath:panlite-test/flyway")) {
            assertPanlite(context.getBean(Flyway.class).getConfiguration().getDataSource());
            assertEquals(0, new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
                    "SELECT count(*) FROM migrated", Integer.class));
        }
    }

    @Test
    void liquibasesOwnUrlMigratesThroughPanlite() throws SQLException {
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=" + url(),
                "--spring.liquibase.enabled=true", "--spring.liquibase.url=" + url(),
                "--spring.liquibase.change-log=classpath:panlite-test/liquibase/changelog.sql")) {
            assertPanlite(context.getBean(SpringLiquibase.class).getDataSource());
            assertEquals(0, new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
                    "SELECT count(*) FROM migrated", Integer.class));
        }
    }
}
