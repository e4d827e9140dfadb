package dev.panlite.fault;

import dev.panlite.CheckpointMode;
import dev.panlite.PanliteConnection;
import dev.panlite.SqliteError;
import dev.panlite.jdbc.SqliteState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The driver a sweep runs: Panlite, or the incumbent (xerial sqlite-jdbc, loaded by name from the
 * class path of its own child JVM, so the driver's tests never depend on it). What the JDBC API does
 * not say the same way for both (backup, checkpoints, SQLite's own transaction state, the extended
 * code) goes through here.
 */
public interface Target {
    /** "panlite" or "incumbent". */
    String name();

    /** The class name HikariCP loads. */
    String driverClass();

    Connection connect(String url) throws SQLException;

    /** Whether SQLite has a transaction open on {@code c}; null when this driver cannot say. */
    Boolean sqliteInTransaction(Connection c) throws SQLException;

    void backup(Connection c, Path to) throws SQLException;

    void restore(Connection c, Path from) throws SQLException;

    /** A checkpoint of {@code mode} (PASSIVE, FULL, RESTART, TRUNCATE) of the WAL. */
    void checkpoint(Connection c, String mode) throws SQLException;

    /** SQLite's extended result code of {@code e}, or -1 when it carries none. */
    int extendedCode(SQLException e);

    /** The engine, for reports. */
    String engine();

    /** The target named {@code name}. */
    static Target named(String name) {
        return switch (name) {
            case "panlite" -> new Panlite();
            case "incumbent" -> new Incumbent();
            default -> throw new IllegalArgumentException("no target " + name + " (panlite, incumbent)");
        };
    }

    /** Panlite, through its own API where JDBC has none. */
    final class Panlite implements Target {
        private final Driver driver = new dev.panlite.Driver();

        @Override
        public String name() {
            return "panlite";
        }

        @Override
        public String driverClass() {
            return dev.panlite.Driver.class.getName();
        }

        @Override
        public Connection connect(String url) throws SQLException {
            return driver.connect(url, new Properties());
        }

        @Override
        public Boolean sqliteInTransaction(Connection c) throws SQLException {
            return SqliteState.inTransaction(c);
        }

        @Override
        public void backup(Connection c, Path to) throws SQLException {
            c.unwrap(PanliteConnection.class).backup("main", to, null);
        }

        @Override
        public void restore(Connection c, Path from) throws SQLException {
            c.unwrap(PanliteConnection.class).restore("main", from, null);
        }

        @Override
        public void checkpoint(Connection c, String mode) throws SQLException {
            c.unwrap(PanliteConnection.class).checkpoint(CheckpointMode.valueOf(mode));
        }

        @Override
        public int extendedCode(SQLException e) {
            for (Throwable t = e; t != null; t = t.getCause()) { // a BatchUpdateException's cause is the failure
                if (t instanceof SqliteError s) {
                    return s.extendedCode();
                }
            }
            return -1;
        }

        @Override
        public String engine() {
            return dev.panlite.ChildJvm.engine();
        }
    }

    /** xerial sqlite-jdbc, by reflection: its jar is on the class path of the incumbent's child JVM only. */
    final class Incumbent implements Target {
        private final Driver driver;

        Incumbent() {
            try {
                driver = (Driver) Class.forName("org.sqlite.JDBC").getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the incumbent (org.sqlite.JDBC) is not on the class path", e);
            }
        }

        @Override
        public String name() {
            return "incumbent";
        }

        @Override
        public String driverClass() {
            return "org.sqlite.JDBC";
        }

        @Override
        public Connection connect(String url) throws SQLException {
            return driver.connect(url, new Properties());
        }

        @Override
        public Boolean sqliteInTransaction(Connection c) {
            return null; // it does not say; the checks that follow (commit, rollback, the next statement) tell
        }

        @Override
        public void backup(Connection c, Path to) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("backup to " + to);
            }
        }

        @Override
        public void restore(Connection c, Path from) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("restore from " + from);
            }
        }

        @Override
        public void checkpoint(Connection c, String mode) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(" + mode + ")");
            }
        }

        @Override
        public int extendedCode(SQLException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                try { // org.sqlite.SQLiteException.getResultCode().code: the extended code
                    Object code = t.getClass().getMethod("getResultCode").invoke(t);
                    return code.getClass().getField("code").getInt(code);
                } catch (ReflectiveOperationException | RuntimeException notSqlite) {
                    // not the incumbent's own exception: its cause may be
                }
            }
            return e.getErrorCode() > 0 ? e.getErrorCode() : -1;
        }

        @Override
        public String engine() {
            return "xerial sqlite-jdbc " + driver.getMajorVersion() + "." + driver.getMinorVersion();
        }
    }
}
