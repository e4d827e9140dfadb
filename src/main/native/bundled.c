/*
 * The engine bundled in the jar (build-sqlite.sh): SQLite's amalgamation and the native helper in
 * one translation unit, so the helper's calls into SQLite are direct and the small ones are inlined
 * (panlite_helper.c, PANLITE_LINKED; docs/experiments/051).
 */
#include "sqlite3.c"
#define PANLITE_LINKED 1
#include "panlite_helper.c"
