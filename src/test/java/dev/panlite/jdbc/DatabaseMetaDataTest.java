package dev.panlite.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panlite.Driver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseMetaDataTest {
    @TempDir
    Path dir;

    private Connection conn;
    private DatabaseMetaData md;

    @BeforeEach
    void open() throws SQLException {
        conn = new Driver().connect("jdbc:sqlite:" + dir.resolve("meta.db"), new Properties());
        try (Statement s = conn.createStatement()) {
            s.execute("""
                CREATE TABLE author (
                    id INTEGER PRIMARY KEY,
                    name VARCHAR(100) NOT NULL,
                    email TEXT UNIQUE,
                    score DECIMAL(10,2) DEFAULT 0,
                    created TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
                    nick TEXT DEFAULT 'anon',
                    upper_name TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL,
                    blobby)""");
            s.execute("""
                CREATE TABLE book (
                    author_id INTEGER NOT NULL,
                    seq INT NOT NULL,
                    title TEXT,
                    isbn CHAR(13),
                    CONSTRAINT pk_book PRIMARY KEY (seq, author_id),
                    CONSTRAINT fk_book_author FOREIGN KEY (author_id) REFERENCES author(id)
                        ON DELETE CASCADE ON UPDATE NO ACTION)""");
            s.execute("""
                CREATE TABLE review (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    book_author INT,
                    book_seq INT,
                    reviewer INT CONSTRAINT fk_reviewer REFERENCES Author ON DELETE SET NULL
                        DEFERRABLE INITIALLY DEFERRED,
                    FOREIGN KEY (book_seq, book_author) REFERENCES book(seq, author_id) ON UPDATE CASCADE)""");
            s.execute("CREATE TABLE \"we\"\"ird\" (k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID");
            s.execute("CREATE TABLE other_1 (x)");
            s.execute("CREATE TABLE otherX1 (x)");
            s.execute("CREATE INDEX idx_book_title ON book(title DESC)");
            s.execute("CREATE UNIQUE INDEX idx_book_isbn ON book(isbn) WHERE isbn IS NOT NULL");
            s.execute("CREATE INDEX idx_author_lower ON author(lower(name), email COLLATE NOCASE)");
            s.execute("CREATE VIEW author_names AS SELECT id, name FROM author");
        }
        md = conn.getMetaData();
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
    }

    /** Rows as label → value maps, in result order. */
    private static List<Map<String, Object>> rows(ResultSet rs) throws SQLException {
        try (rs) {
            ResultSetMetaData m = rs.getMetaData();
            List<Map<String, Object>> out = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= m.getColumnCount(); i++) {
                    row.put(m.getColumnLabel(i), rs.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    private static List<String> labels(ResultSet rs) throws SQLException {
        ResultSetMetaData m = rs.getMetaData();
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= m.getColumnCount(); i++) {
            out.add(m.getColumnLabel(i));
        }
        return out;
    }

    private static List<Object> column(List<Map<String, Object>> rows, String label) {
        List<Object> out = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            out.add(r.get(label));
        }
        return out;
    }

    private static int i(Object o) {
        return ((Number) o).intValue();
    }

    // ------------------------------------------------------------------ product and driver

    @Test
    void productAndDriver() throws SQLException {
        assertEquals("SQLite", md.getDatabaseProductName());
        String version = md.getDatabaseProductVersion();
        assertNotNull(version);
        String[] parts = version.split("\\.");
        assertEquals(Integer.parseInt(parts[0]), md.getDatabaseMajorVersion());
        assertEquals(Integer.parseInt(parts[1]), md.getDatabaseMinorVersion());
        // the SQLite version, and a fork's own after it (libSQL: "3.47.0 (libSQL 0.2.3)")
        String sqlite = conn.unwrap(dev.panlite.PanliteConnection.class).sqliteVersion();
        String libsql = dev.panlite.ffi.SqliteLibrary.libsqlVersion();
        assertEquals(libsql == null ? sqlite : sqlite + " (libSQL " + libsql + ")", version);
        assertEquals("Panlite", md.getDriverName());
        assertEquals(Driver.VERSION, md.getDriverVersion());
        assertEquals(Driver.MAJOR_VERSION, md.getDriverMajorVersion());
        assertEquals(Driver.MINOR_VERSION, md.getDriverMinorVersion());
        assertEquals(4, md.getJDBCMajorVersion());
        assertEquals(3, md.getJDBCMinorVersion());
        assertEquals("jdbc:sqlite:" + dir.resolve("meta.db"), md.getURL());
        assertNull(md.getUserName());
        assertSame(conn, md.getConnection());
        assertFalse(md.isReadOnly());
        assertTrue(md.isWrapperFor(DatabaseMetaData.class));
        assertSame(md, md.unwrap(DatabaseMetaData.class));
        assertThrows(SQLException.class, () -> md.unwrap(Connection.class));
    }

    @Test
    void supportsAnswers() throws SQLException {
        assertTrue(md.supportsTransactions());
        assertTrue(md.supportsSavepoints());
        assertTrue(md.supportsGetGeneratedKeys());
        assertTrue(md.supportsBatchUpdates());
        assertFalse(md.supportsMultipleOpenResults());
        assertFalse(md.supportsNamedParameters());
        assertTrue(md.supportsOuterJoins());
        assertEquals(md.getDatabaseMajorVersion() * 1000 + md.getDatabaseMinorVersion() >= 3039,
                md.supportsFullOuterJoins());
        assertTrue(md.supportsANSI92EntryLevelSQL());
        assertFalse(md.supportsANSI92IntermediateSQL());
        assertFalse(md.supportsMixedCaseIdentifiers());
        assertTrue(md.storesMixedCaseIdentifiers());
        assertFalse(md.storesLowerCaseIdentifiers());
        assertFalse(md.storesUpperCaseIdentifiers());
        assertTrue(md.storesMixedCaseQuotedIdentifiers());
        assertEquals("\"", md.getIdentifierQuoteString());
        assertEquals("\\", md.getSearchStringEscape());
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, md.getDefaultTransactionIsolation());
        assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE));
        assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_UNCOMMITTED));
        assertFalse(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE));
        assertTrue(md.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY));
        assertFalse(md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE));
        assertTrue(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY));
        assertFalse(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE));
        assertTrue(md.supportsResultSetHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT));
        assertTrue(md.supportsResultSetHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT));
        assertEquals(conn.getHoldability(), md.getResultSetHoldability());
        assertEquals(0, md.getMaxConnections());
        assertTrue(md.supportsAlterTableWithAddColumn());
        assertTrue(md.supportsUnion());
        assertTrue(md.supportsUnionAll());
        assertTrue(md.usesLocalFiles());
        assertTrue(md.nullsAreSortedLow());
        assertFalse(md.nullsAreSortedHigh());
        assertEquals(java.sql.RowIdLifetime.ROWID_UNSUPPORTED, md.getRowIdLifetime());
        assertFalse(md.autoCommitFailureClosesAllResultSets());
        assertFalse(md.generatedKeyAlwaysReturned());

        List<String> keywords = List.of(md.getSQLKeywords().split(","));
        assertTrue(keywords.contains("AUTOINCREMENT"));
        assertTrue(keywords.contains("PRAGMA"));
        assertFalse(keywords.contains("SELECT"), "SQL:2003 words are not listed");
        assertTrue(List.of(md.getStringFunctions().split(",")).contains("substr"));
        assertTrue(List.of(md.getNumericFunctions().split(",")).contains("abs"));
        assertTrue(List.of(md.getTimeDateFunctions().split(",")).contains("strftime"));
        assertTrue(List.of(md.getSystemFunctions().split(",")).contains("typeof"));
    }

    @Test
    void readOnlyFollowsConnection() throws SQLException {
        conn.setReadOnly(true);
        assertTrue(md.isReadOnly());
    }

    // ------------------------------------------------------------------ schemas, catalogs, types

    @Test
    void catalogsSchemasAndTableTypes() throws SQLException {
        ResultSet catalogs = md.getCatalogs();
        assertEquals(List.of("TABLE_CAT"), labels(catalogs));
        assertTrue(rows(catalogs).isEmpty());

        try (Statement s = conn.createStatement()) {
            s.execute("ATTACH DATABASE '" + dir.resolve("aux.db") + "' AS aux");
        }
        ResultSet schemas = md.getSchemas();
        assertEquals(List.of("TABLE_SCHEM", "TABLE_CATALOG"), labels(schemas));
        List<Map<String, Object>> rows = rows(schemas);
        assertEquals(List.of("aux", "main", "temp"), column(rows, "TABLE_SCHEM"));
        assertNull(rows.get(0).get("TABLE_CATALOG"));
        assertEquals(List.of("main"), column(rows(md.getSchemas(null, "ma%")), "TABLE_SCHEM"));
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE aux.parent (id INTEGER PRIMARY KEY)");
            s.execute("CREATE TABLE aux.child (pid INTEGER REFERENCES parent(id) ON DELETE RESTRICT)");
        }
        List<Map<String, Object>> auxTables = rows(md.getTables(null, "aux", "%", new String[] {"TABLE"}));
        assertEquals(List.of("child", "parent"), column(auxTables, "TABLE_NAME"));
        assertEquals(List.of("aux", "aux"), column(auxTables, "TABLE_SCHEM"));
        List<Map<String, Object>> auxKeys = rows(md.getExportedKeys(null, "aux", "parent"));
        assertEquals(List.of("child"), column(auxKeys, "FKTABLE_NAME"));
        assertEquals("aux", auxKeys.get(0).get("PKTABLE_SCHEM"));
        assertEquals(DatabaseMetaData.importedKeyRestrict, i(auxKeys.get(0).get("DELETE_RULE")));
        assertTrue(rows(md.getExportedKeys(null, "main", "parent")).isEmpty());

        ResultSet types = md.getTableTypes();
        assertEquals(List.of("TABLE_TYPE"), labels(types));
        List<Object> typeNames = column(rows(types), "TABLE_TYPE");
        assertTrue(typeNames.containsAll(List.of("TABLE", "VIEW", "SYSTEM TABLE")));
        List<Object> sorted = new ArrayList<>(typeNames);
        sorted.sort(null);
        assertEquals(sorted, typeNames);
    }

    // ------------------------------------------------------------------ tables

    @Test
    void tablesByTypeAndPattern() throws SQLException {
        ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"});
        assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT",
                "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"), labels(rs));
        List<Map<String, Object>> tables = rows(rs);
        // sorted as strings: 'X' < '_'
        assertEquals(List.of("author", "book", "otherX1", "other_1", "review", "we\"ird"),
                column(tables, "TABLE_NAME"));
        assertEquals("main", tables.get(0).get("TABLE_SCHEM"));
        assertNull(tables.get(0).get("TABLE_CAT"));
        assertNull(tables.get(0).get("REMARKS"));

        assertEquals(List.of("author_names"), column(rows(md.getTables(null, "main", null, new String[] {"VIEW"})),
                "TABLE_NAME"));

        // all types: sorted by TABLE_TYPE first; sqlite_sequence (AUTOINCREMENT) is a system table
        List<Map<String, Object>> all = rows(md.getTables(null, null, null, null));
        List<Object> types = column(all, "TABLE_TYPE");
        List<Object> sorted = new ArrayList<>(types);
        sorted.sort(null);
        assertEquals(sorted, types);
        assertTrue(all.stream().anyMatch(r -> "sqlite_sequence".equals(r.get("TABLE_NAME"))
                && "SYSTEM TABLE".equals(r.get("TABLE_TYPE"))));
        assertTrue(all.stream().anyMatch(r -> "author_names".equals(r.get("TABLE_NAME"))));

        // LIKE patterns: _ is any one character unless escaped; case is ignored as SQLite does
        assertEquals(List.of("otherX1", "other_1"),
                column(rows(md.getTables(null, null, "other_1", null)), "TABLE_NAME"));
        assertEquals(List.of("other_1"), column(rows(md.getTables(null, null, "other\\_1", null)), "TABLE_NAME"));
        assertEquals(List.of("author"), column(rows(md.getTables(null, null, "AUTHOR", null)), "TABLE_NAME"));
        assertTrue(rows(md.getTables(null, "temp", "author", null)).isEmpty());
        assertTrue(rows(md.getTables(null, "nosuch", null, null)).isEmpty());
    }

    @Test
    void tempTables() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TEMP TABLE scratch (a INTEGER PRIMARY KEY, b TEXT)");
        }
        List<Map<String, Object>> rows = rows(md.getTables(null, "temp", "scratch", null));
        assertEquals(1, rows.size());
        assertEquals("temp", rows.get(0).get("TABLE_SCHEM"));
        assertEquals("LOCAL TEMPORARY", rows.get(0).get("TABLE_TYPE"));
        assertEquals(List.of("a", "b"), column(rows(md.getColumns(null, "temp", "scratch", null)), "COLUMN_NAME"));
        assertEquals(List.of("a"), column(rows(md.getPrimaryKeys(null, null, "scratch")), "COLUMN_NAME"));
    }

    // ------------------------------------------------------------------ columns

    @Test
    void columns() throws SQLException {
        ResultSet rs = md.getColumns(null, null, "author", null);
        assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
                "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS",
                "COLUMN_DEF", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION",
                "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE", "IS_AUTOINCREMENT",
                "IS_GENERATEDCOLUMN"), labels(rs));
        List<Map<String, Object>> cols = rows(rs);
        assertEquals(List.of("id", "name", "email", "score", "created", "nick", "upper_name", "blobby"),
                column(cols, "COLUMN_NAME"));
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), column(cols, "ORDINAL_POSITION").stream().map(o -> i(o)).toList());
        Map<String, Map<String, Object>> by = new HashMap<>();
        for (Map<String, Object> c : cols) {
            by.put((String) c.get("COLUMN_NAME"), c);
        }

        Map<String, Object> id = by.get("id");
        assertEquals(Types.INTEGER, i(id.get("DATA_TYPE")));
        assertEquals("INTEGER", id.get("TYPE_NAME"));
        assertEquals(DatabaseMetaData.columnNoNulls, i(id.get("NULLABLE")));
        assertEquals("NO", id.get("IS_NULLABLE"));
        assertEquals("YES", id.get("IS_AUTOINCREMENT"));
        assertEquals("NO", id.get("IS_GENERATEDCOLUMN"));

        Map<String, Object> name = by.get("name");
        assertEquals(Types.VARCHAR, i(name.get("DATA_TYPE")));
        assertEquals("VARCHAR", name.get("TYPE_NAME"));
        assertEquals(100, i(name.get("COLUMN_SIZE")));
        assertEquals(DatabaseMetaData.columnNoNulls, i(name.get("NULLABLE")));
        assertEquals("NO", name.get("IS_AUTOINCREMENT"));
        assertNull(name.get("COLUMN_DEF"));

        Map<String, Object> email = by.get("email");
        assertEquals(DatabaseMetaData.columnNullable, i(email.get("NULLABLE")));
        assertEquals("YES", email.get("IS_NULLABLE"));

        Map<String, Object> score = by.get("score");
        assertEquals(Types.DECIMAL, i(score.get("DATA_TYPE")));
        assertEquals(10, i(score.get("COLUMN_SIZE")));
        assertEquals(2, i(score.get("DECIMAL_DIGITS")));
        assertEquals(10, i(score.get("NUM_PREC_RADIX")));
        assertEquals("0", score.get("COLUMN_DEF"));

        assertEquals(Types.TIMESTAMP, i(by.get("created").get("DATA_TYPE")));
        assertEquals("CURRENT_TIMESTAMP", by.get("created").get("COLUMN_DEF"));
        assertEquals("'anon'", by.get("nick").get("COLUMN_DEF"));
        assertEquals("YES", by.get("upper_name").get("IS_GENERATEDCOLUMN"));
        assertEquals("", by.get("blobby").get("TYPE_NAME"));

        // column pattern, case ignored; rows sorted by table then ordinal
        List<Map<String, Object>> named = rows(md.getColumns(null, "main", "author%", "NAME"));
        assertEquals(List.of("author", "author_names"), column(named, "TABLE_NAME"));
        assertEquals(List.of(2, 2), column(named, "ORDINAL_POSITION").stream().map(o -> i(o)).toList());
    }

    @Test
    void brokenViewIsListedButHasNoColumns() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE gone (a, b)");
            s.execute("CREATE VIEW orphan AS SELECT a, b FROM gone");
            s.execute("DROP TABLE gone");
        }
        assertEquals(List.of("orphan"), column(rows(md.getTables(null, null, "orphan", null)), "TABLE_NAME"));
        assertTrue(rows(md.getColumns(null, null, "orphan", null)).isEmpty());
        assertFalse(rows(md.getColumns(null, null, null, null)).isEmpty());
    }

    @Test
    void columnNullabilityOfKeys() throws SQLException {
        Map<String, Object> k = rows(md.getColumns(null, null, "we\"ird", "k")).get(0);
        assertEquals(DatabaseMetaData.columnNoNulls, i(k.get("NULLABLE")), "WITHOUT ROWID keys are NOT NULL");
        assertEquals("NO", k.get("IS_AUTOINCREMENT"));
        Map<String, Object> reviewId = rows(md.getColumns(null, null, "review", "id")).get(0);
        assertEquals("YES", reviewId.get("IS_AUTOINCREMENT"));
        Map<String, Object> seq = rows(md.getColumns(null, null, "book", "seq")).get(0);
        assertEquals("NO", seq.get("IS_AUTOINCREMENT"), "a composite key is not the rowid");
    }

    // ------------------------------------------------------------------ keys

    @Test
    void primaryKeys() throws SQLException {
        ResultSet rs = md.getPrimaryKeys(null, null, "book");
        assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"),
                labels(rs));
        List<Map<String, Object>> pk = rows(rs);
        // ordered by COLUMN_NAME; KEY_SEQ is the position in the key
        assertEquals(List.of("author_id", "seq"), column(pk, "COLUMN_NAME"));
        assertEquals(List.of(2, 1), column(pk, "KEY_SEQ").stream().map(o -> i(o)).toList());
        assertEquals("pk_book", pk.get(0).get("PK_NAME"));

        List<Map<String, Object>> authorPk = rows(md.getPrimaryKeys(null, "main", "author"));
        assertEquals(List.of("id"), column(authorPk, "COLUMN_NAME"));
        assertNull(authorPk.get(0).get("PK_NAME"));
        assertTrue(rows(md.getPrimaryKeys(null, null, "other_1")).isEmpty());
        assertTrue(rows(md.getPrimaryKeys(null, null, "author_names")).isEmpty());
    }

    @Test
    void importedKeys() throws SQLException {
        ResultSet rs = md.getImportedKeys(null, null, "review");
        assertEquals(List.of("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT",
                "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "FK_NAME",
                "PK_NAME", "DEFERRABILITY"), labels(rs));
        List<Map<String, Object>> keys = rows(rs);
        assertEquals(3, keys.size());
        // ordered by the referenced table: author, then book's two columns in key order
        Map<String, Object> toAuthor = keys.get(0);
        assertEquals("author", toAuthor.get("PKTABLE_NAME"), "the stored name, not the FK's spelling");
        assertEquals("id", toAuthor.get("PKCOLUMN_NAME"), "an implicit reference is to the primary key");
        assertEquals("reviewer", toAuthor.get("FKCOLUMN_NAME"));
        assertEquals("main", toAuthor.get("PKTABLE_SCHEM"));
        assertEquals("review", toAuthor.get("FKTABLE_NAME"));
        assertEquals(1, i(toAuthor.get("KEY_SEQ")));
        assertEquals(DatabaseMetaData.importedKeySetNull, i(toAuthor.get("DELETE_RULE")));
        assertEquals(DatabaseMetaData.importedKeyNoAction, i(toAuthor.get("UPDATE_RULE")));
        assertEquals("fk_reviewer", toAuthor.get("FK_NAME"));
        assertEquals(DatabaseMetaData.importedKeyInitiallyDeferred, i(toAuthor.get("DEFERRABILITY")));

        assertEquals(List.of("book", "book"), column(keys.subList(1, 3), "PKTABLE_NAME"));
        assertEquals(List.of("seq", "author_id"), column(keys.subList(1, 3), "PKCOLUMN_NAME"));
        assertEquals(List.of("book_seq", "book_author"), column(keys.subList(1, 3), "FKCOLUMN_NAME"));
        assertEquals(List.of(1, 2), column(keys.subList(1, 3), "KEY_SEQ").stream().map(o -> i(o)).toList());
        assertEquals(DatabaseMetaData.importedKeyCascade, i(keys.get(1).get("UPDATE_RULE")));
        assertEquals(DatabaseMetaData.importedKeyNoAction, i(keys.get(1).get("DELETE_RULE")));
        assertNull(keys.get(1).get("FK_NAME"));
        assertEquals("pk_book", keys.get(1).get("PK_NAME"));
        assertEquals(DatabaseMetaData.importedKeyNotDeferrable, i(keys.get(1).get("DEFERRABILITY")));

        List<Map<String, Object>> bookKeys = rows(md.getImportedKeys(null, "main", "book"));
        assertEquals(1, bookKeys.size());
        assertEquals(DatabaseMetaData.importedKeyCascade, i(bookKeys.get(0).get("DELETE_RULE")));
        assertEquals("fk_book_author", bookKeys.get(0).get("FK_NAME"));
        assertTrue(rows(md.getImportedKeys(null, null, "author")).isEmpty());
    }

    @Test
    void exportedKeysAndCrossReference() throws SQLException {
        List<Map<String, Object>> exported = rows(md.getExportedKeys(null, null, "author"));
        // ordered by the referencing table
        assertEquals(List.of("book", "review"), column(exported, "FKTABLE_NAME"));
        assertEquals(List.of("author_id", "reviewer"), column(exported, "FKCOLUMN_NAME"));
        assertEquals(List.of("author", "author"), column(exported, "PKTABLE_NAME"));
        assertEquals(DatabaseMetaData.importedKeyCascade, i(exported.get(0).get("DELETE_RULE")));

        List<Map<String, Object>> cross = rows(md.getCrossReference(null, null, "book", null, null, "review"));
        assertEquals(List.of("book_seq", "book_author"), column(cross, "FKCOLUMN_NAME"));
        assertTrue(rows(md.getCrossReference(null, null, "review", null, null, "book")).isEmpty());
    }

    // ------------------------------------------------------------------ indexes

    @Test
    void indexInfo() throws SQLException {
        ResultSet rs = md.getIndexInfo(null, null, "book", false, false);
        assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER", "INDEX_NAME",
                "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES", "FILTER_CONDITION"),
                labels(rs));
        List<Map<String, Object>> all = rows(rs);
        // unique first (the primary key's automatic index, the partial unique index), then by name
        assertEquals(List.of("idx_book_isbn", "sqlite_autoindex_book_1", "sqlite_autoindex_book_1", "idx_book_title"),
                column(all, "INDEX_NAME"));
        assertEquals(List.of(false, false, false, true),
                all.stream().map(r -> i(r.get("NON_UNIQUE")) != 0).toList());
        assertEquals(List.of("isbn", "seq", "author_id", "title"), column(all, "COLUMN_NAME"));
        assertEquals(List.of(1, 1, 2, 1), column(all, "ORDINAL_POSITION").stream().map(o -> i(o)).toList());
        assertEquals(List.of("A", "A", "A", "D"), column(all, "ASC_OR_DESC"));
        assertEquals("isbn IS NOT NULL", all.get(0).get("FILTER_CONDITION"));
        assertNull(all.get(3).get("FILTER_CONDITION"));
        for (Map<String, Object> r : all) {
            assertEquals((int) DatabaseMetaData.tableIndexOther, i(r.get("TYPE")));
        }

        List<Map<String, Object>> unique = rows(md.getIndexInfo(null, null, "book", true, true));
        assertEquals(List.of("idx_book_isbn", "sqlite_autoindex_book_1", "sqlite_autoindex_book_1"),
                column(unique, "INDEX_NAME"));

        // UNIQUE column constraint → automatic index; an expression index names its expression
        List<Map<String, Object>> author = rows(md.getIndexInfo(null, null, "author", false, false));
        assertEquals(List.of("sqlite_autoindex_author_1", "idx_author_lower", "idx_author_lower"),
                column(author, "INDEX_NAME"));
        assertEquals(List.of("email", "lower(name)", "email"), column(author, "COLUMN_NAME"));
        assertEquals(List.of("sqlite_autoindex_author_1"),
                column(rows(md.getIndexInfo(null, null, "author", true, false)), "INDEX_NAME"));
    }

    // ------------------------------------------------------------------ types and the rest

    @Test
    void typeInfo() throws SQLException {
        ResultSet rs = md.getTypeInfo();
        assertEquals(List.of("TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX", "LITERAL_SUFFIX",
                "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE",
                "AUTO_INCREMENT", "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE",
                "SQL_DATETIME_SUB", "NUM_PREC_RADIX"), labels(rs));
        List<Map<String, Object>> types = rows(rs);
        List<Integer> dataTypes = column(types, "DATA_TYPE").stream().map(o -> i(o)).toList();
        List<Integer> sorted = new ArrayList<>(dataTypes);
        sorted.sort(null);
        assertEquals(sorted, dataTypes);
        List<Object> names = column(types, "TYPE_NAME");
        assertTrue(names.containsAll(List.of("INTEGER", "BIGINT", "REAL", "DOUBLE", "NUMERIC", "DECIMAL", "TEXT",
                "VARCHAR", "CHAR", "BLOB", "BOOLEAN", "DATE", "TIME", "TIMESTAMP", "NULL")));
        Map<String, Object> integer = types.get(names.indexOf("INTEGER"));
        assertEquals(Types.INTEGER, i(integer.get("DATA_TYPE")));
        assertEquals(1, i(integer.get("AUTO_INCREMENT")));
        Map<String, Object> text = types.get(names.indexOf("TEXT"));
        assertEquals("'", text.get("LITERAL_PREFIX"));
        assertEquals(DatabaseMetaData.typeNullable, i(text.get("NULLABLE")));
    }

    @Test
    void bestRowIdentifier() throws SQLException {
        assertEquals(List.of("seq", "author_id"),
                column(rows(md.getBestRowIdentifier(null, null, "book", DatabaseMetaData.bestRowSession, true)),
                        "COLUMN_NAME"));
        List<Map<String, Object>> rowid = rows(md.getBestRowIdentifier(null, null, "other_1",
                DatabaseMetaData.bestRowTemporary, true));
        assertEquals(List.of("rowid"), column(rowid, "COLUMN_NAME"));
        assertEquals(DatabaseMetaData.bestRowPseudo, i(rowid.get(0).get("PSEUDO_COLUMN")));
    }

    @Test
    void unsupportedFeaturesGiveEmptyResultsWithTheirColumns() throws SQLException {
        Map<String, ResultSet> results = new LinkedHashMap<>();
        results.put("procedures", md.getProcedures(null, null, null));
        results.put("procedureColumns", md.getProcedureColumns(null, null, null, null));
        results.put("functions", md.getFunctions(null, null, null));
        results.put("functionColumns", md.getFunctionColumns(null, null, null, null));
        results.put("udts", md.getUDTs(null, null, null, null));
        results.put("superTypes", md.getSuperTypes(null, null, null));
        results.put("superTables", md.getSuperTables(null, null, null));
        results.put("attributes", md.getAttributes(null, null, null, null));
        results.put("versionColumns", md.getVersionColumns(null, null, "author"));
        results.put("columnPrivileges", md.getColumnPrivileges(null, null, "author", null));
        results.put("tablePrivileges", md.getTablePrivileges(null, null, null));
        results.put("pseudoColumns", md.getPseudoColumns(null, null, null, null));
        results.put("clientInfoProperties", md.getClientInfoProperties());
        Map<String, Integer> widths = Map.ofEntries(Map.entry("procedures", 9), Map.entry("procedureColumns", 20),
                Map.entry("functions", 6), Map.entry("functionColumns", 17), Map.entry("udts", 7),
                Map.entry("superTypes", 6), Map.entry("superTables", 4), Map.entry("attributes", 21),
                Map.entry("versionColumns", 8), Map.entry("columnPrivileges", 8), Map.entry("tablePrivileges", 7),
                Map.entry("pseudoColumns", 12), Map.entry("clientInfoProperties", 4));
        for (Map.Entry<String, ResultSet> e : results.entrySet()) {
            assertEquals(widths.get(e.getKey()), e.getValue().getMetaData().getColumnCount(), e.getKey());
            assertTrue(rows(e.getValue()).isEmpty(), e.getKey());
        }
    }

    @Test
    void metadataCallsLeaveNoStatementsBehind() throws SQLException {
        dev.panlite.PanliteConnection p = conn.unwrap(dev.panlite.PanliteConnection.class);
        Runnable all = () -> {
            try {
                rows(md.getTables(null, null, null, null));
                rows(md.getColumns(null, null, null, null));
                rows(md.getPrimaryKeys(null, null, "book"));
                rows(md.getImportedKeys(null, null, "review"));
                rows(md.getExportedKeys(null, null, "author"));
                rows(md.getIndexInfo(null, null, "author", false, false));
                rows(md.getSchemas());
                md.getStringFunctions();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        };
        all.run();
        int after = p.preparedStatementCount();
        for (int n = 0; n < 5; n++) {
            all.run();
        }
        assertEquals(after, p.preparedStatementCount());
    }

    @Test
    void metadataWithAutoCommitOff() throws SQLException {
        conn.setAutoCommit(false);
        assertEquals(6, rows(md.getTables(null, "main", "%", new String[] {"TABLE"})).size());
        conn.rollback();
    }

    @Test
    void closedConnectionThrows() throws SQLException {
        conn.close();
        assertThrows(SQLException.class, md::getDatabaseProductName);
        assertThrows(SQLException.class, () -> md.getTables(null, null, null, null));
        assertThrows(SQLException.class, () -> md.getColumns(null, null, "author", null));
        assertThrows(SQLException.class, md::getTypeInfo);
        assertThrows(SQLException.class, md::supportsTransactions);
        assertThrows(SQLException.class, md::getCatalogs);
        assertThrows(SQLException.class, md::getURL);
        assertThrows(SQLException.class, md::isReadOnly);
    }

    /** The column maxima are the limit in force (the bundled engine allows 32,767), not a constant. */
    @Test
    void columnMaximaAreTheLimitInForce() throws SQLException {
        int max = md.getMaxColumnsInTable();
        assertEquals(max, md.getMaxColumnsInSelect());
        assertEquals(max, md.getMaxColumnsInIndex());
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE widest (" + columns(max) + ")"); // the most it says: accepted
            SQLException tooWide = assertThrows(SQLException.class,
                    () -> s.execute("CREATE TABLE wider (" + columns(max + 1) + ")"));
            assertTrue(tooWide.getMessage().contains("too many columns"), tooWide.getMessage());
        }
        try (Connection limited = new Driver().connect("jdbc:sqlite:" + dir.resolve("meta.db") + "?limit_column=100",
                new Properties())) {
            DatabaseMetaData lmd = limited.getMetaData();
            assertEquals(100, lmd.getMaxColumnsInTable());
            assertEquals(100, lmd.getMaxColumnsInSelect());
            limited.close();
            assertThrows(SQLException.class, lmd::getMaxColumnsInTable);
        }
    }

    private static String columns(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ").append('c').append(i);
        }
        return b.toString();
    }
}
