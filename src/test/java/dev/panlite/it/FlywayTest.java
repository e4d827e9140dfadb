package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flyway (its SQLite support is in flyway-core) migrating through Panlite. */
class FlywayTest {
    @TempDir
    Path dir;

    String url() {
        return "jdbc:sqlite:" + dir.resolve("flyway.db");
    }

    long one(String sql) throws SQLException {
        try (Connection c = new PanliteDataSource(url()).getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    @Test
    void migrationsApplyOnceAndValidate() throws SQLException {
        // As in README.md ("Use it with"): Flyway given a PanliteDataSource.
        Flyway flyway = Flyway.configure()
                .dataSource(new PanliteDataSource(url()))
                .locations("classpath:flyway/ok")
                .load();
        MigrateResult first = flyway.migrate();
        assertEquals(2, first.migrationsExecuted);
        assertEquals("2", first.targetSchemaVersion);
        assertEquals(2, one("SELECT count(*) FROM person WHERE age IS NOT NULL"));

        MigrateResult again = flyway.migrate();
        assertEquals(0, again.migrationsExecuted, "nothing left to apply");
        assertTrue(flyway.validateWithResult().validationSuccessful);
        flyway.validate();
        for (MigrationInfo info : flyway.info().all()) {
            assertEquals(MigrationState.SUCCESS, info.getState(), info.getScript());
        }
        assertEquals("2", flyway.info().current().getVersion().getVersion());
    }

    @Test
    void aFailingMigrationRollsBackWhole() throws SQLException {
        Flyway.configure().dataSource(new PanliteDataSource(url())).locations("classpath:flyway/ok").load().migrate();
        Flyway broken = Flyway.configure()
                .dataSource(new PanliteDataSource(url()))
                .locations("classpath:flyway/ok", "classpath:flyway/broken")
                .load();
        FlywayException e = assertThrows(FlywayException.class, broken::migrate);
        assertTrue(e.getMessage().contains("V3__half_done.sql"), e.getMessage());
        assertTrue(e.getMessage().contains("UNIQUE"), e.getMessage());

        assertEquals(0, one("SELECT count(*) FROM sqlite_master WHERE name = 'pet'"), "CREATE TABLE rolled back");
        assertEquals(0, one("SELECT count(*) FROM person WHERE name = 'Grace'"), "INSERT rolled back");
        assertEquals(2, one("SELECT count(*) FROM person"));
        assertEquals(0, one("SELECT count(*) FROM flyway_schema_history WHERE version = '3'"),
                "a migration rolled back whole leaves no row in the history");
        assertEquals("2", broken.info().current().getVersion().getVersion());
        assertEquals(MigrationState.PENDING, broken.info().pending()[0].getState());
    }

    /**
     * Flyway given a URL (the keys of flyway.conf): for jdbc:sqlite: it would load org.sqlite.JDBC,
     * so name the driver. (The fluent dataSource(url, user, password) ignores driver(): give it a
     * DataSource instead.)
     */
    @Test
    void urlAndDriverClassName() {
        Flyway flyway = Flyway.configure()
                .configuration(Map.of(
                        "flyway.url", url(),
                        "flyway.driver", "dev.panlite.Driver",
                        "flyway.locations", "classpath:flyway/ok"))
                .load();
        assertEquals(2, flyway.migrate().migrationsExecuted);
        assertTrue(flyway.validateWithResult().validationSuccessful);
    }
}
