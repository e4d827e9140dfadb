package dev.panlite.jdbc;

import java.sql.*;

/** Placeholder, being replaced. */
final class JdbcDatabaseMetaData implements DatabaseMetaData {
    private final JdbcConnection connection;

    JdbcDatabaseMetaData(JdbcConnection connection) {
        this.connection = connection;
    }

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        return false;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        return false;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        return false;
    }

    @Override
    public java.sql.ResultSet getAttributes(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getBestRowIdentifier(java.lang.String a1, java.lang.String a2, java.lang.String a3, int a4, boolean a5) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getCatalogSeparator() throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getCatalogTerm() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getCatalogs() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getClientInfoProperties() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getColumnPrivileges(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getColumns(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4) throws SQLException {
        return null;
    }

    @Override
    public java.sql.Connection getConnection() throws SQLException {
        return connection;
    }

    @Override
    public java.sql.ResultSet getCrossReference(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4, java.lang.String a5, java.lang.String a6) throws SQLException {
        return null;
    }

    @Override
    public int getDatabaseMajorVersion() throws SQLException {
        return 0;
    }

    @Override
    public int getDatabaseMinorVersion() throws SQLException {
        return 0;
    }

    @Override
    public java.lang.String getDatabaseProductName() throws SQLException {
        return "SQLite";
    }

    @Override
    public java.lang.String getDatabaseProductVersion() throws SQLException {
        return null;
    }

    @Override
    public int getDefaultTransactionIsolation() throws SQLException {
        return 0;
    }

    @Override
    public int getDriverMajorVersion() {
        return 0;
    }

    @Override
    public int getDriverMinorVersion() {
        return 0;
    }

    @Override
    public java.lang.String getDriverName() throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getDriverVersion() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getExportedKeys(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getExtraNameCharacters() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getFunctionColumns(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getFunctions(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getIdentifierQuoteString() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getImportedKeys(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getIndexInfo(java.lang.String a1, java.lang.String a2, java.lang.String a3, boolean a4, boolean a5) throws SQLException {
        return null;
    }

    @Override
    public int getJDBCMajorVersion() throws SQLException {
        return 0;
    }

    @Override
    public int getJDBCMinorVersion() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxConnections() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        return 0;
    }

    @Override
    public long getMaxLogicalLobSize() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxStatements() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        return 0;
    }

    @Override
    public java.lang.String getNumericFunctions() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getPrimaryKeys(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getProcedureColumns(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getProcedureTerm() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getProcedures(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getPseudoColumns(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4) throws SQLException {
        return null;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return 0;
    }

    @Override
    public java.sql.RowIdLifetime getRowIdLifetime() throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getSQLKeywords() throws SQLException {
        return null;
    }

    @Override
    public int getSQLStateType() throws SQLException {
        return 0;
    }

    @Override
    public java.lang.String getSchemaTerm() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getSchemas(java.lang.String a1, java.lang.String a2) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getSchemas() throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getSearchStringEscape() throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getStringFunctions() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getSuperTables(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getSuperTypes(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getSystemFunctions() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getTablePrivileges(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getTableTypes() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getTables(java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String[] a4) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getTimeDateFunctions() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getTypeInfo() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getUDTs(java.lang.String a1, java.lang.String a2, java.lang.String a3, int[] a4) throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getURL() throws SQLException {
        return null;
    }

    @Override
    public java.lang.String getUserName() throws SQLException {
        return null;
    }

    @Override
    public java.sql.ResultSet getVersionColumns(java.lang.String a1, java.lang.String a2, java.lang.String a3) throws SQLException {
        return null;
    }

    @Override
    public boolean insertsAreDetected(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean isCatalogAtStart() throws SQLException {
        return false;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return false;
    }

    @Override
    public boolean isWrapperFor(Class<?> a1) throws SQLException {
        return false;
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        return false;
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        return false;
    }

    @Override
    public boolean nullsAreSortedHigh() throws SQLException {
        return false;
    }

    @Override
    public boolean nullsAreSortedLow() throws SQLException {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean ownUpdatesAreVisible(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsBatchUpdates() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsConvert(int a1, int a2) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsConvert() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsRefCursors() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsResultSetConcurrency(int a1, int a2) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsResultSetHoldability(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsResultSetType(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSharding() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> a1) throws SQLException {
        throw new SQLException("no");
    }

    @Override
    public boolean updatesAreDetected(int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        return false;
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        return false;
    }

}
