package dev.panlite;

import dev.panlite.engine.Vectors;
import java.sql.SQLType;

/**
 * The element types of sqlite-vec's vectors, as target types for
 * {@link java.sql.PreparedStatement#setObject(int, Object, SQLType)}. A {@code float[]} needs none:
 * {@code setObject(i, floats)} binds it as a float32 vector. sqlite-vec tells int8 and bit vectors
 * from float32 ones by a subtype that a bound parameter cannot carry, so their SQL wraps the
 * parameter: {@code vec_int8(?)}, {@code vec_bit(?)}, wherever the vector goes (an INSERT into a
 * {@code vec0} table, a KNN {@code MATCH}, a distance function). Without the wrapper sqlite-vec
 * reads the blob as float32 and says so ("expected to be of type int8, but a float32 vector was
 * provided", or a blob length that is not a multiple of 4).
 *
 * <p>{@code getObject(i, float[].class)} reads a float32 vector back (a blob, or JSON text);
 * {@code getBytes} reads any vector's blob as it is stored.
 */
public enum VectorType implements SQLType {
    /**
     * A float32 vector: a {@code float[]}, bound as a blob of 4 little-endian bytes per element;
     * or a {@code byte[]} already in that form (a length that is a multiple of 4). A {@code float[]}
     * holding NaN is refused: vector search has no distance for it.
     */
    FLOAT32(Vectors.FLOAT32),
    /** An int8 vector: a {@code byte[]}, one signed byte per dimension. The SQL says {@code vec_int8(?)}. */
    INT8(Vectors.INT8),
    /**
     * A bit vector: a {@code byte[]} of 8 dimensions per byte, dimension {@code i} in bit {@code i % 8}
     * (least significant first) of byte {@code i / 8}, as {@code vec_quantize_binary} packs them (NumPy's
     * {@code packbits} needs {@code bitorder='little'} for this order). The SQL says {@code vec_bit(?)}.
     */
    BIT(Vectors.BIT);

    private final int number;

    VectorType(int number) {
        this.number = number;
    }

    @Override
    public String getName() {
        return name();
    }

    @Override
    public String getVendor() {
        return "dev.panlite";
    }

    /** sqlite-vec's own code for the element type (the subtype its vectors carry): 223, 225, 224. */
    @Override
    public Integer getVendorTypeNumber() {
        return number;
    }
}
