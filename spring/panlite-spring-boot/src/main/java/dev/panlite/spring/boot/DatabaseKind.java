package dev.panlite.spring.boot;

import dev.panlite.Config;
import dev.panlite.Setting;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What SQLite opens for a {@code jdbc:sqlite:} URL, as far as the pool and spring.sql.init care.
 * Decided as SQLite decides it, not by looking for words in the URL: the driver's own parser
 * ({@link Config}) separates Panlite's settings (journal_mode=memory is one) from the filename
 * passed to sqlite3_open_v2, and that filename is then read the way sqlite3ParseUri and
 * sqlite3BtreeOpen read it: only a filename starting with {@code file:} (lowercase) is a URI;
 * parameter names and values are case-sensitive ({@code mode=MEMORY} is an error, not memory);
 * %HH escapes are decoded; the last of a repeated parameter wins; {@code #} ends the URI.
 */
enum DatabaseKind {
    /** A database file: every connection sees the same data. */
    FILE,
    /** An in-memory database shared by the connections of the process (shared cache, or memdb's {@code /name}). */
    SHARED_MEMORY,
    /** A database of its own for each connection, gone when it closes: private in-memory, or the temporary one of an empty path. */
    PRIVATE;

    private static final int OPEN_READONLY = 0x1;
    private static final int OPEN_READWRITE = 0x2;
    private static final int OPEN_CREATE = 0x4;
    private static final int OPEN_MEMORY = 0x80;
    private static final int OPEN_SHAREDCACHE = 0x20000;
    private static final int OPEN_PRIVATECACHE = 0x40000;

    /**
     * The kind of database the URL opens. A URL the driver or SQLite would refuse counts as a file:
     * the first connection fails with the driver's message, which names the problem.
     */
    static DatabaseKind of(String url) {
        Config config;
        try {
            config = Config.parse(url, null);
        } catch (SQLException refused) {
            return FILE; // the same exception reaches the application at the first connection
        }
        if (config.resource() != null) {
            return FILE; // a read-only copy of a packaged database
        }
        int flags = Integer.parseInt(config.get(Setting.OPEN_MODE));
        if (config.isSet(Setting.SHARED_CACHE)) { // as Config does: shared_cache replaces open_mode's cache bits
            flags &= ~(OPEN_SHAREDCACHE | OPEN_PRIVATECACHE);
            flags |= Boolean.parseBoolean(config.get(Setting.SHARED_CACHE)) ? OPEN_SHAREDCACHE : 0;
        }
        String filename = config.filename();
        boolean uri = filename.startsWith("file:");
        String path = filename;
        String vfs = "";
        if (uri) {
            UriFilename parsed = UriFilename.parse(filename);
            if (parsed == null) {
                return FILE; // SQLite refuses the authority
            }
            path = parsed.path;
            for (String[] param : parsed.params) {
                String name = param[0];
                String value = param[1];
                switch (name) {
                    case "vfs" -> vfs = value;
                    case "cache" -> {
                        int cache = switch (value) {
                            case "shared" -> OPEN_SHAREDCACHE;
                            case "private" -> OPEN_PRIVATECACHE;
                            default -> -1;
                        };
                        if (cache < 0) {
                            return FILE; // "no such cache mode": the open fails
                        }
                        flags = (flags & ~(OPEN_SHAREDCACHE | OPEN_PRIVATECACHE)) | cache;
                    }
                    case "mode" -> {
                        int mask = OPEN_READONLY | OPEN_READWRITE | OPEN_CREATE | OPEN_MEMORY;
                        int mode = switch (value) {
                            case "ro" -> OPEN_READONLY;
                            case "rw" -> OPEN_READWRITE;
                            case "rwc" -> OPEN_READWRITE | OPEN_CREATE;
                            case "memory" -> OPEN_MEMORY;
                            default -> -1;
                        };
                        if (mode < 0 || (mode & ~OPEN_MEMORY) > (flags & mask)) {
                            return FILE; // "no such access mode" or "access mode not allowed": the open fails
                        }
                        flags = (flags & ~mask) | mode;
                    }
                    default -> { } // a parameter SQLite leaves to the VFS
                }
            }
        }
        if (path.isEmpty()) {
            return PRIVATE; // SQLite's temporary database: one per connection
        }
        boolean memdb = vfs.equals("memdb");
        boolean memory = path.equals(":memory:") || (flags & OPEN_MEMORY) != 0;
        if (!memory && !memdb) {
            return FILE;
        }
        // sqlite3BtreeOpen shares an in-memory database's cache only when it was named by a URI;
        // the memdb VFS shares a database whose name starts with a slash
        boolean shared = ((flags & OPEN_SHAREDCACHE) != 0 && (uri || !memory))
                || (memdb && path.length() > 1 && (path.charAt(0) == '/' || path.charAt(0) == '\\'));
        return shared ? SHARED_MEMORY : PRIVATE;
    }

    /** A {@code file:} URI filename split as sqlite3ParseUri splits it: the path, then name/value pairs in order. */
    private record UriFilename(String path, List<String[]> params) {
        /** Null when SQLite refuses the URI (an authority other than empty or localhost). */
        static UriFilename parse(String uri) {
            int i = "file:".length();
            if (uri.startsWith("//", i)) {
                int slash = uri.indexOf('/', i + 2);
                String authority = uri.substring(i + 2, slash < 0 ? uri.length() : slash);
                if (!authority.isEmpty() && !authority.equals("localhost")) {
                    return null;
                }
                i = slash < 0 ? uri.length() : slash;
            }
            // state 0: the path; 1: a parameter's name; 2: its value
            int state = 0;
            List<String> parts = new ArrayList<>(); // path, name, value, name, value, ...
            ByteArrayOutputStream part = new ByteArrayOutputStream();
            byte[] in = uri.getBytes(StandardCharsets.UTF_8);
            int at = i;
            while (at < in.length && in[at] != '#') {
                byte c = in[at++];
                if (c == '%' && at + 1 < in.length && isHex(in[at]) && isHex(in[at + 1])) {
                    int octet = HexFormat.fromHexDigits(new String(in, at, 2, StandardCharsets.US_ASCII));
                    at += 2;
                    if (octet == 0) { // SQLite ignores the rest of this path, name or value
                        while (at < in.length && in[at] != '#' && !(state == 0 && in[at] == '?')
                                && !(state == 1 && (in[at] == '=' || in[at] == '&')) && !(state == 2 && in[at] == '&')) {
                            at++;
                        }
                        continue;
                    }
                    part.write(octet); // a decoded character never separates
                } else if (state == 1 && (c == '&' || c == '=')) {
                    if (part.size() == 0) { // an empty name: SQLite skips the whole parameter
                        while (at < in.length && in[at] != '#' && in[at - 1] != '&') {
                            at++;
                        }
                        continue;
                    }
                    parts.add(part.toString(StandardCharsets.UTF_8));
                    part.reset();
                    if (c == '&') {
                        parts.add(""); // a name without a value
                    } else {
                        state = 2;
                    }
                } else if ((state == 0 && c == '?') || (state == 2 && c == '&')) {
                    parts.add(part.toString(StandardCharsets.UTF_8));
                    part.reset();
                    state = 1;
                } else {
                    part.write(c);
                }
            }
            if (state != 1 || part.size() > 0) {
                parts.add(part.toString(StandardCharsets.UTF_8));
                if (state == 1) {
                    parts.add("");
                }
            }
            List<String[]> params = new ArrayList<>();
            for (int p = 1; p + 1 < parts.size(); p += 2) {
                params.add(new String[] {parts.get(p), parts.get(p + 1)});
            }
            return new UriFilename(parts.get(0), params);
        }

        private static boolean isHex(byte b) {
            return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
        }
    }
}
