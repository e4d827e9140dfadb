package dev.panlite.fuzz;

import java.math.BigDecimal;
import java.sql.Connection;
import java.util.List;
import java.util.Random;

/**
 * One fuzz thread's view: the shared {@link World}, its own seeded Random, its trace ring, and the
 * random ingredients actions draw from (SQL texts good and bad, indexes, values).
 */
final class Ctx {
    private static final ThreadLocal<Ctx> CURRENT = new ThreadLocal<>();

    final World w;
    final Random r;
    final int thread;
    final Trace trace;
    /** How deep callbacks running actions are nested on this thread (kept small on purpose). */
    int depth;

    Ctx(World w, Random r, int thread, Trace trace) {
        this.w = w;
        this.r = r;
        this.thread = thread;
        this.trace = trace;
    }

    /** The calling thread's context: a callback runs on a fuzz thread, or else on one without (gets a fresh one). */
    static Ctx current(World w) {
        Ctx c = CURRENT.get();
        return c != null ? c : new Ctx(w, new Random(), -1, null);
    }

    void bind() {
        CURRENT.set(this);
    }

    /** Adds a detail (e.g. the SQL) to this thread's trace. */
    void note(String what) {
        if (trace != null && thread >= 0) {
            trace.record(thread, "  " + (what.length() > 140 ? what.substring(0, 140) : what));
        }
    }

    boolean chance(int percent) {
        return r.nextInt(100) < percent;
    }

    <T> T oneOf(List<T> items) {
        return items.get(r.nextInt(items.size()));
    }

    /** A shared connection, often a new one in place of an empty slot or a closed connection. */
    Connection conn() throws java.sql.SQLException {
        Connection c = w.connections.pick(r);
        if (c == null && chance(50) || c != null && c.isClosed() && chance(60)) {
            c = w.open(r);
            Connection old = w.connections.put(r, c);
            if (old != null && chance(50)) {
                old.close();
            }
        }
        return c;
    }

    /** Column / parameter indexes, mostly valid, sometimes not. */
    int index() {
        return chance(85) ? 1 + r.nextInt(5) : oneOf(List.of(0, -1, 6, 100, Integer.MAX_VALUE, Integer.MIN_VALUE));
    }

    String label() {
        return oneOf(List.of("id", "a", "b", "c", "d", "ID", "x", "count(*)", "", "nosuch", "t.a", "1"));
    }

    /** A value of some Java type for setObject and friends. */
    Object value() {
        return switch (r.nextInt(16)) {
            case 0 -> null;
            case 1 -> r.nextInt();
            case 2 -> r.nextLong();
            case 3 -> r.nextDouble() * 1e6;
            case 4 -> oneOf(List.of(Double.NaN, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE));
            case 5 -> "text " + r.nextInt(1000);
            case 6 -> oneOf(List.of("", "\u0000", "\uD800", "Ünïcödé 🎉", "x".repeat(100_000), "'; DROP TABLE t; --"));
            case 7 -> new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(5000)];
            case 8 -> new BigDecimal("1234567890123456789012345678901234567890.5");
            case 9 -> new java.sql.Timestamp(r.nextLong() % 10_000_000_000_000L);
            case 10 -> java.time.LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_999);
            case 11 -> java.time.OffsetDateTime.now();
            case 12 -> r.nextBoolean();
            case 13 -> new Object();
            case 14 -> java.util.UUID.randomUUID();
            default -> new int[] {1, 2};
        };
    }

    /** An SQL text: mostly good, often bad, sometimes calling the fuzz's callbacks. */
    String sql() {
        int p = r.nextInt(100);
        return p < 70 ? oneOf(GOOD) : p < 75 && w.virtualTables ? oneOf(VTAB) : oneOf(BAD);
    }

    /** A query (for executeQuery), mostly good. */
    String query() {
        return r.nextInt(100) < 85 ? oneOf(QUERIES) : oneOf(BAD);
    }

    static final List<String> QUERIES = List.of(
            "SELECT * FROM t",
            "SELECT id, a, b, c, d FROM t WHERE id > ?",
            "SELECT a, b FROM t WHERE a = ? OR b = ?",
            "SELECT count(*), sum(c), max(b) FROM t",
            "SELECT 1, 'x', 2.5, x'00ff', NULL, ?",
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 30000) SELECT sum(i) FROM r",
            // long enough (~0.5 s) for other threads to cancel, time out, close or abort it mid-step
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 1000000) SELECT i FROM r WHERE i % 250000 = 0",
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3000) SELECT count(fz_f(i)) FROM r",
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200) SELECT i, fz_f(i) FROM r",
            "SELECT fz_f(a), fz_f(b, c), fz_g(d) FROM t",
            "SELECT fz_f(fz_f(id)) FROM t ORDER BY 1",
            "SELECT fz_agg(a), fz_agg2(b, c) FROM t GROUP BY c % 2",
            "SELECT fz_agg(a) OVER (ORDER BY id) FROM t",
            "SELECT fz_win(a) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
            "SELECT fz_win(id) OVER (PARTITION BY c % 2 ORDER BY id ROWS 2 PRECEDING), fz_win(a) FROM t GROUP BY id",
            "SELECT b FROM t ORDER BY b COLLATE fz_coll",
            "SELECT id, fz_win(a) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t",
            "SELECT fz_win(c, b) OVER (PARTITION BY a % 2 ORDER BY id), fz_win(id) FROM t GROUP BY b",
            "SELECT fz_win(a) FROM t",
            // rows read ahead in batches (no callback): mixed types, values over the 8 KiB copy limit, an
            // error on the 150th row that must surface only when a reader reaches it
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 300) SELECT i, 'v' || i, i * 0.5, "
                    + "randomblob(i % 50), CASE WHEN i % 7 = 0 THEN NULL ELSE '12abc' END FROM r",
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 60) SELECT i, zeroblob(CASE WHEN "
                    + "i % 9 = 0 THEN 20000 ELSE i END), printf('%.*c', i * 300, 'x') FROM r",
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 300) SELECT i, "
                    + "abs(CASE WHEN i = 150 THEN -9223372036854775808 ELSE i END) FROM r",
            "SELECT DISTINCT b COLLATE fz_coll2 FROM t",
            "SELECT * FROM t WHERE b > 'm' COLLATE fz_coll",
            "SELECT rowid, * FROM ft WHERE ft MATCH 'one OR two*'",
            "SELECT * FROM ft4 WHERE ft4 MATCH 'one'",
            "SELECT snippet(ft3) FROM ft3 WHERE body MATCH 'two'",
            "SELECT * FROM rt WHERE minx <= ? AND maxx >= 0",
            "SELECT highlight(ft, 0, '[', ']') FROM ft WHERE ft MATCH 'one'",
            "PRAGMA table_info(t)",
            "SELECT * FROM sqlite_schema",
            "SELECT * FROM aux.t",
            "VALUES (1, 2), (3, 4)");

    static final List<String> GOOD = List.of(
            "INSERT INTO t(a, b, c, d) VALUES (?, ?, ?, ?)",
            "INSERT INTO t(a, b) VALUES (fz_f(1), 'f')",
            "UPDATE t SET a = a + 1 WHERE id % 3 = 0",
            "UPDATE t SET b = fz_f(b) WHERE id < 5",
            "DELETE FROM t WHERE id % 7 = 0",
            "INSERT INTO t(a, b) SELECT a, b FROM t LIMIT 20",
            "DELETE FROM t WHERE id > 300",
            "CREATE TABLE IF NOT EXISTS u(x COLLATE fz_coll, y)",
            "CREATE INDEX IF NOT EXISTS ub ON u(x)",
            "INSERT INTO u VALUES ('b', 1), ('a', 2), ('c', 3)",
            "DROP TABLE IF EXISTS u",
            "CREATE INDEX IF NOT EXISTS tb ON t(b COLLATE fz_coll)",
            "DROP INDEX IF EXISTS tb",
            "CREATE TRIGGER IF NOT EXISTS tr AFTER INSERT ON t BEGIN UPDATE t SET c = fz_f(new.a) WHERE id = new.id; END",
            "DROP TRIGGER IF EXISTS tr",
            "DROP TABLE IF EXISTS ft",
            "DROP TABLE IF EXISTS rt",
            "BEGIN", "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK", "SAVEPOINT s1", "RELEASE s1", "ROLLBACK TO s1",
            "PRAGMA journal_mode = WAL", "PRAGMA journal_mode = DELETE", "VACUUM", "ANALYZE",
            "ATTACH ':memory:' AS aux", "DETACH aux",
            "CREATE TEMP TABLE IF NOT EXISTS tt(x)",
            "SELECT 1; SELECT 2",
            "INSERT INTO t(a) VALUES (1); INSERT INTO t(a) VALUES (2); SELECT * FROM t",
            "INSERT INTO t(a) VALUES (1) RETURNING id, a",
            // texts whose statements are gated one by one (the fused exec stops before each write)
            "SELECT 1; INSERT INTO t(a) VALUES (3); UPDATE t SET a = a WHERE id < 0; SELECT fz_f(2)",
            "COMMIT; INSERT INTO t(a, b) VALUES (4, 'x') RETURNING id; SELECT b FROM t ORDER BY b COLLATE fz_coll",
            "EXPLAIN INSERT INTO t(a) VALUES (1)",
            "WITH x AS (SELECT b AS updated_at FROM t WHERE a > 0) SELECT count(*) FROM x",
            "PRAGMA optimize", "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA integrity_check");

    static final List<String> BAD = List.of(
            "SELEC 1", "SELECT * FROM nosuch", "", " ", ";", ";;", "-- only a comment", "/* open comment",
            "SELECT 'unterminated", "SELECT ?", "INSERT INTO t VALUES (1, 2)", "SELECT fz_f()",
            "SELECT fz_nosuch(1)", "INSERT INTO t(id) VALUES (1)", "SELECT \u0000 1", "SELECT '\uD800'",
            "SELECT " + "(".repeat(2000) + "1" + ")".repeat(2000), "SELECT * FROM ft WHERE ft MATCH '\"'",
            "SELECT * FROM ft WHERE ft MATCH 'NEAR('", "INSERT INTO rt VALUES (1, 10, 0)",
            "backup to /nonexistent/dir/x.db", "restore from /nonexistent/x.db", "backup nosuch to /nonexistent/dir/x.db",
            "SELECT 1 FROM t WHERE b = ? COLLATE nosuch", "DETACH nosuch", "PRAGMA nosuch = 1",
            "CREATE VIRTUAL TABLE v USING nosuch(x)");

    /** Statements that create and fill virtual tables (FTS3/4/5, R*Tree): left out with the "vtab." group. */
    static final List<String> VTAB = List.of(
            "CREATE VIRTUAL TABLE IF NOT EXISTS ft USING fts5(body)",
            "INSERT INTO ft(body) VALUES ('one two three'), ('two four')",
            "CREATE VIRTUAL TABLE IF NOT EXISTS ft4 USING fts4(body)",
            "INSERT INTO ft4(body) VALUES ('one two'), ('three')",
            "CREATE VIRTUAL TABLE IF NOT EXISTS ft3 USING fts3(body)",
            "INSERT INTO ft3(body) VALUES ('two five')",
            "CREATE VIRTUAL TABLE IF NOT EXISTS rt USING rtree(id, minx, maxx)",
            "INSERT INTO rt(minx, maxx) VALUES (0, 10), (5, 6)",
            "CREATE VIRTUAL TABLE IF NOT EXISTS ft USING fts5()");
}
