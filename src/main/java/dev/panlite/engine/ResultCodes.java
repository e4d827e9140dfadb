package dev.panlite.engine;

import dev.panlite.SqliteError;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/**
 * SQLite result codes to SQLExceptions: the subclass and SQLState that JDBC tools expect, the
 * primary code as {@code getErrorCode()}, the extended code through {@link SqliteError} and in the
 * message.
 */
public final class ResultCodes {
    private ResultCodes() {}

    /** What was being done when SQLite failed; decides between some subclasses. */
    public enum Phase {
        /** Compiling SQL: a plain SQLITE_ERROR here is a grammar or schema error. */
        PREPARE,
        /** Running a statement or anything else. */
        EXECUTE,
        /** An interrupt here came from a query timeout rather than cancel(). */
        TIMED_OUT,
        /** sqlite3_open_v2: a file that cannot be opened here means there is no connection. */
        OPEN
    }

    public static String name(int code) {
        return switch (code) {
            case 0 -> "SQLITE_OK";
            case 1 -> "SQLITE_ERROR";
            case 2 -> "SQLITE_INTERNAL";
            case 3 -> "SQLITE_PERM";
            case 4 -> "SQLITE_ABORT";
            case 5 -> "SQLITE_BUSY";
            case 6 -> "SQLITE_LOCKED";
            case 7 -> "SQLITE_NOMEM";
            case 8 -> "SQLITE_READONLY";
            case 9 -> "SQLITE_INTERRUPT";
            case 10 -> "SQLITE_IOERR";
            case 11 -> "SQLITE_CORRUPT";
            case 12 -> "SQLITE_NOTFOUND";
            case 13 -> "SQLITE_FULL";
            case 14 -> "SQLITE_CANTOPEN";
            case 15 -> "SQLITE_PROTOCOL";
            case 16 -> "SQLITE_EMPTY";
            case 17 -> "SQLITE_SCHEMA";
            case 18 -> "SQLITE_TOOBIG";
            case 19 -> "SQLITE_CONSTRAINT";
            case 20 -> "SQLITE_MISMATCH";
            case 21 -> "SQLITE_MISUSE";
            case 22 -> "SQLITE_NOLFS";
            case 23 -> "SQLITE_AUTH";
            case 24 -> "SQLITE_FORMAT";
            case 25 -> "SQLITE_RANGE";
            case 26 -> "SQLITE_NOTADB";
            case 27 -> "SQLITE_NOTICE";
            case 28 -> "SQLITE_WARNING";
            case 100 -> "SQLITE_ROW";
            case 101 -> "SQLITE_DONE";
            case 257 -> "SQLITE_ERROR_MISSING_COLLSEQ";
            case 513 -> "SQLITE_ERROR_RETRY";
            case 769 -> "SQLITE_ERROR_SNAPSHOT";
            case 266 -> "SQLITE_IOERR_READ";
            case 522 -> "SQLITE_IOERR_SHORT_READ";
            case 778 -> "SQLITE_IOERR_WRITE";
            case 1034 -> "SQLITE_IOERR_FSYNC";
            case 1290 -> "SQLITE_IOERR_DIR_FSYNC";
            case 1546 -> "SQLITE_IOERR_TRUNCATE";
            case 1802 -> "SQLITE_IOERR_FSTAT";
            case 2058 -> "SQLITE_IOERR_UNLOCK";
            case 2314 -> "SQLITE_IOERR_RDLOCK";
            case 2570 -> "SQLITE_IOERR_DELETE";
            case 2826 -> "SQLITE_IOERR_BLOCKED";
            case 3082 -> "SQLITE_IOERR_NOMEM";
            case 3338 -> "SQLITE_IOERR_ACCESS";
            case 3594 -> "SQLITE_IOERR_CHECKRESERVEDLOCK";
            case 3850 -> "SQLITE_IOERR_LOCK";
            case 4106 -> "SQLITE_IOERR_CLOSE";
            case 4362 -> "SQLITE_IOERR_DIR_CLOSE";
            case 4618 -> "SQLITE_IOERR_SHMOPEN";
            case 4874 -> "SQLITE_IOERR_SHMSIZE";
            case 5130 -> "SQLITE_IOERR_SHMLOCK";
            case 5386 -> "SQLITE_IOERR_SHMMAP";
            case 5642 -> "SQLITE_IOERR_SEEK";
            case 5898 -> "SQLITE_IOERR_DELETE_NOENT";
            case 6154 -> "SQLITE_IOERR_MMAP";
            case 6410 -> "SQLITE_IOERR_GETTEMPPATH";
            case 6666 -> "SQLITE_IOERR_CONVPATH";
            case 6922 -> "SQLITE_IOERR_VNODE";
            case 7178 -> "SQLITE_IOERR_AUTH";
            case 7434 -> "SQLITE_IOERR_BEGIN_ATOMIC";
            case 7690 -> "SQLITE_IOERR_COMMIT_ATOMIC";
            case 7946 -> "SQLITE_IOERR_ROLLBACK_ATOMIC";
            case 8202 -> "SQLITE_IOERR_DATA";
            case 8458 -> "SQLITE_IOERR_CORRUPTFS";
            case 270 -> "SQLITE_CANTOPEN_NOTEMPDIR";
            case 526 -> "SQLITE_CANTOPEN_ISDIR";
            case 782 -> "SQLITE_CANTOPEN_FULLPATH";
            case 1038 -> "SQLITE_CANTOPEN_CONVPATH";
            case 1294 -> "SQLITE_CANTOPEN_DIRTYWAL";
            case 1550 -> "SQLITE_CANTOPEN_SYMLINK";
            case 267 -> "SQLITE_CORRUPT_VTAB";
            case 523 -> "SQLITE_CORRUPT_SEQUENCE";
            case 779 -> "SQLITE_CORRUPT_INDEX";
            case 264 -> "SQLITE_READONLY_RECOVERY";
            case 520 -> "SQLITE_READONLY_CANTLOCK";
            case 776 -> "SQLITE_READONLY_ROLLBACK";
            case 1032 -> "SQLITE_READONLY_DBMOVED";
            case 1288 -> "SQLITE_READONLY_CANTINIT";
            case 1544 -> "SQLITE_READONLY_DIRECTORY";
            case 516 -> "SQLITE_ABORT_ROLLBACK";
            case 261 -> "SQLITE_BUSY_RECOVERY";
            case 517 -> "SQLITE_BUSY_SNAPSHOT";
            case 773 -> "SQLITE_BUSY_TIMEOUT";
            case 275 -> "SQLITE_CONSTRAINT_CHECK";
            case 531 -> "SQLITE_CONSTRAINT_COMMITHOOK";
            case 787 -> "SQLITE_CONSTRAINT_FOREIGNKEY";
            case 1043 -> "SQLITE_CONSTRAINT_FUNCTION";
            case 1299 -> "SQLITE_CONSTRAINT_NOTNULL";
            case 1555 -> "SQLITE_CONSTRAINT_PRIMARYKEY";
            case 1811 -> "SQLITE_CONSTRAINT_TRIGGER";
            case 2067 -> "SQLITE_CONSTRAINT_UNIQUE";
            case 2323 -> "SQLITE_CONSTRAINT_VTAB";
            case 283 -> "SQLITE_NOTICE_RECOVER_WAL";
            case 539 -> "SQLITE_NOTICE_RECOVER_ROLLBACK";
            case 284 -> "SQLITE_WARNING_AUTOINDEX";
            case 279 -> "SQLITE_AUTH_USER";
            case 256 -> "SQLITE_OK_LOAD_PERMANENTLY";
            case 512 -> "SQLITE_OK_SYMLINK";
            default -> "SQLITE_" + code;
        };
    }

    /**
     * A statement failed because Java code it called (a collation) threw {@code failure}, which
     * becomes the cause: SQLite's own code for it would only say "interrupted".
     */
    static SQLException callbackFailed(Throwable failure, String sql) {
        SQLException e = exception(1, "Java code called from SQL failed: " + failure, sql, Phase.EXECUTE);
        e.initCause(failure);
        return e;
    }

    /** Builds the exception for result code {@code extended} with SQLite's {@code message}. */
    public static SQLException exception(int extended, String message, String sql, Phase phase) {
        int primary = extended & 0xff;
        String text = (message == null || message.isEmpty() ? name(primary) : message) + " [" + name(extended) + "]"
                + (sql == null ? "" : " in SQL: " + abbreviate(sql));
        if (extended == 517) { // SQLITE_BUSY_SNAPSHOT: waiting cannot help, the transaction read a stale snapshot
            return new Rollback(text + ". Another connection wrote after this transaction began reading: roll back"
                    + " and retry the transaction. transaction_mode=IMMEDIATE (Panlite's default) takes the write"
                    + " lock at BEGIN and avoids this", SqlState.SERIALIZATION_FAILURE, extended);
        }
        return switch (primary) {
            case 19 -> new Integrity(text, constraintState(extended), extended);
            case 5, 6 -> new Transient(text, SqlState.SERIALIZATION_FAILURE, extended);
            case 9 -> phase == Phase.TIMED_OUT
                    ? new Timeout(text, SqlState.TIMEOUT_EXPIRED, extended)
                    : new NonTransient(text, SqlState.QUERY_CANCELED, extended);
            case 1 -> phase == Phase.PREPARE
                    ? new Syntax(text, SqlState.SYNTAX_ERROR_OR_ACCESS_RULE, extended)
                    : new General(text, SqlState.GENERAL_ERROR, extended);
            case 8 -> new NonTransient(text, SqlState.READ_ONLY_SQL_TRANSACTION, extended);
            // CANTOPEN on a live connection is a journal, WAL or temporary file SQLite could not open:
            // an I/O error of that statement, not class 08, which makes a pool evict a working connection
            case 14 -> phase == Phase.OPEN ? new Connection(text, SqlState.UNABLE_TO_CONNECT, extended)
                    : new General(text, SqlState.IO_ERROR, extended);
            case 26 -> new Connection(text, SqlState.UNABLE_TO_CONNECT, extended);
            case 11 -> widerThanTheColumnLimit(message)
                    ? new NonTransient(text + ". The file is not corrupt: a table or index in it has more columns"
                            + " than this connection's column limit allows (the limit_column setting, at most the"
                            + " SQLITE_MAX_COLUMN this SQLite was built with)", SqlState.TOO_MANY_COLUMNS, extended)
                    : new NonTransient(text, SqlState.DATA_CORRUPTED, extended);
            case 13 -> new General(text, SqlState.DISK_FULL, extended);
            case 7 -> new General(text, SqlState.OUT_OF_MEMORY, extended);
            case 10 -> new General(text, SqlState.IO_ERROR, extended);
            case 18 -> new Data(text, SqlState.STRING_DATA_RIGHT_TRUNCATION, extended);
            case 20 -> new Data(text, SqlState.ERROR_IN_ASSIGNMENT, extended);
            case 25 -> new Data(text, SqlState.INVALID_DESCRIPTOR_INDEX, extended);
            case 21 -> new NonTransient(text, SqlState.FUNCTION_SEQUENCE_ERROR, extended);
            case 23, 3 -> new NonTransient(text, SqlState.INSUFFICIENT_PRIVILEGE, extended);
            default -> new General(text, SqlState.GENERAL_ERROR, extended);
        };
    }

    /**
     * Whether SQLite's "malformed database schema" message is the one for a table or index wider
     * than the column limit (limit_column set low), which reads to SQLite as a corrupt schema: exactly
     * "malformed database schema (N) - too many columns on N" or "... (N) - too many columns in index",
     * N the object's name (which may hold any text, so it is matched whole, not searched).
     */
    static boolean widerThanTheColumnLimit(String message) {
        String prefix = "malformed database schema (";
        if (message == null || !message.startsWith(prefix)) {
            return false;
        }
        String rest = message.substring(prefix.length());
        String index = ") - too many columns in index";
        if (rest.endsWith(index)) { // the message ends with what SQLite adds after the name: nothing can follow it
            return true;
        }
        String table = ") - too many columns on ";
        int n = (rest.length() - table.length()) / 2; // rest is N + table + N
        return n > 0 && rest.length() == 2 * n + table.length() && rest.startsWith(table, n)
                && rest.regionMatches(0, rest, n + table.length(), n);
    }

    private static String constraintState(int extended) {
        return switch (extended) {
            case 2067, 1555 -> SqlState.UNIQUE_VIOLATION; // UNIQUE, PRIMARYKEY: what Spring reads as a duplicate key
            case 1299 -> SqlState.NOT_NULL_VIOLATION; // NOTNULL
            case 787 -> SqlState.FOREIGN_KEY_VIOLATION; // FOREIGNKEY
            case 275 -> SqlState.CHECK_VIOLATION; // CHECK
            default -> SqlState.INTEGRITY_CONSTRAINT_VIOLATION;
        };
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 200 ? sql : sql.substring(0, 200) + "...";
    }

    private static final class Integrity extends SQLIntegrityConstraintViolationException implements SqliteError {
        private final int extended;

        Integrity(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class Rollback extends java.sql.SQLTransactionRollbackException implements SqliteError {
        private final int extended;

        Rollback(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class Transient extends SQLTransientException implements SqliteError {
        private final int extended;

        Transient(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class Timeout extends SQLTimeoutException implements SqliteError {
        private final int extended;

        Timeout(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class Syntax extends SQLSyntaxErrorException implements SqliteError {
        private final int extended;

        Syntax(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class Data extends SQLDataException implements SqliteError {
        private final int extended;

        Data(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class Connection extends SQLNonTransientConnectionException implements SqliteError {
        private final int extended;

        Connection(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class NonTransient extends SQLNonTransientException implements SqliteError {
        private final int extended;

        NonTransient(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }

    private static final class General extends SQLException implements SqliteError {
        private final int extended;

        General(String message, String state, int extended) {
            super(message, state, extended & 0xff);
            this.extended = extended;
        }

        @Override
        public int extendedCode() {
            return extended;
        }

        @Override
        public String codeName() {
            return name(extended);
        }
    }
}
