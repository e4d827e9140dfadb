package dev.panlite.fault;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The fault-injecting VFS of the tests (src/test/native/faultvfs.c), driven through FFM. The build
 * compiles it into {@code <build dir>/faultvfs/} (the antrun execution {@code fault-vfs});
 * {@link #unavailable()} says why a test cannot use it. One process has one shim: its counts and
 * its armed fault are process-wide, so tests that use it run one at a time (they lock {@link #LOCK}).
 *
 * <p>The shim registers itself, as the VFS named {@value #NAME}, with the engine that loads it as an
 * extension ({@link #register}); a connection then chooses it with {@code vfs=faultvfs} in a
 * {@code file:} URI ({@link #url}).
 */
public final class FaultVfs {
    /** The VFS's name. */
    public static final String NAME = "faultvfs";
    /** System property: the folder holding the built shim (default: faultvfs/ beside test-classes/). */
    public static final String DIR_PROPERTY = "panlite.test.faultvfs";
    /** Taken by every test that arms the shim: its state is the process's. */
    public static final Object LOCK = new Object();

    /** The calls the shim counts and can fail, in faultvfs.c's order. */
    public enum Kind {
        OPEN, READ, WRITE, TRUNCATE, SYNC, FILE_SIZE, LOCK, UNLOCK, CHECK_RESERVED_LOCK, SHM_MAP, SHM_LOCK, DELETE,
        ACCESS;

        /** The extended code SQLite's own (unix) VFS returns when this call fails. */
        public int defaultError() {
            return switch (this) {
                case OPEN -> Codes.CANTOPEN;
                case READ -> Codes.IOERR_READ;
                case WRITE -> Codes.IOERR_WRITE;
                case TRUNCATE -> Codes.IOERR_TRUNCATE;
                case SYNC -> Codes.IOERR_FSYNC;
                case FILE_SIZE -> Codes.IOERR_FSTAT;
                case LOCK -> Codes.IOERR_LOCK;
                case UNLOCK -> Codes.IOERR_UNLOCK;
                case CHECK_RESERVED_LOCK -> Codes.IOERR_CHECKRESERVEDLOCK;
                case SHM_MAP -> Codes.IOERR_SHMMAP;
                case SHM_LOCK -> Codes.IOERR_SHMLOCK;
                case DELETE -> Codes.IOERR_DELETE;
                case ACCESS -> Codes.IOERR_ACCESS;
            };
        }
    }

    /** SQLite result codes the shim returns. */
    public static final class Codes {
        public static final int IOERR = 10;
        public static final int FULL = 13;
        public static final int CANTOPEN = 14;
        public static final int IOERR_READ = 266;
        public static final int IOERR_SHORT_READ = 522;
        public static final int IOERR_WRITE = 778;
        public static final int IOERR_FSYNC = 1034;
        public static final int IOERR_TRUNCATE = 1546;
        public static final int IOERR_FSTAT = 1802;
        public static final int IOERR_UNLOCK = 2058;
        public static final int IOERR_DELETE = 2570;
        public static final int IOERR_ACCESS = 3338;
        public static final int IOERR_CHECKRESERVEDLOCK = 3594;
        public static final int IOERR_LOCK = 3850;
        public static final int IOERR_SHMLOCK = 5130;
        public static final int IOERR_SHMMAP = 5386;

        private Codes() {}
    }

    /** The error of {@link #arm}: the code SQLite's own VFS returns for the call ({@link Kind#defaultError}). */
    public static final int DEFAULT_ERROR = 0;
    /** The error of {@link #arm} for reads: half the bytes, the rest zeros, SQLITE_IOERR_SHORT_READ. */
    public static final int SHORT_READ = -1;
    /** The error of {@link #arm}: a power cut; every later call fails without I/O until {@link #powerRestore}. */
    public static final int POWER_CUT = -2;

    /** What a power cut leaves of the writes since each file's last sync. */
    public enum Loss {
        /** Everything: the process died, the operating system wrote what it had. */
        KEEP_ALL,
        /** Nothing written since the last sync. */
        DROP_ALL,
        /** A seeded random subset of the sectors written since the last sync. */
        TORN
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final String WHY_NOT;
    private static final Path LIBRARY;
    private static final MethodHandle KINDS, REGISTERED, COUNT, RESET_COUNTS, ARM, DISARM, FIRED, DEAD, OPEN_FILES,
            RECORD, REAL_SYNC, POWER_RESTORE, MEM_ORIGINAL, MEM_WRAPPER, MEM_ARM, MEM_COUNT, MEM_FIRED;

    static {
        Path dir = directory();
        Path library = dir == null ? null : dir.resolve(System.mapLibraryName("faultvfs"));
        String why = null;
        SymbolLookup lookup = null;
        if (library == null || !Files.isReadable(library)) {
            Path note = dir == null ? null : dir.resolve("NOT-BUILT.txt");
            try {
                why = note != null && Files.isReadable(note)
                        ? "the fault-injecting VFS was not built: " + Files.readString(note).strip()
                        : "the fault-injecting VFS was not built (" + library + " is missing: the build's fault-vfs"
                                + " step did not run, or found no sh)";
            } catch (IOException e) {
                why = "the fault-injecting VFS was not built: " + e;
            }
        } else {
            try {
                lookup = SymbolLookup.libraryLookup(library, Arena.global());
            } catch (RuntimeException e) {
                why = "the fault-injecting VFS " + library + " does not load: " + e.getMessage();
            }
        }
        WHY_NOT = why;
        LIBRARY = lookup == null ? null : library;
        KINDS = bind(lookup, "faultvfs_kinds", FunctionDescriptor.of(JAVA_INT));
        REGISTERED = bind(lookup, "faultvfs_registered", FunctionDescriptor.of(JAVA_INT));
        COUNT = bind(lookup, "faultvfs_count", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        RESET_COUNTS = bind(lookup, "faultvfs_reset_counts", FunctionDescriptor.ofVoid());
        ARM = bind(lookup, "faultvfs_arm", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
        DISARM = bind(lookup, "faultvfs_disarm", FunctionDescriptor.ofVoid());
        FIRED = bind(lookup, "faultvfs_fired", FunctionDescriptor.of(JAVA_LONG));
        DEAD = bind(lookup, "faultvfs_dead", FunctionDescriptor.of(JAVA_INT));
        OPEN_FILES = bind(lookup, "faultvfs_open_files", FunctionDescriptor.of(JAVA_INT));
        RECORD = bind(lookup, "faultvfs_record", FunctionDescriptor.ofVoid(JAVA_INT));
        REAL_SYNC = bind(lookup, "faultvfs_real_sync", FunctionDescriptor.ofVoid(JAVA_INT));
        POWER_RESTORE = bind(lookup, "faultvfs_power_restore", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
        MEM_ORIGINAL = bind(lookup, "faultvfs_mem_original", FunctionDescriptor.of(ADDRESS));
        MEM_WRAPPER = bind(lookup, "faultvfs_mem_wrapper", FunctionDescriptor.of(ADDRESS));
        MEM_ARM = bind(lookup, "faultvfs_mem_arm", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT));
        MEM_COUNT = bind(lookup, "faultvfs_mem_count", FunctionDescriptor.of(JAVA_LONG));
        MEM_FIRED = bind(lookup, "faultvfs_mem_fired", FunctionDescriptor.of(JAVA_LONG));
        if (WHY_NOT == null && kinds() != Kind.values().length) {
            throw new IllegalStateException("faultvfs.c has " + kinds() + " kinds of call, FaultVfs.Kind "
                    + Kind.values().length);
        }
    }

    private FaultVfs() {}

    private static Path directory() {
        String given = System.getProperty(DIR_PROPERTY);
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        try { // <build dir>/test-classes -> <build dir>/faultvfs
            Path classes = Path.of(FaultVfs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.getParent().resolve("faultvfs");
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    private static MethodHandle bind(SymbolLookup lookup, String name, FunctionDescriptor descriptor) {
        return lookup == null ? null : LINKER.downcallHandle(lookup.find(name).orElseThrow(
                () -> new IllegalStateException(name + " is missing from the fault-injecting VFS")), descriptor);
    }

    /** Null when the shim is built and loaded; otherwise why not (for an assumption). */
    public static String unavailable() {
        return WHY_NOT;
    }

    /** The shim's shared library. */
    public static Path library() {
        return LIBRARY;
    }

    /** The build folder the shim was built in (-DbuildDir), where the sweeps keep their files. */
    public static Path buildDir() {
        Path dir = directory();
        return dir == null ? Path.of("target").toAbsolutePath() : dir.toAbsolutePath().getParent();
    }

    /**
     * Registers the VFS with the engine behind {@code c} (a connection of any driver, opened with
     * {@code enable_load_extension=true}): SQL's load_extension() runs the shim's
     * sqlite3_extension_init, which registers {@value #NAME} for the whole process and keeps the shim
     * loaded. Idempotent.
     */
    public static void register(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT load_extension(?)")) {
            ps.setString(1, LIBRARY.toString());
            ps.executeQuery().close();
        }
        if (!registered()) {
            throw new IllegalStateException("load_extension returned, yet " + NAME + " is not registered");
        }
    }

    /** The URL (after {@code jdbc:sqlite:}) of {@code db} opened through the shim, with more parameters if given. */
    public static String url(Path db, String parameters) {
        return "jdbc:sqlite:file:" + db.toAbsolutePath() + "?vfs=" + NAME
                + (parameters == null || parameters.isEmpty() ? "" : "&" + parameters);
    }

    private static RuntimeException fail(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        return t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }

    public static int kinds() {
        try {
            return (int) KINDS.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static boolean registered() {
        try {
            return (int) REGISTERED.invokeExact() != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Calls of {@code kind} since {@link #resetCounts} (failed ones included). */
    public static long count(Kind kind) {
        try {
            return (long) COUNT.invokeExact(kind.ordinal());
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public static void resetCounts() {
        try {
            RESET_COUNTS.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * Fails the {@code nth} call of {@code kind} from now (and each later one if {@code persistent})
     * with {@code error}: an SQLite result code, {@link #DEFAULT_ERROR}, {@link #SHORT_READ} or
     * {@link #POWER_CUT}. Replaces the fault armed before.
     */
    public static void arm(Kind kind, long nth, boolean persistent, int error) {
        int rc;
        try {
            rc = (int) ARM.invokeExact(kind.ordinal(), nth, persistent ? 1 : 0, error);
        } catch (Throwable t) {
            throw fail(t);
        }
        if (rc != 0) {
            throw new IllegalArgumentException("faultvfs_arm refused " + kind + " #" + nth + " error " + error);
        }
    }

    public static void disarm() {
        try {
            DISARM.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Calls the armed fault failed since it was armed. */
    public static long fired() {
        try {
            return (long) FIRED.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Whether a power cut happened that {@link #powerRestore} did not clear yet. */
    public static boolean dead() {
        try {
            return (int) DEAD.invokeExact() != 0;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Handles of named files open through the shim now. */
    public static int openFiles() {
        try {
            return (int) OPEN_FILES.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Starts or stops recording writes for power loss; starting declares what is on disk now synced. */
    public static void record(boolean on) {
        try {
            RECORD.invokeExact(on ? 1 : 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * Whether syncs reach the file system (the default) or are only recorded as done: power cuts
     * are simulated from the record, so a sweep need not wait for the disk.
     */
    public static void realSync(boolean on) {
        try {
            REAL_SYNC.invokeExact(on ? 1 : 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /**
     * After a power cut, once every connection is closed: leaves what {@code loss} says of each
     * file's writes since its last sync, and clears the cut and the armed fault. Returns the number
     * of files changed; throws if handles are still open, the record is incomplete, or I/O failed.
     */
    public static int powerRestore(Loss loss, long seed) {
        int rc;
        try {
            rc = (int) POWER_RESTORE.invokeExact(loss.ordinal(), seed);
        } catch (Throwable t) {
            throw fail(t);
        }
        return switch (rc) {
            case -1 -> throw new IllegalStateException("power restore with " + openFiles() + " file handles still open");
            case -2 -> throw new IllegalStateException("power restore: the record of unsynced writes is incomplete");
            case -3 -> throw new IllegalStateException("power restore: an I/O error while restoring the files");
            default -> rc;
        };
    }

    /** Where sqlite3_config(SQLITE_CONFIG_GETMALLOC) is to put the engine's allocator. */
    public static MemorySegment memOriginal() {
        try {
            return (MemorySegment) MEM_ORIGINAL.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The allocator to install with sqlite3_config(SQLITE_CONFIG_MALLOC); NULL before {@link #memOriginal} is filled. */
    public static MemorySegment memWrapper() {
        try {
            return (MemorySegment) MEM_WRAPPER.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Fails the {@code nth} allocation from now (every later one too if persistent); 0 disarms. */
    public static void memArm(long nth, boolean persistent) {
        try {
            MEM_ARM.invokeExact(nth, persistent ? 1 : 0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Allocations (malloc and realloc) through the wrapper so far. */
    public static long memCount() {
        try {
            return (long) MEM_COUNT.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Allocations the armed fault failed since it was armed. */
    public static long memFired() {
        try {
            return (long) MEM_FIRED.invokeExact();
        } catch (Throwable t) {
            throw fail(t);
        }
    }
}
