package dev.panlite.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The sample as a newcomer runs it, on a database in a temp directory and a free port: Flyway
 * migrates, the repository stores and reads notes over HTTP, Actuator shows panlite.* meters.
 */
class SampleApplicationTest {
    @TempDir
    Path dir;

    private static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    @Test
    void startsMigratesServesNotesAndShowsPanliteMeters() throws Exception {
        try (ConfigurableApplicationContext context = SpringApplication.run(SampleApplication.class,
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("notes.db") + "?journal_mode=WAL&foreign_keys=true",
                "--server.port=0")) {
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            assertEquals(1, jdbc.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Integer.class));
            String base = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
            HttpClient http = HttpClient.newHttpClient();
            for (String text : new String[] {"first", "second"}) {
                send(http, HttpRequest.newBuilder(URI.create(base + "/notes")).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"" + text + "\",\"tags\":[{\"tag\":\"t\"}]}")));
            }
            String notes = send(http, HttpRequest.newBuilder(URI.create(base + "/notes"))).body();
            assertTrue(notes.matches("(?s).*\"text\":\"first\".*\"text\":\"second\".*"), notes);
            assertEquals(2, jdbc.queryForObject("SELECT count(*) FROM note_tag", Integer.class));

            String metrics = send(http, HttpRequest.newBuilder(URI.create(base + "/actuator/metrics"))).body();
            assertTrue(metrics.contains("\"panlite.statement.cache.hits\"") && metrics.contains("\"panlite.write.gate.waits\""),
                    metrics);
            String hits = send(http, HttpRequest.newBuilder(URI.create(base + "/actuator/metrics/panlite.statement.cache.hits"))).body();
            Matcher m = Pattern.compile("\"value\"\\s*:\\s*([0-9.E+-]+)").matcher(hits);
            assertTrue(m.find() && Double.parseDouble(m.group(1)) > 0, hits);
        }
    }
}
