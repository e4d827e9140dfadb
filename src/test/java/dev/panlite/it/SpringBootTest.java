package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.panlite.PanliteConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * A Spring Boot application (spring-boot-starter-jdbc, no web server) configured only through
 * src/test/resources/application.properties: it starts, runs schema.sql and serves queries.
 */
class SpringBootTest {
    @TempDir
    Path dir;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Greetings greetings(JdbcTemplate jdbc) {
            return new Greetings(jdbc);
        }
    }

    /** What the application serves. */
    static class Greetings {
        private final JdbcTemplate jdbc;

        Greetings(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Transactional(readOnly = true)
        public String in(String lang) {
            return jdbc.queryForObject("SELECT text FROM greeting WHERE lang = ?", String.class, lang);
        }

        @Transactional(readOnly = true)
        public List<String> languages() {
            return jdbc.queryForList("SELECT lang FROM greeting ORDER BY lang", String.class);
        }

        @Transactional
        public void add(String lang, String text) {
            jdbc.update("INSERT INTO greeting (lang, text) VALUES (?, ?)", lang, text);
        }

        /** Two inserts in one transaction: the second fails, so neither stays. */
        @Transactional
        public void addTwice(String lang, String text) {
            add(lang, text);
            add(lang, text);
        }
    }

    ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .properties("panlite.data-dir=" + dir)
                .run();
    }

    @Test
    void startsFromApplicationPropertiesRunsSchemaSqlAndServesQueries() throws SQLException {
        try (ConfigurableApplicationContext context = start()) {
            DataSource dataSource = context.getBean(DataSource.class);
            HikariDataSource hikari = assertInstanceOf(HikariDataSource.class, dataSource);
            assertEquals("dev.panlite.Driver", hikari.getDriverClassName());
            assertEquals("panlite", hikari.getPoolName());
            assertEquals(4, hikari.getMaximumPoolSize());
            try (Connection c = dataSource.getConnection()) {
                assertTrue(c.isWrapperFor(PanliteConnection.class));
                assertEquals("SQLite", c.getMetaData().getDatabaseProductName());
            }

            Greetings greetings = context.getBean(Greetings.class);
            assertEquals(List.of("en", "fr"), greetings.languages()); // rows from schema.sql
            assertEquals("Bonjour", greetings.in("fr"));
            greetings.add("de", "Hallo");
            assertEquals("Hallo", greetings.in("de"));
            assertThrows(DuplicateKeyException.class, () -> greetings.addTwice("it", "Ciao"));
            assertEquals(List.of("de", "en", "fr"), greetings.languages());
        }
        // A restart runs schema.sql again over the existing file: it is idempotent.
        try (ConfigurableApplicationContext context = start()) {
            assertEquals(List.of("de", "en", "fr"), context.getBean(Greetings.class).languages());
        }
    }
}
