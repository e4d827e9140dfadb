package dev.panlite.jdbc;

import dev.panlite.Driver;
import dev.panlite.engine.Database;
import dev.panlite.engine.SqlText;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * JDBC metadata for SQLite. SQLite has no catalogs; its schemas are {@code main}, {@code temp} and the
 * attached databases. Every answer about tables comes from {@code sqlite_master} and the pragma
 * table-valued functions, run through this connection with bound parameters; every result set is a
 * {@link ValuesResultSet} with exactly the columns, in the order, the JDBC 4.3 javadoc lists.
 *
 * <p>Name patterns are LIKE patterns ({@code %}, {@code _}, escape {@code \}); names, as in SQLite,
 * match ignoring ASCII case. Tables in the {@code temp} schema are reported as {@code LOCAL TEMPORARY}
 * (they are visible to this connection only), tables named {@code sqlite_%} as {@code SYSTEM TABLE}.
 */
final class JdbcDatabaseMetaData implements DatabaseMetaData {
    private static final String TABLE = "TABLE";
    private static final String VIEW = "VIEW";
    private static final String SYSTEM_TABLE = "SYSTEM TABLE";
    private static final String LOCAL_TEMPORARY = "LOCAL TEMPORARY";
    /** getTableTypes, sorted. */
    private static final String[] TABLE_TYPES = {LOCAL_TEMPORARY, SYSTEM_TABLE, TABLE, VIEW};

    private static final int V = Types.VARCHAR;
    private static final int I = Types.INTEGER;
    private static final int S = Types.SMALLINT;
    private static final int B = Types.BOOLEAN;
    private static final int L = Types.BIGINT;

    private final JdbcConnection connection;
    final java.sql.Connection owner; // what getConnection returns: the pooled handle it was made through, or the connection
    private final int version = Database.libraryVersionNumber();
    private final Map<String, Boolean> compileOptions = new java.util.concurrent.ConcurrentHashMap<>();

    JdbcDatabaseMetaData(JdbcConnection connection, java.sql.Connection owner) {
        this.connection = connection;
        this.owner = owner;
    }

    // ================================================================== plumbing

    private void check() throws SQLException {
        if (connection.isClosed()) {
            throw Errors.connectionClosed();
        }
    }

    private ResultSet result(String[] labels, int[] types, List<Object[]> rows) {
        return new ValuesResultSet(null, connection.dates(), labels, types, rows);
    }

    private ResultSet empty(String[] labels, int[] types) throws SQLException {
        check();
        return result(labels, types, new ArrayList<>());
    }

    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    private void query(String sql, RowReader reader, String... args) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reader.read(rs);
                }
            }
        }
    }

    static String quote(String identifier) {
        return SqlText.quoteIdentifier(identifier);
    }

    /** True for SQLITE_ERROR (bad view, missing module...): that table is skipped; BUSY, IOERR... propagate. */
    private static boolean isPlainError(SQLException e) {
        return (e.getErrorCode() & 0xff) == 1;
    }

    private boolean compileOption(String option) throws SQLException {
        Boolean known = compileOptions.get(option);
        if (known == null) {
            boolean[] used = new boolean[1];
            query("SELECT sqlite_compileoption_used(?)", rs -> used[0] = rs.getInt(1) != 0, option);
            known = used[0];
            compileOptions.put(option, known);
        }
        return known;
    }

    // ------------------------------------------------------------------ name matching

    /** null (no narrowing) → everything; otherwise a LIKE pattern with escape '\', ASCII case ignored. */
    static Predicate<String> like(String pattern) {
        if (pattern == null) {
            return name -> true;
        }
        StringBuilder re = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                literal.append(pattern.charAt(++i));
            } else if (c == '%' || c == '_') {
                if (!literal.isEmpty()) {
                    re.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                re.append(c == '%' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            re.append(Pattern.quote(literal.toString()));
        }
        Pattern p = Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
        return name -> name != null && p.matcher(name).matches();
    }

    /** null (no narrowing) → everything; otherwise the name itself, ASCII case ignored as SQLite does. */
    static Predicate<String> exact(String name) {
        if (name == null) {
            return n -> true;
        }
        return n -> n != null && asciiEqualsIgnoreCase(n, name);
    }

    static boolean asciiEqualsIgnoreCase(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        for (int i = 0; i < a.length(); i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && asciiLower(x) != asciiLower(y)) {
                return false;
            }
        }
        return true;
    }

    private static char asciiLower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    // ------------------------------------------------------------------ schema reading

    /** The schemas (main, temp, attached) in SQLite's order. temp is always there, even before first use. */
    private List<String> schemas() throws SQLException {
        List<String> names = openSchemas();
        if (names.stream().noneMatch(n -> n.equalsIgnoreCase("temp"))) {
            names.add(Math.min(1, names.size()), "temp");
        }
        return names;
    }

    /**
     * The schemas SQLite has open (PRAGMA database_list): TEMP only once the connection used it. Its
     * tables are read only then: reading temp.sqlite_schema opens the TEMP database, which a
     * connection that never used it does not have (and database_list would then list it).
     */
    private List<String> openSchemas() throws SQLException {
        List<String> names = new ArrayList<>();
        query("SELECT name FROM pragma_database_list ORDER BY seq", rs -> names.add(rs.getString(1)));
        return names;
    }

    private record Table(String schema, String name, String type, String sql) {
        boolean isView() {
            return "view".equals(type);
        }

        boolean temp() {
            return schema.equalsIgnoreCase("temp");
        }

        boolean system() {
            return name.regionMatches(true, 0, "sqlite_", 0, 7);
        }

        String jdbcType() {
            if (isView()) {
                return VIEW;
            }
            if (system()) {
                return SYSTEM_TABLE;
            }
            return temp() ? LOCAL_TEMPORARY : TABLE;
        }

        boolean withoutRowid() {
            return sql != null && WITHOUT_ROWID.matcher(sql.substring(Math.max(0, sql.lastIndexOf(')')))).find();
        }
    }

    private static final Pattern WITHOUT_ROWID = Pattern.compile("(?i)\\bWITHOUT\\s+ROWID\\b");

    /** Tables and views (and each schema's own sqlite_schema table) whose schema and name pass the filters. */
    private List<Table> tables(Predicate<String> schemaFilter, Predicate<String> nameFilter) throws SQLException {
        List<Table> out = new ArrayList<>();
        List<String> open = openSchemas();
        for (String schema : schemas()) {
            if (!schemaFilter.test(schema)) {
                continue;
            }
            boolean temp = schema.equalsIgnoreCase("temp");
            String self = version >= 3033000 ? (temp ? "sqlite_temp_schema" : "sqlite_schema")
                    : (temp ? "sqlite_temp_master" : "sqlite_master");
            if (nameFilter.test(self)) {
                out.add(new Table(schema, self, "table", null));
            }
            if (!open.contains(schema)) {
                continue; // TEMP, never used: no tables (see openSchemas)
            }
            query("SELECT name, type, sql FROM " + quote(schema) + ".sqlite_master WHERE type IN ('table', 'view')",
                    rs -> {
                        String name = rs.getString(1);
                        if (nameFilter.test(name)) {
                            out.add(new Table(schema, name, rs.getString(2), rs.getString(3)));
                        }
                    });
        }
        return out;
    }

    private record Column(String name, String declared, boolean notNull, String defaultValue, int pk, int hidden) {}

    /** The visible columns of a table (generated ones included), or null when SQLite cannot describe it. */
    private List<Column> columns(Table t) throws SQLException {
        List<Column> out = new ArrayList<>();
        String fn = version >= 3026000 ? "pragma_table_xinfo" : "pragma_table_info";
        try {
            query("SELECT * FROM " + fn + "(?, ?) ORDER BY cid", rs -> {
                int hidden = fn.equals("pragma_table_xinfo") ? rs.getInt(7) : 0;
                if (hidden != 1) { // 1: a virtual table's hidden column
                    out.add(new Column(rs.getString(2), rs.getString(3), rs.getInt(4) != 0, rs.getString(5),
                            rs.getInt(6), hidden));
                }
            }, t.name, t.schema);
        } catch (SQLException e) {
            if (isPlainError(e)) {
                return null; // a view over a dropped table, a virtual table whose module is not loaded
            }
            throw e;
        }
        return out;
    }

    /** Primary key columns in key order. */
    private static List<Column> primaryKey(List<Column> columns) {
        List<Column> pk = new ArrayList<>();
        for (Column c : columns) {
            if (c.pk > 0) {
                pk.add(c);
            }
        }
        pk.sort(Comparator.comparingInt(Column::pk));
        return pk;
    }

    /** The INTEGER PRIMARY KEY column that aliases the rowid, or null. */
    private static Column rowidAlias(Table t, List<Column> columns) {
        if (t.isView() || t.withoutRowid()) {
            return null;
        }
        List<Column> pk = primaryKey(columns);
        if (pk.size() == 1 && pk.get(0).declared != null && pk.get(0).declared.strip().equalsIgnoreCase("INTEGER")) {
            return pk.get(0);
        }
        return null;
    }

    // ================================================================== product, driver, connection

    @Override
    public String getDatabaseProductName() throws SQLException {
        check();
        return "SQLite";
    }

    @Override
    public String getDatabaseProductVersion() throws SQLException {
        check();
        // the SQLite version first (tools parse it), a fork's own after it: "3.47.0 (libSQL 0.2.3)"
        String libsql = dev.panlite.ffi.SqliteLibrary.libsqlVersion();
        return libsql == null ? Database.libraryVersion() : Database.libraryVersion() + " (libSQL " + libsql + ")";
    }

    @Override
    public int getDatabaseMajorVersion() throws SQLException {
        check();
        return version / 1_000_000;
    }

    @Override
    public int getDatabaseMinorVersion() throws SQLException {
        check();
        return version / 1000 % 1000;
    }

    @Override
    public String getDriverName() throws SQLException {
        check();
        return Driver.NAME;
    }

    @Override
    public String getDriverVersion() throws SQLException {
        check();
        return Driver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return Driver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return Driver.MINOR_VERSION;
    }

    @Override
    public int getJDBCMajorVersion() throws SQLException {
        check();
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() throws SQLException {
        check();
        return 3;
    }

    @Override
    public String getURL() throws SQLException {
        check();
        return connection.config().url();
    }

    @Override
    public String getUserName() throws SQLException {
        check();
        return null;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    @Override
    public Connection getConnection() throws SQLException {
        check();
        return owner;
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        check();
        return false;
    }

    @Override
    public int getSQLStateType() throws SQLException {
        check();
        return sqlStateSQL;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() throws SQLException {
        check();
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    // ================================================================== identifiers and SQL vocabulary

    @Override
    public boolean supportsMixedCaseIdentifiers() throws SQLException {
        check();
        return false; // case-insensitive
    }

    @Override
    public boolean storesUpperCaseIdentifiers() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() throws SQLException {
        check();
        return true; // stored as written
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
        check();
        return false; // "A" and "a" are the same name in SQLite
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
        check();
        return true;
    }

    @Override
    public String getIdentifierQuoteString() throws SQLException {
        check();
        return "\"";
    }

    @Override
    public String getSearchStringEscape() throws SQLException {
        check();
        return "\\";
    }

    @Override
    public String getExtraNameCharacters() throws SQLException {
        check();
        return "$";
    }

    @Override
    public String getSchemaTerm() throws SQLException {
        check();
        return "schema";
    }

    @Override
    public String getProcedureTerm() throws SQLException {
        check();
        return "procedure";
    }

    @Override
    public String getCatalogTerm() throws SQLException {
        check();
        return "catalog";
    }

    @Override
    public boolean isCatalogAtStart() throws SQLException {
        check();
        return false;
    }

    @Override
    public String getCatalogSeparator() throws SQLException {
        check();
        return ".";
    }

    /** SQLite's keywords (https://sqlite.org/lang_keywords.html). */
    private static final String[] SQLITE_KEYWORDS = ("ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC "
            + "ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT "
            + "CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT "
            + "DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE "
            + "EXISTS EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING "
            + "IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN KEY "
            + "LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS OF OFFSET ON OR "
            + "ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE "
            + "REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT "
            + "SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING "
            + "VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT").split(" ");

    /** SQL:2003 reserved words. */
    private static final Set<String> SQL2003 = Set.of(("ABS ALL ALLOCATE ALTER AND ANY ARE ARRAY AS ASENSITIVE "
            + "ASYMMETRIC AT ATOMIC AUTHORIZATION AVG BEGIN BETWEEN BIGINT BINARY BLOB BOOLEAN BOTH BY CALL CALLED "
            + "CARDINALITY CASCADED CASE CAST CEIL CEILING CHAR CHAR_LENGTH CHARACTER CHARACTER_LENGTH CHECK CLOB "
            + "CLOSE COALESCE COLLATE COLLECT COLUMN COMMIT CONDITION CONNECT CONSTRAINT CONVERT CORR CORRESPONDING "
            + "COUNT COVAR_POP COVAR_SAMP CREATE CROSS CUBE CUME_DIST CURRENT CURRENT_DATE "
            + "CURRENT_DEFAULT_TRANSFORM_GROUP CURRENT_PATH CURRENT_ROLE CURRENT_TIME CURRENT_TIMESTAMP "
            + "CURRENT_TRANSFORM_GROUP_FOR_TYPE CURRENT_USER CURSOR CYCLE DATE DAY DEALLOCATE DEC DECIMAL DECLARE "
            + "DEFAULT DELETE DENSE_RANK DEREF DESCRIBE DETERMINISTIC DISCONNECT DISTINCT DOUBLE DROP DYNAMIC EACH "
            + "ELEMENT ELSE END END-EXEC ESCAPE EVERY EXCEPT EXEC EXECUTE EXISTS EXP EXTERNAL EXTRACT FALSE FETCH "
            + "FILTER FLOAT FLOOR FOR FOREIGN FREE FROM FULL FUNCTION FUSION GET GLOBAL GRANT GROUP GROUPING HAVING "
            + "HOLD HOUR IDENTITY IN INDICATOR INNER INOUT INSENSITIVE INSERT INT INTEGER INTERSECT INTERSECTION "
            + "INTERVAL INTO IS JOIN LANGUAGE LARGE LATERAL LEADING LEFT LIKE LN LOCAL LOCALTIME LOCALTIMESTAMP "
            + "LOWER MATCH MAX MEMBER MERGE METHOD MIN MINUTE MOD MODIFIES MODULE MONTH MULTISET NATIONAL NATURAL "
            + "NCHAR NCLOB NEW NO NONE NORMALIZE NOT NULL NULLIF NUMERIC OCTET_LENGTH OF OLD ON ONLY OPEN OR ORDER "
            + "OUT OUTER OVER OVERLAPS OVERLAY PARAMETER PARTITION PERCENT_RANK PERCENTILE_CONT PERCENTILE_DISC "
            + "POSITION POWER PRECISION PREPARE PRIMARY PROCEDURE RANGE RANK READS REAL RECURSIVE REF REFERENCES "
            + "REFERENCING REGR_AVGX REGR_AVGY REGR_COUNT REGR_INTERCEPT REGR_R2 REGR_SLOPE REGR_SXX REGR_SXY "
            + "REGR_SYY RELEASE RESULT RETURN RETURNS REVOKE RIGHT ROLLBACK ROLLUP ROW ROW_NUMBER ROWS SAVEPOINT "
            + "SCOPE SCROLL SEARCH SECOND SELECT SENSITIVE SESSION_USER SET SIMILAR SMALLINT SOME SPECIFIC "
            + "SPECIFICTYPE SQL SQLEXCEPTION SQLSTATE SQLWARNING SQRT START STATIC STDDEV_POP STDDEV_SAMP "
            + "SUBMULTISET SUM SYMMETRIC SYSTEM SYSTEM_USER TABLE TABLESAMPLE THEN TIME TIMESTAMP TIMEZONE_HOUR "
            + "TIMEZONE_MINUTE TO TRAILING TRANSLATE TRANSLATION TREAT TRIGGER TRIM TRUE UESCAPE UNION UNIQUE "
            + "UNKNOWN UNNEST UPDATE UPPER USER USING VALUE VALUES VAR_POP VAR_SAMP VARCHAR VARYING WHEN WHENEVER "
            + "WHERE WIDTH_BUCKET WINDOW WITH WITHIN WITHOUT YEAR").split(" "));

    private static final String SQL_KEYWORDS = String.join(",",
            Arrays.stream(SQLITE_KEYWORDS).filter(k -> !SQL2003.contains(k)).toList());

    @Override
    public String getSQLKeywords() throws SQLException {
        check();
        return SQL_KEYWORDS;
    }

    @Override
    public String getNumericFunctions() throws SQLException {
        check();
        List<String> f = new ArrayList<>(List.of("abs", "max", "min", "random", "round"));
        if (version >= 3035000 && compileOption("ENABLE_MATH_FUNCTIONS")) {
            f.addAll(List.of("acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos",
                    "cosh", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power",
                    "radians", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"));
        }
        return sortedList(f);
    }

    @Override
    public String getStringFunctions() throws SQLException {
        check();
        List<String> f = new ArrayList<>(List.of("char", "glob", "hex", "instr", "length", "like", "lower", "ltrim",
                "printf", "quote", "replace", "rtrim", "substr", "trim", "unicode", "upper"));
        if (version >= 3034000) {
            f.add("substring");
        }
        if (version >= 3038000) {
            f.add("format");
        }
        if (version >= 3041000) {
            f.add("unhex");
        }
        if (version >= 3043000) {
            f.add("octet_length");
        }
        if (version >= 3044000) {
            f.addAll(List.of("concat", "concat_ws"));
        }
        if (compileOption("SOUNDEX")) {
            f.add("soundex");
        }
        return sortedList(f);
    }

    @Override
    public String getSystemFunctions() throws SQLException {
        check();
        List<String> f = new ArrayList<>(List.of("changes", "coalesce", "ifnull", "last_insert_rowid", "likelihood",
                "likely", "load_extension", "nullif", "randomblob", "sqlite_compileoption_get",
                "sqlite_compileoption_used", "sqlite_source_id", "sqlite_version", "total_changes", "typeof",
                "unlikely", "zeroblob"));
        if (version >= 3032000) {
            f.add("iif");
        }
        return sortedList(f);
    }

    @Override
    public String getTimeDateFunctions() throws SQLException {
        check();
        List<String> f = new ArrayList<>(List.of("current_date", "current_time", "current_timestamp", "date",
                "datetime", "julianday", "strftime", "time"));
        if (version >= 3038000) {
            f.add("unixepoch");
        }
        if (version >= 3043000) {
            f.add("timediff");
        }
        return sortedList(f);
    }

    private static String sortedList(List<String> names) {
        return String.join(",", new TreeSet<>(names));
    }

    // ================================================================== what SQLite supports

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean nullsAreSortedHigh() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean nullsAreSortedLow() throws SQLException {
        check();
        return true; // NULL is smaller than every value: first ascending, last descending
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        check();
        return version >= 3035000;
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsConvert() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        check();
        return true; // a multi-statement execute() yields one result per statement (getMoreResults)
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        check();
        return true; // PRIMARY KEY, FOREIGN KEY, CHECK, DEFAULT
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        check();
        return version >= 3039000;
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        check();
        return false; // no ANY/SOME/ALL
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        check();
        return true; // HOLD_CURSORS_OVER_COMMIT, the default holdability
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        check();
        return true;
    }

    // ------------------------------------------------------------------ limits (0: none or unknown)

    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        return connection.columnLimit(); // the limit in force: the bundled engine's 32,767, limit_column, a system SQLite's 2,000
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        return connection.columnLimit(); // the limit in force: the bundled engine's 32,767, limit_column, a system SQLite's 2,000
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        return connection.columnLimit(); // the limit in force: the bundled engine's 32,767, limit_column, a system SQLite's 2,000
    }

    @Override
    public int getMaxConnections() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        check();
        return 0;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        check();
        return true;
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        check();
        return 1_000_000_000; // SQLITE_MAX_SQL_LENGTH's default
    }

    @Override
    public int getMaxStatements() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        check();
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        check();
        return 64; // SQLite joins at most 64 tables
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        check();
        return 0;
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public int getDefaultTransactionIsolation() throws SQLException {
        check();
        return Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public boolean supportsTransactions() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) throws SQLException {
        check();
        // READ_COMMITTED and REPEATABLE_READ are accepted and behave as SERIALIZABLE (stronger, as JDBC allows)
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED, Connection.TRANSACTION_READ_COMMITTED,
                    Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE -> true;
            default -> false;
        };
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        check();
        return false;
    }

    // ------------------------------------------------------------------ result sets and statements

    @Override
    public boolean supportsResultSetType(int type) throws SQLException {
        check();
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
        check();
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean updatesAreDetected(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean deletesAreDetected(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean insertsAreDetected(int type) throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsBatchUpdates() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        check();
        return false; // getMoreResults(KEEP_CURRENT_RESULT) is refused: see JdbcStatement.getMoreResults
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        check();
        return true;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        check();
        return false;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) throws SQLException {
        check();
        return holdability == ResultSet.CLOSE_CURSORS_AT_COMMIT || holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        check();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT; // SQLite keeps read cursors across COMMIT; the connection's default
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        check();
        return true; // Blob and Clob objects hold copies
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        check();
        return true; // the per-connection statement cache
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        check();
        return false;
    }

    // ================================================================== catalogs, schemas, table types

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return empty(new String[] {"TABLE_CAT"}, new int[] {V});
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return getSchemas(null, null);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        check();
        Predicate<String> filter = like(schemaPattern);
        List<Object[]> rows = new ArrayList<>();
        if (catalog == null || catalog.isEmpty()) {
            for (String s : schemas()) {
                if (filter.test(s)) {
                    rows.add(new Object[] {s, null});
                }
            }
        }
        rows.sort(Comparator.comparing(r -> (String) r[0]));
        return result(new String[] {"TABLE_SCHEM", "TABLE_CATALOG"}, new int[] {V, V}, rows);
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        check();
        List<Object[]> rows = new ArrayList<>();
        for (String t : TABLE_TYPES) {
            rows.add(new Object[] {t});
        }
        return result(new String[] {"TABLE_TYPE"}, new int[] {V}, rows);
    }

    // ================================================================== tables and columns

    private static final String[] TABLES_LABELS = {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
        "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"};

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        check();
        Set<String> wanted = null;
        if (types != null) {
            wanted = new java.util.HashSet<>();
            for (String t : types) {
                if (t != null) {
                    wanted.add(t.toUpperCase(Locale.ROOT));
                }
            }
        }
        List<Object[]> rows = new ArrayList<>();
        for (Table t : tables(like(schemaPattern), like(tableNamePattern))) {
            String type = t.jdbcType();
            if (wanted == null || wanted.contains(type)) {
                rows.add(new Object[] {null, t.schema, t.name, type, null, null, null, null, null, null});
            }
        }
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[3]).thenComparing(r -> (String) r[1])
                .thenComparing(r -> (String) r[2]));
        return result(TABLES_LABELS, new int[] {V, V, V, V, V, V, V, V, V, V}, rows);
    }

    private static final String[] COLUMNS_LABELS = {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
        "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE",
        "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION",
        "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE", "IS_AUTOINCREMENT",
        "IS_GENERATEDCOLUMN"};
    private static final int[] COLUMNS_TYPES = {V, V, V, V, I, V, I, I, I, I, I, V, V, I, I, I, I, V, V, V, V, S, V,
        V};

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
            String columnNamePattern) throws SQLException {
        check();
        Predicate<String> columnFilter = like(columnNamePattern);
        List<Table> tables = tables(like(schemaPattern), like(tableNamePattern));
        tables.sort(Comparator.comparing(Table::schema).thenComparing(Table::name));
        List<Object[]> rows = new ArrayList<>();
        for (Table t : tables) {
            List<Column> columns = columns(t);
            if (columns == null) {
                continue;
            }
            Column alias = rowidAlias(t, columns);
            boolean pkNotNull = !t.isView() && t.withoutRowid();
            int ordinal = 0;
            for (Column c : columns) {
                ordinal++;
                if (!columnFilter.test(c.name)) {
                    continue;
                }
                rows.add(columnRow(t, c, ordinal, c == alias, c.notNull || c == alias || (pkNotNull && c.pk > 0)));
            }
        }
        return result(COLUMNS_LABELS, COLUMNS_TYPES, rows);
    }

    private static Object[] columnRow(Table t, Column c, int ordinal, boolean rowidAlias, boolean notNull) {
        String declared = c.declared == null ? "" : c.declared.strip();
        int type = SqlTypes.fromDeclared(declared);
        boolean generated = c.hidden == 2 || c.hidden == 3;
        return new Object[] {
            null, t.schema, t.name, c.name,
            type, typeName(declared), columnSize(type, declared), null, decimalDigits(type, declared),
            isNumeric(type) ? 10 : null,
            notNull ? columnNoNulls : columnNullable,
            null, generated ? null : c.defaultValue, null, null,
            isCharacter(type) && SqlTypes.declaredLength(declared) > 0 ? SqlTypes.declaredLength(declared) * 4 : null,
            ordinal, notNull ? "NO" : "YES",
            null, null, null, null,
            rowidAlias ? "YES" : "NO", generated ? "YES" : "NO"};
    }

    /** The declared type without its length, as written: VARCHAR(20) → VARCHAR; no declared type → "". */
    private static String typeName(String declared) {
        int paren = declared.indexOf('(');
        return (paren >= 0 ? declared.substring(0, paren) : declared).strip();
    }

    private static boolean isNumeric(int type) {
        return switch (type) {
            case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.DECIMAL, Types.NUMERIC,
                    Types.DOUBLE, Types.FLOAT, Types.REAL -> true;
            default -> false;
        };
    }

    private static boolean isCharacter(int type) {
        return type == Types.CHAR || type == Types.VARCHAR || type == Types.CLOB;
    }

    /** Declared length when there is one, the type's precision for numbers and date/time text; else null. */
    private static Integer columnSize(int type, String declared) {
        int size = switch (type) {
            case Types.DATE -> 10;
            case Types.TIME -> 12;
            case Types.TIMESTAMP -> 23;
            default -> SqlTypes.precision(type, declared);
        };
        if (SqlTypes.declaredLength(declared) > 0) {
            size = SqlTypes.declaredLength(declared);
        }
        return size > 0 ? size : null;
    }

    private static Integer decimalDigits(int type, String declared) {
        return switch (type) {
            case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.BOOLEAN -> 0;
            case Types.DECIMAL, Types.NUMERIC -> SqlTypes.scale(declared);
            default -> null;
        };
    }

    // ================================================================== keys and indexes

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        check();
        List<Object[]> rows = new ArrayList<>();
        for (Table t : tables(exact(schema), exact(table))) {
            if (t.isView()) {
                continue;
            }
            List<Column> columns = columns(t);
            if (columns == null) {
                continue;
            }
            String pkName = Ddl.table(t.sql).pkName;
            int seq = 0;
            for (Column c : primaryKey(columns)) {
                rows.add(new Object[] {null, t.schema, t.name, c.name, ++seq, pkName});
            }
        }
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[3]).thenComparing(r -> (String) r[1]));
        return result(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"},
                new int[] {V, V, V, V, S, V}, rows);
    }

    private static final String[] KEYS_LABELS = {"PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
        "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE",
        "FK_NAME", "PK_NAME", "DEFERRABILITY"};
    private static final int[] KEYS_TYPES = {V, V, V, V, V, V, V, V, S, S, S, V, V, S};

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        check();
        List<Object[]> rows = foreignKeyRows(exact(schema), exact(table), n -> true);
        // grouped per key (KEY_SEQ 1..n together), keys ordered by the table they reference
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[1]).thenComparing(r -> (String) r[2])
                .thenComparing(r -> (String) r[5]).thenComparing(r -> (String) r[6])
                .thenComparingInt(r -> (Integer) r[14]).thenComparingInt(r -> (Integer) r[8]));
        return keys(rows);
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        check();
        List<Object[]> rows = foreignKeyRows(exact(schema), n -> true, exact(table));
        rows.sort(EXPORTED_ORDER);
        return keys(rows);
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
            String foreignCatalog, String foreignSchema, String foreignTable) throws SQLException {
        check();
        Predicate<String> parentSchemaFilter = exact(parentSchema);
        List<Object[]> rows = foreignKeyRows(exact(foreignSchema), exact(foreignTable), exact(parentTable));
        rows.removeIf(r -> !parentSchemaFilter.test((String) r[1]));
        rows.sort(EXPORTED_ORDER);
        return keys(rows);
    }

    private static final Comparator<Object[]> EXPORTED_ORDER = Comparator.comparing((Object[] r) -> (String) r[5])
            .thenComparing(r -> (String) r[6]).thenComparingInt(r -> (Integer) r[14])
            .thenComparingInt(r -> (Integer) r[8]);

    private ResultSet keys(List<Object[]> rows) {
        List<Object[]> trimmed = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            trimmed.add(Arrays.copyOf(r, KEYS_LABELS.length)); // drop the sort-only key id
        }
        return result(KEYS_LABELS, KEYS_TYPES, trimmed);
    }

    /**
     * One row per column of each foreign key of the tables passing {@code fkTables} whose referenced table
     * passes {@code pkTables}; each row carries the key's id in an extra 15th slot for sorting.
     * SQLite foreign keys always reference a table of their own schema.
     */
    private List<Object[]> foreignKeyRows(Predicate<String> schemas, Predicate<String> fkTables,
            Predicate<String> pkTables) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        List<Table> all = tables(schemas, n -> true); // read once: parents are looked up here
        Map<Table, List<Column>> columnCache = new HashMap<>();
        for (Table t : all) {
            if (t.isView() || t.sql == null || !fkTables.test(t.name)) {
                continue;
            }
            List<RawKey> raw = new ArrayList<>();
            try {
                query("SELECT * FROM pragma_foreign_key_list(?, ?) ORDER BY id, seq", rs -> {
                    int id = rs.getInt(1);
                    RawKey k = raw.isEmpty() || raw.get(raw.size() - 1).id != id ? null : raw.get(raw.size() - 1);
                    if (k == null) {
                        k = new RawKey(id, rs.getString(3), rs.getString(6), rs.getString(7));
                        raw.add(k);
                    }
                    k.from.add(rs.getString(4));
                    k.to.add(rs.getString(5));
                }, t.name, t.schema);
            } catch (SQLException e) {
                if (isPlainError(e)) {
                    continue;
                }
                throw e;
            }
            if (raw.isEmpty()) {
                continue;
            }
            Ddl ddl = Ddl.table(t.sql);
            List<Ddl.ForeignKey> declared = new ArrayList<>(ddl.foreignKeys);
            for (RawKey k : raw) {
                Table parent = null;
                for (Table p : all) {
                    if (p.schema.equals(t.schema) && !p.isView() && asciiEqualsIgnoreCase(p.name, k.parent)) {
                        parent = p;
                        break;
                    }
                }
                String parentName = parent != null ? parent.name : k.parent;
                if (!pkTables.test(parentName)) {
                    continue;
                }
                List<String> to = k.to;
                String pkName = null;
                List<Column> parentColumns = null;
                if (parent != null) {
                    if (!columnCache.containsKey(parent)) {
                        columnCache.put(parent, columns(parent));
                    }
                    parentColumns = columnCache.get(parent);
                }
                if (parentColumns != null) {
                    List<Column> parentPk = primaryKey(parentColumns);
                    if (to.stream().allMatch(c -> c == null)) {
                        to = new ArrayList<>();
                        for (int i = 0; i < k.from.size(); i++) {
                            to.add(i < parentPk.size() ? parentPk.get(i).name : null);
                        }
                    }
                    to = storedNames(to, parentColumns);
                    if (sameNames(to, parentPk.stream().map(Column::name).toList())) {
                        pkName = Ddl.table(parent.sql).pkName;
                    }
                }
                Ddl.ForeignKey match = null;
                for (Ddl.ForeignKey d : declared) {
                    if (sameNames(d.from(), k.from) && asciiEqualsIgnoreCase(d.parent(), k.parent)) {
                        match = d;
                        break;
                    }
                }
                if (match != null) {
                    declared.remove(match);
                }
                String fkName = match == null ? null : match.name();
                int deferrability = match == null ? importedKeyNotDeferrable : match.deferrability();
                for (int i = 0; i < k.from.size(); i++) {
                    rows.add(new Object[] {null, t.schema, parentName, to.get(i), null, t.schema, t.name,
                        k.from.get(i), i + 1, rule(k.onUpdate), rule(k.onDelete), fkName, pkName, deferrability,
                        k.id});
                }
            }
        }
        return rows;
    }

    private static final class RawKey {
        final int id;
        final String parent;
        final String onUpdate;
        final String onDelete;
        final List<String> from = new ArrayList<>();
        final List<String> to = new ArrayList<>();

        RawKey(int id, String parent, String onUpdate, String onDelete) {
            this.id = id;
            this.parent = parent;
            this.onUpdate = onUpdate;
            this.onDelete = onDelete;
        }
    }

    /** Column names as the table stores them (a foreign key may spell them in another case). */
    private static List<String> storedNames(List<String> names, List<Column> columns) {
        List<String> out = new ArrayList<>(names.size());
        for (String n : names) {
            String stored = n;
            if (n != null) {
                for (Column c : columns) {
                    if (asciiEqualsIgnoreCase(c.name, n)) {
                        stored = c.name;
                        break;
                    }
                }
            }
            out.add(stored);
        }
        return out;
    }

    private static boolean sameNames(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) == null || b.get(i) == null || !asciiEqualsIgnoreCase(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static int rule(String action) {
        if (action == null) {
            return importedKeyNoAction;
        }
        return switch (action.toUpperCase(Locale.ROOT)) {
            case "CASCADE" -> importedKeyCascade;
            case "RESTRICT" -> importedKeyRestrict;
            case "SET NULL" -> importedKeySetNull;
            case "SET DEFAULT" -> importedKeySetDefault;
            default -> importedKeyNoAction;
        };
    }

    private static final String[] INDEX_LABELS = {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE",
        "INDEX_QUALIFIER", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY",
        "PAGES", "FILTER_CONDITION"};

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        check();
        List<Object[]> rows = new ArrayList<>();
        for (Table t : tables(exact(schema), exact(table))) {
            if (t.isView()) {
                continue;
            }
            record Index(String name, boolean unique, boolean partial) {}
            List<Index> indexes = new ArrayList<>();
            try {
                query("SELECT name, \"unique\", partial FROM pragma_index_list(?, ?)",
                        rs -> indexes.add(new Index(rs.getString(1), rs.getInt(2) != 0, rs.getInt(3) != 0)),
                        t.name, t.schema);
            } catch (SQLException e) {
                if (isPlainError(e)) {
                    continue;
                }
                throw e;
            }
            for (Index index : indexes) {
                if (unique && !index.unique) {
                    continue;
                }
                record Part(int cid, String name, boolean desc) {}
                List<Part> parts = new ArrayList<>();
                query("SELECT cid, name, \"desc\" FROM pragma_index_xinfo(?, ?) WHERE key = 1 ORDER BY seqno",
                        rs -> parts.add(new Part(rs.getInt(1), rs.getString(2), rs.getInt(3) != 0)),
                        index.name, t.schema);
                Ddl.Index ddl = null;
                if (index.partial || parts.stream().anyMatch(p -> p.cid == -2)) {
                    String[] sql = new String[1];
                    query("SELECT sql FROM " + quote(t.schema) + ".sqlite_master WHERE type = 'index' AND name = ?",
                            rs -> sql[0] = rs.getString(1), index.name);
                    ddl = Ddl.index(sql[0]);
                }
                for (int i = 0; i < parts.size(); i++) {
                    Part p = parts.get(i);
                    String column = p.name;
                    if (p.cid == -2 && ddl != null && i < ddl.expressions.size()) {
                        column = ddl.expressions.get(i);
                    }
                    rows.add(new Object[] {null, t.schema, t.name, index.unique ? 0 : 1, null, index.name,
                        (int) tableIndexOther, i + 1, column, p.desc ? "D" : "A", null, null,
                        ddl == null ? null : ddl.where});
                }
            }
        }
        rows.sort(Comparator.comparingInt((Object[] r) -> (Integer) r[3]).thenComparing(r -> (String) r[5])
                .thenComparing(r -> (String) r[1]).thenComparingInt(r -> (Integer) r[7]));
        return result(INDEX_LABELS, new int[] {V, V, V, B, V, V, S, S, V, V, L, L, V}, rows);
    }

    private static final String[] ROW_ID_LABELS = {"SCOPE", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
        "BUFFER_LENGTH", "DECIMAL_DIGITS", "PSEUDO_COLUMN"};
    private static final int[] ROW_ID_TYPES = {S, V, I, V, I, I, S, S};

    /** The primary key, or for a rowid table without one the rowid itself (stable within a transaction). */
    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        check();
        List<Object[]> rows = new ArrayList<>();
        List<Table> found = tables(exact(schema), exact(table));
        found.removeIf(Table::isView);
        if (found.size() == 1) {
            Table t = found.get(0);
            List<Column> columns = columns(t);
            if (columns != null) {
                List<Column> pk = primaryKey(columns);
                Column alias = rowidAlias(t, columns);
                boolean pkUsable = !pk.isEmpty() && (nullable || t.withoutRowid()
                        || pk.stream().allMatch(c -> c.notNull || c == alias));
                if (pkUsable && scope <= bestRowSession) {
                    for (Column c : pk) {
                        String declared = c.declared == null ? "" : c.declared.strip();
                        int type = SqlTypes.fromDeclared(declared);
                        rows.add(new Object[] {bestRowSession, c.name, type, typeName(declared),
                            columnSize(type, declared), null, decimalDigits(type, declared), bestRowNotPseudo});
                    }
                } else if (!t.withoutRowid() && scope <= bestRowTransaction) {
                    for (String rowid : List.of("rowid", "_rowid_", "oid")) {
                        if (columns.stream().noneMatch(c -> asciiEqualsIgnoreCase(c.name, rowid))) {
                            rows.add(new Object[] {bestRowTransaction, rowid, Types.BIGINT, "INTEGER", 19, null,
                                0, bestRowPseudo});
                            break;
                        }
                    }
                }
            }
        }
        return result(ROW_ID_LABELS, ROW_ID_TYPES, rows);
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return empty(ROW_ID_LABELS, ROW_ID_TYPES);
    }

    // ================================================================== types

    private static final String[] TYPE_INFO_LABELS = {"TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX",
        "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE",
        "FIXED_PREC_SCALE", "AUTO_INCREMENT", "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE",
        "SQL_DATETIME_SUB", "NUM_PREC_RADIX"};
    private static final int MAX_LENGTH = 1_000_000_000; // SQLITE_MAX_LENGTH's default

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        check();
        List<Object[]> rows = new ArrayList<>();
        // ordered by DATA_TYPE, then the closest mapping first; precisions as SqlTypes reports them for columns
        rows.add(typeRow("TINYINT", Types.TINYINT, 3, null, false, false));
        rows.add(typeRow("BIGINT", Types.BIGINT, 19, null, false, false));
        rows.add(typeRow("NULL", Types.NULL, 0, null, false, false));
        rows.add(typeRow("CHAR", Types.CHAR, MAX_LENGTH, "length", true, false));
        rows.add(typeRow("NUMERIC", Types.NUMERIC, 15, "precision,scale", false, false));
        rows.add(typeRow("DECIMAL", Types.DECIMAL, 15, "precision,scale", false, false));
        rows.add(typeRow("INTEGER", Types.INTEGER, 10, null, false, true));
        rows.add(typeRow("SMALLINT", Types.SMALLINT, 5, null, false, false));
        rows.add(typeRow("FLOAT", Types.FLOAT, 17, null, false, false));
        rows.add(typeRow("REAL", Types.REAL, 9, null, false, false));
        rows.add(typeRow("DOUBLE", Types.DOUBLE, 17, null, false, false));
        rows.add(typeRow("TEXT", Types.VARCHAR, MAX_LENGTH, null, true, false));
        rows.add(typeRow("VARCHAR", Types.VARCHAR, MAX_LENGTH, "length", true, false));
        rows.add(typeRow("BOOLEAN", Types.BOOLEAN, 1, null, false, false));
        rows.add(typeRow("DATE", Types.DATE, 10, null, true, false));
        rows.add(typeRow("TIME", Types.TIME, 12, null, true, false));
        rows.add(typeRow("TIMESTAMP", Types.TIMESTAMP, 23, null, true, false));
        rows.add(typeRow("BLOB", Types.BLOB, MAX_LENGTH, null, false, false));
        rows.add(typeRow("CLOB", Types.CLOB, MAX_LENGTH, null, true, false));
        return result(TYPE_INFO_LABELS, new int[] {V, I, I, V, V, V, S, B, S, B, B, B, V, S, S, I, I, I}, rows);
    }

    private static Object[] typeRow(String name, int type, int precision, String createParams, boolean quoted,
            boolean autoIncrement) {
        boolean numeric = isNumeric(type);
        boolean text = isCharacter(type);
        String prefix = type == Types.BLOB ? "X'" : quoted ? "'" : null;
        boolean exact = type == Types.DECIMAL || type == Types.NUMERIC;
        return new Object[] {
            name, type, precision, prefix, prefix == null ? null : "'", createParams,
            typeNullable, text ? 1 : 0,
            type == Types.NULL ? typePredNone : typeSearchable,
            numeric ? 0 : null, 0, autoIncrement ? 1 : 0, name,
            numeric ? 0 : null, numeric ? (exact ? 15 : 0) : null, null, null, numeric ? 10 : null};
    }

    // ================================================================== what SQLite does not have

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
            throws SQLException {
        return empty(new String[] {"PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "RESERVED1", "RESERVED2",
            "RESERVED3", "REMARKS", "PROCEDURE_TYPE", "SPECIFIC_NAME"}, new int[] {V, V, V, V, V, V, V, S, V});
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
            String columnNamePattern) throws SQLException {
        return empty(new String[] {"PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "COLUMN_NAME",
            "COLUMN_TYPE", "DATA_TYPE", "TYPE_NAME", "PRECISION", "LENGTH", "SCALE", "RADIX", "NULLABLE", "REMARKS",
            "COLUMN_DEF", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE",
            "SPECIFIC_NAME"}, new int[] {V, V, V, V, S, I, V, I, I, S, S, S, V, V, I, I, I, I, V, V});
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        return empty(new String[] {"FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", "FUNCTION_TYPE",
            "SPECIFIC_NAME"}, new int[] {V, V, V, V, S, V});
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
            String columnNamePattern) throws SQLException {
        return empty(new String[] {"FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "COLUMN_NAME", "COLUMN_TYPE",
            "DATA_TYPE", "TYPE_NAME", "PRECISION", "LENGTH", "SCALE", "RADIX", "NULLABLE", "REMARKS",
            "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "SPECIFIC_NAME"},
                new int[] {V, V, V, V, S, I, V, I, I, S, S, S, V, I, I, V, V});
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return empty(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "GRANTOR", "GRANTEE",
            "PRIVILEGE", "IS_GRANTABLE"}, new int[] {V, V, V, V, V, V, V, V});
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return empty(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "GRANTOR", "GRANTEE", "PRIVILEGE",
            "IS_GRANTABLE"}, new int[] {V, V, V, V, V, V, V});
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types)
            throws SQLException {
        return empty(new String[] {"TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "CLASS_NAME", "DATA_TYPE", "REMARKS",
            "BASE_TYPE"}, new int[] {V, V, V, V, I, V, S});
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        return empty(new String[] {"TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SUPERTYPE_CAT", "SUPERTYPE_SCHEM",
            "SUPERTYPE_NAME"}, new int[] {V, V, V, V, V, V});
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return empty(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "SUPERTABLE_NAME"},
                new int[] {V, V, V, V});
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
            String attributeNamePattern) throws SQLException {
        return empty(new String[] {"TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "ATTR_NAME", "DATA_TYPE", "ATTR_TYPE_NAME",
            "ATTR_SIZE", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "ATTR_DEF", "SQL_DATA_TYPE",
            "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "SCOPE_CATALOG",
            "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE"},
                new int[] {V, V, V, V, I, V, I, I, I, I, V, V, I, I, I, I, V, V, V, V, S});
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
            String columnNamePattern) throws SQLException {
        return empty(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
            "COLUMN_SIZE", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "COLUMN_USAGE", "REMARKS", "CHAR_OCTET_LENGTH",
            "IS_NULLABLE"}, new int[] {V, V, V, V, I, I, I, I, V, V, I, V});
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return empty(new String[] {"NAME", "MAX_LEN", "DEFAULT_VALUE", "DESCRIPTION"}, new int[] {V, I, V, V});
    }

    // ================================================================== Wrapper

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // ================================================================== reading CREATE statements

    /**
     * What the pragmas do not say, read from the CREATE statement SQLite keeps: constraint names,
     * deferrability, a partial index's WHERE and an index's expressions. A tokenizer, not a parser: it
     * knows quotes, comments and parentheses, which is all these need.
     */
    static final class Ddl {
        record ForeignKey(String name, List<String> from, String parent, int deferrability) {}

        record Index(List<String> expressions, String where) {}

        private static final Ddl NONE = new Ddl();

        String pkName;
        final List<ForeignKey> foreignKeys = new ArrayList<>();

        private record Tok(String text, int start, int end, char kind) {
            boolean is(String keyword) {
                return kind == 'w' && text.equalsIgnoreCase(keyword);
            }

            boolean is(char punct) {
                return kind == 'p' && text.charAt(0) == punct;
            }

            String ident() {
                return switch (kind) {
                    case '"' -> text.substring(1, text.length() - 1).replace("\"\"", "\"");
                    case '`' -> text.substring(1, text.length() - 1).replace("``", "`");
                    case '[' -> text.substring(1, text.length() - 1);
                    case '\'' -> text.substring(1, text.length() - 1).replace("''", "'");
                    default -> text;
                };
            }
        }

        static List<Tok> tokenize(String sql) {
            List<Tok> out = new ArrayList<>();
            int n = sql.length();
            int i = 0;
            while (i < n) {
                char c = sql.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                    int nl = sql.indexOf('\n', i);
                    i = nl < 0 ? n : nl + 1;
                } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                    int close = sql.indexOf("*/", i + 2);
                    i = close < 0 ? n : close + 2;
                } else if (c == '"' || c == '`' || c == '\'' || c == '[') {
                    char close = c == '[' ? ']' : c;
                    int j = i + 1;
                    while (j < n) {
                        if (sql.charAt(j) == close) {
                            if (close != ']' && j + 1 < n && sql.charAt(j + 1) == close) {
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        j++;
                    }
                    int end = Math.min(j + 1, n);
                    out.add(new Tok(sql.substring(i, end), i, end, c));
                    i = end;
                } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$' || c >= 0x80) {
                    int j = i + 1;
                    while (j < n) {
                        char d = sql.charAt(j);
                        if (!(Character.isLetterOrDigit(d) || d == '_' || d == '$' || d >= 0x80)) {
                            break;
                        }
                        j++;
                    }
                    out.add(new Tok(sql.substring(i, j), i, j, 'w'));
                    i = j;
                } else {
                    out.add(new Tok(String.valueOf(c), i, i + 1, 'p'));
                    i++;
                }
            }
            return out;
        }

        /** The comma-separated parts inside the first parenthesis, and the index just past its close. */
        private static List<List<Tok>> parts(List<Tok> toks, int[] after) {
            List<List<Tok>> parts = new ArrayList<>();
            int open = 0;
            while (open < toks.size() && !toks.get(open).is('(')) {
                open++;
            }
            if (open == toks.size()) {
                after[0] = toks.size();
                return parts;
            }
            int depth = 0;
            List<Tok> part = new ArrayList<>();
            int i = open + 1;
            for (; i < toks.size(); i++) {
                Tok t = toks.get(i);
                if (t.is('(')) {
                    depth++;
                } else if (t.is(')')) {
                    if (depth == 0) {
                        break;
                    }
                    depth--;
                } else if (t.is(',') && depth == 0) {
                    parts.add(part);
                    part = new ArrayList<>();
                    continue;
                }
                part.add(t);
            }
            parts.add(part);
            after[0] = i + 1;
            return parts;
        }

        static Ddl table(String sql) {
            if (sql == null) {
                return NONE;
            }
            Ddl ddl = new Ddl();
            try {
                for (List<Tok> part : parts(tokenize(sql), new int[1])) {
                    ddl.definition(part);
                }
            } catch (RuntimeException e) {
                return NONE; // a statement this reader does not follow: no names, nothing worse
            }
            return ddl;
        }

        private void definition(List<Tok> part) {
            if (part.isEmpty()) {
                return;
            }
            Tok first = part.get(0);
            boolean tableConstraint = first.kind == 'w' && Set.of("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK",
                    "FOREIGN").contains(first.text.toUpperCase(Locale.ROOT));
            String column = tableConstraint ? null : first.ident();
            int depth = 0;
            for (int i = tableConstraint ? 0 : 1; i < part.size(); i++) {
                Tok t = part.get(i);
                if (t.is('(')) {
                    depth++;
                    continue;
                }
                if (t.is(')')) {
                    depth--;
                    continue;
                }
                if (depth != 0) {
                    continue;
                }
                String name = i >= 2 && part.get(i - 2).is("CONSTRAINT") ? part.get(i - 1).ident() : null;
                if (t.is("PRIMARY")) {
                    if (name != null) {
                        pkName = name;
                    }
                } else if (t.is("FOREIGN") && tableConstraint) {
                    int j = i + 1;
                    while (j < part.size() && !part.get(j).is('(')) {
                        j++;
                    }
                    List<String> from = new ArrayList<>();
                    for (j++; j < part.size() && !part.get(j).is(')'); j++) {
                        if (!part.get(j).is(',')) {
                            from.add(part.get(j).ident());
                        }
                    }
                    while (j < part.size() && !part.get(j).is("REFERENCES")) {
                        j++;
                    }
                    if (j + 1 < part.size()) {
                        foreignKeys.add(new ForeignKey(name, from, part.get(j + 1).ident(), deferrability(part, j + 2)));
                    }
                    return;
                } else if (t.is("REFERENCES") && !tableConstraint && i + 1 < part.size()) {
                    foreignKeys.add(new ForeignKey(name, List.of(column), part.get(i + 1).ident(),
                            deferrability(part, i + 2)));
                }
            }
        }

        private static final Set<String> CONSTRAINT_STARTS = Set.of("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK",
                "COLLATE", "REFERENCES", "GENERATED", "AS");

        /** Reads a foreign key clause's [NOT] DEFERRABLE [INITIALLY DEFERRED|IMMEDIATE] from {@code from} on. */
        private static int deferrability(List<Tok> part, int from) {
            int depth = 0;
            for (int k = from; k < part.size(); k++) {
                Tok t = part.get(k);
                if (t.is('(')) {
                    depth++;
                } else if (t.is(')')) {
                    depth--;
                }
                if (depth != 0 || t.kind != 'w') {
                    continue;
                }
                String word = t.text.toUpperCase(Locale.ROOT);
                boolean afterSet = k > 0 && part.get(k - 1).is("SET");
                boolean beforeDeferrable = k + 1 < part.size() && part.get(k + 1).is("DEFERRABLE");
                if (word.equals("DEFERRABLE")) {
                    if (k > from && part.get(k - 1).is("NOT")) {
                        return importedKeyNotDeferrable;
                    }
                    if (k + 2 < part.size() && part.get(k + 1).is("INITIALLY") && part.get(k + 2).is("DEFERRED")) {
                        return importedKeyInitiallyDeferred;
                    }
                    return importedKeyInitiallyImmediate;
                }
                if (CONSTRAINT_STARTS.contains(word) || (word.equals("NOT") && !beforeDeferrable)
                        || ((word.equals("NULL") || word.equals("DEFAULT")) && !afterSet)) {
                    break;
                }
            }
            return importedKeyNotDeferrable;
        }

        /** An index's key expressions (as written, ASC/DESC/COLLATE removed) and its WHERE clause. */
        static Index index(String sql) {
            if (sql == null) {
                return new Index(List.of(), null);
            }
            try {
                List<Tok> toks = tokenize(sql);
                int[] after = new int[1];
                List<String> expressions = new ArrayList<>();
                for (List<Tok> part : parts(toks, after)) {
                    int end = part.size();
                    while (end > 0 && (part.get(end - 1).is("ASC") || part.get(end - 1).is("DESC"))) {
                        end--;
                    }
                    if (end >= 2 && part.get(end - 2).is("COLLATE")) {
                        end -= 2;
                    }
                    expressions.add(end == 0 ? null : sql.substring(part.get(0).start, part.get(end - 1).end));
                }
                String where = null;
                if (after[0] < toks.size() && toks.get(after[0]).is("WHERE")) {
                    where = sql.substring(toks.get(after[0]).end).strip();
                    while (where.endsWith(";")) {
                        where = where.substring(0, where.length() - 1).strip();
                    }
                }
                return new Index(expressions, where);
            } catch (RuntimeException e) {
                return new Index(List.of(), null);
            }
        }
    }
}
