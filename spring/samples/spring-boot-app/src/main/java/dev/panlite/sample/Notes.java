package dev.panlite.sample;

import java.util.List;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.ListCrudRepository;

public interface Notes extends ListCrudRepository<Note, Long> {
    List<Note> findAll(Sort sort);
}
