package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSourceUtils;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** Spring JDBC over a HikariCP pool of PanliteDataSource (configured by dataSourceClassName). */
class SpringJdbcTest {
    @TempDir
    Path dir;

    HikariDataSource dataSource;
    JdbcTemplate jdbc;
    NamedParameterJdbcTemplate named;
    DataSourceTransactionManager txManager;

    record Person(long id, String name, int age) {}

    @BeforeEach
    void setUp() {
        HikariConfig config = new HikariConfig();
        config.setDataSourceClassName("dev.panlite.PanliteDataSource");
        config.addDataSourceProperty("url", "jdbc:sqlite:" + dir.resolve("spring.db"));
        config.addDataSourceProperty("journalMode", "WAL");
        config.addDataSourceProperty("foreignKeys", "true");
        config.setMaximumPoolSize(2);
        dataSource = new HikariDataSource(config);
        jdbc = new JdbcTemplate(dataSource);
        named = new NamedParameterJdbcTemplate(jdbc);
        txManager = new DataSourceTransactionManager(dataSource);
        jdbc.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, age INTEGER)");
    }

    @AfterEach
    void tearDown() {
        dataSource.close();
    }

    List<Person> people() {
        return jdbc.query("SELECT id, name, age FROM person ORDER BY id",
                (rs, n) -> new Person(rs.getLong("id"), rs.getString("name"), rs.getInt("age")));
    }

    int count() {
        return jdbc.queryForObject("SELECT count(*) FROM person", Integer.class);
    }

    @Test
    void jdbcTemplateQueriesAndUpdates() {
        assertEquals(1, jdbc.update("INSERT INTO person(name, age) VALUES (?, ?)", "Ada", 36));
        assertEquals(1, jdbc.update("INSERT INTO person(name, age) VALUES (?, ?)", "Alan", 41));
        assertEquals(List.of(new Person(1, "Ada", 36), new Person(2, "Alan", 41)), people());
        assertEquals("Alan", jdbc.queryForObject("SELECT name FROM person WHERE age > ?", String.class, 40));
        assertEquals(2L, jdbc.queryForObject("SELECT count(*) FROM person", Long.class));
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT name, age FROM person ORDER BY name");
        assertEquals(Map.of("name", "Ada", "age", 36), rows.get(0));
        assertEquals(1, jdbc.update("UPDATE person SET age = age + 1 WHERE name = ?", "Ada"));
        assertEquals(37, jdbc.queryForObject("SELECT age FROM person WHERE name = 'Ada'", Integer.class));
        assertEquals(1, jdbc.update("DELETE FROM person WHERE name = ?", "Alan"));
        assertEquals(1, count());
    }

    @Test
    void namedParameters() {
        named.update("INSERT INTO person(name, age) VALUES (:name, :age)",
                new MapSqlParameterSource("name", "Grace").addValue("age", 85));
        named.update("INSERT INTO person(name, age) VALUES (:name, :age)", Map.of("name", "Edsger", "age", 72));
        named.update("INSERT INTO person(name, age) VALUES (:name, :age)", Map.of("name", "Barbara", "age", 60));
        List<String> names = named.queryForList("SELECT name FROM person WHERE age > :min AND name IN (:names)"
                + " ORDER BY name", Map.of("min", 65, "names", List.of("Grace", "Edsger", "Barbara")), String.class);
        assertEquals(List.of("Edsger", "Grace"), names);
    }

    @Test
    void batchUpdates() {
        int[] counts = jdbc.batchUpdate("INSERT INTO person(name, age) VALUES (?, ?)",
                List.of(new Object[] {"a", 1}, new Object[] {"b", 2}, new Object[] {"c", 3}));
        assertArrayEquals(new int[] {1, 1, 1}, counts);
        int[] named = this.named.batchUpdate("UPDATE person SET age = :age WHERE name = :name",
                SqlParameterSourceUtils.createBatch(List.of(Map.of("name", "a", "age", 10),
                        Map.of("name", "b", "age", 20), Map.of("name", "nobody", "age", 0))));
        assertArrayEquals(new int[] {1, 1, 0}, named);
        int[] statements = jdbc.batchUpdate("INSERT INTO person(name, age) VALUES ('d', 4)",
                "DELETE FROM person WHERE name = 'c'");
        assertArrayEquals(new int[] {1, 1}, statements);
        assertEquals(List.of(new Person(1, "a", 10), new Person(2, "b", 20), new Person(4, "d", 4)), people());
    }

    @Test
    void simpleJdbcInsertReturnsGeneratedKeys() {
        SimpleJdbcInsert insert = new SimpleJdbcInsert(dataSource).withTableName("person")
                .usingGeneratedKeyColumns("id");
        Number first = insert.executeAndReturnKey(Map.of("name", "Ada", "age", 36));
        Number second = insert.executeAndReturnKey(new MapSqlParameterSource("name", "Alan").addValue("age", 41));
        assertEquals(1L, first.longValue());
        assertEquals(2L, second.longValue());
        assertEquals(List.of(new Person(1, "Ada", 36), new Person(2, "Alan", 41)), people());
    }

    @Test
    void keyHolder() {
        jdbc.update("INSERT INTO person(id, name, age) VALUES (41, 'x', 1)");
        KeyHolder keys = new GeneratedKeyHolder();
        jdbc.update(c -> {
            PreparedStatement ps = c.prepareStatement("INSERT INTO person(name, age) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS);
            ps.setString(1, "Ada");
            ps.setInt(2, 36);
            return ps;
        }, keys);
        assertNotNull(keys.getKey());
        assertEquals(42L, keys.getKey().longValue());

        KeyHolder byName = new GeneratedKeyHolder();
        named.update("INSERT INTO person(name, age) VALUES (:name, :age)",
                new MapSqlParameterSource("name", "Alan").addValue("age", 41), byName, new String[] {"id"});
        assertEquals(43L, byName.getKey().longValue());
    }

    @Test
    void transactionsCommitAndRollBackOnException() {
        TransactionTemplate tx = new TransactionTemplate(txManager);
        tx.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO person(name, age) VALUES ('kept', 1)");
            jdbc.update("INSERT INTO person(name, age) VALUES ('kept too', 2)");
        });
        assertEquals(2, count());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> tx.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO person(name, age) VALUES ('lost', 3)");
            assertEquals(3, count(), "visible inside the transaction");
            throw new IllegalStateException("boom");
        }));
        assertEquals("boom", e.getMessage());
        assertEquals(2, count());
        // A failing statement rolls back the statements before it, too.
        assertThrows(DuplicateKeyException.class, () -> tx.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO person(name, age) VALUES ('lost', 3)");
            jdbc.update("INSERT INTO person(name, age) VALUES ('kept', 4)");
        }));
        assertEquals(2, count());
    }

    @Test
    void nestedTransactionsUseSavepoints() {
        TransactionTemplate outer = new TransactionTemplate(txManager);
        TransactionTemplate nested = new TransactionTemplate(txManager);
        nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
        outer.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO person(name, age) VALUES ('outer', 1)");
            assertThrows(IllegalStateException.class, () -> nested.executeWithoutResult(inner -> {
                jdbc.update("INSERT INTO person(name, age) VALUES ('inner, rolled back', 2)");
                throw new IllegalStateException("roll back to the savepoint");
            }));
            nested.executeWithoutResult(inner -> jdbc.update("INSERT INTO person(name, age) VALUES ('inner', 3)"));
            jdbc.update("INSERT INTO person(name, age) VALUES ('outer again', 4)");
        });
        assertEquals(List.of("outer", "inner", "outer again"),
                jdbc.queryForList("SELECT name FROM person ORDER BY age", String.class));
    }

    @Test
    void readOnlyTransactions() {
        jdbc.update("INSERT INTO person(name, age) VALUES ('Ada', 36)");
        TransactionTemplate readOnly = new TransactionTemplate(txManager);
        readOnly.setReadOnly(true);
        assertEquals(Integer.valueOf(1), readOnly.execute(status -> count()));
        DataAccessException e = assertThrows(DataAccessException.class, () -> readOnly.executeWithoutResult(
                status -> jdbc.update("INSERT INTO person(name, age) VALUES ('no', 1)")));
        assertInstanceOf(SQLException.class, e.getCause());
        assertEquals(8, ((SQLException) e.getCause()).getErrorCode(), "SQLITE_READONLY");
        // the pooled connection is writable again afterwards
        new TransactionTemplate(txManager).executeWithoutResult(
                status -> jdbc.update("INSERT INTO person(name, age) VALUES ('Alan', 41)"));
        assertEquals(2, count());
    }

    @Test
    void exceptionTranslation() {
        jdbc.update("INSERT INTO person(name, age) VALUES ('Ada', 36)");
        DuplicateKeyException unique = assertThrows(DuplicateKeyException.class,
                () -> jdbc.update("INSERT INTO person(name, age) VALUES ('Ada', 37)"));
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, unique.getCause());
        assertThrows(DuplicateKeyException.class,
                () -> jdbc.update("INSERT INTO person(id, name, age) VALUES (1, 'other', 1)"));
        DataIntegrityViolationException notNull = assertThrows(DataIntegrityViolationException.class,
                () -> jdbc.update("INSERT INTO person(name, age) VALUES (NULL, 1)"));
        assertFalse(notNull instanceof DuplicateKeyException);

        // With arguments JdbcTemplate uses a PreparedStatement.
        BadSqlGrammarException missingTable = assertThrows(BadSqlGrammarException.class,
                () -> jdbc.queryForList("SELECT * FROM no_such_table WHERE id = ?", 1));
        assertInstanceOf(SQLSyntaxErrorException.class, missingTable.getSQLException());
        assertTrue(missingTable.getSQLException().getSQLState().startsWith("42"));
        assertThrows(BadSqlGrammarException.class, () -> jdbc.update("UPDATE no_such_table SET x = ?", 1));
        assertThrows(BadSqlGrammarException.class, () -> jdbc.update("INSERT INTO person(nope) VALUES (?)", 1));
        // Without, a plain Statement.
        assertThrows(BadSqlGrammarException.class, () -> jdbc.execute("SELEC 1"));
        assertThrows(BadSqlGrammarException.class, () -> jdbc.queryForList("SELECT nope FROM person"));
    }

    @Test
    void missingTableThroughAPlainStatement() {
        BadSqlGrammarException missingTable = assertThrows(BadSqlGrammarException.class,
                () -> jdbc.queryForList("SELECT * FROM no_such_table"));
        assertTrue(missingTable.getSQLException().getSQLState().startsWith("42"));
        assertThrows(BadSqlGrammarException.class, () -> jdbc.update("DELETE FROM no_such_table"));
        assertThrows(BadSqlGrammarException.class, () -> jdbc.update("INSERT INTO person(nope) VALUES (1)"));
    }
}
