package dev.panlite.engine;

import java.util.Optional;

/**
 * The driver's JFR events, used only where the runtime has the {@code jdk.jfr} module: a jlink
 * image of {@code java.base}, {@code java.sql} and {@code java.logging} (what slim container images
 * ship) has none, and loading a class that extends {@code jdk.jfr.Event} there fails. The module
 * descriptor says {@code requires static jdk.jfr}; this class is the one place that decides, and the
 * event classes ({@link StatementEvent}, {@link LockWaitEvent}, {@link StatementCountersEvent},
 * {@link LitestreamSyncEvent}, {@link LitestreamWaitEvent}) are loaded only behind it. Where the
 * module is present the events work as before: recorded when a recording enables them. Callers hold
 * events as {@code Object} (null: none), so no other class names an event class.
 *
 * <p>On the module path, {@code jdk.jfr} is in the runtime when something resolves it:
 * {@code -XX:StartFlightRecording} does, or {@code --add-modules jdk.jfr}. On the class path every
 * system module is resolved, so it is there whenever the image has it.
 */
final class JfrEvents {
    /** Whether jdk.jfr is in the runtime and this module reads it; constant, so the JIT folds the checks. */
    static final boolean AVAILABLE = available();

    private JfrEvents() {}

    private static boolean available() {
        Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
        return jfr.isPresent() && JfrEvents.class.getModule().canRead(jfr.get());
    }

    /** A started statement event when a recording wants one, else null. */
    static Object statementStart() {
        return AVAILABLE ? StatementEvent.startIfEnabled() : null;
    }

    /** Ends a statement event from {@link #statementStart} (null: nothing) and commits it past the threshold. */
    static void statementEnd(Object event, String sql, String file, int resultCode) {
        if (event != null) {
            StatementEvent.finish((StatementEvent) event, sql, file, resultCode);
        }
    }

    /** A started lock-wait event (JFR decides at the end whether to commit it), or null without JFR. */
    static Object lockWaitStart(String file, String lock) {
        return AVAILABLE ? LockWaitEvent.start(file, lock) : null;
    }

    /** Ends a lock-wait event from {@link #lockWaitStart} (null: nothing). */
    static void lockWaitEnd(Object event, long nanos, String outcome) {
        if (event != null) {
            LockWaitEvent.finish((LockWaitEvent) event, nanos, outcome);
        }
    }

    // ------------------------------------------------------------------ statement diagnostics, Litestream

    /** Whether a recording wants {@link StatementCountersEvent}s (then the plan is worth asking for). */
    static boolean statementCountersWanted() {
        return AVAILABLE && StatementCountersEvent.enabled();
    }

    /** Commits a statement-counters event (JFR decides whether it is recorded). */
    static void statementCounters(StatementDiagnostics.Report report, String plan, String advice, String database,
            String file) {
        if (AVAILABLE) {
            StatementCountersEvent.commit(report, plan, advice, database, file);
        }
    }

    /** A started Litestream sync-request event, or null without JFR. */
    static Object litestreamSyncStart(String database, String file) {
        return AVAILABLE ? LitestreamSyncEvent.start(database, file) : null;
    }

    /** Ends an event from {@link #litestreamSyncStart} (null: nothing). */
    static void litestreamSyncEnd(Object event, boolean answered, String outcome) {
        if (event != null) {
            LitestreamSyncEvent.finish((LitestreamSyncEvent) event, answered, outcome);
        }
    }

    /** A started Litestream back-pressure wait event, or null without JFR. */
    static Object litestreamWaitStart(String database, String file) {
        return AVAILABLE ? LitestreamWaitEvent.start(database, file) : null;
    }

    /** Ends an event from {@link #litestreamWaitStart} (null: nothing). */
    static void litestreamWaitEnd(Object event, boolean cut) {
        if (event != null) {
            LitestreamWaitEvent.finish((LitestreamWaitEvent) event, cut);
        }
    }
}
