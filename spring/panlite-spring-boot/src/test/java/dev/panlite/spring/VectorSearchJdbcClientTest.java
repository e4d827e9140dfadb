package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * README.md, "Vector search", with Spring: the JdbcClient that Boot configures on the driver runs
 * DocSearch (the README's code) against the table of vectors.sql (the README's schema.sql), on the
 * bundled engine's sqlite-vec: a float[] is one parameter, positional or named, and reads back.
 * The README's blocks are compared with these files by the driver's VectorReadmeTest.
 */
class VectorSearchJdbcClientTest {
    @TempDir
    Path dir;

    @Test
    void theReadmesJdbcClientExample() {
        try (Connection c = new dev.panlite.Driver().connect("jdbc:sqlite:" + dir.resolve("probe.db"), new Properties());
             ResultSet rs = c.createStatement().executeQuery("SELECT vec_version()")) {
            rs.next();
        } catch (SQLException noVectors) {
            assumeTrue(false, "the driver's engine has no sqlite-vec compiled in (" + noVectors.getMessage()
                    + "): the driver's build tests vector search on the engine it bundles");
        }
        try (ConfigurableApplicationContext context = TestApp.start(
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("app.db"),
                "--spring.sql.init.mode=always", "--spring.sql.init.schema-locations=classpath:panlite-test/vectors.sql")) {
            JdbcClient jdbc = context.getBean(JdbcClient.class);
            String version = jdbc.sql("SELECT vec_version()").query(String.class).single();
            assertEquals("v0.1.9", version);
            DocSearch search = new DocSearch(jdbc); // a @Service; TestApp scans no components
            search.add(1, "recipe", "Tomato soup", new float[] {0.9f, 0.1f, 0.0f, 0.2f});
            search.add(2, "recipe", "Apple pie", new float[] {0.7f, 0.6f, 0.1f, 0.0f});
            search.add(3, "travel", "Lisbon in three days", new float[] {0.1f, 0.2f, 0.9f, 0.3f});
            search.add(4, "recipe", "Gazpacho", new float[] {0.8f, 0.0f, 0.1f, 0.4f});

            List<DocSearch.Hit> hits = search.nearest(new float[] {1.0f, 0.0f, 0.0f, 0.3f}, "recipe", 3);
            assertEquals(List.of(1L, 4L, 2L), hits.stream().map(DocSearch.Hit::id).toList());
            assertEquals(List.of("Tomato soup", "Gazpacho", "Apple pie"), hits.stream().map(DocSearch.Hit::title).toList());
            assertEquals(0.008, hits.get(0).distance(), 0.0005);
            assertEquals(0.021, hits.get(1).distance(), 0.0005);
            assertEquals(0.277, hits.get(2).distance(), 0.0005);
            assertEquals(List.of(3L), search.nearest(new float[] {0, 0, 1, 0}, "travel", 5).stream()
                    .map(DocSearch.Hit::id).toList());
            assertArrayEquals(new float[] {0.8f, 0.0f, 0.1f, 0.4f}, search.embedding(4));

            // a malformed vector: Spring's DataAccessException around the driver's SQLException, with sqlite-vec's message
            DataAccessException e = assertThrows(DataAccessException.class,
                    () -> search.add(5, "recipe", "Short", new float[] {1, 2}));
            assertTrue(e.getMessage().contains("Dimension mismatch for inserted vector for the \"embedding\" column."
                    + " Expected 4 dimensions but received 2"), e.getMessage());
            e = assertThrows(DataAccessException.class, () -> search.nearest(new float[] {Float.NaN, 0, 0, 0}, "recipe", 1));
            assertTrue(e.getMessage().contains("holding NaN at element 0"), e.getMessage());
        }
    }
}
