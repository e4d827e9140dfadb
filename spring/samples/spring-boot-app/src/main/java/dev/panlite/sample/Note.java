package dev.panlite.sample;

import java.util.Set;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;
import org.springframework.data.relational.core.mapping.MappedCollection;
import org.springframework.data.relational.core.mapping.Table;

/** A note and its tags: one aggregate (tables note and note_tag). */
public record Note(@Id Long id, String text, @Version Long version, @MappedCollection(idColumn = "note_id") Set<Tag> tags) {
    @Table("note_tag")
    public record Tag(String tag) {}
}
