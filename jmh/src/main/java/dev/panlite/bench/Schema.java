package dev.panlite.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Schema, data and SQL of the workloads: exactly those of {@code shared/floor/floor.c}, which runs the same
 * workloads straight on libsqlite3, so a driver's time can be divided by the floor's.
 */
public final class Schema {

    public static final int MONSTER_ROWS = 1000;

    // The same SQL strings as floor.c.
    public static final String POINT_SQL = "SELECT id, name, hp, attack FROM monster WHERE id = ?";
    public static final String ALL_SQL = "SELECT id, name, hp, attack FROM monster";
    public static final String EXEC_SQL = "SELECT 1";
    public static final String INSERT_SCRATCH = "INSERT INTO scratch(name, hp, attack) VALUES (?, ?, ?)";
    public static final String HP_SQL = "SELECT hp FROM monster WHERE id = ?";
    public static final String DELETE_LAST = "DELETE FROM scratch WHERE id = last_insert_rowid()";
    public static final String CLEAR_SCRATCH = "DELETE FROM scratch";

    /** floor.c's {@code names[100]}: "scratch-0" .. "scratch-99". */
    public static final String[] SCRATCH_NAMES = new String[100];

    static {
        for (int i = 0; i < SCRATCH_NAMES.length; i++) SCRATCH_NAMES[i] = "scratch-" + i;
    }

    /** floor.c's xorshift seed. */
    public static final long SEED = 0x9E3779B97F4A7C15L;

    private Schema() {}

    /** floor.c's setup_db after the pragmas: monster (1000 rows) and an empty scratch table. */
    public static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE monster(id INTEGER PRIMARY KEY, name TEXT, hp INTEGER, attack INTEGER)");
            s.execute("CREATE TABLE scratch(id INTEGER PRIMARY KEY, name TEXT, hp INTEGER, attack INTEGER)");
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO monster(id, name, hp, attack) VALUES (?, ?, ?, ?)")) {
            for (int id = 1; id <= MONSTER_ROWS; id++) {
                ps.setInt(1, id);
                ps.setString(2, "monster-" + id);
                ps.setInt(3, 100 + (id * 7919) % 900);
                ps.setInt(4, 10 + (id * 104729) % 90);
                ps.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(auto);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM monster")) {
            if (!rs.next() || rs.getInt(1) != MONSTER_ROWS) throw new IllegalStateException("monster not populated");
        }
    }

    /** floor.c's random_id: xorshift64 over a per-trial (or per-thread) state, 1..1000. */
    public static final class Rng {
        private long state;

        public Rng(long seed) {
            this.state = seed == 0 ? SEED : seed;
        }

        public int nextId() {
            long x = state;
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            state = x;
            return (int) Long.remainderUnsigned(x, MONSTER_ROWS) + 1;
        }
    }
}
