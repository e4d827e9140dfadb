package dev.panlite.spring.data;

import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.relational.core.dialect.AbstractDialect;
import org.springframework.data.relational.core.dialect.LimitClause;
import org.springframework.data.relational.core.dialect.LockClause;
import org.springframework.data.relational.core.dialect.OrderByNullPrecedence;
import org.springframework.data.relational.core.sql.IdentifierProcessing;
import org.springframework.data.relational.core.sql.LockOptions;

/**
 * A Spring Data JDBC dialect for SQLite (Spring Data ships none: spring-data-relational #1769).
 * Found by {@link SqliteDialectProvider} from the connection's database product name, whichever
 * SQLite driver made the connection.
 * <ul>
 *   <li>Paging: {@code LIMIT n OFFSET m}; an offset alone is {@code LIMIT -1 OFFSET m} (SQLite
 *       has no OFFSET without LIMIT).
 *   <li>Locks: SQLite has no row locks and no {@code SELECT ... FOR UPDATE}; a {@code @Lock} query
 *       is rendered without a lock clause. What protects the rows is the transaction: on Panlite a
 *       read-write transaction takes the file's write lock at its first statement
 *       ({@code transaction_mode=IMMEDIATE}, the default), so the rows it reads cannot change
 *       under it until it ends, and other writers wait. A deferred or read-only transaction gets no
 *       such protection.
 *   <li>Identifiers: quoted with double quotes, names as written (SQLite compares them without
 *       regard to ASCII case, quoted or not).
 *   <li>Generated ids: the JDBC driver's generated keys (the rowid of INTEGER PRIMARY KEY).
 *   <li>{@code NULLS FIRST/LAST} in ORDER BY (SQLite 3.30+).
 * </ul>
 * Upserts: Spring Data JDBC's dialect interface has no upsert hook (3.5 and 4.0); write
 * {@code INSERT ... ON CONFLICT (...) DO UPDATE} in a {@code @Modifying @Query}.
 */
public class SqliteDialect extends AbstractDialect implements JdbcDialect {
    public static final SqliteDialect INSTANCE = new SqliteDialect();

    private static final LimitClause LIMIT = new LimitClause() {
        @Override
        public String getLimit(long limit) {
            return "LIMIT " + limit;
        }

        @Override
        public String getOffset(long offset) {
            return "LIMIT -1 OFFSET " + offset;
        }

        @Override
        public String getLimitOffset(long limit, long offset) {
            return "LIMIT " + limit + " OFFSET " + offset;
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private static final LockClause NO_LOCK_CLAUSE = new LockClause() {
        @Override
        public String getLock(LockOptions lockOptions) {
            return "";
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    /**
     * Double quotes, names as written. Implemented here rather than with IdentifierProcessing.create,
     * whose return type changed between Spring Data 3.5 and 4.0 (a jar compiled against one would
     * not link against the other).
     */
    private static final IdentifierProcessing IDENTIFIERS = new IdentifierProcessing() {
        @Override
        public String quote(String identifier) {
            return '"' + identifier.replace("\"", "\"\"") + '"';
        }

        @Override
        public String standardizeLetterCase(String identifier) {
            return identifier;
        }
    };

    protected SqliteDialect() {}

    @Override
    public LimitClause limit() {
        return LIMIT;
    }

    @Override
    public LockClause lock() {
        return NO_LOCK_CLAUSE;
    }

    @Override
    public IdentifierProcessing getIdentifierProcessing() {
        return IDENTIFIERS;
    }

    @Override
    public OrderByNullPrecedence orderByNullHandling() {
        return OrderByNullPrecedence.SQL_STANDARD;
    }
}
