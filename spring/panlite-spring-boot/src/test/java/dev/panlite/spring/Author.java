package dev.panlite.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;
import org.springframework.data.relational.core.mapping.Embedded;
import org.springframework.data.relational.core.mapping.MappedCollection;

/** An aggregate root: generated id, version, an embedded address, an ordered list of books (table book). */
public class Author {
    @Id
    Long id;
    String name;
    @Version
    Long version;
    @Embedded.Nullable(prefix = "address_")
    Address address;
    @MappedCollection(idColumn = "author_id", keyColumn = "position")
    List<Book> books = new ArrayList<>();

    Author() {}

    Author(String name, Address address, Book... books) {
        this.name = name;
        this.address = address;
        this.books.addAll(List.of(books));
    }

    public record Address(String street, String city) {}

    public record Book(String title, int published) {}
}
