package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PanliteConnection.openBlob: incremental blob I/O through sqlite3_blob_open/read/write. */
class IncrementalBlobTest {
    @TempDir
    Path dir;

    Connection conn;
    PanliteConnection extras;
    final byte[] value = new byte[300_000]; // several chunks of the 64 KiB buffer

    @BeforeEach
    void open() throws SQLException {
        new Random(7).nextBytes(value);
        conn = TestDb.open(dir);
        extras = conn.unwrap(PanliteConnection.class);
        TestDb.exec(conn, "CREATE TABLE doc(id INTEGER PRIMARY KEY, body BLOB)",
                "INSERT INTO doc VALUES (2, zeroblob(1000))");
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO doc VALUES (1, ?)")) {
            ps.setBytes(1, value);
            ps.executeUpdate();
        }
    }

    @org.junit.jupiter.api.AfterEach
    void close() throws SQLException {
        conn.close();
    }

    private byte[] stored(long id) throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT body FROM doc WHERE id = " + id)) {
            assertTrue(rs.next());
            return rs.getBytes(1);
        }
    }

    @Test
    void readsInPiecesAndAsAStream() throws Exception {
        Blob blob = extras.openBlob("main", "doc", "body", 1, false);
        assertEquals(value.length, blob.length());
        byte[] middle = blob.getBytes(100_001, 70_000);
        assertArrayEquals(java.util.Arrays.copyOfRange(value, 100_000, 170_000), middle);
        assertArrayEquals(java.util.Arrays.copyOfRange(value, 299_990, 300_000), blob.getBytes(299_991, 50),
                "a read past the end returns what there is");
        assertEquals(0, blob.getBytes(300_001, 5).length);
        try (InputStream in = blob.getBinaryStream()) {
            assertArrayEquals(value, in.readAllBytes());
        }
        try (InputStream in = blob.getBinaryStream(11, 5)) {
            assertEquals(value[10] & 0xff, in.read());
            assertArrayEquals(java.util.Arrays.copyOfRange(value, 11, 15), in.readAllBytes());
            assertEquals(-1, in.read());
        }
        assertThrows(SQLException.class, () -> blob.setBytes(1, new byte[] {1}), "opened read-only");
        assertThrows(SQLException.class, () -> blob.getBytes(0, 1));
        blob.free();
        assertThrows(SQLException.class, blob::length);
        blob.free(); // twice is fine
    }

    @Test
    void writesInPlaceWithoutResizing() throws Exception {
        Blob blob = extras.openBlob("main", "doc", "body", 2, true);
        assertEquals(3, blob.setBytes(11, new byte[] {7, 8, 9}));
        try (OutputStream out = blob.setBinaryStream(901)) {
            out.write(5);
            out.write(new byte[99]);
            assertThrows(IOException.class, () -> out.write(1), "the value's size is fixed");
        }
        assertThrows(SQLException.class, () -> blob.setBytes(999, new byte[] {1, 2, 3}));
        assertThrows(SQLException.class, () -> blob.truncate(10));
        blob.free();
        byte[] now = stored(2);
        assertEquals(1000, now.length);
        assertArrayEquals(new byte[] {7, 8, 9}, java.util.Arrays.copyOfRange(now, 10, 13));
        assertEquals(5, now[900]);
    }

    @Test
    void anUpdatedRowExpiresTheBlobAndMissingRowsAreErrors() throws Exception {
        Blob blob = extras.openBlob(null, "doc", "body", 1, false);
        TestDb.exec(conn, "UPDATE doc SET body = x'00' WHERE id = 1");
        SQLException expired = assertThrows(SQLException.class, () -> blob.getBytes(1, 1));
        assertTrue(expired.getMessage().toLowerCase().contains("abort"), expired.getMessage());
        blob.free();
        assertThrows(SQLException.class, () -> extras.openBlob("main", "doc", "body", 99, false));
        assertThrows(SQLException.class, () -> extras.openBlob("main", "nope", "body", 1, false));
        assertThrows(SQLException.class, () -> extras.openBlob("main", "doc", "nope", 1, false));
    }

    @Test
    void closingTheConnectionClosesItsBlobs() throws Exception {
        Blob a = extras.openBlob("main", "doc", "body", 1, false);
        Blob b = extras.openBlob("main", "doc", "body", 2, true);
        InputStream in = a.getBinaryStream();
        conn.close(); // SQLite refuses to close a connection with open blobs: the driver closes them first
        assertThrows(SQLException.class, () -> a.getBytes(1, 1));
        assertThrows(SQLException.class, () -> b.setBytes(1, new byte[] {1}));
        assertThrows(IOException.class, in::read);
        a.free();
        b.free();
    }

    @Test
    void blobsUsedFromManyThreadsNeverCrash() throws Exception {
        Blob blob = extras.openBlob("main", "doc", "body", 1, false);
        TestThreads threads = new TestThreads();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            threads.start("reader-" + t, () -> {
                Random r = new Random(seed);
                for (int i = 0; i < 200; i++) {
                    try {
                        int pos = r.nextInt(value.length) + 1;
                        byte[] got = blob.getBytes(pos, 100);
                        assertArrayEquals(java.util.Arrays.copyOfRange(value, pos - 1, pos - 1 + got.length), got);
                    } catch (SQLException closedMeanwhile) {
                        return; // the main thread freed it: an error, never a crash
                    }
                }
            });
        }
        blob.free(); // while they read
        threads.join();
        assertThrows(SQLException.class, () -> blob.getBytes(1, 1));
    }
}
