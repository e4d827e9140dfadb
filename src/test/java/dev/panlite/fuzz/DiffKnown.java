package dev.panlite.fuzz;

import dev.panlite.fuzz.DiffTranscript.Context;
import dev.panlite.fuzz.DiffTranscript.Difference;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Defects the differential fuzz finds that are known and not fixed yet: the exclusion list. A
 * finding of a defect in {@link #KNOWN} is reported (printed, counted in the summary) but does not
 * fail {@code mvn verify}; any other finding does. When a fix lands, remove its entry: from then on
 * the fuzz fails if the defect comes back. {@code -Dpanlite.difffuzz.known=none} runs with an
 * empty list (every finding fails), {@code -Dpanlite.difffuzz.known=4,16} with another one.
 */
final class DiffKnown {
    private DiffKnown() {}

    /** Every defect the fuzz can tell apart, by its number (issue 27's items; docs/fuzz-findings-2026-11-27.md). */
    static final Map<String, String> DEFECTS = new LinkedHashMap<>();

    static {
        DEFECTS.put("1", "issue 27 item 1: more than 4,096 result columns (IndexOutOfBoundsException from executeQuery; "
                + "from about 6,000 columns the JVM aborts)");
        DEFECTS.put("2", "issue 27 item 2: a transaction opened with SQL survives the pooled handle's close; the next "
                + "borrower's auto-commit writes are never committed");
        DEFECTS.put("3", "issue 27 item 3: a pooled handle's reset that throws is reported as a clean close");
        DEFECTS.put("4", "issue 27 item 4: rows read ahead outlive the end of the transaction that read them (rollback, "
                + "ROLLBACK TO, commit with CLOSE_CURSORS_AT_COMMIT): a path with read-ahead returns rows reading in place does not");
        DEFECTS.put("12", "issue 27 item 12: executeUpdate of a text with a query among its statements runs part of it");
        DEFECTS.put("13", "issue 27 item 13: SQL-level state (PRAGMAs, ATTACH, TEMP tables) reaches the pool's next borrower");
        DEFECTS.put("14", "issue 27 item 14: the result loop over a multi-statement text is not one result per statement");
        DEFECTS.put("D1", "found by this fuzz (docs/fuzz-findings-2026-11-27.md, D1): a text or blob read in place changes "
                + "under a later getter (SQLite converts the value it holds): getString on a BLOB makes getObject return a "
                + "String, and in a UTF-16 database makes getBytes return other bytes; read ahead, the getters agree");
        DEFECTS.put("16", "issue 27 item 16: getColumnClassName names a class getObject does not return");
    }

    /**
     * The exclusion list in force by default: defects found and not fixed yet. Remove an entry when
     * its fix lands. Items 1, 2, 3, 4, 12, 13, 14 and 16 are fixed (14's error of a statement among
     * those run together is thrown before their counts, as the README says; the reference does the
     * same), and so is D1 (getters of a row read in place leave its values as stepped): none is open.
     */
    static final Set<String> KNOWN = Set.of();

    /** The list in force: {@link #KNOWN}, or {@code -Dpanlite.difffuzz.known}. */
    static Set<String> active() {
        String p = System.getProperty("panlite.difffuzz.known");
        if (p == null || p.isBlank()) {
            return KNOWN;
        }
        Set<String> s = new LinkedHashSet<>();
        if (!p.strip().equals("none")) {
            for (String k : p.split(",")) {
                s.add(k.strip());
            }
        }
        return s;
    }

    /**
     * Which defect a difference between the reference and {@code path} is, when its context
     * says so; null when it is none of the known ones.
     */
    static String classify(Difference d, DiffPath path) {
        List<int[]> cells = d.differingCells();
        if (!cells.isEmpty() && cells.stream().allMatch(cg -> convertedInPlace(d, cg[0], cg[1]))) {
            return "D1";
        }
        Context c = context(d);
        return switch (c) {
            // read ahead across the end of a transaction: fetch size 1 from the first row reads as in place does
            case CROSSED -> path.fetchOneFromStart() ? null : "4";
            case RESULT_LOOP -> "14";
            case MULTI_UPDATE -> "12";
            default -> null;
        };
    }

    /** A difference of getObject or getBytes, between a byte[] and a String or two byte[]s, of a text or blob. */
    private static boolean convertedInPlace(Difference d, int column, int getter) {
        String g = DiffPath.GETTERS[getter];
        String a = d.reference().cells()[column][getter];
        String b = d.path().cells()[column][getter];
        return (g.equals("obj") || g.equals("bytes")) && textOrBlob(a) && textOrBlob(b);
    }

    private static boolean textOrBlob(String canon) {
        return canon.startsWith("bytes") || canon.startsWith("String");
    }

    private static Context context(Difference d) {
        Context a = d.reference() == null ? Context.NONE : d.reference().context();
        Context b = d.path() == null ? Context.NONE : d.path().context();
        return a != Context.NONE ? a : b;
    }

    /** Which defect an absolute finding is (null: none known). */
    static String classifyAbsolute(DiffTranscript.Absolute a) {
        return a.key().equals("class-name") ? "16" : null;
    }

    static String describe(String key) {
        return key == null ? "not a known defect" : DEFECTS.getOrDefault(key, "defect " + key);
    }
}
