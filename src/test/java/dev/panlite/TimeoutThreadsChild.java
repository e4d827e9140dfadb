package dev.panlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Run in a fresh child JVM by {@link TimeoutTest}: runs 1000 statements without a query timeout
 * (then, with argument {@code timed}, one with a timeout) and prints the names of the live threads
 * that appeared meanwhile, one {@code thread=name} a line, then {@code done}.
 */
public final class TimeoutThreadsChild {
    private TimeoutThreadsChild() {}

    public static void main(String[] args) throws Exception {
        boolean timed = args.length > 0 && args[0].equals("timed");
        Set<Thread> before;
        try (Connection c = new Driver().connect("jdbc:sqlite::memory:", new Properties())) {
            before = Set.copyOf(Thread.getAllStackTraces().keySet());
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t(v)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?)");
                 PreparedStatement select = c.prepareStatement("SELECT count(*) FROM t WHERE v < ?");
                 Statement s = c.createStatement()) {
                for (int i = 0; i < 1000; i++) {
                    insert.setInt(1, i);
                    insert.executeUpdate();
                    select.setInt(1, i);
                    try (ResultSet rs = select.executeQuery()) {
                        rs.next();
                    }
                    try (ResultSet rs = s.executeQuery("SELECT max(v) FROM t")) {
                        rs.next();
                    }
                    s.execute("UPDATE t SET v = v WHERE v = " + i);
                }
                if (timed) {
                    s.setQueryTimeout(5);
                    try (ResultSet rs = s.executeQuery("SELECT 1")) {
                        rs.next();
                    }
                }
            }
        }
        Set<String> appeared = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t) && t.isAlive()) {
                appeared.add(t.getName());
            }
        }
        for (String name : appeared) {
            System.out.println("thread=" + name);
        }
        ChildJvm.reportEngine(System.out);
        System.out.println("done");
    }
}
