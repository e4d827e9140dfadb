package dev.panlite.engine;

import dev.panlite.ffi.Fused;
import dev.panlite.ffi.Scratch;
import dev.panlite.ffi.Sqlite;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * SQL text run as it comes (Statement.execute, settings, scripts): statement after statement in one
 * crossing with the native helper, until one returns rows. Whether a statement queues for the write
 * gate is SQLite's answer for that statement (sqlite3_stmt_readonly, sqlite3_stmt_isexplain), never
 * a guess from the text: the fused exec stops before each writing statement met in auto-commit
 * mode, which then takes the path of any prepared statement's first step ({@link WriteAccess#firstStep}).
 * JDBC's result loop runs a text one statement per call instead ({@link #executeNext}).
 * A query text run twice is kept in the statement cache. Every method runs with the lock held.
 */
public final class TextExecution {
    private final Database database;
    private final StatementCache cache; // null when stmt_cache_size=0
    private final int[] recentTexts = new int[8]; // hashes of the last texts Statement.execute ran (ranBefore)
    private int recentAt;

    TextExecution(Database database, StatementCache cache) {
        this.database = database;
        this.cache = cache;
    }

    /** What {@link #executeUntilQuery} found: the first query (stepped once) and where the rest of the text starts. */
    public record Executed(Stmt query, int firstStep, byte[] sql, int tailOffset) {}

    /**
     * Runs the parameterless SQL in {@code utf8[offset..]} statement by statement until one of them
     * is a query; that query comes back stepped once.
     */
    public Executed executeUntilQuery(String sqlText, byte[] utf8, int offset) throws SQLException {
        return execute(sqlText, utf8, offset, false);
    }

    /**
     * Runs the next statement of the parameterless SQL in {@code utf8[offset..]}: a query comes back
     * stepped once, any other statement has run (JDBC's result loop: one result per statement).
     */
    public Executed executeNext(String sqlText, byte[] utf8, int offset) throws SQLException {
        return execute(sqlText, utf8, offset, true);
    }

    private Executed execute(String sqlText, byte[] utf8, int offset, boolean oneStatement) throws SQLException {
        assert database.isLockedByMe();
        database.checkOpen();
        if (offset == 0) {
            database.session().runningText(sqlText); // the fused exec runs its statements where no Stmt sees them
        }
        if (offset == 0 && cache != null) {
            Stmt cached = cache.take(sqlText, false);
            if (cached != null) {
                return executeCached(cached, utf8);
            }
        }
        WriteAccess writeAccess = database.writeAccess();
        Scratch scratch = database.scratch();
        long db = database.handle();
        // a text that may hold PRAGMA busy_timeout runs one statement per crossing: SQLite never prepares that one
        boolean busyTimeout = BusyTimeoutPragma.mentioned(utf8, offset);
        int flags = (writeAccess.gated() ? Fused.STOP_AT_WRITES : 0)
                | (oneStatement || busyTimeout ? Fused.ONE_STATEMENT : 0);
        int at = offset;
        try {
            while (true) {
                BusyTimeoutPragma pragma = busyTimeout ? BusyTimeoutPragma.at(utf8, at) : null;
                if (pragma != null) {
                    return answer(pragma, sqlText, utf8);
                }
                Object event = JfrEvents.statementStart();
                long started = EngineStats.executionStart();
                int rc = Fused.execNoArgs(scratch, db, utf8, at, utf8.length - at, flags);
                if ((rc & 0xff) == Sqlite.BUSY) { // met running a statement, or preparing one (loading the schema)
                    rc = retryBusy(rc, sqlText, utf8, flags);
                }
                if (database.callbackFailed()) { // a collation threw inside the text: fail with its Throwable
                    if (scratch.preparedStmt() != 0) {
                        Sqlite.finalizeStmt(scratch.preparedStmt());
                    }
                    throw database.error(Sqlite.ERROR, sqlText, ResultCodes.Phase.EXECUTE);
                }
                if (rc == Fused.STOPPED_AT_WRITE) {
                    at = scratch.tailOffset();
                    Executed write = runWrite(scratch.preparedStmt(), utf8, at);
                    if (write != null) {
                        return write; // INSERT ... RETURNING
                    }
                    if (oneStatement) {
                        return new Executed(null, Sqlite.DONE, utf8, at);
                    }
                    continue;
                }
                long query = scratch.preparedStmt();
                JfrEvents.statementEnd(event, sqlText, writeAccess.file(), rc);
                if (at == offset || SqlText.hasMoreSql(utf8, at)) { // not the empty tail after a write (counted by its step)
                    EngineStats.executionEnd(database.counts, started);
                }
                if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
                    throw database.error(rc, sqlText,
                            scratch.tailOffset() < 0 ? ResultCodes.Phase.PREPARE : ResultCodes.Phase.EXECUTE);
                }
                if (query == 0 && !oneStatement && SqlText.hasMoreSql(utf8, scratch.tailOffset())) {
                    at = scratch.tailOffset(); // one statement ran (busyTimeout): on to the next
                    continue;
                }
                // a query that is the whole text, run before: cached on close, so the next run skips the prepare
                boolean wholeText = at == 0 && !SqlText.hasMoreSql(utf8, scratch.tailOffset());
                boolean cacheable = query != 0 && wholeText && cache != null && ranBefore(sqlText);
                // a statement of a longer text is known by its own SQL: what it is (a query, a PRAGMA)
                // is decided from it, not from the text's first statement
                Stmt stmt = query == 0 ? null
                        : new Stmt(database, query, wholeText ? sqlText : Sqlite.sql(query), cacheable);
                if (stmt != null) {
                    stmt.markStepped();
                }
                return new Executed(stmt, rc, utf8, scratch.tailOffset());
            }
        } finally {
            writeAccess.releaseIfNoTransaction(); // also when SQL text ended a transaction (COMMIT as text)
        }
    }

    /** PRAGMA busy_timeout, answered by the driver ({@link BusyTimeoutPragma}): a query of one row, stepped once. */
    private Executed answer(BusyTimeoutPragma pragma, String sqlText, byte[] utf8) throws SQLException {
        Stmt stmt = database.busyTimeoutStatement(pragma, sqlText);
        int rc = stmt.step();
        if (rc != Sqlite.ROW) {
            SQLException e = database.error(rc, sqlText, ResultCodes.Phase.EXECUTE);
            stmt.finalizeNow();
            throw e;
        }
        return new Executed(stmt, rc, utf8, pragma.end());
    }

    /**
     * A writing statement the fused exec stopped before (prepared, not stepped): its first step queues
     * for the write gate like any prepared statement's ({@link Stmt#step}). Run to its end and
     * finalized (null), or, when it returns rows (RETURNING), handed back stepped once: the gate
     * stays until its rows are read.
     */
    private Executed runWrite(long handle, byte[] utf8, int tail) throws SQLException {
        database.writeAccess().releaseIfNoTransaction(); // a COMMIT earlier in the text ended the transaction
        Stmt stmt = new Stmt(database, handle, Sqlite.sql(handle), false);
        int rc = stmt.step();
        if (stmt.columnCount() > 0 && (rc == Sqlite.ROW || rc == Sqlite.DONE)) {
            return new Executed(stmt, rc, utf8, tail);
        }
        while (rc == Sqlite.ROW) {
            rc = stmt.step();
        }
        if (rc != Sqlite.DONE) {
            SQLException e = database.error(rc, stmt.sql, ResultCodes.Phase.EXECUTE);
            stmt.finalizeNow();
            throw e;
        }
        stmt.finalizeNow();
        return null;
    }

    /**
     * Statement.execute of a text the cache holds (one statement: a query run before, or the text
     * of a PreparedStatement): stepped once like any prepared statement (the write path's first
     * step). A statement without columns has run to its end and goes back to the cache.
     */
    private Executed executeCached(Stmt stmt, byte[] utf8) throws SQLException {
        try {
            int rc = stmt.step();
            if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
                SQLException e = database.error(rc, stmt.sql, ResultCodes.Phase.EXECUTE);
                database.release(stmt); // reset reports the error again: finalized, not cached
                throw e;
            }
            if (stmt.columnCount() == 0) {
                database.release(stmt);
                return new Executed(null, rc, utf8, utf8.length);
            }
            return new Executed(stmt, rc, utf8, utf8.length);
        } finally {
            database.writeAccess().releaseIfNoTransaction();
        }
    }

    /**
     * Whether Statement.execute ran {@code sql} among the last few texts it ran (by hash): only a
     * text run twice is cached, so one-off texts (values spliced into the SQL) never push the
     * application's prepared statements out of the cache.
     */
    private boolean ranBefore(String sql) {
        int hash = sql.hashCode();
        for (int h : recentTexts) {
            if (h == hash) {
                return true;
            }
        }
        recentTexts[recentAt] = hash;
        recentAt = (recentAt + 1) % recentTexts.length;
        return false;
    }

    /**
     * SQLITE_BUSY from the fused exec: the statements before the failing one ran (and committed, in
     * auto-commit mode), so the retry starts at the failing one, whose start the fused exec tells
     * (kept while it ran the text: preparing the text again from its start would stop at DDL that now
     * fails, a CREATE TABLE of a table that exists since). The failure may be its prepare (a lock met
     * loading the schema: SQLITE_BUSY_RECOVERY while another process recovers the WAL) or its step.
     * A failing writer in auto-commit mode never gets here: it was stopped before its step and queued
     * for the gate.
     */
    private int retryBusy(int rc, String sqlText, byte[] utf8, int flags) {
        Scratch scratch = database.scratch();
        long db = database.handle();
        int[] start = {failingStart(scratch.tailOffset())};
        String failing = new String(utf8, start[0], utf8.length - start[0], StandardCharsets.UTF_8);
        String keyword = SqlText.firstKeyword(failing);
        boolean commit = keyword.equals("COMMIT") || keyword.equals("END");
        return database.writeAccess().retryBusy(rc, sqlText, commit, () -> {
            int again = Fused.execNoArgs(scratch, db, utf8, start[0], utf8.length - start[0], flags);
            if ((again & 0xff) == Sqlite.BUSY) {
                start[0] = failingStart(scratch.tailOffset());
            }
            return again;
        });
    }

    /** Where the statement that failed starts, as the fused exec tells it (negative: its prepare failed). */
    private static int failingStart(int tail) {
        return tail < 0 ? Fused.failedPrepareAt(tail) : tail;
    }

    /**
     * Whether SQLite, preparing the statements of {@code utf8} one after another without running
     * any, finds a query among them ({@link Stmt#isQuery}): executeUpdate refuses such a text before
     * any of it runs. The look ahead ends at the first statement SQLite cannot prepare yet (it names
     * a table an earlier statement of the text creates): what follows is checked as it runs.
     */
    public boolean preparesQuery(byte[] utf8) throws SQLException {
        assert database.isLockedByMe();
        database.checkOpen();
        Scratch scratch = database.scratch();
        long db = database.handle();
        boolean busyTimeout = BusyTimeoutPragma.mentioned(utf8, 0);
        int at = 0;
        while (at < utf8.length) {
            BusyTimeoutPragma pragma = busyTimeout ? BusyTimeoutPragma.at(utf8, at) : null;
            if (pragma != null) { // not a query, and SQLite must not prepare it
                if (pragma.malformed()) {
                    return false;
                }
                at = pragma.end();
                continue;
            }
            int rc = scratch.prepare(db, utf8, at, utf8.length - at, 0);
            long handle = scratch.preparedStmt();
            int next = scratch.tailOffset();
            if (rc != Sqlite.OK) {
                return false; // nor is its tail known (SQLite leaves it unset on some errors)
            }
            if (handle != 0) {
                Stmt stmt = new Stmt(database, handle, Sqlite.sql(handle), false);
                boolean query = stmt.isQuery();
                stmt.finalizeNow();
                if (query) {
                    return true;
                }
            }
            if (next <= at) {
                return false;
            }
            at = next;
        }
        return false;
    }

    /** Runs every statement of {@code sql}, discarding rows (settings, savepoints, scripts). */
    public void execute(String sql) throws SQLException {
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        int offset = 0;
        while (offset < utf8.length) {
            Executed executed = executeUntilQuery(sql, utf8, offset);
            if (executed.query() != null) {
                Stmt query = executed.query();
                int rc = executed.firstStep();
                while (rc == Sqlite.ROW) {
                    rc = query.step();
                }
                if (rc != Sqlite.DONE) {
                    SQLException e = database.error(rc, sql, ResultCodes.Phase.EXECUTE);
                    query.finalizeNow();
                    throw e;
                }
                query.finalizeNow();
            }
            offset = executed.tailOffset();
        }
    }
}
