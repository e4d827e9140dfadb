package dev.panlite.engine;

/**
 * The SQLStates the driver reports, each named once (SQL:2016 and the ODBC "HY" codes, as JDBC uses
 * them). The class decides what a pool does: only {@link #CONNECTION_DOES_NOT_EXIST} and the other
 * class 08 states make a pool evict the connection.
 */
public final class SqlState {
    private SqlState() {}

    /** 01S02: an option value was changed (a setting the driver could not honour exactly). */
    public static final String OPTION_VALUE_CHANGED = "01S02";
    /** 07009: a column or parameter index out of range. */
    public static final String INVALID_DESCRIPTOR_INDEX = "07009";
    /** 08001: the database could not be opened. */
    public static final String UNABLE_TO_CONNECT = "08001";
    /** 08003: the connection is closed. */
    public static final String CONNECTION_DOES_NOT_EXIST = "08003";
    /** 08006: the connection failed (a peer went away). */
    public static final String CONNECTION_FAILURE = "08006";
    /** 22001: a string or blob too big. */
    public static final String STRING_DATA_RIGHT_TRUNCATION = "22001";
    /** 22005: a value of the wrong type for its column (SQLITE_MISMATCH). */
    public static final String ERROR_IN_ASSIGNMENT = "22005";
    /** 22018: a value that cannot be converted to the type asked for. */
    public static final String INVALID_CHARACTER_VALUE_FOR_CAST = "22018";
    /** 23000: a constraint failed (no more precise class). */
    public static final String INTEGRITY_CONSTRAINT_VIOLATION = "23000";
    /** 23502: NOT NULL. */
    public static final String NOT_NULL_VIOLATION = "23502";
    /** 23503: FOREIGN KEY. */
    public static final String FOREIGN_KEY_VIOLATION = "23503";
    /** 23505: UNIQUE or PRIMARY KEY. */
    public static final String UNIQUE_VIOLATION = "23505";
    /** 23514: CHECK. */
    public static final String CHECK_VIOLATION = "23514";
    /** 24000: a cursor in the wrong state. */
    public static final String INVALID_CURSOR_STATE = "24000";
    /** 25006: a write in a read-only transaction or database. */
    public static final String READ_ONLY_SQL_TRANSACTION = "25006";
    /** 40000: the transaction was rolled back (by SQLite, after an error): nothing of it is committed. */
    public static final String TRANSACTION_ROLLBACK = "40000";
    /** 40001: busy or locked: the transaction may succeed when retried. */
    public static final String SERIALIZATION_FAILURE = "40001";
    /** 42000: a syntax error or an access rule. */
    public static final String SYNTAX_ERROR_OR_ACCESS_RULE = "42000";
    /** 42501: not authorized. */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    /** 53100: the disk is full. */
    public static final String DISK_FULL = "53100";
    /** 53200: out of memory. */
    public static final String OUT_OF_MEMORY = "53200";
    /** 57014: the statement was cancelled (interrupt). */
    public static final String QUERY_CANCELED = "57014";
    /** 58030: an I/O error. */
    public static final String IO_ERROR = "58030";
    /** HY000: a general error. */
    public static final String GENERAL_ERROR = "HY000";
    /** HY010: a function called out of sequence. */
    public static final String FUNCTION_SEQUENCE_ERROR = "HY010";
    /** HY024: an invalid attribute value. */
    public static final String INVALID_ATTRIBUTE_VALUE = "HY024";
    /** HY092: an invalid attribute or option identifier. */
    public static final String INVALID_OPTION = "HY092";
    /** HYC00: an optional feature not implemented. */
    public static final String FEATURE_NOT_SUPPORTED = "HYC00";
    /** HYT00: a timeout expired. */
    public static final String TIMEOUT_EXPIRED = "HYT00";
    /** 54011: too many columns (a program limit exceeded). */
    public static final String TOO_MANY_COLUMNS = "54011";
    /** XX001: the database file is corrupt. */
    public static final String DATA_CORRUPTED = "XX001";
}
