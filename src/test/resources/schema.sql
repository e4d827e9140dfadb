-- Run by Spring Boot at start (spring.sql.init.mode=always) in dev.panlite.it.SpringBootTest.
CREATE TABLE IF NOT EXISTS greeting (
    id   INTEGER PRIMARY KEY,
    lang TEXT NOT NULL UNIQUE,
    text TEXT NOT NULL
);
INSERT OR IGNORE INTO greeting (lang, text) VALUES ('en', 'Hello');
INSERT OR IGNORE INTO greeting (lang, text) VALUES ('fr', 'Bonjour');
