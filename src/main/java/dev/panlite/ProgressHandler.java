package dev.panlite;

/**
 * Called every N virtual machine instructions while a statement of the connection runs
 * ({@link PanliteConnection#setProgressHandler}, the incumbent's {@code org.sqlite.ProgressHandler}):
 * a long query reports progress or is stopped. Runs on the thread executing the statement.
 */
@FunctionalInterface
public interface ProgressHandler {
    /**
     * @return 0 to go on; anything else interrupts the running statement, which fails with
     *     SQLITE_INTERRUPT. An exception interrupts it too.
     */
    int progress() throws Exception;
}
