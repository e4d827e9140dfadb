package dev.panlite;

import dev.panlite.engine.SqlState;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for Panlite, configured as a JavaBean: {@code url} plus one String property
 * per {@link Setting}, named in camelCase ({@code journal_mode} is {@code journalMode}:
 * {@link #setJournalMode}). So Spring's configuration binding, HikariCP's
 * {@code dataSourceClassName} + {@code dataSource.journalMode=WAL}, and plain code can all set it up.
 *
 * <p>Every property is a String holding the same text a URL parameter would (validated in one place,
 * {@link Config}, when a connection is opened); {@code null}, the initial value, means "not set here",
 * so the URL's value or the setting's default applies. A value set here overrides the URL's.
 * {@code user} is accepted and ignored, as SQLite has no users; {@code password} is the key of an
 * encrypted database (an empty one is none).
 *
 * <p>Each {@link #getConnection()} opens a new physical connection; put a pool in front of it.
 * Not thread-safe while being configured; safe to share once configured.
 */
public class PanliteDataSource implements DataSource {
    private String url;
    private final Map<Setting, String> settings = new EnumMap<>(Setting.class);
    private int loginTimeout;
    private PrintWriter logWriter;

    /** An unconfigured data source: set at least {@link #setUrl url}. */
    public PanliteDataSource() {
    }

    /** A data source for a {@code jdbc:sqlite:} URL, which may carry settings. */
    public PanliteDataSource(String url) {
        this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (!Config.acceptsURL(url)) {
            throw new SQLException("PanliteDataSource: set url to a " + Config.PREFIX + " URL, not " + url,
                    SqlState.INVALID_ATTRIBUTE_VALUE);
        }
        return new Driver().connect(url, properties());
    }

    /** {@link #getConnection()}: SQLite has no users; a non-empty {@code password} is the encryption key. */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        if (password == null || password.isEmpty()) {
            return getConnection();
        }
        if (!Config.acceptsURL(url)) {
            return getConnection(); // says what is wrong with the URL
        }
        Properties p = properties();
        p.setProperty(Setting.PASSWORD.key(), password);
        return new Driver().connect(url, p);
    }

    /** The settings set on this data source, keyed as in URLs ({@code journal_mode}). */
    public Properties properties() {
        Properties p = new Properties();
        settings.forEach((s, v) -> p.setProperty(s.key(), v));
        return p;
    }

    /** The value set for {@code setting}, or {@code null} if none. */
    public String get(Setting setting) {
        return settings.get(setting);
    }

    /** Sets a setting by its enum constant (the bean setters all come here); {@code null} unsets it. */
    public void set(Setting setting, String value) {
        if (value == null) {
            settings.remove(setting);
        } else {
            settings.put(setting, value);
        }
    }

    // ------------------------------------------------------------------ DataSource / CommonDataSource

    /** Kept for {@link #getLoginTimeout()}: opening an SQLite file does not wait on a network. */
    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    /** Kept for {@link #getLogWriter()}: the driver logs through {@link System.Logger}. */
    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("Panlite logs through System.Logger");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("Not a wrapper for " + iface.getName(), SqlState.INVALID_ATTRIBUTE_VALUE);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // ------------------------------------------------------------------ bean properties

    public String getUrl() {
        return url;
    }

    /** The {@code jdbc:sqlite:} URL: a file, {@code :memory:} or a {@code file:} URI, with optional settings. */
    public void setUrl(String url) {
        this.url = url;
    }

    /** Ignored (SQLite has no users); accepted because pools and frameworks set it. */
    public void setUser(String user) {
    }


    // One pair per Setting, in Setting's order; DataSourceTest fails the build if one is missing.

    /** @see Setting#OPEN_MODE */
    public String getOpenMode() {
        return get(Setting.OPEN_MODE);
    }

    /** @see Setting#OPEN_MODE */
    public void setOpenMode(String value) {
        set(Setting.OPEN_MODE, value);
    }

    /** @see Setting#SHARED_CACHE */
    public String getSharedCache() {
        return get(Setting.SHARED_CACHE);
    }

    /** @see Setting#SHARED_CACHE */
    public void setSharedCache(String value) {
        set(Setting.SHARED_CACHE, value);
    }

    /** @see Setting#ENABLE_LOAD_EXTENSION */
    public String getEnableLoadExtension() {
        return get(Setting.ENABLE_LOAD_EXTENSION);
    }

    /** @see Setting#ENABLE_LOAD_EXTENSION */
    public void setEnableLoadExtension(String value) {
        set(Setting.ENABLE_LOAD_EXTENSION, value);
    }

    /** @see Setting#LOAD_EXTENSIONS */
    public String getLoadExtensions() {
        return get(Setting.LOAD_EXTENSIONS);
    }

    /** @see Setting#LOAD_EXTENSIONS */
    public void setLoadExtensions(String value) {
        set(Setting.LOAD_EXTENSIONS, value);
    }

    /** @see Setting#VECTOR_SEARCH */
    public String getVectorSearch() {
        return get(Setting.VECTOR_SEARCH);
    }

    /** @see Setting#VECTOR_SEARCH */
    public void setVectorSearch(String value) {
        set(Setting.VECTOR_SEARCH, value);
    }

    /** @see Setting#BUSY_TIMEOUT */
    public String getBusyTimeout() {
        return get(Setting.BUSY_TIMEOUT);
    }

    /** @see Setting#BUSY_TIMEOUT */
    public void setBusyTimeout(String value) {
        set(Setting.BUSY_TIMEOUT, value);
    }

    /** @see Setting#ENCODING */
    public String getEncoding() {
        return get(Setting.ENCODING);
    }

    /** @see Setting#ENCODING */
    public void setEncoding(String value) {
        set(Setting.ENCODING, value);
    }

    /** @see Setting#PAGE_SIZE */
    public String getPageSize() {
        return get(Setting.PAGE_SIZE);
    }

    /** @see Setting#PAGE_SIZE */
    public void setPageSize(String value) {
        set(Setting.PAGE_SIZE, value);
    }

    /** @see Setting#LOCKING_MODE */
    public String getLockingMode() {
        return get(Setting.LOCKING_MODE);
    }

    /** @see Setting#LOCKING_MODE */
    public void setLockingMode(String value) {
        set(Setting.LOCKING_MODE, value);
    }

    /** @see Setting#JOURNAL_MODE */
    public String getJournalMode() {
        return get(Setting.JOURNAL_MODE);
    }

    /** @see Setting#JOURNAL_MODE */
    public void setJournalMode(String value) {
        set(Setting.JOURNAL_MODE, value);
    }

    /** @see Setting#JOURNAL_SIZE_LIMIT */
    public String getJournalSizeLimit() {
        return get(Setting.JOURNAL_SIZE_LIMIT);
    }

    /** @see Setting#JOURNAL_SIZE_LIMIT */
    public void setJournalSizeLimit(String value) {
        set(Setting.JOURNAL_SIZE_LIMIT, value);
    }

    /** @see Setting#SYNCHRONOUS */
    public String getSynchronous() {
        return get(Setting.SYNCHRONOUS);
    }

    /** @see Setting#SYNCHRONOUS */
    public void setSynchronous(String value) {
        set(Setting.SYNCHRONOUS, value);
    }

    /** @see Setting#FULLSYNC */
    public String getFullsync() {
        return get(Setting.FULLSYNC);
    }

    /** @see Setting#FULLSYNC */
    public void setFullsync(String value) {
        set(Setting.FULLSYNC, value);
    }

    /** @see Setting#CACHE_SIZE */
    public String getCacheSize() {
        return get(Setting.CACHE_SIZE);
    }

    /** @see Setting#CACHE_SIZE */
    public void setCacheSize(String value) {
        set(Setting.CACHE_SIZE, value);
    }

    /** @see Setting#CACHE_SPILL */
    public String getCacheSpill() {
        return get(Setting.CACHE_SPILL);
    }

    /** @see Setting#CACHE_SPILL */
    public void setCacheSpill(String value) {
        set(Setting.CACHE_SPILL, value);
    }

    /** @see Setting#MMAP_SIZE */
    public String getMmapSize() {
        return get(Setting.MMAP_SIZE);
    }

    /** @see Setting#MMAP_SIZE */
    public void setMmapSize(String value) {
        set(Setting.MMAP_SIZE, value);
    }

    /** @see Setting#TEMP_STORE */
    public String getTempStore() {
        return get(Setting.TEMP_STORE);
    }

    /** @see Setting#TEMP_STORE */
    public void setTempStore(String value) {
        set(Setting.TEMP_STORE, value);
    }

    /** @see Setting#AUTOMATIC_INDEX */
    public String getAutomaticIndex() {
        return get(Setting.AUTOMATIC_INDEX);
    }

    /** @see Setting#AUTOMATIC_INDEX */
    public void setAutomaticIndex(String value) {
        set(Setting.AUTOMATIC_INDEX, value);
    }

    /** @see Setting#FOREIGN_KEYS */
    public String getForeignKeys() {
        return get(Setting.FOREIGN_KEYS);
    }

    /** @see Setting#FOREIGN_KEYS */
    public void setForeignKeys(String value) {
        set(Setting.FOREIGN_KEYS, value);
    }

    /** @see Setting#DEFER_FOREIGN_KEYS */
    public String getDeferForeignKeys() {
        return get(Setting.DEFER_FOREIGN_KEYS);
    }

    /** @see Setting#DEFER_FOREIGN_KEYS */
    public void setDeferForeignKeys(String value) {
        set(Setting.DEFER_FOREIGN_KEYS, value);
    }

    /** @see Setting#RECURSIVE_TRIGGERS */
    public String getRecursiveTriggers() {
        return get(Setting.RECURSIVE_TRIGGERS);
    }

    /** @see Setting#RECURSIVE_TRIGGERS */
    public void setRecursiveTriggers(String value) {
        set(Setting.RECURSIVE_TRIGGERS, value);
    }

    /** @see Setting#CASE_SENSITIVE_LIKE */
    public String getCaseSensitiveLike() {
        return get(Setting.CASE_SENSITIVE_LIKE);
    }

    /** @see Setting#CASE_SENSITIVE_LIKE */
    public void setCaseSensitiveLike(String value) {
        set(Setting.CASE_SENSITIVE_LIKE, value);
    }

    /** @see Setting#READ_UNCOMMITTED */
    public String getReadUncommitted() {
        return get(Setting.READ_UNCOMMITTED);
    }

    /** @see Setting#READ_UNCOMMITTED */
    public void setReadUncommitted(String value) {
        set(Setting.READ_UNCOMMITTED, value);
    }

    /** @see Setting#REVERSE_UNORDERED_SELECTS */
    public String getReverseUnorderedSelects() {
        return get(Setting.REVERSE_UNORDERED_SELECTS);
    }

    /** @see Setting#REVERSE_UNORDERED_SELECTS */
    public void setReverseUnorderedSelects(String value) {
        set(Setting.REVERSE_UNORDERED_SELECTS, value);
    }

    /** @see Setting#SECURE_DELETE */
    public String getSecureDelete() {
        return get(Setting.SECURE_DELETE);
    }

    /** @see Setting#SECURE_DELETE */
    public void setSecureDelete(String value) {
        set(Setting.SECURE_DELETE, value);
    }

    /** @see Setting#LEGACY_ALTER_TABLE */
    public String getLegacyAlterTable() {
        return get(Setting.LEGACY_ALTER_TABLE);
    }

    /** @see Setting#LEGACY_ALTER_TABLE */
    public void setLegacyAlterTable(String value) {
        set(Setting.LEGACY_ALTER_TABLE, value);
    }

    /** @see Setting#MAX_PAGE_COUNT */
    public String getMaxPageCount() {
        return get(Setting.MAX_PAGE_COUNT);
    }

    /** @see Setting#MAX_PAGE_COUNT */
    public void setMaxPageCount(String value) {
        set(Setting.MAX_PAGE_COUNT, value);
    }

    /** @see Setting#APPLICATION_ID */
    public String getApplicationId() {
        return get(Setting.APPLICATION_ID);
    }

    /** @see Setting#APPLICATION_ID */
    public void setApplicationId(String value) {
        set(Setting.APPLICATION_ID, value);
    }

    /** @see Setting#USER_VERSION */
    public String getUserVersion() {
        return get(Setting.USER_VERSION);
    }

    /** @see Setting#USER_VERSION */
    public void setUserVersion(String value) {
        set(Setting.USER_VERSION, value);
    }

    /** @see Setting#LIMIT_LENGTH */
    public String getLimitLength() {
        return get(Setting.LIMIT_LENGTH);
    }

    /** @see Setting#LIMIT_LENGTH */
    public void setLimitLength(String value) {
        set(Setting.LIMIT_LENGTH, value);
    }

    /** @see Setting#LIMIT_SQL_LENGTH */
    public String getLimitSqlLength() {
        return get(Setting.LIMIT_SQL_LENGTH);
    }

    /** @see Setting#LIMIT_SQL_LENGTH */
    public void setLimitSqlLength(String value) {
        set(Setting.LIMIT_SQL_LENGTH, value);
    }

    /** @see Setting#LIMIT_COLUMN */
    public String getLimitColumn() {
        return get(Setting.LIMIT_COLUMN);
    }

    /** @see Setting#LIMIT_COLUMN */
    public void setLimitColumn(String value) {
        set(Setting.LIMIT_COLUMN, value);
    }

    /** @see Setting#LIMIT_EXPR_DEPTH */
    public String getLimitExprDepth() {
        return get(Setting.LIMIT_EXPR_DEPTH);
    }

    /** @see Setting#LIMIT_EXPR_DEPTH */
    public void setLimitExprDepth(String value) {
        set(Setting.LIMIT_EXPR_DEPTH, value);
    }

    /** @see Setting#LIMIT_COMPOUND_SELECT */
    public String getLimitCompoundSelect() {
        return get(Setting.LIMIT_COMPOUND_SELECT);
    }

    /** @see Setting#LIMIT_COMPOUND_SELECT */
    public void setLimitCompoundSelect(String value) {
        set(Setting.LIMIT_COMPOUND_SELECT, value);
    }

    /** @see Setting#LIMIT_VDBE_OP */
    public String getLimitVdbeOp() {
        return get(Setting.LIMIT_VDBE_OP);
    }

    /** @see Setting#LIMIT_VDBE_OP */
    public void setLimitVdbeOp(String value) {
        set(Setting.LIMIT_VDBE_OP, value);
    }

    /** @see Setting#LIMIT_FUNCTION_ARG */
    public String getLimitFunctionArg() {
        return get(Setting.LIMIT_FUNCTION_ARG);
    }

    /** @see Setting#LIMIT_FUNCTION_ARG */
    public void setLimitFunctionArg(String value) {
        set(Setting.LIMIT_FUNCTION_ARG, value);
    }

    /** @see Setting#LIMIT_ATTACHED */
    public String getLimitAttached() {
        return get(Setting.LIMIT_ATTACHED);
    }

    /** @see Setting#LIMIT_ATTACHED */
    public void setLimitAttached(String value) {
        set(Setting.LIMIT_ATTACHED, value);
    }

    /** @see Setting#LIMIT_LIKE_PATTERN_LENGTH */
    public String getLimitLikePatternLength() {
        return get(Setting.LIMIT_LIKE_PATTERN_LENGTH);
    }

    /** @see Setting#LIMIT_LIKE_PATTERN_LENGTH */
    public void setLimitLikePatternLength(String value) {
        set(Setting.LIMIT_LIKE_PATTERN_LENGTH, value);
    }

    /** @see Setting#LIMIT_VARIABLE_NUMBER */
    public String getLimitVariableNumber() {
        return get(Setting.LIMIT_VARIABLE_NUMBER);
    }

    /** @see Setting#LIMIT_VARIABLE_NUMBER */
    public void setLimitVariableNumber(String value) {
        set(Setting.LIMIT_VARIABLE_NUMBER, value);
    }

    /** @see Setting#LIMIT_TRIGGER_DEPTH */
    public String getLimitTriggerDepth() {
        return get(Setting.LIMIT_TRIGGER_DEPTH);
    }

    /** @see Setting#LIMIT_TRIGGER_DEPTH */
    public void setLimitTriggerDepth(String value) {
        set(Setting.LIMIT_TRIGGER_DEPTH, value);
    }

    /** @see Setting#LIMIT_WORKER_THREADS */
    public String getLimitWorkerThreads() {
        return get(Setting.LIMIT_WORKER_THREADS);
    }

    /** @see Setting#LIMIT_WORKER_THREADS */
    public void setLimitWorkerThreads(String value) {
        set(Setting.LIMIT_WORKER_THREADS, value);
    }

    /** @see Setting#TRANSACTION_MODE */
    public String getTransactionMode() {
        return get(Setting.TRANSACTION_MODE);
    }

    /** @see Setting#TRANSACTION_MODE */
    public void setTransactionMode(String value) {
        set(Setting.TRANSACTION_MODE, value);
    }

    /** @see Setting#DATE_CLASS */
    public String getDateClass() {
        return get(Setting.DATE_CLASS);
    }

    /** @see Setting#DATE_CLASS */
    public void setDateClass(String value) {
        set(Setting.DATE_CLASS, value);
    }

    /** @see Setting#DATE_PRECISION */
    public String getDatePrecision() {
        return get(Setting.DATE_PRECISION);
    }

    /** @see Setting#DATE_PRECISION */
    public void setDatePrecision(String value) {
        set(Setting.DATE_PRECISION, value);
    }

    /** @see Setting#DATE_STRING_FORMAT */
    public String getDateStringFormat() {
        return get(Setting.DATE_STRING_FORMAT);
    }

    /** @see Setting#DATE_STRING_FORMAT */
    public void setDateStringFormat(String value) {
        set(Setting.DATE_STRING_FORMAT, value);
    }

    /** @see Setting#STMT_CACHE_SIZE */
    public String getStmtCacheSize() {
        return get(Setting.STMT_CACHE_SIZE);
    }

    /** @see Setting#STMT_CACHE_SIZE */
    public void setStmtCacheSize(String value) {
        set(Setting.STMT_CACHE_SIZE, value);
    }

    /** @see Setting#WAL_AUTOCHECKPOINT */
    public String getWalAutocheckpoint() {
        return get(Setting.WAL_AUTOCHECKPOINT);
    }

    /** @see Setting#WAL_AUTOCHECKPOINT */
    public void setWalAutocheckpoint(String value) {
        set(Setting.WAL_AUTOCHECKPOINT, value);
    }

    /** @see Setting#WAL_SIZE_MARK */
    public String getWalSizeMark() {
        return get(Setting.WAL_SIZE_MARK);
    }

    /** @see Setting#WAL_SIZE_MARK */
    public void setWalSizeMark(String value) {
        set(Setting.WAL_SIZE_MARK, value);
    }

    /** @see Setting#SETLK_TIMEOUT */
    public String getSetlkTimeout() {
        return get(Setting.SETLK_TIMEOUT);
    }

    /** @see Setting#SETLK_TIMEOUT */
    public void setSetlkTimeout(String value) {
        set(Setting.SETLK_TIMEOUT, value);
    }

    /** @see Setting#LITESTREAM_SOCKET */
    public String getLitestreamSocket() {
        return get(Setting.LITESTREAM_SOCKET);
    }

    /** @see Setting#LITESTREAM_SOCKET */
    public void setLitestreamSocket(String value) {
        set(Setting.LITESTREAM_SOCKET, value);
    }

    /** @see Setting#LITESTREAM_SYNC_PAGES */
    public String getLitestreamSyncPages() {
        return get(Setting.LITESTREAM_SYNC_PAGES);
    }

    /** @see Setting#LITESTREAM_SYNC_PAGES */
    public void setLitestreamSyncPages(String value) {
        set(Setting.LITESTREAM_SYNC_PAGES, value);
    }

    /** @see Setting#LITESTREAM_WAIT_PAGES */
    public String getLitestreamWaitPages() {
        return get(Setting.LITESTREAM_WAIT_PAGES);
    }

    /** @see Setting#LITESTREAM_WAIT_PAGES */
    public void setLitestreamWaitPages(String value) {
        set(Setting.LITESTREAM_WAIT_PAGES, value);
    }

    /** @see Setting#CACHE_TX_STATEMENTS */
    public String getCacheTxStatements() {
        return get(Setting.CACHE_TX_STATEMENTS);
    }

    /** @see Setting#CACHE_TX_STATEMENTS */
    public void setCacheTxStatements(String value) {
        set(Setting.CACHE_TX_STATEMENTS, value);
    }

    /** @see Setting#INCREMENTAL_VACUUM */
    public String getIncrementalVacuum() {
        return get(Setting.INCREMENTAL_VACUUM);
    }

    /** @see Setting#INCREMENTAL_VACUUM */
    public void setIncrementalVacuum(String value) {
        set(Setting.INCREMENTAL_VACUUM, value);
    }

    /** @see Setting#LIMIT_PAGE_COUNT */
    public String getLimitPageCount() {
        return get(Setting.LIMIT_PAGE_COUNT);
    }

    /** @see Setting#LIMIT_PAGE_COUNT */
    public void setLimitPageCount(String value) {
        set(Setting.LIMIT_PAGE_COUNT, value);
    }

    /** @see Setting#COUNT_CHANGES */
    public String getCountChanges() {
        return get(Setting.COUNT_CHANGES);
    }

    /** @see Setting#COUNT_CHANGES */
    public void setCountChanges(String value) {
        set(Setting.COUNT_CHANGES, value);
    }

    /** @see Setting#DEFAULT_CACHE_SIZE */
    public String getDefaultCacheSize() {
        return get(Setting.DEFAULT_CACHE_SIZE);
    }

    /** @see Setting#DEFAULT_CACHE_SIZE */
    public void setDefaultCacheSize(String value) {
        set(Setting.DEFAULT_CACHE_SIZE, value);
    }

    /** @see Setting#EMPTY_RESULT_CALLBACKS */
    public String getEmptyResultCallbacks() {
        return get(Setting.EMPTY_RESULT_CALLBACKS);
    }

    /** @see Setting#EMPTY_RESULT_CALLBACKS */
    public void setEmptyResultCallbacks(String value) {
        set(Setting.EMPTY_RESULT_CALLBACKS, value);
    }

    /** @see Setting#FULL_COLUMN_NAMES */
    public String getFullColumnNames() {
        return get(Setting.FULL_COLUMN_NAMES);
    }

    /** @see Setting#FULL_COLUMN_NAMES */
    public void setFullColumnNames(String value) {
        set(Setting.FULL_COLUMN_NAMES, value);
    }

    /** @see Setting#SHORT_COLUMN_NAMES */
    public String getShortColumnNames() {
        return get(Setting.SHORT_COLUMN_NAMES);
    }

    /** @see Setting#SHORT_COLUMN_NAMES */
    public void setShortColumnNames(String value) {
        set(Setting.SHORT_COLUMN_NAMES, value);
    }

    /** @see Setting#LEGACY_FILE_FORMAT */
    public String getLegacyFileFormat() {
        return get(Setting.LEGACY_FILE_FORMAT);
    }

    /** @see Setting#LEGACY_FILE_FORMAT */
    public void setLegacyFileFormat(String value) {
        set(Setting.LEGACY_FILE_FORMAT, value);
    }

    /** @see Setting#TEMP_STORE_DIRECTORY */
    public String getTempStoreDirectory() {
        return get(Setting.TEMP_STORE_DIRECTORY);
    }

    /** @see Setting#TEMP_STORE_DIRECTORY */
    public void setTempStoreDirectory(String value) {
        set(Setting.TEMP_STORE_DIRECTORY, value);
    }

    /** The key of an encrypted database (@see Setting#PASSWORD); pools set it too: empty means none. */
    public String getPassword() {
        return get(Setting.PASSWORD);
    }

    /** The key of an encrypted database (@see Setting#PASSWORD); pools set it too: empty means none. */
    public void setPassword(String value) {
        set(Setting.PASSWORD, value);
    }

    /** @see Setting#HEXKEY_MODE */
    public String getHexkeyMode() {
        return get(Setting.HEXKEY_MODE);
    }

    /** @see Setting#HEXKEY_MODE */
    public void setHexkeyMode(String value) {
        set(Setting.HEXKEY_MODE, value);
    }

    /** @see Setting#JDBC_GET_GENERATED_KEYS */
    public String getJdbcGetGeneratedKeys() {
        return get(Setting.JDBC_GET_GENERATED_KEYS);
    }

    /** @see Setting#JDBC_GET_GENERATED_KEYS */
    public void setJdbcGetGeneratedKeys(String value) {
        set(Setting.JDBC_GET_GENERATED_KEYS, value);
    }

    /** @see Setting#JDBC_EXPLICIT_READONLY */
    public String getJdbcExplicitReadonly() {
        return get(Setting.JDBC_EXPLICIT_READONLY);
    }

    /** @see Setting#JDBC_EXPLICIT_READONLY */
    public void setJdbcExplicitReadonly(String value) {
        set(Setting.JDBC_EXPLICIT_READONLY, value);
    }

    /** @see Setting#LEAK_WARNING */
    public String getLeakWarning() {
        return get(Setting.LEAK_WARNING);
    }

    /** @see Setting#LEAK_WARNING */
    public void setLeakWarning(String value) {
        set(Setting.LEAK_WARNING, value);
    }

    /** @see Setting#DEFENSIVE */
    public String getDefensive() {
        return get(Setting.DEFENSIVE);
    }

    /** @see Setting#DEFENSIVE */
    public void setDefensive(String value) {
        set(Setting.DEFENSIVE, value);
    }

    /** @see Setting#TRUSTED_SCHEMA */
    public String getTrustedSchema() {
        return get(Setting.TRUSTED_SCHEMA);
    }

    /** @see Setting#TRUSTED_SCHEMA */
    public void setTrustedSchema(String value) {
        set(Setting.TRUSTED_SCHEMA, value);
    }

    /** @see Setting#DQS_DDL */
    public String getDqsDdl() {
        return get(Setting.DQS_DDL);
    }

    /** @see Setting#DQS_DDL */
    public void setDqsDdl(String value) {
        set(Setting.DQS_DDL, value);
    }

    /** @see Setting#DQS_DML */
    public String getDqsDml() {
        return get(Setting.DQS_DML);
    }

    /** @see Setting#DQS_DML */
    public void setDqsDml(String value) {
        set(Setting.DQS_DML, value);
    }

    /** @see Setting#CELL_SIZE_CHECK */
    public String getCellSizeCheck() {
        return get(Setting.CELL_SIZE_CHECK);
    }

    /** @see Setting#CELL_SIZE_CHECK */
    public void setCellSizeCheck(String value) {
        set(Setting.CELL_SIZE_CHECK, value);
    }

    /** @see Setting#STATEMENT_DIAGNOSTICS */
    public String getStatementDiagnostics() {
        return get(Setting.STATEMENT_DIAGNOSTICS);
    }

    /** @see Setting#STATEMENT_DIAGNOSTICS */
    public void setStatementDiagnostics(String value) {
        set(Setting.STATEMENT_DIAGNOSTICS, value);
    }

    /** @see Setting#FULLSCAN_THRESHOLD */
    public String getFullscanThreshold() {
        return get(Setting.FULLSCAN_THRESHOLD);
    }

    /** @see Setting#FULLSCAN_THRESHOLD */
    public void setFullscanThreshold(String value) {
        set(Setting.FULLSCAN_THRESHOLD, value);
    }

    /** @see Setting#SORT_THRESHOLD */
    public String getSortThreshold() {
        return get(Setting.SORT_THRESHOLD);
    }

    /** @see Setting#SORT_THRESHOLD */
    public void setSortThreshold(String value) {
        set(Setting.SORT_THRESHOLD, value);
    }

    /** @see Setting#AUTOINDEX_THRESHOLD */
    public String getAutoindexThreshold() {
        return get(Setting.AUTOINDEX_THRESHOLD);
    }

    /** @see Setting#AUTOINDEX_THRESHOLD */
    public void setAutoindexThreshold(String value) {
        set(Setting.AUTOINDEX_THRESHOLD, value);
    }
}
