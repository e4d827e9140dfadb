package dev.panlite.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import jakarta.persistence.PersistenceException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import org.hibernate.community.dialect.SQLiteDialect;
import org.hibernate.exception.ConstraintViolationException;
import org.hibernate.exception.SQLGrammarException;
import org.hibernate.internal.SessionImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hibernate ORM 6.6 with the SQLiteDialect of hibernate-community-dialects, bootstrapped through
 * JPA from src/test/resources/META-INF/persistence.xml.
 */
class HibernateTest {
    @TempDir
    Path dir;

    EntityManagerFactory emf;

    @BeforeEach
    void setUp() {
        emf = Persistence.createEntityManagerFactory("books",
                Map.of("jakarta.persistence.jdbc.url", "jdbc:sqlite:" + dir.resolve("books.db")));
    }

    @AfterEach
    void tearDown() {
        if (emf.isOpen()) {
            emf.close();
        }
    }

    <T> T inTransaction(Function<EntityManager, T> work) {
        try (EntityManager em = emf.createEntityManager()) {
            EntityTransaction tx = em.getTransaction();
            tx.begin();
            try {
                T result = work.apply(em);
                tx.commit();
                return result;
            } finally {
                if (tx.isActive()) {
                    tx.rollback();
                }
            }
        }
    }

    void runInTransaction(Consumer<EntityManager> work) {
        inTransaction(em -> {
            work.accept(em);
            return null;
        });
    }

    <T> T read(Function<EntityManager, T> work) {
        try (EntityManager em = emf.createEntityManager()) {
            return work.apply(em);
        }
    }

    static Book book(String title, int pages) {
        return new Book(title, pages, new BigDecimal("19.90"), LocalDate.of(1969, 7, 20));
    }

    long count(String jpql) {
        return read(em -> em.createQuery(jpql, Long.class).getSingleResult());
    }

    @Test
    void persistFindQueryUpdateDelete() {
        read(em -> assertInstanceOf(SQLiteDialect.class,
                em.unwrap(SessionImpl.class).getJdbcServices().getDialect()));
        Long id = inTransaction(em -> {
            Book b = book("The Mythical Man-Month", 322);
            em.persist(b);
            em.persist(book("Structure and Interpretation", 657));
            em.persist(book("Refactoring", 448));
            return b.getId();
        });
        assertNotNull(id);

        read(em -> {
            Book b = em.find(Book.class, id);
            assertEquals("The Mythical Man-Month", b.getTitle());
            assertEquals(322, b.getPages());
            assertEquals(0, new BigDecimal("19.90").compareTo(b.getPrice()));
            assertEquals(LocalDate.of(1969, 7, 20), b.getPublished());
            assertTrue(b.isAvailable());
            assertNull(b.getCover());
            return b;
        });

        List<String> thick = read(em -> em.createQuery(
                        "select b.title from Book b where b.pages > :min order by b.title", String.class)
                .setParameter("min", 400).getResultList());
        assertEquals(List.of("Refactoring", "Structure and Interpretation"), thick);
        assertEquals(3L, count("select count(b) from Book b"));
        assertEquals(Integer.valueOf(657),
                read(em -> em.createQuery("select max(b.pages) from Book b", Integer.class).getSingleResult()));
        List<Book> page = read(em -> em.createQuery("from Book order by pages", Book.class)
                .setFirstResult(1).setMaxResults(1).getResultList());
        assertEquals("Refactoring", page.get(0).getTitle());

        // update: a managed entity (with its @Version) and a bulk update
        runInTransaction(em -> em.find(Book.class, id).setPages(336));
        int updated = inTransaction(em ->
                em.createQuery("update Book set available = false where pages > 400").executeUpdate());
        assertEquals(2, updated);
        read(em -> {
            Book b = em.find(Book.class, id);
            assertEquals(336, b.getPages());
            assertEquals(1, b.getVersion());
            return b;
        });
        assertEquals(1L, count("select count(b) from Book b where b.available"));

        // delete: one entity and a bulk delete
        runInTransaction(em -> em.remove(em.find(Book.class, id)));
        assertNull(read(em -> em.find(Book.class, id)));
        assertEquals(Integer.valueOf(2), inTransaction(em ->
                em.createQuery("delete from Book where available = false").executeUpdate()));
        assertEquals(0L, count("select count(b) from Book b"));
    }

    @Test
    void lobByteArrayRoundTrip() {
        byte[] cover = new byte[300_000];
        new Random(42).nextBytes(cover);
        Long id = inTransaction(em -> {
            Book b = book("Cover art", 10);
            b.setCover(cover);
            em.persist(b);
            return b.getId();
        });
        assertArrayEquals(cover, read(em -> em.find(Book.class, id).getCover()));

        byte[] smaller = {0, 1, 2, (byte) 0xff};
        runInTransaction(em -> em.find(Book.class, id).setCover(smaller));
        assertArrayEquals(smaller, read(em -> em.find(Book.class, id).getCover()));
        runInTransaction(em -> em.find(Book.class, id).setCover(new byte[0]));
        assertEquals(0, read(em -> em.find(Book.class, id).getCover()).length);
    }

    @Test
    void constraintViolationsAndGrammarErrorsAreTranslated() {
        runInTransaction(em -> em.persist(book("Unique", 1)));
        PersistenceException dup = assertThrows(PersistenceException.class, () -> runInTransaction(em -> {
            em.persist(book("Unique", 2));
            em.flush();
        }));
        ConstraintViolationException cve = find(dup, ConstraintViolationException.class);
        assertEquals(19, cve.getErrorCode(), "SQLITE_CONSTRAINT");
        assertEquals("23505", cve.getSQLState());
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, cve.getSQLException());

        PersistenceException grammar = assertThrows(PersistenceException.class, () -> read(em ->
                em.createNativeQuery("select * from no_such_table where id = ?1").setParameter(1, 1).getResultList()));
        find(grammar, SQLGrammarException.class);
        assertFalse(read(em -> em.createQuery("from Book", Book.class).getResultList()).isEmpty());
    }

    /** In production: Hibernate over a HikariCP pool (no HHH10001002 built-in pool warning). */
    @Test
    void behindHikariCP() {
        emf.close();
        HikariConfig config = new HikariConfig();
        config.setDriverClassName("dev.panlite.Driver");
        config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("pooled.db") + "?journal_mode=WAL&foreign_keys=true");
        config.setMaximumPoolSize(4);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            emf = Persistence.createEntityManagerFactory("books",
                    Map.of("jakarta.persistence.nonJtaDataSource", pool));
            Long id = inTransaction(em -> {
                Book b = book("Pooled", 1);
                b.setCover(new byte[] {1, 2, 3});
                em.persist(b);
                return b.getId();
            });
            assertArrayEquals(new byte[] {1, 2, 3}, read(em -> em.find(Book.class, id).getCover()));
            emf.close();
        }
    }

    static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in the causes of " + e, e);
    }
}
