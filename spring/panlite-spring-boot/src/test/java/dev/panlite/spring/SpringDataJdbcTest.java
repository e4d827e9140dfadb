package dev.panlite.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.spring.data.LegacySqliteDialectProvider;
import dev.panlite.spring.data.SqliteDialect;
import dev.panlite.spring.data.SqliteDialectProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.dialect.DialectResolver;
import org.springframework.data.relational.core.dialect.Dialect;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring Data JDBC repositories on a real SQLite file through Panlite, with nothing configured but
 * the URL (and spring.sql.init for the schema): the dialect is found, and CRUD, generated ids,
 * paging, sorting, derived and @Query methods, @Version, embedded values, one-to-many aggregates,
 * @Lock and an upsert work.
 */
class SpringDataJdbcTest {
    @TempDir
    static Path dir;

    static ConfigurableApplicationContext context;
    static AuthorRepository authors;
    static JdbcTemplate jdbc;

    @BeforeAll
    static void start() {
        context = TestApp.start("--spring.datasource.url=jdbc:sqlite:" + dir.resolve("data.db"),
                "--spring.sql.init.mode=always", "--spring.sql.init.schema-locations=classpath:panlite-test/schema.sql");
        authors = context.getBean(AuthorRepository.class);
        jdbc = context.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @BeforeEach
    void empty() {
        jdbc.execute("DELETE FROM book");
        jdbc.execute("DELETE FROM author");
    }

    private static Author author(String name, String city) {
        return new Author(name, new Author.Address("1 Main St", city));
    }

    @Test
    void theDialectIsSqlitesFoundUnderBothFactoryKeys() {
        Dialect dialect = DialectResolver.getDialect(jdbc);
        assertSame(SqliteDialect.INSTANCE, dialect);
        assertTrue(SpringFactoriesLoader.loadFactories(DialectResolver.JdbcDialectProvider.class, null).stream()
                .anyMatch(p -> p.getClass() == SqliteDialectProvider.class));
        @SuppressWarnings({"deprecation", "removal"})
        Class<org.springframework.data.jdbc.repository.config.DialectResolver.JdbcDialectProvider> legacy =
                org.springframework.data.jdbc.repository.config.DialectResolver.JdbcDialectProvider.class;
        assertTrue(SpringFactoriesLoader.loadFactories(legacy, null).stream()
                .anyMatch(p -> p.getClass() == LegacySqliteDialectProvider.class));
        assertTrue(new LegacySqliteDialectProvider().getDialect(jdbc).isPresent());
    }

    @Test
    void crudWithGeneratedIds() {
        Author ada = authors.save(author("Ada", "London"));
        Author alan = authors.save(author("Alan", "Manchester"));
        assertNotNull(ada.id);
        assertEquals(ada.id + 1, alan.id); // rowids from the driver's generated keys
        assertEquals(2, authors.count());
        Author loaded = authors.findById(ada.id).orElseThrow();
        assertEquals("Ada", loaded.name);
        loaded.name = "Ada Lovelace";
        authors.save(loaded);
        assertEquals("Ada Lovelace", authors.findById(ada.id).orElseThrow().name);
        authors.deleteById(alan.id);
        assertEquals(List.of(ada.id), authors.findAll().stream().map(a -> a.id).toList());
        List<Author> many = authors.saveAll(List.of(author("B1", "X"), author("B2", "X"), author("B3", "X")));
        assertEquals(3, many.stream().map(a -> a.id).distinct().count());
        assertTrue(many.stream().allMatch(a -> a.id != null));
    }

    @Test
    void pagingAndSorting() {
        for (String name : List.of("Erin", "Bob", "Dave", "Alice", "Carol")) {
            authors.save(author(name, "Paris"));
        }
        Page<Author> page = authors.findAll(PageRequest.of(1, 2, Sort.by("name")));
        assertEquals(List.of("Carol", "Dave"), page.getContent().stream().map(a -> a.name).toList());
        assertEquals(5, page.getTotalElements());
        assertEquals(3, page.getTotalPages());
        assertEquals(List.of("Erin", "Dave", "Carol", "Bob", "Alice"),
                authors.findAll(Sort.by(Sort.Direction.DESC, "name")).stream().map(a -> a.name).toList());
        Page<Author> withA = authors.findByNameContaining("a", PageRequest.of(0, 2, Sort.by("name")));
        // SQLite's LIKE ignores ASCII case: "Alice" contains "a"
        assertEquals(List.of("Alice", "Carol"), withA.getContent().stream().map(a -> a.name).toList());
        assertEquals(3, withA.getTotalElements());
    }

    @Test
    void derivedQueriesAndQueryWithNamedParameters() {
        authors.save(author("Grace", "Arlington"));
        authors.save(author("Greta", "Stockholm"));
        authors.save(author("Tim", "Arlington"));
        assertEquals(List.of("Grace", "Greta"),
                authors.findByNameStartingWithOrderByNameAsc("Gr").stream().map(a -> a.name).toList());
        assertEquals(2, authors.countByNameStartingWith("Gr"));
        assertEquals(List.of("Grace", "Tim"),
                authors.findByAddressCity("Arlington").stream().map(a -> a.name).sorted().toList());
        assertEquals("Stockholm", authors.byName("Greta").orElseThrow().address.city());
        assertTrue(authors.byName("Nobody").isEmpty());
    }

    @Test
    void versionedSavesFailWhenAnotherSaveCameFirst() {
        Author saved = authors.save(author("Linus", "Helsinki"));
        Author first = authors.findById(saved.id).orElseThrow();
        Author second = authors.findById(saved.id).orElseThrow();
        first.name = "Linus T.";
        authors.save(first);
        second.name = "Linus Torvalds";
        assertThrows(OptimisticLockingFailureException.class, () -> authors.save(second));
        assertEquals("Linus T.", authors.findById(saved.id).orElseThrow().name);
    }

    @Test
    void embeddedValuesAndOneToManyAggregates() {
        Author barbara = authors.save(new Author("Barbara", new Author.Address("545 Tech Sq", "Cambridge"),
                new Author.Book("Abstraction and Specification", 1986), new Author.Book("Program Development in Java", 2000)));
        Author loaded = authors.findById(barbara.id).orElseThrow();
        assertEquals(new Author.Address("545 Tech Sq", "Cambridge"), loaded.address);
        assertEquals(List.of("Abstraction and Specification", "Program Development in Java"),
                loaded.books.stream().map(Author.Book::title).toList());
        loaded.books.remove(0);
        loaded.books.add(new Author.Book("Liskov on Systems", 2010));
        loaded.address = null;
        authors.save(loaded);
        Author again = authors.findById(barbara.id).orElseThrow();
        assertNull(again.address); // all columns null: the embedded value is null
        assertEquals(List.of("Program Development in Java", "Liskov on Systems"),
                again.books.stream().map(Author.Book::title).toList());
        assertEquals(2, jdbc.queryForObject("SELECT count(*) FROM book", Integer.class));
        assertEquals(1, authors.booksPublishedBetween(2001, 2100));
        authors.delete(again);
        assertEquals(0, jdbc.queryForObject("SELECT count(*) FROM book", Integer.class)); // the aggregate goes whole
    }

    /**
     * SQLite has no row locks: @Lock adds no clause (SELECT ... FOR UPDATE would be a syntax error).
     * What serializes read-modify-write is Panlite's IMMEDIATE transaction: the file's write lock
     * from the first statement, so concurrent increments lose nothing.
     */
    @Test
    void lockQueriesRunWithoutALockClauseAndTransactionsSerializeOnTheFile() throws Exception {
        TallyRepository tallies = context.getBean(TallyRepository.class);
        TransactionTemplate tx = context.getBean(TransactionTemplate.class);
        jdbc.update("INSERT OR REPLACE INTO tally (id, n) VALUES (1, 0)");
        int threads = 2;
        int increments = 25;
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    for (int i = 0; i < increments; i++) {
                        tx.executeWithoutResult(status -> {
                            Tally tally = tallies.findTallyById(1L).orElseThrow();
                            tally.n++;
                            tallies.save(tally);
                        });
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError("a worker failed");
            failures.forEach(e::addSuppressed);
            throw e;
        }
        assertEquals(threads * increments, tallies.findById(1L).orElseThrow().n);
    }

    @Test
    void upsertsAreAQueryOnSqlite() {
        TagRepository tags = context.getBean(TagRepository.class);
        tags.use("sqlite");
        tags.use("sqlite");
        tags.use("java");
        assertEquals(2, tags.uses("sqlite"));
        assertEquals(1, tags.uses("java"));
        assertInstanceOf(SqliteDialect.class, DialectResolver.getDialect(jdbc));
    }
}
