package dev.panlite.engine;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What SQL can give a connection that a new connection to the same database would not have, beyond
 * what JDBC's setters track: settings changed by PRAGMA, attached databases, objects in the TEMP
 * schema (and their rows). A pooled connection's next user must not inherit them (DESIGN.md
 * "Pooled connections"): {@link #remember} notes the state of a connection just opened,
 * {@link #restore} puts it back. Looking costs a few dozen statements, so only a connection that
 * ran a text that could change any of it ({@link SqlText#mayChangeSession}, checked once per
 * statement, and only while remembering) is looked at. Every method runs with the lock held.
 *
 * <p>Not put back (README, pooled connections): {@code wal_autocheckpoint} run as SQL (it hands
 * checkpoints to SQLite for the connection's life; the driver's WAL hook cannot be told apart from
 * none by reading the PRAGMA), and a main database replaced by {@code deserialize}, which fails
 * the restore: the pool must then drop the connection.
 */
public final class SessionState {
    /**
     * The per-connection PRAGMAs put back to their value at open (each read and compared, set only
     * when it differs). A PRAGMA the loaded SQLite does not have answers no row and is left out.
     * Not here: what the file keeps (user_version, page_size, WAL), what a rollback ends
     * (defer_foreign_keys), what the driver owns (wal_autocheckpoint).
     */
    private static final String[] SETTINGS = {
        "query_only", "foreign_keys", "recursive_triggers", "ignore_check_constraints", "read_uncommitted",
        "reverse_unordered_selects", "automatic_index", "cell_size_check", "trusted_schema", "legacy_alter_table",
        "writable_schema", "count_changes", "full_column_names", "short_column_names", "synchronous",
        "cache_size", "cache_spill", "mmap_size", "locking_mode", "journal_mode", "journal_size_limit",
        "max_page_count", "secure_delete", "temp_store", "threads", "analysis_limit", "busy_timeout",
        "checkpoint_fullfsync", "fullfsync",
    };

    private final Database database;
    private boolean watching; // remember() ran: statements that may change the state mark the connection
    private boolean marked; // since the last remember or restore
    private Map<String, String> settings; // SETTINGS as they were at remember()
    private List<String> schemas; // the attached databases' names at remember() (main, maybe temp)
    private String mainFile;
    private String likeIgnoresCase; // 'a' LIKE 'A' at remember(): case_sensitive_like cannot be read

    SessionState(Database database) {
        this.database = database;
    }

    /** Notes the connection's state now (just opened, not yet used) as the one {@link #restore} puts back. */
    public void remember() throws SQLException {
        assert database.isLockedByMe();
        database.checkOpen();
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : SETTINGS) {
            String value = setting(name);
            if (value != null) {
                values.put(name, value);
            }
        }
        List<String> names = new ArrayList<>();
        String main = null;
        for (String[] db : databases()) {
            names.add(db[0]);
            if (db[0].equals("main")) {
                main = db[1];
            }
        }
        settings = values;
        schemas = names;
        mainFile = main;
        likeIgnoresCase = value("SELECT 'a' LIKE 'A'");
        watching = true;
        marked = false;
    }

    /** A statement is about to run (its first step): it marks the connection when its text may change the state. */
    void executing(Stmt stmt) {
        if (watching && !marked && stmt.mayChangeSession()) {
            marked = true;
        }
    }

    /** SQL text is about to run statement after statement (TextExecution). */
    void runningText(String sql) {
        if (watching && !marked && SqlText.mayChangeSession(sql)) {
            marked = true;
        }
    }

    /** Something other than SQL text changed a schema (a restore into it, a deserialize). */
    void changed() {
        marked = watching;
    }

    /**
     * Puts back the state {@link #remember} noted, if a statement since could have changed it: the
     * databases attached since are detached, the TEMP schema is emptied, the settings get their
     * values back. Call outside a transaction, with no statement of the connection running. Throws
     * when that fails or cannot be done (the main database was replaced): the connection then holds
     * state a new one would not have, and must not be handed out again.
     */
    public void restore() throws SQLException {
        assert database.isLockedByMe();
        if (!marked) {
            return;
        }
        database.checkOpen();
        boolean tempOpen = false; // SQLite opens TEMP at its first use; asking for its schema would open it (3.40)
        for (String[] db : databases()) {
            tempOpen |= db[0].equals("temp");
            if (db[0].equals("main")) {
                if (!db[1].equals(mainFile)) {
                    throw new SQLNonTransientConnectionException("The main database of this connection is no longer "
                            + (mainFile.isEmpty() ? "the in-memory database" : mainFile) + " but "
                            + (db[1].isEmpty() ? "an in-memory one (deserialize)" : db[1])
                            + ": it cannot be put back for the next user", SqlState.CONNECTION_FAILURE);
                }
            } else if (!schemas.contains(db[0]) && !db[0].equals("temp")) {
                database.text().execute("DETACH DATABASE " + SqlText.quoteIdentifier(db[0]));
            }
        }
        if (tempOpen && value("SELECT 1 FROM temp.sqlite_master LIMIT 1") != null) {
            emptyTemp();
        }
        for (Map.Entry<String, String> s : settings.entrySet()) {
            String now = setting(s.getKey());
            if (now != null && !now.equals(s.getValue())) {
                database.text().execute("PRAGMA " + s.getKey() + " = " + literal(s.getValue()));
            }
        }
        String like = value("SELECT 'a' LIKE 'A'");
        if (like != null && !like.equals(likeIgnoresCase)) {
            database.text().execute("PRAGMA case_sensitive_like = " + ("1".equals(likeIgnoresCase) ? 0 : 1));
        }
        marked = false;
    }

    /**
     * Drops every TEMP object with its rows, at once: SQLite closes the TEMP database when
     * temp_store changes (and then reloads the schemas), so it is changed to another value and back.
     */
    private void emptyTemp() throws SQLException {
        String now = setting("temp_store");
        String remembered = settings.getOrDefault("temp_store", now);
        for (String other : new String[] {"0", "1", "2"}) {
            if (!other.equals(now) && !other.equals(remembered)) {
                database.text().execute("PRAGMA temp_store = " + other);
                database.text().execute("PRAGMA temp_store = " + literal(remembered));
                break;
            }
        }
        if (value("SELECT 1 FROM temp.sqlite_master LIMIT 1") != null) {
            throw new SQLNonTransientConnectionException("The TEMP schema of this connection could not be emptied for"
                    + " the next user", SqlState.CONNECTION_FAILURE);
        }
    }

    /**
     * The value of {@code PRAGMA name}, or null when SQLite has no such PRAGMA. journal_mode is read
     * through its table-valued function: the PRAGMA itself counts as writing (sqlite3_stmt_readonly)
     * and would queue for the write gate, though reading it takes no lock.
     */
    private String setting(String name) throws SQLException {
        return value(name.equals("journal_mode") ? "SELECT * FROM pragma_journal_mode" : "PRAGMA " + name);
    }

    /** The first column of the first row of the single statement {@code sql}, as text; null when it has no row. */
    private String value(String sql) throws SQLException {
        Stmt stmt = database.prepareFresh(sql);
        try {
            int rc = stmt.step();
            if (rc == dev.panlite.ffi.Sqlite.ROW) {
                String v = stmt.columnText(0);
                return v == null ? "" : v;
            }
            if (rc != dev.panlite.ffi.Sqlite.DONE) {
                throw database.error(rc, sql, ResultCodes.Phase.EXECUTE);
            }
            return null;
        } finally {
            stmt.finalizeNow();
        }
    }

    /** PRAGMA database_list: {name, file} of each database the connection has open. */
    private List<String[]> databases() throws SQLException {
        List<String[]> rows = new ArrayList<>();
        String sql = "PRAGMA database_list";
        Stmt stmt = database.prepareFresh(sql);
        try {
            int rc;
            while ((rc = stmt.step()) == dev.panlite.ffi.Sqlite.ROW) {
                String file = stmt.columnText(2);
                rows.add(new String[] {stmt.columnText(1), file == null ? "" : file});
            }
            if (rc != dev.panlite.ffi.Sqlite.DONE) {
                throw database.error(rc, sql, ResultCodes.Phase.EXECUTE);
            }
        } finally {
            stmt.finalizeNow();
        }
        return rows;
    }

    /** A value SQLite gave for a PRAGMA (a number or a word), as a PRAGMA's argument: a number as it is, else quoted, so nothing in it is SQL. */
    private static String literal(String value) {
        return value.matches("-?[0-9]{1,19}") ? value : "'" + value.replace("'", "''") + "'";
    }
}
