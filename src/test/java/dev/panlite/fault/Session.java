package dev.panlite.fault;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One point's run of a workload: the database (through the fault-injecting VFS), the ledger of its
 * commits, and the connection the workload holds when the fault comes, which the sweep examines
 * afterwards. With {@link #pooled}, connections come from a HikariCP pool of one.
 */
public final class Session implements AutoCloseable {
    final Target target;
    final Path dir;
    final Path db;
    final String parameters;
    final Ledger ledger;
    private final boolean pooled;
    private HikariDataSource pool;
    /** The connection the workload works on (null until it opened one). */
    Connection connection;
    /** True while the workload's own transaction (auto-commit off) has run a statement. */
    boolean inTransaction;
    /** The ledger id of the transaction being built (auto-commit off), -1 for none. */
    int current = -1;
    /** True while commit() runs: an exception then came from the commit. */
    boolean committing;
    /** The ledger as the setup left it (what a backup taken first must hold). */
    Ledger setupLedger;
    /** What the driver acknowledged beyond commits, for the workloads' own checks. */
    boolean schemaAcked, backupAcked, restoreAcked, vacuumAcked, alterAcked;
    /** Wrong results the workload saw (rows, blobs that read back different). */
    final java.util.List<String> wrong = new java.util.ArrayList<>();

    Session(Target target, Path dir, Path db, String parameters, Ledger ledger, boolean pooled) {
        this.target = target;
        this.dir = dir;
        this.db = db;
        this.parameters = parameters;
        this.ledger = ledger;
        this.pooled = pooled;
    }

    /** Notes a wrong result. */
    void wrong(String what) {
        wrong.add(what);
    }

    /** The URL of the database through the fault-injecting VFS, with this point's settings. */
    public String url() {
        return FaultVfs.url(db, parameters);
    }

    /** Opens (or borrows) the connection the workload works on. */
    public Connection open() throws SQLException {
        connection = null;
        inTransaction = false;
        current = -1;
        connection = pooled ? pool().getConnection() : target.connect(url());
        return connection;
    }

    boolean pooled() {
        return pooled;
    }

    /** The pool, created at the first borrow. */
    HikariDataSource pool() {
        if (pool == null) {
            HikariConfig config = new HikariConfig();
            config.setDriverClassName(target.driverClass());
            config.setJdbcUrl(url());
            config.setMaximumPoolSize(1);
            config.setMinimumIdle(0);
            config.setConnectionTimeout(30_000);
            config.setInitializationFailTimeout(-1); // the first open may meet the fault: no failure at start
            config.setPoolName("faults");
            pool = new HikariDataSource(config);
        }
        return pool;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
            pool = null;
        }
    }
}
