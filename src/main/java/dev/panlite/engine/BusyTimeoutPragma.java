package dev.panlite.engine;

import java.nio.charset.StandardCharsets;

/**
 * {@code PRAGMA busy_timeout} met in SQL (DESIGN.md "Many connections, one file"). SQLite must never
 * see it: preparing it calls sqlite3_busy_timeout, which makes SQLite sleep inside later calls, and
 * reading it returns SQLite's own timeout, which the driver keeps at 0. So the driver finds it in the
 * text before SQLite prepares it and answers it itself: setting it sets the connection's Java-side
 * wait ({@link WriteAccess#setBusyTimeout}), reading it returns the wait in force, as SQLite would.
 *
 * <p>Found by the text, as SQLite's grammar spells it ({@code PRAGMA [schema.]busy_timeout
 * [= value | (value)]}, names in any case and quoting, comments between tokens). The value is read
 * as SQLite 3.54 reads it, the bundled engine and the incumbent's (sqlite3GetInt32: a leading
 * integer, hex allowed; anything else sets nothing, where SQLite 3.47 and older set 0);
 * a negative or zero timeout is none. A statement that names the PRAGMA but does not parse is refused
 * here, so SQLite never half-parses it.
 *
 * @param value the timeout to set, in ms; null when the statement sets nothing (a read, or a value
 *     SQLite would not take as an integer)
 * @param end where the statement ends in the text (after its semicolon): where the next one starts
 * @param malformed the statement names the PRAGMA but is not one SQLite's grammar accepts
 */
record BusyTimeoutPragma(Integer value, int end, boolean malformed) {
    private static final byte[] NAME = "busy_timeout".getBytes(StandardCharsets.US_ASCII);

    /**
     * Whether {@code sql[from..]} may hold the PRAGMA: the name appears in it, in any case (a cheap
     * scan for its underscore). False means no statement of the text can be it.
     */
    static boolean mentioned(byte[] sql, int from) {
        for (int i = Math.max(from, 0) + 4; i + 7 < sql.length; i++) {
            if (sql[i] == '_' && matches(sql, i - 4, NAME)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The PRAGMA when the statement that starts at {@code from} (after white space, comments and
     * empty statements) is {@code PRAGMA busy_timeout}; else null.
     */
    static BusyTimeoutPragma at(byte[] sql, int from) {
        Lexer in = new Lexer(sql, skipEmpty(sql, from));
        if (!in.keyword("PRAGMA")) {
            return null;
        }
        String name = in.name();
        if (name != null && in.skip() && in.peek() == '.') {
            in.i++;
            in.skip();
            name = in.name();
        }
        if (name == null || !name.equalsIgnoreCase("busy_timeout")) {
            return null; // another PRAGMA (or a syntax error SQLite reports: no PRAGMA runs without a name)
        }
        in.skip();
        String right = null; // SQLite's zRight: the value's text
        boolean set = false;
        if (in.peek() == '=') {
            in.i++;
            right = in.value();
            set = true;
        } else if (in.peek() == '(') {
            in.i++;
            right = in.value();
            set = true;
            in.skip();
            if (in.peek() == ')') {
                in.i++;
            } else {
                right = null; // malformed: no closing parenthesis
            }
        }
        in.skip();
        boolean ends = in.i >= sql.length || in.peek() == ';';
        if (set && right == null || !ends) {
            return new BusyTimeoutPragma(null, -1, true);
        }
        int end = in.i < sql.length ? in.i + 1 : sql.length; // past the semicolon, as SQLite's tail
        return new BusyTimeoutPragma(set ? int32(right) : null, end, false);
    }

    /** The wait this PRAGMA sets, as sqlite3_busy_timeout takes it: a timeout of 0 or less is none. */
    int millis() {
        return Math.max(0, value);
    }

    /** Where the statement that starts at or after {@code from} begins: past white space, comments and semicolons. */
    private static int skipEmpty(byte[] sql, int from) {
        Lexer in = new Lexer(sql, from);
        while (in.skip() && in.peek() == ';') {
            in.i++;
        }
        return in.i;
    }

    /**
     * sqlite3GetInt32: a leading optional sign and decimal digits (what follows them is ignored), or
     * 0x and up to 8 hex digits; null when it is none of them or does not fit in 32 bits (SQLite then
     * sets nothing).
     */
    static Integer int32(String z) {
        int i = 0;
        boolean neg = false;
        if (z.startsWith("-")) {
            neg = true;
            i++;
        } else if (z.startsWith("+")) {
            i++;
        } else if (z.length() > 2 && z.charAt(0) == '0' && (z.charAt(1) == 'x' || z.charAt(1) == 'X')
                && Character.digit(z.charAt(2), 16) >= 0) {
            i = 2;
            while (i < z.length() && z.charAt(i) == '0') {
                i++;
            }
            long u = 0;
            int digits = 0;
            for (; digits < 8 && i < z.length() && Character.digit(z.charAt(i), 16) >= 0; i++, digits++) {
                u = u * 16 + Character.digit(z.charAt(i), 16);
            }
            boolean more = i < z.length() && Character.digit(z.charAt(i), 16) >= 0;
            return (u & 0x80000000L) == 0 && !more ? Integer.valueOf((int) u) : null;
        }
        if (i >= z.length() || !isDigit(z.charAt(i))) {
            return null;
        }
        while (i < z.length() && z.charAt(i) == '0') {
            i++;
        }
        long v = 0;
        int digits = 0;
        for (; digits < 11 && i < z.length() && isDigit(z.charAt(i)); i++, digits++) {
            v = v * 10 + (z.charAt(i) - '0');
        }
        if (digits > 10 || v - (neg ? 1 : 0) > Integer.MAX_VALUE) {
            return null;
        }
        return (int) (neg ? -v : v);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean matches(byte[] sql, int at, byte[] word) {
        if (at < 0 || at + word.length > sql.length) {
            return false;
        }
        for (int k = 0; k < word.length; k++) {
            int c = sql[at + k];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != Character.toLowerCase(word[k])) {
                return false;
            }
        }
        return true;
    }

    /** SQLite's tokens, as far as this PRAGMA needs them. */
    private static final class Lexer {
        final byte[] sql;
        int i;

        Lexer(byte[] sql, int i) {
            this.sql = sql;
            this.i = i;
        }

        /** The byte here (0..255), or -1 at the end. */
        int peek() {
            return i < sql.length ? sql[i] & 0xff : -1;
        }

        /** Skips white space and comments; true (for chaining). */
        boolean skip() {
            i = SqlText.skipSpace(sql, i, false);
            return true;
        }

        /** Whether byte {@code b} (0..255) may be part of a bare name: a byte of a non-ASCII character may. */
        static boolean idChar(int b) {
            return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '$'
                    || b >= 0x80;
        }

        /** {@code word} as a whole bare word here (consumed), in any case. */
        boolean keyword(String word) {
            byte[] w = word.getBytes(StandardCharsets.US_ASCII);
            if (matches(sql, i, w) && !idChar(i + w.length < sql.length ? sql[i + w.length] & 0xff : ' ')) {
                i += w.length;
                return true;
            }
            return false;
        }

        /**
         * A name (consumed): a bare word, or quoted with "", [], `` or '' (a string is a name to the
         * PRAGMA's grammar), dequoted. Null when there is none here.
         */
        String name() {
            skip();
            int b = peek();
            if (b == '"' || b == '`' || b == '\'' || b == '[') {
                int close = b == '[' ? ']' : b;
                StringBuilder out = new StringBuilder();
                int start = ++i;
                while (i < sql.length) {
                    if (sql[i] == close) {
                        if (close != ']' && i + 1 < sql.length && sql[i + 1] == close) { // a doubled quote
                            out.append(new String(sql, start, i + 1 - start, StandardCharsets.UTF_8));
                            i += 2;
                            start = i;
                            continue;
                        }
                        out.append(new String(sql, start, i - start, StandardCharsets.UTF_8));
                        i++;
                        return out.toString();
                    }
                    i++;
                }
                return null; // unterminated
            }
            if (b >= 0 && idChar(b) && !(b >= '0' && b <= '9')) {
                int start = i;
                while (i < sql.length && idChar(sql[i] & 0xff)) {
                    i++;
                }
                return new String(sql, start, i - start, StandardCharsets.UTF_8);
            }
            return null;
        }

        /** The PRAGMA's value as SQLite's zRight: a signed number's text ("-" kept), or a name dequoted; null if none. */
        String value() {
            skip();
            int sign = peek();
            if (sign == '+' || sign == '-') {
                i++;
                skip();
                String number = number();
                return number == null ? null : sign == '-' ? "-" + number : number;
            }
            String number = number();
            return number != null ? number : name();
        }

        /** An integer or float token (digits, '.', exponent, hex, '_' separators), consumed; null if none here. */
        private String number() {
            int b = peek();
            boolean dot = b == '.' && i + 1 < sql.length && sql[i + 1] >= '0' && sql[i + 1] <= '9';
            if (!(b >= '0' && b <= '9') && !dot) {
                return null;
            }
            int start = i;
            while (i < sql.length) {
                int c = sql[i] & 0xff;
                boolean exponentSign = (c == '+' || c == '-') && (sql[i - 1] == 'e' || sql[i - 1] == 'E')
                        && !(i - start > 1 && (sql[start + 1] == 'x' || sql[start + 1] == 'X'));
                if (idChar(c) && c < 0x80 || c == '.' || exponentSign) {
                    i++;
                } else {
                    break;
                }
            }
            return new String(sql, start, i - start, StandardCharsets.US_ASCII);
        }
    }
}
