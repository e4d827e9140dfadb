package dev.panlite;

/** Unit of dates stored as INTEGER (setting {@code date_precision}). */
public enum DatePrecision {
    /** Milliseconds since the Unix epoch, as {@code java.util.Date#getTime()}. */
    MILLISECONDS(1),
    /** Seconds since the Unix epoch, as SQLite's {@code unixepoch()} and {@code strftime('%s')}. */
    SECONDS(1000);

    private final long millisPerUnit;

    DatePrecision(long millisPerUnit) {
        this.millisPerUnit = millisPerUnit;
    }

    /** Milliseconds in one stored unit: 1 or 1000. */
    public long millisPerUnit() {
        return millisPerUnit;
    }
}
