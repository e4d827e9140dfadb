package dev.panlite;

/** Told after each step of {@link PanliteConnection#backup} or {@link PanliteConnection#restore}. */
@FunctionalInterface
public interface BackupProgress {
    /**
     * @param remaining pages still to copy (0 at the end)
     * @param pageCount pages of the source database in all
     */
    void progress(int remaining, int pageCount);
}
