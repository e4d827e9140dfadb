package dev.panlite.jdbc;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.SQLException;

/** A Clob (and NClob) held in memory: SQLite text values are whole strings. */
final class JdbcClob implements NClob {
    private StringBuilder text;

    JdbcClob(String text) {
        this.text = new StringBuilder(text);
    }

    private StringBuilder data() throws SQLException {
        if (text == null) {
            throw Errors.badState("The Clob was freed");
        }
        return text;
    }

    @Override
    public long length() throws SQLException {
        return data().length();
    }

    @Override
    public String getSubString(long pos, int length) throws SQLException {
        StringBuilder data = data();
        if (pos < 1 || pos > data.length() + 1L || length < 0) {
            throw Errors.badArgument("Clob position " + pos + " / length " + length + " out of range");
        }
        int from = (int) pos - 1;
        return data.substring(from, (int) Math.min(data.length(), (long) from + length));
    }

    @Override
    public Reader getCharacterStream() throws SQLException {
        return new StringReader(data().toString());
    }

    @Override
    public Reader getCharacterStream(long pos, long length) throws SQLException {
        if (length < 0) {
            throw Errors.badArgument("length must not be negative");
        }
        return new StringReader(getSubString(pos, (int) Math.min(Integer.MAX_VALUE, length)));
    }

    @Override
    public InputStream getAsciiStream() throws SQLException {
        return new ByteArrayInputStream(data().toString().getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public long position(String searchstr, long start) throws SQLException {
        if (start < 1 || searchstr == null) {
            throw Errors.badArgument("position needs a search string and a start of at least 1");
        }
        if (start > data().length() + 1L) {
            return -1;
        }
        int at = data().indexOf(searchstr, (int) start - 1);
        return at < 0 ? -1 : at + 1;
    }

    @Override
    public long position(Clob searchstr, long start) throws SQLException {
        if (searchstr == null || searchstr.length() > Integer.MAX_VALUE) {
            throw Errors.badArgument("position needs a search Clob shorter than 2^31 characters");
        }
        return position(searchstr.getSubString(1, (int) searchstr.length()), start);
    }

    @Override
    public int setString(long pos, String str) throws SQLException {
        if (str == null) {
            throw Errors.badArgument("string is null");
        }
        return setString(pos, str, 0, str.length());
    }

    @Override
    public int setString(long pos, String str, int offset, int len) throws SQLException {
        StringBuilder data = data();
        if (str == null || pos < 1 || pos > data.length() + 1L || offset < 0 || len < 0
                || (long) offset + len > str.length()) {
            throw Errors.badArgument("Clob position " + pos + " / offset " + offset + " / length " + len + " out of range");
        }
        int at = (int) pos - 1;
        int end = Math.min(data.length(), at + len);
        data.replace(at, end, str.substring(offset, offset + len));
        return len;
    }

    @Override
    public OutputStream setAsciiStream(long pos) throws SQLException {
        throw Errors.notSupported("Writing a Clob through an ASCII stream");
    }

    @Override
    public Writer setCharacterStream(long pos) throws SQLException {
        data();
        return new StringWriter() {
            @Override
            public void close() throws java.io.IOException {
                try {
                    setString(pos, toString());
                } catch (SQLException e) {
                    throw new java.io.IOException(e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public void truncate(long len) throws SQLException {
        StringBuilder data = data();
        if (len < 0 || len > data.length()) {
            throw Errors.badArgument("Cannot truncate a Clob of " + data.length() + " characters to " + len);
        }
        data.setLength((int) len);
    }

    @Override
    public void free() {
        text = null;
    }
}
