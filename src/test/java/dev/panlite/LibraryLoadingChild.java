package dev.panlite;

import dev.panlite.ffi.SqliteLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run in a child JVM by {@link LibraryLoadingTest} (the library is chosen once per process):
 * connects to an in-memory database and reports, one {@code key=value} a line (newlines in values
 * escaped as \n), what happened.
 */
public final class LibraryLoadingChild {
    private LibraryLoadingChild() {}

    public static void main(String[] args) throws Exception {
        try (Connection c = new Driver().connect("jdbc:sqlite::memory:", new Properties());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select sqlite_version(), sqlite_source_id()")) {
            rs.next();
            report("version", rs.getString(1));
            report("sqlSourceId", rs.getString(2));
            report("sourceId", c.unwrap(PanliteConnection.class).sqliteSourceId());
            report("loadedFrom", SqliteLibrary.loadedFrom());
            report("bundled", String.valueOf(SqliteLibrary.bundled()));
            ChildJvm.reportEngine(System.out);
        } catch (SQLException e) {
            report("exception", e.getClass().getName());
            report("sqlState", e.getSQLState());
            report("message", e.getMessage());
        } catch (Throwable t) {
            report("unexpected", t.toString());
        }
        String chosen = System.getProperty(SqliteLibrary.LIBRARY_PROPERTY);
        if (chosen != null && Files.exists(Path.of(chosen))) {
            String real = Path.of(chosen).toRealPath().toString();
            boolean mapped = Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.endsWith(" " + real));
            report("chosenMapped", String.valueOf(mapped));
        }
    }

    private static void report(String key, String value) {
        System.out.println(key + "=" + (value == null ? "null" : value.replace("\\", "\\\\").replace("\n", "\\n")));
    }
}
