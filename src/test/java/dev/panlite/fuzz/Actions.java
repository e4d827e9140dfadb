package dev.panlite.fuzz;

import dev.panlite.PanliteConnection;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * THE list of what a fuzz thread may do, with weights: one {@code add} per action. The name prefix
 * ("conn.", "tx.", "stmt.", "ps.", "rs.", "meta.", "blob.", "fn.", "vtab.", "image.", "wal.", "backup.", "pool.", "diag.", "ext.",
 * "vec." in {@link VectorActions}) lets a run skip a group (-Dpanlite.fuzz.skip=fn.,vtab.) to find the next crash class while one is being fixed.
 *
 * <p>A new API gets its cases here in a few lines. Take objects from the shared pools
 * ({@code x.conn()}, {@code x.w.results.pick(x.r)}, ...), put what it creates back into one, and
 * give every callback it takes a misbehaving body from {@link Callbacks#handler}, as the progress
 * handler's case does:
 * <pre>{@code
 * addConn("fn.progress", 2, (x, c) -> {
 *     Callbacks.Body body = Callbacks.handler(x.w, x, c, "progress");
 *     c.unwrap(PanliteConnection.class).setProgressHandler(x.r.nextInt(100), () -> body.run() == null ? 0 : 1);
 * });
 * }</pre>
 * An action may throw SQLException (counted as expected); anything else it throws is a finding.
 */
final class Actions {
    private Actions() {}

    @FunctionalInterface
    interface Action {
        void run(Ctx x) throws Exception;
    }

    record Entry(String name, int weight, Action action) {}

    private static final List<Entry> TABLE = new ArrayList<>();

    private static void add(String name, int weight, Action action) {
        TABLE.add(new Entry(name, weight, action));
    }

    @FunctionalInterface
    interface ConnAction {
        void run(Ctx x, Connection c) throws Exception;
    }

    /** An action on a shared connection (see {@link Ctx#conn}); nothing when there is none. */
    private static void addConn(String name, int weight, ConnAction action) {
        add(name, weight, x -> {
            Connection c = x.conn();
            if (c != null) {
                action.run(x, c);
            }
        });
    }

    /** The table without the groups named in {@code skip} (name prefixes). */
    static List<Entry> table(List<String> skip) {
        return TABLE.stream().filter(e -> skip.stream().noneMatch(p -> !p.isEmpty() && e.name().startsWith(p))).toList();
    }

    static {
        // ---------------------------------------------------------------- connections
        add("conn.open", 3, x -> {
            Connection old = x.w.connections.put(x.r, x.w.open(x.r));
            if (old != null && x.chance(70)) {
                old.close();
            }
        });
        add("conn.close", 3, x -> close(x.w.connections.pick(x.r)));
        add("conn.abort", 2, x -> {
            Connection c = x.w.connections.pick(x.r);
            if (c != null) {
                c.abort(x.chance(50) ? Callbacks.ABORTER : (Executor) Runnable::run);
            }
        });
        add("conn.pooled", 2, x -> {
            javax.sql.PooledConnection pc = x.w.pooled.pick(x.r);
            if (pc == null) {
                return;
            }
            switch (x.r.nextInt(4)) {
                case 0 -> pc.close(); // the physical connection, while its logical handle may be in use
                case 1 -> pc.addConnectionEventListener(new javax.sql.ConnectionEventListener() {
                    @Override
                    public void connectionClosed(javax.sql.ConnectionEvent event) {
                        throw new Callbacks.PoolListenerThrow("fuzz: pool listener throws");
                    }

                    @Override
                    public void connectionErrorOccurred(javax.sql.ConnectionEvent event) {
                        try {
                            pc.close();
                        } catch (SQLException e) {
                            x.w.sqlException(e);
                        }
                    }
                });
                default -> x.w.connections.put(x.r, pc.getConnection()); // closes the previous handle
            }
        });
        add("conn.leak", 1, x -> {
            Connection c = x.w.connections.take(x.r);
            if (c != null && x.w.opened.remove(c)) {
                x.w.leaked.incrementAndGet(); // dropped unclosed, with whatever it has open: the Cleaner's job
            }
        });
        add("conn.gc", 1, x -> System.gc());
        add("conn.interrupt", 2, x -> {
            Thread[] all = x.w.workers;
            if (all.length > 0) {
                all[x.r.nextInt(all.length)].interrupt(); // as ExecutorService.shutdownNow does, maybe mid-call
            }
        });
        addConn("conn.misc", 4, (x, c) -> {
            switch (x.r.nextInt(16)) {
                case 0 -> c.isValid(x.r.nextInt(3) - 1);
                case 1 -> c.setReadOnly(x.r.nextBoolean());
                case 2 -> c.setTransactionIsolation(x.oneOf(List.of(Connection.TRANSACTION_SERIALIZABLE,
                        Connection.TRANSACTION_READ_UNCOMMITTED, Connection.TRANSACTION_NONE, 42)));
                case 3 -> c.nativeSQL(x.sql());
                case 4 -> c.setClientInfo("ApplicationName", "fuzz");
                case 5 -> c.setSchema(x.oneOf(List.of("main", "nosuch", "")));
                case 6 -> c.setHoldability(x.r.nextInt(3));
                case 7 -> c.getWarnings();
                case 8 -> c.unwrap(PanliteConnection.class).statementCacheStats();
                case 9 -> c.unwrap(PanliteConnection.class).preparedStatementCount();
                case 10 -> c.unwrap(PanliteConnection.class).sqliteVersion();
                case 11 -> c.setNetworkTimeout(Runnable::run, x.r.nextInt(100));
                case 12 -> c.createStatement(x.oneOf(List.of(ResultSet.TYPE_FORWARD_ONLY, ResultSet.TYPE_SCROLL_INSENSITIVE, 0)),
                        x.oneOf(List.of(ResultSet.CONCUR_READ_ONLY, ResultSet.CONCUR_UPDATABLE))).close();
                case 13 -> c.prepareCall(x.query()).close();
                case 14 -> c.unwrap(String.class);
                default -> c.getClientInfo();
            }
        });

        add("conn.busyHandler", 2, x -> { // asked by the Java-side lock wait: misbehaving answers must not leak the gate
            Connection c = x.conn();
            if (c == null) {
                return;
            }
            Connection other = x.w.connections.pick(x.r);
            int kind = x.r.nextInt(6);
            c.unwrap(PanliteConnection.class).setBusyHandler(kind == 5 ? null : (attempts, waited) -> switch (kind) {
                case 0 -> attempts < 20; // bounded: a fuzz thread must not wait for ever
                case 1 -> throw new IllegalStateException("fuzz busy handler");
                case 2 -> {
                    try {
                        c.close(); // its own connection, from inside the wait
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    // bounded: c may be a pooled logical handle, whose close leaves the physical connection
                    // (and this wait) open; a handler answering true for ever waits for ever, by its own choice
                    yield attempts < 20;
                }
                case 3 -> {
                    if (other != null) {
                        try {
                            other.rollback(); // frees the lock another fuzz connection may hold
                        } catch (java.sql.SQLException e) { // auto-commit on, or closed: the wait fails with it
                            throw new IllegalStateException(e);
                        }
                    }
                    yield attempts < 20;
                }
                default -> false;
            });
        });

        // ---------------------------------------------------------------- transactions
        addConn("tx.autocommit", 4, (x, c) -> c.setAutoCommit(x.r.nextBoolean()));
        addConn("tx.commit", 4, (x, c) -> c.commit());
        addConn("tx.rollback", 4, (x, c) -> c.rollback());
        addConn("tx.savepoint", 3, (x, c) -> {
            x.w.savepoints.put(x.r, x.chance(50) ? c.setSavepoint() : c.setSavepoint(x.oneOf(List.of("sp", "sp2", "", "\"; x"))));
        });
        add("tx.savepoint.use", 3, x -> {
            Connection c = x.conn();
            Savepoint sp = x.w.savepoints.pick(x.r); // maybe another connection's, maybe released
            if (c != null) {
                if (x.chance(50)) {
                    c.rollback(sp);
                } else {
                    c.releaseSavepoint(sp);
                }
                if (sp != null && x.chance(30)) {
                    sp.getSavepointName();
                }
            }
        });

        // ---------------------------------------------------------------- statements
        addConn("stmt.create", 3, (x, c) -> x.w.statements.put(x.r, c.createStatement()));
        add("stmt.execute", 8, x -> {
            Statement s = x.w.statements.pick(x.r);
            if (s == null) {
                return;
            }
            String sql = x.sql();
            x.note(sql);
            switch (x.r.nextInt(7)) {
                case 0 -> {
                    if (s.execute(sql)) {
                        x.w.results.put(x.r, s.getResultSet());
                    }
                }
                case 1 -> s.executeUpdate(sql);
                case 2 -> s.executeLargeUpdate(sql, Statement.RETURN_GENERATED_KEYS);
                case 3 -> s.execute(sql, Statement.RETURN_GENERATED_KEYS);
                case 4 -> {
                    s.execute(sql);
                    while (s.getMoreResults() || s.getUpdateCount() != -1) {
                        if (x.chance(20)) {
                            break;
                        }
                    }
                }
                case 5 -> x.w.results.put(x.r, s.getGeneratedKeys());
                default -> s.execute(sql, new String[] {"id"});
            }
        });
        add("stmt.query", 8, x -> {
            Statement s = x.w.statements.pick(x.r);
            if (s != null) {
                String sql = x.query();
                x.note(sql);
                keepOrDrain(x, s.executeQuery(sql), 70);
            }
        });
        add("stmt.batch", 3, x -> {
            Statement s = x.w.statements.pick(x.r);
            if (s != null) {
                for (int i = x.r.nextInt(4); i > 0; i--) {
                    s.addBatch(x.sql());
                }
                if (x.chance(80)) {
                    s.executeBatch();
                } else {
                    s.clearBatch();
                }
            }
        });
        add("stmt.settings", 4, x -> {
            Statement s = x.chance(50) ? x.w.statements.pick(x.r) : x.w.prepared.pick(x.r);
            if (s == null) {
                return;
            }
            switch (x.r.nextInt(10)) {
                case 0 -> s.setQueryTimeout(x.chance(80) ? 1 : x.oneOf(List.of(0, -1, Integer.MAX_VALUE)));
                case 1 -> s.setMaxRows(x.oneOf(List.of(0, 1, 2, -1)));
                case 2 -> s.setFetchSize(x.oneOf(List.of(0, 1, 3, 64, 1000, 100_000, -1)));
                case 3 -> s.closeOnCompletion();
                case 4 -> s.getResultSet();
                case 5 -> s.getUpdateCount();
                case 6 -> s.getConnection().getAutoCommit();
                case 7 -> s.setEscapeProcessing(x.r.nextBoolean());
                case 8 -> s.setPoolable(x.r.nextBoolean());
                default -> s.getWarnings();
            }
        });
        add("stmt.cancel", 4, x -> {
            Statement s = x.chance(50) ? x.w.statements.pick(x.r) : x.w.prepared.pick(x.r);
            if (s != null) {
                s.cancel();
            }
        });
        add("stmt.close", 3, x -> close(x.chance(50) ? x.w.statements.pick(x.r) : x.w.prepared.pick(x.r)));

        // ---------------------------------------------------------------- prepared statements
        addConn("ps.prepare", 5, (x, c) -> {
            String sql = x.chance(60) ? x.query() : x.sql();
            x.note(sql);
            x.w.prepared.put(x.r, switch (x.r.nextInt(4)) {
                case 0 -> c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
                case 1 -> c.prepareStatement(sql, new int[] {1});
                default -> c.prepareStatement(sql);
            });
        });
        add("ps.set", 10, x -> {
            PreparedStatement p = x.w.prepared.pick(x.r);
            if (p != null) {
                setParameter(x, p, x.index());
            }
        });
        add("ps.execute", 8, x -> {
            PreparedStatement p = x.w.prepared.pick(x.r);
            if (p == null) {
                return;
            }
            switch (x.r.nextInt(5)) {
                case 0 -> {
                    if (p.execute()) {
                        x.w.results.put(x.r, p.getResultSet());
                    }
                }
                case 1 -> x.w.results.put(x.r, p.executeQuery());
                case 2 -> p.executeUpdate();
                case 3 -> x.w.results.put(x.r, p.getGeneratedKeys());
                default -> drain(x, p.executeQuery());
            }
        });
        add("ps.batch", 4, x -> {
            PreparedStatement p = x.w.prepared.pick(x.r);
            if (p == null) {
                return;
            }
            for (int i = x.r.nextInt(5); i > 0; i--) {
                setParameter(x, p, x.index());
                p.addBatch();
            }
            switch (x.r.nextInt(4)) {
                case 0 -> p.clearBatch();
                case 1 -> p.clearParameters();
                case 2 -> p.executeLargeBatch();
                default -> p.executeBatch();
            }
        });
        add("ps.meta", 3, x -> {
            PreparedStatement p = x.w.prepared.pick(x.r);
            if (p == null) {
                return;
            }
            if (x.r.nextBoolean()) {
                var pm = p.getParameterMetaData();
                pm.getParameterCount();
                int i = x.index();
                pm.getParameterType(i);
                pm.getParameterClassName(i);
                pm.isNullable(i);
            } else {
                ResultSetMetaData md = p.getMetaData();
                if (md != null) {
                    resultMeta(x, md);
                }
            }
        });

        // ---------------------------------------------------------------- result sets
        add("rs.next", 10, x -> {
            ResultSet rs = x.w.results.pick(x.r);
            if (rs != null) {
                for (int i = x.r.nextInt(4); i >= 0 && rs.next(); i--) {
                    get(x, rs);
                }
            }
        });
        add("rs.get", 12, x -> {
            ResultSet rs = x.w.results.pick(x.r);
            if (rs != null) {
                get(x, rs);
            }
        });
        add("rs.meta", 4, x -> {
            ResultSet rs = x.w.results.pick(x.r);
            if (rs != null) {
                resultMeta(x, rs.getMetaData());
            }
        });
        add("rs.misc", 4, x -> {
            ResultSet rs = x.w.results.pick(x.r);
            if (rs == null) {
                return;
            }
            switch (x.r.nextInt(12)) {
                case 0 -> rs.isBeforeFirst();
                case 1 -> rs.isAfterLast();
                case 2 -> rs.getRow();
                case 3 -> rs.absolute(2);
                case 4 -> rs.beforeFirst();
                case 5 -> rs.getStatement();
                case 6 -> rs.findColumn(x.label());
                case 7 -> rs.updateInt(1, 1);
                case 8 -> rs.setFetchSize(x.oneOf(List.of(0, 1, 10, 5000)));
                case 9 -> rs.isLast();
                case 10 -> rs.getHoldability();
                default -> rs.getWarnings();
            }
        });
        add("rs.close", 4, x -> close(x.w.results.pick(x.r)));
        addWideResults();

        // ---------------------------------------------------------------- database metadata
        addConn("meta.db", 5, (x, c) -> {
            DatabaseMetaData md = c.getMetaData();
            String table = x.oneOf(List.of("t", "ft", "rt", "u", "%", "nosuch", "sqlite_schema"));
            ResultSet rs = switch (x.r.nextInt(12)) {
                case 0 -> md.getTables(null, null, table, null);
                case 1 -> md.getColumns(null, null, table, "%");
                case 2 -> md.getPrimaryKeys(null, null, table);
                case 3 -> md.getIndexInfo(null, null, table, false, false);
                case 4 -> md.getImportedKeys(null, null, table);
                case 5 -> md.getTypeInfo();
                case 6 -> md.getSchemas();
                case 7 -> md.getFunctions(null, null, "%");
                case 8 -> md.getTableTypes();
                case 9 -> md.getBestRowIdentifier(null, null, table, 0, true);
                case 10 -> md.getExportedKeys(null, null, table);
                default -> {
                    md.getDatabaseProductVersion();
                    md.supportsSavepoints();
                    md.getURL();
                    yield md.getCatalogs();
                }
            };
            keepOrDrain(x, rs, 50);
        });

        // ---------------------------------------------------------------- blobs
        add("blob.get", 3, x -> {
            ResultSet rs = x.w.results.pick(x.r);
            if (rs != null) {
                Blob b = rs.getBlob(x.index());
                if (b != null) {
                    x.w.blobs.put(x.r, b);
                }
            }
        });
        addConn("blob.create", 1, (x, c) -> x.w.blobs.put(x.r, c.createBlob()));
        add("blob.use", 4, x -> {
            Blob b = x.w.blobs.pick(x.r);
            if (b == null) {
                return;
            }
            long pos = x.oneOf(List.of(1L, 2L, 0L, -1L, 100L, Long.MAX_VALUE));
            switch (x.r.nextInt(8)) {
                case 0 -> b.length();
                case 1 -> b.getBytes(pos, x.oneOf(List.of(0, 1, 10, -1, Integer.MAX_VALUE)));
                case 2 -> b.setBytes(pos, new byte[x.r.nextInt(20)]);
                case 3 -> b.truncate(x.oneOf(List.of(0L, 1L, -1L, 1000L)));
                case 4 -> b.free();
                case 5 -> readAll(b.getBinaryStream());
                case 6 -> b.position(new byte[] {0}, pos);
                default -> {
                    PreparedStatement p = x.w.prepared.pick(x.r);
                    if (p != null) {
                        p.setBlob(x.index(), b);
                    }
                }
            }
        });

        // ---------------------------------------------------------------- callbacks (extras API)
        addConn("fn.function", 3, (x, c) -> Callbacks.register(x.w, x, c, x.oneOf(List.of("fz_f", "fz_g"))));
        addConn("fn.aggregate", 2, (x, c) -> {
            Callbacks.register(x.w, x, c, x.oneOf(List.of("fz_agg", "fz_agg2")));
        });
        addConn("fn.collation", 2, (x, c) -> {
            Callbacks.register(x.w, x, c, x.oneOf(List.of("fz_coll", "fz_coll2")));
        });
        addConn("fn.window", 2, (x, c) -> Callbacks.register(x.w, x, c, "fz_win"));
        addConn("fn.progress", 2, (x, c) -> {
            Callbacks.Body body = Callbacks.handler(x.w, x, c, "progress");
            int every = x.oneOf(List.of(1, 10, 1000, 0, -1));
            boolean stop = x.chance(20);
            c.unwrap(PanliteConnection.class).setProgressHandler(every, x.chance(10) ? null : () -> {
                body.run();
                return stop ? 1 : 0;
            });
        });
        addConn("fn.listener.add", 2, (x, c) -> {
            var l = Callbacks.listener(x.w, x, c);
            c.unwrap(PanliteConnection.class).addChangeListener(l);
            x.w.listeners.put(x.r, l);
        });
        addConn("fn.listener.remove", 1, (x, c) -> {
            c.unwrap(PanliteConnection.class).removeChangeListener(x.w.listeners.pick(x.r));
        });
        addConn("fn.badargs", 1, (x, c) -> {
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            switch (x.r.nextInt(5)) {
                case 0 -> p.createFunction(x.oneOf(List.of("", "x".repeat(300), "bad name")), x.r.nextInt(300) - 2, false, args -> 1);
                case 1 -> p.createFunction("fz_null", 1, true, null);
                case 2 -> p.createCollation(null, String::compareTo);
                case 3 -> p.createAggregate("fz_null", -1, false, null);
                default -> p.addChangeListener(null);
            }
        });

        // ---------------------------------------------------------------- virtual tables
        addConn("vtab.use", 3, (x, c) -> {
            String sql = x.oneOf(List.of(
                    "CREATE VIRTUAL TABLE IF NOT EXISTS ft USING fts5(body)",
                    "INSERT INTO ft(body) VALUES ('one two three')",
                    "CREATE VIRTUAL TABLE IF NOT EXISTS ft4 USING fts4(body)",
                    "INSERT INTO ft4(body) VALUES ('one two')",
                    "CREATE VIRTUAL TABLE IF NOT EXISTS ft3 USING fts3(body)",
                    "INSERT INTO ft3(body) VALUES ('two five')",
                    "CREATE VIRTUAL TABLE IF NOT EXISTS rt USING rtree(id, minx, maxx)",
                    "INSERT INTO rt(minx, maxx) VALUES (0, 10)",
                    "INSERT INTO ft(ft) VALUES ('optimize')",
                    "SELECT * FROM ft WHERE ft MATCH 'one'",
                    "SELECT * FROM rt WHERE minx >= 0",
                    "DROP TABLE IF EXISTS ft4"));
            x.note(sql);
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        });

        // ---------------------------------------------------------------- serialize / deserialize
        addConn("image.serialize", 2, (x, c) -> {
            byte[] image = c.unwrap(PanliteConnection.class).serialize(x.oneOf(List.of("main", "main", "temp", "aux", "nosuch")));
            if (image != null) {
                x.w.images.put(x.r, image);
            }
        });
        addConn("image.deserialize", 2, (x, c) -> {
            byte[] image = x.w.images.pick(x.r);
            if (image != null && x.chance(20)) {
                image = java.util.Arrays.copyOf(image, x.r.nextInt(image.length + 1)); // truncated
            } else if (image != null && image.length > 100 && x.chance(20)) {
                image = image.clone();
                image[x.r.nextInt(image.length)] ^= (byte) (1 + x.r.nextInt(255)); // corrupted
            } else if (image == null) {
                image = x.oneOf(List.of(new byte[0], new byte[100], "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
            }
            c.unwrap(PanliteConnection.class).deserialize(x.oneOf(List.of("main", "main", "temp", "aux", "nosuch")), image);
        });

        // ---------------------------------------------------------------- incremental blob I/O
        addConn("blob.open", 3, (x, c) -> {
            x.w.blobs.put(x.r, c.unwrap(PanliteConnection.class).openBlob(x.oneOf(List.of("main", "main", "temp", "nosuch")),
                    x.oneOf(List.of("t", "t", "u", "nosuch")), x.oneOf(List.of("d", "d", "b", "a", "id", "nosuch")),
                    x.oneOf(List.of(1L, 2L, 3L, 4L, 5L, 0L, -1L, Long.MAX_VALUE)), x.r.nextBoolean()));
        });

        add("blob.stream", 2, x -> { // a stream outliving its blob, its connection, shared across threads
            Blob b = x.w.blobs.pick(x.r);
            if (b != null) {
                if (x.r.nextBoolean()) {
                    readAll(b.getBinaryStream(1, Math.min(b.length(), 3)));
                } else {
                    try (java.io.OutputStream out = b.setBinaryStream(x.oneOf(List.of(1L, 2L, 0L)))) {
                        out.write(new byte[x.r.nextInt(4)]);
                    } catch (IOException expected) {
                        // past the end, closed, read-only: an error, never a crash
                    }
                }
            }
        });

        // ---------------------------------------------------------------- WAL checkpoints and the WAL hook
        addConn("wal.checkpoint", 2, (x, c) -> {
            dev.panlite.CheckpointMode mode = x.chance(10) ? null : x.oneOf(List.of(dev.panlite.CheckpointMode.values()));
            c.unwrap(PanliteConnection.class).checkpoint(mode);
        });
        addConn("wal.pragma", 1, (x, c) -> { // the same by SQL, and SQLite's own autocheckpoint replacing the hook
            String sql = x.oneOf(List.of("PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 1",
                    "PRAGMA wal_autocheckpoint = 0", "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA wal_checkpoint(PASSIVE)"));
            x.note(sql);
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        });

        addConn("gate.notFileWrites", 1, (x, c) -> { // TEMP writes, journal_mode, busy_timeout: no gate, SQLite never sleeps
            String sql = x.oneOf(List.of("CREATE TEMP TABLE IF NOT EXISTS fz_tmp(a)", "INSERT INTO temp.fz_tmp VALUES (1)",
                    "CREATE TEMP TABLE IF NOT EXISTS fz_tmp(a); INSERT INTO fz_tmp SELECT a FROM t LIMIT 3",
                    "DROP TABLE IF EXISTS temp.fz_tmp", "PRAGMA journal_mode", "PRAGMA main.journal_mode = WAL",
                    "PRAGMA busy_timeout", "PRAGMA busy_timeout = 20", "pragma main.\"busy_timeout\"(0x14);",
                    "PRAGMA busy_timeout = ; SELECT 1", "SELECT 1; PRAGMA busy_timeout(20); PRAGMA busy_timeout"));
            x.note(sql);
            try (Statement s = c.createStatement()) {
                boolean rows = s.execute(sql);
                while (rows || s.getUpdateCount() != -1) {
                    if (rows) {
                        try (java.sql.ResultSet rs = s.getResultSet()) {
                            while (rs.next()) {
                                rs.getObject(1);
                            }
                        }
                    }
                    rows = s.getMoreResults();
                }
            }
        });

        // ---------------------------------------------------------------- backup / restore
        addConn("backup.api", 2, (x, c) -> {
            java.nio.file.Path file = java.nio.file.Path.of(x.w.file(2 + x.r.nextInt(2)));
            Callbacks.Body body = Callbacks.handler(x.w, x, c, "backup progress");
            // what the progress callback throws stops the copy and comes back as an SQLException
            dev.panlite.BackupProgress progress = x.chance(30) ? null
                    : (remaining, pageCount) -> Callbacks.runUnchecked(body, "backup progress");
            String schema = x.oneOf(List.of("main", "main", "temp", "aux", "nosuch"));
            PanliteConnection p = c.unwrap(PanliteConnection.class);
            if (x.r.nextBoolean()) {
                p.backup(schema, file, progress);
            } else {
                p.restore(schema, x.chance(90) ? file : java.nio.file.Path.of("/nonexistent/x.db"), progress);
            }
        });
        addConn("backup.run", 2, (x, c) -> {
            String file = x.w.file(2 + x.r.nextInt(2));
            String sql = x.oneOf(List.of("backup to ", "restore from ", "backup main to ", "restore main from ", "backup temp to "))
                    + (x.r.nextBoolean() ? "'" + file + "'" : file);
            x.note(sql);
            Statement s = x.chance(70) ? c.createStatement() : x.w.statements.pick(x.r);
            if (s != null) {
                s.execute(sql);
            }
        });
    }

    // ---------------------------------------------------------------- pooled handles (group "pool.")

    /** SQL a borrower may leave behind in its connection: a transaction, settings, attachments, TEMP objects. */
    private static final List<String> SESSION_SQL = List.of(
            "BEGIN; INSERT INTO t(a) VALUES (7)", "BEGIN IMMEDIATE", "SAVEPOINT fz", "PRAGMA query_only = 1",
            "PRAGMA foreign_keys = 1", "PRAGMA locking_mode = EXCLUSIVE", "PRAGMA case_sensitive_like = 1",
            "PRAGMA temp_store = 2", "PRAGMA busy_timeout = 20", "PRAGMA cache_size = 10",
            "ATTACH ':memory:' AS fz_aux", "CREATE TABLE IF NOT EXISTS fz_aux.x(y)", "DETACH fz_aux",
            "CREATE TEMP TABLE IF NOT EXISTS fz_temp(x); INSERT INTO fz_temp VALUES (1)",
            "CREATE TEMP TRIGGER IF NOT EXISTS fz_trigger AFTER INSERT ON t BEGIN SELECT 1; END");

    static {
        pooledHandles(); // apart from the table above, so other groups' additions there do not meet these
    }

    static {
        VectorActions.register(Actions::add); // sqlite-vec (group "vec."), in a file of its own
    }

    /**
     * Handles of PanliteConnectionPoolDataSource borrowed and closed while other threads use them: a
     * borrow closes the previous handle (its reset rolls back, detaches, empties TEMP and puts back
     * PRAGMAs, or closes the physical connection when that fails) under whoever holds it, and the
     * handle reached through a statement, result set or metadata is closed or changed too.
     */
    private static void pooledHandles() {
        add("pool.borrow", 3, x -> {
            javax.sql.PooledConnection pc = x.w.pooled.pick(x.r);
            if (pc == null || x.chance(10)) {
                pc = new dev.panlite.PanliteConnectionPoolDataSource(x.w.url(x.r)).getPooledConnection();
                x.w.pooled.put(x.r, pc);
                x.w.openedPooled.add(pc);
            }
            Connection handle = pc.getConnection(); // the previous handle closes, maybe mid-call on another thread
            x.w.opened.add(handle);
            if (x.chance(60)) {
                leaveBehind(x, handle);
            }
            if (x.chance(70)) {
                x.w.connections.put(x.r, handle);
            } else {
                handle.close();
            }
        });
        addConn("pool.leave", 3, (x, c) -> {
            leaveBehind(x, c);
            if (x.chance(30)) {
                c.close(); // a pooled handle's reset runs here, maybe while another thread uses it
            }
        });
        add("pool.getters", 3, x -> {
            Connection via = switch (x.r.nextInt(3)) {
                case 0 -> {
                    Statement s = x.chance(50) ? x.w.statements.pick(x.r) : x.w.prepared.pick(x.r);
                    yield s == null ? null : s.getConnection();
                }
                case 1 -> {
                    ResultSet rs = x.w.results.pick(x.r);
                    Statement s = rs == null ? null : rs.getStatement();
                    yield s == null ? null : s.getConnection();
                }
                default -> {
                    Connection c = x.w.connections.pick(x.r);
                    yield c == null ? null : c.getMetaData().getConnection();
                }
            };
            if (via == null) {
                return;
            }
            switch (x.r.nextInt(5)) {
                case 0 -> via.close(); // a handle's close through its statement: the pool's event, not the physical close
                case 1 -> via.setReadOnly(x.r.nextBoolean());
                case 2 -> via.setAutoCommit(x.r.nextBoolean());
                case 3 -> leaveBehind(x, via);
                default -> x.w.connections.put(x.r, via);
            }
        });
    }

    /** Runs SQL that changes what the connection's next borrower would inherit if nothing put it back. */
    private static void leaveBehind(Ctx x, Connection c) throws SQLException {
        String sql = x.oneOf(SESSION_SQL);
        x.note(sql);
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    // ---------------------------------------------------------------- wide results (issue 27)

    /**
     * Results and batch rows wider than the row buffer (RowBuffer.CELLS, 4,096 values), up to the
     * engine's column limit and one past it: a row copy once wrote past the buffer there and took the
     * JVM down. Wide queries are read through Statement and PreparedStatement with every fetch size,
     * shared with the other threads (whose getters and commits, rollbacks and closes meet them), and
     * read at the columns around the buffer's edge; wide batch rows run inside whatever transaction
     * the connection is in.
     */
    private static void addWideResults() {
        addConn("rs.wide", 2, (x, c) -> {
            int width = wideWidth(x);
            String sql = wideQuery(x, width);
            x.note("wide query of " + width + " columns");
            Statement s = x.r.nextBoolean() ? c.createStatement() : c.prepareStatement(sql);
            ResultSet rs;
            try {
                s.setFetchSize(x.oneOf(List.of(0, 0, 1, 3, 64, 100_000)));
                rs = s instanceof PreparedStatement p ? p.executeQuery() : s.executeQuery(sql);
            } catch (SQLException e) {
                s.close();
                throw e;
            }
            if (x.chance(50)) { // shared, with its statement
                if (s instanceof PreparedStatement p) {
                    x.w.prepared.put(x.r, p);
                } else {
                    x.w.statements.put(x.r, s);
                }
                x.w.results.put(x.r, rs);
                return;
            }
            try (s; rs) {
                while (rs.next()) {
                    for (int i = x.r.nextInt(6); i >= 0; i--) {
                        getWide(x, rs);
                    }
                }
            }
        });
        add("rs.wideGet", 3, x -> {
            ResultSet rs = x.w.results.pick(x.r);
            if (rs != null) {
                if (x.chance(30)) {
                    rs.next();
                }
                getWide(x, rs);
            }
        });
        addConn("ps.wideBatch", 1, (x, c) -> {
            int width = x.oneOf(List.of(100, 2000, 4096, 4097, 6000));
            StringBuilder columns = new StringBuilder();
            StringBuilder marks = new StringBuilder();
            for (int i = 0; i < width; i++) {
                columns.append(i == 0 ? "c0" : ", c" + i);
                marks.append(i == 0 ? "?" : ", ?");
            }
            x.note("wide table of " + width + " columns");
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS wide" + width + "(" + columns + ")");
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO wide" + width + " VALUES (" + marks + ")")) {
                for (int row = x.r.nextInt(4); row >= 0; row--) {
                    for (int i = x.r.nextInt(20); i >= 0; i--) {
                        setParameter(x, p, x.chance(50) ? width - x.r.nextInt(3) : 1 + x.r.nextInt(width + 1));
                    }
                    p.addBatch();
                }
                p.executeBatch();
            }
            try (Statement s = c.createStatement()) {
                s.setFetchSize(x.oneOf(List.of(0, 1, 1000)));
                keepOrDrain(x, s.executeQuery("SELECT * FROM wide" + width), 0);
            }
        });
    }

    /** Widths around the buffer's edge and SQLite's limits (32,767 the bundled engine's, 2,000 a system SQLite's default). */
    static int wideWidth(Ctx x) {
        if (x.chance(5)) {
            return x.oneOf(List.of(32767, 32768)); // the limit, and one over it (an SQLException); slow to prepare
        }
        return x.oneOf(List.of(1, 2000, 2001, 2049, 4095, 4096, 4097, 5000, 6000, 10000));
    }

    /**
     * A query of {@code width} columns and up to three rows, of every storage class, with now and then
     * a text or blob over RowBuffer.VALUE_LIMIT (its row is read in place for that reason too).
     */
    static String wideQuery(Ctx x, int width) {
        StringBuilder sql = new StringBuilder("SELECT ");
        boolean large = x.chance(20);
        for (int i = 0; i < width; i++) {
            if (i > 0) {
                sql.append(',');
            }
            switch (i % 5) {
                case 0 -> sql.append("k*").append(i);
                case 1 -> sql.append(i).append(".5/k");
                case 2 -> sql.append(large && i == 2 ? "printf('%.*c', 9000, 'x')" : "'t" + i + "'");
                case 3 -> sql.append(large && i == 3 ? "zeroblob(9000)" : "x'0" + (i % 10) + "'");
                default -> sql.append("NULL");
            }
        }
        return sql.append(" FROM (SELECT column1 AS k FROM (VALUES (1), (2), (3)) LIMIT ").append(x.r.nextInt(4)).append(')')
                .toString();
    }

    /** A getter at a column of a wide result: its ends, the buffer's edge, one past the last, or anywhere. */
    static void getWide(Ctx x, ResultSet rs) throws SQLException {
        int n = rs.getMetaData().getColumnCount();
        int edge = dev.panlite.ffi.RowBuffer.CELLS;
        int i = x.oneOf(List.of(1, n, n + 1, edge, edge + 1, 1 + x.r.nextInt(Math.max(1, n))));
        switch (x.r.nextInt(9)) {
            case 0 -> rs.getInt(i);
            case 1 -> rs.getLong(i);
            case 2 -> rs.getString(i);
            case 3 -> rs.getBytes(i);
            case 4 -> rs.getDouble(i);
            case 5 -> rs.getObject(i);
            case 6 -> rs.getBigDecimal(i);
            case 7 -> readAll(rs.getBinaryStream(i));
            default -> rs.getTimestamp(i);
        }
    }

    static void close(AutoCloseable c) throws Exception {
        if (c != null) {
            c.close();
        }
    }

    /** Shares a result set with the other threads ({@code percent} of the time), else reads and closes it. */
    static void keepOrDrain(Ctx x, ResultSet rs, int percent) throws SQLException {
        if (rs == null) { // the statement is shared: another thread's execute or close took its result first
            return;
        }
        if (x.chance(percent)) {
            x.w.results.put(x.r, rs);
        } else {
            drain(x, rs);
        }
    }

    static void drain(Ctx x, ResultSet rs) throws SQLException {
        try (rs) {
            for (int i = 0; i < 50 && rs.next(); i++) {
                get(x, rs);
            }
        }
    }

    static void readAll(InputStream in) throws SQLException {
        if (in == null) {
            return; // SQL NULL
        }
        try (in) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException e) {
            // IOException is what a stream may throw; not a finding
        }
    }

    static void readAll(Reader in) {
        if (in == null) {
            return;
        }
        try (in) {
            in.transferTo(java.io.Writer.nullWriter());
        } catch (IOException e) {
            // as above
        }
    }

    /** A getter of some type on a column by index or label. */
    static void get(Ctx x, ResultSet rs) throws SQLException {
        int i = x.index();
        if (x.chance(20)) {
            i = rs.findColumn(x.label());
        }
        switch (x.r.nextInt(26)) {
            case 0 -> rs.getInt(i);
            case 1 -> rs.getLong(i);
            case 2 -> rs.getString(i);
            case 3 -> rs.getBytes(i);
            case 4 -> rs.getDouble(i);
            case 5 -> rs.getFloat(i);
            case 6 -> rs.getShort(i);
            case 7 -> rs.getByte(i);
            case 8 -> rs.getBoolean(i);
            case 9 -> rs.getBigDecimal(i);
            case 10 -> rs.getDate(i);
            case 11 -> rs.getTime(i);
            case 12 -> rs.getTimestamp(i);
            case 13 -> rs.getObject(i);
            case 14 -> rs.getObject(i, x.oneOf(List.of(java.time.LocalDate.class, java.time.LocalDateTime.class,
                    java.time.OffsetDateTime.class, java.time.Instant.class, java.util.UUID.class, String.class,
                    Integer.class, byte[].class, java.math.BigInteger.class, Blob.class, Object.class, Thread.class)));
            case 15 -> readAll(rs.getBinaryStream(i));
            case 16 -> readAll(rs.getCharacterStream(i));
            case 17 -> rs.getNString(i);
            case 18 -> rs.getURL(i);
            case 19 -> rs.getClob(i);
            case 20 -> rs.getObject(i, java.util.Map.of());
            case 21 -> rs.getDate(i, java.util.Calendar.getInstance());
            case 22 -> rs.getTimestamp(x.label());
            case 23 -> rs.getString(x.label());
            case 24 -> rs.getAsciiStream(i);
            default -> rs.wasNull();
        }
    }

    static void resultMeta(Ctx x, ResultSetMetaData md) throws SQLException {
        int n = md.getColumnCount();
        int i = x.chance(80) && n > 0 ? 1 + x.r.nextInt(n) : x.index();
        switch (x.r.nextInt(9)) {
            case 0 -> md.getColumnName(i);
            case 1 -> md.getColumnLabel(i);
            case 2 -> md.getColumnType(i);
            case 3 -> md.getColumnTypeName(i);
            case 4 -> md.isNullable(i);
            case 5 -> md.getTableName(i);
            case 6 -> md.isAutoIncrement(i);
            case 7 -> md.getColumnClassName(i);
            default -> md.getPrecision(i);
        }
    }

    /** A setter of some type at {@code i}. */
    static void setParameter(Ctx x, PreparedStatement p, int i) throws SQLException {
        switch (x.r.nextInt(16)) {
            case 0 -> p.setInt(i, x.r.nextInt());
            case 1 -> p.setLong(i, x.r.nextLong());
            case 2 -> p.setString(i, (String) x.oneOf(List.of("a", "one", "", "\uD800x")));
            case 3 -> p.setBytes(i, new byte[x.r.nextInt(100)]);
            case 4 -> p.setDouble(i, x.r.nextDouble());
            case 5 -> p.setNull(i, x.oneOf(List.of(Types.INTEGER, Types.BLOB, Types.OTHER, 12345)));
            case 6 -> p.setObject(i, x.value());
            case 7 -> p.setObject(i, x.value(), x.oneOf(List.of(Types.VARCHAR, Types.INTEGER, Types.TIMESTAMP, Types.ARRAY)));
            case 8 -> p.setBigDecimal(i, new java.math.BigDecimal(x.r.nextInt()).movePointLeft(3));
            case 9 -> p.setTimestamp(i, new java.sql.Timestamp(x.r.nextLong() % 4_000_000_000_000L));
            case 10 -> p.setDate(i, new java.sql.Date(0), java.util.Calendar.getInstance());
            case 11 -> p.setCharacterStream(i, new StringReader("chars"), x.oneOf(List.of(5, 0, -1, 100)));
            case 12 -> p.setBinaryStream(i, failingStream(x));
            case 13 -> p.setBinaryStream(i, new ByteArrayInputStream(new byte[10]), x.oneOf(List.of(10L, 3L, -1L, 100L)));
            case 14 -> p.setBoolean(i, x.r.nextBoolean());
            default -> p.clearParameters();
        }
    }

    /** A stream that fails half way, as a network stream does. */
    static InputStream failingStream(Ctx x) {
        int failAt = x.r.nextInt(20);
        return new InputStream() {
            int n;

            @Override
            public int read() throws IOException {
                if (n++ >= failAt) {
                    throw new IOException("fuzz: stream fails");
                }
                return 'x';
            }
        };
    }

    // ---------------------------------------------------------------- statement diagnostics (group "diag.")

    /** Queries that scan, sort and build automatic indexes on the fuzz table t (no index but its rowid). */
    private static final List<String> DIAG_SQL = List.of("SELECT * FROM t WHERE b = 'two'", "SELECT a, b FROM t ORDER BY b",
            "SELECT count(*) FROM t t1 JOIN t t2 ON t2.b = t1.b", "SELECT b, count(*) FROM t GROUP BY b",
            "UPDATE t SET c = c WHERE b = 'one'", "SELECT * FROM t WHERE a IN (SELECT a FROM t WHERE b > ?)");

    static {
        statementDiagnostics(); // apart from the table above, so other groups' additions there do not meet these
    }

    /**
     * SQLite's statement counters (sqlite3_stmt_status, read where a statement is reset): read through
     * PanliteStatement.counters() from any thread, on statements closed, running on another thread or
     * held by a result set mid-read, and from inside a function running SQL on the same connection;
     * and connections that report every scan, sort and automatic index (thresholds 1), so the report
     * path (EXPLAIN QUERY PLAN after the reset, the warning, the JFR event) meets the same misuse.
     */
    private static void statementDiagnostics() {
        add("diag.counters", 4, x -> {
            Statement s = x.chance(50) ? x.w.statements.pick(x.r) : x.w.prepared.pick(x.r);
            if (s != null) {
                s.unwrap(dev.panlite.PanliteStatement.class).counters();
            }
        });
        add("diag.open", 1, x -> {
            String url = "jdbc:sqlite:" + x.w.file(x.r.nextInt(2)) + "?busy_timeout=50&fullscan_threshold=1&sort_threshold=1"
                    + "&autoindex_threshold=1&stmt_cache_size=" + x.r.nextInt(4)
                    + (x.chance(20) ? "&statement_diagnostics=false" : "");
            Connection c = new dev.panlite.Driver().connect(url, new java.util.Properties());
            x.w.opened.add(c);
            Connection old = x.w.connections.put(x.r, c);
            if (old != null && x.chance(50)) {
                old.close();
            }
        });
        addConn("diag.scan", 3, (x, c) -> {
            String sql = x.oneOf(DIAG_SQL);
            x.note(sql);
            if (x.chance(50)) {
                PreparedStatement p = c.prepareStatement(sql);
                if (p.getParameterMetaData().getParameterCount() > 0) {
                    p.setString(1, "a");
                }
                x.w.prepared.put(x.r, p);
                if (p.execute()) {
                    keepOrDrain(x, p.getResultSet(), 30);
                }
            } else {
                Statement s = c.createStatement();
                x.w.statements.put(x.r, s);
                if (s.execute(sql.replace("?", "'a'"))) {
                    keepOrDrain(x, s.getResultSet(), 30);
                }
            }
        });
        addConn("diag.inFunction", 1, (x, c) -> {
            // The function reads statements of its own connection only: one of another connection would
            // wait for that connection's lock while holding its own, and two such functions running at
            // once on two connections wait for each other for ever (lock order is the application's, as
            // with any two locks; seed 3 of the misuse fuzz met it).
            List<Statement> mine = new java.util.concurrent.CopyOnWriteArrayList<>();
            c.unwrap(PanliteConnection.class).createFunction("fz_counters", -1, false, args -> {
                Statement s = mine.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(mine.size()));
                return s.unwrap(dev.panlite.PanliteStatement.class).counters().vmSteps();
            });
            PreparedStatement p = c.prepareStatement("SELECT b FROM t WHERE b = ?");
            x.w.prepared.put(x.r, p);
            mine.add(p);
            Statement s = c.createStatement();
            mine.add(s); // the function meets the very statement running it
            x.w.statements.put(x.r, s);
            keepOrDrain(x, s.executeQuery("SELECT fz_counters(), b FROM t ORDER BY b"), 30);
        });
        add("diag.stats", 1, x -> {
            dev.panlite.PanliteStats.snapshot();
            for (String name : dev.panlite.PanliteStats.byDatabase().keySet()) {
                dev.panlite.PanliteStats.snapshot(name);
            }
            java.util.function.Consumer<String> listener = name -> dev.panlite.PanliteStats.snapshot(name);
            dev.panlite.PanliteStats.addDatabaseListener(listener);
            dev.panlite.PanliteStats.removeDatabaseListener(listener);
        });
    }

    static {
        extensions(); // apart from the tables above, as diag.: the seeds of earlier findings replay as before
    }

    /**
     * Extensions loaded at run time (PanliteConnection.loadExtension and load_extensions): real ones
     * built from C ({@link FuzzExtensions}), one whose entry point fails after registering half(), a
     * library that is no extension, paths that are no library; on shared connections that other
     * threads use, close and abort meanwhile, on closed ones, from two threads at once, and inside
     * callbacks (ANY_ACTION: refused); then calls to what they registered.
     */
    private static void extensions() {
        addConn("ext.load", 3, (x, c) -> {
            Path library = extensionPath(x);
            String entryPoint = x.chance(70) ? null : x.oneOf(List.of("sqlite3_other_init", "sqlite3_extension_init",
                    "sqlite3_nope_init", "sqlite3_vec_init", "not_code"));
            x.note("loadExtension " + library + " " + entryPoint);
            try {
                c.unwrap(PanliteConnection.class).loadExtension(library, entryPoint);
            } finally {
                if (x.chance(50)) { // at once, what it registered: also what an entry point left before it failed
                    try (Statement s = c.createStatement()) {
                        keepOrDrain(x, s.executeQuery(x.oneOf(List.of("SELECT half()", "SELECT answer()", "SELECT other()"))), 0);
                    }
                }
            }
        });
        add("ext.closed", 1, x -> { // a connection closed now, or by another thread, or closing there meanwhile
            Connection c = x.w.connections.pick(x.r);
            if (c != null) {
                PanliteConnection p = c.unwrap(PanliteConnection.class);
                if (x.chance(50)) {
                    c.close();
                }
                p.loadExtension(extensionPath(x), null);
            }
        });
        addConn("ext.call", 2, (x, c) -> {
            // SQL's load_extension() (enable_load_extension=true, the incumbent's way) never gets failing.so:
            // SQLite unloads it with half() still registered, and only loadExtension keeps it mapped (README);
            // nor notcode.so: only loadExtension refuses an entry point that is a variable (README)
            Path bySql = extensionPath(x);
            String name = String.valueOf(bySql.getFileName());
            bySql = name.equals("failing.so") || name.equals("notcode.so") ? bySql.resolveSibling("answer.so") : bySql;
            String sql = x.oneOf(List.of("SELECT answer()", "SELECT half()", "SELECT other()",
                    "SELECT answer(), half(), b FROM t", "SELECT load_extension('" + bySql + "')"));
            x.note(sql);
            try (Statement s = c.createStatement()) {
                keepOrDrain(x, s.executeQuery(sql), 10);
            }
        });
        add("ext.open", 1, x -> {
            StringBuilder list = new StringBuilder();
            for (int i = x.r.nextInt(3); i >= 0; i--) {
                list.append(extensionPath(x)).append(x.chance(20) ? "!sqlite3_other_init|" : "|");
            }
            String url = x.w.url(x.r) + "&load_extensions=" + java.net.URLEncoder.encode(list.toString(),
                    java.nio.charset.StandardCharsets.UTF_8) + (x.chance(20) ? "&enable_load_extension=true" : "");
            x.note(url);
            Connection c = java.sql.DriverManager.getConnection(url); // fails when one of them does not load
            x.w.opened.add(c);
            Connection old = x.w.connections.put(x.r, c);
            if (old != null && x.chance(50)) {
                old.close();
            }
        });
    }

    /** A library to load: mostly one built from C, else a file that is none, a folder, or nothing at all. */
    private static Path extensionPath(Ctx x) {
        List<Path> built = FuzzExtensions.libraries(x.w);
        if (!built.isEmpty() && x.chance(70)) {
            return x.oneOf(built);
        }
        return x.oneOf(List.of(Path.of(x.w.file(0)), x.w.dir, x.w.dir.resolve("missing.so"), Path.of("no-such-extension")));
    }

    static {
        interruptScope(); // apart from the tables above, as ext.
    }

    /**
     * An interrupt stops the execution it was aimed at only (engine.Interrupts): Statement.cancel
     * from another thread before, during or after a query, or its timeout, while another result set
     * of the connection is held; the bundled engine then clears SQLite's flag
     * (panlite_interrupt_clear), under the lock, never after close.
     */
    private static void interruptScope() {
        add("stmt.cancelScope", 2, x -> {
            Statement s = x.w.statements.pick(x.r);
            ResultSet held = x.w.results.pick(x.r);
            if (s == null) {
                return;
            }
            if (x.chance(30)) {
                s.setQueryTimeout(1);
            }
            Thread canceller = Thread.ofVirtual().start(() -> {
                try {
                    s.cancel(); // before, during or after the execution below
                } catch (SQLException closed) {
                    // a statement another thread closed refuses cancel: an outcome, not a finding
                }
            });
            try {
                keepOrDrain(x, s.executeQuery(x.query()), 30);
            } finally {
                boolean interrupted = false; // conn.interrupt interrupts workers: the join still waits
                while (canceller.isAlive()) {
                    try {
                        canceller.join();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                if (held != null && x.chance(50)) {
                    held.next(); // runs on, or fails with an SQLException: never a crash
                }
            }
        });
    }
}
