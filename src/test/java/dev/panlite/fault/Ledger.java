package dev.panlite.fault;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a workload committed, as the driver told it: every commit inserts its rows into table
 * {@code ledger} under its own id, is begun before it is tried and acknowledged once the driver
 * returned. After a fault, the file must hold every acknowledged commit whole, no other commit in
 * part, and no rows of a commit that could never be (a savepoint rolled back).
 */
public final class Ledger {
    /** The ledger table (each workload may have more of its own). */
    public static final String SCHEMA = "CREATE TABLE IF NOT EXISTS ledger(commit_id INTEGER NOT NULL,"
            + " seq INTEGER NOT NULL, payload, PRIMARY KEY (commit_id, seq))";

    /** One commit: its rows, and what the driver said of it. */
    static final class Commit {
        final int id;
        final int rows;
        final boolean never; // rolled back on purpose: none of its rows may ever be there
        boolean acked;
        boolean byRetry; // acknowledged by a commit() run again after the first one failed

        Commit(int id, int rows, boolean never) {
            this.id = id;
            this.rows = rows;
            this.never = never;
        }
    }

    private final Map<Integer, Commit> commits = new LinkedHashMap<>();
    private int next = 1;

    /** A copy, to run a point from the state the setup left. */
    public Ledger copy() {
        Ledger c = new Ledger();
        commits.forEach((id, commit) -> {
            Commit k = new Commit(commit.id, commit.rows, commit.never);
            k.acked = commit.acked;
            k.byRetry = commit.byRetry;
            c.commits.put(id, k);
        });
        c.next = next;
        return c;
    }

    /** A new commit of {@code rows} rows, before it is tried; its id. */
    public int begin(int rows) {
        int id = next++;
        commits.put(id, new Commit(id, rows, false));
        return id;
    }

    /** Rows under a new id that are rolled back on purpose (a savepoint): they must never be there. */
    public int never(int rows) {
        int id = next++;
        commits.put(id, new Commit(id, rows, true));
        return id;
    }

    /** The driver returned from the commit of {@code id}. */
    public void ack(int id) {
        commits.get(id).acked = true;
    }

    /** A commit() run again after the one of {@code id} failed returned normally: the driver says it is committed. */
    public void ackByRetry(int id) {
        Commit k = commits.get(id);
        k.acked = true;
        k.byRetry = true;
    }

    /** Whether {@code id} was acknowledged. */
    public boolean acked(int id) {
        return commits.get(id).acked;
    }

    /** Inserts the rows of commit {@code id} (payload {@code payload} for each), without committing. */
    public static void insertRows(Connection c, int id, int rows, Object payload) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger(commit_id, seq, payload) VALUES (?, ?, ?)")) {
            for (int seq = 0; seq < rows; seq++) {
                ps.setInt(1, id);
                ps.setInt(2, seq);
                ps.setObject(3, payload);
                ps.executeUpdate();
            }
        }
    }

    /** Rows per commit id in the file; empty when the table is missing. */
    public static Map<Integer, Integer> rowsInFile(Connection c) throws SQLException {
        Map<Integer, Integer> found = new LinkedHashMap<>();
        try (Statement s = c.createStatement()) {
            try (ResultSet t = s.executeQuery("SELECT count(*) FROM sqlite_schema WHERE name = 'ledger'")) {
                t.next();
                if (t.getInt(1) == 0) {
                    return found;
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT commit_id, count(*) FROM ledger GROUP BY commit_id ORDER BY 1")) {
                while (rs.next()) {
                    found.put(rs.getInt(1), rs.getInt(2));
                }
            }
        }
        return found;
    }

    /** What is wrong; {@code dropped}: acknowledged commits missing from the end, as a prefix allows. */
    public record Problems(List<String> lost, List<String> corrupt, int dropped) {
        public boolean none() {
            return lost.isEmpty() && corrupt.isEmpty();
        }
    }

    /**
     * Compares the file's rows with this ledger. {@code prefixOnly}: after a power cut with
     * synchronous=NORMAL, acknowledged commits may be missing, but only from the end (the file holds
     * a prefix of the commits).
     */
    public Problems check(Map<Integer, Integer> found, boolean prefixOnly) {
        List<String> lost = new ArrayList<>();
        List<String> corrupt = new ArrayList<>();
        int firstMissing = -1;
        int dropped = 0;
        for (Commit k : commits.values()) {
            int n = found.getOrDefault(k.id, 0);
            if (k.never) {
                if (n != 0) {
                    corrupt.add("commit " + k.id + " was rolled back on purpose, yet " + n + " of its rows are there");
                }
            } else if (n != 0 && n != k.rows) {
                corrupt.add("commit " + k.id + (k.acked ? " (acknowledged)" : " (failed)") + " is there in part: "
                        + n + " of " + k.rows + " rows");
            } else if (n == 0 && k.acked && k.rows > 0) {
                if (!prefixOnly) {
                    lost.add("acknowledged commit " + k.id + (k.byRetry ? " (acknowledged by a retried commit())" : "")
                            + " is missing");
                } else {
                    dropped++;
                    if (firstMissing < 0) {
                        firstMissing = k.id;
                    }
                }
            } else if (n == k.rows && prefixOnly && firstMissing >= 0 && k.rows > 0) {
                lost.add("commit " + k.id + " is there but acknowledged commit " + firstMissing
                        + " before it is not: not a prefix");
            }
        }
        for (Integer id : found.keySet()) {
            if (!commits.containsKey(id)) {
                corrupt.add("rows of a commit never tried: " + id);
            }
        }
        return new Problems(lost, corrupt, dropped);
    }
}
