package dev.panlite.engine;

import dev.panlite.ffi.ChangeHooks;
import dev.panlite.ffi.ProgressHandlers;
import dev.panlite.ffi.SqlFunctions;
import dev.panlite.ffi.WindowFunctions;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.function.Supplier;

/**
 * Java code that SQLite calls back on one connection: functions, aggregates, window functions,
 * collations, change hooks and the progress handler. Registration only; how each call crosses back
 * into Java, and what a callback may do there, is {@code ffi.Callbacks}'. Every method runs with the
 * connection's lock held.
 */
public final class UserCode {
    private final Database database;

    UserCode(Database database) {
        this.database = database;
    }

    /** Registers a Java function callable from SQL. */
    public void createFunction(String name, int nArgs, boolean deterministic, SqlFunctions.Body body)
            throws SQLException {
        check(database.scratch().createFunction(database.handle(), name, nArgs, deterministic, body));
    }

    /** Registers a Java aggregate function callable from SQL. */
    public void createAggregate(String name, int nArgs, boolean deterministic,
            Supplier<? extends SqlFunctions.Accumulator> factory) throws SQLException {
        check(database.scratch().createAggregate(database.handle(), name, nArgs, deterministic, factory));
    }

    /** Registers an aggregate window function (step, inverse, value, finish). */
    public void createWindowFunction(String name, int nArgs, boolean deterministic,
            Supplier<? extends WindowFunctions.Accumulator> factory) throws SQLException {
        LibraryFunctions.require("sqlite3_create_window_function", "createWindowFunction");
        check(database.scratch().createWindowFunction(database.handle(), name, nArgs, deterministic, factory));
    }

    /** Registers a collation (a Java comparator of texts). */
    public void createCollation(String name, Comparator<String> order) throws SQLException {
        check(database.scratch().createCollation(database.handle(), name, order));
    }

    /** Installs (non-null) or removes (null) the change hooks. */
    public void setChangeHooks(ChangeHooks.Receiver receiver) {
        assert database.isLockedByMe();
        if (receiver != null) {
            database.scratch().installHooks(database.handle(), receiver);
        } else {
            dev.panlite.ffi.Scratch.removeHooks(database.handle());
        }
    }

    /** Installs (null: removes) the progress handler, run every {@code instructions} VM steps. */
    public void setProgressHandler(int instructions, ProgressHandlers.Handler handler) throws SQLException {
        LibraryFunctions.require("sqlite3_progress_handler", "setProgressHandler");
        database.scratch().setProgressHandler(database.handle(), instructions, handler);
    }

    private void check(int rc) throws SQLException {
        if (rc != dev.panlite.ffi.Sqlite.OK) {
            throw database.error(rc, null, ResultCodes.Phase.EXECUTE);
        }
    }
}
