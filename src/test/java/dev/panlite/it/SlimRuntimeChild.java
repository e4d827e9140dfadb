package dev.panlite.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Run by {@link SlimRuntimeIT} inside a jlink image of java.base, java.sql and java.logging, with
 * only the driver's jar: writes (auto-commit and in a transaction), reads, and a writer that waits
 * for the write gate until it times out (the paths that record JFR events where JFR exists).
 * Prints "OK" and what it saw; any failure ends the JVM with its stack trace.
 */
public final class SlimRuntimeChild {
    private SlimRuntimeChild() {}

    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + args[0] + "?journal_mode=WAL";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT)");
            s.executeUpdate("INSERT INTO t(x) VALUES ('auto-commit')");
            c.setAutoCommit(false);
            try (var ps = c.prepareStatement("INSERT INTO t(x) VALUES (?)")) {
                for (int i = 0; i < 3; i++) {
                    ps.setString(1, "tx " + i);
                    ps.executeUpdate();
                }
            }
            // the write transaction is open: another connection waits for the gate and times out
            try (Connection other = DriverManager.getConnection(url + "&busy_timeout=50");
                 Statement o = other.createStatement()) {
                o.executeUpdate("INSERT INTO t(x) VALUES ('blocked')");
                throw new AssertionError("the second writer did not wait for the first");
            } catch (SQLException expected) {
                if (!String.valueOf(expected.getMessage()).contains("locked")) {
                    throw expected;
                }
            }
            c.commit();
            try (ResultSet rs = s.executeQuery("SELECT count(*), group_concat(x, ',') FROM t")) {
                rs.next();
                System.out.println("OK rows=" + rs.getInt(1) + " [" + rs.getString(2) + "] jdk.jfr="
                        + ModuleLayer.boot().findModule("jdk.jfr").isPresent());
            }
        }
    }
}
