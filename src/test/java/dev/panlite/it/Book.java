package dev.panlite.it;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.LocalDate;

/** The entity of HibernateTest. */
@Entity
public class Book {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, unique = true)
    private String title;

    private int pages;

    private BigDecimal price;

    private LocalDate published;

    private boolean available = true;

    @Lob
    private byte[] cover;

    @Version
    private int version;

    protected Book() {
    }

    public Book(String title, int pages, BigDecimal price, LocalDate published) {
        this.title = title;
        this.pages = pages;
        this.price = price;
        this.published = published;
    }

    public Long getId() {
        return id;
    }

    public String getTitle() {
        return title;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public int getPages() {
        return pages;
    }

    public void setPages(int pages) {
        this.pages = pages;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public LocalDate getPublished() {
        return published;
    }

    public boolean isAvailable() {
        return available;
    }

    public void setAvailable(boolean available) {
        this.available = available;
    }

    public byte[] getCover() {
        return cover;
    }

    public void setCover(byte[] cover) {
        this.cover = cover;
    }

    public int getVersion() {
        return version;
    }
}
