package dev.panlite.spring;

import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;
import org.springframework.data.repository.ListPagingAndSortingRepository;
import org.springframework.data.repository.query.Param;

public interface AuthorRepository extends ListCrudRepository<Author, Long>, ListPagingAndSortingRepository<Author, Long> {
    List<Author> findByNameStartingWithOrderByNameAsc(String prefix);

    Page<Author> findByNameContaining(String part, Pageable pageable);

    List<Author> findByAddressCity(String city);

    long countByNameStartingWith(String prefix);

    @Query("SELECT * FROM author WHERE name = :name")
    Optional<Author> byName(@Param("name") String name);

    @Query("SELECT count(*) FROM book WHERE published >= :from AND published < :to")
    int booksPublishedBetween(@Param("from") int from, @Param("to") int to);
}
