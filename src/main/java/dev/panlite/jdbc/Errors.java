package dev.panlite.jdbc;

import dev.panlite.engine.SqlState;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientException;

/** Driver-side failures (misuse, bad arguments), with SQLStates from the JDBC/ISO tables. */
final class Errors {
    private Errors() {}

    static SQLException closed(String what) {
        return new SQLNonTransientException("The " + what + " is closed", SqlState.FUNCTION_SEQUENCE_ERROR);
    }

    /** 08003 "connection does not exist": class 08 is what pools (HikariCP) and PooledConnection events read as a dead connection. */
    static SQLException connectionClosed() {
        return new java.sql.SQLNonTransientConnectionException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST);
    }

    static SQLException badArgument(String message) {
        return new SQLNonTransientException(message, SqlState.INVALID_ATTRIBUTE_VALUE);
    }

    static SQLException badIndex(String message) {
        return new SQLNonTransientException(message, SqlState.INVALID_DESCRIPTOR_INDEX);
    }

    /** A statement (or its result set) used or closed by a callback that runs inside that statement's own SQL. */
    static SQLException runningInCallback() {
        return badState("This statement is running the SQL that called the current callback (function, collation, "
                + "hook): it cannot be used or closed from inside that callback");
    }

    static SQLException badState(String message) {
        return new SQLNonTransientException(message, SqlState.FUNCTION_SEQUENCE_ERROR);
    }

    static SQLException conversion(String message) {
        return new java.sql.SQLDataException(message, SqlState.INVALID_CHARACTER_VALUE_FOR_CAST);
    }

    /**
     * SQLState HYC00, SQL/CLI's "optional feature not implemented", not 0A000: HikariCP (and pools
     * that copy its rules) takes 0A000 for a dead connection and evicts it.
     */

    static SQLFeatureNotSupportedException notSupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by SQLite/Panlite", SqlState.FEATURE_NOT_SUPPORTED);
    }

    /** JDBC unwrap for driver objects, which wrap nothing: themselves, or an SQLException. */
    static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
        if (iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw badArgument("Not a wrapper for " + iface.getName());
    }

    static SQLException wrap(String message, Throwable cause) {
        return new SQLException(message + ": " + cause.getMessage(), SqlState.GENERAL_ERROR, cause);
    }
}
