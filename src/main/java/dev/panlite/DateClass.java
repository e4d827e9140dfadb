package dev.panlite;

/** How {@code java.sql.Date}, {@code Time} and {@code Timestamp} values are stored (setting {@code date_class}). */
public enum DateClass {
    /** Time since the Unix epoch, in {@link DatePrecision} units. */
    INTEGER,
    /** Text in the {@code date_string_format} pattern. */
    TEXT,
    /** Julian day number, as SQLite's {@code julianday()}. */
    REAL
}
