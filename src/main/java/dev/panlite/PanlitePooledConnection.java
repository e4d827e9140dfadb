package dev.panlite;

import dev.panlite.engine.SqlState;
import dev.panlite.jdbc.JdbcConnection;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.ConnectionEvent;
import javax.sql.ConnectionEventListener;
import javax.sql.PooledConnection;
import javax.sql.StatementEventListener;

/**
 * One physical connection handed out by {@link PanliteConnectionPoolDataSource}. Each
 * {@link #getConnection()} returns a logical handle (a {@link Proxy} over the physical connection):
 * its {@code close()} closes the statements made through it, rolls back whatever transaction SQLite
 * has open (also one SQL text began while auto-commit was on), puts back what its user changed (see
 * {@link Initial}) and sends {@code connectionClosed} instead of closing the physical connection, so
 * the next handle starts as a new connection would. A reset that fails closes the physical
 * connection and sends {@code connectionErrorOccurred}: it is never handed out again. An
 * {@link SQLException} whose SQLState is of class 08 (connection exception) also sends
 * {@code connectionErrorOccurred}, after which the pool should {@link #close()} this object.
 * Nothing made through a handle hands out the physical connection: {@code Statement.getConnection()}
 * and {@code DatabaseMetaData.getConnection()} return the handle (only {@code unwrap} reaches the
 * physical connection, as with HikariCP's proxies).
 *
 * <p>Statement event listeners are accepted but get no events: the driver keeps its own
 * per-connection statement cache, so a pool has no statements to pool.
 */
final class PanlitePooledConnection implements PooledConnection {
    private final JdbcConnection physical;
    private final Initial initial;
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<StatementEventListener> statementListeners = new CopyOnWriteArrayList<>();
    private Handle current; // the open logical handle, if any
    private volatile SQLException broken; // why a handle's reset closed the physical connection, if one did

    PanlitePooledConnection(Connection opened) throws SQLException {
        this.physical = opened.unwrap(JdbcConnection.class);
        try {
            this.initial = new Initial(physical.isReadOnly(), physical.getTransactionIsolation(),
                    physical.getHoldability(), physical.getSchema(), physical.getNetworkTimeout());
            physical.rememberSession(); // its settings as opened, put back after each handle
        } catch (SQLException | RuntimeException e) {
            physical.close();
            throw e;
        }
    }

    /**
     * What a new connection starts with, restored when a logical handle closes, for what its user
     * changed (only that, as HikariCP's dirty bits: resetting read-only runs a PRAGMA): auto-commit,
     * read-only, isolation, holdability, type map, client info, schema, network timeout, and the busy
     * handler, progress handler and change listeners set through the handle (which implements
     * {@link PanliteConnection}; what is set on {@code unwrap}'s physical connection stays, as with
     * HikariCP); warnings are always cleared. What SQL changed (PRAGMA settings, attached databases,
     * TEMP objects) is put back by the physical connection itself ({@link JdbcConnection#restoreSession}).
     */
    private record Initial(boolean readOnly, int isolation, int holdability, String schema, int networkTimeout) {}

    /*
     * The monitor of this object guards only `current`, never while a handle closes: closing one
     * takes the connection's lock, and a thread holding that lock (in a callback) may call close()
     * here from a ConnectionEventListener. Holding the monitor across a handle's close deadlocked the
     * two (misuse fuzz, seed 54).
     */

    /** A new logical handle; one still open from before is closed first (without an event, unless its reset fails), as JDBC asks. */
    @Override
    public Connection getConnection() throws SQLException {
        Handle fresh = new Handle();
        Connection proxy = (Connection) Proxy.newProxyInstance(PanlitePooledConnection.class.getClassLoader(),
                new Class<?>[] {PanliteConnection.class}, fresh);
        fresh.proxy = proxy;
        while (true) {
            Handle old = takeCurrent();
            if (old != null && old.markClosed()) {
                SQLException failed = old.endUse(); // done before the new handle exists: its rollback cannot touch the new user's work
                if (failed != null) {
                    fire(failed); // the physical connection is closed: the pool must drop it
                }
            }
            synchronized (this) {
                if (physical.isClosed()) {
                    throw new SQLNonTransientConnectionException("The pooled connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST,
                            broken);
                }
                if (current == null) { // else another getConnection raced this one: close its handle too
                    current = fresh;
                    physical.lendAs(proxy);
                    break;
                }
            }
        }
        return proxy;
    }

    private synchronized Handle takeCurrent() {
        Handle h = current;
        current = null;
        return h;
    }

    /** Closes the physical connection (and an open logical handle, without an event: nothing of it needs putting back). */
    @Override
    public void close() throws SQLException {
        Handle h = takeCurrent();
        if (h != null) {
            h.markClosed(); // its statements close with the physical connection, which rolls back
        }
        physical.close();
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public void addStatementEventListener(StatementEventListener listener) {
        statementListeners.add(listener);
    }

    @Override
    public void removeStatementEventListener(StatementEventListener listener) {
        statementListeners.remove(listener);
    }

    /** The logical connection: forwards to the physical one until closed. */
    private final class Handle implements InvocationHandler {
        private final List<Statement> statements = new ArrayList<>();
        private final java.util.Set<String> changed = java.util.concurrent.ConcurrentHashMap.newKeySet(); // setters called
        private final List<ChangeListener> changeListeners = new CopyOnWriteArrayList<>(); // added through this handle
        private volatile boolean closed;
        private boolean resetFailed; // endUse closed the physical connection
        private Connection proxy; // set before the handle is handed out

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "Panlite logical connection " + Integer.toHexString(System.identityHashCode(proxy))
                            + (closed ? " (closed)" : " on " + physical);
                case "isClosed":
                    return closed || physical.isClosed();
                case "isValid":
                    if (closed) {
                        return false;
                    }
                    break;

                case "close":
                    if (markClosed()) {
                        SQLException failed = endUse();
                        fire(failed);
                        if (failed != null && resetFailed) {
                            throw failed; // the connection it would have put back is closed
                        }
                    }
                    return null;
                case "abort":
                    if (closed) {
                        return null; // JDBC: aborting a closed connection does nothing
                    }
                    invokePhysical(method, args); // closes the physical connection: nothing to put back
                    if (markClosed()) {
                        physical.endLoan(this.proxy);
                        fire(new SQLNonTransientConnectionException("The logical connection was aborted, which"
                                + " closed the physical connection", SqlState.CONNECTION_DOES_NOT_EXIST));
                    }
                    return null;
                default:
                    if (closed) {
                        throw closedException(method);
                    }
            }
            try {
                Object result = method.invoke(physical, args);
                if (result instanceof Statement s) {
                    track(s, method);
                }
                String name = method.getName();
                if (name.startsWith("set") && !name.equals("setSavepoint") && !name.equals("setAutoCommit")) {
                    changed.add(name); // setAutoCommit: put back whatever happened (see reset)
                } else if (name.equals("addChangeListener")) {
                    changeListeners.add((ChangeListener) args[0]);
                } else if (name.equals("removeChangeListener")) {
                    changeListeners.remove(args[0]);
                }
                return result;
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof SQLException sql && sql.getSQLState() != null
                        && sql.getSQLState().startsWith("08")) {
                    fire(sql);
                }
                throw cause;
            }
        }

        private void invokePhysical(Method method, Object[] args) throws Throwable {
            try {
                method.invoke(physical, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private SQLException closedException(Method method) {
            if (method.getName().equals("setClientInfo")) { // declares only SQLClientInfoException
                return new java.sql.SQLClientInfoException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST, 0,
                        java.util.Map.of());
            }
            return new SQLNonTransientConnectionException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST);
        }

        /** Keeps {@code s} to close with the handle; one made while another thread closed the handle is closed at once. */
        private void track(Statement s, Method method) throws SQLException {
            synchronized (statements) {
                if (!closed) {
                    for (Iterator<Statement> it = statements.iterator(); it.hasNext(); ) {
                        if (it.next().isClosed()) {
                            it.remove(); // so a long-lived handle does not keep every statement it made
                        }
                    }
                    statements.add(s);
                    return;
                }
            }
            s.close(); // the handle's close has taken its list already: nothing else would close it
            throw closedException(method);
        }

        /** True for the one call that closes this handle; the others find it closed. */
        synchronized boolean markClosed() {
            if (closed) {
                return false;
            }
            closed = true;
            return true;
        }

        /**
         * After {@link #markClosed}: closes the statements made through this handle and puts back what
         * its user changed. Returns null when that is done; else why not, after closing the physical
         * connection (a connection half reset must never reach the next user), or the error it was
         * when the physical connection was closed already (abort, or {@code unwrap}'s close).
         */
        SQLException endUse() {
            SQLException failed = null;
            try {
                closeStatements();
                if (!physical.isClosed()) {
                    reset();
                }
            } catch (SQLException e) {
                failed = e;
            } catch (RuntimeException e) {
                failed = new SQLException("Resetting the pooled connection failed: " + e, SqlState.GENERAL_ERROR, e);
            } finally {
                physical.endLoan(proxy);
            }
            if (failed == null) {
                return physical.isClosed() ? new SQLNonTransientConnectionException("The physical connection was closed"
                        + " while a logical handle was open", SqlState.CONNECTION_DOES_NOT_EXIST) : null;
            }
            resetFailed = true;
            SQLException gone = new SQLNonTransientConnectionException("Putting the pooled connection back as a new"
                    + " connection failed, so it is closed: " + failed.getMessage(), SqlState.CONNECTION_FAILURE, failed);
            broken = gone;
            try {
                physical.close(); // SQLite rolls back whatever is left
            } catch (SQLException e) {
                gone.addSuppressed(e);
            }
            return gone;
        }

        /** Closes the statements made through this handle, each one even when another fails. */
        private void closeStatements() throws SQLException {
            List<Statement> open;
            synchronized (statements) { // only to take the list: closing needs the connection lock, and a
                open = new ArrayList<>(statements); // thread holding that lock may be waiting in track()
                statements.clear();
            }
            SQLException failed = null;
            for (Statement s : open) {
                try {
                    s.close();
                } catch (SQLException e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
        }

        /**
         * Puts back what this handle's user changed; see {@link Initial}. The handlers and listeners
         * go first, so none of the user's code runs inside the reset's own statements; then the
         * transaction, as SQLite has it; then the settings, which cannot change inside one.
         */
        private void reset() throws SQLException {
            if (changed.remove("setBusyHandler")) {
                physical.setBusyHandler(null);
            }
            if (changed.remove("setProgressHandler")) {
                physical.setProgressHandler(0, null);
            }
            for (ChangeListener l : changeListeners) {
                physical.removeChangeListener(l);
            }
            changeListeners.clear();
            physical.rollbackAndAutoCommit(); // SQLite's state, not the flag: also BEGIN run as SQL
            if (changed.remove("setReadOnly")) {
                physical.setReadOnly(initial.readOnly());
            }
            if (changed.remove("setTransactionIsolation")) {
                physical.setTransactionIsolation(initial.isolation());
            }
            if (changed.remove("setHoldability")) {
                physical.setHoldability(initial.holdability());
            }
            if (changed.remove("setTypeMap")) {
                physical.setTypeMap(new java.util.HashMap<>());
            }
            if (changed.remove("setClientInfo")) {
                physical.setClientInfo(new java.util.Properties());
            }
            if (changed.remove("setSchema")) {
                physical.setSchema(initial.schema());
            }
            if (changed.remove("setNetworkTimeout")) {
                physical.setNetworkTimeout(Runnable::run, initial.networkTimeout());
            }
            physical.restoreSession(); // PRAGMA settings, attached databases, TEMP objects: only when SQL could have changed them
            changed.clear();
            physical.clearWarnings();
        }
    }

    /**
     * Tells every listener, each in turn. A listener that throws does not stop the others nor the
     * close or error being reported: what it threw is logged (WARNING, with its stack), since the
     * code closing the handle did nothing wrong and could not handle the pool's failure anyway.
     */
    private void fire(SQLException error) {
        ConnectionEvent event = new ConnectionEvent(this, error);
        for (ConnectionEventListener l : listeners) {
            try {
                if (error == null) {
                    l.connectionClosed(event);
                } else {
                    l.connectionErrorOccurred(event);
                }
            } catch (RuntimeException e) {
                System.getLogger(PanlitePooledConnection.class.getName()).log(System.Logger.Level.WARNING,
                        "ConnectionEventListener " + l.getClass().getName() + " threw from "
                                + (error == null ? "connectionClosed" : "connectionErrorOccurred")
                                + "; the other listeners were still told", e);
            }
        }
    }
}
