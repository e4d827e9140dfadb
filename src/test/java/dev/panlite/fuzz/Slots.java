package dev.panlite.fuzz;

import java.util.Random;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A small fixed array of shared objects that every fuzz thread picks from and drops into at random:
 * the point is that threads get each other's connections, statements and result sets.
 */
final class Slots<T> {
    private final AtomicReferenceArray<T> items;

    Slots(int size) {
        items = new AtomicReferenceArray<>(size);
    }

    /** A random slot's object, possibly null (an empty slot). */
    T pick(Random r) {
        return items.get(r.nextInt(items.length()));
    }

    /** Puts {@code item} in a random slot, returning whatever it pushed out (not closed: misuse too). */
    T put(Random r, T item) {
        return items.getAndSet(r.nextInt(items.length()), item);
    }

    /** Empties a random slot, returning its object. */
    T take(Random r) {
        return items.getAndSet(r.nextInt(items.length()), null);
    }

    int size() {
        return items.length();
    }

    T get(int i) {
        return items.get(i);
    }
}
