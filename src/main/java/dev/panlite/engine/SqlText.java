package dev.panlite.engine;

import java.util.Locale;

/**
 * What the driver reads from SQL text itself: its first keyword, the incumbent's backup and restore
 * commands, where the next statement starts. Whether a statement writes or is a query is never read
 * from the text: SQLite answers that per prepared statement ({@link Stmt#writes}, {@link Stmt#isQuery}).
 */
public final class SqlText {
    private SqlText() {}

    /** An SQL identifier in double quotes, embedded quotes doubled. */
    public static String quoteIdentifier(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** The first keyword, upper case, after white space, comments and opening parentheses. */
    public static String firstKeyword(String sql) {
        int start = keywordStart(sql);
        return sql.substring(start, wordEnd(sql, start)).toUpperCase(Locale.ROOT);
    }

    /** Where the first keyword begins: after white space, comments, opening parentheses and semicolons. */
    private static int keywordStart(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(' || c == ';') {
                i++;
            } else if (isCommentStart(sql, i)) {
                i = commentEnd(sql, i);
            } else {
                break;
            }
        }
        return i;
    }

    private static int wordEnd(String sql, int i) {
        while (i < sql.length() && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isCommentStart(String sql, int i) {
        if (i + 1 >= sql.length()) {
            return false;
        }
        char c = sql.charAt(i);
        char d = sql.charAt(i + 1);
        return c == '-' && d == '-' || c == '/' && d == '*';
    }

    /** The index after the comment starting at i (-- to the end of the line, or a block comment). */
    private static int commentEnd(String sql, int i) {
        if (sql.charAt(i) == '-') {
            int end = sql.indexOf('\n', i);
            return end < 0 ? sql.length() : end + 1;
        }
        int end = sql.indexOf("*/", i + 2);
        return end < 0 ? sql.length() : end + 2;
    }

    /**
     * The verb of the statement a leading WITH clause belongs to (SELECT, VALUES, INSERT, REPLACE,
     * UPDATE, DELETE), upper case; "" when the text does not have that shape. The common table
     * expressions are skipped by their parentheses, so words inside them (a replace() call, a
     * string 'insert', a CTE named inserted) do not count: the verb is the first word after a
     * parenthesis that closes at the outer level and is followed neither by a comma nor by AS.
     */
    static String verbAfterWith(String sql) {
        int n = sql.length();
        int i = wordEnd(sql, keywordStart(sql)); // after WITH
        int depth = 0;
        boolean closed = false; // a parenthesis just closed at the outer level
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (isCommentStart(sql, i)) {
                i = commentEnd(sql, i);
            } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
                int end = sql.indexOf(c == '[' ? ']' : c, i + 1); // a doubled quote is two quoted runs
                i = end < 0 ? n : end + 1;
                closed = false;
            } else if (c == '(') {
                depth++;
                i++;
                closed = false;
            } else if (c == ')') {
                depth--;
                i++;
                closed = depth == 0;
            } else if (closed) {
                if (c == ',') {
                    i++;
                    closed = false;
                    continue;
                }
                String word = sql.substring(i, wordEnd(sql, i)).toUpperCase(Locale.ROOT);
                if (!word.equals("AS")) {
                    return word;
                }
                i += 2;
                closed = false;
            } else {
                i++;
            }
        }
        return "";
    }
    /**
     * The incumbent's commands that are not SQL: {@code backup [schema] to FILE} and
     * {@code restore [schema] from FILE}. Null for anything else, else {schema, file, "backup"|"restore"}.
     * Checks one character first: ordinary SQL pays nothing.
     */
    public static String[] backupCommand(String sql) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        if (i == sql.length() || "bBrR".indexOf(sql.charAt(i)) < 0) {
            return null;
        }
        java.util.regex.Matcher m = BACKUP.matcher(sql);
        if (!m.matches() || m.group(1).equalsIgnoreCase("backup") != m.group(3).equalsIgnoreCase("to")) {
            return null; // backup ... to, restore ... from
        }
        String file = m.group(4);
        if (file.length() >= 2 && (file.startsWith("'") && file.endsWith("'") || file.startsWith("\"") && file.endsWith("\""))) {
            file = file.substring(1, file.length() - 1);
        }
        return new String[] {m.group(2) == null ? "main" : m.group(2), file, m.group(1).toLowerCase(Locale.ROOT)};
    }

    private static final java.util.regex.Pattern BACKUP = java.util.regex.Pattern.compile(
            "(?is)\\s*(backup|restore)\\s+(?:(\\w+)\\s+)?(to|from)\\s+(.+?)\\s*;?\\s*");

    /**
     * Whether a statement that writes (SQLite says so: sqlite3_stmt_readonly) is DML, whose row count
     * sqlite3_changes reports: INSERT, UPDATE, DELETE, REPLACE, or WITH leading one of them (a CTE leads
     * nothing else that writes). Not DDL, PRAGMA or VACUUM. Never asked of a statement that does not write.
     */
    public static boolean isDml(String sql) {
        return switch (firstKeyword(sql)) {
            case "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH" -> true;
            default -> false;
        };
    }

    /** INSERT, REPLACE and WITH ... INSERT or REPLACE: only they generate keys (as the incumbent decides). */
    public static boolean isInsert(String sql) {
        return switch (firstKeyword(sql)) {
            case "INSERT", "REPLACE" -> true;
            case "WITH" -> {
                String verb = verbAfterWith(sql);
                yield verb.equals("INSERT") || verb.equals("REPLACE");
            }
            default -> false;
        };
    }

    /**
     * Whether the text could change what a new connection would not have (engine.SessionState): it
     * holds one of the words every such statement needs, PRAGMA, ATTACH, DETACH or TEMP (also in
     * TEMPORARY and in a schema name temp.x), in any case, anywhere. A false alarm (a column named
     * temperature) only costs a look at the connection; a statement without any of them cannot
     * change a setting, attach a database or create a TEMP object (an index or trigger on a TEMP
     * table needs the table, whose CREATE named TEMP).
     */
    public static boolean mayChangeSession(String sql) {
        for (int i = 0, n = sql.length(); i < n; i++) {
            switch (sql.charAt(i)) {
                case 'p', 'P' -> {
                    if (sql.regionMatches(true, i, "PRAGMA", 0, 6)) {
                        return true;
                    }
                }
                case 'a', 'A', 'd', 'D' -> {
                    if (sql.regionMatches(true, i, "ATTACH", 0, 6) || sql.regionMatches(true, i, "DETACH", 0, 6)) {
                        return true;
                    }
                }
                case 't', 'T' -> {
                    if (sql.regionMatches(true, i, "TEMP", 0, 4)) {
                        return true;
                    }
                }
                default -> { }
            }
        }
        return false;
    }

    /**
     * Whether UTF-8 SQL may hold more than one statement: more SQL follows its first semicolon outside
     * quotes and comments. Never false for several statements; true for one statement only when a
     * semicolon ends a statement inside it (a trigger body), so a caller may then ask SQLite.
     */
    public static boolean mayHoldSeveralStatements(byte[] sql) {
        int i = 0;
        while (i < sql.length) {
            byte b = sql[i];
            if (b == ';') {
                return hasMoreSql(sql, i + 1);
            } else if (b == '\'' || b == '"' || b == '`' || b == '[') {
                byte close = b == '[' ? (byte) ']' : b;
                i++;
                while (i < sql.length && sql[i] != close) { // a doubled quote is two quoted runs
                    i++;
                }
                i++;
            } else if (b == '-' && i + 1 < sql.length && sql[i + 1] == '-') {
                while (i < sql.length && sql[i] != '\n') {
                    i++;
                }
            } else if (b == '/' && i + 1 < sql.length && sql[i + 1] == '*') {
                i += 2;
                while (i + 1 < sql.length && !(sql[i] == '*' && sql[i + 1] == '/')) {
                    i++;
                }
                i += 2;
            } else {
                i++;
            }
        }
        return false;
    }

    /** True when anything but whitespace, semicolons and comments follows {@code from} in UTF-8 SQL. */
    public static boolean hasMoreSql(byte[] sql, int from) {
        return skipSpace(sql, from, true) < sql.length;
    }

    /**
     * The index of the first byte at or after {@code from} in UTF-8 SQL that is not whitespace or a
     * comment (nor, with {@code semicolons}, a semicolon); {@code sql.length} when there is none.
     */
    static int skipSpace(byte[] sql, int from, boolean semicolons) {
        int i = from;
        while (i < sql.length) {
            byte b = sql[i];
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || semicolons && b == ';') {
                i++;
            } else if (b == '-' && i + 1 < sql.length && sql[i + 1] == '-') {
                while (i < sql.length && sql[i] != '\n') {
                    i++;
                }
            } else if (b == '/' && i + 1 < sql.length && sql[i + 1] == '*') {
                int end = i + 2;
                while (end + 1 < sql.length && !(sql[end] == '*' && sql[end + 1] == '/')) {
                    end++;
                }
                i = Math.min(end + 2, sql.length);
            } else {
                return i;
            }
        }
        return sql.length;
    }
}
