package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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

    /** The run a results/ directory holds: its name, or for results/latest the run its report names. */
    private static String runOf(Path dir) throws IOException {
        if (!dir.getFileName().toString().equals("latest")) {
            return dir.getFileName().toString();
        }
        Matcher m = Pattern.compile("— (\\d{4}-\\d\\d-\\d\\dT\\d{6})").matcher(Files.readString(dir.resolve("results.md")));
        assertTrue(m.find(), "results/latest/results.md names its run");
        return m.group(1);
    }

    /** The README shows the chart of the newest benchmark run that has one in the repository. */
    @Test
    void theReadmeShowsTheLatestChart() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String newest = null;
        List<String> shown = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Path.of("results"))) {
            for (Path run : runs.filter(d -> Files.isRegularFile(d.resolve("ratios.svg"))).toList()) {
                String id = runOf(run);
                if (newest == null || id.compareTo(newest) > 0) {
                    newest = id;
                }
                if (readme.contains("](results/" + run.getFileName() + "/ratios.svg)")) {
                    shown.add(id);
                }
            }
        }
        assertTrue(newest != null && shown.contains(newest),
                "README.md shows the charts of runs " + shown + ", not the newest one, " + newest);
        assertTrue(Pattern.compile("!\\[[^\\]]*\\]\\(results/[^)]+/ratios\\.svg\\)").matcher(readme).find(),
                "shown as an image");
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
