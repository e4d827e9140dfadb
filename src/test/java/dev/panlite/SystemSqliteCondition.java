package dev.panlite;

import dev.panlite.ffi.SqliteLibrary;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The suite's runs on the system SQLite ({@code -Dpanlite.sqlite.library=system}, two of the three
 * Surefire executions) are skipped, not failed, on a machine that has no usable system SQLite
 * (Windows, a slim container, one with only an old build): the engine bundled in the jar is all
 * Panlite needs, and the default execution tests it. Registered for every test class through
 * {@code META-INF/services} (JUnit's extension auto-detection, switched on in
 * {@code junit-platform.properties}). A bundled engine that does not load still fails every test.
 */
public final class SystemSqliteCondition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (!SqliteLibrary.SYSTEM.equalsIgnoreCase(System.getProperty(SqliteLibrary.LIBRARY_PROPERTY, "").strip())) {
            return ConditionEvaluationResult.enabled("not a run on the system SQLite");
        }
        String error = SqliteLibrary.loadError();
        if (error == null) {
            return ConditionEvaluationResult.enabled("the system SQLite loaded: " + SqliteLibrary.loadedFrom());
        }
        return ConditionEvaluationResult.disabled("no usable system SQLite on this machine, so the run on it is"
                + " skipped: " + error.lines().findFirst().orElse(error));
    }
}
