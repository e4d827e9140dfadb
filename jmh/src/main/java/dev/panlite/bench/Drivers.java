package dev.panlite.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The one way the suite gets a driver: the value of a benchmark's {@code driver} {@code @Param} becomes a
 * {@link java.sql.Driver} instance (the class itself, never {@code DriverManager}: both drivers accept
 * {@code jdbc:sqlite:}, so DriverManager would pick whichever registered first) plus the URL for a database file.
 *
 * <p>Both drivers get the same database settings, passed the same way: URL query parameters
 * {@value #COMMON_PARAMS}. {@link #open} checks that they took effect.
 *
 * <table>
 * <tr><th>driver param</th><th>what it is</th></tr>
 * <tr><td>xerial</td><td>the incumbent, {@code new org.sqlite.JDBC()}</td></tr>
 * <tr><td>panlite</td><td>{@code dev.panlite.Driver}, default settings</td></tr>
 * <tr><td>panlite-nocache</td><td>URL adds {@code stmt_cache_size=0}</td></tr>
 * <tr><td>panlite-nohelper</td><td>system property {@code panlite.helper=false} set before any Panlite class loads
 *     (every param combination runs in its own JMH fork, so this holds for the whole trial)</td></tr>
 * <tr><td>panlite-uncachedtx</td><td>URL adds {@code cache_tx_statements=false}</td></tr>
 * <tr><td>panlite-nokeys</td><td>URL adds {@code jdbc.get_generated_keys=false}</td></tr>
 * <tr><td>panlite-nodiag</td><td>URL adds {@code statement_diagnostics=false}: SQLite's statement counters are not read
 *     (experiment 071)</td></tr>
 * <tr><td>panlite-unbatched</td><td>system property {@code panlite.rowBatch=false}: every row read in place and every
 *     batch row bound and stepped from Java, as before experiment 050 (its own fork, like panlite-nohelper)</td></tr>
 * </table>
 */
public final class Drivers {

    public static final String XERIAL = "xerial";
    public static final String PANLITE = "panlite";
    public static final String PANLITE_NOCACHE = "panlite-nocache";
    public static final String PANLITE_NOHELPER = "panlite-nohelper";
    public static final String PANLITE_UNCACHEDTX = "panlite-uncachedtx";
    /** Without the incumbent-style generated keys (experiment 030); run with -p driver=...,panlite-nokeys. */
    public static final String PANLITE_NOKEYS = "panlite-nokeys";
    /** Without reading SQLite's statement counters (experiment 071); run with -p driver=...,panlite-nodiag. */
    public static final String PANLITE_NODIAG = "panlite-nodiag";
    /** Rows and batches without the batched crossing (experiment 050); run with -p driver=...,panlite-unbatched. */
    public static final String PANLITE_UNBATCHED = "panlite-unbatched";

    /**
     * Same for both drivers; both understand these names as URL query parameters. secure_delete is
     * set because the two engines' builds differ: the SQLite xerial bundles has it off, Debian's
     * system SQLite (Panlite's default) is compiled with it on, which zeroes every freed page
     * (docs/experiments/005-secure-delete.md). Setting it explicitly compares drivers, not builds.
     */
    public static final String COMMON_PARAMS = "journal_mode=WAL&synchronous=NORMAL&busy_timeout=3000&secure_delete=false";

    static final String PANLITE_CLASS = "dev.panlite.Driver";

    private Drivers() {}

    /** A driver instance and the URL (minus the file) to hand it. */
    public record Target(String name, Driver driver, String urlParams) {
        public String url(Path dbFile) {
            return "jdbc:sqlite:" + dbFile.toAbsolutePath() + "?" + urlParams;
        }

        public Connection connect(Path dbFile) throws SQLException {
            Connection c = driver.connect(url(dbFile), new Properties());
            if (c == null) throw new SQLException(name + " did not accept " + url(dbFile));
            return c;
        }

        public boolean isPanlite() {
            return !name.equals(XERIAL);
        }
    }

    /** {@link #target(String, String)} without extra Panlite settings. */
    public static Target target(String param) {
        return target(param, null);
    }

    /** {@link #target(String, String, String)} without extra settings for the incumbent. */
    public static Target target(String param, String panliteExtra) {
        return target(param, panliteExtra, null);
    }

    /**
     * @param param        the {@code driver} param value
     * @param panliteExtra extra URL query parameters for Panlite only (e.g. {@code stmt_cache_size=4}); null for none.
     *                     The incumbent does not know Panlite's settings, so it never gets them.
     * @param xerialExtra  extra URL query parameters for the incumbent only (e.g. {@code enable_load_extension=true},
     *                     which VectorBench needs to load sqlite-vec); null for none
     */
    public static Target target(String param, String panliteExtra, String xerialExtra) {
        String params = COMMON_PARAMS;
        Driver driver;
        switch (param) {
            case XERIAL -> driver = new org.sqlite.JDBC();
            case PANLITE -> driver = panlite();
            case PANLITE_NOCACHE -> {
                driver = panlite();
                params += "&stmt_cache_size=0";
            }
            case PANLITE_NOHELPER -> {
                // Before the first use of any dev.panlite class: the helper is chosen once per process.
                System.setProperty("panlite.helper", "false");
                driver = panlite();
            }
            case PANLITE_UNCACHEDTX -> {
                driver = panlite();
                params += "&cache_tx_statements=false";
            }
            case PANLITE_UNBATCHED -> {
                System.setProperty("panlite.rowBatch", "false"); // before any Panlite class loads, as panlite-nohelper
                driver = panlite();
            }
            case PANLITE_NOKEYS -> {
                driver = panlite();
                params += "&jdbc.get_generated_keys=false";
            }
            case PANLITE_NODIAG -> {
                driver = panlite();
                params += "&statement_diagnostics=false";
            }
            default -> throw new IllegalArgumentException("unknown driver param: " + param);
        }
        if (panliteExtra != null && !param.equals(XERIAL)) params += "&" + panliteExtra;
        if (xerialExtra != null && param.equals(XERIAL)) params += "&" + xerialExtra;
        return new Target(param, driver, params);
    }

    /**
     * {@code new dev.panlite.Driver()}, done reflectively so that (1) no Panlite class is loaded before
     * {@link #target} has set the system properties a variant needs, and (2) the suite still builds and runs
     * the incumbent while the Panlite jar is incomplete. Still the class itself, never DriverManager.
     */
    static Driver panlite() {
        try {
            return (Driver) Class.forName(PANLITE_CLASS).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + PANLITE_CLASS + ": " + e, e);
        }
    }

    // ------------------------------------------------------------------ databases

    /** A fresh, empty temp directory holding {@code bench.db}; delete with {@link #deleteDatabase}. */
    public static Path newDatabaseFile() throws IOException {
        return Files.createTempDirectory("panlite-bench-").resolve("bench.db");
    }

    public static void deleteDatabase(Path dbFile) {
        if (dbFile == null) return;
        Path dir = dbFile.getParent();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is not worth failing a benchmark for
        }
    }

    /** Connects and checks that the common settings took effect, so both drivers run the same database. */
    public static Connection open(Target target, Path dbFile) throws SQLException {
        Connection c = target.connect(dbFile);
        try (Statement s = c.createStatement()) {
            expect(s, "PRAGMA journal_mode", "wal", target);
            expect(s, "PRAGMA synchronous", "1", target); // NORMAL
            // both answer the wait in force; Panlite waits it in Java and keeps SQLite's own at 0 (it never
            // sleeps inside a call), and answers the PRAGMA itself
            expect(s, "PRAGMA busy_timeout", "3000", target);
            if (target.isPanlite()) {
                expectPanliteBusyTimeout(c, 3000, target);
            }
            expect(s, "PRAGMA secure_delete", "0", target);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Panlite's busy_timeout, read reflectively (no Panlite class loads before {@link #target} ran). */
    private static void expectPanliteBusyTimeout(Connection c, int want, Target target) throws SQLException {
        try {
            Class<?> type = Class.forName("dev.panlite.PanliteConnection");
            Object config = type.getMethod("config").invoke(c.unwrap(type));
            Object got = config.getClass().getMethod("busyTimeoutMillis").invoke(config);
            if (!Integer.valueOf(want).equals(got)) {
                throw new IllegalStateException(target.name() + ": busy_timeout is " + got + ", expected " + want);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(target.name() + ": cannot read its busy_timeout: " + e, e);
        }
    }

    private static void expect(Statement s, String pragma, String want, Target target) throws SQLException {
        try (ResultSet rs = s.executeQuery(pragma)) {
            String got = rs.next() ? rs.getString(1) : null;
            if (got == null || !got.equalsIgnoreCase(want)) {
                throw new IllegalStateException(
                        target.name() + ": " + pragma + " is " + got + ", expected " + want + " (URL params " + target.urlParams() + ")");
            }
        }
    }

    /** {@code select sqlite_version()} through the driver, on a throwaway database. */
    public static String sqliteVersion(Target target) throws Exception {
        Path db = newDatabaseFile();
        try (Connection c = target.connect(db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select sqlite_version()")) {
            return rs.next() ? rs.getString(1) : "?";
        } finally {
            deleteDatabase(db);
        }
    }
}
