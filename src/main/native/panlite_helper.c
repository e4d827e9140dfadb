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
#include <string.h>

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
#define PANLITE_SQLITE_MISUSE 21
#define PANLITE_SQLITE_ROW 100
#define PANLITE_SQLITE_DONE 101
#define PANLITE_SQLITE_INTEGER 1
#define PANLITE_SQLITE_FLOAT 2
#define PANLITE_SQLITE_TEXT 3
#define PANLITE_SQLITE_BLOB 4
#define PANLITE_SQLITE_NULL 5
#define PANLITE_SQLITE_TRANSIENT ((void (*)(void *))-1)
/* exec_no_args stopped before a statement that writes (no SQLite code is negative). */
#define PANLITE_STOPPED_AT_WRITE (-2)
/* exec_no_args flags: stop before a write met in auto-commit mode; stop after one statement. */
#define PANLITE_EXEC_STOP_AT_WRITES 1
#define PANLITE_EXEC_ONE_STATEMENT 2

/* Signatures of the SQLite functions used, as declared in sqlite3.h. */
typedef long long i64;
typedef int (*prepare_v3_fn)(sqlite3 *db, const char *sql, int nByte, unsigned int prepFlags,
                             sqlite3_stmt **ppStmt, const char **pzTail);
typedef int (*stmt_fn)(sqlite3_stmt *stmt); /* step, reset, clear_bindings, finalize, column_count,
                                               stmt_readonly, stmt_isexplain */
typedef int (*db_fn)(sqlite3 *db);           /* get_autocommit */
typedef struct sqlite3_value sqlite3_value;
typedef sqlite3_value *(*column_value_fn)(sqlite3_stmt *stmt, int i);
typedef int (*value_int_fn)(sqlite3_value *v); /* value_type, value_bytes */
typedef i64 (*value_int64_fn)(sqlite3_value *v);
typedef double (*value_double_fn)(sqlite3_value *v);
typedef const void *(*value_ptr_fn)(sqlite3_value *v); /* value_text, value_blob */
typedef int (*bind_null_fn)(sqlite3_stmt *stmt, int i);
typedef int (*bind_int64_fn)(sqlite3_stmt *stmt, int i, i64 v);
typedef int (*bind_double_fn)(sqlite3_stmt *stmt, int i, double v);
typedef int (*bind_bytes_fn)(sqlite3_stmt *stmt, int i, const void *p, int n, void (*destructor)(void *));
typedef i64 (*db_int64_fn)(sqlite3 *db); /* changes64, last_insert_rowid */
typedef sqlite3 *(*db_handle_fn)(sqlite3_stmt *stmt);
typedef int (*txn_state_fn)(sqlite3 *db, const char *schema);

/*
 * The function table, in the order Java passes it (dev.panlite.ffi.NativeHelper.SQLITE_FUNCTIONS).
 * prepare_v3 is stored last: it marks the table as set.
 */
enum {
    F_PREPARE_V3, F_STEP, F_RESET, F_CLEAR_BINDINGS, F_FINALIZE, F_COLUMN_COUNT,
    F_COLUMN_VALUE, F_VALUE_TYPE, F_VALUE_INT64, F_VALUE_DOUBLE, F_VALUE_TEXT, F_VALUE_BLOB, F_VALUE_BYTES,
    F_BIND_NULL, F_BIND_INT64, F_BIND_DOUBLE, F_BIND_TEXT, F_BIND_BLOB,
    F_CHANGES64, F_LAST_INSERT_ROWID, F_DB_HANDLE,
    F_STMT_READONLY, F_STMT_ISEXPLAIN, F_GET_AUTOCOMMIT, F_TXN_STATE,
    F_COUNT
};
static void *table[F_COUNT];

#ifdef PANLITE_LINKED
/*
 * The bundled engine (bundled.c): this file is compiled in one translation unit with sqlite3.c, so
 * the helper calls SQLite's functions directly and the compiler inlines the small ones (the value
 * reads of a row copy, the binds of a batch row) instead of calling each through the table: about a
 * fifth less per row read (docs/experiments/051). panlite_init still checks that Java passed this
 * very library's functions.
 */
#define p_prepare_v3 sqlite3_prepare_v3
#define p_step sqlite3_step
#define p_reset sqlite3_reset
#define p_clear_bindings sqlite3_clear_bindings
#define p_finalize sqlite3_finalize
#define p_column_count sqlite3_column_count
#define p_column_value linked_column_value
#define p_value_type sqlite3_value_type
#define p_value_int64 sqlite3_value_int64
#define p_value_double sqlite3_value_double
#define p_value_text sqlite3_value_text
#define p_value_blob sqlite3_value_blob
#define p_value_bytes sqlite3_value_bytes
#define p_bind_null sqlite3_bind_null
#define p_bind_int64 sqlite3_bind_int64
#define p_bind_double sqlite3_bind_double
#define p_bind_text sqlite3_bind_text
#define p_bind_blob sqlite3_bind_blob
#define p_changes64 sqlite3_changes64
#define p_last_insert_rowid sqlite3_last_insert_rowid
#define p_db_handle sqlite3_db_handle
#define p_stmt_readonly sqlite3_stmt_readonly
#define p_stmt_isexplain sqlite3_stmt_isexplain
#define p_get_autocommit sqlite3_get_autocommit
#define p_txn_state sqlite3_txn_state
#define P_HAS_ISEXPLAIN 1

/*
 * sqlite3_column_value without its API wrapper (columnMem, columnMallocFailure): the result row's
 * own Mem, read at once and never kept. The wrapper takes db->mutex, which Panlite's connection lock
 * makes redundant (every native call on a connection holds it), and turns a malloc failure of an
 * earlier value read into the statement's error, which a read of the row as it is cannot cause.
 * About 4 ns a value (docs/experiments/052). Out of range: the API, which reports it.
 */
static sqlite3_value *linked_column_value(sqlite3_stmt *stmt, int i) {
    Vdbe *v = (Vdbe *)stmt;
    if (v->pResultRow != 0 && i >= 0 && i < v->nResColumn) {
        return (sqlite3_value *)&v->pResultRow[i];
    }
    return sqlite3_column_value(stmt, i);
}

/*
 * A TEXT or BLOB's bytes as they are held, when that is what sqlite3_value_text/_blob would return
 * without converting anything (UTF-8 text, not a zeroblob): no call, no terminator check. 0
 * otherwise, and the API converts.
 */
static int linked_bytes(sqlite3_value *value, const void **p, int *n) {
    Mem *m = (Mem *)value;
    if ((m->flags & (MEM_Str | MEM_Blob)) == 0 || (m->flags & MEM_Zero) != 0
        || ((m->flags & MEM_Str) != 0 && m->enc != SQLITE_UTF8) || (m->n > 0 && m->z == 0)) {
        return 0;
    }
    *p = m->z;
    *n = m->n;
    return 1;
}
#define P_DIRECT_BYTES(value, p, n) linked_bytes(value, p, n)
/* The database's text encoding is UTF-8 (ENC(db)): read here, so Java need not ask. */
#define P_UTF8_DATABASE(stmt) (((Vdbe *)(stmt))->db->enc == SQLITE_UTF8)
#define P_LINKED 1
#else
#define P_UTF8_DATABASE(stmt) 1
#define P_LINKED 0
#define P_DIRECT_BYTES(value, p, n) 0
#define P_HAS_ISEXPLAIN (p_stmt_isexplain != NULL)
#define p_prepare_v3 ((prepare_v3_fn)table[F_PREPARE_V3])
#define p_step ((stmt_fn)table[F_STEP])
#define p_reset ((stmt_fn)table[F_RESET])
#define p_clear_bindings ((stmt_fn)table[F_CLEAR_BINDINGS])
#define p_finalize ((stmt_fn)table[F_FINALIZE])
#define p_column_count ((stmt_fn)table[F_COLUMN_COUNT])
#define p_column_value ((column_value_fn)table[F_COLUMN_VALUE])
#define p_value_type ((value_int_fn)table[F_VALUE_TYPE])
#define p_value_int64 ((value_int64_fn)table[F_VALUE_INT64])
#define p_value_double ((value_double_fn)table[F_VALUE_DOUBLE])
#define p_value_text ((value_ptr_fn)table[F_VALUE_TEXT])
#define p_value_blob ((value_ptr_fn)table[F_VALUE_BLOB])
#define p_value_bytes ((value_int_fn)table[F_VALUE_BYTES])
#define p_bind_null ((bind_null_fn)table[F_BIND_NULL])
#define p_bind_int64 ((bind_int64_fn)table[F_BIND_INT64])
#define p_bind_double ((bind_double_fn)table[F_BIND_DOUBLE])
#define p_bind_text ((bind_bytes_fn)table[F_BIND_TEXT])
#define p_bind_blob ((bind_bytes_fn)table[F_BIND_BLOB])
#define p_changes64 ((db_int64_fn)table[F_CHANGES64])
#define p_last_insert_rowid ((db_int64_fn)table[F_LAST_INSERT_ROWID])
#define p_db_handle ((db_handle_fn)table[F_DB_HANDLE])
#define p_stmt_readonly ((stmt_fn)table[F_STMT_READONLY])
#define p_stmt_isexplain ((stmt_fn)table[F_STMT_ISEXPLAIN]) /* NULL below SQLite 3.28: EXPLAIN then counts as what it explains */
#define p_get_autocommit ((db_fn)table[F_GET_AUTOCOMMIT])
#define p_txn_state ((txn_state_fn)table[F_TXN_STATE])
#endif

/*
 * 1 when the connection is inside a transaction (not auto-commit) that may have changed what a
 * rollback, or a ROLLBACK TO, would undo. Rows read ahead there could be rows that never existed
 * once the transaction rolls back, while a reader stepping in place would go on from the restored
 * database; so a fill then reads only the row the reader moves to. Linked into the bundled engine
 * the answer is exact: a schema whose pager has modified a page (PAGER_WRITER_CACHEMOD or later).
 * Through the table it is SQLite's public answer, a write transaction is open
 * (sqlite3_txn_state), which is also true of a BEGIN IMMEDIATE that has changed nothing yet.
 */
static int txn_changed(sqlite3 *db) {
    if (p_get_autocommit(db)) {
        return 0; /* no transaction the reader could see rolled back */
    }
#ifdef PANLITE_LINKED
    for (int i = 0; i < db->nDb; i++) {
        Btree *bt = db->aDb[i].pBt;
        if (bt != 0 && sqlite3BtreeTxnState(bt) == SQLITE_TXN_WRITE
                && sqlite3BtreePager(bt)->eState >= PAGER_WRITER_CACHEMOD) {
            return 1;
        }
    }
    return 0;
#else
    return p_txn_state(db, NULL) == 2; /* SQLITE_TXN_WRITE */
#endif
}

/*
 * Stores the SQLite function pointers (count of them, in the order of the enum above). Returns 0 on
 * success; -1 when a pointer is NULL (only sqlite3_stmt_isexplain may be) or the count is not this helper's; -2 when the helper was
 * already initialised with other pointers (a second copy of the driver in the same process bound
 * to another SQLite: it must not redirect the first one's calls, so it falls back). Calling it
 * again with the same pointers is harmless.
 */
PANLITE_EXPORT int panlite_init(void *const *functions, int count) {
    if (!functions || count != F_COUNT) {
        return -1;
    }
    for (int i = 0; i < F_COUNT; i++) {
        if (!functions[i] && i != F_STMT_ISEXPLAIN) {
            return -1;
        }
    }
#ifdef PANLITE_LINKED
    if (functions[F_STEP] != (void *)sqlite3_step) { /* not this library's functions: its calls stay its own */
        return -2;
    }
#endif
    if (table[F_PREPARE_V3]) {
        for (int i = 0; i < F_COUNT; i++) {
            if (table[i] != functions[i]) {
                return -2;
            }
        }
        return 0;
    }
    for (int i = 1; i < F_COUNT; i++) {
        table[i] = functions[i];
    }
    table[F_PREPARE_V3] = functions[F_PREPARE_V3]; /* last: it marks the table as set */
    return 0;
}

/*
 * 1 when this helper is compiled into the bundled engine: it then reads the database's text encoding
 * itself (the blobs argument of panlite_fill_rows may always be 1); 0 when it calls a library through
 * the table, and Java says whether blobs may be copied.
 */
PANLITE_EXPORT int panlite_linked(void) {
    return P_LINKED;
}

#ifdef PANLITE_LINKED
/*
 * Clears sqlite3_interrupt's flag on db. SQLite clears it only when no statement of the connection
 * is active, so an interrupt aimed at one statement (cancel, a query timeout, a failing collation)
 * would otherwise fail every later statement, and every held result set, until all are reset.
 * Java calls it with the connection's lock held once the interrupted execution has ended (and
 * never after close): the same atomic store sqlite3_interrupt makes, the other way. Only in the
 * bundled engine: a system SQLite's struct layout is not ours to know.
 */
PANLITE_EXPORT void panlite_interrupt_clear(sqlite3 *db) {
    AtomicStore(&db->u1.isInterrupted, 0);
}

/*
 * Sets the busy timeout SQLite reports (db->busyTimeout, which `SELECT * FROM pragma_busy_timeout`
 * reads) without installing SQLite's sleeping busy handler: Panlite waits in Java. SQLite reads the
 * field nowhere else but in that handler, which is never installed. Java calls it with the
 * connection's lock held whenever the wait in force changes. Only in the bundled engine, as above.
 */
PANLITE_EXPORT void panlite_busy_timeout_note(sqlite3 *db, int ms) {
    db->busyTimeout = ms;
}

#endif
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
 * returned; *out_tail says where the failing statement starts, so a caller retrying SQLITE_BUSY goes
 * on from it without preparing the text again: -1 - that offset when the error came from prepare (a
 * grammar or schema error, or a lock met loading the schema), the offset itself when it came from a
 * step. Text holding only whitespace or comments prepares to a NULL statement and is skipped.
 *
 * With PANLITE_EXEC_STOP_AT_WRITES in flags, a statement that writes the database
 * (sqlite3_stmt_readonly false, not an EXPLAIN) met in auto-commit mode is not stepped: it comes
 * back prepared in *out_stmt with PANLITE_STOPPED_AT_WRITE, so the caller can queue it for the
 * write gate first. With PANLITE_EXEC_ONE_STATEMENT, a statement that is not a query ends the call
 * after it ran (DONE, *out_stmt == NULL, *out_tail where the next starts): JDBC's result loop
 * reports one update count per statement.
 */
PANLITE_EXPORT int panlite_exec_no_args(sqlite3 *db, const char *sql, int len, int flags,
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
            *out_tail = -1 - (int)(at - sql); /* failed while preparing the statement at `at` */
            return rc;
        }
        if (!stmt) { /* only whitespace or a comment was left */
            at = next > at ? next : end; /* never loop on a tail that did not move */
            continue;
        }
        if ((flags & PANLITE_EXEC_STOP_AT_WRITES) && !p_stmt_readonly(stmt) && !(P_HAS_ISEXPLAIN && p_stmt_isexplain(stmt))
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
            *out_tail = (int)(at - sql); /* failed while stepping the statement at `at` */
            return rc;
        }
        p_finalize(stmt);
        at = next > at ? next : end;
        if (flags & PANLITE_EXEC_ONE_STATEMENT) {
            *out_stmt = NULL;
            *out_tail = (int)(at - sql);
            return PANLITE_SQLITE_DONE;
        }
    }
    *out_stmt = NULL;
    *out_tail = (int)(end - sql);
    return PANLITE_SQLITE_DONE;
}

/*
 * Copies one row of stmt (cols columns) into slot `row` of the batch: types[row*cols + c] is the
 * storage class, cells[...] the INTEGER value, the FLOAT's bits, or for TEXT and BLOB
 * (offset << 32 | length) into heap, a TEXT's with PANLITE_ASCII when it is all ASCII; NULL leaves 0. Each column is read through sqlite3_column_value
 * (its type, then the value: what sqlite3_column_type and sqlite3_column_int64 / _double / _text /
 * _blob / _bytes return, in one look-up of the column instead of two, 20% less per row: experiment
 * 050). Text is read as UTF-8; the type is read before the value, as SQLite documents. Returns 0, or
 * -1 when the row's cells do not fit in types and cells (cells_cap entries each: a row wider than
 * that is never copied), a text or blob is longer than value_limit or the heap has no room for the
 * row (nothing of it is kept: *heap_used is unchanged), or when the row holds a BLOB and blobs is 0.
 * Every write is bounded by the buffer it goes into (cells_cap, heap_cap), whatever the caller asks.
 *
 * blobs is 0 in a database whose text encoding is not UTF-8: there sqlite3_column_text of a blob
 * converts its bytes from the encoding its value carries (the database's for a stored blob, UTF-8
 * for a computed zeroblob), which a copy of the bytes loses, so such a row is read in place.
 */
/*
 * Set in a TEXT's cell when every byte is ASCII: Java then makes its String from the bytes as they
 * are, without decoding UTF-8, which for short text costs several times the copy (experiment 051).
 * A hint: without it (the pure-Java fallback never sets it) the text is decoded, to the same String.
 */
#define PANLITE_ASCII ((i64)1 << 31)

static int is_ascii(const unsigned char *p, int n) {
    unsigned long long any = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        unsigned long long w;
        memcpy(&w, p + i, sizeof w);
        any |= w;
    }
    for (; i < n; i++) {
        any |= p[i];
    }
    return (any & 0x8080808080808080ULL) == 0;
}

static int copy_row(sqlite3_stmt *stmt, int cols, int row, int value_limit, int blobs, unsigned char *types,
                    i64 *cells, int cells_cap, unsigned char *heap, int heap_cap, int *heap_used) {
    if (cols < 0 || row < 0 || cells_cap < 0 || (size_t)(row + 1) * (size_t)cols > (size_t)cells_cap) {
        return -1; /* the row does not fit in the cells left (wider than the buffer: read in place) */
    }
    int used = *heap_used;
    unsigned char *t = types + (size_t)row * cols;
    i64 *v = cells + (size_t)row * cols;
    for (int c = 0; c < cols; c++) {
        sqlite3_value *value = p_column_value(stmt, c);
        int type = p_value_type(value);
        t[c] = (unsigned char)type;
        switch (type) {
        case PANLITE_SQLITE_INTEGER:
            v[c] = p_value_int64(value);
            break;
        case PANLITE_SQLITE_FLOAT: {
            double d = p_value_double(value);
            memcpy(&v[c], &d, sizeof d);
            break;
        }
        case PANLITE_SQLITE_TEXT:
        case PANLITE_SQLITE_BLOB: {
            const void *p;
            int n;
            if (type == PANLITE_SQLITE_BLOB && !(blobs && P_UTF8_DATABASE(stmt))) { /* as the row is: a step may load the schema */
                return -1;
            }
            if (!P_DIRECT_BYTES(value, &p, &n)) {
                p = type == PANLITE_SQLITE_TEXT ? p_value_text(value) : p_value_blob(value);
                n = p_value_bytes(value);
            }
            if (n < 0 || n > value_limit || n > heap_cap - used) {
                return -1;
            }
            if (p == NULL && n > 0) { /* out of memory converting: leave the row to the plain path */
                return -1;
            }
            if (n > 0) {
                memcpy(heap + used, p, (size_t)n);
            }
            v[c] = ((i64)used << 32) | (i64)n;
            if (type == PANLITE_SQLITE_TEXT && is_ascii(heap + used, n)) {
                v[c] |= PANLITE_ASCII;
            }
            used += n;
            break;
        }
        default:
            t[c] = PANLITE_SQLITE_NULL;
            v[c] = 0;
            break;
        }
    }
    *heap_used = used;
    return 0;
}

/*
 * Reads up to max_rows rows of stmt into the batch buffers (layout: copy_row). With copy_current,
 * the statement is already on a row (stepped by the caller): it is copied first, without a step;
 * otherwise each row is first stepped to. Stops early, with the statement on the row just copied,
 * when *callbacks changed during a step (a Java callback ran: rows are then read one by one, as
 * without a batch). Reads one row only, the one the reader moves to, inside a transaction that may
 * have changed the database (txn_changed): no row read ahead can outlive a rollback. Returns:
 *   ROW   out[0] rows copied; the statement is on a row. out[2] = 1 when that row is NOT copied
 *         (over value_limit, wider than cells_cap, or no room left): the caller reads it in place.
 *   DONE  out[0] rows copied, then the statement finished.
 *   else  an error code from the step after the out[0] rows copied.
 * out[1] is the heap bytes used; out[3] the statement's column count after the steps (a step that
 * re-prepared it after a schema change may have changed it: the Java side checks it instead of asking).
 */
PANLITE_EXPORT int panlite_fill_rows(sqlite3_stmt *stmt, int cols, int copy_current, int max_rows, int value_limit,
                                     int blobs, unsigned char *types, i64 *cells, int cells_cap, unsigned char *heap,
                                     int heap_cap, const volatile int *callbacks, int *out) {
    int rows = 0;
    int used = 0;
    int rc = PANLITE_SQLITE_ROW;
    int pending = 0;
    if (max_rows > 1 && txn_changed(p_db_handle(stmt))) {
        max_rows = 1; /* as the fill of a fetch size of 1: only the row the reader moves to */
    }
    while (rows < max_rows) {
        int before = *callbacks;
        if (copy_current) {
            copy_current = 0;
        } else {
            rc = p_step(stmt);
            if (rc != PANLITE_SQLITE_ROW) {
                break;
            }
        }
        if (copy_row(stmt, cols, rows, value_limit, blobs, types, cells, cells_cap, heap, heap_cap, &used) != 0) {
            pending = 1;
            break;
        }
        rows++;
        if (*callbacks != before) {
            break;
        }
    }
    out[0] = rows;
    out[1] = used;
    out[2] = pending;
    out[3] = p_column_count(stmt);
    return rc;
}

/*
 * Copies the row stmt is on into slot 0 of the batch, without a step (so nothing can call back
 * into Java: the downcall may be critical). Results as panlite_fill_rows with copy_current and
 * max_rows 1: returns ROW, out[0] 1 (or 0 with out[2] = 1 when the row does not fit).
 */
PANLITE_EXPORT int panlite_copy_current(sqlite3_stmt *stmt, int cols, int value_limit, int blobs, unsigned char *types,
                                        i64 *cells, int cells_cap, unsigned char *heap, int heap_cap, int *out) {
    int used = 0;
    int fits = copy_row(stmt, cols, 0, value_limit, blobs, types, cells, cells_cap, heap, heap_cap, &used) == 0;
    out[0] = fits;
    out[1] = fits ? used : 0;
    out[2] = !fits;
    out[3] = p_column_count(stmt);
    return PANLITE_SQLITE_ROW;
}

/*
 * Runs `rows` rows of a batch through stmt: for each, binds its `width` parameters from kinds /
 * cells / heap (kinds as dev.panlite.engine.Bindings: 1 NULL, 2 integer, 3 double bits, 4 text,
 * 5 blob, text and blob as (offset << 32 | length) into heap; 0, unset, binds NULL), steps until
 * done, resets, and stores sqlite3_changes64 (when want_changes, else 0) and
 * sqlite3_last_insert_rowid in changes[i] and rowids[i]. Stops at the first row whose bind or step
 * fails: returns that code with *done = the rows completed before it (the failing row is left
 * stepped and not reset, so its error stays readable on the connection; a failed bind leaves it
 * unstepped). Returns DONE with *done = rows when every row ran.
 *
 * Bounded by the buffers: kinds and cells hold cells_cap entries, heap heap_cap bytes, changes and
 * rowids rows_cap. A chunk that does not fit (rows over rows_cap, rows * width over cells_cap), or
 * a text or blob whose bytes lie outside the heap, runs nothing from there and returns
 * SQLITE_MISUSE with *done = the rows completed before it: the caller never builds such a chunk.
 */
PANLITE_EXPORT int panlite_run_batch(sqlite3_stmt *stmt, int width, int rows, const unsigned char *kinds,
                                     const i64 *cells, int cells_cap, const unsigned char *heap, int heap_cap,
                                     int want_changes, i64 *changes, i64 *rowids, int rows_cap, int *done) {
    sqlite3 *db = p_db_handle(stmt);
    if (width < 0 || rows < 0 || rows > rows_cap || cells_cap < 0 || (size_t)rows * (size_t)width > (size_t)cells_cap) {
        *done = 0;
        return PANLITE_SQLITE_MISUSE;
    }
    for (int r = 0; r < rows; r++) {
        const unsigned char *k = kinds + (size_t)r * width;
        const i64 *v = cells + (size_t)r * width;
        for (int i = 0; i < width; i++) {
            int rc;
            switch (k[i]) {
            case 2:
                rc = p_bind_int64(stmt, i + 1, v[i]);
                break;
            case 3: {
                double d;
                memcpy(&d, &v[i], sizeof d);
                rc = p_bind_double(stmt, i + 1, d);
                break;
            }
            case 4:
            case 5: {
                i64 offset = v[i] >> 32;
                i64 n = v[i] & 0xffffffff;
                if (offset < 0 || offset > heap_cap || n > heap_cap - offset) {
                    *done = r;
                    return PANLITE_SQLITE_MISUSE;
                }
                if (k[i] == 4) {
                    rc = p_bind_text(stmt, i + 1, (const char *)(heap + offset), (int)n, PANLITE_SQLITE_TRANSIENT);
                } else {
                    rc = p_bind_blob(stmt, i + 1, heap + offset, (int)n, PANLITE_SQLITE_TRANSIENT);
                }
                break;
            }
            default:
                rc = p_bind_null(stmt, i + 1);
                break;
            }
            if (rc != PANLITE_SQLITE_OK) {
                *done = r;
                return rc;
            }
        }
        int rc = p_step(stmt);
        while (rc == PANLITE_SQLITE_ROW) {
            rc = p_step(stmt);
        }
        if (rc != PANLITE_SQLITE_DONE) {
            *done = r;
            return rc;
        }
        p_reset(stmt);
        changes[r] = want_changes ? p_changes64(db) : 0;
        rowids[r] = p_last_insert_rowid(db);
    }
    *done = rows;
    return PANLITE_SQLITE_DONE;
}
