-- The first two statements succeed; the third fails (a duplicate name), so the whole migration
-- must roll back: no pet table, no Grace.
CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES person(id));
INSERT INTO person (name, age) VALUES ('Grace', 85);
INSERT INTO person (name, age) VALUES ('Ada', 99);
