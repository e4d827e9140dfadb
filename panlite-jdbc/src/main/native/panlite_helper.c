/*
 * Panlite native helper: calls that would cross from Java into SQLite several times, done in one
 * crossing. Loaded by dev.panlite.ffi.NativeHelper; the contract of each call is the pure-Java
 * fallback in dev.panlite.ffi.Fused, which this file must match exactly.
 *
 * This library does NOT link libsqlite3 and does not include sqlite3.h: it must call the very
 * SQLite the driver loaded (the system library, or the build named by -Dpanlite.sqlite.library),
 * so Java hands it the function pointers once, through panlite_init, before any other call.
 */
#include <stddef.h>

#if defined(_WIN32)
#define PANLITE_EXPORT __declspec(dllexport)
#else
#define PANLITE_EXPORT __attribute__((visibility("default")))
#endif

/* Opaque SQLite handles: only ever passed through. */
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

/* Values from sqlite3.h. */
#define PANLITE_SQLITE_OK 0
#define PANLITE_SQLITE_ROW 100
#define PANLITE_SQLITE_DONE 101
/* exec_no_args stopped before a statement that writes (no SQLite code is negative). */
#define PANLITE_STOPPED_AT_WRITE (-2)

/* Signatures of the SQLite functions used, as declared in sqlite3.h. */
typedef int (*prepare_v3_fn)(sqlite3 *db, const char *sql, int nByte, unsigned int prepFlags,
                             sqlite3_stmt **ppStmt, const char **pzTail);
typedef int (*stmt_fn)(sqlite3_stmt *stmt); /* step, reset, clear_bindings, finalize, column_count,
                                               stmt_readonly, stmt_isexplain */
typedef int (*db_fn)(sqlite3 *db);           /* get_autocommit */

static prepare_v3_fn p_prepare_v3;
static stmt_fn p_step;
static stmt_fn p_reset;
static stmt_fn p_clear_bindings;
static stmt_fn p_finalize;
static stmt_fn p_column_count;
static stmt_fn p_stmt_readonly;
static stmt_fn p_stmt_isexplain; /* NULL below SQLite 3.28: EXPLAIN then counts as what it explains */
static db_fn p_get_autocommit;

/*
 * Stores the SQLite function pointers. Returns 0 on success; -1 when a pointer is NULL; -2 when
 * the helper was already initialised with other pointers (a second copy of the driver in the same
 * process bound to another SQLite: it must not redirect the first one's calls, so it falls back).
 * Calling it again with the same pointers is harmless.
 */
PANLITE_EXPORT int panlite_init(void *prepare_v3, void *step, void *reset, void *clear_bindings,
                                void *finalize, void *column_count, void *stmt_readonly,
                                void *stmt_isexplain, void *get_autocommit) {
    if (!prepare_v3 || !step || !reset || !clear_bindings || !finalize || !column_count || !stmt_readonly
            || !get_autocommit) {
        return -1;
    }
    if (p_prepare_v3) {
        int same = p_prepare_v3 == (prepare_v3_fn)prepare_v3 && p_step == (stmt_fn)step
                && p_reset == (stmt_fn)reset && p_clear_bindings == (stmt_fn)clear_bindings
                && p_finalize == (stmt_fn)finalize && p_column_count == (stmt_fn)column_count
                && p_stmt_readonly == (stmt_fn)stmt_readonly && p_stmt_isexplain == (stmt_fn)stmt_isexplain
                && p_get_autocommit == (db_fn)get_autocommit;
        return same ? 0 : -2;
    }
    p_stmt_readonly = (stmt_fn)stmt_readonly;
    p_stmt_isexplain = (stmt_fn)stmt_isexplain;
    p_get_autocommit = (db_fn)get_autocommit;
    p_step = (stmt_fn)step;
    p_reset = (stmt_fn)reset;
    p_clear_bindings = (stmt_fn)clear_bindings;
    p_finalize = (stmt_fn)finalize;
    p_column_count = (stmt_fn)column_count;
    p_prepare_v3 = (prepare_v3_fn)prepare_v3; /* last: it marks the table as set */
    return 0;
}

/* sqlite3_reset then sqlite3_clear_bindings (always); returns reset's code. */
PANLITE_EXPORT int panlite_reset_clear(sqlite3_stmt *stmt) {
    int rc = p_reset(stmt);
    p_clear_bindings(stmt);
    return rc;
}

/*
 * Runs the statements in sql[0, len) one after another until one of them is a query (has result
 * columns after its first step). That query is left prepared and stepped once: the return value is
 * that step's code (ROW or DONE), *out_stmt its handle (the caller finalizes it) and *out_tail the
 * byte offset from sql where the rest of the text starts. When no statement is a query, all run and
 * the result is DONE with *out_stmt == NULL and *out_tail == len. On an error the failing statement
 * is finalized (which keeps the error readable on db), *out_stmt == NULL, and the error code is
 * returned; *out_tail is -1 when the error came from prepare (a grammar or schema error: the caller
 * reports it as such), else where the rest of the text starts. Text holding only whitespace or comments prepares to a NULL statement and is skipped.
 *
 * With stop_at_writes, a statement that writes the database (sqlite3_stmt_readonly false, not an
 * EXPLAIN) met in auto-commit mode is not stepped: it comes back prepared in *out_stmt with
 * PANLITE_STOPPED_AT_WRITE, so the caller can queue it for the write gate first.
 */
PANLITE_EXPORT int panlite_exec_no_args(sqlite3 *db, const char *sql, int len, int stop_at_writes,
                                        sqlite3_stmt **out_stmt, int *out_tail) {
    const char *end = sql + (len > 0 ? len : 0);
    const char *at = sql;
    while (at < end) {
        sqlite3_stmt *stmt = NULL;
        const char *tail = NULL;
        int rc = p_prepare_v3(db, at, (int)(end - at), 0, &stmt, &tail);
        const char *next = tail ? tail : end; /* as the Java fallback: a NULL tail means the end */
        if (rc != PANLITE_SQLITE_OK) {
            if (stmt) { /* SQLite sets it to NULL on error; be safe anyway */
                p_finalize(stmt);
            }
            *out_stmt = NULL;
            *out_tail = -1; /* failed while preparing */
            return rc;
        }
        if (!stmt) { /* only whitespace or a comment was left */
            at = next > at ? next : end; /* never loop on a tail that did not move */
            continue;
        }
        if (stop_at_writes && !p_stmt_readonly(stmt) && !(p_stmt_isexplain && p_stmt_isexplain(stmt))
                && p_get_autocommit(db)) {
            *out_stmt = stmt;
            *out_tail = (int)(next - sql);
            return PANLITE_STOPPED_AT_WRITE;
        }
        rc = p_step(stmt);
        if (p_column_count(stmt) > 0 && (rc == PANLITE_SQLITE_ROW || rc == PANLITE_SQLITE_DONE)) {
            *out_stmt = stmt;
            *out_tail = (int)(next - sql);
            return rc;
        }
        while (rc == PANLITE_SQLITE_ROW) {
            rc = p_step(stmt);
        }
        if (rc != PANLITE_SQLITE_DONE) {
            p_finalize(stmt); /* keeps the step's error readable on db */
            *out_stmt = NULL;
            *out_tail = (int)(next - sql);
            return rc;
        }
        p_finalize(stmt);
        at = next > at ? next : end;
    }
    *out_stmt = NULL;
    *out_tail = (int)(end - sql);
    return PANLITE_SQLITE_DONE;
}
