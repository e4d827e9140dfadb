package dev.panlite;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run by {@link ContentionTest} in its own JVM (another process, so another write gate): holds a
 * write transaction on the file in {@code args[0]} until a line arrives on stdin, then commits.
 */
public final class ContentionChild {
    public static void main(String[] args) throws Exception {
        try (Connection c = new Driver().connect("jdbc:sqlite:" + args[0], new Properties());
                Statement s = c.createStatement()) {
            ChildJvm.reportEngine(System.out);
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('child')");
            System.out.println("locked");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            c.commit();
            System.out.println("committed");
            System.out.flush();
        }
    }
}
