package dev.panlite.spring.metrics;

import dev.panlite.PanliteStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Panlite's counters ({@link PanliteStats}) as Micrometer meters named {@code panlite.*}, one set per
 * database, tagged {@code database} (the file's name, or {@code memory}): a registry sums them for a
 * meter without the tag (Actuator's {@code /actuator/metrics/panlite.statements.executions} is the
 * total, {@code ?tag=database:app.db} one file). Meters for a database are registered when its first
 * connection opens (or at bind time for those already open). Needs only micrometer-core:
 * {@code new PanliteMetrics().bindTo(registry)}; Spring Boot binds it by itself
 * (PanliteMetricsAutoConfiguration). Meters read the counters when the registry asks, so binding costs
 * the driver nothing.
 *
 * <table>
 *   <caption>Meters, each tagged database</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>panlite.connections.open</td><td>gauge</td><td>connections open now</td></tr>
 *   <tr><td>panlite.connections.opened</td><td>counter</td><td>connections opened</td></tr>
 *   <tr><td>panlite.statements.executions</td><td>counter</td><td>statement executions</td></tr>
 *   <tr><td>panlite.statements.slow</td><td>counter</td><td>executions at or over the slow threshold</td></tr>
 *   <tr><td>panlite.statements.fullscan.steps</td><td>counter</td><td>rows full scans stepped through (SQLite's counter)</td></tr>
 *   <tr><td>panlite.statements.sorts</td><td>counter</td><td>sort operations</td></tr>
 *   <tr><td>panlite.statements.autoindexes</td><td>counter</td><td>rows put into automatic indexes</td></tr>
 *   <tr><td>panlite.statements.vm.steps</td><td>counter</td><td>virtual machine operations: the work statements did</td></tr>
 *   <tr><td>panlite.statement.cache.hits, .misses, .evictions</td><td>counters</td><td>prepared statement cache</td></tr>
 *   <tr><td>panlite.write.gate.waits</td><td>function timer</td><td>waits for this JVM's write gate of a file: count and total time</td></tr>
 *   <tr><td>panlite.write.gate.timeouts</td><td>counter</td><td>gate waits that ended without the gate</td></tr>
 *   <tr><td>panlite.busy.waits</td><td>function timer</td><td>waits for a lock another process held (SQLITE_BUSY retried): count and total time</td></tr>
 *   <tr><td>panlite.busy.retries</td><td>counter</td><td>statement retries during those waits</td></tr>
 *   <tr><td>panlite.busy.timeouts</td><td>counter</td><td>busy waits that ended without the lock</td></tr>
 *   <tr><td>panlite.litestream.sync.requests, .answered, .failed</td><td>counters</td><td>sync requests to Litestream's control socket</td></tr>
 *   <tr><td>panlite.litestream.waits</td><td>function timer</td><td>writers that waited for Litestream's sync in flight (back-pressure)</td></tr>
 * </table>
 */
public class PanliteMetrics implements MeterBinder {
    /**
     * What the meters observe. Micrometer holds that object weakly and a meter whose object was
     * collected reads NaN: a class stays reachable, so the meters work however the binder is kept.
     */
    private static final Class<PanliteStats> SOURCE = PanliteStats.class;
    private final Iterable<Tag> tags;

    public PanliteMetrics() {
        this(Tags.empty());
    }

    /** With {@code tags} on every meter (e.g. the application's name). */
    public PanliteMetrics(Iterable<Tag> tags) {
        this.tags = tags;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        PanliteStats.addDatabaseListener(new Binding(registry, tags));
    }

    /**
     * Registers each database's meters in a registry, as the driver announces the database; holds the
     * registry weakly, and stops listening once it is collected or closed.
     */
    private static final class Binding implements Consumer<String> {
        private final WeakReference<MeterRegistry> registry;
        private final Iterable<Tag> tags;

        Binding(MeterRegistry registry, Iterable<Tag> tags) {
            this.registry = new WeakReference<>(registry);
            this.tags = tags;
        }

        @Override
        public void accept(String database) {
            MeterRegistry r = registry.get();
            if (r == null || r.isClosed()) {
                PanliteStats.removeDatabaseListener(this);
                return;
            }
            register(r, Tags.of(tags).and("database", database), database);
        }
    }

    private static void register(MeterRegistry registry, Tags tags, String database) {
        Gauge.builder("panlite.connections.open", SOURCE, m -> PanliteStats.snapshot(database).connectionsOpen())
                .description("Panlite connections open now").tags(tags).register(registry);
        Meters m = new Meters(registry, tags, database);
        m.counter("panlite.connections.opened", "Panlite connections opened", PanliteStats::connectionsOpened);
        m.counter("panlite.statements.executions", "Statement executions", PanliteStats::executions);
        m.counter("panlite.statements.slow", "Statement executions at or over the slow threshold",
                PanliteStats::slowStatements);
        m.counter("panlite.statements.fullscan.steps", "Rows full table or index scans stepped through (SQLite's"
                + " SQLITE_STMTSTATUS_FULLSCAN_STEP): queries an index would serve", PanliteStats::fullscanSteps);
        m.counter("panlite.statements.sorts", "Sort operations of statements (SQLITE_STMTSTATUS_SORT)",
                PanliteStats::sorts);
        m.counter("panlite.statements.autoindexes", "Rows put into automatic indexes SQLite built for one execution"
                + " (SQLITE_STMTSTATUS_AUTOINDEX)", PanliteStats::autoindexes);
        m.counter("panlite.statements.vm.steps", "Virtual machine operations statements ran (SQLITE_STMTSTATUS_VM_STEP)",
                PanliteStats::vmSteps);
        m.counter("panlite.statement.cache.hits", "Prepared statements served by a connection's cache",
                PanliteStats::cacheHits);
        m.counter("panlite.statement.cache.misses", "Prepared statements the cache could not serve",
                PanliteStats::cacheMisses);
        m.counter("panlite.statement.cache.evictions", "Statements a full cache finalized", PanliteStats::cacheEvictions);
        m.timer("panlite.write.gate.waits", "Waits for the write gate of a file (another connection of this JVM was writing)",
                PanliteStats::gateWaits, s -> s.gateWaitTime().toNanos());
        m.counter("panlite.write.gate.timeouts", "Write gate waits that ended without the gate", PanliteStats::gateTimeouts);
        m.timer("panlite.busy.waits", "Waits for a lock another process held (SQLITE_BUSY retried)",
                PanliteStats::busyWaits, s -> s.busyWaitTime().toNanos());
        m.counter("panlite.busy.retries", "Statement retries while waiting for another process's lock",
                PanliteStats::busyRetries);
        m.counter("panlite.busy.timeouts", "Busy waits that ended without the lock", PanliteStats::busyTimeouts);
        m.counter("panlite.litestream.sync.requests", "Sync requests sent to Litestream's control socket",
                PanliteStats::litestreamSyncRequests);
        m.counter("panlite.litestream.sync.answered", "Sync requests Litestream answered (it synced and checkpointed)",
                PanliteStats::litestreamSyncAnswered);
        m.counter("panlite.litestream.sync.failed", "Sync requests that failed (no answer, an error)",
                PanliteStats::litestreamSyncFailed);
        m.timer("panlite.litestream.waits", "Writers that waited for Litestream's sync in flight (back-pressure)",
                PanliteStats::litestreamWaits, s -> s.litestreamWaitTime().toNanos());
    }

    /** One database's meters: each reads that database's snapshot when the registry asks. */
    private record Meters(MeterRegistry registry, Tags tags, String database) {
        void counter(String name, String description, ToLongFunction<PanliteStats> count) {
            ToDoubleFunction<Class<PanliteStats>> read = m -> count.applyAsLong(PanliteStats.snapshot(database));
            FunctionCounter.builder(name, SOURCE, read).description(description).tags(tags).register(registry);
        }

        void timer(String name, String description, ToLongFunction<PanliteStats> count, ToLongFunction<PanliteStats> nanos) {
            FunctionTimer.builder(name, SOURCE, m -> count.applyAsLong(PanliteStats.snapshot(database)),
                            m -> nanos.applyAsLong(PanliteStats.snapshot(database)), TimeUnit.NANOSECONDS)
                    .description(description).tags(tags).register(registry);
        }
    }
}
