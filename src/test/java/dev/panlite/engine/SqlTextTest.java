package dev.panlite.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How SQL text is classified without running it; the WITH clause's own words do not count. */
class SqlTextTest {

    @Test
    void theVerbAfterWithSkipsTheCommonTableExpressions() {
        assertEquals("UPDATE", SqlText.verbAfterWith("WITH v(x) AS (SELECT replace('a','a','b')) UPDATE t SET x = 1"));
        assertEquals("UPDATE", SqlText.verbAfterWith(
                "with recursive inserted AS NOT MATERIALIZED (select ')' || \"(\" from [in(sert]), r(n) as (values(1))"
                        + " /* insert ) */ -- replace (\n update t set x = 1"));
        assertEquals("SELECT", SqlText.verbAfterWith("WITH ins(x) AS (INSERT INTO t VALUES (1)) SELECT * FROM ins"));
        assertEquals("DELETE", SqlText.verbAfterWith("  ( WITH a AS (SELECT 1)DELETE FROM t"));
        assertEquals("INSERT", SqlText.verbAfterWith("WITH a(x) AS (SELECT 'it''s (') INSERT INTO t SELECT x FROM a"));
        assertEquals("REPLACE", SqlText.verbAfterWith("WITH a AS (SELECT 1) REPLACE INTO t VALUES (1)"));
        assertEquals("", SqlText.verbAfterWith("WITH a AS (SELECT 1"));
    }

    @Test
    void onlyInsertAndReplaceGenerateKeys() {
        assertTrue(SqlText.isInsert("WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a"));
        assertTrue(SqlText.isInsert("replace into t values (1)"));
        assertFalse(SqlText.isInsert("WITH a AS (SELECT replace('x','x','y')) UPDATE t SET x = (SELECT * FROM a)"));
        assertFalse(SqlText.isInsert("WITH a AS (SELECT 'INSERT') SELECT * FROM a"));
        assertFalse(SqlText.isInsert("WITH a AS (SELECT 1) DELETE FROM t WHERE x = 'insert'"));
    }

    /** A text that could change a connection's settings, attachments or TEMP schema names one of four words. */
    @Test
    void whatMayChangeTheSessionNamesPragmaAttachDetachOrTemp() {
        assertTrue(SqlText.mayChangeSession("pragma foreign_keys = 0"));
        assertTrue(SqlText.mayChangeSession("SELECT 1; Attach 'x.db' AS x"));
        assertTrue(SqlText.mayChangeSession("DETACH x"));
        assertTrue(SqlText.mayChangeSession("CREATE TEMPORARY TABLE x(y)"));
        assertTrue(SqlText.mayChangeSession("create table \"temp\".x(y)"));
        assertTrue(SqlText.mayChangeSession("SELECT temperature FROM readings")); // a false alarm costs a look, no more
        assertFalse(SqlText.mayChangeSession("INSERT INTO t VALUES (1)"));
        assertFalse(SqlText.mayChangeSession("BEGIN IMMEDIATE"));
        assertFalse(SqlText.mayChangeSession("SELECT * FROM main.t WHERE x = 'at'"));
        assertFalse(SqlText.mayChangeSession("PRAGM"));
    }

    /** executeUpdate's cheap first look: several statements are never missed; a false alarm only costs SQLite's look. */
    @Test
    void mayHoldSeveralStatementsLooksPastQuotesAndComments() {
        java.util.function.Predicate<String> several =
                sql -> SqlText.mayHoldSeveralStatements(sql.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(several.test("INSERT INTO t VALUES (1); SELECT 1"));
        assertTrue(several.test("INSERT INTO t VALUES ('; /*'); SELECT 1 -- */"));
        assertTrue(several.test("SELECT \"a;b\" FROM [c;d];DELETE FROM t"));
        assertTrue(several.test("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END")); // asks SQLite
        assertFalse(several.test("INSERT INTO t VALUES (1)"));
        assertFalse(several.test("INSERT INTO t VALUES (1);;  -- done; SELECT 1\n /* ; SELECT 2 */ ;"));
        assertFalse(several.test("INSERT INTO t VALUES ('a;b', `c;d`) /* ; */"));
        assertFalse(several.test("-- SELECT 1; SELECT 2\nUPDATE t SET x = 1"));
        assertFalse(several.test(""));
    }
}
