/*
 * faultvfs: a fault-injecting SQLite VFS for Panlite's tests (issue 29). Test code: compiled by
 * src/test/native/build-faultvfs.sh into the build folder, never into the driver's jar.
 *
 * A shim over the platform's default VFS, registered under the name "faultvfs" (a connection
 * chooses it with vfs=faultvfs in a file: URI). It is a loadable extension: sqlite3_extension_init
 * registers it with whatever engine loaded it (Panlite's bundled or system SQLite, libSQL, the
 * incumbent's), through that engine's sqlite3_api_routines. It never links sqlite3 symbols itself.
 *
 * Java drives it through FFM (dev.panlite.fault.FaultVfs), with the faultvfs_* functions below:
 *   - counts of calls by kind (FV_OPEN ... FV_ACCESS), so a sweep knows a workload's points;
 *   - one armed fault: the Nth call of a kind (counted from the arming) fails, once or from then on,
 *     with the SQLite error code chosen (0: the SQLITE_IOERR_* the default VFS itself returns for
 *     that call), a short read (FV_SHORT_READ) or a power cut (FV_POWER_CUT). A failed call does
 *     nothing, except an unlock, which still unlocks (SQLite ignores unlock errors and forgets the
 *     lock; no real unlock fails and keeps it);
 *   - power loss: every file's writes since its last sync are recorded (the content each sector held
 *     at that sync); a cut makes every later call fail without I/O ("dead") until
 *     faultvfs_power_restore, once every handle is closed, drops the unsynced writes or keeps a seeded
 *     random subset of their sectors (torn at FV_SECTOR bytes). Creating and deleting a file are
 *     durable at once, as in SQLite's own crash test. faultvfs_real_sync(0) records syncs without
 *     waiting for the disk (the cuts are simulated from the record);
 *   - allocations: a wrapper of SQLite's allocator (installed by the test with
 *     sqlite3_config(SQLITE_CONFIG_MALLOC) before the engine initialises) that fails the Nth
 *     allocation, once or from then on.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FV_EXPORT __attribute__((visibility("default")))

/* The kinds of call, as dev.panlite.fault.FaultVfs.Kind numbers them. */
enum {
    FV_OPEN, FV_READ, FV_WRITE, FV_TRUNCATE, FV_SYNC, FV_FILE_SIZE, FV_LOCK, FV_UNLOCK,
    FV_CHECK_RESERVED_LOCK, FV_SHM_MAP, FV_SHM_LOCK, FV_DELETE, FV_ACCESS, FV_KINDS
};

/* Errors other than an SQLite code (0 is "the code SQLite's own VFS returns for this call"). */
#define FV_SHORT_READ (-1)
#define FV_POWER_CUT (-2)

/* What a cut leaves of the writes since each file's last sync (faultvfs_power_restore). */
#define FV_KEEP_ALL 0   /* the process died, the operating system wrote everything */
#define FV_DROP_ALL 1   /* nothing written since the last sync reached the disk */
#define FV_TORN 2       /* a seeded random subset of the sectors written reached it */

#define FV_SECTOR 512

static const int DEFAULT_ERROR[FV_KINDS] = {
    SQLITE_CANTOPEN, SQLITE_IOERR_READ, SQLITE_IOERR_WRITE, SQLITE_IOERR_TRUNCATE, SQLITE_IOERR_FSYNC,
    SQLITE_IOERR_FSTAT, SQLITE_IOERR_LOCK, SQLITE_IOERR_UNLOCK, SQLITE_IOERR_CHECKRESERVEDLOCK,
    SQLITE_IOERR_SHMMAP, SQLITE_IOERR_SHMLOCK, SQLITE_IOERR_DELETE, SQLITE_IOERR_ACCESS};

/* ------------------------------------------------------------------ the armed fault and the counts */

static long long counts[FV_KINDS];
static int armed_kind = -1;
static long long armed_at;        /* the value of counts[armed_kind] at which it fires */
static int armed_persistent;
static int armed_error;
static long long fired;
static int dead;                  /* after a power cut: every call fails, no I/O */

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

/* Counts a call of kind k; the error to return instead of doing it, or 0 to do it. */
static int fault(int k) {
    int error = 0;
    pthread_mutex_lock(&mutex);
    long long n = ++counts[k];
    if (dead) {
        error = DEFAULT_ERROR[k];
    } else if (armed_kind == k && (n == armed_at || (armed_persistent && n > armed_at))) {
        fired++;
        if (armed_error == FV_POWER_CUT) {
            dead = 1;
            error = DEFAULT_ERROR[k];
        } else {
            error = armed_error == 0 ? DEFAULT_ERROR[k] : armed_error;
        }
    }
    pthread_mutex_unlock(&mutex);
    return error;
}

static int is_dead(void) {
    pthread_mutex_lock(&mutex);
    int d = dead;
    pthread_mutex_unlock(&mutex);
    return d;
}

/* ------------------------------------------------------------------ power loss: writes since the last sync */

/*
 * One per file path (a sync through any handle flushes the file, so the record is the file's, not
 * a handle's). While dirty: the size at the last sync and, for each sector below it written or cut
 * since, the content it held then.
 */
typedef struct Track {
    char *path;
    int handles;
    int dirty;
    sqlite3_int64 synced_size;
    int *slot;          /* sector -> 1 + index into pre, 0: unchanged since the sync */
    int nslot;
    unsigned char *pre; /* FV_SECTOR bytes each */
    int npre, cappre;
    struct Track *next;
} Track;

static Track *tracks;
static int real_sync = 1; /* 0: a sync is recorded, not passed on (the sweeps: a cut is simulated, fsync costs) */
static int recording;
static int out_of_memory_in_record; /* the record could not grow: a restore refuses rather than lie */

static Track *track_for(const char *path) {
    for (Track *t = tracks; t; t = t->next) {
        if (strcmp(t->path, path) == 0) {
            return t;
        }
    }
    Track *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return NULL;
    }
    t->next = tracks;
    tracks = t;
    return t;
}

static void track_clean(Track *t) {
    t->dirty = 0;
    free(t->slot);
    free(t->pre);
    t->slot = NULL;
    t->pre = NULL;
    t->nslot = t->npre = t->cappre = 0;
}

typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real; /* the default VFS's file, right after this struct */
    Track *track;       /* NULL for a file without a name (a temporary file) */
} FaultFile;

/* Saves sector s's content at the last sync, if not saved yet. Mutex held. */
static void save_sector(FaultFile *f, Track *t, sqlite3_int64 s) {
    if (s * FV_SECTOR >= t->synced_size) {
        return; /* past the synced end: it did not exist then */
    }
    if (s >= t->nslot) {
        int n = t->nslot ? t->nslot : 64;
        while (n <= s) {
            n *= 2;
        }
        int *grown = realloc(t->slot, (size_t) n * sizeof *grown);
        if (!grown) {
            out_of_memory_in_record = 1;
            return;
        }
        memset(grown + t->nslot, 0, (size_t) (n - t->nslot) * sizeof *grown);
        t->slot = grown;
        t->nslot = n;
    }
    if (t->slot[s]) {
        return;
    }
    if (t->npre == t->cappre) {
        int n = t->cappre ? t->cappre * 2 : 16;
        unsigned char *grown = realloc(t->pre, (size_t) n * FV_SECTOR);
        if (!grown) {
            out_of_memory_in_record = 1;
            return;
        }
        t->pre = grown;
        t->cappre = n;
    }
    unsigned char *p = t->pre + (size_t) t->npre * FV_SECTOR;
    /* a short read zero-fills: what lies past the end of the file reads as zeros */
    int rc = f->real->pMethods->xRead(f->real, p, FV_SECTOR, s * FV_SECTOR);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
        out_of_memory_in_record = 1; /* cannot know the old content: the restore refuses */
        return;
    }
    t->slot[s] = ++t->npre;
}

/* Before a write or truncate of f changes [from, to): record what the last sync left there. */
static void before_change(FaultFile *f, sqlite3_int64 from, sqlite3_int64 to) {
    Track *t = f->track;
    if (!t) {
        return;
    }
    pthread_mutex_lock(&mutex);
    if (recording) {
        if (!t->dirty) {
            sqlite3_int64 size = 0;
            if (f->real->pMethods->xFileSize(f->real, &size) != SQLITE_OK) {
                out_of_memory_in_record = 1;
            }
            t->dirty = 1;
            t->synced_size = size;
        }
        if (to > t->synced_size) {
            to = t->synced_size;
        }
        for (sqlite3_int64 s = from / FV_SECTOR; s * FV_SECTOR < to; s++) {
            save_sector(f, t, s);
        }
    }
    pthread_mutex_unlock(&mutex);
}

/* ------------------------------------------------------------------ the file methods */

static sqlite3_vfs *real_vfs;

static int fv_close(sqlite3_file *file) {
    FaultFile *f = (FaultFile *) file;
    int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    if (f->track) {
        pthread_mutex_lock(&mutex);
        f->track->handles--;
        pthread_mutex_unlock(&mutex);
    }
    return rc;
}

static int fv_read(sqlite3_file *file, void *buf, int n, sqlite3_int64 off) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_READ);
    if (error == FV_SHORT_READ) {
        /* as a read that met the end of the file half way: SQLite's VFS contract zero-fills the rest */
        int rc = f->real->pMethods->xRead(f->real, buf, n, off);
        if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
            return rc;
        }
        memset((char *) buf + n / 2, 0, (size_t) (n - n / 2));
        return SQLITE_IOERR_SHORT_READ;
    }
    if (error) {
        return error;
    }
    return f->real->pMethods->xRead(f->real, buf, n, off);
}

static int fv_write(sqlite3_file *file, const void *buf, int n, sqlite3_int64 off) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_WRITE);
    if (error) {
        return error;
    }
    before_change(f, off, off + n);
    return f->real->pMethods->xWrite(f->real, buf, n, off);
}

static int fv_truncate(sqlite3_file *file, sqlite3_int64 size) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_TRUNCATE);
    if (error) {
        return error;
    }
    before_change(f, size, (sqlite3_int64) 1 << 62);
    return f->real->pMethods->xTruncate(f->real, size);
}

static int fv_sync(sqlite3_file *file, int flags) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_SYNC);
    if (error) {
        return error;
    }
    int rc = real_sync ? f->real->pMethods->xSync(f->real, flags) : SQLITE_OK;
    if (rc == SQLITE_OK && f->track) {
        pthread_mutex_lock(&mutex);
        if (!dead) { /* a cut during the sync: it did not complete */
            track_clean(f->track);
        }
        pthread_mutex_unlock(&mutex);
    }
    return rc;
}

static int fv_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_FILE_SIZE);
    if (error) {
        return error;
    }
    return f->real->pMethods->xFileSize(f->real, size);
}

static int fv_lock(sqlite3_file *file, int level) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_LOCK);
    return error ? error : f->real->pMethods->xLock(f->real, level);
}

static int fv_unlock(sqlite3_file *file, int level) {
    FaultFile *f = (FaultFile *) file;
    /* after a cut, unlocking is not I/O: the handle is on its way to being closed */
    if (is_dead()) {
        return f->real->pMethods->xUnlock(f->real, level);
    }
    /*
     * A failed unlock still unlocks: SQLite ignores unlock errors and forgets the lock, so a lock
     * kept would be held for good by a connection that no longer knows it (no real fcntl unlock fails so).
     */
    int error = fault(FV_UNLOCK);
    int rc = f->real->pMethods->xUnlock(f->real, level);
    return error ? error : rc;
}

static int fv_check_reserved_lock(sqlite3_file *file, int *out) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_CHECK_RESERVED_LOCK);
    if (error) {
        *out = 0;
        return error;
    }
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int fv_file_control(sqlite3_file *file, int op, void *arg) {
    FaultFile *f = (FaultFile *) file;
    if (is_dead()) {
        return SQLITE_NOTFOUND; /* some file controls write (size hints, chunk sizes): none after a cut */
    }
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int fv_sector_size(sqlite3_file *file) {
    FaultFile *f = (FaultFile *) file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int fv_device_characteristics(sqlite3_file *file) {
    FaultFile *f = (FaultFile *) file;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

static int fv_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
    FaultFile *f = (FaultFile *) file;
    int error = fault(FV_SHM_MAP);
    if (error) {
        *out = NULL;
        return error;
    }
    return f->real->pMethods->xShmMap(f->real, region, size, extend, out);
}

static int fv_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    FaultFile *f = (FaultFile *) file;
    if ((flags & SQLITE_SHM_UNLOCK) && is_dead()) {
        return f->real->pMethods->xShmLock(f->real, offset, n, flags);
    }
    int error = fault(FV_SHM_LOCK);
    if (error && (flags & SQLITE_SHM_UNLOCK)) {
        f->real->pMethods->xShmLock(f->real, offset, n, flags); /* as a failed xUnlock: released all the same */
        return error;
    }
    return error ? error : f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void fv_shm_barrier(sqlite3_file *file) {
    FaultFile *f = (FaultFile *) file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int fv_shm_unmap(sqlite3_file *file, int delete_flag) {
    FaultFile *f = (FaultFile *) file;
    /* after a cut the -shm file stays, as after a real one */
    return f->real->pMethods->xShmUnmap(f->real, is_dead() ? 0 : delete_flag);
}

/* Version 2: no xFetch, so SQLite never reads the file through a memory map the shim cannot see. */
static const sqlite3_io_methods fault_io = {
    2, fv_close, fv_read, fv_write, fv_truncate, fv_sync, fv_file_size, fv_lock, fv_unlock,
    fv_check_reserved_lock, fv_file_control, fv_sector_size, fv_device_characteristics,
    fv_shm_map, fv_shm_lock, fv_shm_barrier, fv_shm_unmap, NULL, NULL};

/* ------------------------------------------------------------------ the VFS methods */

static int fv_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void) vfs;
    FaultFile *f = (FaultFile *) file;
    f->real = (sqlite3_file *) &f[1];
    f->track = NULL;
    file->pMethods = NULL;
    int error = fault(FV_OPEN);
    if (error) {
        return error;
    }
    int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK && !f->real->pMethods) {
        return rc; /* nothing to close */
    }
    if (name) {
        pthread_mutex_lock(&mutex);
        f->track = track_for(name);
        if (f->track) {
            f->track->handles++;
        }
        pthread_mutex_unlock(&mutex);
    }
    file->pMethods = &fault_io; /* also on an error that left the real file open: SQLite closes it */
    return rc;
}

static int fv_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void) vfs;
    int error = fault(FV_DELETE);
    if (error) {
        return error;
    }
    int rc = real_vfs->xDelete(real_vfs, name, sync_dir);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&mutex);
        for (Track *t = tracks; t; t = t->next) {
            if (strcmp(t->path, name) == 0) {
                track_clean(t); /* a delete is durable: nothing of it to restore */
            }
        }
        pthread_mutex_unlock(&mutex);
    }
    return rc;
}

static int fv_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void) vfs;
    int error = fault(FV_ACCESS);
    if (error) {
        *out = 0;
        return error;
    }
    return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int fv_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out) {
    (void) vfs;
    return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static void *fv_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void) vfs;
    return real_vfs->xDlOpen(real_vfs, name);
}

static void fv_dl_error(sqlite3_vfs *vfs, int n, char *out) {
    (void) vfs;
    real_vfs->xDlError(real_vfs, n, out);
}

static void (*fv_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void) vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}

static void fv_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void) vfs;
    real_vfs->xDlClose(real_vfs, handle);
}

static int fv_randomness(sqlite3_vfs *vfs, int n, char *out) {
    (void) vfs;
    return real_vfs->xRandomness(real_vfs, n, out);
}

static int fv_sleep(sqlite3_vfs *vfs, int micros) {
    (void) vfs;
    return real_vfs->xSleep(real_vfs, micros);
}

static int fv_current_time(sqlite3_vfs *vfs, double *out) {
    (void) vfs;
    return real_vfs->xCurrentTime(real_vfs, out);
}

static int fv_get_last_error(sqlite3_vfs *vfs, int n, char *out) {
    (void) vfs;
    return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, n, out) : 0;
}

static int fv_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void) vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

static sqlite3_vfs fault_vfs;

/* Registers "faultvfs" over the engine's default VFS, once; SQLITE_OK if it is registered. */
static int register_vfs(void) {
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&once);
    if (!real_vfs) {
        sqlite3_vfs *below = sqlite3_vfs_find(NULL);
        if (!below || below->iVersion < 2) {
            rc = SQLITE_ERROR;
        } else {
            sqlite3_vfs v = {
                2, (int) sizeof(FaultFile) + below->szOsFile, below->mxPathname, NULL, "faultvfs", NULL,
                fv_open, fv_delete, fv_access, fv_full_pathname, fv_dl_open, fv_dl_error, fv_dl_sym,
                fv_dl_close, fv_randomness, fv_sleep, fv_current_time, fv_get_last_error,
                fv_current_time_int64, NULL, NULL, NULL};
            fault_vfs = v;
            real_vfs = below;
            rc = sqlite3_vfs_register(&fault_vfs, 0);
            if (rc != SQLITE_OK) {
                real_vfs = NULL;
            }
        }
    }
    pthread_mutex_unlock(&once);
    return rc;
}

/*
 * The loadable extension's entry point: registers the VFS with the engine that loads it, and stays
 * loaded (the VFS outlives the connection that loaded it).
 */
FV_EXPORT int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
    (void) db;
    (void) err;
    SQLITE_EXTENSION_INIT2(api);
    int rc = register_vfs();
    return rc == SQLITE_OK ? SQLITE_OK_LOAD_PERMANENTLY : rc;
}

/* ------------------------------------------------------------------ controls (Java, through FFM) */

FV_EXPORT int faultvfs_kinds(void) { return FV_KINDS; }

FV_EXPORT int faultvfs_registered(void) { return real_vfs != NULL; }

/* Calls of kind k since the last faultvfs_reset_counts (failed ones included). */
FV_EXPORT long long faultvfs_count(int k) {
    if (k < 0 || k >= FV_KINDS) {
        return -1;
    }
    pthread_mutex_lock(&mutex);
    long long n = counts[k];
    pthread_mutex_unlock(&mutex);
    return n;
}

FV_EXPORT void faultvfs_reset_counts(void) {
    pthread_mutex_lock(&mutex);
    memset(counts, 0, sizeof counts);
    pthread_mutex_unlock(&mutex);
}

/*
 * Fails the nth call of kind k from now (nth >= 1), and every later one too if persistent, with
 * error: an SQLite result code, 0 for the one SQLite's own VFS returns for that call,
 * FV_SHORT_READ (reads only) or FV_POWER_CUT. Replaces the fault armed before; resets fired.
 * Returns 0, or -1 for an argument out of range.
 */
FV_EXPORT int faultvfs_arm(int k, long long nth, int persistent, int error) {
    if (k < 0 || k >= FV_KINDS || nth < 1 || (error == FV_SHORT_READ && k != FV_READ)
            || error < FV_POWER_CUT) {
        return -1;
    }
    pthread_mutex_lock(&mutex);
    armed_kind = k;
    armed_at = counts[k] + nth;
    armed_persistent = persistent;
    armed_error = error;
    fired = 0;
    pthread_mutex_unlock(&mutex);
    return 0;
}

/* No fault armed any more (the count of fired faults stays until the next arm). */
FV_EXPORT void faultvfs_disarm(void) {
    pthread_mutex_lock(&mutex);
    armed_kind = -1;
    pthread_mutex_unlock(&mutex);
}

/* How many calls the armed fault failed since it was armed. */
FV_EXPORT long long faultvfs_fired(void) {
    pthread_mutex_lock(&mutex);
    long long n = fired;
    pthread_mutex_unlock(&mutex);
    return n;
}

/*
 * Whether a sync reaches the file system (1, the default) or is only recorded as done (0): power
 * cuts are simulated from the record, so a sweep need not wait for the disk.
 */
FV_EXPORT void faultvfs_real_sync(int on) {
    pthread_mutex_lock(&mutex);
    real_sync = on;
    pthread_mutex_unlock(&mutex);
}

/* Whether a power cut happened and was not restored yet. */
FV_EXPORT int faultvfs_dead(void) { return is_dead(); }

/* Handles of named files open now, through the shim. */
FV_EXPORT int faultvfs_open_files(void) {
    int n = 0;
    pthread_mutex_lock(&mutex);
    for (Track *t = tracks; t; t = t->next) {
        n += t->handles;
    }
    pthread_mutex_unlock(&mutex);
    return n;
}

/*
 * Starts (on) or stops recording writes for power loss. Starting declares what is on disk now
 * synced: the record of each file begins empty.
 */
FV_EXPORT void faultvfs_record(int on) {
    pthread_mutex_lock(&mutex);
    for (Track *t = tracks; t; t = t->next) {
        track_clean(t);
    }
    recording = on;
    out_of_memory_in_record = 0;
    pthread_mutex_unlock(&mutex);
}

/* A small seeded generator (splitmix64): the same seed tears the same sectors. */
static unsigned long long next_random(unsigned long long *state) {
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int write_all(int fd, const unsigned char *p, size_t n, off_t off) {
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, off);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        p += w;
        n -= (size_t) w;
        off += w;
    }
    return 0;
}

static const unsigned char zero_sector[FV_SECTOR];

/* Applies what a cut leaves of one file's unsynced writes. 0, or -1 on an I/O error. */
static int restore_file(Track *t, int mode, unsigned long long *rng) {
    int fd = open(t->path, O_RDWR);
    if (fd < 0) {
        return errno == ENOENT ? 0 : -1;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    int rc = 0;
    for (int s = 0; s < t->nslot && rc == 0; s++) {
        if (!t->slot[s]) {
            continue;
        }
        if (mode == FV_TORN && (next_random(rng) & 1)) {
            continue; /* this sector's new content reached the disk */
        }
        sqlite3_int64 at = (sqlite3_int64) s * FV_SECTOR;
        sqlite3_int64 n = t->synced_size - at < FV_SECTOR ? t->synced_size - at : FV_SECTOR;
        rc = write_all(fd, t->pre + (size_t) (t->slot[s] - 1) * FV_SECTOR, (size_t) n, at);
    }
    if (rc == 0) {
        sqlite3_int64 end = t->synced_size;
        if (mode == FV_TORN && size > t->synced_size) {
            /* past the synced end: each sector reached the disk or not; the file ends after the last that did */
            for (sqlite3_int64 at = t->synced_size; at < size && rc == 0; at += FV_SECTOR) {
                sqlite3_int64 n = size - at < FV_SECTOR ? size - at : FV_SECTOR;
                if (next_random(rng) & 1) {
                    end = at + n;
                } else {
                    rc = write_all(fd, zero_sector, (size_t) n, at);
                }
            }
        }
        if (rc == 0 && (mode == FV_DROP_ALL || size > t->synced_size) && ftruncate(fd, end) != 0) {
            rc = -1;
        }
    }
    if (close(fd) != 0) {
        rc = -1;
    }
    return rc;
}

/*
 * After a power cut, once every handle is closed: leaves of each file's writes since its last
 * sync what mode says (FV_KEEP_ALL, FV_DROP_ALL, FV_TORN with seed), clears the cut, the armed
 * fault and the record (recording goes on). Returns the number of files changed; -1 if handles are
 * still open (nothing is done: closing them later could still write), -2 if the record is
 * incomplete (an allocation or a read failed while recording), -3 on an I/O error.
 */
FV_EXPORT int faultvfs_power_restore(int mode, unsigned long long seed) {
    int changed = 0;
    pthread_mutex_lock(&mutex);
    for (Track *t = tracks; t; t = t->next) {
        if (t->handles > 0) {
            pthread_mutex_unlock(&mutex);
            return -1;
        }
    }
    if (out_of_memory_in_record) {
        pthread_mutex_unlock(&mutex);
        return -2;
    }
    unsigned long long rng = seed;
    for (Track *t = tracks; t; t = t->next) {
        if (t->dirty && mode != FV_KEEP_ALL) {
            if (restore_file(t, mode, &rng) != 0) {
                changed = -3;
                break;
            }
            changed++;
        }
    }
    for (Track *t = tracks; t; t = t->next) {
        track_clean(t);
    }
    dead = 0;
    armed_kind = -1;
    pthread_mutex_unlock(&mutex);
    return changed;
}

/* ------------------------------------------------------------------ allocations */

static sqlite3_mem_methods mem_original; /* filled by sqlite3_config(SQLITE_CONFIG_GETMALLOC) */
static long long mem_count;
static long long mem_armed_at; /* 0: not armed */
static int mem_persistent;
static long long mem_fired;

static int mem_fault(void) {
    long long n = __atomic_add_fetch(&mem_count, 1, __ATOMIC_SEQ_CST);
    long long at = __atomic_load_n(&mem_armed_at, __ATOMIC_SEQ_CST);
    if (at > 0 && (n == at || (mem_persistent && n > at))) {
        __atomic_add_fetch(&mem_fired, 1, __ATOMIC_SEQ_CST);
        return 1;
    }
    return 0;
}

static void *mem_malloc(int n) { return mem_fault() ? NULL : mem_original.xMalloc(n); }

static void mem_free(void *p) { mem_original.xFree(p); }

static void *mem_realloc(void *p, int n) { return mem_fault() ? NULL : mem_original.xRealloc(p, n); }

static int mem_size(void *p) { return mem_original.xSize(p); }

static int mem_roundup(int n) { return mem_original.xRoundup(n); }

static int mem_init(void *app) {
    (void) app;
    return mem_original.xInit(mem_original.pAppData);
}

static void mem_shutdown(void *app) {
    (void) app;
    mem_original.xShutdown(mem_original.pAppData);
}

static sqlite3_mem_methods mem_wrapper = {
    mem_malloc, mem_free, mem_realloc, mem_size, mem_roundup, mem_init, mem_shutdown, NULL};

/* Where sqlite3_config(SQLITE_CONFIG_GETMALLOC) puts the engine's allocator. */
FV_EXPORT void *faultvfs_mem_original(void) { return &mem_original; }

/* What sqlite3_config(SQLITE_CONFIG_MALLOC) installs, once the original is in place. */
FV_EXPORT void *faultvfs_mem_wrapper(void) { return mem_original.xMalloc ? &mem_wrapper : NULL; }

/* Fails the nth allocation from now (and every later one if persistent); 0 disarms. */
FV_EXPORT void faultvfs_mem_arm(long long nth, int persistent) {
    mem_persistent = persistent;
    __atomic_store_n(&mem_fired, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&mem_armed_at, nth > 0 ? __atomic_load_n(&mem_count, __ATOMIC_SEQ_CST) + nth : 0,
                     __ATOMIC_SEQ_CST);
}

/* Allocations (malloc and realloc) so far. */
FV_EXPORT long long faultvfs_mem_count(void) { return __atomic_load_n(&mem_count, __ATOMIC_SEQ_CST); }

/* Allocations the armed fault failed since it was armed. */
FV_EXPORT long long faultvfs_mem_fired(void) { return __atomic_load_n(&mem_fired, __ATOMIC_SEQ_CST); }
