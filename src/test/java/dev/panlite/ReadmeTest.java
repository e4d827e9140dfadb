package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's settings table is the documentation of {@link Setting}: it must list every one, with its default. */
class ReadmeTest {
    @Test
    void everySettingIsInTheReadmeTableWithItsDefault() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        for (Setting s : Setting.values()) {
            String row = "| `" + s.key() + "` | " + (s.defaultValue() == null ? "SQLite's" : "`" + s.defaultValue() + "`") + " |";
            assertTrue(readme.contains(row), "README.md settings table lacks or misstates: " + row);
        }
    }

    @Test
    void theReadmeTestCommandIsWhatCiRuns() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String ci = Files.readString(Path.of(".ci/run"));
        assertTrue(readme.contains("\nmvn verify "), "README quick start shows the test command");
        assertTrue(ci.contains("\nmvn verify\n"), ".ci/run runs exactly the README test command");
    }

    /**
     * The README shows the chart of results/latest (the one run the repository keeps: ./bench --full
     * writes it after a full-suite run; results/<stamp>/ are local and ignored by git, so a
     * partial run on this machine changes nothing here) and names the run it holds.
     */
    @Test
    void theReadmeShowsTheLatestChart() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        Matcher m = Pattern.compile("— (\\d{4}-\\d\\d-\\d\\dT\\d{6})")
                .matcher(Files.readString(Path.of("results/latest/results.md")));
        assertTrue(m.find(), "results/latest/results.md names its run");
        assertTrue(Files.isRegularFile(Path.of("results/latest/ratios.svg")), "results/latest has its chart");
        Matcher shown = Pattern.compile("!\\[([^\\]]*)\\]\\(results/latest/ratios\\.svg\\)").matcher(readme);
        assertTrue(shown.find(), "README.md shows results/latest/ratios.svg as an image");
        assertTrue(shown.group(1).contains(m.group(1)),
                "the chart's caption names the run results/latest holds, " + m.group(1) + ": " + shown.group(1));
    }

    /** Every relative link of the README (results, experiments, sources) points at a file of the repository. */
    @Test
    void everyRelativeLinkExists() throws IOException {
        Path root = Path.of("").toAbsolutePath().normalize();
        String readme = Files.readString(root.resolve("README.md"));
        java.util.regex.Matcher links = java.util.regex.Pattern.compile("\\]\\(([^)#\\s]+)(?:#[^)]*)?\\)").matcher(readme);
        java.util.List<String> missing = new java.util.ArrayList<>();
        int checked = 0;
        while (links.find()) {
            String target = links.group(1);
            if (target.contains("://") || target.startsWith("mailto:")) {
                continue;
            }
            checked++;
            if (!Files.exists(root.resolve(target))) {
                missing.add(target);
            }
        }
        assertTrue(checked > 5, "the README's links were found (" + checked + ")");
        assertTrue(missing.isEmpty(), "README.md links to files that do not exist: " + missing);
    }
}
