package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteStats;
import dev.panlite.spring.boot.PanliteAutoConfiguration;
import dev.panlite.spring.metrics.PanliteMetrics;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Properties;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * panlite.* meters: a MeterBinder that works without Boot, bound by Boot when Micrometer is there,
 * readable through Actuator's metrics endpoint over HTTP.
 */
class MetricsTest {
    @TempDir
    Path dir;

    private static void select(Connection c, int n) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT ?")) {
            ps.setInt(1, n);
            ps.executeQuery().close();
        }
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.get(name).functionCounter().count();
    }

    @Test
    void theBinderWorksWithoutBoot() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        new PanliteMetrics().bindTo(registry);
        double hits = count(registry, "panlite.statement.cache.hits");
        double misses = count(registry, "panlite.statement.cache.misses");
        double executions = count(registry, "panlite.statements.executions");
        double opened = count(registry, "panlite.connections.opened");
        System.gc(); // the binder is gone: the meters must not depend on it
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + dir.resolve("m.db"), new Properties())) {
            assertEquals(PanliteStats.snapshot().connectionsOpen(), registry.get("panlite.connections.open").gauge().value());
            select(c, 1); // miss
            select(c, 2); // hit
            select(c, 3); // hit
        }
        assertEquals(2, count(registry, "panlite.statement.cache.hits") - hits);
        assertEquals(1, count(registry, "panlite.statement.cache.misses") - misses);
        assertEquals(3, count(registry, "panlite.statements.executions") - executions);
        assertEquals(1, count(registry, "panlite.connections.opened") - opened);
        for (String name : new String[] {"panlite.statement.cache.evictions", "panlite.statements.slow",
                "panlite.write.gate.timeouts", "panlite.busy.retries", "panlite.busy.timeouts"}) {
            registry.get(name).functionCounter();
        }
        FunctionTimer gate = registry.get("panlite.write.gate.waits").functionTimer();
        assertEquals(PanliteStats.snapshot().gateWaits(), gate.count());
        registry.get("panlite.busy.waits").functionTimer();
    }

    @Test
    void bootBindsTheMetersOnlyWhenMicrometerIsThere() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PanliteAutoConfiguration.class));
        runner.run(context -> assertEquals(1, context.getBeansOfType(PanliteMetrics.class).size()));
        runner.withPropertyValues("panlite.metrics.enabled=false")
                .run(context -> assertEquals(0, context.getBeansOfType(PanliteMetrics.class).size()));
        runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .run(context -> assertEquals(0, context.getBeansOfType(PanliteMetrics.class).size()));
    }

    private static String get(HttpClient http, String base, String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    private static double countOf(String json) {
        Matcher m = Pattern.compile("\"statistic\"\\s*:\\s*\"COUNT\"\\s*,\\s*\"value\"\\s*:\\s*([0-9.E+-]+)").matcher(json);
        assertTrue(m.find(), json);
        return Double.parseDouble(m.group(1));
    }

    /** A plain Boot web app with the URL, Spring Data JDBC and Actuator: its repositories run, /actuator/metrics shows panlite.*. */
    @Test
    void actuatorShowsTheMeters() throws Exception {
        try (ConfigurableApplicationContext context = TestApp.start(WebApplicationType.SERVLET,
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("web.db"), "--server.port=0",
                "--management.endpoints.web.exposure.include=metrics", "--spring.sql.init.mode=always",
                "--spring.sql.init.schema-locations=classpath:panlite-test/schema.sql",
                "--panlite.metrics.slow-statement-threshold=1ns")) {
            assertEquals(Duration.ofNanos(1), PanliteStats.slowStatementThreshold());
            AuthorRepository authors = context.getBean(AuthorRepository.class);
            for (int i = 0; i < 3; i++) {
                authors.save(new Author("A" + i, null));
            }
            assertEquals(3, authors.count());
            String base = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
            HttpClient http = HttpClient.newHttpClient();
            String names = get(http, base, "/actuator/metrics");
            for (String name : new String[] {"panlite.connections.open", "panlite.statement.cache.hits",
                    "panlite.statement.cache.misses", "panlite.statement.cache.evictions", "panlite.statements.executions",
                    "panlite.statements.slow", "panlite.write.gate.waits", "panlite.busy.waits", "panlite.busy.retries"}) {
                assertTrue(names.contains("\"" + name + "\""), name + " missing from " + names);
            }
            assertTrue(countOf(get(http, base, "/actuator/metrics/panlite.statement.cache.hits")) >= 2,
                    "the repeated insert was served by the cache");
            assertTrue(countOf(get(http, base, "/actuator/metrics/panlite.statements.slow")) >= 3,
                    "with a 1 ns threshold every statement is slow");
            get(http, base, "/actuator/metrics/panlite.write.gate.waits");
        } finally {
            PanliteStats.setSlowStatementThreshold(Duration.ZERO);
        }
    }
}
