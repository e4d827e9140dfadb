package dev.panlite.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * What a {@code spring.datasource.url=jdbc:sqlite:...} needs from Boot, added to the environment as
 * its last (weakest) property source, so every setting of the user's wins:
 * <ul>
 *   <li>{@code spring.datasource.driver-class-name=dev.panlite.Driver}. Boot maps jdbc:sqlite: to
 *       the incumbent's class (DatabaseDriver.SQLITE, org.sqlite.JDBC) and fails when it is absent;
 *       with it present, the driver class decides, so the outcome does not depend on which jar
 *       DriverManager lists first.
 *   <li>HikariCP defaults for a file: no max-lifetime and no keepalive (they guard against network
 *       and server timeouts; retiring a SQLite connection only throws away its page cache and
 *       prepared statements).
 *   <li>For a private in-memory database ({@code jdbc:sqlite::memory:}, or the temporary database
 *       of an empty path), one connection kept for the pool's life: each connection would be a
 *       database of its own, gone when it closes.
 *   <li>For any in-memory database, {@code spring.sql.init.mode=always}: Boot runs schema.sql and
 *       data.sql by default only for the embedded databases it knows, and SQLite is not one of them.
 *       A file keeps Boot's default (the scripts do not run; set the mode yourself, or use Flyway).
 * </ul>
 * One log line says which driver serves the URL.
 */
final class SqliteDataSourceDefaults {
    static final String PROPERTY_SOURCE = "panlite-sqlite-defaults";
    static final String PANLITE = "dev.panlite.Driver";
    static final String INCUMBENT = "org.sqlite.JDBC";
    private static final String URL = "spring.datasource.url";
    private static final String DRIVER = "spring.datasource.driver-class-name";

    private SqliteDataSourceDefaults() {}

    static void apply(ConfigurableEnvironment environment, Log log) {
        String url = environment.getProperty(URL);
        if (url == null || !url.startsWith("jdbc:sqlite:") || environment.getPropertySources().contains(PROPERTY_SOURCE)) {
            return;
        }
        String chosen = environment.getProperty(DRIVER);
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put(DRIVER, PANLITE);
        defaults.put("spring.datasource.hikari.max-lifetime", "0");
        defaults.put("spring.datasource.hikari.keepalive-time", "0");
        String path = url.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        String params = query < 0 ? "" : path.substring(query + 1);
        path = query < 0 ? path : path.substring(0, query);
        boolean privateMemory = path.isEmpty() || path.equals(":memory:") || path.equals("file::memory:")
                || (params.contains("mode=memory") && !params.contains("cache=shared"));
        if (privateMemory) {
            defaults.put("spring.datasource.hikari.maximum-pool-size", "1");
            defaults.put("spring.datasource.hikari.minimum-idle", "1");
            defaults.put("spring.datasource.hikari.idle-timeout", "0");
        }
        if (privateMemory || path.contains(":memory:") || params.contains("mode=memory")) {
            defaults.put("spring.sql.init.mode", "always");
        }
        environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE, defaults));
        log.info(servedBy(chosen, "jdbc:sqlite:" + path, ClassUtils.isPresent(INCUMBENT, SqliteDataSourceDefaults.class.getClassLoader())));
    }

    /** The log line: which driver serves the URL (its query string left out: it may hold a key), and why. */
    static String servedBy(String chosen, String url, boolean incumbentPresent) {
        if (chosen != null && !chosen.isBlank()) {
            return url + " is served by " + chosen + " (spring.datasource.driver-class-name)";
        }
        return url + " is served by Panlite (dev.panlite.Driver, set by panlite-spring-boot)"
                + (incumbentPresent ? "; org.sqlite.JDBC is on the classpath too and unused: set"
                        + " spring.datasource.driver-class-name=org.sqlite.JDBC to use it" : "");
    }
}
