package dev.panlite.jdbc;

import dev.panlite.engine.BlobHandle;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Blob;
import java.sql.SQLException;

/**
 * A {@link Blob} over SQLite's incremental blob I/O ({@code sqlite3_blob_open}): reads and writes
 * go to the database in chunks, never through a copy of the whole value. Its size is fixed (SQLite
 * cannot grow or shrink a value this way: write a zeroblob(N) first). Closed by {@link #free()} or
 * with its connection.
 */
public final class IncrementalBlob implements Blob {
    /** Largest single read or write: bounds the native buffer, however large the caller's array. */
    private static final int CHUNK = 64 * 1024;

    private final BlobHandle handle;

    public IncrementalBlob(BlobHandle handle) {
        this.handle = handle;
    }

    @Override
    public long length() throws SQLException {
        open();
        return handle.length();
    }

    private void open() throws SQLException {
        if (handle.isClosed()) {
            throw Errors.badState("The blob is closed (free() was called, or its connection closed)");
        }
    }

    /** Checks 1-based {@code pos} and {@code length} against the value's size. */
    private int offset(long pos, long length) throws SQLException {
        open();
        if (pos < 1 || length < 0 || pos - 1 + length > handle.length()) {
            throw Errors.badArgument("Position " + pos + " and length " + length + " are outside the blob's "
                    + handle.length() + " bytes (incremental I/O cannot resize it)");
        }
        return (int) (pos - 1);
    }

    private void read(int offset, byte[] into, int at, int n) throws SQLException {
        for (int done = 0; done < n; ) {
            int chunk = Math.min(CHUNK, n - done);
            handle.read(offset + done, into, at + done, chunk);
            done += chunk;
        }
    }

    private void write(int offset, byte[] from, int at, int n) throws SQLException {
        if (!handle.writable()) {
            throw Errors.badState("The blob was opened read-only");
        }
        for (int done = 0; done < n; ) {
            int chunk = Math.min(CHUNK, n - done);
            handle.write(offset + done, from, at + done, chunk);
            done += chunk;
        }
    }

    @Override
    public byte[] getBytes(long pos, int length) throws SQLException {
        open();
        if (pos < 1 || length < 0 || pos - 1 > handle.length()) {
            throw Errors.badArgument("Position " + pos + " or length " + length + " is outside the blob's "
                    + handle.length() + " bytes");
        }
        int offset = (int) (pos - 1);
        int n = (int) Math.min(length, handle.length() - offset);
        byte[] out = new byte[n];
        read(offset, out, 0, n);
        return out;
    }

    @Override
    public InputStream getBinaryStream() throws SQLException {
        return getBinaryStream(1, handle.length());
    }

    @Override
    public InputStream getBinaryStream(long pos, long length) throws SQLException {
        int start = offset(pos, length);
        int end = start + (int) length;
        return new InputStream() {
            private int next = start;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                java.util.Objects.checkFromIndexSize(off, len, b.length);
                if (len == 0) {
                    return 0;
                }
                if (next >= end) {
                    return -1;
                }
                int n = Math.min(Math.min(len, CHUNK), end - next);
                try {
                    handle.read(next, b, off, n);
                } catch (SQLException e) {
                    throw new IOException(e.getMessage(), e);
                }
                next += n;
                return n;
            }

            @Override
            public int available() {
                return end - next;
            }
        };
    }

    @Override
    public int setBytes(long pos, byte[] bytes) throws SQLException {
        return setBytes(pos, bytes, 0, bytes.length);
    }

    @Override
    public int setBytes(long pos, byte[] bytes, int offset, int len) throws SQLException {
        java.util.Objects.checkFromIndexSize(offset, len, bytes.length);
        write(offset(pos, len), bytes, offset, len);
        return len;
    }

    @Override
    public OutputStream setBinaryStream(long pos) throws SQLException {
        int start = offset(pos, 0);
        return new OutputStream() {
            private int next = start;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                java.util.Objects.checkFromIndexSize(off, len, b.length);
                try {
                    setBytes(next + 1L, b, off, len);
                } catch (SQLException e) {
                    throw new IOException(e.getMessage(), e);
                }
                next += len;
            }
        };
    }

    @Override
    public long position(byte[] pattern, long start) throws SQLException {
        throw Errors.notSupported("Blob.position on an incremental blob (it would read the whole value)");
    }

    @Override
    public long position(Blob pattern, long start) throws SQLException {
        throw Errors.notSupported("Blob.position on an incremental blob (it would read the whole value)");
    }

    @Override
    public void truncate(long len) throws SQLException {
        throw Errors.notSupported("Resizing through incremental blob I/O (SQLite cannot; UPDATE the value instead)");
    }

    @Override
    public void free() {
        handle.close();
    }
}
