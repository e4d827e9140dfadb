package dev.panlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run in a child JVM by {@link LoadExtensionTest}: loads an extension whose entry point registers
 * half() and then fails, and calls half(), which SQLite left registered in a library it unloaded. A
 * crash there kills only this JVM. Prints {@code load=}, {@code half=} and {@code close=} lines.
 */
public final class LoadExtensionChild {
    private LoadExtensionChild() {}

    public static void main(String[] args) throws Exception {
        Connection c = new Driver().connect("jdbc:sqlite:" + args[0], new Properties());
        ChildJvm.reportEngine(System.out);
        try {
            c.unwrap(PanliteConnection.class).loadExtension(Path.of(args[1]), null);
            System.out.println("load=loaded");
        } catch (SQLException e) {
            System.out.println("load=SQLException " + e.getSQLState() + " " + e.getMessage());
        }
        System.out.flush();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT half()")) {
            rs.next();
            System.out.println("half=" + rs.getInt(1));
        } catch (SQLException e) {
            System.out.println("half=SQLException " + e.getMessage());
        }
        System.out.flush();
        c.close();
        System.out.println("close=closed");
    }
}
