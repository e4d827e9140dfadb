/*
 * Physical-limit baseline: the JMH workloads (../src/main/java/dev/panlite/bench) done directly
 * against libsqlite3, no JVM. Same schema, same data, same SQL, same order of calls. Grown from the
 * project's shared/floor program: adds wideRow (ReadBench's 20-column result) and -cpu; ./bench
 * builds it against the SQLite bundled in the jar and prints it beside each workload.
 *
 *   make                      # bench_sys (system libsqlite3) [+ bench_amalg if an amalgamation is found]
 *   ./bench_sys [-d DIR] [-w WARMUP_ROUNDS] [-i ROUNDS] [-t SECONDS_PER_ROUND]
 *               [-nomutex] [-nomemstatus] [-cached] [-cpu] [-x SQL_RUN_AFTER_SETUP]
 *               [-vecdir DIR [-vec LOADABLE]] [workload ...]
 *
 * -threaded: start one idle thread first, so the process has more than one thread, as a JVM always
 * has. Linux then takes a reference on the file for every fcntl() (its single-threaded fast path is
 * gone): a point query's two WAL lock calls cost about 130 ns more (docs/experiments/052). The
 * default floor is single-threaded, as shared/floor is; this one is what a JVM driver can reach.
 *
 * -cpu: time with the process's CPU clock instead of the wall clock, for a machine whose other
 * load makes wall time useless (compare with a driver's CPU time, e.g. Interleaved).
 *
 * -cached: every statement (BEGIN and COMMIT included) is prepared once, persistently, and reset
 * after each use, as a driver with a statement cache and cached transaction statements does. This
 * is the lower bound for such a driver; without it the floor prepares where the workload does.
 *
 * -vecdir DIR: also VectorBench's workloads, knn, knnMmap and insertBatch (sqlite-vec, issue 30), on the
 * 100k-vector database cached in DIR (the file VectorBench builds; built here, from the same
 * generator, if it is missing). sqlite-vec is the library's own when it has it compiled in (the
 * engine bundled in Panlite's jar exports panlite_vec_init); -vec PATH loads a loadable build
 * instead (sqlite3_load_extension, entry point sqlite3_vec_init), for any other library.
 *
 * Each round runs one workload for SECONDS_PER_ROUND and yields ns/op; after the warmup rounds,
 * the mean over ROUNDS is printed with a 99.9% confidence half-width (Student t, like JMH's
 * "Error"), the min, and the ops counted. Write workloads empty the scratch table before each
 * round (outside the timing), like WriteBench's @Setup(Level.Iteration).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MONSTER_ROWS 1000

static const char *POINT_SQL = "SELECT id, name, hp, attack FROM monster WHERE id = ?";
static const char *ALL_SQL = "SELECT id, name, hp, attack FROM monster";
static const char *EXEC_SQL = "SELECT 1";
static const char *INSERT_SCRATCH = "INSERT INTO scratch(name, hp, attack) VALUES (?, ?, ?)";
static const char *HP_SQL = "SELECT hp FROM monster WHERE id = ?";
static const char *DELETE_LAST = "DELETE FROM scratch WHERE id = last_insert_rowid()";
#define WIDE_ROWS 100
static const char *WIDE_SQL =
    "SELECT id, i1, i2, i3, i4, l1, l2, l3, l4, d1, d2, d3, d4, t1, t2, t3, t4, b1, b2, n1 FROM wide";
static int cpu_clock; /* -cpu */

/* -threaded: a thread that only waits, for the life of the process. */
static void *idle_thread(void *arg) {
    for (;;) pause();
    return arg;
}

static sqlite3 *db;
static sqlite3_stmt *point_stmt; /* pointPrepared's statement, kept across ops */
static int cached;               /* -cached: statements prepared once, reset after each use */
#define NCACHE 16
static struct { const char *sql; sqlite3_stmt *st; } cache[NCACHE];
static char names[100][16];
static volatile int64_t sink;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static long counter;

static int random_id(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % MONSTER_ROWS) + 1;
}

static void die(const char *what, int rc) {
    fprintf(stderr, "%s failed: rc=%d (%s)\n", what, rc, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

static void exec(const char *sql) {
    char *err = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "exec %s: %s\n", sql, err ? err : "?");
        exit(1);
    }
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) die(sql, rc);
    return st;
}

/* Read the 4 columns; copy the text like a driver building a String would. */
/* The statement for sql: from the cache with -cached, freshly prepared otherwise. */
static sqlite3_stmt *take(const char *sql) {
    if (!cached) return prepare(sql);
    for (int i = 0; i < NCACHE; i++) {
        if (cache[i].sql == sql) return cache[i].st;
        if (!cache[i].sql) {
            int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &cache[i].st, NULL);
            if (rc != SQLITE_OK) die("prepare_v3", rc);
            cache[i].sql = sql;
            return cache[i].st;
        }
    }
    die("statement cache full", 0);
    return NULL;
}

/* Done with a statement from take(): reset (and clear) it with -cached, finalize it otherwise. */
static void give(sqlite3_stmt *st) {
    if (cached) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    } else {
        sqlite3_finalize(st);
    }
}

/* BEGIN or COMMIT: a cached statement with -cached, sqlite3_exec's prepare/step/finalize otherwise. */
static void control(const char *sql) {
    if (!cached) {
        exec(sql);
        return;
    }
    sqlite3_stmt *st = take(sql);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) die(sql, rc);
    sqlite3_reset(st);
}

static void read4(sqlite3_stmt *st) {
    char buf[64];
    int id = sqlite3_column_int(st, 0);
    const unsigned char *name = sqlite3_column_text(st, 1);
    int n = sqlite3_column_bytes(st, 1);
    if (n > (int)sizeof buf) n = sizeof buf;
    memcpy(buf, name, (size_t)n);
    int hp = sqlite3_column_int(st, 2);
    int attack = sqlite3_column_int(st, 3);
    sink += id + n + hp + attack + buf[0];
}

/* ------------------------------------------------------------------ workloads */

static void pointPrepared(void) {
    sqlite3_bind_int(point_stmt, 1, random_id());
    int rc = sqlite3_step(point_stmt);
    if (rc != SQLITE_ROW) die("pointPrepared step", rc);
    read4(point_stmt);
    sqlite3_reset(point_stmt);
}

static const char *BEGIN_SQL = "BEGIN";
static const char *COMMIT_SQL = "COMMIT";

static void pointAdHoc(void) {
    sqlite3_stmt *st = take(POINT_SQL);
    sqlite3_bind_int(st, 1, random_id());
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) die("pointAdHoc step", rc);
    read4(st);
    give(st);
}

static void execNoArgs(void) {
    sqlite3_stmt *st = take(EXEC_SQL);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) die("execNoArgs step", rc);
    give(st);
}

static void rows1000(void) {
    sqlite3_stmt *st = take(ALL_SQL);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        read4(st);
        n++;
    }
    if (rc != SQLITE_DONE || n != MONSTER_ROWS) die("rows1000", rc);
    give(st);
}

/* Copies a text or blob as a driver building a String or byte[] would (NULL: nothing). */
static long copy_bytes(sqlite3_stmt *st, int col, int text) {
    char buf[512];
    const void *p = text ? (const void *)sqlite3_column_text(st, col) : sqlite3_column_blob(st, col);
    int n = sqlite3_column_bytes(st, col);
    if (p == NULL) return 0;
    if (n > (int)sizeof buf) n = sizeof buf;
    memcpy(buf, p, (size_t)n);
    return n + buf[0];
}

/* ReadBench.wideRow: 100 rows of 20 mixed columns, each read with the call its JDBC getter needs. */
static void wideRow(void) {
    sqlite3_stmt *st = take(WIDE_SQL);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t s = 0;
        for (int c = 0; c < 5; c++) s += sqlite3_column_int(st, c);
        s += sqlite3_column_type(st, 4) == SQLITE_NULL; /* wasNull */
        for (int c = 5; c < 9; c++) s += sqlite3_column_int64(st, c);
        for (int c = 9; c < 13; c++) s += (int64_t)sqlite3_column_double(st, c);
        for (int c = 13; c < 17; c++) s += copy_bytes(st, c, 1);
        for (int c = 17; c < 19; c++) s += copy_bytes(st, c, 0);
        s += copy_bytes(st, 19, 1);
        s += sqlite3_column_type(st, 19) == SQLITE_NULL;
        sink += s;
        n++;
    }
    if (rc != SQLITE_DONE || n != WIDE_ROWS) die("wideRow", rc);
    give(st);
}

static void insert_row(sqlite3_stmt *st, int i) {
    sqlite3_bind_text(st, 1, names[i % 100], -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_int(st, 3, 2 * i);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) die("insert", rc);
}

static void batchInsert100Tx(void) {
    control(BEGIN_SQL);
    sqlite3_stmt *st = take(INSERT_SCRATCH);
    for (int i = 0; i < 100; i++) {
        insert_row(st, i);
        sqlite3_reset(st);
    }
    give(st);
    control(COMMIT_SQL);
}

static void singleInsertAutocommit(void) {
    sqlite3_stmt *st = take(INSERT_SCRATCH);
    insert_row(st, (int)(counter++ % 100000));
    give(st);
}

static void interactiveTx(void) {
    int id = random_id();
    int i = (int)(counter++ % 100000);
    control(BEGIN_SQL);
    sqlite3_stmt *st = take(INSERT_SCRATCH);
    insert_row(st, i);
    give(st);
    st = take(HP_SQL);
    sqlite3_bind_int(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) die("interactiveTx select", rc);
    int hp = sqlite3_column_int(st, 0);
    give(st);
    if ((hp & 1) == 0) {
        st = take(DELETE_LAST);
        rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) die("interactiveTx delete", rc);
        sink += sqlite3_changes(db);
        give(st);
    }
    control(COMMIT_SQL);
}

static void clear_scratch(void) { exec("DELETE FROM scratch"); }

/* ------------------------------------------------------------------ vectors (VectorBench) */

#define VEC_ROWS 100000
#define VEC_DIM 384
#define VEC_K 10
#define VEC_BATCH 100
#define QUERY_POOL 64
#define INSERT_POOL 1024
static const char *KNN_SQL = "SELECT rowid, distance FROM items WHERE embedding MATCH ? AND k = 10";
static const char *CREATE_ITEMS = "CREATE VIRTUAL TABLE items USING vec0(embedding float[384] distance_metric=cosine)";
static const char *INSERT_ITEM = "INSERT INTO items(rowid, embedding) VALUES (?, ?)";
static const char *CREATE_SCRATCH_VEC =
    "CREATE VIRTUAL TABLE scratch_vec USING vec0(embedding float[384] distance_metric=cosine)";
static const char *INSERT_SCRATCH_VEC = "INSERT INTO scratch_vec(embedding) VALUES (?)";
/* VectorBench's seeds of its three streams: the table, the query pool, the insert pool */
#define SEED_ITEMS 0x9E3779B97F4A7C15ULL
#define SEED_QUERIES 0xD1B54A32D192ED03ULL
#define SEED_INSERTS 0x8CB92BA72F3D8DD7ULL

static const char *vec_dir;      /* -vecdir: vector workloads on, the database cached there */
static const char *vec_loadable; /* -vec: load this sqlite-vec instead of the library's own */
static char vec_info[256];       /* version and where it came from, for the header line */
static sqlite3 *vdb;             /* the cached 100k-vector database, knn only reads it */
static sqlite3 *vdb_mmap;        /* the same, memory-mapped: knnMmap */
static sqlite3_stmt *knn_stmt, *knn_mmap_stmt;
#define MMAP_SIZE "268435456"    /* VectorBench.MMAP_SIZE */
static float query_pool[QUERY_POOL][VEC_DIM];
static float insert_pool[INSERT_POOL][VEC_DIM];
static unsigned vec_next;

/* VectorBench.Gen: xorshift64, each component the top 24 bits mapped exactly to [-1, 1) in float32 */
static float gen_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return (float)((int32_t)(x >> 40) - 8388608) / 8388608.0f;
}

static void gen_fill(uint64_t *s, float *v) {
    for (int i = 0; i < VEC_DIM; i++) v[i] = gen_next(s);
}

static void exec_on(sqlite3 *h, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "exec %s: %s\n", sql, err ? err : sqlite3_errmsg(h));
        exit(1);
    }
}

static int has_vec(sqlite3 *h) {
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(h, "SELECT vec_version()", -1, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

/* sqlite-vec on one connection: the loadable of -vec, else the one compiled into the library. */
static void vec_register(sqlite3 *h) {
    char *err = NULL;
    const char *how;
    if (vec_loadable) {
        sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL);
        if (sqlite3_load_extension(h, vec_loadable, "sqlite3_vec_init", &err) != SQLITE_OK) {
            fprintf(stderr, "loading sqlite-vec from %s: %s\n", vec_loadable, err ? err : "?");
            exit(1);
        }
        sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
        how = "loaded from -vec";
    } else {
        /* Panlite's bundled engine: sqlite-vec compiled in, registered per connection by the driver */
        int (*init)(sqlite3 *, char **) = (int (*)(sqlite3 *, char **))dlsym(RTLD_DEFAULT, "panlite_vec_init");
        if (init == NULL) {
            fprintf(stderr, "no sqlite-vec: this SQLite has none compiled in (no panlite_vec_init): give -vec PATH\n");
            exit(1);
        }
        if (init(h, &err) != SQLITE_OK) {
            fprintf(stderr, "panlite_vec_init: %s\n", err ? err : "?");
            exit(1);
        }
        how = "compiled into the library";
    }
    sqlite3_free(err);
    if (!has_vec(h)) die("vec_version() after registering sqlite-vec", 0);
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(h, "SELECT vec_version()", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        snprintf(vec_info, sizeof vec_info, "sqlite-vec %s (%s)", (const char *)sqlite3_column_text(st, 0), how);
    }
    sqlite3_finalize(st);
}

static void vec_pragmas(sqlite3 *h) {
    exec_on(h, "PRAGMA journal_mode=WAL");
    exec_on(h, "PRAGMA synchronous=NORMAL");
    exec_on(h, "PRAGMA busy_timeout=10000");
}

/* VectorBench.build: rowids 1..VEC_ROWS from the items stream, one transaction, into a temp file renamed when done */
static void build_vectors(const char *path, int flags) {
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.building-%d", path, (int)getpid());
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(tmp, &h, flags, NULL) != SQLITE_OK) {
        fprintf(stderr, "open %s: %s\n", tmp, sqlite3_errmsg(h));
        exit(1);
    }
    vec_register(h);
    vec_pragmas(h);
    exec_on(h, CREATE_ITEMS);
    exec_on(h, "BEGIN");
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, INSERT_ITEM, -1, &st, NULL) != SQLITE_OK) die(INSERT_ITEM, 0);
    uint64_t s = SEED_ITEMS;
    float v[VEC_DIM];
    for (int id = 1; id <= VEC_ROWS; id++) {
        gen_fill(&s, v);
        sqlite3_bind_int(st, 1, id);
        sqlite3_bind_blob(st, 2, v, (int)sizeof v, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) {
            fprintf(stderr, "building %s: %s\n", tmp, sqlite3_errmsg(h));
            exit(1);
        }
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec_on(h, "COMMIT");
    exec_on(h, "PRAGMA wal_checkpoint(TRUNCATE)");
    sqlite3_close(h);
    if (rename(tmp, path) != 0) {
        perror("rename");
        exit(1);
    }
}

static void setup_vectors(int flags) {
    char path[4200];
    /* VectorBench.vectorFileName */
    snprintf(path, sizeof path, "%s/items-n%d-d%d-cosine-g1.db", vec_dir, VEC_ROWS, VEC_DIM);
    if (access(path, F_OK) != 0) {
        mkdir(vec_dir, 0755);
        fprintf(stderr, "floor: building %s\n", path);
        build_vectors(path, flags);
    }
    sqlite3 **conns[] = {&vdb, &vdb_mmap};
    for (int i = 0; i < 2; i++) {
        if (sqlite3_open_v2(path, conns[i], flags, NULL) != SQLITE_OK) {
            fprintf(stderr, "open %s: %s\n", path, sqlite3_errmsg(*conns[i]));
            exit(1);
        }
        vec_register(*conns[i]);
        vec_pragmas(*conns[i]);
    }
    exec_on(vdb_mmap, "PRAGMA mmap_size=" MMAP_SIZE);
    vec_register(db);
    uint64_t s = SEED_QUERIES;
    for (int i = 0; i < QUERY_POOL; i++) gen_fill(&s, query_pool[i]);
    s = SEED_INSERTS;
    for (int i = 0; i < INSERT_POOL; i++) gen_fill(&s, insert_pool[i]);
}

/* VectorBench.knn: the query vector bound as a float32 blob, all 10 rows read */
static void knn_on(sqlite3 *h, sqlite3_stmt *st) {
    if (!cached && sqlite3_prepare_v2(h, KNN_SQL, -1, &st, NULL) != SQLITE_OK) die(KNN_SQL, 0);
    sqlite3_bind_blob(st, 1, query_pool[vec_next++ & (QUERY_POOL - 1)], VEC_DIM * (int)sizeof(float), SQLITE_STATIC);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        sink += sqlite3_column_int64(st, 0) + (int64_t)(sqlite3_column_double(st, 1) * 1e6);
        n++;
    }
    if (rc != SQLITE_DONE || n != VEC_K) die("knn", rc);
    if (cached) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    } else {
        sqlite3_finalize(st);
    }
}

static void knn(void) { knn_on(vdb, knn_stmt); }

/* VectorBench.knnMmap: knn on the connection with mmap_size set */
static void knnMmap(void) { knn_on(vdb_mmap, knn_mmap_stmt); }

/* VectorBench.insertBatch: 100 vectors in one transaction */
static void insertBatch(void) {
    control(BEGIN_SQL);
    sqlite3_stmt *st = take(INSERT_SCRATCH_VEC);
    for (int i = 0; i < VEC_BATCH; i++) {
        sqlite3_bind_blob(st, 1, insert_pool[vec_next++ & (INSERT_POOL - 1)], VEC_DIM * (int)sizeof(float), SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) die("insertBatch", rc);
        sqlite3_reset(st);
    }
    give(st);
    control(COMMIT_SQL);
}

/* A new, empty vec0 table before each round, as VectorBench's iterations */
static void fresh_scratch_vec(void) {
    exec("DROP TABLE IF EXISTS scratch_vec");
    exec(CREATE_SCRATCH_VEC);
}

struct workload {
    const char *name;
    void (*op)(void);
    void (*round_setup)(void);
    int vectors; /* needs -vecdir */
};

static const struct workload WORKLOADS[] = {
    {"pointPrepared", pointPrepared, NULL, 0},
    {"pointAdHoc", pointAdHoc, NULL, 0},
    {"execNoArgs", execNoArgs, NULL, 0},
    {"rows1000", rows1000, NULL, 0},
    {"wideRow", wideRow, NULL, 0},
    {"batchInsert100Tx", batchInsert100Tx, clear_scratch, 0},
    {"singleInsertAutocommit", singleInsertAutocommit, clear_scratch, 0},
    {"interactiveTx", interactiveTx, clear_scratch, 0},
    {"knn", knn, NULL, 1},
    {"knnMmap", knnMmap, NULL, 1},
    {"insertBatch", insertBatch, fresh_scratch_vec, 1},
};
#define NWORKLOADS (sizeof WORKLOADS / sizeof WORKLOADS[0])

/* ------------------------------------------------------------------ timing */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* two-sided 99.9% Student t quantiles, df = 1..30 */
static const double T999[] = {0,      636.619, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041,
                              4.781,  4.587,   4.437,  4.318,  4.221, 4.140, 4.073, 4.015, 3.965,
                              3.922,  3.883,   3.850,  3.819,  3.792, 3.768, 3.745, 3.725, 3.707,
                              3.690,  3.674,   3.659,  3.646};

static void run(const struct workload *w, int warmup, int rounds, double secs) {
    double est = 0; /* ns/op estimate, to size the chunks between clock reads */
    double *res = calloc((size_t)rounds, sizeof *res);
    long total_ops = 0;
    for (int r = 0; r < warmup + rounds; r++) {
        if (w->round_setup) w->round_setup();
        long chunk = est > 0 ? (long)(20000.0 / est) : 1; /* ~20 us between clock reads */
        if (chunk < 1) chunk = 1;
        long n = 0;
        double t0 = now_ns(), t;
        do {
            for (long k = 0; k < chunk; k++) w->op();
            n += chunk;
            t = now_ns();
        } while (t - t0 < secs * 1e9);
        double nsop = (t - t0) / (double)n;
        est = nsop;
        if (r >= warmup) {
            res[r - warmup] = nsop;
            total_ops += n;
        }
    }
    double mean = 0, min = res[0];
    for (int i = 0; i < rounds; i++) {
        mean += res[i];
        if (res[i] < min) min = res[i];
    }
    mean /= rounds;
    double var = 0;
    for (int i = 0; i < rounds; i++) var += (res[i] - mean) * (res[i] - mean);
    double sd = rounds > 1 ? sqrt(var / (rounds - 1)) : 0;
    double t = rounds > 1 ? T999[rounds - 1 <= 30 ? rounds - 1 : 30] : 0;
    double err = t * sd / sqrt((double)rounds);
    printf("%-24s %14.1f ± %10.1f ns/op   (min %12.1f, sd %9.1f, %d rounds, %ld ops)\n", w->name, mean, err,
           min, sd, rounds, total_ops);
    fflush(stdout);
    free(res);
}

/* ------------------------------------------------------------------ setup */

/* ReadBench.createWide's table and rows, value for value. */
static void setup_wide(void) {
    exec("CREATE TABLE wide(id INTEGER PRIMARY KEY, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER,"
         " l1 INTEGER, l2 INTEGER, l3 INTEGER, l4 INTEGER, d1 REAL, d2 REAL, d3 REAL, d4 REAL,"
         " t1 TEXT, t2 TEXT, t3 TEXT, t4 TEXT, b1 BLOB, b2 BLOB, n1 TEXT)");
    sqlite3_stmt *st = prepare("INSERT INTO wide VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    char x100[101];
    memset(x100, 'x', 100);
    x100[100] = 0;
    for (int r = 1; r <= WIDE_ROWS; r++) {
        char t[3][80], b1[40];
        unsigned char b2[256];
        int p = 1;
        sqlite3_bind_int(st, p++, r);
        sqlite3_bind_int(st, p++, r * 3);
        sqlite3_bind_int(st, p++, -r);
        sqlite3_bind_int(st, p++, r * 1000003);
        if (r % 5 == 0) sqlite3_bind_null(st, p++);
        else sqlite3_bind_int(st, p++, r % 7);
        sqlite3_bind_int64(st, p++, 10000000000LL + r);
        sqlite3_bind_int64(st, p++, -7000000000000LL * r);
        sqlite3_bind_int64(st, p++, INT64_MAX - r);
        sqlite3_bind_int64(st, p++, (int64_t)r << 40);
        sqlite3_bind_double(st, p++, r * 0.5);
        sqlite3_bind_double(st, p++, 3.141592653589793 * r);
        sqlite3_bind_double(st, p++, -1e300 / r);
        sqlite3_bind_double(st, p++, 1.0 / (r + 1));
        snprintf(t[0], sizeof t[0], "name-%d", r);
        snprintf(t[1], sizeof t[1], "a somewhat longer ASCII text value for row %d", r);
        snprintf(t[2], sizeof t[2], "Ünïcødé ✓ 行 %d", r);
        for (int k = 0; k < 3; k++) sqlite3_bind_text(st, p++, t[k], -1, SQLITE_TRANSIENT);
        if (r % 3 == 0) sqlite3_bind_null(st, p++);
        else sqlite3_bind_text(st, p++, x100, 100, SQLITE_TRANSIENT);
        int n = snprintf(b1, sizeof b1, "blob-%d-0123456", r);
        sqlite3_bind_blob(st, p++, b1, n, SQLITE_TRANSIENT);
        for (int i = 0; i < 256; i++) b2[i] = (unsigned char)(i + r);
        sqlite3_bind_blob(st, p++, b2, 256, SQLITE_TRANSIENT);
        sqlite3_bind_null(st, p++);
        int rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) die("populate wide", rc);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
}

static void setup_db(const char *path, int flags) {
    int rc = sqlite3_open_v2(path, &db, flags, NULL);
    if (rc != SQLITE_OK) die("open", rc);
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA busy_timeout=10000");
    exec("CREATE TABLE monster(id INTEGER PRIMARY KEY, name TEXT, hp INTEGER, attack INTEGER)");
    exec("CREATE TABLE scratch(id INTEGER PRIMARY KEY, name TEXT, hp INTEGER, attack INTEGER)");
    exec("BEGIN");
    sqlite3_stmt *st = prepare("INSERT INTO monster(id, name, hp, attack) VALUES (?, ?, ?, ?)");
    for (int id = 1; id <= MONSTER_ROWS; id++) {
        char name[32];
        snprintf(name, sizeof name, "monster-%d", id);
        sqlite3_bind_int(st, 1, id);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, 100 + (id * 7919) % 900);
        sqlite3_bind_int(st, 4, 10 + (id * 104729) % 90);
        if ((rc = sqlite3_step(st)) != SQLITE_DONE) die("populate", rc);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    setup_wide();
    exec("COMMIT");
    point_stmt = prepare(POINT_SQL);
}

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [-d DIR] [-w WARMUP] [-i ROUNDS] [-t SECONDS] [-nomutex] [-nomemstatus] [-cached] [-cpu] [-threaded] [-x SQL]\n"
            "          [-vecdir DIR [-vec LOADABLE]] [workload ...]\n"
            "workloads (knn, knnMmap and insertBatch with -vecdir):",
            argv0);
    for (size_t i = 0; i < NWORKLOADS; i++) fprintf(stderr, " %s", WORKLOADS[i].name);
    fprintf(stderr, "\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    int warmup = 2, rounds = 5;
    double secs = 1.0;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int nomemstatus = 0;
    const char *only[32];
    int nonly = 0;
    const char *extra_sql = NULL;
    int threaded = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc) base = argv[++i];
        else if (!strcmp(argv[i], "-w") && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-i") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) secs = atof(argv[++i]);
        else if (!strcmp(argv[i], "-nomutex")) flags |= SQLITE_OPEN_NOMUTEX;
        else if (!strcmp(argv[i], "-nomemstatus")) nomemstatus = 1;
        else if (!strcmp(argv[i], "-cached")) cached = 1;
        else if (!strcmp(argv[i], "-cpu")) cpu_clock = 1;
        else if (!strcmp(argv[i], "-threaded")) threaded = 1;
        else if (!strcmp(argv[i], "-x") && i + 1 < argc) extra_sql = argv[++i];
        else if (!strcmp(argv[i], "-vecdir") && i + 1 < argc) vec_dir = argv[++i];
        else if (!strcmp(argv[i], "-vec") && i + 1 < argc) vec_loadable = argv[++i];
        else if (argv[i][0] == '-') usage(argv[0]);
        else if (nonly < 32) only[nonly++] = argv[i];
    }
    if (rounds < 1) rounds = 1;
    pthread_t idle;
    if (threaded && pthread_create(&idle, NULL, idle_thread, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    if (nomemstatus && sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK) {
        fprintf(stderr, "sqlite3_config(MEMSTATUS, 0) failed\n");
        return 1;
    }
    for (int i = 0; i < 100; i++) snprintf(names[i], sizeof names[i], "scratch-%d", i);

    char dir[4096];
    snprintf(dir, sizeof dir, "%s/sqlite-c-bench-XXXXXX", base);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/bench.db", dir);
    setup_db(path, flags);
    if (extra_sql) exec(extra_sql);
    if (vec_dir) {
        setup_vectors(flags);
        if (cached && (sqlite3_prepare_v3(vdb, KNN_SQL, -1, SQLITE_PREPARE_PERSISTENT, &knn_stmt, NULL) != SQLITE_OK
                       || sqlite3_prepare_v3(vdb_mmap, KNN_SQL, -1, SQLITE_PREPARE_PERSISTENT, &knn_mmap_stmt, NULL) != SQLITE_OK)) {
            die(KNN_SQL, 0);
        }
    }

    printf("# SQLite %s (%s), threadsafe=%d, open flags 0x%x%s%s%s%s%s%s%s%s, %d warmup + %d rounds x %.2f s, db %s\n",
           sqlite3_libversion(), sqlite3_sourceid(), sqlite3_threadsafe(), flags,
           nomemstatus ? ", MEMSTATUS off" : "", cached ? ", statements cached" : "", cpu_clock ? ", CPU time" : "", threaded ? ", threaded" : "",
           extra_sql ? ", extra SQL: " : "", extra_sql ? extra_sql : "", vec_dir ? ", " : "", vec_dir ? vec_info : "",
           warmup, rounds, secs, path);
    fflush(stdout);
    for (size_t i = 0; i < NWORKLOADS; i++) {
        int selected = nonly == 0;
        for (int k = 0; k < nonly; k++) selected |= !strcmp(only[k], WORKLOADS[i].name);
        if (selected && WORKLOADS[i].vectors && !vec_dir) {
            if (nonly > 0) printf("# %s: not run, it needs -vecdir (sqlite-vec's database)\n", WORKLOADS[i].name);
            continue;
        }
        if (selected) run(&WORKLOADS[i], warmup, rounds, secs);
    }

    sqlite3_finalize(point_stmt);
    sqlite3_finalize(knn_stmt);
    sqlite3_finalize(knn_mmap_stmt);
    if (vdb) sqlite3_close(vdb);
    if (vdb_mmap) sqlite3_close(vdb_mmap);
    for (int i = 0; i < NCACHE; i++) sqlite3_finalize(cache[i].st);
    sqlite3_close(db);
    char f[4300];
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (int k = 0; k < 4; k++) {
        snprintf(f, sizeof f, "%s%s", path, suffixes[k]);
        unlink(f);
    }
    rmdir(dir);
    return 0;
}
