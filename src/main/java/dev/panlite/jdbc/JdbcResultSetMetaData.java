package dev.panlite.jdbc;

import dev.panlite.engine.Held;
import dev.panlite.engine.Database;
import dev.panlite.engine.Stmt;
import dev.panlite.ffi.Scratch;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Column descriptions, captured when asked for so they stay valid after the statement moves on:
 * names and labels, declared types and their {@code java.sql.Types}, the table each column comes
 * from; nullability and autoincrement (sqlite3_table_column_metadata, a lookup per column) the
 * first time one of them is asked for, since most callers (row mappers) never ask.
 *
 * <p>getColumnClassName names what getObject answers (JDBC: it returns that class or a subclass).
 * getObject answers a value's own class (SQLite types values, not columns), so on a current row
 * the class is the current value's, as the incumbent's; before the first row, or for a NULL, the
 * class of the values the declared type holds ({@link SqlTypes#className}).
 */
final class JdbcResultSetMetaData implements ResultSetMetaData {
    private final String[] labels;
    private final String[] names;
    private final String[] declaredTypes;
    private final int[] jdbcTypes;
    private final String[] classNames;
    private final String[] tables;
    private final String[] schemas;
    private final int[] nullable;
    private final boolean[] autoIncrement;
    private final Database db; // for the details; null for in-memory columns
    private final String[] origins; // the column's name in its table, when it comes from one
    private volatile boolean detailsLoaded; // written under the connection's lock

    private JdbcResultSetMetaData(int n, Database db) {
        this.db = db;
        origins = new String[n];
        labels = new String[n];
        names = new String[n];
        declaredTypes = new String[n];
        jdbcTypes = new int[n];
        classNames = new String[n];
        tables = new String[n];
        schemas = new String[n];
        nullable = new int[n];
        autoIncrement = new boolean[n];
    }

    /**
     * Describes {@code stmt}'s columns; with {@code rowClasses} (the classes of the current row's values
     * as getObject answers them, null for a NULL; the array null when there is no current row),
     * expressions take the type of the current value and every column the class of its value.
     */
    static JdbcResultSetMetaData of(Database db, Stmt stmt, Class<?>[] rowClasses) {
        int n = stmt.columnCount();
        JdbcResultSetMetaData m = new JdbcResultSetMetaData(n, db);
        for (int i = 0; i < n; i++) {
            m.labels[i] = stmt.columnName(i);
            String origin = stmt.columnOriginName(i);
            m.origins[i] = origin;
            m.names[i] = origin != null ? origin : m.labels[i];
            m.declaredTypes[i] = stmt.columnDecltype(i);
            Class<?> value = rowClasses != null && i < rowClasses.length ? rowClasses[i] : null;
            int type = SqlTypes.fromDeclared(m.declaredTypes[i]);
            if (type == Types.OTHER && rowClasses != null) {
                type = SqlTypes.fromValueClass(value);
            }
            m.jdbcTypes[i] = type;
            m.classNames[i] = value != null ? value.getName() : SqlTypes.className(type, m.declaredTypes[i]);
            m.tables[i] = stmt.columnTableName(i);
            m.schemas[i] = stmt.columnDatabaseName(i);
            m.nullable[i] = columnNullableUnknown;
        }
        return m;
    }

    /**
     * Looks up nullability and autoincrement, once; unknown when the connection has closed
     * meanwhile. The connection's lock serializes loaders, and no other lock is held while taking
     * it (a monitor here deadlocked against a callback, which holds that lock, asking too).
     */
    private void loadDetails() {
        if (detailsLoaded || db == null) {
            return;
        }
        try (var held = db.hold()) {
            if (detailsLoaded) {
                return;
            }
            for (int i = 0; i < labels.length; i++) {
                if (tables[i] == null || origins[i] == null) {
                    continue;
                }
                Scratch.ColumnInfo info = db.columnInfo(schemas[i], tables[i], origins[i]);
                if (info != null) {
                    nullable[i] = info.notNull() || info.primaryKey() && isRowidAlias(info) ? columnNoNulls : columnNullable;
                    autoIncrement[i] = info.autoincrement() || info.primaryKey() && isRowidAlias(info);
                }
            }
            detailsLoaded = true; // after the arrays: a reader that sees it sees them
        }
    }

    /** An INTEGER PRIMARY KEY is the rowid: never NULL, assigned automatically. */
    private static boolean isRowidAlias(Scratch.ColumnInfo info) {
        return info.declaredType() != null && info.declaredType().equalsIgnoreCase("INTEGER");
    }

    /** Describes in-memory columns (generated keys, metadata results); {@code rowClasses} as in the other. */
    static JdbcResultSetMetaData of(String[] labels, int[] jdbcTypes, Class<?>[] rowClasses) {
        JdbcResultSetMetaData m = new JdbcResultSetMetaData(labels.length, null);
        for (int i = 0; i < labels.length; i++) {
            m.labels[i] = labels[i];
            m.names[i] = labels[i];
            m.jdbcTypes[i] = jdbcTypes[i];
            m.declaredTypes[i] = SqlTypes.typeName(jdbcTypes[i]);
            Class<?> value = rowClasses != null ? rowClasses[i] : null;
            m.classNames[i] = value != null ? value.getName() : SqlTypes.className(jdbcTypes[i], null);
            m.nullable[i] = columnNullableUnknown;
        }
        return m;
    }

    private int at(int column) throws SQLException {
        if (column < 1 || column > labels.length) {
            throw Errors.badIndex("Column index " + column + " is out of range 1.." + labels.length);
        }
        return column - 1;
    }

    @Override
    public int getColumnCount() {
        return labels.length;
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        int c = at(column);
        loadDetails();
        return autoIncrement[c];
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        int type = jdbcTypes[at(column)];
        return type == Types.VARCHAR || type == Types.CHAR || type == Types.CLOB;
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        at(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        at(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        int c = at(column);
        loadDetails();
        return nullable[c];
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return switch (jdbcTypes[at(column)]) {
            case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.DOUBLE, Types.FLOAT, Types.REAL,
                    Types.DECIMAL, Types.NUMERIC -> true;
            default -> false;
        };
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        int c = at(column);
        int precision = SqlTypes.precision(jdbcTypes[c], declaredTypes[c]);
        return precision > 0 ? precision : Integer.MAX_VALUE;
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return labels[at(column)];
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return names[at(column)];
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        String schema = schemas[at(column)];
        return schema == null ? "" : schema;
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        int c = at(column);
        return SqlTypes.precision(jdbcTypes[c], declaredTypes[c]);
    }

    @Override
    public int getScale(int column) throws SQLException {
        return SqlTypes.scale(declaredTypes[at(column)]);
    }

    @Override
    public String getTableName(int column) throws SQLException {
        String table = tables[at(column)];
        return table == null ? "" : table;
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        at(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return jdbcTypes[at(column)];
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        int c = at(column);
        return declaredTypes[c] != null ? declaredTypes[c] : SqlTypes.typeName(jdbcTypes[c]);
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        return tables[at(column)] == null; // an expression cannot be written back
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        return !isReadOnly(column);
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        at(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return classNames[at(column)];
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
