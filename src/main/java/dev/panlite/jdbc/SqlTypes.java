package dev.panlite.jdbc;

import java.sql.Types;
import java.util.Locale;

/** Declared SQLite column types to {@code java.sql.Types}, by SQLite's affinity rules refined by name. */
final class SqlTypes {
    private SqlTypes() {}

    static int fromDeclared(String declared) {
        if (declared == null || declared.isBlank()) {
            return Types.OTHER;
        }
        String t = declared.toUpperCase(Locale.ROOT);
        int paren = t.indexOf('(');
        String base = (paren >= 0 ? t.substring(0, paren) : t).strip();
        switch (base) {
            case "BIGINT", "INT8", "UNSIGNED BIG INT" -> { return Types.BIGINT; }
            case "TINYINT" -> { return Types.TINYINT; }
            case "SMALLINT", "INT2" -> { return Types.SMALLINT; }
            case "BOOLEAN", "BOOL" -> { return Types.BOOLEAN; }
            case "DATE" -> { return Types.DATE; }
            case "TIME" -> { return Types.TIME; }
            case "DATETIME", "TIMESTAMP" -> { return Types.TIMESTAMP; }
            case "DECIMAL" -> { return Types.DECIMAL; }
            case "NUMERIC" -> { return Types.NUMERIC; }
            case "DOUBLE", "DOUBLE PRECISION" -> { return Types.DOUBLE; }
            case "FLOAT" -> { return Types.FLOAT; }
            case "REAL" -> { return Types.REAL; }
            case "CLOB" -> { return Types.CLOB; }
            case "CHAR", "CHARACTER", "NCHAR", "NATIVE CHARACTER" -> { return Types.CHAR; }
            case "VARBINARY", "BINARY" -> { return Types.VARBINARY; }
            default -> { }
        }
        // SQLite's affinity rules (https://sqlite.org/datatype3.html §3.1), in its order
        if (t.contains("INT")) {
            return Types.INTEGER;
        }
        if (t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT")) {
            return Types.VARCHAR;
        }
        if (t.contains("BLOB")) {
            return Types.BLOB;
        }
        if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) {
            return Types.DOUBLE;
        }
        return Types.NUMERIC;
    }

    /**
     * The JDBC type of a value, for columns with no declared type (expressions), from the class
     * getObject answers for it (null for NULL): its storage class's type.
     */
    static int fromValueClass(Class<?> value) {
        if (value == Integer.class || value == Long.class) {
            return Types.BIGINT;
        }
        if (value == Double.class) {
            return Types.DOUBLE;
        }
        if (value == String.class) {
            return Types.VARCHAR;
        }
        return value == byte[].class ? Types.BLOB : Types.NULL;
    }

    static String typeName(int jdbcType) {
        return switch (jdbcType) {
            case Types.BIGINT -> "BIGINT";
            case Types.INTEGER -> "INTEGER";
            case Types.SMALLINT -> "SMALLINT";
            case Types.TINYINT -> "TINYINT";
            case Types.BOOLEAN -> "BOOLEAN";
            case Types.DATE -> "DATE";
            case Types.TIME -> "TIME";
            case Types.TIMESTAMP -> "TIMESTAMP";
            case Types.DECIMAL -> "DECIMAL";
            case Types.NUMERIC -> "NUMERIC";
            case Types.DOUBLE -> "DOUBLE";
            case Types.FLOAT -> "FLOAT";
            case Types.REAL -> "REAL";
            case Types.CLOB -> "CLOB";
            case Types.CHAR -> "CHAR";
            case Types.VARCHAR -> "TEXT";
            case Types.BLOB -> "BLOB";
            case Types.VARBINARY -> "VARBINARY";
            case Types.NULL -> "NULL";
            default -> "";
        };
    }

    /**
     * The class getObject answers for the values a column of this type holds, named when no current
     * value tells (before the first row, a NULL). getObject answers a value's own class: an INTEGER
     * as Integer or, beyond its range, Long (so integer types and BOOLEAN, stored as 0 and 1, name
     * their superclass Number), a REAL as Double, TEXT as String, a BLOB as byte[]. NUMERIC and
     * DECIMAL hold integers and reals (Number); a type only SQLite's affinity rules call NUMERIC
     * ({@code JSON}, {@code UUID}), dates (text or numbers, as written) and undeclared columns hold
     * anything (Object). {@code declared} is null for in-memory columns.
     */
    static String className(int jdbcType, String declared) {
        return switch (jdbcType) {
            case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.BOOLEAN -> Number.class.getName();
            case Types.DECIMAL, Types.NUMERIC -> declared == null || namesNumeric(declared)
                    ? Number.class.getName() : Object.class.getName();
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> Double.class.getName();
            case Types.CLOB, Types.CHAR, Types.VARCHAR -> String.class.getName();
            case Types.BLOB, Types.VARBINARY -> byte[].class.getName();
            default -> Object.class.getName(); // DATE, TIME, TIMESTAMP, OTHER, NULL
        };
    }

    /** Whether a declared type is NUMERIC or DECIMAL by name (with or without a size). */
    private static boolean namesNumeric(String declared) {
        String t = declared.toUpperCase(Locale.ROOT);
        int paren = t.indexOf('(');
        String base = (paren >= 0 ? t.substring(0, paren) : t).strip();
        return base.equals("NUMERIC") || base.equals("DECIMAL");
    }

    /** Precision reported for a type: the declared length when there is one, else the type's maximum digits. */
    static int precision(int jdbcType, String declared) {
        int declaredLength = declaredLength(declared);
        if (declaredLength > 0) {
            return declaredLength;
        }
        return switch (jdbcType) {
            case Types.BIGINT -> 19;
            case Types.INTEGER -> 10;
            case Types.SMALLINT -> 5;
            case Types.TINYINT -> 3;
            case Types.BOOLEAN -> 1;
            case Types.DOUBLE, Types.FLOAT -> 17;
            case Types.REAL -> 9;
            default -> 0;
        };
    }

    static int scale(String declared) {
        if (declared == null) {
            return 0;
        }
        int comma = declared.indexOf(',');
        int close = declared.indexOf(')');
        if (comma < 0 || close < comma) {
            return 0;
        }
        try {
            return Integer.parseInt(declared.substring(comma + 1, close).strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static int declaredLength(String declared) {
        if (declared == null) {
            return 0;
        }
        int open = declared.indexOf('(');
        if (open < 0) {
            return 0;
        }
        int end = declared.indexOf(',', open);
        if (end < 0) {
            end = declared.indexOf(')', open);
        }
        if (end < 0) {
            return 0;
        }
        try {
            return Integer.parseInt(declared.substring(open + 1, end).strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
