package dev.panlite.ffi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of the fused calls, checked through {@link Fused}: the suite runs once with the
 * native helper and once with {@code -Dpanlite.helper=false}, so both paths must pass these.
 */
class FusedCallsTest {
    private static final int CONSTRAINT_UNIQUE = Sqlite.CONSTRAINT | (8 << 8); // SQLITE_CONSTRAINT_UNIQUE

    private Scratch scratch;
    private long db;

    @BeforeEach
    void open() {
        scratch = new Scratch();
        Scratch.Opened opened = Scratch.open(":memory:", Sqlite.OPEN_READWRITE | Sqlite.OPEN_CREATE
                | Sqlite.OPEN_NOMUTEX | Sqlite.OPEN_EXRESCODE);
        db = opened.db();
        assertEquals(Sqlite.OK, opened.rc(), () -> Sqlite.errmsg(db));
    }

    @AfterEach
    void close() {
        for (long s = Sqlite.nextStmt(db, 0); s != 0; s = Sqlite.nextStmt(db, 0)) {
            Sqlite.finalizeStmt(s); // a failed test may leave one behind
        }
        assertEquals(Sqlite.OK, Sqlite.closeV2(db));
        scratch.close();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Runs text that must hold no query; asserts it all ran. */
    private void execAll(String sql) {
        byte[] bytes = utf8(sql);
        int rc = Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false);
        assertEquals(Sqlite.DONE, rc, () -> Sqlite.errmsg(db));
        assertEquals(0, scratch.preparedStmt());
        assertEquals(bytes.length, scratch.tailOffset());
    }

    private long queryLong(String sql) {
        byte[] bytes = utf8(sql);
        int rc = Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false);
        assertEquals(Sqlite.ROW, rc, () -> Sqlite.errmsg(db));
        long stmt = scratch.preparedStmt();
        try {
            return Sqlite.columnLong(stmt, 0);
        } finally {
            Sqlite.finalizeStmt(stmt);
        }
    }

    private long prepare(String sql) {
        byte[] bytes = utf8(sql);
        assertEquals(Sqlite.OK, scratch.prepare(db, bytes, 0, bytes.length, 0), () -> Sqlite.errmsg(db));
        return scratch.preparedStmt();
    }

    @Test
    void runsEveryStatementOfAMultiStatementText() {
        execAll("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);\n"
                + "INSERT INTO t(b) VALUES('x'); INSERT INTO t(b) VALUES('y');INSERT INTO t(b) VALUES('é')");
        assertEquals(3, queryLong("SELECT count(*) FROM t"));
        assertEquals(3, Sqlite.lastInsertRowid(db));
    }

    @Test
    void skipsAWhitespaceAndCommentTail() {
        execAll("CREATE TABLE t(a); INSERT INTO t VALUES(1); -- the end\n  /* really */ \n\t ");
        execAll("  /* only a comment */ ");
        execAll(";;; ;");
        assertEquals(1, queryLong("SELECT count(*) FROM t"));
    }

    @Test
    void emptyTextIsDone() {
        byte[] bytes = utf8("garbage");
        assertEquals(Sqlite.DONE, Fused.execNoArgs(scratch, db, bytes, 3, 0, false));
        assertEquals(0, scratch.preparedStmt());
        assertEquals(3, scratch.tailOffset());
    }

    @Test
    void stopsAtAQueryInTheMiddleAndReportsTheTail() {
        execAll("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)");
        String sql = "INSERT INTO t(b) VALUES('x'); SELECT b FROM t ORDER BY a; INSERT INTO t(b) VALUES('y');";
        byte[] bytes = utf8(sql);
        int rc = Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false);
        assertEquals(Sqlite.ROW, rc, () -> Sqlite.errmsg(db));
        long stmt = scratch.preparedStmt();
        assertNotEquals(0, stmt);
        int tail = scratch.tailOffset();
        assertEquals(sql.indexOf("ORDER BY a;") + "ORDER BY a;".length(), tail);
        assertEquals("x", Sqlite.columnText(stmt, 0));
        assertEquals(Sqlite.DONE, Sqlite.step(stmt));
        assertEquals(Sqlite.OK, Sqlite.finalizeStmt(stmt));
        assertEquals(1, queryLong("SELECT count(*) FROM t"), "the statement after the query has not run yet");

        assertEquals(Sqlite.DONE, Fused.execNoArgs(scratch, db, bytes, tail, bytes.length - tail, false));
        assertEquals(0, scratch.preparedStmt());
        assertEquals(bytes.length, scratch.tailOffset());
        assertEquals(2, queryLong("SELECT count(*) FROM t"));
    }

    @Test
    void aQueryWithNoRowsIsDoneWithItsHandle() {
        execAll("CREATE TABLE t(a)");
        byte[] bytes = utf8("SELECT a FROM t");
        assertEquals(Sqlite.DONE, Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false));
        long stmt = scratch.preparedStmt();
        assertNotEquals(0, stmt);
        assertEquals(1, Sqlite.columnCount(stmt));
        assertEquals(bytes.length, scratch.tailOffset());
        assertEquals(Sqlite.OK, Sqlite.finalizeStmt(stmt));
    }

    @Test
    void offsetsAreIndicesIntoTheWholeArray() {
        execAll("CREATE TABLE t(a)");
        String before = "xx garbage ";
        String sql = "INSERT INTO t VALUES(7); SELECT a * 6 FROM t; DELETE FROM t;";
        byte[] bytes = utf8(before + sql + " trailing garbage that is not SQL");
        int offset = before.length();
        int length = utf8(sql).length;
        assertEquals(Sqlite.ROW, Fused.execNoArgs(scratch, db, bytes, offset, length, false), () -> Sqlite.errmsg(db));
        long stmt = scratch.preparedStmt();
        assertEquals(42, Sqlite.columnLong(stmt, 0));
        assertEquals(offset + sql.indexOf(" DELETE"), scratch.tailOffset());
        Sqlite.finalizeStmt(stmt);
        int tail = scratch.tailOffset();
        assertEquals(Sqlite.DONE, Fused.execNoArgs(scratch, db, bytes, tail, offset + length - tail, false));
        assertEquals(offset + length, scratch.tailOffset());
        assertEquals(0, queryLong("SELECT count(*) FROM t"));
    }

    @Test
    void aSyntaxErrorInTheSecondStatementStopsThereWithItsMessage() {
        execAll("CREATE TABLE t(a)");
        byte[] bytes = utf8("INSERT INTO t VALUES(1); INSERT INTO nosuch VALUES(2); INSERT INTO t VALUES(3);");
        int rc = Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false);
        assertEquals(Sqlite.ERROR, rc);
        assertEquals(0, scratch.preparedStmt());
        assertTrue(Sqlite.errmsg(db).contains("no such table: nosuch"), Sqlite.errmsg(db));
        assertEquals(1, queryLong("SELECT count(*) FROM t"), "the first ran, the third did not");
    }

    @Test
    void aFailedPrepareSaysWhereItsStatementStartsAlsoFromAnOffset() {
        execAll("CREATE TABLE t(a)");
        byte[] bytes = utf8("-- x\nINSERT INTO t VALUES(1); INSERT INTO nosuch VALUES(2); INSERT INTO t VALUES(3);");
        int from = 5; // past the comment: the offset is into the whole array, as TextExecution passes it
        int rc = Fused.execNoArgs(scratch, db, bytes, from, bytes.length - from, false);
        assertEquals(Sqlite.ERROR, rc);
        assertTrue(scratch.tailOffset() < 0, "a prepare failure: " + scratch.tailOffset());
        int failing = Fused.failedPrepareAt(scratch.tailOffset());
        assertEquals(new String(bytes, StandardCharsets.UTF_8).indexOf(" INSERT INTO nosuch"), failing,
                "where the failing statement starts (its leading space included: the first's tail)");
    }

    @Test
    void aRuntimeErrorInTheSecondStatementFinalizesItAndKeepsTheMessage() {
        execAll("CREATE TABLE u(x UNIQUE); INSERT INTO u VALUES(1)");
        byte[] bytes = utf8("INSERT INTO u VALUES(2); INSERT INTO u VALUES(1); INSERT INTO u VALUES(3)");
        int rc = Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false);
        assertEquals(CONSTRAINT_UNIQUE, rc, () -> Sqlite.errmsg(db));
        assertEquals(0, scratch.preparedStmt());
        assertEquals(CONSTRAINT_UNIQUE, Sqlite.extendedErrcode(db));
        assertTrue(Sqlite.errmsg(db).contains("UNIQUE constraint failed: u.x"), Sqlite.errmsg(db));
        assertEquals(0, Sqlite.nextStmt(db, 0), "no statement is left open");
        assertEquals(2, queryLong("SELECT count(*) FROM u"));
    }

    @Test
    void aFailingQueryStepIsAnErrorNotAResult() {
        execAll("CREATE TABLE t(a); INSERT INTO t VALUES(1)");
        byte[] bytes = utf8("SELECT abs(-9223372036854775807 - 1) FROM t"); // integer overflow at step
        int rc = Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false);
        assertEquals(Sqlite.ERROR, rc & 0xff);
        assertEquals(0, scratch.preparedStmt());
        assertTrue(Sqlite.errmsg(db).contains("integer overflow"), Sqlite.errmsg(db));
        assertEquals(0, Sqlite.nextStmt(db, 0));
    }

    @Test
    void textAfterTheQueryIsNotTouched() {
        // a syntax error after the query: reported only when the caller goes on from the tail
        byte[] bytes = utf8("SELECT 1; this is not sql");
        assertEquals(Sqlite.ROW, Fused.execNoArgs(scratch, db, bytes, 0, bytes.length, false));
        Sqlite.finalizeStmt(scratch.preparedStmt());
        int tail = scratch.tailOffset();
        assertEquals("SELECT 1;".length(), tail);
        assertEquals(Sqlite.ERROR, Fused.execNoArgs(scratch, db, bytes, tail, bytes.length - tail, false));
        assertEquals(0, scratch.preparedStmt());
    }

    @Test
    void longTextGrowsTheBuffer() {
        StringBuilder sql = new StringBuilder("CREATE TABLE t(a);");
        for (int i = 0; i < 500; i++) {
            sql.append("INSERT INTO t VALUES(").append(i).append(");");
        }
        execAll(sql.toString());
        assertEquals(500, queryLong("SELECT count(*) FROM t"));
    }

    @Test
    void resetClearClearsTheBindings() {
        long stmt = prepare("SELECT ?1, ?2");
        try {
            assertEquals(Sqlite.OK, Sqlite.bindLong(stmt, 1, 42));
            assertEquals(Sqlite.OK, Sqlite.bindText(stmt, 2, utf8("hi"), 2));
            assertEquals(Sqlite.ROW, Sqlite.step(stmt));
            assertEquals(42, Sqlite.columnLong(stmt, 0));
            assertArrayEquals(utf8("hi"), Sqlite.columnTextBytes(stmt, 1));
            assertEquals(Sqlite.OK, Fused.resetClear(stmt));
            assertEquals(Sqlite.ROW, Sqlite.step(stmt), "reset: runs again from the start");
            assertEquals(Sqlite.NULL, Sqlite.columnType(stmt, 0), "bindings cleared");
            assertEquals(Sqlite.NULL, Sqlite.columnType(stmt, 1), "bindings cleared");
            assertEquals(Sqlite.OK, Fused.resetClear(stmt));
        } finally {
            Sqlite.finalizeStmt(stmt);
        }
    }

    @Test
    void resetClearReturnsResetsErrorAfterAFailedStepAndStillClears() {
        execAll("CREATE TABLE u(x UNIQUE, y); INSERT INTO u VALUES(1, 'a')");
        long insert = prepare("INSERT INTO u VALUES(?, ?)");
        try {
            assertEquals(Sqlite.OK, Sqlite.bindLong(insert, 1, 1));
            assertEquals(Sqlite.OK, Sqlite.bindText(insert, 2, utf8("b"), 1));
            assertEquals(CONSTRAINT_UNIQUE, Sqlite.step(insert));
            assertEquals(CONSTRAINT_UNIQUE, Fused.resetClear(insert), "reset reports the failed step");
            assertEquals(Sqlite.OK, Fused.resetClear(insert), "and only once");
            // cleared: x and y are NULL now, and NULLs do not collide under UNIQUE
            assertEquals(Sqlite.DONE, Sqlite.step(insert));
            assertEquals(Sqlite.OK, Fused.resetClear(insert));
        } finally {
            Sqlite.finalizeStmt(insert);
        }
        assertEquals(1, queryLong("SELECT count(*) FROM u WHERE x IS NULL AND y IS NULL"));
    }

    @Test
    void resetClearOfAStatementThatIsMidwayLeavesTheTransactionUsable() {
        execAll("CREATE TABLE t(a); INSERT INTO t VALUES(1); INSERT INTO t VALUES(2)");
        long select = prepare("SELECT a FROM t WHERE a > ?");
        try {
            Sqlite.bindLong(select, 1, 0);
            assertEquals(Sqlite.ROW, Sqlite.step(select));
            assertEquals(Sqlite.OK, Fused.resetClear(select));
            execAll("DROP TABLE t"); // needs the read to have ended
        } finally {
            Sqlite.finalizeStmt(select);
        }
    }

    // ------------------------------------------------------------------ every copy bounded by its buffer (issue 27)

    /**
     * A row of more cells than the row buffer holds is never copied, whatever column count the caller
     * passes: the fill leaves it in place (pending), in C as in the Java fallback. The count here is a
     * lie (the statement has one column), so no SQLite column limit stands in the way: before the
     * bound, C wrote past the buffer (a 4,097-column row in one, the JVM abort of issue 27).
     */
    @Test
    void aRowWiderThanTheBufferIsNeverCopied() {
        execAll("CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), (3)");
        long select = prepare("SELECT a FROM t");
        RowBuffer buffer = scratch.holdRows();
        try {
            assertEquals(Sqlite.ROW, Fused.fillRows(db, select, RowBuffer.CELLS + 1, false, 1, true, buffer));
            assertEquals(0, buffer.rows());
            assertTrue(buffer.pending(), "the row the statement is on is left to be read in place");

            // the critical copy of the row the statement is on (copy_current)
            assertEquals(Sqlite.ROW, Fused.fillRows(db, select, RowBuffer.CELLS * 2, true, 1, true, buffer));
            assertEquals(0, buffer.rows());
            assertTrue(buffer.pending());

            // rows that fit one at a time: the second does not, and stays on the statement
            assertEquals(Sqlite.ROW, Fused.fillRows(db, select, RowBuffer.CELLS / 2 + 1, true, 3, true, buffer));
            assertEquals(1, buffer.rows());
            assertTrue(buffer.pending());

            // a row that fits exactly is copied
            Sqlite.reset(select);
            assertEquals(Sqlite.ROW, Fused.fillRows(db, select, RowBuffer.CELLS, false, 3, true, buffer));
            assertEquals(1, buffer.rows());
            assertTrue(buffer.pending());
        } finally {
            scratch.releaseRows();
            Sqlite.finalizeStmt(select);
        }
    }

    /**
     * A chunk of batch rows that does not fit the buffer (more rows than its counts hold, more values
     * than its cells, a text outside its heap) runs nothing and fails with SQLITE_MISUSE, never reading
     * or writing past the buffer. The callers never build one; this is the bound of the last resort.
     */
    @Test
    void aBatchChunkLargerThanTheBufferRunsNothing() {
        execAll("CREATE TABLE t(a, b)");
        long insert = prepare("INSERT INTO t VALUES (?, ?)");
        RowBuffer buffer = scratch.holdRows();
        try {
            int rows = RowBuffer.BATCH_ROWS + 1;
            buffer.putRows(new byte[2], new long[2], 2, new byte[0], 0);
            assertEquals(Sqlite.MISUSE, Fused.runBatch(db, insert, 1, rows, true, buffer), "more rows than the counts hold");
            assertEquals(0, buffer.rows());
            assertEquals(Sqlite.MISUSE, Fused.runBatch(db, insert, RowBuffer.CELLS / 2 + 1, 2, true, buffer),
                    "more values than the cells hold");
            assertEquals(0, buffer.rows());

            byte[] kinds = {4, 2}; // a text whose bytes would lie past the heap, then an integer
            long[] values = {((long) RowBuffer.HEAP_BYTES - 2) << 32 | 8, 7};
            buffer.putRows(kinds, values, 2, new byte[0], 0);
            assertEquals(Sqlite.MISUSE, Fused.runBatch(db, insert, 2, 1, true, buffer), "a text outside the heap");
            assertEquals(0, buffer.rows());
            assertEquals(0, queryLong("SELECT count(*) FROM t"), "nothing ran");

            buffer.putRows(new byte[] {2, 2}, new long[] {1, 2}, 2, new byte[0], 0);
            assertEquals(Sqlite.DONE, Fused.runBatch(db, insert, 2, 1, true, buffer), () -> Sqlite.errmsg(db));
            assertEquals(1, queryLong("SELECT count(*) FROM t"));
        } finally {
            scratch.releaseRows();
            Sqlite.finalizeStmt(insert);
        }
    }
}
