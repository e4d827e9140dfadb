package dev.panlite.engine;

import dev.panlite.Driver;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

/**
 * Run by {@link OtherProcessesTest} in a JVM with {@code -Dpanlite.writeGate.window=always} and a
 * window of 10 minutes after 1 us of back-to-back use: creating a table takes and releases the
 * gate, which opens a window; the next writer must then wait in it, holding the gate but not SQLite's lock
 * (prints "window" once it parks there), until an interrupt ends the wait and its write goes
 * through (prints "done"). Prints "no window" if the second write finished without waiting.
 */
public final class GateWindowChild {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + args[0];
        // opened before any write: a setting that writes (journal_mode) would itself wait in the window
        try (Connection first = new Driver().connect(url, new Properties());
                Connection second = new Driver().connect(url, new Properties());
                Statement s = first.createStatement()) {
            s.executeUpdate("CREATE TABLE IF NOT EXISTS w(x)"); // the gate was taken for over 1 us: a window opens
            Throwable[] failure = new Throwable[1];
            Thread late = Thread.ofPlatform().start(() -> {
                try (Statement t = second.createStatement()) {
                    t.executeUpdate("INSERT INTO w VALUES (2)");
                } catch (Throwable e) {
                    failure[0] = e;
                }
            });
            while (!(LockSupport.getBlocker(late) instanceof GateWindow) && late.isAlive()) {
                Thread.onSpinWait();
            }
            if (!late.isAlive()) {
                System.out.println("no window");
                return;
            }
            System.out.println("window");
            late.interrupt(); // ends the wait in the window; the write goes on
            late.join();
            if (failure[0] != null) {
                failure[0].printStackTrace(System.out);
                return;
            }
            try (var rs = s.executeQuery("SELECT count(*) FROM w")) {
                rs.next();
                System.out.println(rs.getInt(1) == 1 ? "done" : "lost a row");
            }
        }
    }
}
