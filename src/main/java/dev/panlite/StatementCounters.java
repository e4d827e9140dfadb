package dev.panlite;

/**
 * SQLite's own counters of one statement ({@code sqlite3_stmt_status}), read by
 * {@link PanliteStatement#counters()}. The first four cover one execution: the one in progress while
 * its result set is open (so far), else the last one (each is zeroed where its statement is reset;
 * with {@code statement_diagnostics=false}, which never zeroes them, they count since the statement
 * was prepared).
 *
 * @param fullscanSteps rows a full table or index scan stepped through (SQLITE_STMTSTATUS_FULLSCAN_STEP):
 *     more than a few means an index would serve the statement better
 * @param sorts sort operations (SQLITE_STMTSTATUS_SORT): an index in the ORDER BY or GROUP BY order avoids them
 * @param autoindexes rows put into indexes SQLite built for this execution alone
 *     (SQLITE_STMTSTATUS_AUTOINDEX): a join that a real index would serve
 * @param vmSteps virtual machine operations run: the statement's work (SQLITE_STMTSTATUS_VM_STEP)
 * @param reprepares times SQLite prepared the statement again after a schema change, since it was
 *     prepared (SQLITE_STMTSTATUS_REPREPARE); 0 once the statement is finalized
 * @param runs executions since the statement was prepared (SQLITE_STMTSTATUS_RUN); 0 once it is finalized
 * @param memoryUsed bytes the statement holds now (SQLITE_STMTSTATUS_MEMUSED); 0 once it is finalized
 */
public record StatementCounters(long fullscanSteps, long sorts, long autoindexes, long vmSteps, long reprepares,
        long runs, long memoryUsed) {}
