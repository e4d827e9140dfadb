package dev.panlite.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Notes with tags, on Panlite: Flyway creates the tables (db/migration), Spring Data JDBC stores the
 * aggregates ({@link Notes}), {@link NoteController} serves them, Actuator shows the panlite.* meters.
 * <pre>
 * curl -H 'Content-Type: application/json' -d '{"text":"hello","tags":[{"tag":"first"}]}' localhost:8080/notes
 * curl localhost:8080/notes
 * curl localhost:8080/actuator/metrics/panlite.statement.cache.hits
 * </pre>
 */
@SpringBootApplication
public class SampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
