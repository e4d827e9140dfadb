package dev.panlite.spring.boot;

import org.apache.commons.logging.Log;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Boot 3.5's entry point (org.springframework.boot.env.EnvironmentPostProcessor, in spring.factories
 * under that name) for {@link SqliteDataSourceDefaults}. Boot 4 still reads that key (the interface
 * is deprecated there), so on Boot 4, where {@link PanliteEnvironmentPostProcessor} runs, this one
 * does nothing.
 */
@SuppressWarnings({"deprecation", "removal"})
public class PanliteBoot3EnvironmentPostProcessor implements org.springframework.boot.env.EnvironmentPostProcessor, Ordered {
    static final boolean BOOT_4 = ClassUtils.isPresent("org.springframework.boot.EnvironmentPostProcessor",
            PanliteBoot3EnvironmentPostProcessor.class.getClassLoader());

    private final Log log;

    public PanliteBoot3EnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(SqliteDataSourceDefaults.class); // not the Boot 4 class: it would not load on 3.5
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!BOOT_4) {
            SqliteDataSourceDefaults.apply(environment, log);
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
