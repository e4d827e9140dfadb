package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Breaks found by the adversarial review of issue 30 (helper "breaker"): each test states what the
 * README promises and fails while the driver does otherwise. Reproducers outside the test tree are in
 * /tmp/breaker (Q1.java; Stale.java's break is now
 * VectorValuesTest.aSecondExecutionSendsWhatTheArrayHoldsThen, Timeout7.java's
 * engine.InterruptScopeTest).
 */
class BreakerBreakTest {
    @TempDir
    Path dir;

    /**
     * README "Loading extensions": "Loading it [sqlite-vec] on the bundled engine as well is harmless";
     * errors end with "error during initialization: <the extension's message>". With any result set of
     * the connection open, the load fails, and the message is empty: SQLite's reason (a function
     * cannot be replaced while statements are active) is lost.
     */
    @Test
    void loadingAnExtensionAgainWithAQueryOpenNamesWhyItFailed() throws Exception {
        Path library;
        try {
            library = TestExtensions.build(dir, "libanswer.so", TestExtensions.ANSWER);
        } catch (TestExtensions.Unavailable e) {
            assumeTrue(false, e.getMessage());
            return;
        }
        try (Connection c = TestDb.open(dir)) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            p.loadExtension(library, "sqlite3_extension_init");
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1);
                try (ResultSet open = s.executeQuery("SELECT 1 UNION ALL SELECT 2")) {
                    assertTrue(open.next());
                    SQLException e = assertThrows(SQLException.class, () -> p.loadExtension(library, "sqlite3_extension_init"));
                    assertTrue(!e.getMessage().contains("error during initialization:  "),
                            "the reason is lost: " + e.getMessage());
                }
            }
        }
    }
}
