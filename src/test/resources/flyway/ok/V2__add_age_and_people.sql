ALTER TABLE person ADD COLUMN age INTEGER;
INSERT INTO person (name, age) VALUES ('Ada', 36);
INSERT INTO person (name, age) VALUES ('Alan', 41);
