package dev.panlite.fault;

import dev.panlite.fault.FaultVfs.Kind;
import dev.panlite.fault.FaultVfs.Loss;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs a workload at one fault point and checks what the issue asks of every point: the call that
 * met the fault throws an SQLException with SQLite's extended code and a SQLState of the right
 * class (class 08 only when the connection is gone); JDBC's auto-commit agrees with SQLite's; the
 * following rollback, setAutoCommit and close work and the next statement commits; every handle is
 * closed; and the reopened file is intact, holds every acknowledged commit and no failed one in
 * part (after a power cut with synchronous=NORMAL: a prefix of the commits).
 */
public final class FaultSweep {
    /** What a point can find, as the experiment page counts them (crashes and hangs are the parent's). */
    public enum Category { CRASH, HANG, WRONG_EXCEPTION, INCONSISTENT, LOST, CORRUPT }

    /** Journal mode and synchronous setting. */
    public record Config(String journal, String sync) {
        public static List<Config> all() {
            return List.of(new Config("WAL", "FULL"), new Config("WAL", "NORMAL"), new Config("DELETE", "FULL"),
                    new Config("DELETE", "NORMAL"));
        }

        /** "WAL/NORMAL" and the like. */
        public static Config parse(String text) {
            String[] parts = text.strip().split("/");
            return new Config(parts[0].toUpperCase(Locale.ROOT), parts[1].toUpperCase(Locale.ROOT));
        }

        public String parameters() {
            return "journal_mode=" + journal + "&synchronous=" + sync;
        }

        @Override
        public String toString() {
            return journal + "/" + sync;
        }
    }

    /** What fails: the nth call of a kind, with an error, once or from then on; a power cut with its loss. */
    public record Fault(Kind kind, int error, boolean persistent, Loss loss) {
        /** SQLite's allocations (the nth fails), not an I/O call. */
        public static final Fault MEMORY = new Fault(null, 0, false, null);

        public boolean cut() {
            return loss != null;
        }

        public boolean memory() {
            return kind == null;
        }

        @Override
        public String toString() {
            if (memory()) {
                return "malloc";
            }
            String what = cut() ? "cut-" + loss.name().toLowerCase(Locale.ROOT)
                    : error == FaultVfs.DEFAULT_ERROR ? "error" : error == FaultVfs.SHORT_READ ? "short-read"
                    : error == FaultVfs.Codes.FULL ? "full" : "code" + error;
            return kind.name().toLowerCase(Locale.ROOT) + ":" + what + (persistent ? "+" : "");
        }

        /** The faults of the I/O sweep: each kind's own error once; a full disk once and for good. */
        public static List<Fault> io() {
            List<Fault> faults = new ArrayList<>();
            for (Kind k : Kind.values()) {
                faults.add(new Fault(k, FaultVfs.DEFAULT_ERROR, false, null));
                if (k == Kind.WRITE) {
                    faults.add(new Fault(k, FaultVfs.Codes.FULL, false, null));
                    faults.add(new Fault(k, FaultVfs.Codes.FULL, true, null));
                }
            }
            return faults;
        }

        /** The faults of the power sweep: a cut at a write (unsynced writes dropped, or torn) or at a sync. */
        public static List<Fault> cuts() {
            return List.of(new Fault(Kind.WRITE, FaultVfs.POWER_CUT, false, Loss.DROP_ALL),
                    new Fault(Kind.WRITE, FaultVfs.POWER_CUT, false, Loss.TORN),
                    new Fault(Kind.SYNC, FaultVfs.POWER_CUT, false, Loss.DROP_ALL));
        }
    }

    public record Finding(Category category, String detail) {}

    /** What one point found, and the calls of each kind its work made (failed ones included) and its allocations. */
    public record Outcome(List<Finding> findings, long[] counts, long allocations, boolean fired, int dropped) {
        /** The calls of the kind {@code fault} fails. */
        public long calls(Fault fault) {
            return fault.memory() ? allocations : counts[fault.kind().ordinal()];
        }
    }

    private record Base(Path dir, Ledger ledger) {}

    private final Target target;
    private final Path root;
    private final Map<String, Base> bases = new HashMap<>();

    public FaultSweep(Target target, Path root) {
        this.target = target;
        this.root = root;
    }

    /** The database as {@code w}'s setup leaves it in {@code config}: made once, copied for each point. */
    private Base base(Workload w, Config config) throws Exception {
        String key = w.name() + "-" + config.journal() + "-" + config.sync();
        Base base = bases.get(key);
        if (base == null) {
            Path dir = root.resolve("base-" + key);
            deleteTree(dir);
            Files.createDirectories(dir);
            Ledger ledger = new Ledger();
            if (w.setup() != null) {
                try (Connection c = target.connect(FaultVfs.url(dir.resolve("test.db"), config.parameters()))) {
                    w.setup().run(c, ledger, target, dir);
                }
            }
            base = new Base(dir, ledger);
            bases.put(key, base);
        }
        return base;
    }

    /** Runs {@code w} in {@code config} with {@code fault} armed at its {@code nth} call (no fault: null). */
    public Outcome run(Workload w, Config config, Fault fault, long nth) throws Exception {
        Base base = base(w, config);
        Path dir = root.resolve("point");
        deleteTree(dir);
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(base.dir())) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Path db = dir.resolve("test.db");
        List<Finding> findings = new ArrayList<>();
        Session s = new Session(target, dir, db, config.parameters(), base.ledger().copy(), w.pooled());
        s.setupLedger = base.ledger();
        boolean power = fault != null && fault.cut();
        FaultVfs.record(power);
        FaultVfs.resetCounts();
        long allocations = FaultVfs.memCount();
        if (fault != null && fault.memory()) {
            FaultVfs.memArm(nth, false);
        } else if (fault != null) {
            FaultVfs.arm(fault.kind(), nth, fault.persistent(), fault.error());
        }
        Throwable thrown = null;
        try {
            w.work().run(s);
        } catch (Throwable t) {
            thrown = t;
        }
        long[] counts = new long[Kind.values().length];
        for (Kind k : Kind.values()) {
            counts[k.ordinal()] = FaultVfs.count(k);
        }
        allocations = FaultVfs.memCount() - allocations;
        boolean fired = fault != null && (fault.memory() ? FaultVfs.memFired() > 0 : FaultVfs.fired() > 0);
        FaultVfs.disarm(); // the fault is cleared: what follows must work (a cut stays until the restore)
        FaultVfs.memArm(0, false);

        if (thrown != null) {
            if (!fired) {
                findings.add(new Finding(Category.WRONG_EXCEPTION, "failed without meeting the fault: " + describe(thrown)));
            } else {
                findings.addAll(classify(thrown, s));
            }
        }
        s.wrong.forEach(what -> findings.add(new Finding(Category.INCONSISTENT, "wrong result: " + what)));
        if (power) {
            afterPowerCut(s, findings);
        } else {
            afterFault(s, thrown, findings);
        }
        if (FaultVfs.openFiles() != 0) {
            findings.add(new Finding(Category.INCONSISTENT, FaultVfs.openFiles()
                    + " file handles still open after every connection was closed"));
        }
        if (power) {
            if (FaultVfs.openFiles() != 0) {
                FaultVfs.disarm();
                deleteTree(dir);
                return new Outcome(findings, counts, allocations, fired, 0); // nothing to restore safely; the finding says why
            }
            FaultVfs.powerRestore(fault.loss(), nth);
        }
        FaultVfs.record(false);
        int dropped = checkFile(w, s, power && config.sync().equals("NORMAL"), findings);
        deleteTree(dir);
        return new Outcome(findings, counts, allocations, fired, dropped);
    }

    /** The exception the work threw at the fault. */
    private List<Finding> classify(Throwable thrown, Session s) {
        List<Finding> findings = new ArrayList<>();
        if (!(thrown instanceof SQLException e)) {
            findings.add(new Finding(Category.WRONG_EXCEPTION, "not an SQLException: " + describe(thrown)));
            return findings;
        }
        if (noTransaction(e)) {
            findings.add(new Finding(Category.INCONSISTENT, "the call failed with 'no transaction is active': " + describe(e)));
        }
        int code = target.extendedCode(e);
        int primary = code & 0xff;
        String state = e.getSQLState();
        if (code <= 0) {
            findings.add(new Finding(Category.WRONG_EXCEPTION, "no SQLite result code: " + describe(e)));
        } else if (!List.of(7, 10, 11, 13, 14, 26).contains(primary)) {
            findings.add(new Finding(Category.WRONG_EXCEPTION, "result code " + code + " for an I/O or memory fault: "
                    + describe(e)));
        }
        if (state == null) {
            findings.add(new Finding(Category.WRONG_EXCEPTION, "no SQLState: " + describe(e)));
        } else if (state.startsWith("08")) {
            if (!connectionGone(s.connection)) {
                findings.add(new Finding(Category.WRONG_EXCEPTION, "SQLState " + state
                        + " (connection gone) while the connection works: " + describe(e)));
            }
        } else {
            String expected = switch (primary) {
                case 13 -> "53100";
                case 10 -> "58030";
                case 7 -> "53200";
                case 11 -> "XX001";
                default -> null;
            };
            if (code > 0 && expected != null && !expected.equals(state)) {
                findings.add(new Finding(Category.WRONG_EXCEPTION, "SQLState " + state + " for result code " + code
                        + ", expected " + expected + ": " + describe(e)));
            }
        }
        return findings;
    }

    private static boolean connectionGone(Connection c) {
        try {
            return c == null || c.isClosed() || !c.isValid(5);
        } catch (SQLException e) {
            return true;
        }
    }

    private static boolean noTransaction(Throwable t) {
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (x.getMessage() != null && x.getMessage().contains("no transaction is active")) {
                return true;
            }
        }
        return false;
    }

    /** Whether an exception tells that SQLite rolled the transaction back. */
    static boolean reportsRollback(Throwable t) {
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (x instanceof SQLTransactionRollbackException
                    || x.getMessage() != null && x.getMessage().toLowerCase(Locale.ROOT).contains("rolled back")) {
                return true;
            }
        }
        return false;
    }

    /** After an I/O fault (cleared now): the connection's state, the calls that end a transaction, the next commit, close. */
    private void afterFault(Session s, Throwable thrown, List<Finding> findings) {
        Connection c = s.connection;
        try {
            if (c != null && !c.isClosed() && s.pooled()) {
                checkState(s, c, thrown, findings); // what the borrower sees
                try {
                    c.close();
                } catch (SQLException e) {
                    findings.add(new Finding(Category.INCONSISTENT, "closing the pool's handle failed: " + describe(e)));
                }
                c = null;
            }
            if (c == null || c.isClosed()) {
                try {
                    c = s.pooled() ? s.pool().getConnection() : target.connect(s.url());
                } catch (SQLException e) {
                    findings.add(new Finding(Category.INCONSISTENT, "no connection after the fault was cleared: " + describe(e)));
                    return;
                }
                if (s.pooled() && (!c.getAutoCommit() || Boolean.TRUE.equals(target.sqliteInTransaction(c)))) {
                    findings.add(new Finding(Category.INCONSISTENT, "the pool's next connection is inside a transaction"
                            + " or has auto-commit off"));
                }
            } else {
                checkState(s, c, thrown, findings);
                if (!c.getAutoCommit() && s.committing && s.current >= 0) {
                    // the application runs the failed commit() again: it commits, or says why not
                    try {
                        c.commit();
                        s.ledger.ackByRetry(s.current);
                    } catch (SQLException e) {
                        if (noTransaction(e)) {
                            findings.add(new Finding(Category.INCONSISTENT, "commit() run again after the fault failed"
                                    + " with 'no transaction is active': " + describe(e)));
                        }
                    }
                }
                if (!c.getAutoCommit()) {
                    try {
                        c.rollback();
                    } catch (SQLException e) {
                        findings.add(new Finding(Category.INCONSISTENT, "rollback() after the fault failed: " + describe(e)));
                    }
                }
                try {
                    c.setAutoCommit(true);
                } catch (SQLException e) {
                    findings.add(new Finding(Category.INCONSISTENT, "setAutoCommit(true) after the fault failed: " + describe(e)));
                }
            }
            try {
                Workload.exec(c, Ledger.SCHEMA); // the work may have failed before it made the table
                int id = s.ledger.begin(1);
                Ledger.insertRows(c, id, 1, "after the fault");
                s.ledger.ack(id);
            } catch (SQLException e) {
                findings.add(new Finding(Category.INCONSISTENT, "the next statement failed after the fault was cleared: "
                        + describe(e)));
            }
            try {
                c.close();
            } catch (SQLException e) {
                findings.add(new Finding(Category.INCONSISTENT, "close() after the fault failed: " + describe(e)));
            }
        } catch (Throwable t) {
            findings.add(new Finding(Category.WRONG_EXCEPTION, "after the fault: " + describe(t)));
        } finally {
            closeQuietly(c);
            s.close();
        }
    }

    /** JDBC's auto-commit against SQLite's own state, and a rollback SQLite did on its own. */
    private void checkState(Session s, Connection c, Throwable thrown, List<Finding> findings) throws SQLException {
        boolean auto = c.getAutoCommit();
        Boolean inTransaction = target.sqliteInTransaction(c);
        if (auto && Boolean.TRUE.equals(inTransaction)) {
            findings.add(new Finding(Category.INCONSISTENT, "getAutoCommit() is true while SQLite holds a transaction"));
        }
        if (!auto && s.inTransaction && Boolean.FALSE.equals(inTransaction) && thrown != null && !reportsRollback(thrown)) {
            findings.add(new Finding(Category.INCONSISTENT, "SQLite rolled the transaction back and the exception does"
                    + " not say so: " + describe(thrown)));
        }
    }

    /** After a power cut: close what is open (nothing may reach the disk now), then the restore. */
    private void afterPowerCut(Session s, List<Finding> findings) {
        try {
            if (s.connection != null) {
                try {
                    s.connection.close();
                } catch (SQLException allowed) {
                    // after a cut, closing may fail: no I/O works any more
                }
            }
        } catch (Throwable t) {
            findings.add(new Finding(Category.WRONG_EXCEPTION, "close after the power cut: " + describe(t)));
        } finally {
            s.close();
        }
    }

    /**
     * The file, reopened without faults: intact, every acknowledged commit whole, no failed one in
     * part. Returns the acknowledged commits missing from the end that {@code prefixOnly} allows.
     */
    private int checkFile(Workload w, Session s, boolean prefixOnly, List<Finding> findings) {
        // through the shim, disarmed: it only spares the check the disk's syncs
        try (Connection fresh = target.connect(FaultVfs.url(s.db, ""))) {
            String integrity = integrity(fresh);
            if (!"ok".equals(integrity)) {
                findings.add(new Finding(Category.CORRUPT, "integrity_check: " + integrity));
                return 0;
            }
            Ledger.Problems p = s.ledger.check(Ledger.rowsInFile(fresh), prefixOnly);
            p.lost().forEach(l -> findings.add(new Finding(Category.LOST, l)));
            p.corrupt().forEach(l -> findings.add(new Finding(Category.CORRUPT, l)));
            for (String problem : w.check().run(fresh, s)) {
                findings.add(new Finding(problem.startsWith("lost") ? Category.LOST : Category.CORRUPT, problem));
            }
            return p.dropped();
        } catch (Exception e) {
            findings.add(new Finding(Category.CORRUPT, "the file cannot be read back: " + describe(e)));
            return 0;
        }
    }

    static String integrity(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            StringBuilder all = new StringBuilder();
            while (rs.next()) {
                all.append(all.isEmpty() ? "" : "; ").append(rs.getString(1));
            }
            return all.toString();
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already reported where it mattered
            }
        }
    }

    /** The exception's class, SQLState, code, message and where it came from. */
    static String describe(Throwable t) {
        StringBuilder s = new StringBuilder(t.getClass().getName());
        if (t instanceof SQLException e) {
            s.append(" [").append(e.getSQLState()).append(" / ").append(e.getErrorCode()).append("]");
        }
        s.append(": ").append(t.getMessage());
        if (!(t instanceof SQLException)) {
            StringWriter w = new StringWriter();
            t.printStackTrace(new PrintWriter(w));
            s.append(" | ").append(w.toString().lines().skip(1).limit(6).map(String::strip)
                    .reduce((a, b) -> a + " | " + b).orElse(""));
        }
        return s.toString().replace('\n', ' ');
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
