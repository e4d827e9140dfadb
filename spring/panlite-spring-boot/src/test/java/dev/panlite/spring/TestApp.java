package dev.panlite.spring;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The applications the tests start: plain auto-configuration, nothing but what each test passes as
 * command-line arguments (the strongest property source, as a user's own settings would be).
 * Flyway and Liquibase are on the test classpath, off unless a test turns them on.
 * These sources compile against Boot 3.5 and 4.0 alike (panlite-spring-boot-boot3-test runs them on 3.5).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TestApp {
    public static ConfigurableApplicationContext start(String... args) {
        return start(WebApplicationType.NONE, args);
    }

    public static ConfigurableApplicationContext start(WebApplicationType web, String... args) {
        return new SpringApplicationBuilder(TestApp.class).main(TestApp.class).web(web).bannerMode(Banner.Mode.OFF)
                .properties("spring.flyway.enabled=false", "spring.liquibase.enabled=false").run(args);
    }
}
