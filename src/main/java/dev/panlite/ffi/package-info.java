/**
 * The only package that names {@code java.lang.foreign}: loading SQLite, one downcall handle per C
 * function ({@link dev.panlite.ffi.Sqlite}), the native helper's fused calls with their pure-Java
 * fallback, the per-connection native memory ({@link dev.panlite.ffi.Scratch}), and the upcalls
 * (functions, collations, hooks).
 *
 * <p>Handles travel as plain {@code long}s; this package does not own them. Its callers in
 * {@code dev.panlite.engine} hold the connection's lock for every call that takes one (see the
 * invariants there). Upcalls follow the one shape documented on {@link dev.panlite.ffi.Callbacks}:
 * counted per connection so the engine knows SQLite is on the stack, bounded in nesting, and never
 * letting a Throwable travel back into C.
 */
package dev.panlite.ffi;
