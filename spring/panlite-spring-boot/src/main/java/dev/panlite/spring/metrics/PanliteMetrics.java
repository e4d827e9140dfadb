package dev.panlite.spring.metrics;

import dev.panlite.PanliteStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Panlite's counters ({@link PanliteStats}, every connection of the JVM) as Micrometer meters named
 * {@code panlite.*}. Needs only micrometer-core: {@code new PanliteMetrics().bindTo(registry)};
 * Spring Boot binds it by itself (PanliteMetricsAutoConfiguration). Meters read the counters when
 * the registry asks, so binding costs the driver nothing.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>panlite.connections.open</td><td>gauge</td><td>connections open now</td></tr>
 *   <tr><td>panlite.connections.opened</td><td>counter</td><td>connections opened</td></tr>
 *   <tr><td>panlite.statements.executions</td><td>counter</td><td>statement executions</td></tr>
 *   <tr><td>panlite.statements.slow</td><td>counter</td><td>executions at or over the slow threshold</td></tr>
 *   <tr><td>panlite.statement.cache.hits, .misses, .evictions</td><td>counters</td><td>prepared statement cache</td></tr>
 *   <tr><td>panlite.write.gate.waits</td><td>function timer</td><td>waits for this JVM's write gate of a file: count and total time</td></tr>
 *   <tr><td>panlite.write.gate.timeouts</td><td>counter</td><td>gate waits that ended without the gate</td></tr>
 *   <tr><td>panlite.busy.waits</td><td>function timer</td><td>waits for a lock another process held (SQLITE_BUSY retried): count and total time</td></tr>
 *   <tr><td>panlite.busy.retries</td><td>counter</td><td>statement retries during those waits</td></tr>
 *   <tr><td>panlite.busy.timeouts</td><td>counter</td><td>busy waits that ended without the lock</td></tr>
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
        Gauge.builder("panlite.connections.open", SOURCE, m -> PanliteStats.snapshot().connectionsOpen())
                .description("Panlite connections open now").tags(tags).register(registry);
        counter(registry, "panlite.connections.opened", "Panlite connections opened", PanliteStats::connectionsOpened);
        counter(registry, "panlite.statements.executions", "Statement executions", PanliteStats::executions);
        counter(registry, "panlite.statements.slow", "Statement executions at or over the slow threshold",
                PanliteStats::slowStatements);
        counter(registry, "panlite.statement.cache.hits", "Prepared statements served by a connection's cache",
                PanliteStats::cacheHits);
        counter(registry, "panlite.statement.cache.misses", "Prepared statements the cache could not serve",
                PanliteStats::cacheMisses);
        counter(registry, "panlite.statement.cache.evictions", "Statements a full cache finalized",
                PanliteStats::cacheEvictions);
        timer(registry, "panlite.write.gate.waits", "Waits for the write gate of a file (another connection of this JVM was writing)",
                PanliteStats::gateWaits, s -> s.gateWaitTime().toNanos());
        counter(registry, "panlite.write.gate.timeouts", "Write gate waits that ended without the gate",
                PanliteStats::gateTimeouts);
        timer(registry, "panlite.busy.waits", "Waits for a lock another process held (SQLITE_BUSY retried)",
                PanliteStats::busyWaits, s -> s.busyWaitTime().toNanos());
        counter(registry, "panlite.busy.retries", "Statement retries while waiting for another process's lock",
                PanliteStats::busyRetries);
        counter(registry, "panlite.busy.timeouts", "Busy waits that ended without the lock", PanliteStats::busyTimeouts);
    }

    private void counter(MeterRegistry registry, String name, String description, ToLongFunction<PanliteStats> count) {
        ToDoubleFunction<Class<PanliteStats>> read = m -> count.applyAsLong(PanliteStats.snapshot());
        FunctionCounter.builder(name, SOURCE, read).description(description).tags(tags).register(registry);
    }

    private void timer(MeterRegistry registry, String name, String description, ToLongFunction<PanliteStats> count,
            ToLongFunction<PanliteStats> nanos) {
        FunctionTimer.builder(name, SOURCE, m -> count.applyAsLong(PanliteStats.snapshot()),
                        m -> nanos.applyAsLong(PanliteStats.snapshot()), TimeUnit.NANOSECONDS)
                .description(description).tags(tags).register(registry);
    }
}
