package dev.panlite.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The INFO line naming the engine appears once per JVM, however many class loaders load the driver. */
class EngineLogLineTest {

    @Test
    void theEngineLineIsLoggedOncePerJvmNotOncePerClassLoader() throws Exception {
        assertNotNull(SqliteLibrary.loadedFrom(), "this JVM loaded an engine (and logged it)");
        List<String> lines = new ArrayList<>();
        Handler recorder = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                if (r.getMessage() != null && r.getMessage().startsWith("Panlite uses")) {
                    lines.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("dev.panlite");
        logger.addHandler(recorder);
        URL classes = SqliteLibrary.class.getProtectionDomain().getCodeSource().getLocation();
        try {
            for (int i = 0; i < 2; i++) {
                // as an application server loads the driver once per web application: a loader of its own
                try (URLClassLoader loader = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
                    Class<?> other = Class.forName(SqliteLibrary.class.getName(), true, loader);
                    assertNotSame(SqliteLibrary.class, other);
                    assertEquals(SqliteLibrary.loadedFrom(), other.getMethod("loadedFrom").invoke(null),
                            "the other loader loaded the same engine");
                }
            }
        } finally {
            logger.removeHandler(recorder);
        }
        assertEquals(List.of(), lines, "logged again by another class loader");
    }
}
