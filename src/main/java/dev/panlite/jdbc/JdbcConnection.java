package dev.panlite.jdbc;

import dev.panlite.engine.SqlState;
import dev.panlite.engine.Held;
import dev.panlite.Config;
import dev.panlite.PanliteConnection;
import dev.panlite.engine.Database;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/** A JDBC connection over one {@link Database}. */
public final class JdbcConnection implements PanliteConnection {
    final Database db;
    private final Config config;
    private final Dates dates;
    private JdbcStatement openStatements; // intrusive list: tracking a statement allocates nothing
    private final List<JdbcSavepoint> savepoints = new ArrayList<>();
    private final List<dev.panlite.ChangeListener> changeListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private int savepointCounter;
    private SQLWarning warnings;
    private boolean readOnly;
    private int isolation = TRANSACTION_SERIALIZABLE;
    // SQLite keeps a cursor open across COMMIT; CLOSE_CURSORS_AT_COMMIT is done by closing them (closeCursorsAtCommit)
    private int holdability = ResultSet.HOLD_CURSORS_OVER_COMMIT;
    private volatile boolean aborted; // abort() marks the connection closed at once; the executor closes it
    private int networkTimeout;
    private String schema = "main";
    private final Properties clientInfo = new Properties();
    private JdbcDatabaseMetaData metaData;
    private final java.util.concurrent.atomic.AtomicReference<Connection> lentAs = new java.util.concurrent.atomic.AtomicReference<>(); // the pooled handle out, if any
    private final dev.panlite.engine.Reclaimer.Watch reclaim; // closes db if this object is dropped unclosed

    public JdbcConnection(Database db, Config config) {
        this.db = db;
        this.config = config;
        this.dates = new Dates(config);
        this.readOnly = config.readOnlyOpen();
        this.reclaim = dev.panlite.engine.Reclaimer.watch(this, db, config.leakWarning());
    }

    Dates dates() {
        return dates;
    }

    /** SQLITE_LIMIT_COLUMN in force on this connection: DatabaseMetaData's column maxima. */
    int columnLimit() throws SQLException {
        try (var held = lockOpen()) {
            return db.columnLimit();
        }
    }

    /**
     * Takes the connection lock and checks the connection is open:
     * {@code try (var held = lockOpen()) { ... }} releases it.
     */
    Held lockOpen() throws SQLException {
        Held held = db.hold();
        if (db.isClosed() || aborted) {
            held.close();
            throw Errors.connectionClosed();
        }
        try {
            db.checkNotInHook();
        } catch (SQLException e) {
            held.close();
            throw e;
        }
        return held;
    }

    void unlock() {
        db.unlock();
    }

    // The statements whose methods are on the lock holder's stack, innermost last. A statement's
    // lockOpen pushes itself and hands out statementHeld, which pops it: one Held per connection,
    // so creating a statement allocates none (try-with-resources closes them in reverse order).
    private JdbcStatement[] entered = new JdbcStatement[8];
    private int enteredCount;
    private final Held statementHeld = this::leaveStatement;

    /** After {@code statement} took the lock (and counted its entry): what releases both. Lock held. */
    Held entered(JdbcStatement statement) {
        if (enteredCount == entered.length) { // callbacks nested this deep: rare
            entered = java.util.Arrays.copyOf(entered, enteredCount * 2);
        }
        entered[enteredCount++] = statement;
        return statementHeld;
    }

    private void leaveStatement() {
        JdbcStatement statement = entered[--enteredCount];
        entered[enteredCount] = null;
        statement.left();
        unlock();
    }

    // ------------------------------------------------------------------ statement tracking (lock held)

    void track(JdbcStatement s) {
        s.nextOpen = openStatements;
        if (openStatements != null) {
            openStatements.prevOpen = s;
        }
        openStatements = s;
    }

    void untrack(JdbcStatement s) {
        if (s.prevOpen != null) {
            s.prevOpen.nextOpen = s.nextOpen;
        } else if (openStatements == s) {
            openStatements = s.nextOpen;
        }
        if (s.nextOpen != null) {
            s.nextOpen.prevOpen = s.prevOpen;
        }
        s.prevOpen = s.nextOpen = null;
    }

    // ------------------------------------------------------------------ statements

    @Override
    public Statement createStatement() throws SQLException {
        return createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return createStatement(resultSetType, resultSetConcurrency, holdability);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        try (var held = lockOpen()) {
            checkResultSetOptions(resultSetType, resultSetConcurrency, resultSetHoldability);
            JdbcStatement s = new JdbcStatement(this, resultSetHoldability);
            track(s);
            return s;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepare(sql, null, holdability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        return prepareStatement(sql, resultSetType, resultSetConcurrency, holdability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        try (var held = lockOpen()) {
            checkResultSetOptions(resultSetType, resultSetConcurrency, resultSetHoldability);
        }
        return prepare(sql, null, resultSetHoldability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepare(sql, JdbcStatement.keyLabel(autoGeneratedKeys), holdability);
    }

    // SQLite generates one key per inserted row, the rowid (the INTEGER PRIMARY KEY when there is one)

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepare(sql, columnIndexes != null && columnIndexes.length > 0 ? JdbcStatement.DEFAULT_KEY_LABEL : null, holdability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepare(sql, JdbcStatement.keyLabel(columnNames), holdability);
    }

    /** {@code keyLabel}: the column name of generated keys, or null when they are not wanted. */
    private PreparedStatement prepare(String sql, String keyLabel, int resultSetHoldability) throws SQLException {
        if (sql == null) {
            throw Errors.badArgument("SQL is null");
        }
        try (var held = lockOpen()) {
            JdbcPreparedStatement s = new JdbcPreparedStatement(this, db.prepare(sql), keyLabel, resultSetHoldability);
            track(s);
            return s;
        }
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw Errors.notSupported("Stored procedures (prepareCall)");
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        throw Errors.notSupported("Stored procedures (prepareCall)");
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        throw Errors.notSupported("Stored procedures (prepareCall)");
    }

    /** Only forward-only, read-only result sets exist; other requests get the closest and a warning (JDBC 4.3 §14.1). */
    private void checkResultSetOptions(int type, int concurrency, int holdability) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY && type != ResultSet.TYPE_SCROLL_INSENSITIVE
                && type != ResultSet.TYPE_SCROLL_SENSITIVE) {
            throw Errors.badArgument("Unknown result set type " + type);
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY && concurrency != ResultSet.CONCUR_UPDATABLE) {
            throw Errors.badArgument("Unknown result set concurrency " + concurrency);
        }
        checkHoldability(holdability);
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            addWarning(new SQLWarning("Only TYPE_FORWARD_ONLY result sets are supported; using it", SqlState.OPTION_VALUE_CHANGED));
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            addWarning(new SQLWarning("Only CONCUR_READ_ONLY result sets are supported; using it", SqlState.OPTION_VALUE_CHANGED));
        }
    }

    private static void checkHoldability(int holdability) throws SQLException {
        if (holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT && holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw Errors.badArgument("Unknown holdability " + holdability);
        }
    }

    void addWarning(SQLWarning warning) {
        if (warnings == null) {
            warnings = warning;
        } else {
            warnings.setNextWarning(warning);
        }
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    private void checkOpen() throws SQLException {
        if (isClosed()) {
            throw Errors.connectionClosed();
        }
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        try (var held = lockOpen()) {
            // SQLite's state, not the flag: a transaction SQL text began in auto-commit mode is committed too
            if (autoCommit && (!db.transactions().autoCommit() || db.transactions().inTransaction())) {
                closeCursorsAtCommit();
                savepoints.clear();
            }
            db.transactions().setAutoCommit(autoCommit);
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return db.transactions().autoCommit();
    }

    /** Closes the open result sets of statements created with CLOSE_CURSORS_AT_COMMIT. Lock held. */
    private void closeCursorsAtCommit() throws SQLException {
        for (JdbcStatement s = openStatements; s != null; s = s.nextOpen) {
            if (s.holdability == ResultSet.CLOSE_CURSORS_AT_COMMIT) {
                s.closeResult();
            }
        }
    }

    @Override
    public void commit() throws SQLException {
        try (var held = lockOpen()) {
            if (db.transactions().autoCommit()) {
                throw Errors.badState("commit() while auto-commit is on");
            }
            closeCursorsAtCommit();
            db.transactions().commit();
            savepoints.clear();
        }
    }

    @Override
    public void rollback() throws SQLException {
        try (var held = lockOpen()) {
            if (db.transactions().autoCommit()) {
                throw Errors.badState("rollback() while auto-commit is on");
            }
            closeCursorsAtCommit();
            db.transactions().rollback();
            savepoints.clear();
        }
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return savepoint(null);
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        if (name == null) {
            throw Errors.badArgument("Savepoint name is null");
        }
        return savepoint(name);
    }

    private Savepoint savepoint(String name) throws SQLException {
        try (var held = lockOpen()) {
            if (db.transactions().autoCommit()) {
                throw Errors.badState("A savepoint needs auto-commit off");
            }
            db.transactions().beginIfNeeded();
            JdbcSavepoint sp = new JdbcSavepoint(this, ++savepointCounter, name, db.transactions().transactionNumber());
            db.text().execute("SAVEPOINT " + sp.sqlName());
            savepoints.add(sp);
            return sp;
        }
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        try (var held = lockOpen()) {
            int at = activeSavepoint(savepoint);
            JdbcSavepoint sp = savepoints.get(at);
            db.text().execute("ROLLBACK TO SAVEPOINT " + sp.sqlName());
            // savepoints set after this one are gone; this one stays, as in SQLite
            savepoints.subList(at + 1, savepoints.size()).clear();
        }
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        try (var held = lockOpen()) {
            int at = activeSavepoint(savepoint);
            db.text().execute("RELEASE SAVEPOINT " + savepoints.get(at).sqlName());
            savepoints.subList(at, savepoints.size()).clear();
        }
    }

    private int activeSavepoint(Savepoint savepoint) throws SQLException {
        if (db.transactions().autoCommit()) {
            throw Errors.badState("No transaction is open (auto-commit is on)");
        }
        // savepoints of a transaction that ended (also one SQLite ended on its own) are gone
        long current = db.transactions().inTransaction() ? db.transactions().transactionNumber() : -1;
        savepoints.removeIf(sp -> sp.transaction != current);
        int at = savepoints.indexOf(savepoint);
        if (at < 0) {
            throw Errors.badState("The savepoint " + savepoint + " is not valid: released, rolled back past, "
                    + "ended with its transaction, or from another connection");
        }
        return at;
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        try (var held = lockOpen()) {
            switch (level) {
                case TRANSACTION_READ_UNCOMMITTED, TRANSACTION_READ_COMMITTED, TRANSACTION_REPEATABLE_READ,
                        TRANSACTION_SERIALIZABLE -> { }
                default -> throw Errors.badArgument("Unsupported transaction isolation level " + level);
            }
            if (db.transactions().inTransaction()) {
                throw Errors.badState("The isolation level cannot change inside a transaction");
            }
            // Only READ_UNCOMMITTED means something to SQLite (shared-cache reads); the rest are serializable.
            db.text().execute("PRAGMA read_uncommitted = " + (level == TRANSACTION_READ_UNCOMMITTED ? 1 : 0));
            isolation = level;
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return isolation;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        try (var held = lockOpen()) {
            if (readOnly == this.readOnly) {
                return;
            }
            if (config.readOnlyOpen() && !readOnly) {
                throw Errors.badState("The database was opened read-only (open_mode)");
            }
            if (db.transactions().inTransaction()) {
                throw Errors.badState("Read-only cannot change inside a transaction");
            }
            db.text().execute("PRAGMA query_only = " + (readOnly ? 1 : 0));
            db.transactions().setReadOnly(readOnly);
            this.readOnly = readOnly;
        }
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void close() throws SQLException {
        db.beforeClose(); // ends a wait for the write gate (close with the reason "closed")
        db.lockInterrupting(); // from another thread: a running statement is interrupted, not waited out
        try {
            if (db.isClosed()) {
                return;
            }
            if (db.inCallback()) {
                // SQLite is inside this connection on this thread's stack: refuse every call from now
                // on and free everything when the thread leaves its outermost call (Database.unlock)
                db.close();
                return;
            }
            SQLException failed = null;
            try {
                for (JdbcStatement s = openStatements; s != null; s = openStatements) {
                    try {
                        s.closeLocked(); // unlinks s first, so this loop always advances
                    } catch (SQLException e) {
                        if (failed == null) {
                            failed = e;
                        } else {
                            failed.addSuppressed(e);
                        }
                    }
                }
                savepoints.clear();
            } finally {
                db.close(); // whatever happened above; SQLite rolls back a transaction left open
            }
            if (failed != null) {
                throw failed; // the connection is closed all the same
            }
        } finally {
            db.unlock();
        }
        if (db.isClosed()) {
            reclaim.closed(); // nothing left to reclaim
        }
    }

    @Override
    public boolean isClosed() {
        return aborted || db.isClosed();
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw Errors.badArgument("timeout must not be negative");
        }
        return !isClosed(); // an open SQLite handle is a working connection: no query needed
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw Errors.badArgument("executor is null");
        }
        if (isClosed()) {
            return;
        }
        aborted = true; // closed for every caller from now on (JDBC); the executor releases the rest
        db.interrupts().interruptAll(); // stop a running statement so close can take the lock
        executor.execute(() -> {
            try {
                close();
            } catch (SQLException e) { // nobody waits for this task: the failure is logged, the connection stays closed
                System.getLogger(JdbcConnection.class.getName()).log(System.Logger.Level.WARNING,
                        "abort: closing the connection failed", e);
            }
        });
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw Errors.badArgument("timeout must not be negative");
        }
        networkTimeout = milliseconds; // no network: kept so pools can read back what they set
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return networkTimeout;
    }

    // ------------------------------------------------------------------ everything else

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        Connection owner = userConnection();
        JdbcDatabaseMetaData m = metaData;
        if (m == null || m.owner != owner) { // one per handle: each names its own connection
            m = new JdbcDatabaseMetaData(this, owner);
            metaData = m;
        }
        return m;
    }

    // ------------------------------------------------------------------ pooled handles (PanlitePooledConnection)

    /**
     * Lends this connection as {@code handle} (a pooled connection's logical handle): what it makes
     * until {@link #endLoan} names the handle as its connection (Statement.getConnection,
     * DatabaseMetaData.getConnection), never this physical connection, which would let its user
     * close it or change it behind the pool's back.
     */
    public void lendAs(Connection handle) {
        lentAs.set(handle);
    }

    /** {@code handle} is closed: unless another was lent since, this connection names itself again. */
    public void endLoan(Connection handle) {
        lentAs.compareAndSet(handle, null);
    }

    /** The connection its user holds: the pooled handle it is lent as, else this one. */
    Connection userConnection() {
        Connection handle = lentAs.get();
        return handle != null ? handle : this;
    }

    /**
     * Rolls back whatever transaction SQLite has open, whoever began it (the driver, or SQL text while
     * auto-commit was on), and turns auto-commit on: a pooled handle's close.
     */
    public void rollbackAndAutoCommit() throws SQLException {
        try (var held = lockOpen()) {
            closeCursorsAtCommit();
            db.transactions().rollbackAndAutoCommit();
            savepoints.clear();
        }
    }

    /** Notes the settings, attached databases and TEMP schema of this connection, as {@link #restoreSession} puts them back. */
    public void rememberSession() throws SQLException {
        try (var held = lockOpen()) {
            db.session().remember();
        }
    }

    /**
     * Puts back what SQL changed since {@link #rememberSession} (PRAGMA settings, attached databases,
     * TEMP objects), when a statement could have; throws when it cannot (engine.SessionState).
     */
    public void restoreSession() throws SQLException {
        try (var held = lockOpen()) {
            db.session().restore();
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen(); // SQLite has no catalogs: ignored, as JDBC allows
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        this.schema = schema;
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return schema;
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        checkHoldability(holdability);
        this.holdability = holdability;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return holdability;
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new java.util.HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) {
            throw Errors.notSupported("User-defined type maps");
        }
    }

    @Override
    public Clob createClob() throws SQLException {
        checkOpen();
        return new JdbcClob("");
    }

    @Override
    public Blob createBlob() throws SQLException {
        checkOpen();
        return new JdbcBlob(new byte[0]);
    }

    @Override
    public NClob createNClob() throws SQLException {
        checkOpen();
        return new JdbcClob("");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw Errors.notSupported("SQLXML");
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw Errors.notSupported("SQL arrays");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw Errors.notSupported("SQL structured types");
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (db.isClosed()) {
            throw new SQLClientInfoException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST, 0, Map.of());
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (db.isClosed()) {
            throw new SQLClientInfoException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST, 0, Map.of());
        }
        clientInfo.clear();
        if (properties != null) {
            clientInfo.putAll(properties);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    // ------------------------------------------------------------------ PanliteConnection

    @Override
    public CacheStats statementCacheStats() throws SQLException {
        try (var held = lockOpen()) {
            long[] s = db.cacheStats();
            return new CacheStats(s[0], s[1], s[2], (int) s[3], (int) s[4]);
        }
    }

    @Override
    public Config config() {
        return config;
    }

    @Override
    public String sqliteVersion() {
        return Database.libraryVersion();
    }

    @Override
    public String sqliteSourceId() {
        return Database.librarySourceId();
    }

    @Override
    public String sqliteVecVersion() {
        return db.vectorSearchVersion(); // set once at open: no lock needed
    }

    @Override
    public void createFunction(String name, int nArgs, boolean deterministic, dev.panlite.SqlFunction function)
            throws SQLException {
        checkFunction(name, nArgs, function);
        try (var held = lockOpen()) {
            db.userCode().createFunction(name, nArgs, deterministic, function::call);
        }
    }

    @Override
    public void createAggregate(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends dev.panlite.SqlAggregate> factory) throws SQLException {
        checkFunction(name, nArgs, factory);
        try (var held = lockOpen()) {
            db.userCode().createAggregate(name, nArgs, deterministic, () -> {
                dev.panlite.SqlAggregate aggregate = factory.get();
                return new dev.panlite.ffi.SqlFunctions.Accumulator() {
                    @Override
                    public void step(Object[] args) throws Exception {
                        aggregate.step(args);
                    }

                    @Override
                    public Object finish() throws Exception {
                        return aggregate.finish();
                    }
                };
            });
        }
    }

    private static void checkFunction(String name, int nArgs, Object body) throws SQLException {
        if (name == null || name.isBlank() || body == null) {
            throw Errors.badArgument("A function needs a name and a body");
        }
        if (nArgs < -1 || nArgs > 127) {
            throw Errors.badArgument("nArgs must be -1 (any) or 0..127, not " + nArgs);
        }
    }

    @Override
    public void setBusyHandler(dev.panlite.BusyHandler handler) throws SQLException {
        checkOpen();
        // the lock, not lockOpen: allowed inside a change listener, as before; SQLite's own busy
        // timeout is set too (BusyTimeoutField), which needs the handle open and this thread's
        try (var held = db.hold()) {
            if (db.isClosed()) {
                throw Errors.connectionClosed();
            }
            db.setBusyHandler(handler == null ? null : handler::keepWaiting);
        }
    }

    @Override
    public void addChangeListener(dev.panlite.ChangeListener listener) throws SQLException {
        if (listener == null) {
            throw Errors.badArgument("listener is null");
        }
        try (var held = lockOpen()) {
            if (changeListeners.isEmpty()) {
                db.userCode().setChangeHooks(new ChangeDispatch(changeListeners));
            }
            changeListeners.add(listener);
        }
    }

    @Override
    public void removeChangeListener(dev.panlite.ChangeListener listener) throws SQLException {
        try (var held = lockOpen()) {
            if (changeListeners.remove(listener) && changeListeners.isEmpty()) {
                db.userCode().setChangeHooks(null);
            }
        }
    }

    /** Fans SQLite's hooks out to the listeners (read under the lock the stepping thread holds). */
    private record ChangeDispatch(List<dev.panlite.ChangeListener> listeners) implements dev.panlite.ffi.ChangeHooks.Receiver {
        @Override
        public void rowChanged(int op, String schema, String table, long rowid) {
            dev.panlite.ChangeListener.Kind kind = switch (op) {
                case 18 -> dev.panlite.ChangeListener.Kind.INSERT; // SQLITE_INSERT
                case 9 -> dev.panlite.ChangeListener.Kind.DELETE; // SQLITE_DELETE
                default -> dev.panlite.ChangeListener.Kind.UPDATE; // SQLITE_UPDATE (23)
            };
            for (dev.panlite.ChangeListener l : listeners) {
                l.rowChanged(kind, schema, table, rowid);
            }
        }

        @Override
        public void committed() {
            for (dev.panlite.ChangeListener l : listeners) {
                l.committed();
            }
        }

        @Override
        public void rolledBack() {
            for (dev.panlite.ChangeListener l : listeners) {
                l.rolledBack();
            }
        }
    }

    @Override
    public void createWindowFunction(String name, int nArgs, boolean deterministic,
            java.util.function.Supplier<? extends dev.panlite.SqlWindowFunction> factory) throws SQLException {
        checkFunction(name, nArgs, factory);
        try (var held = lockOpen()) {
            db.userCode().createWindowFunction(name, nArgs, deterministic, () -> {
                dev.panlite.SqlWindowFunction f = factory.get();
                return new dev.panlite.ffi.WindowFunctions.Accumulator() {
                    @Override
                    public void step(Object[] args) throws Exception {
                        f.step(args);
                    }

                    @Override
                    public void inverse(Object[] args) throws Exception {
                        f.inverse(args);
                    }

                    @Override
                    public Object value() throws Exception {
                        return f.value();
                    }

                    @Override
                    public Object finish() throws Exception {
                        return f.finish();
                    }
                };
            });
        }
    }

    @Override
    public void setProgressHandler(int instructions, dev.panlite.ProgressHandler handler) throws SQLException {
        try (var held = lockOpen()) {
            db.userCode().setProgressHandler(instructions, handler == null ? null : handler::progress);
        }
    }

    @Override
    public byte[] serialize(String schema) throws SQLException {
        try (var held = lockOpen()) {
            return db.backups().serialize(schemaName(schema));
        }
    }

    @Override
    public dev.panlite.Checkpoint checkpoint(dev.panlite.CheckpointMode mode) throws SQLException {
        if (mode == null) {
            throw Errors.badArgument("checkpoint needs a mode: PASSIVE, FULL, RESTART or TRUNCATE");
        }
        try (var held = lockOpen()) {
            int[] r = db.checkpoint("main", mode.ordinal());
            return new dev.panlite.Checkpoint(r[1], r[2], r[0] == 0);
        }
    }

    @Override
    public void deserialize(String schema, byte[] image) throws SQLException {
        if (image == null) {
            throw Errors.badArgument("deserialize needs the bytes of a database");
        }
        try (var held = lockOpen()) {
            db.backups().deserialize(schemaName(schema), image);
        }
    }

    @Override
    public void backup(String schema, java.nio.file.Path file, dev.panlite.BackupProgress progress) throws SQLException {
        copy(schema, file, false, progress);
    }

    @Override
    public void restore(String schema, java.nio.file.Path file, dev.panlite.BackupProgress progress) throws SQLException {
        copy(schema, file, true, progress);
    }

    /** Pages per backup step when a progress callback watches: small enough to report, large enough to be quick. */
    private static final int BACKUP_PAGES_PER_STEP = 100;

    private void copy(String schema, java.nio.file.Path file, boolean restore, dev.panlite.BackupProgress progress)
            throws SQLException {
        if (file == null) {
            throw Errors.badArgument("backup and restore need a file");
        }
        try (var held = lockOpen()) {
            db.backups().backup(schemaName(schema), file.toString(), restore, BACKUP_PAGES_PER_STEP,
                    progress == null ? null : progress::progress);
        }
    }

    @Override
    public java.sql.Blob openBlob(String schema, String table, String column, long rowid, boolean writable)
            throws SQLException {
        if (table == null || column == null) {
            throw Errors.badArgument("openBlob needs a table and a column");
        }
        try (var held = lockOpen()) {
            return new IncrementalBlob(db.blobs().open(schemaName(schema), table, column, rowid, writable));
        }
    }

    private static String schemaName(String schema) {
        return schema == null || schema.isEmpty() ? "main" : schema;
    }

    @Override
    public void createCollation(String name, java.util.Comparator<String> order) throws SQLException {
        if (name == null || name.isBlank() || order == null) {
            throw Errors.badArgument("A collation needs a name and a comparator");
        }
        try (var held = lockOpen()) {
            db.userCode().createCollation(name, order);
        }
    }

    @Override
    public int preparedStatementCount() throws SQLException {
        try (var held = lockOpen()) {
            return db.liveStatements();
        }
    }

    @Override
    public void loadExtension(java.nio.file.Path library, String entryPoint) throws SQLException {
        if (library == null) {
            throw Errors.badArgument("loadExtension needs the path of a library");
        }
        if (entryPoint != null && (entryPoint.isBlank() || entryPoint.indexOf('\0') >= 0)) {
            throw Errors.badArgument("loadExtension: the entry point is the name of a C function, or null for"
                    + " SQLite's rule; got \"" + entryPoint + "\"");
        }
        try (var held = lockOpen()) {
            dev.panlite.engine.Extensions.load(db, library, entryPoint, "loadExtension");
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
