/** Panlite: a JDBC driver for SQLite on the foreign-function and memory API. */
module dev.panlite {
    requires transitive java.sql;
    requires jdk.jfr; // the dev.panlite.LockWait and dev.panlite.Statement events

    exports dev.panlite;

    provides java.sql.Driver with dev.panlite.Driver;
}
