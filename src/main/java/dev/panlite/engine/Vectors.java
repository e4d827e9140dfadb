package dev.panlite.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.sql.SQLDataException;
import java.sql.SQLException;

/**
 * sqlite-vec's vector formats, in Java. A float32 vector is a blob of IEEE 754 floats, 4 bytes per
 * dimension, little-endian (sqlite-vec reads the blob as the machine's floats; every platform
 * Panlite ships for is little-endian), or JSON text such as {@code [0.5, -1, 2e-3]}. An int8 vector
 * is a blob of one signed byte per dimension; a bit vector a blob of 8 dimensions per byte,
 * dimension {@code i} in bit {@code i % 8} (least significant first) of byte {@code i / 8}.
 * sqlite-vec tells int8 and bit vectors from float32 ones by a subtype that only a function's
 * result carries ({@code vec_int8(?)}, {@code vec_bit(?)}): a bound parameter has none, so the
 * SQL wraps the parameter, and a blob read back says nothing of its element type.
 */
public final class Vectors {
    private Vectors() {}

    /**
     * The vendor type numbers of {@code dev.panlite.VectorType}: sqlite-vec's own codes for its
     * element types (the subtypes of its vectors), which no {@code java.sql.Types} value uses.
     */
    public static final int FLOAT32 = 223;
    public static final int BIT = 224;
    public static final int INT8 = 225;

    /** The largest float32 vector a blob can hold (SQLite's lengths are C ints). */
    private static final int MAX_DIMENSIONS = Integer.MAX_VALUE / Float.BYTES;

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Refuses a float32 vector that sqlite-vec cannot rank: one holding NaN, or one too long for a
     * blob. NaN has no distance: sqlite-vec stores it, and a KNN query then answers NULL distances
     * ranked among (and ahead of) the real neighbours, or, for a NaN in the query, k rows in no
     * order. Infinities are kept: L2 and L1 rank them last, as numbers. {@code where} names the
     * parameter for the message.
     */
    static void checkRankable(float[] v, String where) throws SQLException {
        if (v.length > MAX_DIMENSIONS) {
            throw new SQLDataException(where + " is a float32 vector of " + v.length
                    + " dimensions, more than a blob holds (" + MAX_DIMENSIONS + ")", SqlState.STRING_DATA_RIGHT_TRUNCATION);
        }
        for (int i = 0; i < v.length; i++) {
            if (v[i] != v[i]) {
                throw new SQLDataException(where + " is a float32 vector holding NaN at element " + i + " (of "
                        + v.length + "): vector search has no distance for NaN (sqlite-vec would rank it among"
                        + " the nearest), so Panlite refuses it", SqlState.ERROR_IN_ASSIGNMENT);
            }
        }
    }

    /** Writes {@code v} at {@code at} of {@code dst} as sqlite-vec's float32 blob (4 bytes each, little-endian). */
    static void putLittleEndian(float[] v, byte[] dst, int at) {
        for (int i = 0; i < v.length; i++) {
            INT_LE.set(dst, at + i * Float.BYTES, Float.floatToRawIntBits(v[i]));
        }
    }

    /** The float32 vector a blob holds; throws IllegalArgumentException (its message says why) for a length not a multiple of 4. */
    public static float[] fromBlob(byte[] blob) {
        if (blob.length % Float.BYTES != 0) {
            throw new IllegalArgumentException("a float32 vector blob has 4 bytes per dimension, and this one has "
                    + blob.length + " bytes (an int8 or bit vector? read those as byte[])");
        }
        float[] v = new float[blob.length / Float.BYTES];
        for (int i = 0; i < v.length; i++) {
            v[i] = Float.intBitsToFloat((int) INT_LE.get(blob, i * Float.BYTES));
        }
        return v;
    }

    /**
     * The float32 vector of a JSON array of numbers, each rounded to float as sqlite-vec rounds it
     * (to double, then to float). Also reads what vec_to_json writes for values JSON lacks:
     * {@code null} for NaN, {@code Inf} and {@code -Inf}. Throws IllegalArgumentException (its
     * message says what is wrong, and where) for anything else.
     */
    public static float[] fromJson(String text) {
        int n = text.length();
        int at = skipSpace(text, 0);
        if (at == n || text.charAt(at) != '[') {
            throw notJson(text, at, "'['");
        }
        float[] v = new float[8];
        int size = 0;
        at = skipSpace(text, at + 1);
        if (at < n && text.charAt(at) == ']') {
            return endOfJson(text, at, new float[0]);
        }
        while (true) {
            int start = at;
            while (at < n && ",] \t\n\r".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            if (size == v.length) {
                v = java.util.Arrays.copyOf(v, size * 2);
            }
            v[size++] = element(text, start, at);
            at = skipSpace(text, at);
            if (at == n) {
                throw notJson(text, at, "',' or ']'");
            }
            char c = text.charAt(at);
            if (c == ']') {
                return endOfJson(text, at, java.util.Arrays.copyOf(v, size));
            }
            if (c != ',') {
                throw notJson(text, at, "',' or ']'");
            }
            at = skipSpace(text, at + 1);
        }
    }

    private static float[] endOfJson(String text, int close, float[] v) {
        int end = skipSpace(text, close + 1);
        if (end != text.length()) {
            throw notJson(text, end, "the end after ']'");
        }
        return v;
    }

    private static float element(String text, int start, int end) {
        String token = text.substring(start, end);
        switch (token) {
            case "null" -> { return Float.NaN; }
            case "Inf" -> { return Float.POSITIVE_INFINITY; }
            case "-Inf" -> { return Float.NEGATIVE_INFINITY; }
            default -> { }
        }
        for (int i = 0; i < token.length(); i++) {
            if ("0123456789+-.eE".indexOf(token.charAt(i)) < 0) {
                throw notJson(text, start, "a number");
            }
        }
        try {
            return (float) Double.parseDouble(token);
        } catch (NumberFormatException e) {
            throw notJson(text, start, "a number");
        }
    }

    private static int skipSpace(String text, int at) {
        while (at < text.length() && " \t\n\r".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        return at;
    }

    private static IllegalArgumentException notJson(String text, int at, String expected) {
        String shown = text.length() <= 60 ? text : text.substring(0, 60) + "...";
        return new IllegalArgumentException("not a JSON vector: expected " + expected + " at offset " + at
                + " of '" + shown + "'");
    }

    /**
     * Parameter {@code parameterIndex}'s vector {@code v} as the JSON text sqlite-vec reads, each float
     * in the shortest form that reads back as itself. JSON has no NaN and no infinity (the bundled
     * sqlite-vec reads numbers only): those are refused, with what to do instead.
     */
    public static String toJson(float[] v, int parameterIndex) throws SQLException {
        checkRankable(v, "Parameter " + parameterIndex);
        StringBuilder s = new StringBuilder(v.length * 12 + 2).append('[');
        for (int i = 0; i < v.length; i++) {
            if (Float.isInfinite(v[i])) {
                throw new SQLDataException("Parameter " + parameterIndex + " is a float32 vector holding " + v[i]
                        + " at element " + i + ", which JSON text cannot hold: bind it as a blob (setObject without"
                        + " a character type)", SqlState.ERROR_IN_ASSIGNMENT);
            }
            if (i > 0) {
                s.append(',');
            }
            s.append(v[i]); // Float.toString: digits and an exponent, in every locale
        }
        return s.append(']').toString();
    }
}
