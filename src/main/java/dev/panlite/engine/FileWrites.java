package dev.panlite.engine;

import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Whether a statement SQLite calls writing (sqlite3_stmt_readonly false) must write a database file,
 * and so take the write gate (DESIGN.md "Many connections, one file"). sqlite3_stmt_readonly is
 * false for more than that: a write to a TEMP table (the connection's own, no file another
 * connection shares), any {@code PRAGMA journal_mode} (a read, or a mode the file already has),
 * a checkpoint, VACUUM. Queueing those behind another connection's transaction made opening a
 * connection with {@code journal_mode=WAL} wait, and TEMP tables fail after busy_timeout, while
 * SQLite needs no lock on the file for them.
 *
 * <p>The answer is SQLite's own program for the statement (EXPLAIN): it writes a file
 * where it begins a write transaction on a schema other than TEMP (OP_Transaction, P2 not 0; a
 * trigger's writes are begun by the statement's own program), vacuums or checkpoints one, or sets
 * a journal mode other than the one a schema has now (read with {@code PRAGMA schema.journal_mode},
 * which takes no lock). Asked only when the gate would make the statement wait: a free gate costs
 * nothing to take, and EXPLAIN costs a prepare. When EXPLAIN cannot answer, the statement writes.
 * If the answer is wrong (the file changed mode meanwhile), SQLite refuses the lock with SQLITE_BUSY
 * and the Java-side wait retries it: never a write without SQLite's lock.
 */
final class FileWrites {
    private FileWrites() {}

    /** Schema number of TEMP in SQLite's list of the connection's databases (0 is main, 2.. attached). */
    static final int TEMP = 1;
    /** PAGER_JOURNALMODE_QUERY: PRAGMA journal_mode without a value. */
    private static final int QUERY = -1;
    /** The journal modes by SQLite's number (PAGER_JOURNALMODE_*), as PRAGMA journal_mode names them. */
    private static final String[] MODES = {"delete", "persist", "off", "truncate", "memory", "wal"};

    /**
     * Whether {@code stmt} (writing, as SQLite says) must write a database file now. A program that
     * writes one whatever the file's state is remembered with the statement (a cached statement asks
     * once); a journal mode is asked each time. Lock held.
     */
    static boolean needed(Database database, Stmt stmt) {
        if (stmt.writesFile) {
            return true;
        }
        long db = database.handle();
        Scratch scratch = database.scratch();
        byte[] text = ("EXPLAIN " + Sqlite.sql(stmt.handle)).getBytes(StandardCharsets.UTF_8);
        int rc = scratch.prepare(db, text, 0, text.length, 0);
        long explain = scratch.preparedStmt();
        if (explain == 0) {
            return true;
        }
        try {
            if (rc != Sqlite.OK) {
                return true;
            }
            int lastAddress = -1;
            while ((rc = Sqlite.step(explain)) == Sqlite.ROW) {
                int address = Sqlite.columnInt(explain, 0); // addr, opcode, p1, p2, p3, ...
                if (address <= lastAddress) {
                    // a trigger's program follows: its writes were begun by the statement's own
                    // (the whole of which was read, and wrote no file)
                    return false;
                }
                lastAddress = address;
                String opcode = Sqlite.columnText(explain, 1);
                int schema = Sqlite.columnInt(explain, 2);
                switch (opcode == null ? "" : opcode) {
                    case "Transaction" -> {
                        if (schema != TEMP && Sqlite.columnInt(explain, 3) != 0) {
                            stmt.writesFile = true;
                            return true;
                        }
                    }
                    case "Vacuum", "Checkpoint" -> {
                        stmt.writesFile = true;
                        return true;
                    }
                    case "JournalMode" -> {
                        int mode = Sqlite.columnInt(explain, 4);
                        if (schema != TEMP && mode != QUERY && !hasMode(database, schema, mode)) {
                            return true;
                        }
                    }
                    default -> { }
                }
            }
            return rc != Sqlite.DONE;
        } finally {
            Sqlite.finalizeStmt(explain);
        }
    }

    /** Whether schema number {@code schema} has journal mode {@code mode} now (reading it takes no lock). */
    private static boolean hasMode(Database database, int schema, int mode) {
        if (mode < 0 || mode >= MODES.length) {
            return false;
        }
        String name = schemaName(database, schema);
        if (name == null) {
            return false;
        }
        String now = firstValue(database, "PRAGMA " + SqlText.quoteIdentifier(name) + ".journal_mode", 0);
        return now != null && now.toLowerCase(Locale.ROOT).equals(MODES[mode]);
    }

    /** The name of schema number {@code schema}; null if none has it. */
    private static String schemaName(Database database, int schema) {
        String[] names = schemas(database);
        return names != null && schema >= 0 && schema < names.length ? names[schema] : null;
    }

    /**
     * The connection's schemas by SQLite's number (PRAGMA database_list, which takes no lock): main,
     * temp, then the attached ones; an unused number holds null. Null when SQLite cannot list them.
     * Lock held.
     */
    static String[] schemas(Database database) {
        long db = database.handle();
        byte[] text = "PRAGMA database_list".getBytes(StandardCharsets.UTF_8);
        Scratch scratch = database.scratch();
        if (scratch.prepare(db, text, 0, text.length, 0) != Sqlite.OK || scratch.preparedStmt() == 0) {
            return null;
        }
        long list = scratch.preparedStmt();
        try {
            String[] names = new String[2];
            int rc;
            while ((rc = Sqlite.step(list)) == Sqlite.ROW) { // seq, name, file
                int seq = Sqlite.columnInt(list, 0);
                if (seq >= names.length) {
                    names = java.util.Arrays.copyOf(names, seq + 1);
                }
                if (seq >= 0) {
                    names[seq] = Sqlite.columnText(list, 1);
                }
            }
            return rc == Sqlite.DONE ? names : null;
        } finally {
            Sqlite.finalizeStmt(list);
        }
    }

    /**
     * Column {@code column} of the first row of {@code sql} (one statement that takes no lock,
     * finalized at once), or null: no row, or it failed. Lock held. Also Conversions' questions.
     */
    static String firstValue(Database database, String sql, int column) {
        long db = database.handle();
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        Scratch scratch = database.scratch();
        if (scratch.prepare(db, text, 0, text.length, 0) != Sqlite.OK || scratch.preparedStmt() == 0) {
            return null;
        }
        long stmt = scratch.preparedStmt();
        try {
            return Sqlite.step(stmt) == Sqlite.ROW ? Sqlite.columnText(stmt, column) : null;
        } finally {
            Sqlite.finalizeStmt(stmt);
        }
    }
}
