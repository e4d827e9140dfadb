package dev.panlite.fuzz;

import dev.panlite.ChangeListener;
import dev.panlite.PanliteConnection;
import dev.panlite.SqlAggregate;
import dev.panlite.SqlFunction;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Java code that SQLite calls back (functions, aggregates, collations, change listeners), written
 * to misbehave: it throws every kind of Throwable, uses, closes or aborts its own connection,
 * replaces itself, and recurses through SQL without bound. Its own JDBC calls are guarded: a
 * non-SQLException they throw is a finding even though the driver would turn it into an error.
 */
final class Callbacks {
    private Callbacks() {}

    /** Thrown on purpose by callbacks: never a finding. */
    static final class FuzzRuntime extends RuntimeException {
        FuzzRuntime(String m) {
            super(m);
        }
    }

    static final class FuzzChecked extends Exception {
        FuzzChecked(String m) {
            super(m);
        }
    }

    static final class FuzzError extends Error {
        FuzzError(String m) {
            super(m);
        }
    }

    static final class FuzzOom extends OutOfMemoryError {
        FuzzOom(String m) {
            super(m);
        }
    }

    /**
     * Thrown on purpose by a pool's ConnectionEventListener. JDBC lets a listener's exception out of
     * the close that fired it, so this one alone may escape a JDBC call; everything the other
     * callbacks throw must become the statement's error (an SQLException) or be logged.
     */
    static final class PoolListenerThrow extends RuntimeException {
        PoolListenerThrow(String m) {
            super(m);
        }
    }

    /** True for the one deliberate throw the driver may let through: a pool listener's (not a finding). */
    static boolean poolListenerThrow(Throwable t) {
        return t instanceof PoolListenerThrow;
    }

    /** How callbacks misbehave; chosen at random when one is registered. */
    enum Mood {
        IDENTITY, ODD_TYPE, THROW_RUNTIME, THROW_CHECKED, THROW_ERROR, THROW_OOM, THROW_ASSERTION, STACK_OVERFLOW,
        QUERY_OWN, WRITE_OWN, CLOSE_OWN, ABORT_OWN, CLOSE_SHARED, REREGISTER, REPLACE_OTHER, RECURSE_SQL,
        COMMIT_OWN, ROLLBACK_OWN, CANCEL, ANY_ACTION, SLOW
    }

    interface Body {
        Object run() throws Exception;
    }

    /** Runs a JDBC call made inside a callback, recording a non-SQLException as a finding before rethrowing it. */
    static Object guard(World w, String where, Body body) throws Exception {
        try {
            return body.run();
        } catch (SQLException | PoolListenerThrow e) {
            throw e;
        } catch (Throwable t) {
            w.finding("callback " + where, t);
            throw t;
        }
    }

    static Mood mood(Ctx x) {
        Mood[] all = Mood.values();
        return x.chance(30) ? Mood.IDENTITY : all[x.r.nextInt(all.length)];
    }

    /** What a misbehaving callback does; {@code self} re-registers it. */
    static Object misbehave(World w, Mood mood, Connection own, String name, Object[] args) throws Exception {
        Ctx x = Ctx.current(w);
        switch (mood) {
            case IDENTITY:
                return args.length > 0 ? args[0] : null;
            case ODD_TYPE:
                return x.oneOf(ODD);
            case THROW_RUNTIME:
                throw new FuzzRuntime("fuzz: " + name + " throws");
            case THROW_CHECKED:
                throw new FuzzChecked("fuzz: " + name + " throws checked");
            case THROW_ERROR:
                throw new FuzzError("fuzz: " + name + " throws an Error");
            case THROW_OOM:
                throw new FuzzOom("fuzz: " + name + " pretends to run out of memory");
            case THROW_ASSERTION:
                throw new AssertionError("fuzz: " + name + " asserts");
            case STACK_OVERFLOW:
                return deep(0);
            case QUERY_OWN:
                return guard(w, name, () -> {
                    try (Statement s = own.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), max(b) FROM t")) {
                        return rs.next() ? rs.getLong(1) : null;
                    }
                });
            case WRITE_OWN:
                return guard(w, name, () -> {
                    // bounded: an aggregate's step that adds a row to the table its query scans makes the
                    // scan meet that row, and so on without end (SQLite visits rows added during a scan):
                    // that was every F28 "hang", the fuzz's own endless workload, not the driver's
                    try (PreparedStatement p = own.prepareStatement(
                            "INSERT INTO t(a, b) SELECT ?, 'from callback' WHERE (SELECT count(*) FROM t) < 2000")) {
                        p.setObject(1, args.length > 0 ? args[0] : null);
                        return p.executeUpdate();
                    }
                });
            case CLOSE_OWN:
                return guard(w, name, () -> {
                    own.close();
                    return "closed";
                });
            case ABORT_OWN:
                return guard(w, name, () -> {
                    own.abort(x.chance(50) ? Runnable::run : ABORTER);
                    return "aborted";
                });
            case CLOSE_SHARED:
                return guard(w, name, () -> {
                    AutoCloseable c = x.chance(50) ? w.results.pick(x.r) : x.chance(50) ? w.statements.pick(x.r) : w.prepared.pick(x.r);
                    if (c != null) {
                        c.close();
                    }
                    return "closed shared";
                });
            case REREGISTER:
                return guard(w, name, () -> {
                    PanliteConnection p = own.unwrap(PanliteConnection.class);
                    if (name.startsWith("fz_win")) {
                        p.createWindowFunction(name, -1, x.r.nextBoolean(), windowFactory(w, x, own, name));
                    } else if (name.startsWith("fz_agg")) {
                        p.createAggregate(name, -1, x.r.nextBoolean(), aggregateFactory(w, x, own, name));
                    } else if (name.startsWith("fz_coll")) {
                        p.createCollation(name, collation(w, x, own, name));
                    } else {
                        p.createFunction(name, -1, x.r.nextBoolean(), function(w, x, own, name));
                    }
                    return "re-registered";
                });
            case REPLACE_OTHER:
                return guard(w, name, () -> {
                    String other = x.oneOf(List.of("fz_f", "fz_g", "fz_agg", "fz_coll", "fz_win"));
                    register(w, x, own, other);
                    return "replaced " + other;
                });
            case RECURSE_SQL:
                return guard(w, name, () -> {
                    try (PreparedStatement p = own.prepareStatement("SELECT " + (name.startsWith("fz_agg") ? "fz_f" : name.startsWith("fz_coll") ? "fz_f" : name) + "(?)")) {
                        p.setObject(1, args.length > 0 ? args[0] : 1);
                        try (ResultSet rs = p.executeQuery()) {
                            return rs.next() ? rs.getObject(1) : null;
                        }
                    }
                });
            case COMMIT_OWN:
                return guard(w, name, () -> {
                    own.setAutoCommit(x.r.nextBoolean());
                    own.commit();
                    return "committed";
                });
            case ROLLBACK_OWN:
                return guard(w, name, () -> {
                    try (Statement s = own.createStatement()) {
                        s.execute(x.chance(50) ? "ROLLBACK" : "BEGIN");
                    }
                    own.rollback();
                    return "rolled back";
                });
            case CANCEL:
                return guard(w, name, () -> {
                    Statement s = w.statements.pick(x.r);
                    if (s != null) {
                        s.cancel();
                    }
                    return "cancelled";
                });
            case SLOW:
                if (x.r.nextInt(200) == 0) { // rarely: a query calls it per row
                    Thread.sleep(x.r.nextInt(20)); // widens the window for other threads' close, abort, cancel
                }
                return args.length > 0 ? args[0] : null;
            case ANY_ACTION:
                if (x.depth < 2) {
                    x.depth++;
                    try {
                        MisuseFuzzChild.runOne(x, "callback " + name);
                    } finally {
                        x.depth--;
                    }
                }
                return "any";
            default:
                throw new IllegalStateException(mood.toString());
        }
    }

    private static long deep(long n) {
        return deep(n + 1) + 1; // until StackOverflowError
    }

    private static final Object SELF_FAILING = new Object() {
        @Override
        public String toString() {
            throw new FuzzRuntime("fuzz: toString of a function's result throws");
        }
    };

    static final List<Object> ODD = List.of(new Object(), new BigDecimal("1e400"), new int[] {1}, Boolean.TRUE,
            Float.NaN, 'c', java.util.Optional.empty(), java.time.LocalDate.of(2020, 1, 1), (short) 7, (byte) -1,
            new byte[0], "", "x".repeat(1 << 20), Double.NEGATIVE_INFINITY, Long.MIN_VALUE, SELF_FAILING,
            new java.math.BigInteger("123456789012345678901234567890"), new StringBuilder("sb"), Thread.currentThread());

    /** Runs an abort's closing on a fresh thread; what that throws is a finding. */
    static final Executor ABORTER = task -> {
        Thread t = new Thread(task, "fuzz-abort");
        t.setDaemon(true);
        t.start();
    };

    /**
     * The body of a callback of any new kind (progress, busy or authorizer handler, ...): each run
     * misbehaves in the way drawn now, as functions do; returns the callback's "result" (null mostly).
     */
    static Body handler(World w, Ctx x, Connection own, String name) {
        Mood mood = mood(x);
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        return () -> {
            // a progress handler runs every N instructions: one that runs a whole action each time would keep
            // a query going for minutes (the watchdog's "hang"), so a handler misbehaves for its first runs only
            // (a slow one, every instruction of a million-row query, as much: seed 1 met it)
            if ((mood == Mood.ANY_ACTION || mood == Mood.SLOW) && runs.incrementAndGet() > HANDLER_ACTIONS) {
                return null;
            }
            Object v = misbehave(w, mood, own, name, new Object[0]);
            return mood == Mood.IDENTITY ? null : v;
        };
    }

    /** How many actions one handler of the ANY_ACTION mood runs before it behaves. */
    static final int HANDLER_ACTIONS = 64;

    static SqlFunction function(World w, Ctx x, Connection own, String name) {
        Mood mood = mood(x);
        return args -> misbehave(w, mood, own, name, args);
    }

    static java.util.function.Supplier<SqlAggregate> aggregateFactory(World w, Ctx x, Connection own, String name) {
        Mood factoryMood = x.chance(85) ? Mood.IDENTITY : x.oneOf(List.of(Mood.THROW_RUNTIME, Mood.THROW_ERROR, Mood.ODD_TYPE));
        Mood stepMood = mood(x);
        Mood finishMood = mood(x);
        return () -> {
            switch (factoryMood) {
                case THROW_RUNTIME -> throw new FuzzRuntime("fuzz: aggregate factory throws");
                case THROW_ERROR -> throw new FuzzError("fuzz: aggregate factory throws an Error");
                case ODD_TYPE -> {
                    return null; // a factory that supplies no aggregate
                }
                default -> {
                    return new Accumulator(w, own, name, stepMood, stepMood, finishMood);
                }
            }
        };
    }

    /** An aggregate (and window function) whose every step can misbehave; counts the rows in its frame. */
    private static final class Accumulator implements dev.panlite.SqlWindowFunction {
        private final World w;
        private final Connection own;
        private final String name;
        private final Mood stepMood;
        private final Mood inverseMood;
        private final Mood valueMood;
        private long rows;

        Accumulator(World w, Connection own, String name, Mood stepMood, Mood inverseMood, Mood valueMood) {
            this.w = w;
            this.own = own;
            this.name = name;
            this.stepMood = stepMood;
            this.inverseMood = inverseMood;
            this.valueMood = valueMood;
        }

        @Override
        public void step(Object[] args) throws Exception {
            rows++;
            misbehave(w, stepMood, own, name, args);
        }

        @Override
        public void inverse(Object[] args) throws Exception {
            rows--;
            misbehave(w, inverseMood, own, name, args);
        }

        @Override
        public Object value() throws Exception {
            Object v = misbehave(w, valueMood, own, name, new Object[] {rows});
            return valueMood == Mood.IDENTITY ? rows : v;
        }
    }

    static java.util.function.Supplier<dev.panlite.SqlWindowFunction> windowFactory(World w, Ctx x, Connection own, String name) {
        Mood stepMood = mood(x);
        Mood inverseMood = mood(x);
        Mood valueMood = mood(x);
        Mood factoryMood = x.chance(90) ? Mood.IDENTITY : x.oneOf(List.of(Mood.THROW_RUNTIME, Mood.ODD_TYPE));
        return () -> switch (factoryMood) {
            case THROW_RUNTIME -> throw new FuzzRuntime("fuzz: window factory throws");
            case ODD_TYPE -> null; // a factory that supplies no window function
            default -> new Accumulator(w, own, name, stepMood, inverseMood, valueMood);
        };
    }

    /** Runs {@code body} where only unchecked throws are allowed (comparators, listeners, progress). */
    static void runUnchecked(Body body, String where) {
        try {
            body.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new FuzzRuntime("fuzz: " + where + ": " + e);
        }
    }

    static Comparator<String> collation(World w, Ctx x, Connection own, String name) {
        int kind = x.r.nextInt(8);
        Mood mood = mood(x);
        return (a, b) -> switch (kind) {
            case 0 -> a.compareTo(b);
            case 1 -> b.compareTo(a);
            case 2 -> Ctx.current(w).r.nextInt(3) - 1; // inconsistent
            case 3 -> Integer.MIN_VALUE; // a < b and b < a
            case 4 -> Integer.compare(a.length(), b.length());
            default -> {
                runUnchecked(() -> misbehave(w, mood, own, name, new Object[] {a, b}), "collation");
                yield a.compareTo(b);
            }
        };
    }

    static ChangeListener listener(World w, Ctx x, Connection own) {
        Mood mood = mood(x);
        return new ChangeListener() {
            private void act(Object what) {
                runUnchecked(() -> misbehave(w, mood, own, "listener", new Object[] {what}), "listener");
            }

            @Override
            public void rowChanged(Kind kind, String schema, String table, long rowId) {
                act(rowId);
            }

            @Override
            public void committed() {
                act("commit");
            }

            @Override
            public void rolledBack() {
                act("rollback");
            }
        };
    }

    /** Registers (or replaces) the callback called {@code name} on {@code c}. */
    static void register(World w, Ctx x, Connection c, String name) throws SQLException {
        PanliteConnection p = c.unwrap(PanliteConnection.class);
        if (name.startsWith("fz_win")) {
            p.createWindowFunction(name, x.chance(80) ? -1 : x.r.nextInt(3), x.r.nextBoolean(), windowFactory(w, x, c, name));
        } else if (name.startsWith("fz_agg")) {
            p.createAggregate(name, x.chance(80) ? -1 : x.r.nextInt(3), x.r.nextBoolean(), aggregateFactory(w, x, c, name));
        } else if (name.startsWith("fz_coll")) {
            p.createCollation(name, collation(w, x, c, name));
        } else {
            p.createFunction(name, x.chance(80) ? -1 : x.r.nextInt(3), x.r.nextBoolean(), function(w, x, c, name));
        }
    }
}
