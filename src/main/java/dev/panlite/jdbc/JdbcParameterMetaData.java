package dev.panlite.jdbc;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;

/** What SQLite knows of parameters: how many there are. Their types are decided by what is bound. */
final class JdbcParameterMetaData implements ParameterMetaData {
    private final int count;

    JdbcParameterMetaData(int count) {
        this.count = count;
    }

    private void check(int param) throws SQLException {
        if (param < 1 || param > count) {
            throw Errors.badIndex("Parameter index " + param + " is out of range 1.." + count);
        }
    }

    @Override
    public int getParameterCount() {
        return count;
    }

    @Override
    public int isNullable(int param) throws SQLException {
        check(param);
        return parameterNullableUnknown;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        check(param);
        return true;
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        check(param);
        return 0;
    }

    @Override
    public int getScale(int param) throws SQLException {
        check(param);
        return 0;
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        check(param);
        return Types.OTHER; // SQLite parameters take any type
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        check(param);
        return "";
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        check(param);
        return Object.class.getName();
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        check(param);
        return parameterModeIn;
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
