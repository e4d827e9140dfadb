package dev.panlite.ffi;

/**
 * Calls that would otherwise cross into native code several times, done in one crossing by the
 * native helper ({@link NativeHelper}) when it is loaded, or as plain downcalls when it is not
 * (another platform, no C compiler at build time, or {@code -Dpanlite.helper=false}). Both paths
 * have the same contract, so callers never know which one ran.
 */
public final class Fused {
    private Fused() {}

    /** True when the native helper is loaded and the fused calls take one crossing. */
    public static boolean helperActive() {
        return NativeHelper.ACTIVE;
    }

    /**
     * One line for diagnostics: where the native helper was loaded from, or why it is not used
     * (turned off, no helper for this platform, extraction or load failure).
     */
    public static String helperStatus() {
        return NativeHelper.ACTIVE
                ? "native helper active: " + NativeHelper.path()
                : "native helper not used (" + NativeHelper.reason() + "); fused calls use plain downcalls";
    }

    /** sqlite3_reset then sqlite3_clear_bindings (always); returns reset's code. */
    public static int resetClear(long stmt) {
        if (NativeHelper.ACTIVE) {
            return NativeHelper.resetClear(stmt);
        }
        int rc = Sqlite.reset(stmt);
        Sqlite.clearBindings(stmt);
        return rc;
    }

    /**
     * What {@link #execNoArgs} returns when it stopped before a statement that writes (no SQLite
     * result code is negative).
     */
    public static final int STOPPED_AT_WRITE = -2;

    /**
     * Runs the statements in {@code sql[offset, offset+length)} one after another until one of them
     * is a query (has result columns). That query is left prepared and stepped once: the return
     * value is that step's code (ROW or DONE), {@code scratch.preparedStmt()} its handle (the
     * caller finalizes it) and {@code scratch.tailOffset()} where the rest of the text starts. When
     * no statement is a query, all run and the result is DONE with {@code preparedStmt() == 0}.
     * On an error the failing statement is finalized, {@code preparedStmt() == 0}, and the error
     * code is returned with SQLite's message readable on {@code db}; {@code tailOffset()} is -1 when
     * the error came from prepare (grammar or schema: "no such table" has no error offset to tell).
     *
     * <p>With {@code stopAtWrites}, a statement that writes the database (sqlite3_stmt_readonly false,
     * not an EXPLAIN) met in auto-commit mode is not stepped: the result is {@link #STOPPED_AT_WRITE},
     * {@code preparedStmt()} that statement (the caller steps and finalizes it) and {@code tailOffset()}
     * where the text after it starts. The caller queues it for the write gate first.
     */
    public static int execNoArgs(Scratch scratch, long db, byte[] sql, int offset, int length, boolean stopAtWrites) {
        if (NativeHelper.ACTIVE) {
            return NativeHelper.execNoArgs(scratch, db, sql, offset, length, stopAtWrites);
        }
        int end = offset + length;
        int at = offset;
        while (at < end) {
            int rc = scratch.prepare(db, sql, at, end - at, 0);
            long stmt = scratch.preparedStmt();
            if (rc != Sqlite.OK) {
                scratch.setResult(0, -1); // failed while preparing
                return rc;
            }
            int tail = scratch.tailOffset();
            if (stmt == 0) { // only whitespace or a comment was left
                at = tail;
                continue;
            }
            if (stopAtWrites && !Sqlite.stmtReadonly(stmt) && !Sqlite.stmtIsexplain(stmt) && Sqlite.getAutocommit(db)) {
                scratch.setResult(stmt, tail);
                return STOPPED_AT_WRITE;
            }
            rc = Sqlite.step(stmt);
            if (Sqlite.columnCount(stmt) > 0 && (rc == Sqlite.ROW || rc == Sqlite.DONE)) {
                scratch.setResult(stmt, tail);
                return rc;
            }
            while (rc == Sqlite.ROW) {
                rc = Sqlite.step(stmt);
            }
            if (rc != Sqlite.DONE) {
                Sqlite.finalizeStmt(stmt); // keeps the step's error readable on db
                scratch.setResult(0, tail);
                return rc;
            }
            Sqlite.finalizeStmt(stmt);
            at = tail;
        }
        scratch.setResult(0, end);
        return Sqlite.DONE;
    }
}
