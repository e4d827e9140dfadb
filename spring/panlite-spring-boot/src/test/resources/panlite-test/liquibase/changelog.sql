--liquibase formatted sql

--changeset panlite:1
CREATE TABLE migrated (id INTEGER PRIMARY KEY, by_liquibase TEXT NOT NULL);
