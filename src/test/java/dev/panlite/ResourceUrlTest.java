package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jdbc:sqlite::resource:} URLs, as the incumbent opens them: read-only, from a private temporary copy. */
class ResourceUrlTest {
    @TempDir
    Path dir;

    Path db;

    @BeforeEach
    void makeDatabase() throws SQLException, IOException {
        Files.createDirectories(dir.resolve("res/data"));
        db = dir.resolve("res/data/packaged.db");
        try (Connection c = new Driver().connect("jdbc:sqlite:" + db, new Properties())) {
            TestDb.exec(c, "CREATE TABLE fruit(name TEXT)", "INSERT INTO fruit VALUES ('apple'), ('pear')");
        }
    }

    private static long tempCopies() throws IOException {
        long n = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")),
                "panlite-resource-*")) {
            for (Path ignored : s) {
                n++;
            }
        }
        return n;
    }

    /** Reads the packaged rows, checks the database refuses writes, and that the copy goes at close. */
    private static void check(String url) throws SQLException, IOException {
        long before = tempCopies();
        try (Connection c = new Driver().connect(url, new Properties()); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT group_concat(name, ',') FROM fruit")) {
                assertTrue(rs.next());
                assertEquals("apple,pear", rs.getString(1));
            }
            SQLException e = assertThrows(SQLException.class, () -> s.execute("INSERT INTO fruit VALUES ('fig')"));
            assertTrue(e.getMessage().contains("readonly"), e.getMessage());
            assertEquals(before + 1, tempCopies(), "one private copy while open");
            try (ResultSet rs = s.executeQuery("SELECT file FROM pragma_database_list WHERE name = 'main'")) {
                assertTrue(rs.next());
                Path copy = Path.of(rs.getString(1));
                assertTrue(copy.getFileName().toString().startsWith("panlite-resource-"), copy.toString());
                if (Files.getFileStore(copy).supportsFileAttributeView("posix")) {
                    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(copy)), "owner-only");
                }
            }
        }
        assertEquals(before, tempCopies(), "the copy is deleted on close");
    }

    @Test
    void classpathResource() throws Exception {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("res").toUri().toURL()}, previous)) {
            Thread.currentThread().setContextClassLoader(loader);
            check("jdbc:sqlite::resource:data/packaged.db");
            check("jdbc:sqlite::resource:/data/packaged.db");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    @Test
    void jarAndFileUrls() throws Exception {
        Path jar = dir.resolve("app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("db/packaged.db"));
            Files.copy(db, out);
            out.closeEntry();
        }
        check("jdbc:sqlite::resource:jar:" + jar.toUri() + "!/db/packaged.db");
        check("jdbc:sqlite::resource:" + db.toUri());
        assertTrue(Files.exists(db), "a file: resource is copied, never opened or deleted in place");
    }

    @Test
    void httpUrl() throws Exception {
        byte[] bytes = Files.readAllBytes(db);
        // the smallest HTTP server: one response per connection, whatever was asked
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
            TestThreads serving = new TestThreads();
            serving.startVirtual("http-server", () -> {
                try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
                    socket.getInputStream().read(new byte[8192]); // the request line and headers
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    out.write(bytes);
                }
            });
            check("jdbc:sqlite::resource:http://127.0.0.1:" + server.getLocalPort() + "/packaged.db");
            serving.join();
        }
    }

    @Test
    void aMissingResourceSaysSo() throws IOException {
        long before = tempCopies();
        SQLException e = assertThrows(SQLException.class,
                () -> new Driver().connect("jdbc:sqlite::resource:no/such.db", new Properties()));
        assertTrue(e.getMessage().contains("not found: no/such.db"), e.getMessage());
        assertThrows(SQLException.class, () -> new Driver().connect("jdbc:sqlite::resource:", new Properties()));
        assertEquals(before, tempCopies());
    }
}
