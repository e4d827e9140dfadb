package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * One connection's long-lived native memory: the out-parameters of prepare and a UTF-8 buffer for
 * SQL text that grows but is not reallocated per call. Used only under the connection's lock;
 * freed with {@link #close()} when the connection closes. Hot paths allocate nothing native.
 */
public final class Scratch implements AutoCloseable {
    private static final int INITIAL_SQL_BYTES = 1024;

    private final Arena arena = Arena.ofShared(); // the connection may be used from several threads, one at a time
    private final Callbacks callbacks = new Callbacks(arena.allocate(JAVA_INT));
    private final MemorySegment outPointer = arena.allocate(ADDRESS);
    private final MemorySegment outTail = arena.allocate(ADDRESS);
    // SQL text buffers, one per nesting level: the native helper's exec keeps reading its text while
    // a callback inside it may run SQL on the same connection (holdText), which takes the next one.
    private final MemorySegment[] sqlBuffers = new MemorySegment[Callbacks.MAX_DEPTH + 2];
    private int textHolders;
    // Out-parameters of the native helper's fused exec (NativeHelper.execNoArgs): handle, tail offset.
    private final MemorySegment helperOutStmt = arena.allocate(ADDRESS);
    private final MemorySegment helperOutTail = arena.allocate(JAVA_INT);
    private long preparedStmt;
    private int tailOffset;
    private MemorySegment ioBuffer; // blob reads and writes, made on first use
    // Row batches, one per nesting level like the SQL buffers: a callback inside a fill may read another query.
    private final RowBuffer[] rowBuffers = new RowBuffer[Callbacks.MAX_DEPTH + 2];
    private int rowHolders;

    /** The result of {@link #open}: SQLite's code and the handle (which must be closed even on error). */
    public record Opened(int rc, long db) {}

    /** sqlite3_open_v2 with a UTF-8 filename. */
    public static Opened open(String filename, int flags) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment ppDb = call.allocate(ADDRESS);
            int rc = Sqlite.openV2(call.allocateFrom(filename, StandardCharsets.UTF_8), ppDb, flags);
            return new Opened(rc, ppDb.get(ADDRESS, 0).address());
        }
    }

    /**
     * sqlite3_prepare_v3 on {@code sql[offset, offset+length)}, passed with its length so SQLite
     * needs no NUL scan. Afterwards {@link #preparedStmt()} is the handle (0 for text holding only
     * whitespace or comments) and {@link #tailOffset()} the index in {@code sql} where the next
     * statement starts.
     */
    public int prepare(long db, byte[] sql, int offset, int length, int flags) {
        MemorySegment text = copyIn(sql, offset, length);
        int rc = Sqlite.prepareV3(db, text, length, flags, outPointer, outTail);
        preparedStmt = outPointer.get(ADDRESS, 0).address();
        long tail = outTail.get(ADDRESS, 0).address();
        tailOffset = tail == 0 ? offset + length : offset + (int) (tail - text.address());
        return rc;
    }

    /**
     * Copies SQL text into the buffer of the current nesting level, growing it when needed (the old
     * one stays in the arena until close); the buffer stays NUL-terminated.
     */
    MemorySegment copyIn(byte[] sql, int offset, int length) {
        int level = Math.min(textHolders, sqlBuffers.length - 1); // deeper nesting is refused by Callbacks
        MemorySegment buffer = sqlBuffers[level];
        if (buffer == null || buffer.byteSize() < length + 1L) {
            long size = Math.max(length + 1L, buffer == null ? INITIAL_SQL_BYTES : buffer.byteSize() * 2);
            buffer = sqlBuffers[level] = arena.allocate(size);
        }
        MemorySegment.copy(sql, offset, buffer, JAVA_BYTE, 0, length);
        buffer.set(JAVA_BYTE, length, (byte) 0);
        return buffer;
    }

    /** The text just copied in stays in use across callbacks (the helper's exec): nested SQL gets another buffer. */
    void holdText() {
        textHolders++;
    }

    void releaseText() {
        textHolders--;
    }

    /**
     * The row buffer of the current nesting level, made on first use, held until {@link #releaseRows}:
     * a callback running inside the fill or batch that uses it gets the next level's.
     */
    public RowBuffer holdRows() {
        int level = Math.min(rowHolders, rowBuffers.length - 1); // deeper nesting is refused by Callbacks
        RowBuffer b = rowBuffers[level];
        if (b == null) {
            b = rowBuffers[level] = new RowBuffer(arena, callbacks.callsNative());
        }
        rowHolders++;
        return b;
    }

    public void releaseRows() {
        rowHolders--;
    }

    /** The bookkeeping of this connection's callbacks: the engine asks whether one is running. */
    public Callbacks callbacks() {
        return callbacks;
    }

    public long preparedStmt() {
        return preparedStmt;
    }

    public int tailOffset() {
        return tailOffset;
    }

    void setResult(long stmt, int tail) {
        preparedStmt = stmt;
        tailOffset = tail;
    }

    /** {@code sqlite3_stmt **} out-parameter for the native helper. */
    MemorySegment helperOutStmt() {
        return helperOutStmt;
    }

    /** {@code int *} out-parameter for the native helper. */
    MemorySegment helperOutTail() {
        return helperOutTail;
    }

    /**
     * Registers a Java function callable from SQL on {@code db}; its upcall stub lives in this
     * connection's memory and is freed with it. Returns SQLite's code.
     */
    public int createFunction(long db, String name, int nArgs, boolean deterministic, SqlFunctions.Body body) {
        noteCallbackName(name);
        return SqlFunctions.register(arena, callbacks, db, name, nArgs, deterministic, body);
    }

    /** Registers an aggregate function on {@code db}; its upcall stubs live in this connection's memory. */
    public int createAggregate(long db, String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends SqlFunctions.Accumulator> factory) {
        noteCallbackName(name);
        return SqlFunctions.registerAggregate(arena, callbacks, db, name, nArgs, deterministic, factory);
    }

    /** Registers a window function on {@code db}; its four upcall stubs live in this connection's memory. */
    public int createWindowFunction(long db, String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends WindowFunctions.Accumulator> factory) {
        noteCallbackName(name);
        return WindowFunctions.register(arena, callbacks, db, name, nArgs, deterministic, factory);
    }

    /**
     * Installs (or, with null, removes) the progress handler of {@code db}; a replaced handler's
     * stub stays allocated until the connection closes (SQLite may be inside it right now).
     */
    public void setProgressHandler(long db, int instructions, ProgressHandlers.Handler handler) {
        ProgressHandlers.install(arena, callbacks, db, instructions, handler);
    }

    /** Installs SQLite's update/commit/rollback hooks on {@code db}, reporting to {@code receiver}. */
    public void installHooks(long db, ChangeHooks.Receiver receiver) {
        ChangeHooks.install(arena, callbacks, db, receiver);
    }

    /** Installs the WAL hook on {@code db} (it replaces SQLite's autocheckpoint); false when the library has none. */
    public boolean installWalHook(long db, WalHook.Receiver receiver) {
        return WalHook.install(arena, callbacks, db, receiver);
    }

    /** Removes the hooks (their stubs stay allocated until the connection closes). */
    public static void removeHooks(long db) {
        ChangeHooks.remove(db);
    }

    /** Registers a collation on {@code db}; its upcall stub lives in this connection's memory. Returns SQLite's code. */
    public int createCollation(long db, String name, java.util.Comparator<String> order) {
        noteCallbackName(name);
        return SqlFunctions.registerCollation(arena, callbacks, db, name, order);
    }

    // Names of the functions and collations registered with Java code: a query naming one is read row by row.
    private String[] callbackNames = new String[0];

    private void noteCallbackName(String name) {
        if (name == null) {
            return;
        }
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        for (String known : callbackNames) {
            if (known.equals(lower)) {
                return;
            }
        }
        String[] names = java.util.Arrays.copyOf(callbackNames, callbackNames.length + 1);
        names[names.length - 1] = lower;
        callbackNames = names;
    }

    /** How many function and collation names with Java code this connection has registered. */
    public int callbackNameCount() {
        return callbackNames.length;
    }

    /**
     * True when {@code sql} mentions (anywhere, ignoring case) the name of a function or collation
     * registered with Java code: its steps may call back, so its rows are not read ahead.
     */
    public boolean mentionsCallback(String sql) {
        if (callbackNames.length == 0) {
            return false;
        }
        String lower = sql.toLowerCase(java.util.Locale.ROOT);
        for (String name : callbackNames) {
            if (lower.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /** The outcome of {@link #backup}: SQLite's code and, on failure, its message. */
    public record Copied(int rc, String message) {}

    /**
     * Copies schema {@code schema} of {@code db} into the database file {@code file} (or, with
     * {@code restore}, the file into the schema) with SQLite's online backup, all pages in one step;
     * retries while the source is busy, up to {@code busyMillis}.
     */
    /** Told after each backup step: pages still to copy, pages in all. May throw to stop the copy. */
    @FunctionalInterface
    public interface Progress {
        void report(int remaining, int pageCount);
    }

    /**
     * {@link #backup(long, String, String, boolean, int)} in steps of {@code pagesPerStep} pages (-1:
     * all in one), telling {@code progress} (may be null) after each. Another connection may use the
     * source between steps; SQLite restarts the copy if it writes to it.
     */
    public static Copied backup(long db, String schema, String file, boolean restore, int busyMillis,
            int pagesPerStep, Progress progress) {
        int flags = restore ? Sqlite.OPEN_READONLY : Sqlite.OPEN_READWRITE | Sqlite.OPEN_CREATE;
        Opened other = open(file, flags | Sqlite.OPEN_NOMUTEX | Sqlite.OPEN_EXRESCODE);
        try (Arena call = Arena.ofConfined()) {
            if (other.rc() != Sqlite.OK) {
                return new Copied(other.rc(), other.db() == 0 ? Sqlite.errstr(other.rc()) : Sqlite.errmsg(other.db()));
            }
            long dest = restore ? db : other.db();
            long src = restore ? other.db() : db;
            MemorySegment destName = call.allocateFrom(restore ? schema : "main", StandardCharsets.UTF_8);
            MemorySegment srcName = call.allocateFrom(restore ? "main" : schema, StandardCharsets.UTF_8);
            long backup = Sqlite.backupInit(dest, destName, src, srcName);
            if (backup == 0) {
                return new Copied(Sqlite.extendedErrcode(dest), Sqlite.errmsg(dest));
            }
            int rc;
            long deadline = System.nanoTime() + busyMillis * 1_000_000L;
            try {
                while (true) {
                    rc = Sqlite.backupStep(backup, pagesPerStep);
                    if (rc == Sqlite.OK) { // more to copy
                        if (progress != null) {
                            progress.report(Sqlite.backupRemaining(backup), Sqlite.backupPagecount(backup));
                        }
                        continue;
                    }
                    if ((rc != Sqlite.BUSY && (rc & 0xff) != Sqlite.LOCKED) || System.nanoTime() > deadline) {
                        break;
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                if (rc == Sqlite.DONE && progress != null) {
                    progress.report(0, Sqlite.backupPagecount(backup));
                }
            } catch (RuntimeException | Error stoppedByProgress) { // the backup object never outlives this call
                Sqlite.backupFinish(backup);
                throw stoppedByProgress;
            }
            int finish = Sqlite.backupFinish(backup);
            if (rc != Sqlite.DONE) {
                return new Copied(rc, Sqlite.errstr(rc));
            }
            return new Copied(finish, finish == Sqlite.OK ? null : Sqlite.errmsg(dest));
        } finally {
            if (other.db() != 0) {
                Sqlite.closeV2(other.db());
            }
        }
    }

    // ------------------------------------------------------------------ serialize

    /** The bytes of schema {@code schema} of {@code db} (sqlite3_serialize), or null when SQLite gives none. */
    public static byte[] serialize(long db, String schema) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment size = call.allocate(java.lang.foreign.ValueLayout.JAVA_LONG);
            MemorySegment image = Sqlite.serialize(db, call.allocateFrom(schema, StandardCharsets.UTF_8), size);
            if (image.address() == 0) {
                return null;
            }
            try {
                long n = size.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
                return image.reinterpret(n).toArray(JAVA_BYTE);
            } finally {
                Sqlite.free(image); // SQLite made a copy for us: ours to free
            }
        }
    }

    /**
     * Replaces schema {@code schema} of {@code db} with {@code image} (sqlite3_deserialize). The image
     * is copied into memory from sqlite3_malloc64, which SQLite owns from then on (FREEONCLOSE), also
     * when it fails. Returns SQLite's code.
     */
    public static int deserialize(long db, String schema, byte[] image) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment data = Sqlite.malloc64(Math.max(1, image.length));
            if (data.address() == 0) {
                return Sqlite.NOMEM;
            }
            MemorySegment.copy(image, 0, data.reinterpret(image.length), JAVA_BYTE, 0, image.length);
            return Sqlite.deserialize(db, call.allocateFrom(schema, StandardCharsets.UTF_8), data, image.length,
                    image.length, Sqlite.DESERIALIZE_FREEONCLOSE | Sqlite.DESERIALIZE_RESIZEABLE);
        }
    }

    // ------------------------------------------------------------------ extensions

    /**
     * The outcome of {@link #loadExtension}: SQLite's code and, on failure, its message; whether the
     * file (or the name with the suffix) opened as a shared library in this process at all.
     */
    public record Loaded(int rc, String message, boolean opened) {}

    private final ExtensionLibraries extensions = new ExtensionLibraries(arena); // kept mapped until close

    /**
     * sqlite3_load_extension of {@code file} with {@code entryPoint} (null: SQLite's default rule), on a
     * connection where the caller has enabled loading. Java first opens the library itself into this
     * connection's memory, so it stays mapped until the connection closes: SQLite unloads a library
     * whose entry point failed even when that entry point had registered functions, and a call to one
     * of them would jump into unmapped memory (a crash, with an extension that does so).
     */
    public Loaded loadExtension(long db, java.nio.file.Path file, String entryPoint) {
        java.lang.foreign.SymbolLookup library = extensions.pin(file);
        boolean opened = library != null;
        String notCode = opened ? ExtensionLibraries.entryPointNotCode(library, file, entryPoint) : null;
        if (notCode != null) {
            return new Loaded(Sqlite.ERROR, notCode, true); // SQLite would call it: a crash
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment error = call.allocate(ADDRESS); // zeroed: NULL unless SQLite writes a message
            int rc = Sqlite.loadExtension(db, call.allocateFrom(file.toString(), StandardCharsets.UTF_8),
                    entryPoint == null ? MemorySegment.NULL : call.allocateFrom(entryPoint, StandardCharsets.UTF_8),
                    error);
            MemorySegment message = error.get(ADDRESS, 0);
            try {
                return new Loaded(rc, Sqlite.cString(message), opened);
            } finally {
                if (message.address() != 0) {
                    Sqlite.free(message); // sqlite3_mprintf'd for us: ours to free
                }
            }
        }
    }

    // ------------------------------------------------------------------ incremental blob I/O

    /** The result of {@link #blobOpen}: SQLite's code and the handle (0 on failure). */
    public record OpenedBlob(int rc, long blob) {}

    /** sqlite3_blob_open on {@code schema.table.column} of row {@code rowid}. */
    public static OpenedBlob blobOpen(long db, String schema, String table, String column, long rowid, boolean writable) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ADDRESS);
            int rc = Sqlite.blobOpen(db, call.allocateFrom(schema, StandardCharsets.UTF_8),
                    call.allocateFrom(table, StandardCharsets.UTF_8), call.allocateFrom(column, StandardCharsets.UTF_8),
                    rowid, writable ? 1 : 0, out);
            return new OpenedBlob(rc, out.get(ADDRESS, 0).address());
        }
    }

    /** Reads {@code length} bytes at {@code offset} of the blob into {@code into[at..]} through this buffer. */
    public int blobRead(long blob, int offset, byte[] into, int at, int length) {
        MemorySegment buffer = ioBuffer(length);
        int rc = Sqlite.blobRead(blob, buffer, length, offset);
        if (rc == Sqlite.OK) {
            MemorySegment.copy(buffer, JAVA_BYTE, 0, into, at, length);
        }
        return rc;
    }

    /** Writes {@code from[at..at+length)} at {@code offset} of the blob through this buffer. */
    public int blobWrite(long blob, int offset, byte[] from, int at, int length) {
        MemorySegment buffer = ioBuffer(length);
        MemorySegment.copy(from, at, buffer, JAVA_BYTE, 0, length);
        return Sqlite.blobWrite(blob, buffer, length, offset);
    }

    /** A buffer of at least {@code bytes} for blob I/O; grows, is not reallocated per call. */
    private MemorySegment ioBuffer(int bytes) {
        if (ioBuffer == null || ioBuffer.byteSize() < bytes) {
            ioBuffer = arena.allocate(Math.max(bytes, ioBuffer == null ? 8192 : ioBuffer.byteSize() * 2));
        }
        return ioBuffer;
    }

    /** What sqlite3_table_column_metadata says of one column. */
    public record ColumnInfo(String declaredType, String collation, boolean notNull, boolean primaryKey,
            boolean autoincrement) {}

    /**
     * Metadata of {@code table.column} in schema {@code schema} (null: search all), or null if unknown
     * (also on a build without SQLITE_ENABLE_COLUMN_METADATA, which lacks the function).
     */
    public ColumnInfo tableColumnMetadata(long db, String schema, String table, String column) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment type = call.allocate(ADDRESS);
            MemorySegment coll = call.allocate(ADDRESS);
            MemorySegment notNull = call.allocate(JAVA_INT);
            MemorySegment pk = call.allocate(JAVA_INT);
            MemorySegment autoinc = call.allocate(JAVA_INT);
            int rc = Sqlite.tableColumnMetadata(db,
                    schema == null ? MemorySegment.NULL : call.allocateFrom(schema, StandardCharsets.UTF_8),
                    call.allocateFrom(table, StandardCharsets.UTF_8),
                    call.allocateFrom(column, StandardCharsets.UTF_8), type, coll, notNull, pk, autoinc);
            if (rc != Sqlite.OK) {
                return null;
            }
            return new ColumnInfo(Sqlite.cString(type.get(ADDRESS, 0)), Sqlite.cString(coll.get(ADDRESS, 0)),
                    notNull.get(JAVA_INT, 0) != 0, pk.get(JAVA_INT, 0) != 0, autoinc.get(JAVA_INT, 0) != 0);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
