package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application that does not use SQLite, whose spring.datasource.url is a placeholder only a
 * {@code @DynamicPropertySource} resolves (issue 27, item 18): those values arrive after the
 * environment post-processors ran, so the module must not resolve the URL strictly there, or the
 * application fails to start ("Could not resolve placeholder 'later.url'").
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "spring.datasource.url=${later.url}", "spring.flyway.enabled=false", "spring.liquibase.enabled=false"})
class DynamicUrlTest {
    @DynamicPropertySource
    static void laterUrl(DynamicPropertyRegistry registry) {
        registry.add("later.url", () -> "jdbc:h2:mem:dynamic-url-test");
    }

    @Autowired
    DataSource dataSource;

    @Test
    void theApplicationStartsOnTheUrlResolvedLater() {
        HikariDataSource pool = (HikariDataSource) dataSource;
        assertEquals("jdbc:h2:mem:dynamic-url-test", pool.getJdbcUrl());
        assertEquals("org.h2.Driver", pool.getDriverClassName());
        assertEquals(1, new JdbcTemplate(pool).queryForObject("SELECT 1", Integer.class));
    }
}
