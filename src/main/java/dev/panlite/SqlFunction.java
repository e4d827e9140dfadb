package dev.panlite;

/**
 * A scalar function written in Java and called from SQL, registered on a connection with
 * {@link PanliteConnection#createFunction}. It runs on the thread executing the statement.
 */
@FunctionalInterface
public interface SqlFunction {
    /**
     * Computes the function's value.
     *
     * @param args the SQL arguments as Long, Double, String, byte[] or null (SQL NULL)
     * @return a Long/Integer/Short/Byte/Boolean (INTEGER), Double/Float (REAL), byte[] (BLOB),
     *     float[] (a float32 vector: the blob of 4 little-endian bytes per element that
     *     {@code setObject} binds for one, read by sqlite-vec; a NaN in it fails the statement, as a
     *     bound one is refused), null (NULL) or anything else as its {@code toString()} text
     * @throws Exception any exception fails the SQL statement with its message
     */
    Object call(Object[] args) throws Exception;
}
