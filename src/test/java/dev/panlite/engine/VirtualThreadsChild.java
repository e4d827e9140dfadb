package dev.panlite.engine;

import dev.panlite.Driver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run by {@code ContentionTest} in a JVM with one carrier thread for virtual threads: a virtual
 * thread holds the write gate of the file in {@code args[0]} (in a transaction) while 8 virtual
 * writers queue for it and 4 virtual readers keep reading. The readers must make progress and the
 * holder must get the carrier back to commit; a waiter sleeping inside SQLite would pin the only
 * carrier until its busy_timeout ran out. Prints "done" when every writer committed.
 */
public final class VirtualThreadsChild {
    static final int WRITERS = 8;

    public static void main(String[] args) throws Exception {
        String url = "jdbc:sqlite:" + args[0] + "?busy_timeout=600000";
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofVirtual().start(() -> {
            try (Connection c = new Driver().connect(url, new Properties())) {
                c.setAutoCommit(false);
                insert(c, "holder");
                holding.countDown();
                release.await();
                c.commit();
            } catch (Throwable t) {
                failures.add(t);
                holding.countDown();
            }
        });
        holding.await();
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            String v = "w" + i;
            writers.add(Thread.ofVirtual().start(() -> {
                try (Connection c = new Driver().connect(url, new Properties())) {
                    insert(c, v);
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        WriteGate gate = WriteGate.forFile(args[0]);
        try {
            while (gate.queued() < WRITERS && failures.isEmpty()) {
                Thread.sleep(1);
            }
        } finally {
            gate.unref();
        }
        AtomicLong reads = new AtomicLong();
        CountDownLatch readersDone = new CountDownLatch(4);
        for (int r = 0; r < 4; r++) {
            Thread.ofVirtual().start(() -> {
                try (Connection c = new Driver().connect(url, new Properties());
                        PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM t")) {
                    for (int k = 0; k < 200; k++) {
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            reads.incrementAndGet();
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                } finally {
                    readersDone.countDown();
                }
            });
        }
        readersDone.await(); // readers ran to the end while every writer waited on the single carrier
        release.countDown();
        holder.join();
        for (Thread w : writers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            for (Throwable t : failures) {
                t.printStackTrace(System.out);
            }
            System.exit(1);
        }
        System.out.println("reads=" + reads.get());
        dev.panlite.ChildJvm.reportEngine(System.out);
        System.out.println("done");
    }

    private static void insert(Connection c, String v) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            ps.setString(1, v);
            ps.executeUpdate();
        }
    }
}
