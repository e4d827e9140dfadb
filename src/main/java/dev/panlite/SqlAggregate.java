package dev.panlite;

/**
 * An aggregate function written in Java (like {@code sum} or {@code group_concat}), registered with
 * {@link PanliteConnection#createAggregate}: one instance per group, fed each row, asked for the
 * result at the end. Runs on the thread executing the statement.
 */
public interface SqlAggregate {
    /** Takes one row's arguments: Long, Double, String, byte[] or null (SQL NULL). */
    void step(Object[] args) throws Exception;

    /** The group's result (typed as {@link SqlFunction#call} results are); also called for a group of no rows. */
    Object finish() throws Exception;
}
