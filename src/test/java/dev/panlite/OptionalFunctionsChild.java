package dev.panlite;

import dev.panlite.ffi.SqliteLibrary;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run in a child JVM by {@link OptionalFunctionsTest} on a library with some C functions hidden:
 * connects, runs a query, and tries each feature that needs an optional function, reporting one
 * {@code key=value} a line: {@code ok}, or the exception's class, SQLState and message.
 */
public final class OptionalFunctionsChild {
    private OptionalFunctionsChild() {}

    interface Feature {
        Object run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        report("loadError", SqliteLibrary.loadError());
        try (Connection c = new Driver().connect("jdbc:sqlite:" + args[0] + "?journal_mode=WAL", new Properties())) {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            try (Statement s = c.createStatement()) {
                s.execute("create table t(id integer primary key, b blob)");
                s.execute("insert into t values (1, x'0102')");
            }
            attempt("query", () -> {
                try (Statement s = c.createStatement(); var rs = s.executeQuery("select count(*) from t")) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
            // an EXPLAIN is read at execution into Java rows (engine.ExplainRows), found by its text when the
            // library lacks sqlite3_stmt_isexplain: the result set's class says which way it was read
            attempt("explain", () -> {
                try (var ps = c.prepareStatement("EXPLAIN SELECT b FROM t"); var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getClass().getSimpleName() + " " + rs.getString(2);
                }
            });
            attempt("windowFunction", () -> {
                p.createWindowFunction("w", 1, true, () -> new SqlWindowFunction() {
                    public void step(Object[] a) {}

                    public void inverse(Object[] a) {}

                    public Object value() {
                        return 0;
                    }
                });
                return "registered";
            });
            attempt("serialize", () -> p.serialize("main").length);
            attempt("blob", () -> {
                java.sql.Blob blob = p.openBlob("main", "t", "b", 1, false);
                try {
                    return blob.length();
                } finally {
                    blob.free(); // an open blob would keep the checkpoint below from running
                }
            });
            attempt("progressHandler", () -> {
                p.setProgressHandler(100, () -> 0);
                return "installed";
            });
            attempt("checkpoint", () -> p.checkpoint(CheckpointMode.PASSIVE));
            attempt("loadExtension", () -> {
                p.loadExtension(java.nio.file.Path.of(args[0] + "-no-such-extension.so"), null);
                return "loaded";
            });
            attempt("loadExtensionsSetting", () -> {
                Properties info = new Properties();
                info.setProperty("load_extensions", args[0] + "-no-such-extension.so");
                new Driver().connect("jdbc:sqlite:" + args[0], info).close();
                return "opened";
            });
        } catch (SQLException e) {
            report("connect", describe(e));
        }
    }

    private static void attempt(String key, Feature feature) {
        try {
            report(key, "ok " + feature.run());
        } catch (Throwable t) {
            report(key, describe(t));
        }
    }

    private static String describe(Throwable t) {
        return t.getClass().getName() + (t instanceof SQLException e ? " " + e.getSQLState() : "") + " " + t.getMessage();
    }

    private static void report(String key, String value) {
        System.out.println(key + "=" + (value == null ? "null" : value.replace("\\", "\\\\").replace("\n", "\\n")));
    }
}
