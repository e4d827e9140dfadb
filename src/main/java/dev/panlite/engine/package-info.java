/**
 * SQLite concepts with lifetimes: {@link dev.panlite.engine.Database} ({@code sqlite3*}),
 * {@link dev.panlite.engine.Stmt} ({@code sqlite3_stmt*}), the statement cache, the transaction
 * statements, result-code mapping, and the {@link dev.panlite.engine.Reclaimer} of leaked connections.
 *
 * <h2>Memory-safety invariants</h2>
 * An FFM driver holds raw pointers: one call on a freed handle kills the JVM. These hold by the
 * shape of the code, and assertions (on in the test suite) make a violation fail every time:
 * <ol>
 * <li><b>One lock per connection.</b> Every native call that takes the connection's or one of its
 *     statements' handles runs with {@code Database.lock()} held, after a closed check. Methods of
 *     {@code Database} and {@code Stmt} that reach native code assert {@code isLockedByMe()}. The
 *     JDBC layer never calls {@code dev.panlite.ffi.Sqlite} with a handle: it goes through this package.
 * <li><b>Handles are zeroed under the lock when freed</b> ({@code Stmt.finalizeNow}, {@code Database.close}),
 *     and a zero handle is refused, so a late call fails instead of reaching freed memory.
 * <li><b>Nothing native is read outside the lock.</b> Column names, labels, metadata and values are
 *     copied to Java under it ({@code JdbcResultSetMetaData} is a copy; {@code findColumn} takes the lock).
 * <li><b>Close finalizes only what the driver prepared.</b> Every {@code Stmt} is on its connection's live
 *     list from prepare to finalize; close finalizes that list. Statements that SQLite's own modules
 *     (FTS3/4/5, R*Tree) prepared are theirs: {@code sqlite3_close_v2} lets them finalize them.
 * <li><b>Callbacks cannot free what SQLite is using.</b> Java code called from SQL (functions,
 *     aggregates, collations, hooks) runs inside a downcall, on the thread holding the lock, and may
 *     use its own connection. While a step, reset or finalize of a statement is in progress
 *     ({@code Stmt.running()}), a second one is refused (MISUSE) and a finalize is deferred until it
 *     returns; the JDBC objects over it refuse use and close with an SQLException. A connection closed
 *     or aborted inside a callback refuses every call at once and is freed when the thread leaves its
 *     outermost call ({@code Database.unlock()}).
 * <li><b>No Throwable leaves an upcall</b>, and callbacks nest at most
 *     {@code dev.panlite.ffi.Callbacks.MAX_DEPTH} deep per thread: see {@code dev.panlite.ffi.Callbacks}.
 * <li><b>Other threads interrupt, then wait.</b> {@code cancel()}, timeouts and {@code abort()} use
 *     {@code sqlite3_interrupt} (safe from any thread, guarded against a concurrent close); a close
 *     from another thread interrupts the running statement and then takes the lock, so memory is
 *     freed only when no thread is inside SQLite on that connection.
 * <li><b>Rows read ahead are Java memory; no getter needs the lock.</b> {@code Stmt.fill} (lock held,
 *     the statement marked running; a query's first step, {@code Stmt.stepCopying}, is such a fill of
 *     one row) steps up to N rows in one downcall into the connection's native
 *     {@code dev.panlite.ffi.RowBuffer} of the current nesting level, and copies them, before it
 *     returns, into the statement's {@link dev.panlite.engine.RowBatch}: per value its storage class and
 *     an integer, a double's bits, or the offset and length of its UTF-8 or blob bytes in a Java byte
 *     array (a text's length word marked when every byte is ASCII: a hint, which only chooses how the
 *     String is made, never which bytes are read). On the bundled engine the copy reads each value from
 *     SQLite's result row itself ({@code panlite_helper.c}, {@code linked_column_value}: the API's
 *     wrapper only adds the database mutex, which the connection lock makes redundant, and a range
 *     check it keeps), and takes a text or blob's bytes as SQLite holds them unless SQLite must
 *     convert them (UTF-16 text, a zeroblob): those go through {@code sqlite3_value_text/_blob}.
 *     The getters of a held value read as its own class answer in one check of the result set
 *     ({@code StmtResultSet.held}, {@code heldIndex}); anything else takes the general getter. The native buffer belongs to the connection (freed with its arena, never while the lock is
 *     held elsewhere, never read outside this package and ffi); the row batch belongs to its
 *     {@code Stmt}, is refilled only by the one result set reading that statement, under the lock, and
 *     holds no pointer, so a getter reading it needs neither the lock nor an open handle: the worst a
 *     racing thread can see is a value of another row, and every read checks its bounds (an
 *     SQLException, never an exception of the JVM). What the lock still guards: the fill itself, a row
 *     read in place (a value over {@code RowBuffer.VALUE_LIMIT}, or a row holding a blob in a database
 *     whose text encoding is not UTF-8: SQLite converts a blob to text from the encoding its value
 *     carries, which a copy loses; {@code Conversions.blobsReadAhead}), and SQLite's own conversions
 *     of held values ({@code Conversions}, a private {@code SELECT ?1} on the connection). The getters still
 *     refuse, without the lock, a closed result set or connection, a change hook of this thread, and
 *     this statement's own callbacks, as they did with it.
 * <li><b>An EXPLAIN is listed in the lock hold that prepared it.</b> Its rows are rendered from the
 *     program's operands, which point at schema objects a schema reset frees without the EXPLAIN
 *     noticing (misuse fuzz F29): {@link dev.panlite.engine.ExplainRows} steps it to its end at once,
 *     and it is never cached.
 * <li><b>Batches of writes bind from native memory the driver owns.</b> {@code Stmt.runBatch} copies
 *     the rows' values into the same {@code RowBuffer} and binds them with SQLITE_TRANSIENT (SQLite
 *     copies), lock held, the statement marked running for the whole chunk.
 * <li><b>Leaks are reclaimed</b> by {@link dev.panlite.engine.Reclaimer}, which closes through the same
 *     locked {@code Database.close()}.
 * </ol>
 */
package dev.panlite.engine;
