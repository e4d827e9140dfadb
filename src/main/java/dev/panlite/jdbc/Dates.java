package dev.panlite.jdbc;

import dev.panlite.Config;
import dev.panlite.DateClass;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Calendar;

/**
 * Dates and times to and from SQLite values. SQLite has no date type: a value is epoch time as
 * INTEGER, a Julian day as REAL or text. Writing follows {@code date_class} (default INTEGER
 * milliseconds, as the incumbent writes, so a shared database reads the same); reading accepts all
 * three, including what SQLite's own date functions return ({@code 2024-02-29},
 * {@code 2024-02-29 12:00:00}) and ISO-8601 with {@code T} and an offset.
 */
final class Dates {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final double JULIAN_DAY_OF_EPOCH = 2440587.5;

    /** Text forms accepted on read: date, date-time with space or T, optional fraction and offset. */
    private static final DateTimeFormatter FLEXIBLE = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart()
            .optionalStart().appendLiteral('T').optionalEnd()
            .optionalStart().appendLiteral(' ').optionalEnd()
            .appendValue(ChronoField.HOUR_OF_DAY, 2).appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .optionalStart().appendLiteral(':').appendValue(ChronoField.SECOND_OF_MINUTE, 2).optionalEnd()
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HHMM", "Z").optionalEnd()
            .optionalEnd()
            .toFormatter();

    private static final DateTimeFormatter TIME_ONLY = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.HOUR_OF_DAY, 2).appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .optionalStart().appendLiteral(':').appendValue(ChronoField.SECOND_OF_MINUTE, 2).optionalEnd()
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    // milliseconds at least (the incumbent's text); more digits only when the value has them (SQLite reads any number)
    static final DateTimeFormatter LOCAL_DATE_TIME_TEXT = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss").appendFraction(ChronoField.NANO_OF_SECOND, 3, 9, true).toFormatter();
    static final DateTimeFormatter LOCAL_TIME_TEXT = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss").appendFraction(ChronoField.NANO_OF_SECOND, 3, 9, true).toFormatter();

    private final DateClass dateClass;
    private final long millisPerUnit;
    private final DateTimeFormatter textFormat;

    Dates(Config config) {
        this.dateClass = config.dateClass();
        this.millisPerUnit = config.datePrecision().millisPerUnit();
        this.textFormat = config.dateFormatter();
    }

    // ------------------------------------------------------------------ writing

    /** What to bind for a java.sql/java.util date value at epoch {@code millis}: Long, Double or String. */
    Object toSqlite(long millis, Calendar calendar) {
        return switch (dateClass) {
            case INTEGER -> Math.floorDiv(millis, millisPerUnit);
            case REAL -> millis / (double) MILLIS_PER_DAY + JULIAN_DAY_OF_EPOCH;
            case TEXT -> textFormat.withZone(zone(calendar)).format(Instant.ofEpochMilli(millis));
        };
    }

    /** java.time values are written as ISO text SQLite's date functions understand. */
    static String toText(Object temporal) {
        return switch (temporal) {
            case LocalDate d -> d.toString();
            case LocalDateTime dt -> LOCAL_DATE_TIME_TEXT.format(dt);
            case LocalTime t -> LOCAL_TIME_TEXT.format(t);
            case OffsetDateTime odt -> odt.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            case ZonedDateTime zdt -> zdt.toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            case Instant i -> DateTimeFormatter.ISO_INSTANT.format(i);
            case java.time.OffsetTime ot -> ot.format(DateTimeFormatter.ISO_OFFSET_TIME);
            default -> temporal.toString();
        };
    }

    // ------------------------------------------------------------------ reading

    /** Epoch milliseconds of an INTEGER value stored in this connection's precision. */
    long millisFromInteger(long value) {
        return value * millisPerUnit;
    }

    static long millisFromJulianDay(double julianDay) {
        return Math.round((julianDay - JULIAN_DAY_OF_EPOCH) * MILLIS_PER_DAY);
    }

    /**
     * Epoch milliseconds of a text value: the configured format, the ISO forms, a bare time
     * (on 1970-01-01), or a number (epoch time). Local date-times are in the calendar's zone.
     */
    long millisFromText(String text, Calendar calendar) throws SQLException {
        String s = text.strip();
        ZoneId zone = zone(calendar);
        try {
            TemporalAccessor parsed = FLEXIBLE.parseBest(s, OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
            return switch (parsed) {
                case OffsetDateTime odt -> odt.toInstant().toEpochMilli();
                case LocalDateTime ldt -> ldt.atZone(zone).toInstant().toEpochMilli();
                case LocalDate d -> d.atStartOfDay(zone).toInstant().toEpochMilli();
                default -> throw new DateTimeParseException("unparsed", s, 0);
            };
        } catch (DateTimeParseException notIso) {
            try {
                LocalTime time = LocalTime.from(TIME_ONLY.parse(s));
                return LocalDate.EPOCH.atTime(time).atZone(zone).toInstant().toEpochMilli();
            } catch (DateTimeParseException notTime) {
                try {
                    return Instant.from(textFormat.withZone(zone).parse(s)).toEpochMilli();
                } catch (java.time.DateTimeException notConfigured) {
                    try {
                        return millisFromInteger(Long.parseLong(s));
                    } catch (NumberFormatException notNumber) {
                        throw Errors.conversion("Cannot read '" + abbreviate(s) + "' as a date/time");
                    }
                }
            }
        }
    }

    private static ZoneId zone(Calendar calendar) {
        return calendar == null ? ZoneId.systemDefault() : calendar.getTimeZone().toZoneId();
    }

    /** A LocalDateTime from text without going through the default zone (no DST surprises). */
    static LocalDateTime localDateTimeFromText(String text) throws SQLException {
        String s = text.strip();
        try {
            TemporalAccessor parsed = FLEXIBLE.parseBest(s, OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
            return switch (parsed) {
                case OffsetDateTime odt -> odt.toLocalDateTime();
                case LocalDateTime ldt -> ldt;
                case LocalDate d -> d.atStartOfDay();
                default -> throw Errors.conversion("Cannot read '" + abbreviate(s) + "' as a date-time");
            };
        } catch (DateTimeParseException e) {
            try {
                return LocalDate.EPOCH.atTime(LocalTime.from(TIME_ONLY.parse(s)));
            } catch (DateTimeParseException notTime) {
                throw Errors.conversion("Cannot read '" + abbreviate(s) + "' as a date-time");
            }
        }
    }

    /** A Timestamp from text: an explicit offset fixes the instant; without one, the local date-time. Full fraction. */
    static Timestamp timestampFromText(String text) throws SQLException {
        TemporalAccessor parsed;
        try {
            parsed = FLEXIBLE.parseBest(text.strip(), OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
        } catch (DateTimeParseException notIso) {
            return Timestamp.valueOf(localDateTimeFromText(text)); // a bare time of day, or throws
        }
        return switch (parsed) {
            case OffsetDateTime odt -> Timestamp.from(odt.toInstant());
            case LocalDateTime ldt -> Timestamp.valueOf(ldt);
            case LocalDate d -> Timestamp.valueOf(d.atStartOfDay());
            default -> Timestamp.valueOf(localDateTimeFromText(text));
        };
    }

    static OffsetDateTime offsetDateTimeFromText(String text) throws SQLException {
        String s = text.strip();
        try {
            TemporalAccessor parsed = FLEXIBLE.parseBest(s, OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
            return switch (parsed) {
                case OffsetDateTime odt -> odt;
                case LocalDateTime ldt -> ldt.atZone(ZoneId.systemDefault()).toOffsetDateTime();
                case LocalDate d -> d.atStartOfDay(ZoneId.systemDefault()).toOffsetDateTime();
                default -> throw Errors.conversion("Cannot read '" + abbreviate(s) + "' as a date-time");
            };
        } catch (DateTimeParseException e) {
            throw Errors.conversion("Cannot read '" + abbreviate(s) + "' as a date-time with offset");
        }
    }

    static Timestamp timestamp(long millis) {
        return new Timestamp(millis);
    }

    static Time time(long millis) {
        return new Time(millis);
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
