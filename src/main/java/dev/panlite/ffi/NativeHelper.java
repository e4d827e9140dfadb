package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The native helper library ({@code src/main/native/panlite_helper.c}): fused calls that cross into
 * SQLite once instead of several times. The bundled SQLite engine has it compiled in, so on that
 * engine nothing more is loaded. For a system or user-supplied SQLite, the Maven build also
 * compiles it alone into the jar as {@code native/<platform>/<libname>}; at class initialisation it
 * is extracted by {@link NativeFiles} and loaded with FFM. Either way it is handed the function
 * pointers of the SQLite the driver loaded, so it always calls that same library.
 *
 * <p>When anything fails (no helper built for this platform, unwritable or noexec cache directory,
 * load error, SQLite not loaded) or {@code -Dpanlite.helper=false} turns it off, {@link #ACTIVE} is
 * false, one line is logged, and {@link Fused} runs every fused call as plain downcalls. Class
 * initialisation never throws.
 */
final class NativeHelper {
    /** {@code false} turns the helper off (both paths can then be tested and benchmarked). */
    static final String ENABLE_PROPERTY = "panlite.helper";

    private static final String BASE_NAME = "panlite_helper";

    /** The SQLite functions the helper calls, in the order panlite_init takes their addresses. */
    static final String[] SQLITE_FUNCTIONS = {"sqlite3_prepare_v3", "sqlite3_step", "sqlite3_reset",
        "sqlite3_clear_bindings", "sqlite3_finalize", "sqlite3_column_count", "sqlite3_column_value",
        "sqlite3_value_type", "sqlite3_value_int64", "sqlite3_value_double", "sqlite3_value_text",
        "sqlite3_value_blob", "sqlite3_value_bytes", "sqlite3_bind_null", "sqlite3_bind_int64", "sqlite3_bind_double",
        "sqlite3_bind_text", "sqlite3_bind_blob", "sqlite3_changes64", "sqlite3_last_insert_rowid",
        "sqlite3_db_handle", "sqlite3_stmt_readonly", "sqlite3_stmt_isexplain", "sqlite3_get_autocommit",
        "sqlite3_txn_state"};

    /** SQLite 3.28+: may be missing (NULL is passed; EXPLAIN then counts as what it explains). */
    static final String OPTIONAL_FUNCTION = "sqlite3_stmt_isexplain";

    static final boolean ACTIVE;
    /** The helper is compiled into the bundled engine (panlite_linked): it reads the database's encoding itself. */
    static final boolean LINKED;
    private static final MethodHandle RESET_CLEAR;
    private static final MethodHandle EXEC_NO_ARGS;
    private static final MethodHandle FILL_ROWS;
    private static final MethodHandle COPY_CURRENT;
    private static final MethodHandle RUN_BATCH;
    private static final String PATH;
    private static final String REASON;

    /** Why the helper is not used; its message is the reason logged and reported. */
    private static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        final System.Logger.Level level;

        Unavailable(String message) {
            this(message, System.Logger.Level.WARNING);
        }

        Unavailable(String message, System.Logger.Level level) {
            super(message, null, false, false);
            this.level = level;
        }
    }

    static {
        MethodHandle resetClear = null;
        MethodHandle execNoArgs = null;
        MethodHandle fillRows = null;
        MethodHandle copyCurrent = null;
        MethodHandle runBatch = null;
        boolean linked = false;
        String path = null;
        String reason = null;
        System.Logger.Level level = System.Logger.Level.WARNING;
        try {
            if ("false".equalsIgnoreCase(System.getProperty(ENABLE_PROPERTY, "").strip())) {
                throw new Unavailable("turned off by -D" + ENABLE_PROPERTY + "=false", System.Logger.Level.INFO);
            }
            if (SqliteLibrary.lookup() == null) {
                throw new Unavailable("the SQLite library is not loaded");
            }
            SymbolLookup lookup;
            if (SqliteLibrary.bundled()) {
                // the bundled engine has the helper compiled in: same library, no second extraction
                lookup = SqliteLibrary.lookup();
                path = SqliteLibrary.loadedFrom();
            } else {
                Path file = extractSeparateHelper();
                try {
                    lookup = SymbolLookup.libraryLookup(file, Arena.global());
                } catch (RuntimeException e) {
                    throw new Unavailable("cannot load " + file + " (a noexec directory? set -D" + NativeFiles.DIR_PROPERTY
                            + "): " + e.getMessage());
                }
                path = file.toString();
            }
            Linker linker = Linker.nativeLinker();
            MethodHandle init = linker.downcallHandle(find(lookup, "panlite_init"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            // Never critical: reset can commit and run user code, exec runs whole statements.
            resetClear = linker.downcallHandle(find(lookup, "panlite_reset_clear"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS));
            execNoArgs = linker.downcallHandle(find(lookup, "panlite_exec_no_args"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
            // Never critical either: both step, so user functions, hooks and the progress handler may run.
            fillRows = linker.downcallHandle(find(lookup, "panlite_fill_rows"), FunctionDescriptor.of(JAVA_INT,
                    ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
                    JAVA_INT, ADDRESS, ADDRESS));
            // Critical: it only reads the row the statement is on (no step, no callback, no blocking).
            copyCurrent = linker.downcallHandle(find(lookup, "panlite_copy_current"), FunctionDescriptor.of(JAVA_INT,
                    ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS),
                    Linker.Option.critical(false));
            runBatch = linker.downcallHandle(find(lookup, "panlite_run_batch"), FunctionDescriptor.of(JAVA_INT,
                    ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS,
                    JAVA_INT, ADDRESS));
            MemorySegment functions = Arena.global().allocate(ADDRESS, SQLITE_FUNCTIONS.length);
            for (int i = 0; i < SQLITE_FUNCTIONS.length; i++) {
                String name = SQLITE_FUNCTIONS[i];
                functions.setAtIndex(ADDRESS, i, name.equals(OPTIONAL_FUNCTION) ? Sqlite.symbol(name) : sqliteSymbol(name));
            }
            int rc = (int) init.invokeExact(functions, SQLITE_FUNCTIONS.length);
            if (rc != 0) {
                throw new Unavailable("panlite_init returned " + rc
                        + (rc == -2 ? " (already bound to another SQLite library in this process)" : ""));
            }
            linked = (int) linker.downcallHandle(find(lookup, "panlite_linked"), FunctionDescriptor.of(JAVA_INT))
                    .invokeExact() == 1;
        } catch (Unavailable e) {
            reason = e.getMessage();
            level = e.level;
        } catch (Throwable t) {
            reason = "unexpected failure: " + t;
        }
        if (reason != null) {
            resetClear = null;
            execNoArgs = null;
            fillRows = null;
            copyCurrent = null;
            runBatch = null;
            path = null;
        }
        RESET_CLEAR = resetClear;
        EXEC_NO_ARGS = execNoArgs;
        FILL_ROWS = fillRows;
        COPY_CURRENT = copyCurrent;
        RUN_BATCH = runBatch;
        LINKED = reason == null && linked;
        PATH = path;
        REASON = reason;
        ACTIVE = reason == null;
        try {
            System.Logger log = System.getLogger(NativeHelper.class.getName());
            if (ACTIVE) {
                log.log(System.Logger.Level.DEBUG, "Panlite native helper loaded from " + PATH);
            } else {
                log.log(level, "Panlite native helper not used: " + REASON + "; fused calls use plain downcalls");
            }
        } catch (RuntimeException ignored) {
            // logging must never break class initialisation
        }
    }

    private NativeHelper() {}

    /** The separate helper, for a system or user-supplied SQLite, extracted from the jar. */
    private static Path extractSeparateHelper() throws Unavailable, IOException {
        String resource = resourceName();
        byte[] content = NativeFiles.read(resource);
        if (content == null) {
            String why = notBuiltReason();
            throw new Unavailable("no helper built for this platform (" + resource.substring(1)
                    + " is not in the jar" + (why == null ? "" : ": " + why) + ")", System.Logger.Level.INFO);
        }
        Path dir = NativeFiles.cacheDir();
        try {
            return NativeFiles.extract(content, dir, NativeFiles.fileName(libraryName(), content));
        } catch (IOException | RuntimeException e) {
            throw new Unavailable("cannot extract it to " + dir + ": " + e);
        }
    }

    private static MemorySegment find(SymbolLookup lookup, String name) throws Unavailable {
        return lookup.find(name).orElseThrow(() -> new Unavailable(name + " is missing from the helper library"));
    }

    private static MemorySegment sqliteSymbol(String name) throws Unavailable {
        MemorySegment address = Sqlite.symbol(name);
        if (address.address() == 0) {
            throw new Unavailable("the loaded SQLite has no " + name);
        }
        return address;
    }

    // ------------------------------------------------------------------ the fused calls

    /** sqlite3_reset then sqlite3_clear_bindings (always), in one crossing; returns reset's code. */
    static int resetClear(long stmt) {
        try {
            return (int) RESET_CLEAR.invokeExact(MemorySegment.ofAddress(stmt));
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }

    /** {@link Fused#execNoArgs} in one crossing; the text goes through the scratch buffer. */
    static int execNoArgs(Scratch scratch, long db, byte[] sql, int offset, int length, int flags) {
        MemorySegment text = scratch.copyIn(sql, offset, length);
        MemorySegment outStmt = scratch.helperOutStmt();
        MemorySegment outTail = scratch.helperOutTail();
        int rc;
        scratch.holdText(); // C reads the text until it returns; a callback's SQL takes another buffer
        try {
            rc = (int) EXEC_NO_ARGS.invokeExact(MemorySegment.ofAddress(db), text, length, flags,
                    outStmt, outTail);
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        } finally {
            scratch.releaseText();
        }
        int tail = outTail.get(JAVA_INT, 0);
        scratch.setResult(outStmt.get(ADDRESS, 0).address(), tail < 0 ? tail - offset : offset + tail); // < 0: prepare failed
        return rc;
    }

    /** {@link Fused#fillRows} in one crossing; C bounds every write by the buffer's sizes passed here. */
    static int fillRows(long stmt, int cols, boolean copyCurrent, int maxRows, int valueLimit, boolean blobs,
                        RowBuffer buffer) {
        try {
            if (copyCurrent && maxRows == 1) { // no step: the critical copy
                return (int) COPY_CURRENT.invokeExact(MemorySegment.ofAddress(stmt), cols, valueLimit, blobs ? 1 : 0,
                        buffer.types, buffer.cells, buffer.cellCapacity(), buffer.heap, (int) buffer.heap.byteSize(),
                        buffer.out);
            }
            return (int) FILL_ROWS.invokeExact(MemorySegment.ofAddress(stmt), cols, copyCurrent ? 1 : 0, maxRows,
                    valueLimit, blobs ? 1 : 0, buffer.types, buffer.cells, buffer.cellCapacity(), buffer.heap,
                    (int) buffer.heap.byteSize(), buffer.callbacks, buffer.out);
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }

    /** {@link Fused#runBatch} in one crossing. */
    static int runBatch(long stmt, int width, int rows, boolean wantChanges, RowBuffer buffer) {
        try {
            return (int) RUN_BATCH.invokeExact(MemorySegment.ofAddress(stmt), width, rows, buffer.types, buffer.cells,
                    buffer.cellCapacity(), buffer.heap, (int) buffer.heap.byteSize(), wantChanges ? 1 : 0,
                    buffer.changes, buffer.rowids, buffer.rowCapacity(), buffer.out);
        } catch (Throwable t) {
            throw Sqlite.fail(t);
        }
    }

    // ------------------------------------------------------------------ diagnostics

    /** The loaded helper file, or null when the helper is not active. */
    static String path() {
        return PATH;
    }

    /** Why the helper is not active, or null when it is. */
    static String reason() {
        return REASON;
    }

    // ------------------------------------------------------------------ the separate helper's file

    /** The library's file name on this OS (without the hash). */
    static String libraryName() {
        return NativeFiles.libraryName(BASE_NAME);
    }

    /** The classpath resource holding this platform's separate helper. */
    static String resourceName() {
        return NativeFiles.resourceName(BASE_NAME);
    }

    /** Why the build left the helper out (its NOT-BUILT.txt, e.g. no C compiler), or null. */
    static String notBuiltReason() {
        return NativeFiles.note("NOT-BUILT.txt");
    }
}
