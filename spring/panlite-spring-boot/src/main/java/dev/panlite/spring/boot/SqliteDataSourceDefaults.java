package dev.panlite.spring.boot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
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
 *   <li>For a database private to each connection ({@link DatabaseKind#PRIVATE}: a private in-memory
 *       database, or the temporary database of an empty path), one connection kept for the pool's
 *       life: each connection would be a database of its own, gone when it closes.
 *   <li>For any in-memory (or temporary) database, {@code spring.sql.init.mode=always}: Boot runs
 *       schema.sql and data.sql by default only for the embedded databases it knows, and SQLite is
 *       not one of them. A file keeps Boot's default (the scripts do not run; set the mode yourself,
 *       or use Flyway).
 *   <li>{@code spring.flyway.driver-class-name} and {@code spring.liquibase.driver-class-name} for
 *       their own {@code jdbc:sqlite:} URLs, for the same reason as the first: the driver the
 *       application's datasource uses (Panlite, unless the user named another for it).
 * </ul>
 * The URLs are read with placeholders resolved leniently: a placeholder that only a later property
 * source resolves (a test's {@code @DynamicPropertySource}) stays as written instead of failing the
 * start, and a URL that does not then start with {@code jdbc:sqlite:} gets nothing.
 * One log line says which driver serves the URL.
 */
final class SqliteDataSourceDefaults {
    static final String PROPERTY_SOURCE = "panlite-sqlite-defaults";
    static final String PANLITE = "dev.panlite.Driver";
    static final String INCUMBENT = "org.sqlite.JDBC";
    private static final String URL = "spring.datasource.url";
    private static final String DRIVER = "spring.datasource.driver-class-name";
    /** The migration tools whose own URL Boot turns into a DataSource with a driver derived from it. */
    private static final List<String> MIGRATION_TOOLS = List.of("spring.flyway", "spring.liquibase");

    private SqliteDataSourceDefaults() {}

    static void apply(ConfigurableEnvironment environment, Log log) {
        if (environment.getPropertySources().contains(PROPERTY_SOURCE)) {
            return;
        }
        // Binder.get resolves placeholders leniently (an unresolvable one stays as written), and
        // reads relaxed names (SPRING_DATASOURCE_URL) as Boot's binding does.
        Binder binder = Binder.get(environment);
        String url = value(binder, URL);
        String chosen = value(binder, DRIVER);
        Map<String, Object> defaults = new LinkedHashMap<>();
        boolean sqlite = isSqlite(url);
        if (sqlite) {
            defaults.put(DRIVER, PANLITE);
            defaults.put("spring.datasource.hikari.max-lifetime", "0");
            defaults.put("spring.datasource.hikari.keepalive-time", "0");
            DatabaseKind kind = DatabaseKind.of(url);
            if (kind == DatabaseKind.PRIVATE) {
                defaults.put("spring.datasource.hikari.maximum-pool-size", "1");
                defaults.put("spring.datasource.hikari.minimum-idle", "1");
                defaults.put("spring.datasource.hikari.idle-timeout", "0");
            }
            if (kind != DatabaseKind.FILE) {
                defaults.put("spring.sql.init.mode", "always");
            }
        }
        // Migrations run on the driver the application runs on.
        String migrationDriver = sqlite && chosen != null && !chosen.isBlank() ? chosen : PANLITE;
        for (String tool : MIGRATION_TOOLS) {
            if (isSqlite(value(binder, tool + ".url"))) {
                defaults.put(tool + ".driver-class-name", migrationDriver);
            }
        }
        if (defaults.isEmpty()) {
            return;
        }
        environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE, defaults));
        if (sqlite) {
            int query = url.indexOf('?');
            log.info(servedBy(chosen, query < 0 ? url : url.substring(0, query),
                    ClassUtils.isPresent(INCUMBENT, SqliteDataSourceDefaults.class.getClassLoader())));
        }
    }

    private static boolean isSqlite(String url) {
        return url != null && url.startsWith("jdbc:sqlite:");
    }

    /** The property's value, placeholders resolved where they can be; null when unset. */
    private static String value(Binder binder, String name) {
        return binder.bind(name, Bindable.of(String.class)).orElse(null);
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
