/*
 * The engine bundled in the jar (build-sqlite.sh): SQLite's amalgamation and the native helper in
 * one translation unit, so the helper's calls into SQLite are direct and the small ones are inlined
 * (panlite_helper.c, PANLITE_LINKED; docs/experiments/051), and sqlite-vec (vector search) compiled
 * against that very SQLite.
 */
#include "sqlite3.c"
#define PANLITE_LINKED 1
#include "panlite_helper.c"

/*
 * sqlite-vec, from the crates.io package sqlite-vec (build-sqlite.sh checks its files and version).
 * SQLITE_CORE (set by sqlite3.c above) makes it call SQLite's functions directly, not through the
 * routine table of a loadable extension. SQLITE_VEC_OMIT_FS leaves out vec_npy_file, which reads a
 * file named in SQL (registered by an entry point Panlite never calls). No SIMD flag:
 * SQLITE_VEC_ENABLE_AVX has no run-time check, so the library would die of SIGILL on an x86_64
 * without AVX; the portable loops run everywhere.
 */
#define SQLITE_VEC_OMIT_FS 1
/*
 * Nothing of sqlite-vec is exported: it has global functions with names as common as array_append
 * and is_digit, which must neither clash with nor be taken for another library's. Windows exports
 * only what is declared so (SQLITE_VEC_STATIC: not its entry points); elsewhere its definitions are
 * hidden, the C library's headers it includes being declared first, outside the hidden region.
 * Panlite reaches it through panlite_vec_init below.
 */
#define SQLITE_VEC_STATIC 1
#include <assert.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* Its u64 is uint64_t, unsigned long on LP64 Linux where SQLite's u64 is unsigned long long: inside
 * sqlite-vec.c the name is its own. */
#define u64 sqlite_vec_u64
/* Its Hamming distance counts the bits of a 64-bit word with __builtin_popcountl, whose argument is
 * an unsigned long: 32 bits on Windows (LLP64), where it would drop the high half. The long long
 * builtin is 64 bits everywhere (MSVC, which sqlite-vec maps to __popcnt64, does not build this). */
#if !defined(_MSC_VER)
#define __builtin_popcountl __builtin_popcountll
#endif
/*
 * Its JSON vectors ('[1.5, 2]') are read with strtod, which follows the process's LC_NUMERIC: the
 * JVM sets that from the environment, and under a locale whose decimal mark is a comma (de_DE)
 * strtod stops at the '.' of 1.5 (an error) and reads '[1,5]' as the one number 1.5. SQLite's own
 * conversion (sqlite3AtoF, what CAST uses) reads the number here instead, the same in every locale.
 * strtod's contract is kept where sqlite-vec relies on it: *end past the number, or at z when there
 * is none; ERANGE for a value beyond a double's range either way. JSON has no nan, inf or hex: they
 * are not numbers here (the C library's strtod accepts them).
 */
static double panlite_vec_strtod(const char *z, char **end) {
    const char *start = z, *stop;
    char small[64], *text = small;
    double value = 0.0;
    size_t n;
    int rc;
    *end = (char *)z;
    while (*start == ' ' || (*start >= '\t' && *start <= '\r')) start++; /* as strtod, isspace in "C" */
    for (stop = start; (*stop >= '0' && *stop <= '9') || *stop == '.' || *stop == '-' || *stop == '+'
            || *stop == 'e' || *stop == 'E'; stop++) {
    }
    n = (size_t)(stop - start);
    if (n == 0) return 0.0;
    if (n >= sizeof small && (text = sqlite3_malloc64(n + 1)) == 0) {
        errno = ENOMEM; /* with 0.0: sqlite-vec reports a parsing error */
        return 0.0;
    }
    memcpy(text, start, n);
    text[n] = 0;
    rc = sqlite3AtoF(text, &value); /* positive: all of it is one number; bit 2: exactly zero */
    if (text != small) sqlite3_free(text);
    if (rc <= 0) return 0.0;
    *end = (char *)stop;
    if (value > DBL_MAX || value < -DBL_MAX || (value == 0.0 && (rc & 4) == 0)) errno = ERANGE;
    return value;
}
#define strtod panlite_vec_strtod
/*
 * sqlite-vec 0.1.9's vec0_get_chunk_position (how a KNN or a scan finds a row's vector) prepares its
 * statement at first use, and when that prepare fails goes to its cleanup with the statement still
 * NULL and calls sqlite3_clear_bindings on it, which dereferences it: SIGSEGV. It fails whenever an
 * interrupt is pending (Statement.cancel, a query timeout, a close or abort from another thread
 * while the query runs: the parser stops with SQLITE_INTERRUPT), or memory runs out. Inside
 * sqlite-vec.c a NULL statement is left alone, as its other cleanups check themselves
 * (VectorLifetimeTest.anInterruptBeforeSqliteVecPreparesItsLookupIsAnSqlException).
 */
static int panlite_vec_clear_bindings(sqlite3_stmt *stmt) {
    return stmt == 0 ? SQLITE_OK : sqlite3_clear_bindings(stmt);
}
#define sqlite3_clear_bindings panlite_vec_clear_bindings
#undef min /* MinGW's stdlib.h has one too; sqlite-vec defines its own, the same */
#if !defined(_WIN32)
#pragma GCC visibility push(hidden)
#endif
#include "sqlite-vec.c"
#if !defined(_WIN32)
#pragma GCC visibility pop
#endif
#undef strtod
#undef sqlite3_clear_bindings
#undef __builtin_popcountl
#undef u64

/* The sqlite-vec version compiled in ("v0.1.9"), for the line the driver logs when it loads. */
PANLITE_EXPORT const char *panlite_vec_version(void) {
    return SQLITE_VEC_VERSION;
}

/*
 * Registers sqlite-vec's functions and modules (vec0, vec_each) on one connection; the driver calls
 * it at open when vector_search is on. sqlite3_vec_init's last argument is the routine table a
 * loadable extension gets: unused in this build (SQLITE_CORE), so the driver does not look for
 * sqlite3_vec_init itself, which a library built as an extension would need called with one. Its
 * other entry point, sqlite3_vec_static_blobs_init (tables over raw memory that SQL names, abort()
 * when full), is never called.
 */
PANLITE_EXPORT int panlite_vec_init(sqlite3 *db, char **error) {
    return sqlite3_vec_init(db, error, 0);
}
