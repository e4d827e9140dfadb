package dev.panlite.engine;

/**
 * A connection's lock, held: {@code try (var held = db.hold()) { ... }} releases it when the block
 * ends, however it ends. Each holder hands out one preallocated instance (the lock is reentrant,
 * so every close releases exactly the hold its own {@code try} took): holding allocates nothing.
 */
@FunctionalInterface
public interface Held extends AutoCloseable {
    /** Releases this hold of the lock. Never throws. */
    @Override
    void close();
}
