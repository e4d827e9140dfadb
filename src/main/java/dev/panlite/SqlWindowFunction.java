package dev.panlite;

/**
 * An aggregate window function written in Java, registered with
 * {@link PanliteConnection#createWindowFunction}: usable as {@code f(x) OVER (...)} with any frame,
 * and as a plain aggregate. One instance per partition (or group). SQLite feeds rows in with
 * {@link #step}, takes them out again with {@link #inverse} as the frame slides, asks for the
 * current frame's result with {@link #value} and ends with {@link #finish}.
 */
public interface SqlWindowFunction extends SqlAggregate {
    /** Removes the oldest row still stepped in (its arguments, as {@link #step} got them) from the frame. */
    void inverse(Object[] args) throws Exception;

    /** The result for the current frame; the instance goes on being used. */
    Object value() throws Exception;

    /** The result at the end; by default the current {@link #value()}. */
    @Override
    default Object finish() throws Exception {
        return value();
    }
}
