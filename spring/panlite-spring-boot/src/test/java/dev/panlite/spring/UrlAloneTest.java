package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.panlite.PanliteConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * spring.datasource.url=jdbc:sqlite:... alone gives a HikariCP pool on Panlite, with pool defaults
 * for SQLite that the user's settings override; the user's driver-class-name wins; with the
 * incumbent (org.sqlite.JDBC) on the classpath too (it is, in this module's tests) Panlite serves the
 * URL and one log line says so; spring.sql.init runs for in-memory databases, not for files.
 */
@ExtendWith(OutputCaptureExtension.class)
class UrlAloneTest {
    @TempDir
    Path dir;

    private String url() {
        return "jdbc:sqlite:" + dir.resolve("app.db");
    }

    private static HikariDataSource hikari(ConfigurableApplicationContext context) {
        return assertInstanceOf(HikariDataSource.class, context.getBean(DataSource.class));
    }

    @Test
    void theUrlAloneGivesAHikariPoolOnPanliteWithDefaultsForSqlite(CapturedOutput output) throws SQLException {
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=" + url() + "?foreign_keys=true")) {
            HikariDataSource pool = hikari(context);
            assertEquals("dev.panlite.Driver", pool.getDriverClassName());
            assertEquals(0, pool.getMaxLifetime());
            assertEquals(0, pool.getKeepaliveTime());
            assertEquals(10, pool.getMaximumPoolSize()); // HikariCP's own default: files keep it
            try (Connection c = pool.getConnection()) {
                assertTrue(c.isWrapperFor(PanliteConnection.class));
            }
            assertEquals(1, new JdbcTemplate(pool).queryForObject("PRAGMA foreign_keys", Integer.class)); // the URL's settings apply
            new JdbcTemplate(pool).execute("CREATE TABLE t(x)");
            assertTrue(Files.exists(dir.resolve("app.db")));
        }
        String line = output.getOut().lines().filter(l -> l.contains("is served by")).findFirst().orElseThrow(
                () -> new AssertionError("no log line says which driver serves the URL:\n" + output.getOut()));
        assertTrue(line.contains(url() + " is served by Panlite (dev.panlite.Driver"), line);
        assertTrue(line.contains("org.sqlite.JDBC is on the classpath too and unused"), line);
        assertFalse(line.contains("foreign_keys"), "the query string stays out of the log: " + line);
    }

    @Test
    void theUsersOwnSettingsWin(CapturedOutput output) throws SQLException {
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=" + url(),
                "--spring.datasource.driver-class-name=org.sqlite.JDBC", "--spring.datasource.hikari.max-lifetime=600000",
                "--spring.datasource.hikari.maximum-pool-size=3")) {
            HikariDataSource pool = hikari(context);
            assertEquals("org.sqlite.JDBC", pool.getDriverClassName());
            assertEquals(600_000, pool.getMaxLifetime());
            assertEquals(3, pool.getMaximumPoolSize());
            try (Connection c = pool.getConnection()) {
                assertFalse(c.isWrapperFor(PanliteConnection.class));
                assertEquals("org.sqlite.jdbc4.JDBC4Connection", c.unwrap(Connection.class).getClass().getName());
            }
        }
        assertTrue(output.getOut().contains(url() + " is served by org.sqlite.JDBC (spring.datasource.driver-class-name)"),
                output.getOut());
    }

    @Test
    void anInMemoryDatabaseIsOneConnectionKeptForThePoolsLifeAndRunsSchemaSql() {
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=jdbc:sqlite::memory:",
                "--spring.sql.init.schema-locations=classpath:panlite-test/schema.sql")) {
            HikariDataSource pool = hikari(context);
            assertEquals(1, pool.getMaximumPoolSize());
            assertEquals(1, pool.getMinimumIdle());
            assertEquals(0, pool.getIdleTimeout());
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            jdbc.update("INSERT INTO tag (name, uses) VALUES ('a', 1)"); // the table schema.sql made
            assertEquals(1, jdbc.queryForObject("SELECT count(*) FROM tag", Integer.class)); // same database, next borrow
        }
    }

    @Test
    void aFileWhoseJournalIsInMemoryIsAFile() {
        // journal_mode=memory is a Panlite setting, not SQLite's mode=memory (issue 27, item 17)
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=" + url() + "?journal_mode=memory",
                "--spring.sql.init.schema-locations=classpath:panlite-test/schema.sql")) {
            HikariDataSource pool = hikari(context);
            assertEquals(10, pool.getMaximumPoolSize());
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            assertEquals("memory", jdbc.queryForObject("PRAGMA journal_mode", String.class));
            assertThrows(org.springframework.jdbc.BadSqlGrammarException.class, () -> jdbc.queryForList("SELECT * FROM tag"),
                    "schema.sql ran on a file");
        }
    }

    @Test
    void aSharedInMemoryDatabaseKeepsThePoolAndRunsSchemaSql() throws SQLException {
        try (ConfigurableApplicationContext context = TestApp.start("--spring.datasource.url=jdbc:sqlite:file::memory:?cache=shared",
                "--spring.sql.init.schema-locations=classpath:panlite-test/schema.sql")) {
            HikariDataSource pool = hikari(context);
            assertEquals(10, pool.getMaximumPoolSize()); // every connection sees the same database
            try (Connection first = pool.getConnection(); Connection second = pool.getConnection()) {
                first.createStatement().executeUpdate("INSERT INTO tag (name, uses) VALUES ('a', 1)"); // the table schema.sql made
                try (var rs = second.createStatement().executeQuery("SELECT count(*) FROM tag")) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getInt(1));
                }
            }
        }
    }

    @Test
    void aFileRunsNoSchemaSqlUnlessAsked() {
        String[] args = {"--spring.datasource.url=" + url(), "--spring.sql.init.schema-locations=classpath:panlite-test/schema.sql"};
        try (ConfigurableApplicationContext context = TestApp.start(args)) {
            JdbcTemplate jdbc = new JdbcTemplate(hikari(context));
            assertThrows(org.springframework.jdbc.BadSqlGrammarException.class, () -> jdbc.queryForList("SELECT * FROM tag"));
        }
        try (ConfigurableApplicationContext context = TestApp.start(args[0], args[1], "--spring.sql.init.mode=always")) {
            assertEquals(0, new JdbcTemplate(hikari(context)).queryForObject("SELECT count(*) FROM tag", Integer.class));
        }
    }
}
