package dev.panlite.spring;

import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/** An upsert: SQLite's INSERT ... ON CONFLICT DO UPDATE, in a @Query (the dialect interface has no upsert). */
public interface TagRepository extends Repository<Tag, String> {
    @Modifying
    @Query("INSERT INTO tag (name, uses) VALUES (:name, 1) ON CONFLICT (name) DO UPDATE SET uses = uses + 1")
    void use(@Param("name") String name);

    @Query("SELECT uses FROM tag WHERE name = :name")
    int uses(@Param("name") String name);
}
