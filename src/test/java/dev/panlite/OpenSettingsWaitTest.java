package dev.panlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A setting applied as a PRAGMA when a connection opens waits, up to busy_timeout, for a lock that
 * keeps SQLite from reading the schema, as any statement does: it failed at once with SQLITE_BUSY
 * before (seen on LiteFS, where opening connections met SQLITE_BUSY_RECOVERY while preparing
 * {@code PRAGMA journal_mode = WAL}). Here the lock is an EXCLUSIVE transaction of another
 * connection on a rollback-journal database (outside the write gate, like another process).
 */
class OpenSettingsWaitTest {
    @TempDir
    Path dir;

    @Test
    void anOpeningConnectionsPragmaWaitsForTheSchemaLock() throws Exception {
        String file = dir.resolve("locked.db").toString();
        try (Connection holder = DriverManager.getConnection("jdbc:sqlite:" + file + "?journal_mode=DELETE");
             Statement s = holder.createStatement()) {
            s.execute("create table t(x)");
            s.execute("begin exclusive"); // no other connection can read the schema now
            s.execute("insert into t values (1)");
            Thread[] opener = new Thread[1];
            CompletableFuture<String> opened = CompletableFuture.supplyAsync(() -> {
                opener[0] = Thread.currentThread();
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file + "?busy_timeout=60000&cache_size=-4000");
                     Statement q = c.createStatement(); var rs = q.executeQuery("select count(*) from t")) {
                    rs.next();
                    return "count " + rs.getInt(1);
                } catch (Exception e) {
                    return e.toString();
                }
            });
            // the signal: the opener parks in the busy wait (or has already failed, without the fix)
            while (!opened.isDone() && (opener[0] == null || opener[0].getState() != Thread.State.TIMED_WAITING)) {
                Thread.onSpinWait();
            }
            assertTrue(!opened.isDone(), () -> "the opening connection did not wait: " + opened.join());
            s.execute("commit");
            assertEquals("count 1", opened.get(60, TimeUnit.SECONDS));
        }
    }
}
