package dev.panlite.spring;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** README.md, "Vector search": the Spring example, as written there (VectorSearchJdbcClientTest runs it). */
@Service
public class DocSearch {
    public record Hit(long id, String title, double distance) {}

    private final JdbcClient jdbc;

    public DocSearch(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void add(long id, String category, String title, float[] embedding) {
        jdbc.sql("INSERT INTO docs(id, embedding, category, title) VALUES (?, ?, ?, ?)")
                .params(id, embedding, category, title)
                .update();
    }

    public List<Hit> nearest(float[] query, String category, int k) {
        return jdbc.sql("""
                        SELECT id, title, distance FROM docs
                        WHERE embedding MATCH :query AND k = :k AND category = :category
                        ORDER BY distance""")
                .param("query", query)
                .param("k", k)
                .param("category", category)
                .query(Hit.class)
                .list();
    }

    public float[] embedding(long id) {
        return jdbc.sql("SELECT embedding FROM docs WHERE id = ?").param(id).query(float[].class).single();
    }
}
