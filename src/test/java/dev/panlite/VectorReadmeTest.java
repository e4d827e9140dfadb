package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panlite.ffi.SqliteLibrary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md, "Vector search": its JDBC example runs here as written (only the database file is in a
 * temporary folder) and prints what the README says it prints; every code block of the section is
 * the code of a test (this file's, or the Spring module's, which runs it: VectorSearchJdbcClientTest).
 */
class VectorReadmeTest {
    private static final Path README = Path.of("README.md");
    private static final Path SPRING_TESTS = Path.of("spring/panlite-spring-boot/src/test");

    @TempDir
    Path dir;

    /** The code blocks of the section, in order: language, text. */
    static List<String[]> blocks() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("\n### Vector search");
        assertTrue(start >= 0, "README.md has a Vector search section");
        Matcher next = Pattern.compile("\n##+ ").matcher(readme);
        int end = next.find(start + 1) ? next.start() : readme.length();
        Matcher m = Pattern.compile("\n```(\\w*)\n(.*?)\n```", Pattern.DOTALL).matcher(readme.substring(start, end));
        List<String[]> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(new String[] {m.group(1), m.group(2)});
        }
        return blocks;
    }

    /** The lines of a text, stripped, without the empty ones: what a block and its copy must share. */
    private static List<String> lines(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static void assertContains(Path source, String block) throws IOException {
        String text = Files.readString(source).replace("\"jdbc:sqlite:\" + dir.resolve(\"app.db\")", "\"jdbc:sqlite:app.db\"");
        List<String> all = lines(text);
        List<String> wanted = lines(block);
        assertTrue(java.util.Collections.indexOfSubList(all, wanted) >= 0,
                source + " holds the README's block, line for line:\n" + block);
    }

    @Test
    void everyBlockIsTheCodeOfATest() throws IOException {
        List<String[]> blocks = blocks();
        assertEquals(List.of("java", "", "sql", "java"), blocks.stream().map(b -> b[0]).toList());
        assertContains(Path.of("src/test/java/dev/panlite/VectorReadmeTest.java"), blocks.get(0)[1]);
        assertContains(SPRING_TESTS.resolve("resources/panlite-test/vectors.sql"), blocks.get(2)[1]);
        assertContains(SPRING_TESTS.resolve("java/dev/panlite/spring/DocSearch.java"), blocks.get(3)[1]);
    }

    @Test
    void theJdbcExampleRunsAndPrintsWhatTheReadmeShows() throws Exception {
        try (Connection c = TestDb.open(dir); Statement s = c.createStatement()) {
            s.executeQuery("SELECT vec_version()").close();
        } catch (SQLException noVectors) {
            assertFalse(SqliteLibrary.bundled(), "the bundled engine carries sqlite-vec: " + noVectors.getMessage());
            assumeTrue(false, "this engine has no sqlite-vec compiled in (" + SqliteLibrary.loadedFrom() + ")");
        }
        PrintStream out = System.out;
        Locale locale = Locale.getDefault();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        Locale.setDefault(Locale.ROOT); // the README's decimal points
        try {
            example();
        } finally {
            System.setOut(out);
            Locale.setDefault(locale);
        }
        assertEquals(blocks().get(1)[1] + "\n", printed.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    /** The README's example, as written there (the URL: in this test's folder). */
    private void example() throws SQLException {
        record Doc(long id, String category, String title, float[] embedding) {}

        // embeddings come from your model (384 dimensions or more); 4 here
        List<Doc> docs = List.of(
                new Doc(1, "recipe", "Tomato soup", new float[] {0.9f, 0.1f, 0.0f, 0.2f}),
                new Doc(2, "recipe", "Apple pie", new float[] {0.7f, 0.6f, 0.1f, 0.0f}),
                new Doc(3, "travel", "Lisbon in three days", new float[] {0.1f, 0.2f, 0.9f, 0.3f}),
                new Doc(4, "recipe", "Gazpacho", new float[] {0.8f, 0.0f, 0.1f, 0.4f}));

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("app.db"))) {
            try (Statement s = c.createStatement()) {
                s.execute("""
                        CREATE VIRTUAL TABLE docs USING vec0(
                            id INTEGER PRIMARY KEY,
                            embedding float[4] distance_metric=cosine,
                            category text,
                            +title text)""");
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO docs(id, embedding, category, title) VALUES (?, ?, ?, ?)")) {
                for (Doc d : docs) {
                    ps.setLong(1, d.id());
                    ps.setObject(2, d.embedding()); // float[]: a float32 vector
                    ps.setString(3, d.category());
                    ps.setString(4, d.title());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);

            float[] query = {1.0f, 0.0f, 0.0f, 0.3f}; // the embedding of "a cold tomato soup"
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT id, title, distance FROM docs
                    WHERE embedding MATCH ? AND k = ? AND category = ?
                    ORDER BY distance""")) {
                ps.setObject(1, query);
                ps.setInt(2, 3);
                ps.setString(3, "recipe");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        System.out.printf("%d %s %.3f%n", rs.getLong("id"), rs.getString("title"), rs.getDouble("distance"));
                    }
                }
            }
        }
    }
}
