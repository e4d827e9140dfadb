package dev.panlite.spring;

import java.util.Optional;
import org.springframework.data.relational.core.sql.LockMode;
import org.springframework.data.relational.repository.Lock;
import org.springframework.data.repository.CrudRepository;

public interface TallyRepository extends CrudRepository<Tally, Long> {
    /** SELECT ... FOR UPDATE elsewhere; on SQLite no lock clause (see SqliteDialect). */
    @Lock(LockMode.PESSIMISTIC_WRITE)
    Optional<Tally> findTallyById(Long id);
}
