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
 *
 * <p>Before that, while the window is open, a connection opens with the README's URL
 * ({@code journal_mode=WAL} on a file already in WAL mode: a setting that writes nothing) and must
 * not take the gate, so not wait in the window either: prints "opened", or "open waited in the
 * window" (issue 27: opening queued for the gate).
 */
public final class GateWindowChild {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + args[0];
        try (Connection setup = new Driver().connect(url + "?journal_mode=WAL", new Properties())) {
            setup.createStatement().close(); // the file is in WAL mode now; its gate goes with the last connection
        }
        try (Connection first = new Driver().connect(url, new Properties());
                Statement s = first.createStatement()) {
            s.executeUpdate("CREATE TABLE IF NOT EXISTS w(x)"); // the gate was taken for over 1 us: a window opens
            Connection[] opened = new Connection[1];
            Thread opener = Thread.ofPlatform().start(() -> {
                try {
                    opened[0] = new Driver().connect(url + "?journal_mode=WAL", new Properties());
                } catch (Throwable e) {
                    e.printStackTrace(System.out);
                }
            });
            while (!(LockSupport.getBlocker(opener) instanceof GateWindow) && opener.isAlive()) {
                Thread.onSpinWait();
            }
            if (opener.isAlive()) {
                System.out.println("open waited in the window");
                opener.interrupt();
            }
            opener.join();
            if (opened[0] == null) {
                return;
            }
            System.out.println("opened");
            try (Connection second = opened[0]) {
                runLateWriter(s, second);
            }
        }
    }

    /** The next writer waits in the window until interrupted, then writes. */
    private static void runLateWriter(Statement s, Connection second) throws Exception {
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
