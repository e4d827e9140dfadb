package dev.panlite.fuzz;

import dev.panlite.TestExtensions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The extension libraries the "ext." actions load, built from C once per fuzz JVM into the run's
 * folder ({@link TestExtensions}): answer() from the default entry point, other() from a named one,
 * one whose entry point registers half() and then fails, a library that is no extension, and one whose
 * entry points are variables (notcode.so). Without
 * a C compiler there are none, and the actions load only paths that fail.
 */
final class FuzzExtensions {
    private FuzzExtensions() {}

    private static List<Path> built;

    /**
     * answer.so, other.so, failing.so, libplain.so, notcode.so (variables under entry points' names,
     * which loadExtension refuses where it can tell, Linux); or empty when they cannot be built here.
     */
    static synchronized List<Path> libraries(World w) {
        if (built == null) {
            try {
                built = List.of(TestExtensions.build(w.dir, "answer.so", TestExtensions.ANSWER),
                        TestExtensions.build(w.dir, "other.so", TestExtensions.OTHER),
                        TestExtensions.build(w.dir, "failing.so", TestExtensions.FAILING),
                        TestExtensions.build(w.dir, "libplain.so", TestExtensions.PLAIN),
                        TestExtensions.build(w.dir, "notcode.so", TestExtensions.NOT_CODE));
            } catch (TestExtensions.Unavailable | IOException e) {
                built = List.of();
                synchronized (w.out) {
                    w.out.println("ext.: no extension built (" + e.getMessage() + "): only paths that fail are loaded");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // a fuzz thread stopped by the run's end: try again next time
                return List.of();
            }
        }
        return built;
    }
}
