package dev.panlite.engine;

import dev.panlite.ffi.PrivateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

/**
 * The incumbent's {@code jdbc:sqlite::resource:NAME}: a database packaged in the application (a
 * classpath resource, a {@code jar:} URL) or behind a {@code file:} or {@code http:} URL. SQLite
 * opens files, so the bytes are copied to a private temporary file in {@code java.io.tmpdir}
 * (owner-only: {@link PrivateFiles}), opened read-only and deleted when the connection closes.
 */
final class ResourceDatabase {
    private ResourceDatabase() {}

    /** Copies the resource {@code name} to a new temporary file and returns its path. */
    static Path copy(String name) throws SQLException {
        URL url = find(name);
        Path temp = null;
        try (InputStream in = url.openStream()) {
            temp = PrivateFiles.createFile(Path.of(System.getProperty("java.io.tmpdir")), "panlite-resource-", ".db");
            try (var out = Files.newOutputStream(temp)) { // into the owner-only file (Files.copy would replace it)
                in.transferTo(out);
            }
            return temp;
        } catch (IOException e) {
            delete(temp);
            throw new SQLNonTransientConnectionException("Cannot copy the database resource " + name + " (" + url
                    + ") to a temporary file: " + e, SqlState.UNABLE_TO_CONNECT, e);
        }
    }

    /** The resource on the context class loader (then the driver's), else {@code name} as a URL. */
    private static URL find(String name) throws SQLException {
        String path = name.startsWith("/") ? name.substring(1) : name;
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        URL url = context != null ? context.getResource(path) : null;
        if (url == null) {
            url = ResourceDatabase.class.getClassLoader().getResource(path);
        }
        if (url != null) {
            return url;
        }
        try {
            URI uri = new URI(name);
            if (uri.getScheme() != null && uri.getScheme().length() > 1) { // not a Windows drive letter
                return uri.toURL();
            }
        } catch (Exception notAUrl) {
            // falls through to the message below
        }
        throw new SQLNonTransientConnectionException("Database resource not found: " + name
                + " (neither on the classpath nor a jar:, file: or http: URL)", SqlState.UNABLE_TO_CONNECT);
    }

    /** Deletes the temporary copy; quietly, since the connection is closing either way. */
    static void delete(Path temp) {
        if (temp != null) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                System.getLogger("dev.panlite").log(System.Logger.Level.WARNING,
                        "Could not delete the temporary copy of a database resource: " + temp, e);
            }
        }
    }
}
