package dev.panlite.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/** A JDBC savepoint: an SQLite SAVEPOINT with a quoted name, valid until released or rolled past. */
final class JdbcSavepoint implements Savepoint {
    private final int id;
    private final String name; // null for an unnamed savepoint
    final JdbcConnection owner;
    final long transaction; // Database.transactionNumber() when set: valid only inside that transaction

    JdbcSavepoint(JdbcConnection owner, int id, String name, long transaction) {
        this.owner = owner;
        this.id = id;
        this.name = name;
        this.transaction = transaction;
    }

    /** The identifier used in SQL, quoted so any user-supplied name is safe. */
    String sqlName() {
        String raw = name != null ? name : "panlite_sp_" + id;
        return '"' + raw.replace("\"", "\"\"") + '"';
    }

    @Override
    public int getSavepointId() throws SQLException {
        if (name != null) {
            throw Errors.badState("A named savepoint has no id");
        }
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (name == null) {
            throw Errors.badState("An unnamed savepoint has no name");
        }
        return name;
    }

    @Override
    public String toString() {
        return name != null ? name : "savepoint " + id;
    }
}
