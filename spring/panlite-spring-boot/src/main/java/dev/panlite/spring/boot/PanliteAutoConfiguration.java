package dev.panlite.spring.boot;

import dev.panlite.PanliteStats;
import dev.panlite.spring.metrics.PanliteMetrics;
import java.time.Duration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Boot's side of the module beyond the environment defaults ({@link PanliteEnvironmentPostProcessor}):
 * Panlite's Micrometer meters, bound when Micrometer is on the classpath (Actuator brings it). The
 * same class works on Boot 3.5 and 4.0: it names nothing either line moved.
 */
@AutoConfiguration
public class PanliteAutoConfiguration {
    /** Default of {@code panlite.metrics.slow-statement-threshold}. */
    static final Duration SLOW_THRESHOLD = Duration.ofMillis(250);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    @ConditionalOnProperty(name = "panlite.metrics.enabled", matchIfMissing = true)
    static class Metrics {
        /**
         * The meters; {@code panlite.metrics.slow-statement-threshold} (a Duration, default 250ms, 0
         * turns the timing off) sets the driver's process-wide slow statement threshold.
         */
        @Bean
        @ConditionalOnMissingBean
        PanliteMetrics panliteMetrics(Environment environment) {
            PanliteStats.setSlowStatementThreshold(environment.getProperty("panlite.metrics.slow-statement-threshold",
                    Duration.class, SLOW_THRESHOLD));
            return new PanliteMetrics();
        }
    }
}
