package dev.panlite;

/**
 * Implemented by every SQLException Panlite raises for an SQLite result code. {@code getErrorCode()}
 * gives the primary result code (what Spring and Hibernate read); this interface gives the
 * extended one: {@code if (e instanceof SqliteError s) s.extendedCode()}.
 */
public interface SqliteError {
    /** SQLite's extended result code, e.g. 2067 (SQLITE_CONSTRAINT_UNIQUE). */
    int extendedCode();

    /** The symbolic name of {@link #extendedCode()}, e.g. "SQLITE_CONSTRAINT_UNIQUE". */
    String codeName();
}
