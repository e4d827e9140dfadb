/** Panlite: a JDBC driver for SQLite on the foreign-function and memory API. */
module dev.panlite {
    requires transitive java.sql;
    // the dev.panlite.LockWait and dev.panlite.Statement events, where the runtime has jdk.jfr (a slim
    // jlink image may not): engine.JfrEvents checks before any event class loads
    requires static jdk.jfr;

    exports dev.panlite;

    provides java.sql.Driver with dev.panlite.Driver;
}
