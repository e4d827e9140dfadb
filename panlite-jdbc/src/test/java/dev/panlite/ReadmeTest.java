package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's settings table is the documentation of {@link Setting}: it must list every one, with its default. */
class ReadmeTest {
    @Test
    void everySettingIsInTheReadmeTableWithItsDefault() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        for (Setting s : Setting.values()) {
            String row = "| `" + s.key() + "` | " + (s.defaultValue() == null ? "SQLite's" : "`" + s.defaultValue() + "`") + " |";
            assertTrue(readme.contains(row), "README.md settings table lacks or misstates: " + row);
        }
    }

    @Test
    void theReadmeTestCommandIsWhatCiRuns() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        String ci = Files.readString(Path.of("../.ci/run"));
        assertTrue(readme.contains("\nmvn verify "), "README quick start shows the test command");
        assertTrue(ci.contains("\nmvn verify\n"), ".ci/run runs exactly the README test command");
    }
}
