package dev.panlite.spring.boot;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Boot 4's entry point (org.springframework.boot.EnvironmentPostProcessor, in spring.factories under
 * that name) for {@link SqliteDataSourceDefaults}. Runs after the application's configuration is
 * loaded (lowest precedence). Boot 3.5 never loads this class: it has no such interface.
 */
public class PanliteEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {
    private final Log log;

    public PanliteEnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(SqliteDataSourceDefaults.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        SqliteDataSourceDefaults.apply(environment, log);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
