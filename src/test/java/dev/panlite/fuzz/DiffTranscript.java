package dev.panlite.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * What one run of a program saw, line by line: each result, row (every value by every getter the
 * path called), update count, exception (class and SQLState; the message is shown, not compared)
 * and dump. Two runs of one program agree when their lines are equal, a row's values compared for
 * the getters both called. Besides the lines, {@link #absolute} holds what is wrong in one run
 * alone (a Throwable other than SQLException, a class name that getObject does not return).
 */
final class DiffTranscript {
    /** What a line is part of, which tells a known defect's difference from another (see {@link DiffKnown}). */
    enum Context { NONE, CROSSED, WRITTEN_UNDER, RESULT_LOOP, MULTI_UPDATE }

    /**
     * One line.
     *
     * @param op      the program's operation that made it
     * @param text    compared
     * @param detail  shown, not compared (an exception's message, a dump's first rows)
     * @param cells   a row's values: [column][getter] (null where the getter was not called)
     * @param context what the line is part of
     */
    record Line(int op, String text, String detail, String[][] cells, Context context) {
        String shown() {
            StringBuilder b = new StringBuilder(text);
            if (cells != null) {
                for (int c = 0; c < cells.length && c < 40; c++) {
                    b.append("\n      col ").append(c + 1).append(':');
                    for (int g = 0; g < cells[c].length; g++) {
                        if (cells[c][g] != null) {
                            b.append(' ').append(DiffPath.GETTERS[g]).append('=').append(cells[c][g]);
                        }
                    }
                }
                if (cells.length > 40) {
                    b.append("\n      ... ").append(cells.length - 40).append(" more columns");
                }
            }
            if (detail != null && !detail.isEmpty()) {
                b.append("\n      (").append(detail.length() > 2000 ? detail.substring(0, 2000) + "..." : detail).append(')');
            }
            return b.toString();
        }
    }

    /** Something wrong in this run alone. */
    record Absolute(int op, String key, String message) {}

    final List<Line> lines = new ArrayList<>();
    final List<Absolute> absolute = new ArrayList<>();

    void add(int op, String text, Context context) {
        lines.add(new Line(op, text, null, null, context));
    }

    void add(int op, String text, String detail, Context context) {
        lines.add(new Line(op, text, detail, null, context));
    }

    void row(int op, String text, String[][] cells, Context context) {
        lines.add(new Line(op, text, null, cells, context));
    }

    /** Where two transcripts first differ, or null when they agree. */
    record Difference(int index, Line reference, Line path) {
        /** The columns of a row whose values differ, as [column, getter] pairs (empty when the line is not a row of both). */
        List<int[]> differingCells() {
            List<int[]> cells = new ArrayList<>();
            if (reference == null || path == null || reference.cells() == null || path.cells() == null
                    || reference.cells().length != path.cells().length) {
                return cells;
            }
            for (int c = 0; c < reference.cells().length; c++) {
                for (int g = 0; g < reference.cells()[c].length; g++) {
                    String x = reference.cells()[c][g];
                    String y = path.cells()[c][g];
                    if (x != null && y != null && !x.equals(y)) {
                        cells.add(new int[] {c, g});
                    }
                }
            }
            return cells;
        }

        /** Both lines, a row by the columns that differ only. */
        String shown() {
            List<int[]> cells = differingCells();
            if (cells.isEmpty()) {
                return "    reference: " + (reference == null ? "(nothing more)" : reference.shown()) + "\n"
                        + "    path:      " + (path == null ? "(nothing more)" : path.shown()) + "\n";
            }
            StringBuilder b = new StringBuilder("    ").append(reference.text()).append(", ").append(cells.size())
                    .append(" value(s) differ (").append(reference.cells().length).append(" columns):\n");
            int previous = -1;
            for (int[] cg : cells.subList(0, Math.min(cells.size(), 12))) {
                int c = cg[0];
                if (c == previous) {
                    continue;
                }
                previous = c;
                b.append("      col ").append(c + 1).append(" reference:");
                for (int g = 0; g < reference.cells()[c].length; g++) {
                    if (reference.cells()[c][g] != null) {
                        b.append(' ').append(DiffPath.GETTERS[g]).append('=').append(reference.cells()[c][g]);
                    }
                }
                b.append("\n      col ").append(c + 1).append(" path:     ");
                for (int g = 0; g < path.cells()[c].length; g++) {
                    if (path.cells()[c][g] != null) {
                        b.append(' ').append(DiffPath.GETTERS[g]).append('=').append(path.cells()[c][g]);
                    }
                }
                b.append('\n');
            }
            return b.toString();
        }
    }

    /** The first line where {@code path} differs from {@code reference}. */
    static Difference compare(DiffTranscript reference, DiffTranscript path) {
        int n = Math.min(reference.lines.size(), path.lines.size());
        for (int i = 0; i < n; i++) {
            Line a = reference.lines.get(i);
            Line b = path.lines.get(i);
            if (!agree(a, b)) {
                return new Difference(i, a, b);
            }
            if (a.context() == Context.MULTI_UPDATE && MultiUpdateOutcome.refusedWhereReferenceRan(a.text(), b.text())) {
                return null; // refused while the reference ran it: what follows (the final dump) differs by design
            }
        }
        if (reference.lines.size() != path.lines.size()) {
            return new Difference(n, n < reference.lines.size() ? reference.lines.get(n) : null,
                    n < path.lines.size() ? path.lines.get(n) : null);
        }
        return null;
    }

    private static boolean agree(Line a, Line b) {
        if (a.context() == Context.MULTI_UPDATE && b.context() == Context.MULTI_UPDATE) {
            return MultiUpdateOutcome.agree(a.text(), b.text());
        }
        if (!a.text().equals(b.text())) {
            return false;
        }
        if (a.cells() == null || b.cells() == null) {
            return a.cells() == b.cells();
        }
        if (a.cells().length != b.cells().length) {
            return false;
        }
        for (int c = 0; c < a.cells().length; c++) {
            for (int g = 0; g < a.cells()[c].length; g++) {
                String x = a.cells()[c][g];
                String y = b.cells()[c][g];
                if (x != null && y != null && !x.equals(y)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The outcome of an executeUpdate of several statements with a query among them. The reference
     * records the state before and after running each statement on its own, up to the first error
     * ("pre=A all=B threw=E"); a path records whether it threw and its state after ("threw=T pre=A
     * post=C"). Either the text was refused and nothing ran (threw, C = A) or it ran as its
     * statements one by one do (T = E, C = B).
     */
    static final class MultiUpdateOutcome {
        private MultiUpdateOutcome() {}

        static String reference(String pre, String all, boolean threw) {
            return "multiUpdate pre=" + pre + " all=" + all + " threw=" + threw;
        }

        static String path(boolean threw, String pre, String post) {
            return "multiUpdate threw=" + threw + " pre=" + pre + " post=" + post;
        }

        static boolean agree(String a, String b) {
            if (a.equals(b)) {
                return true;
            }
            String ref = a.startsWith("multiUpdate pre=") ? a : b;
            String path = ref == a ? b : a;
            if (!ref.startsWith("multiUpdate pre=") || !path.startsWith("multiUpdate threw=")) {
                return false;
            }
            String pre = field(ref, "pre");
            String all = field(ref, "all");
            boolean threw = Boolean.parseBoolean(field(path, "threw"));
            String post = field(path, "post");
            boolean allThrew = Boolean.parseBoolean(field(ref, "threw"));
            return pre.equals(field(path, "pre")) && (threw && post.equals(pre) || threw == allThrew && post.equals(all));
        }

        /** The path refused the text (nothing ran) where running it one statement at a time changed the database. */
        static boolean refusedWhereReferenceRan(String ref, String path) {
            return path.startsWith("multiUpdate threw=true") && !field(ref, "all").equals(field(ref, "pre"))
                    && field(path, "post").equals(field(path, "pre"));
        }

        private static String field(String line, String name) {
            for (String part : line.split(" ")) {
                if (part.startsWith(name + "=")) {
                    return part.substring(name.length() + 1);
                }
            }
            return "";
        }
    }
}
