package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.PanliteStats;
import dev.panlite.spring.boot.PanliteAutoConfiguration;
import dev.panlite.spring.metrics.PanliteMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
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
import java.sql.ResultSet;
import java.sql.Statement;
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

    /** The meter summed over its databases, as a registry shows it without the tag (0 before any database). */
    private static double count(MeterRegistry registry, String name) {
        return registry.find(name).functionCounters().stream().mapToDouble(FunctionCounter::count).sum();
    }

    private static double count(MeterRegistry registry, String name, String database) {
        return registry.get(name).tag("database", database).functionCounter().count();
    }

    @Test
    void theBinderWorksWithoutBoot() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        new PanliteMetrics().bindTo(registry);
        double hits = count(registry, "panlite.statement.cache.hits");
        double misses = count(registry, "panlite.statement.cache.misses");
        double opened = count(registry, "panlite.connections.opened");
        System.gc(); // the binder is gone: the meters must not depend on it
        double executions;
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + dir.resolve("m.db"), new Properties())) {
            executions = count(registry, "panlite.statements.executions"); // after the open's own PRAGMAs (cell_size_check)
            assertEquals(PanliteStats.snapshot().connectionsOpen(),
                    registry.get("panlite.connections.open").gauges().stream().mapToDouble(Gauge::value).sum());
            assertEquals(1, registry.get("panlite.connections.open").tag("database", "m.db").gauge().value());
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
        FunctionTimer gate = registry.get("panlite.write.gate.waits").tag("database", "m.db").functionTimer();
        assertEquals(PanliteStats.snapshot("m.db").gateWaits(), gate.count());
        registry.get("panlite.busy.waits").functionTimer();
        registry.get("panlite.litestream.waits").tag("database", "m.db").functionTimer();
        for (String name : new String[] {"panlite.litestream.sync.requests", "panlite.litestream.sync.answered",
                "panlite.litestream.sync.failed"}) {
            assertEquals(0, count(registry, name, "m.db"));
        }
    }

    /** t(a, b) with {@code rows} rows, no index on b. */
    private static void table(Connection c, int rows) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b INTEGER)");
            s.executeUpdate("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < " + rows + ")"
                    + " INSERT INTO t SELECT i, i % 10 FROM k");
        }
    }

    @Test
    void statementMetersArePerDatabase() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        new PanliteMetrics().bindTo(registry);
        try (Connection scans = new dev.panlite.Driver().connect("jdbc:sqlite:" + dir.resolve("scans.db"), new Properties());
                Connection indexed = new dev.panlite.Driver().connect("jdbc:sqlite:" + dir.resolve("indexed.db"), new Properties())) {
            table(scans, 1000);
            table(indexed, 1000);
            try (Statement s = indexed.createStatement()) {
                s.execute("CREATE INDEX t_b ON t(b)");
            }
            double vmScans = count(registry, "panlite.statements.vm.steps", "scans.db");
            double vmIndexed = count(registry, "panlite.statements.vm.steps", "indexed.db");
            for (Connection c : new Connection[] {scans, indexed}) {
                try (PreparedStatement ps = c.prepareStatement("SELECT a FROM t WHERE b = ? ORDER BY a DESC")) {
                    ps.setInt(1, 3);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) { // a scan counts the rows it stepped through: all of them, here
                            rs.getInt(1);
                        }
                    }
                }
            }
            assertEquals(999, count(registry, "panlite.statements.fullscan.steps", "scans.db"), "one scan of 1000 rows");
            assertEquals(0, count(registry, "panlite.statements.fullscan.steps", "indexed.db"));
            assertTrue(count(registry, "panlite.statements.vm.steps", "scans.db") - vmScans >= 999);
            assertTrue(count(registry, "panlite.statements.vm.steps", "indexed.db") > vmIndexed);
            assertEquals(0, count(registry, "panlite.statements.sorts", "scans.db"), "the scan goes in a's order: no sort");
            assertTrue(count(registry, "panlite.statements.sorts", "indexed.db") <= 1, "at most one sort of the 100 rows found");
            assertEquals(0, count(registry, "panlite.statements.autoindexes", "scans.db"));
            assertEquals(PanliteStats.snapshot().fullscanSteps(), count(registry, "panlite.statements.fullscan.steps"),
                    "the meter without its tag is the total");
        }
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
                    "panlite.statements.slow", "panlite.write.gate.waits", "panlite.busy.waits", "panlite.busy.retries",
                    "panlite.statements.fullscan.steps", "panlite.statements.sorts", "panlite.statements.autoindexes",
                    "panlite.statements.vm.steps", "panlite.litestream.sync.requests", "panlite.litestream.waits"}) {
                assertTrue(names.contains("\"" + name + "\""), name + " missing from " + names);
            }
            assertTrue(countOf(get(http, base, "/actuator/metrics/panlite.statement.cache.hits")) >= 2,
                    "the repeated insert was served by the cache");
            assertTrue(countOf(get(http, base, "/actuator/metrics/panlite.statements.slow")) >= 3,
                    "with a 1 ns threshold every statement is slow");
            get(http, base, "/actuator/metrics/panlite.write.gate.waits");
            String vmSteps = get(http, base, "/actuator/metrics/panlite.statements.vm.steps?tag=database:web.db");
            assertTrue(countOf(vmSteps) > 0, vmSteps);
            assertTrue(get(http, base, "/actuator/metrics/panlite.statements.fullscan.steps").contains("\"web.db\""),
                    "the database tag is listed among the available tags");
        } finally {
            PanliteStats.setSlowStatementThreshold(Duration.ZERO);
        }
    }
}
