package dev.panlite;

import dev.panlite.engine.SqlState;
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
 * its {@code close()} rolls back an open transaction, closes the statements made through it, puts
 * back what its user changed (see {@link Initial}) and sends {@code connectionClosed} instead of
 * closing the physical connection, so the next handle starts as a new connection would; an
 * {@link SQLException} whose SQLState is of class 08 (connection exception) sends
 * {@code connectionErrorOccurred}, after which the pool should {@link #close()} this object.
 *
 * <p>Statement event listeners are accepted but get no events: the driver keeps its own
 * per-connection statement cache, so a pool has no statements to pool.
 */
final class PanlitePooledConnection implements PooledConnection {
    private final Connection physical;
    private final Initial initial;
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<StatementEventListener> statementListeners = new CopyOnWriteArrayList<>();
    private Handle current; // the open logical handle, if any

    PanlitePooledConnection(Connection physical) throws SQLException {
        this.physical = physical;
        this.initial = new Initial(physical.isReadOnly(), physical.getTransactionIsolation(),
                physical.getHoldability(), physical.getSchema(), physical.getNetworkTimeout());
    }

    /**
     * What a new connection starts with, restored when a logical handle closes, for what its user
     * changed (only that, as HikariCP's dirty bits: resetting read-only runs a PRAGMA): auto-commit,
     * read-only, isolation, holdability, type map, client info, schema, network timeout, and the busy
     * handler, progress handler and change listeners set through the handle (which implements
     * {@link PanliteConnection}; what is set on {@code unwrap}'s physical connection stays, as with
     * HikariCP); warnings are always cleared.
     */
    private record Initial(boolean readOnly, int isolation, int holdability, String schema, int networkTimeout) {}

    /*
     * The monitor of this object guards only `current`, never while a handle closes: closing one
     * takes the connection's lock, and a thread holding that lock (in a callback) may call close()
     * here from a ConnectionEventListener. Holding the monitor across closeHandle deadlocked the
     * two (misuse fuzz, seed 54).
     */

    /** A new logical handle; one still open from before is closed first (without an event), as JDBC asks. */
    @Override
    public Connection getConnection() throws SQLException {
        Handle fresh = new Handle();
        while (true) {
            Handle old = takeCurrent();
            if (old != null) {
                old.closeHandle(); // done before the new handle exists: its rollback cannot touch the new user's work
            }
            synchronized (this) {
                if (physical.isClosed()) {
                    throw new SQLNonTransientConnectionException("The pooled connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST);
                }
                if (current == null) { // else another getConnection raced this one: close its handle too
                    current = fresh;
                    break;
                }
            }
        }
        return (Connection) Proxy.newProxyInstance(PanlitePooledConnection.class.getClassLoader(),
                new Class<?>[] {PanliteConnection.class}, fresh);
    }

    private synchronized Handle takeCurrent() {
        Handle h = current;
        current = null;
        return h;
    }

    /** Closes the physical connection (and an open logical handle, without an event). */
    @Override
    public void close() throws SQLException {
        try {
            Handle h = takeCurrent();
            if (h != null) {
                h.closeHandle();
            }
        } finally {
            physical.close();
        }
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
                    if (!closed) {
                        try {
                            closeHandle();
                        } finally {
                            fire(null);
                        }
                    }
                    return null;
                default:
                    if (closed) {
                        if (method.getName().equals("setClientInfo")) { // declares only SQLClientInfoException
                            throw new java.sql.SQLClientInfoException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST, 0,
                                    java.util.Map.of());
                        }
                        throw new SQLNonTransientConnectionException("The connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST);
                    }
            }
            try {
                Object result = method.invoke(physical, args);
                if (result instanceof Statement s) {
                    track(s);
                }
                String name = method.getName();
                if (name.startsWith("set") && !name.equals("setSavepoint") && !name.equals("setAutoCommit")) {
                    changed.add(name); // setAutoCommit: put back whatever happened (see closeHandle)
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

        private void track(Statement s) throws SQLException {
            synchronized (statements) {
                for (Iterator<Statement> it = statements.iterator(); it.hasNext(); ) {
                    if (it.next().isClosed()) {
                        it.remove(); // so a long-lived handle does not keep every statement it made
                    }
                }
                statements.add(s);
            }
        }

        /** Ends this handle's use of the physical connection: its statements and its transaction. */
        void closeHandle() throws SQLException {
            closed = true;
            List<Statement> open;
            synchronized (statements) { // only to take the list: closing needs the connection lock, and a
                open = new ArrayList<>(statements); // thread holding that lock may be waiting in track()
                statements.clear();
            }
            for (Statement s : open) {
                s.close();
            }
            if (physical.isClosed()) {
                return;
            }
            if (!physical.getAutoCommit()) {
                physical.rollback();
                physical.setAutoCommit(true); // the next handle starts as a new connection would
            }
            reset();
        }

        /** Puts back what this handle's user changed; see {@link Initial}. */
        private void reset() throws SQLException {
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
            PanliteConnection extras = physical.unwrap(PanliteConnection.class);
            if (changed.remove("setBusyHandler")) {
                extras.setBusyHandler(null);
            }
            if (changed.remove("setProgressHandler")) {
                extras.setProgressHandler(0, null);
            }
            for (ChangeListener l : changeListeners) {
                extras.removeChangeListener(l);
            }
            changeListeners.clear();
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
