package dev.panlite.fault;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a sweep runs at every fault point: a setup run once without faults (its commits are the
 * ledger's start), then the work, whose every commit goes through the {@link Ledger}, and checks
 * of its own beyond the ledger's. The work keeps the connection it uses in {@link Session#connection},
 * which the sweep examines after the fault.
 */
public record Workload(String name, Setup setup, Work work, Check check, boolean walOnly, boolean pooled,
                       boolean power) {

    /** Creates what the work starts from; no fault is armed. {@code c} is null for a workload that opens itself. */
    public interface Setup {
        void run(Connection c, Ledger ledger, Target target, Path dir) throws Exception;
    }

    public interface Work {
        void run(Session s) throws Exception;
    }

    /** Problems of the workload's own in the reopened file ("lost: ..." for what was acknowledged and is gone). */
    public interface Check {
        List<String> run(Connection fresh, Session s) throws Exception;
    }

    private static final Check NOTHING = (c, s) -> List.of();

    /** Every workload of the sweeps. */
    public static List<Workload> all() {
        return List.of(
                new Workload("open-schema", null, Workload::openSchema, Workload::schemaThere, false, false, false),
                new Workload("autocommit-inserts", Workload::ledgerOnly, Workload::autocommitInserts, NOTHING, false, false, true),
                new Workload("savepoints", Workload::ledgerOnly, Workload::savepoints, NOTHING, false, false, true),
                new Workload("batch", Workload::ledgerOnly, Workload::batch, NOTHING, false, false, true),
                new Workload("read-ahead", Workload::manyRows, Workload::readAhead, NOTHING, false, false, false),
                new Workload("blob", Workload::ledgerOnly, Workload::blob, NOTHING, false, false, true),
                new Workload("checkpoints", Workload::ledgerOnly, Workload::checkpoints, NOTHING, true, false, true),
                new Workload("backup-restore", Workload::backupSource, Workload::backupRestore, Workload::restored, false, false, false),
                new Workload("vacuum", Workload::vacuumSource, Workload::vacuum, Workload::vacuumed, false, false, true),
                new Workload("schema-change", Workload::ledgerOnly, Workload::schemaChange, Workload::columnThere, false, false, false),
                new Workload("hikari", Workload::ledgerOnly, Workload::hikari, NOTHING, false, true, false));
    }

    /** The workload named {@code name}. */
    public static Workload named(String name) {
        return all().stream().filter(w -> w.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no workload " + name));
    }

    // ------------------------------------------------------------------ helpers

    static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        }
    }

    /** One auto-commit insert of one row: a commit. */
    private static void autocommitRow(Session s, Connection c, Object payload) throws SQLException {
        int id = s.ledger.begin(1);
        Ledger.insertRows(c, id, 1, payload);
        s.ledger.ack(id);
    }

    /** Inserts rows [from, from + n) of commit {@code id} inside the open transaction. */
    private static void rows(Session s, Connection c, int id, int from, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger(commit_id, seq, payload) VALUES (?, ?, ?)")) {
            for (int seq = from; seq < from + n; seq++) {
                ps.setInt(1, id);
                ps.setInt(2, seq);
                ps.setString(3, "row " + id + "." + seq);
                ps.executeUpdate();
                s.inTransaction = !c.getAutoCommit();
            }
        }
    }

    /** A transaction's commit {@code id}, to build. */
    private static int begin(Session s, int rows) {
        s.current = s.ledger.begin(rows);
        return s.current;
    }

    private static void commit(Session s, Connection c, int id) throws SQLException {
        s.committing = true;
        c.commit();
        s.committing = false;
        s.inTransaction = false;
        s.current = -1;
        s.ledger.ack(id);
    }

    private static byte[] blobOf(int id, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + id);
        }
        return b;
    }

    // ------------------------------------------------------------------ setups

    private static void ledgerOnly(Connection c, Ledger ledger, Target target, Path dir) throws SQLException {
        exec(c, Ledger.SCHEMA);
        int id = ledger.begin(3);
        Ledger.insertRows(c, id, 3, "setup");
        ledger.ack(id);
    }

    private static final int MANY = 600;

    private static void manyRows(Connection c, Ledger ledger, Target target, Path dir) throws SQLException {
        exec(c, Ledger.SCHEMA);
        c.setAutoCommit(false);
        int id = ledger.begin(MANY);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger(commit_id, seq, payload) VALUES (?, ?, ?)")) {
            for (int seq = 0; seq < MANY; seq++) {
                ps.setInt(1, id);
                ps.setInt(2, seq);
                ps.setString(3, "row " + seq + " " + "x".repeat(seq % 50));
                ps.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(true);
        ledger.ack(id);
    }

    /** The restore's source: the setup's commits plus a table {@code extra} of 50 rows. */
    static final String RESTORE_SOURCE = "restore-source.db";

    private static void backupSource(Connection c, Ledger ledger, Target target, Path dir) throws SQLException {
        ledgerOnly(c, ledger, target, dir);
        Path source = dir.resolve(RESTORE_SOURCE);
        target.backup(c, source);
        try (Connection b = target.connect("jdbc:sqlite:" + source)) {
            exec(b, "CREATE TABLE extra(x)", "INSERT INTO extra SELECT value FROM generate_series(1, 50)");
        } catch (SQLException noSeries) { // an engine without generate_series
            try (Connection b = target.connect("jdbc:sqlite:" + source)) {
                exec(b, "CREATE TABLE IF NOT EXISTS extra(x)", "DELETE FROM extra",
                        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)"
                                + " INSERT INTO extra SELECT i FROM n");
            }
        }
    }

    private static void vacuumSource(Connection c, Ledger ledger, Target target, Path dir) throws SQLException {
        ledgerOnly(c, ledger, target, dir);
        exec(c, "CREATE TABLE junk(x)",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
                        + " INSERT INTO junk SELECT randomblob(300) FROM n",
                "DELETE FROM junk WHERE rowid % 3 <> 0");
    }

    // ------------------------------------------------------------------ works

    private static void openSchema(Session s) throws SQLException {
        Connection c = s.open();
        exec(c, Ledger.SCHEMA);
        s.schemaAcked = true;
        autocommitRow(s, c, "first");
    }

    private static List<String> schemaThere(Connection fresh, Session s) throws SQLException {
        if (!s.schemaAcked) {
            return List.of();
        }
        try (Statement st = fresh.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_schema WHERE name = 'ledger'")) {
            rs.next();
            return rs.getInt(1) == 1 ? List.of() : List.of("lost: the acknowledged CREATE TABLE ledger is missing");
        }
    }

    private static void autocommitInserts(Session s) throws SQLException {
        Connection c = s.open();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger(commit_id, seq, payload) VALUES (?, 0, ?)")) {
            for (int i = 0; i < 8; i++) {
                int id = s.ledger.begin(1);
                ps.setInt(1, id);
                ps.setString(2, "auto " + i);
                ps.executeUpdate();
                s.ledger.ack(id);
            }
        }
    }

    private static void savepoints(Session s) throws SQLException {
        Connection c = s.open();
        c.setAutoCommit(false);
        for (int t = 0; t < 2; t++) {
            int id = begin(s, 6);
            rows(s, c, id, 0, 3);
            Savepoint sp = c.setSavepoint("a" + t);
            int gone = s.ledger.never(3);
            rows(s, c, gone, 0, 3);
            c.rollback(sp);
            rows(s, c, id, 3, 3);
            c.releaseSavepoint(sp);
            commit(s, c, id);
        }
    }

    private static void batch(Session s) throws SQLException {
        Connection c = s.open();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger(commit_id, seq, payload) VALUES (?, ?, ?)")) {
            for (int t = 0; t < 2; t++) {
                int id = begin(s, 40);
                rows(s, c, id, 0, 1); // begins the transaction
                for (int seq = 1; seq < 40; seq++) {
                    ps.setInt(1, id);
                    ps.setInt(2, seq);
                    ps.setString(3, "batch " + seq);
                    ps.addBatch();
                }
                ps.executeBatch();
                commit(s, c, id);
            }
        }
    }

    private static void readAhead(Session s) throws SQLException {
        Connection c = s.open();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, payload FROM ledger WHERE commit_id = 1 ORDER BY seq");
             ResultSet rs = ps.executeQuery()) {
            int expected = 0;
            while (rs.next()) {
                int seq = rs.getInt(1);
                String payload = rs.getString(2);
                String want = "row " + expected + " " + "x".repeat(expected % 50);
                if (seq != expected || !want.equals(payload)) {
                    s.wrong("row " + expected + " read ahead as seq " + seq + " payload " + payload);
                    return;
                }
                expected++;
            }
            if (expected != MANY) {
                s.wrong("the query ended after " + expected + " of " + MANY + " rows without an error");
            }
        }
        autocommitRow(s, c, "after reading");
    }

    private static void blob(Session s) throws SQLException {
        Connection c = s.open();
        for (int t = 0; t < 2; t++) {
            int id = s.ledger.begin(1);
            byte[] value = blobOf(id, 150_000);
            Ledger.insertRows(c, id, 1, value);
            s.ledger.ack(id);
            try (PreparedStatement ps = c.prepareStatement("SELECT payload FROM ledger WHERE commit_id = ?")) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        s.wrong("the blob of commit " + id + " is not there right after its commit");
                    } else if (!Arrays.equals(value, rs.getBytes(1))) {
                        s.wrong("the blob of commit " + id + " reads back different");
                    }
                }
            }
        }
    }

    private static void checkpoints(Session s) throws SQLException {
        Connection c = s.open();
        for (String mode : new String[] {"PASSIVE", "FULL", "RESTART", "TRUNCATE"}) {
            autocommitRow(s, c, "before " + mode);
            autocommitRow(s, c, "before " + mode);
            s.target.checkpoint(c, mode);
        }
    }

    private static void backupRestore(Session s) throws SQLException {
        Connection c = s.open();
        s.target.backup(c, s.dir.resolve("copy.db"));
        s.backupAcked = true;
        s.target.restore(c, s.dir.resolve(RESTORE_SOURCE));
        s.restoreAcked = true;
        autocommitRow(s, c, "after restore");
    }

    private static List<String> restored(Connection fresh, Session s) throws SQLException {
        List<String> problems = new ArrayList<>();
        int extra = 0;
        try (Statement st = fresh.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_schema WHERE name = 'extra'")) {
                rs.next();
                if (rs.getInt(1) == 1) {
                    try (ResultSet n = st.executeQuery("SELECT count(*) FROM extra")) {
                        n.next();
                        extra = n.getInt(1);
                    }
                }
            }
        }
        if (extra != 0 && extra != 50) {
            problems.add("the restore is there in part: " + extra + " of 50 rows of table extra");
        } else if (s.restoreAcked && extra == 0) {
            problems.add("lost: the acknowledged restore is not there");
        }
        if (s.backupAcked) {
            try (Connection copy = s.target.connect("jdbc:sqlite:" + s.dir.resolve("copy.db"))) {
                String integrity = FaultSweep.integrity(copy);
                if (!"ok".equals(integrity)) {
                    problems.add("the acknowledged backup is corrupt: " + integrity);
                } else {
                    Ledger.Problems p = s.setupLedger.check(Ledger.rowsInFile(copy), false);
                    p.lost().forEach(l -> problems.add("lost from the acknowledged backup: " + l));
                    p.corrupt().forEach(l -> problems.add("in the acknowledged backup: " + l));
                }
            }
        }
        return problems;
    }

    private static void vacuum(Session s) throws SQLException {
        Connection c = s.open();
        exec(c, "VACUUM");
        s.vacuumAcked = true;
        autocommitRow(s, c, "after vacuum");
    }

    private static List<String> vacuumed(Connection fresh, Session s) throws SQLException {
        try (Statement st = fresh.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM junk")) {
            rs.next();
            return rs.getInt(1) == 100 ? List.of() : List.of("table junk has " + rs.getInt(1) + " rows, not 100");
        }
    }

    private static void schemaChange(Session s) throws SQLException {
        Connection c = s.open();
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO ledger(commit_id, seq, payload) VALUES (?, 0, ?)");
             PreparedStatement select = c.prepareStatement("SELECT count(*) FROM ledger")) {
            for (int t = 0; t < 2; t++) {
                int id = s.ledger.begin(1);
                insert.setInt(1, id);
                insert.setString(2, "cached " + t);
                insert.executeUpdate();
                s.ledger.ack(id);
                try (ResultSet rs = select.executeQuery()) {
                    rs.next();
                }
                if (t == 0) {
                    exec(c, "ALTER TABLE ledger ADD COLUMN note TEXT");
                    s.alterAcked = true;
                }
            }
        }
    }

    private static List<String> columnThere(Connection fresh, Session s) throws SQLException {
        if (!s.alterAcked) {
            return List.of();
        }
        try (Statement st = fresh.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM pragma_table_info('ledger') WHERE name = 'note'")) {
            rs.next();
            return rs.getInt(1) == 1 ? List.of() : List.of("lost: the acknowledged ALTER TABLE is missing");
        }
    }

    private static void hikari(Session s) throws SQLException {
        for (int borrow = 0; borrow < 2; borrow++) {
            Connection c = s.open();
            for (int i = 0; i < 3; i++) {
                autocommitRow(s, c, "pooled " + borrow + "." + i);
            }
            c.setAutoCommit(false);
            int id = begin(s, 2);
            rows(s, c, id, 0, 2);
            commit(s, c, id);
            c.setAutoCommit(true);
            c.close();
            s.connection = null;
        }
    }
}
