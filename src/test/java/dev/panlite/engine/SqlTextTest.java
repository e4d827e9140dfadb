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
}
