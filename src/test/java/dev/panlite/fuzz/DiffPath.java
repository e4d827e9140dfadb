package dev.panlite.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A read path of the differential fuzz: how a run executes and reads what a program asks. The
 * {@link #REFERENCE} reads every row in place (the driver's row batches turned off: each getter is
 * one sqlite3_column_* call on the row the statement is on), through Statement, fetch size 1,
 * every getter on every value: SQLite's own answer. Every other path must give the same transcript.
 *
 * @param prepared      parameterless SQL through PreparedStatement (else Statement; SQL with parameters is always prepared)
 * @param executeQuery  queries by executeQuery (else execute + getResultSet)
 * @param fetchSize     0: the driver's default (the first row read in place, then fills of 8, 32, 64 rows)
 * @param where         where the fetch size is set
 * @param getters       which getters read each value, in which order
 * @param getterSeed    the order of {@link Getters#RANDOM}
 * @param byLabel       getters by column label where the label is unique
 * @param noCache       the connection opened with stmt_cache_size=0
 * @param inPlace       row batches off (only the reference)
 */
record DiffPath(boolean prepared, boolean executeQuery, int fetchSize, Where where, Getters getters, long getterSeed,
        boolean byLabel, boolean noCache, boolean inPlace) {

    enum Where { STATEMENT, RESULT_SET, AFTER_FIRST_ROW }

    enum Getters { ALL, OBJECT, STRING, RANDOM }

    static final DiffPath REFERENCE = new DiffPath(false, true, 1, Where.STATEMENT, Getters.ALL, 0, false, false, true);

    /** The getters, in the order the reference calls them. */
    static final String[] GETTERS = {"obj", "str", "long", "int", "dbl", "bytes", "dec", "bool"};

    boolean reference() {
        return this == REFERENCE || inPlace;
    }

    /** True when the path reads with fetch size 1 from its first row: the same batches as in place. */
    boolean fetchOneFromStart() {
        return fetchSize == 1 && where != Where.AFTER_FIRST_ROW;
    }

    /** Paths for one program: the driver's default fetch size always, two more at random. */
    static List<DiffPath> choose(Random r, int count) {
        List<DiffPath> paths = new ArrayList<>();
        paths.add(new DiffPath(r.nextBoolean(), r.nextBoolean(), 0, Where.STATEMENT, Getters.values()[r.nextInt(4)], r.nextLong(),
                false, false, false));
        int[] sizes = {1, 0, 2, 7, 63, 64, 100, 5000, Integer.MAX_VALUE};
        for (int i = 1; i < count; i++) {
            paths.add(new DiffPath(r.nextBoolean(), r.nextBoolean(), sizes[r.nextInt(sizes.length)], Where.values()[r.nextInt(3)],
                    Getters.values()[r.nextInt(4)], r.nextLong(), r.nextInt(5) == 0, r.nextInt(5) == 0, false));
        }
        return paths;
    }

    String shown() {
        if (this == REFERENCE) {
            return "reference (Statement, rows read in place, fetch size 1, every getter)";
        }
        return (prepared ? "PreparedStatement" : "Statement") + (executeQuery ? ".executeQuery" : ".execute+getResultSet")
                + ", fetch size " + (fetchSize == 0 ? "default" : fetchSize) + (fetchSize == 0 ? "" : " set on the "
                + switch (where) {
                    case STATEMENT -> "statement";
                    case RESULT_SET -> "result set";
                    case AFTER_FIRST_ROW -> "result set after its first row";
                })
                + ", getters " + getters + (getters == Getters.RANDOM ? " (order seed " + getterSeed + ")" : "")
                + (byLabel ? ", by label" : "") + (noCache ? ", stmt_cache_size=0" : "");
    }
}
