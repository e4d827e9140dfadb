package dev.panlite.jdbc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Blob;
import java.sql.SQLException;
import java.util.Arrays;

/** A Blob held in memory: SQLite hands out whole values, so there is no locator to keep open. */
final class JdbcBlob implements Blob {
    private byte[] bytes;

    JdbcBlob(byte[] bytes) {
        this.bytes = bytes;
    }

    private byte[] data() throws SQLException {
        if (bytes == null) {
            throw Errors.badState("The Blob was freed");
        }
        return bytes;
    }

    @Override
    public long length() throws SQLException {
        return data().length;
    }

    @Override
    public byte[] getBytes(long pos, int length) throws SQLException {
        byte[] data = data();
        if (pos < 1 || pos > data.length + 1L || length < 0) {
            throw Errors.badArgument("Blob position " + pos + " / length " + length + " out of range");
        }
        int from = (int) pos - 1;
        return Arrays.copyOfRange(data, from, (int) Math.min(data.length, (long) from + length));
    }

    @Override
    public InputStream getBinaryStream() throws SQLException {
        return new ByteArrayInputStream(data());
    }

    @Override
    public InputStream getBinaryStream(long pos, long length) throws SQLException {
        byte[] data = data();
        if (pos < 1 || length < 0 || pos > data.length + 1L || length > data.length - (pos - 1)) {
            throw Errors.badArgument("Blob position " + pos + " / length " + length + " out of range");
        }
        return new ByteArrayInputStream(data, (int) pos - 1, (int) length);
    }

    @Override
    public long position(byte[] pattern, long start) throws SQLException {
        byte[] data = data();
        if (start < 1 || pattern == null) {
            throw Errors.badArgument("position needs a pattern and a start of at least 1");
        }
        if (start > data.length + 1L) {
            return -1;
        }
        outer:
        for (int i = (int) start - 1; i <= data.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i + 1;
        }
        return -1;
    }

    @Override
    public long position(Blob pattern, long start) throws SQLException {
        if (pattern == null || pattern.length() > Integer.MAX_VALUE) {
            throw Errors.badArgument("position needs a pattern Blob shorter than 2 GiB");
        }
        return position(pattern.getBytes(1, (int) pattern.length()), start);
    }

    @Override
    public int setBytes(long pos, byte[] source) throws SQLException {
        if (source == null) {
            throw Errors.badArgument("bytes are null");
        }
        return setBytes(pos, source, 0, source.length);
    }

    @Override
    public int setBytes(long pos, byte[] source, int offset, int len) throws SQLException {
        byte[] data = data();
        if (source == null || pos < 1 || pos > data.length + 1L || offset < 0 || len < 0
                || (long) offset + len > source.length || pos - 1 + len > Integer.MAX_VALUE - 8) {
            throw Errors.badArgument("Blob position " + pos + " / offset " + offset + " / length " + len + " out of range");
        }
        int at = (int) pos - 1;
        if (at + len > data.length) {
            data = Arrays.copyOf(data, at + len);
        }
        System.arraycopy(source, offset, data, at, len);
        bytes = data;
        return len;
    }

    @Override
    public OutputStream setBinaryStream(long pos) throws SQLException {
        data();
        if (pos < 1 || pos > bytes.length + 1L) {
            throw Errors.badArgument("Blob position " + pos + " out of range");
        }
        return new ByteArrayOutputStream() {
            @Override
            public void close() throws java.io.IOException {
                try {
                    setBytes(pos, toByteArray());
                } catch (SQLException e) {
                    throw new java.io.IOException(e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public void truncate(long len) throws SQLException {
        byte[] data = data();
        if (len < 0 || len > data.length) {
            throw Errors.badArgument("Cannot truncate a Blob of " + data.length + " bytes to " + len);
        }
        bytes = Arrays.copyOf(data, (int) len);
    }

    @Override
    public void free() {
        bytes = null;
    }
}
