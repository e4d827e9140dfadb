package dev.panlite.engine;

import dev.panlite.ffi.Sqlite;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of an EXPLAIN or EXPLAIN QUERY PLAN, all read in the lock hold that prepared it.
 *
 * <p>SQLite lists an EXPLAIN from the statement's program, whose operands point at the schema's
 * tables and indexes (P4). A schema reset (another connection's DDL seen by this one, a restore into
 * it, a ROLLBACK TO across DDL) frees those, and nothing stops an EXPLAIN from listing them after:
 * unlike every other statement it runs no OP_Transaction, so it never sees the schema change. A
 * step of an EXPLAIN prepared, or left mid-listing, before such a reset read freed memory: a JVM
 * crash in the misuse fuzz (seed 81, docs/fuzz-findings-2026-11-25.md, F29). So an EXPLAIN is
 * stepped only here, to its end, in the lock hold that prepared it, is never cached
 * ({@link Database#release}), and its rows are Java values from then on.
 */
public final class ExplainRows {
    /** Column labels and rows of values: Long, Double, String, byte[] or null, as SQLite typed them. */
    public record Rows(String[] labels, List<Object[]> rows) {}

    private ExplainRows() {}

    /** Prepares {@code sql} (an EXPLAIN) now, reads every row (at most {@code maxRows} when positive) and finalizes it. Lock held. */
    public static Rows run(Database db, String sql, long maxRows) throws SQLException {
        Stmt stmt = db.prepareFresh(sql);
        try {
            return readRest(db, stmt, stmt.step(), maxRows);
        } finally {
            stmt.finalizeNow();
        }
    }

    /**
     * The rest of an EXPLAIN prepared in this lock hold whose first step gave {@code firstStep}: its
     * current row, then every row after it (at most {@code maxRows} in all when positive). The
     * caller releases the statement. Lock held.
     */
    public static Rows readRest(Database db, Stmt stmt, int firstStep, long maxRows) throws SQLException {
        assert db.isLockedByMe() && stmt.explains();
        long handle = stmt.handle();
        int columns = stmt.columnCount();
        String[] labels = new String[columns];
        for (int i = 0; i < columns; i++) {
            labels[i] = stmt.columnName(i);
        }
        List<Object[]> rows = new ArrayList<>();
        int rc = firstStep;
        while (rc == Sqlite.ROW && (maxRows <= 0 || rows.size() < maxRows)) {
            Object[] row = new Object[columns];
            for (int i = 0; i < columns; i++) {
                row[i] = switch (Sqlite.columnType(handle, i)) {
                    case Sqlite.INTEGER -> Sqlite.columnLong(handle, i);
                    case Sqlite.FLOAT -> Sqlite.columnDouble(handle, i);
                    case Sqlite.TEXT -> Sqlite.columnText(handle, i);
                    case Sqlite.BLOB -> Sqlite.columnBlob(handle, i);
                    default -> null;
                };
            }
            rows.add(row);
            rc = stmt.step();
        }
        if (rc != Sqlite.ROW && rc != Sqlite.DONE) {
            throw db.error(rc, stmt.sql(), ResultCodes.Phase.EXECUTE);
        }
        return new Rows(labels, rows);
    }
}
