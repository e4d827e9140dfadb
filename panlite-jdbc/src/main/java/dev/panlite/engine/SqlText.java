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
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(' || c == ';') {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
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

    /** INSERT, REPLACE and WITH ... INSERT: only they generate keys (as the incumbent decides). */
    public static boolean isInsert(String sql) {
        String keyword = firstKeyword(sql);
        if (keyword.equals("INSERT") || keyword.equals("REPLACE")) {
            return true;
        }
        if (keyword.equals("WITH")) {
            String upper = sql.toUpperCase(Locale.ROOT);
            return upper.contains("INSERT") || upper.contains("REPLACE");
        }
        return false;
    }

    /** True when anything but whitespace, semicolons and comments follows {@code from} in UTF-8 SQL. */
    public static boolean hasMoreSql(byte[] sql, int from) {
        int i = from;
        while (i < sql.length) {
            byte b = sql[i];
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == ';') {
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
                i = end + 2;
            } else {
                return true;
            }
        }
        return false;
    }
}
