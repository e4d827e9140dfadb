package dev.panlite.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every downcall descriptor in {@link Sqlite} and {@link SqliteLibrary} against the C prototype in
 * the {@code sqlite3.h} of the engine under test (the vendored one for the bundled engine, the
 * installed one for the system library): argument count, each argument's carrier, and the return. A descriptor that
 * disagrees with C is undefined behaviour at run time (a truncated sqlite3_int64, a pointer read as
 * an int), so it must fail here instead.
 */
class SqliteBindingsTest {
    static final Path HEADER = dev.panlite.EngineHeader.path();

    static Prototypes header;

    @BeforeAll
    static void parseHeader() throws IOException {
        if (SqliteLibrary.bundled()) {
            assertTrue(Files.isReadable(HEADER), "the bundled engine's header is not where the build vendored it: " + HEADER);
        }
        assumeTrue(Files.isReadable(HEADER), "no " + HEADER + " (install libsqlite3-dev) - binding check skipped");
        header = Prototypes.parse(readHeader());
    }

    @Test
    void headerParsesToManyPrototypes() {
        // a parser that finds nothing would make every other check vacuous
        assertTrue(header.size() > 200, "only " + header.size() + " prototypes parsed from " + HEADER);
        assertNotNull(header.get("sqlite3_bind_int64"));
        assertNotNull(header.get("sqlite3_table_column_metadata"), "multi-line prototype not parsed");
        assertNotNull(header.get("sqlite3_config"), "variadic prototype not parsed");
    }

    @Test
    void descriptorsAreBound() {
        Map<String, FunctionDescriptor> bound = Sqlite.descriptors();
        assertTrue(bound.size() >= 40, "only " + bound.size() + " descriptors registered: " + bound.keySet());
        for (String name : List.of("sqlite3_open_v2", "sqlite3_prepare_v3", "sqlite3_step", "sqlite3_bind_int64",
                "sqlite3_column_int64", "sqlite3_config", "sqlite3_interrupt", "sqlite3_bind_text")) {
            assertTrue(bound.containsKey(name), name + " is not among the registered descriptors");
        }
    }

    @Test
    void everyBoundNameExistsInTheHeader() {
        List<String> missing = new ArrayList<>();
        for (String name : allDescriptors().keySet()) {
            if (header.get(name) == null) {
                missing.add(name);
            }
        }
        assertTrue(missing.isEmpty(), "bound but not declared in " + HEADER + ": " + missing);
    }

    @Test
    void everyDescriptorMatchesItsPrototype() {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, FunctionDescriptor> e : allDescriptors().entrySet()) {
            header.mismatch(e.getKey(), e.getValue()).ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " descriptor(s) disagree with " + HEADER + ":\n  " + String.join("\n  ", problems));
        }
    }

    /**
     * Sqlite's bindings and the calls SqliteLibrary makes while it loads the library; without the
     * optional functions newer than the loaded library (sqlite3_setlk_timeout on 3.40): their handles
     * stay null, and their features refuse with the reason (each tested where it is used).
     */
    private static Map<String, FunctionDescriptor> allDescriptors() {
        Map<String, FunctionDescriptor> all = new java.util.TreeMap<>(Sqlite.descriptors());
        all.putAll(SqliteLibrary.DESCRIPTORS);
        all.keySet().removeIf(name -> header.get(name) == null && SqliteLibrary.lookup().find(name).isEmpty());
        return all;
    }

    @Test
    void theHeaderIsTheLoadedEngines() {
        // a header of another version could miss a function the engine has, or declare one it lacks
        Matcher version = Pattern.compile("#define SQLITE_VERSION\\s+\"([^\"]+)\"").matcher(readHeader());
        assertTrue(version.find(), "no SQLITE_VERSION in " + HEADER);
        assertEquals(SqliteLibrary.version(), version.group(1), "the engine loaded from " + SqliteLibrary.loadedFrom()
                + " is not the version of " + HEADER);
    }

    private static String readHeader() {
        try {
            return Files.readString(HEADER, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ the checker checks itself

    @Test
    void checkerAcceptsCorrectDescriptors() {
        assertEquals(Optional.empty(), header.mismatch("sqlite3_bind_int64",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG)));
        assertEquals(Optional.empty(), header.mismatch("sqlite3_interrupt", FunctionDescriptor.ofVoid(ADDRESS)));
        assertEquals(Optional.empty(), header.mismatch("sqlite3_column_double",
                FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS, JAVA_INT)));
        assertEquals(Optional.empty(), header.mismatch("sqlite3_bind_text",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)));
        assertEquals(Optional.empty(), header.mismatch("sqlite3_config", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT)));
        assertEquals(Optional.empty(), header.mismatch("sqlite3_libversion", FunctionDescriptor.of(ADDRESS)));
        // sqlite3_filename is a typedef of const char*
        assertEquals(Optional.empty(), header.mismatch("sqlite3_filename_database", FunctionDescriptor.of(ADDRESS, ADDRESS)));
    }

    @Test
    void checkerReportsAWrongArgumentCarrier() {
        Optional<String> m = header.mismatch("sqlite3_bind_int64", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        assertTrue(m.isPresent(), "sqlite3_bind_int64 with a JAVA_INT value was accepted");
        assertTrue(m.get().contains("sqlite3_bind_int64"), m.get());
        assertTrue(m.get().contains("sqlite3_int64"), "message should quote the C prototype: " + m.get());
        assertTrue(m.get().contains("i4"), "message should show the descriptor: " + m.get());
    }

    @Test
    void checkerReportsWrongReturnsCountsAndPointers() {
        assertTrue(header.mismatch("sqlite3_column_int64", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).isPresent(),
                "int64 return read as int");
        assertTrue(header.mismatch("sqlite3_interrupt", FunctionDescriptor.of(JAVA_INT, ADDRESS)).isPresent(),
                "void function given a return");
        assertTrue(header.mismatch("sqlite3_step", FunctionDescriptor.ofVoid(ADDRESS)).isPresent(), "int return dropped");
        assertTrue(header.mismatch("sqlite3_bind_int", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).isPresent(),
                "argument missing");
        assertTrue(header.mismatch("sqlite3_step", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).isPresent(),
                "extra argument");
        assertTrue(header.mismatch("sqlite3_step", FunctionDescriptor.of(JAVA_INT, JAVA_LONG)).isPresent(),
                "pointer passed as long");
        assertTrue(header.mismatch("sqlite3_bind_double", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG))
                .isPresent(), "double passed as long");
        assertTrue(header.mismatch("sqlite3_libversion", FunctionDescriptor.of(JAVA_LONG)).isPresent(),
                "pointer return read as long");
        assertTrue(header.mismatch("sqlite3_bind_text",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG)).isPresent(),
                "function pointer passed as long");
        assertTrue(header.mismatch("sqlite3_no_such_function", FunctionDescriptor.ofVoid()).isPresent(),
                "unknown function accepted");
    }

    @Test
    void checkerReportsWrongVariadicParts() {
        assertTrue(header.mismatch("sqlite3_config", FunctionDescriptor.of(JAVA_INT, JAVA_INT)).isPresent(),
                "no variadic argument");
        assertTrue(header.mismatch("sqlite3_config", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG)).isPresent(),
                "variadic argument of the wrong kind");
        assertTrue(header.mismatch("sqlite3_config", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT))
                .isPresent(), "two variadic arguments");
        assertTrue(header.mismatch("sqlite3_config", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).isPresent(),
                "fixed part wrong");
    }

    @Test
    void parserHandlesTheTrickyForms() {
        Prototypes p = Prototypes.parse("""
                typedef struct sqlite3 sqlite3;
                typedef long long int sqlite_int64;
                typedef sqlite_int64 sqlite3_int64;
                typedef const char *sqlite3_filename;
                typedef void (*sqlite3_destructor_type)(void*);
                /* SQLITE_API int sqlite3_commented_out(int); */
                SQLITE_API SQLITE_DEPRECATED int sqlite3_old(
                  sqlite3 *db,               /* comment, with a comma */
                  int (*xCallback)(void*,int,char**,char**),
                  sqlite3_int64 n
                );
                SQLITE_API SQLITE_EXPERIMENTAL const char *sqlite3_exp(sqlite3_filename, unsigned int, double);
                SQLITE_API void sqlite3_v(void);
                SQLITE_API int sqlite3_var(int, ...);
                SQLITE_API SQLITE_EXTERN char *sqlite3_some_variable;
                """);
        assertEquals(4, p.size(), "prototypes: " + p);
        assertNull(p.get("sqlite3_commented_out"));
        assertNull(p.get("sqlite3_some_variable"));
        assertEquals(Optional.empty(), p.mismatch("sqlite3_old", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG)));
        assertEquals(Optional.empty(), p.mismatch("sqlite3_exp", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_DOUBLE)));
        assertEquals(Optional.empty(), p.mismatch("sqlite3_v", FunctionDescriptor.ofVoid()));
        assertTrue(p.mismatch("sqlite3_old", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)).isPresent());
        assertTrue(p.mismatch("sqlite3_exp", FunctionDescriptor.of(ADDRESS, JAVA_INT, JAVA_INT, JAVA_DOUBLE)).isPresent());
        assertTrue(p.mismatch("sqlite3_var", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT)).isPresent(),
                "variadic arguments of a function with no stated expectation must not pass");
    }

    // ------------------------------------------------------------------ the checker

    /** The kinds of C types a descriptor can carry. */
    enum Kind {
        INT, LONG, DOUBLE, ADDRESS, BYTE;

        static Kind of(MemoryLayout layout) {
            if (layout instanceof AddressLayout) {
                return ADDRESS;
            }
            MemoryLayout plain = layout.withoutName();
            if (plain.equals(ValueLayout.JAVA_INT)) {
                return INT;
            }
            if (plain.equals(ValueLayout.JAVA_LONG)) {
                return LONG;
            }
            if (plain.equals(ValueLayout.JAVA_DOUBLE)) {
                return DOUBLE;
            }
            if (plain.equals(ValueLayout.JAVA_BYTE)) {
                return BYTE;
            }
            return null; // anything else matches no C type of this API
        }
    }

    /** One C prototype: its text, return kind (null: void) and parameter kinds. */
    record Prototype(String text, Kind returns, List<Kind> params, boolean variadic, String unmapped) {}

    /** What Panlite passes as the variadic arguments of a variadic function. */
    static final Map<String, List<Kind>> VARIADIC_ARGS = Map.of("sqlite3_config", List.of(Kind.INT),
            "sqlite3_db_config", List.of(Kind.INT, Kind.ADDRESS)); // an on/off op: (int value, int *result)

    static final class Prototypes {
        private final Map<String, Prototype> byName;

        private Prototypes(Map<String, Prototype> byName) {
            this.byName = byName;
        }

        int size() {
            return byName.size();
        }

        Prototype get(String name) {
            return byName.get(name);
        }

        @Override
        public String toString() {
            return byName.keySet().toString();
        }

        private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
        private static final Pattern DECL = Pattern.compile("\\bSQLITE_API\\b([^;]*);");
        private static final Pattern NAME = Pattern.compile("\\b((?:sqlite3?|libsql)_\\w+)\\s*\\(");
        private static final Pattern PTR_TYPEDEF_FN = Pattern.compile("typedef[^;{}]*\\(\\s*\\*\\s*(\\w+)\\s*\\)");
        private static final Pattern PTR_TYPEDEF = Pattern.compile("typedef[^;{}()]*\\*\\s*(\\w+)\\s*;");

        static Prototypes parse(String source) {
            String text = COMMENT.matcher(source).replaceAll(" ");
            // lines starting with # (preprocessor) carry no prototypes
            text = text.replaceAll("(?m)^\\s*#.*$", " ");
            Set<String> pointerTypedefs = new HashSet<>();
            for (Pattern p : List.of(PTR_TYPEDEF_FN, PTR_TYPEDEF)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    pointerTypedefs.add(m.group(1));
                }
            }
            Map<String, Prototype> result = new LinkedHashMap<>();
            Matcher decl = DECL.matcher(text);
            while (decl.find()) {
                String body = decl.group(1).replaceAll("\\s+", " ").trim();
                Matcher name = NAME.matcher(body);
                if (!name.find()) {
                    continue; // a variable (SQLITE_EXTERN char *sqlite3_temp_directory)
                }
                int open = name.end() - 1;
                int close = matchingParen(body, open);
                if (close < 0) {
                    continue;
                }
                String ret = body.substring(0, name.start());
                String params = body.substring(open + 1, close);
                String fn = name.group(1);
                String prototype = "SQLITE_API " + body + ";";
                StringBuilder unmapped = new StringBuilder();
                Kind retKind = kindOf(ret, pointerTypedefs, true, unmapped);
                List<Kind> kinds = new ArrayList<>();
                boolean variadic = false;
                List<String> parts = splitTopLevel(params);
                if (!(parts.size() == 1 && parts.get(0).trim().equals("void")) && !(parts.size() == 1 && parts.get(0).isBlank())) {
                    for (String part : parts) {
                        if (part.trim().equals("...")) {
                            variadic = true;
                        } else {
                            kinds.add(kindOf(part, pointerTypedefs, false, unmapped));
                        }
                    }
                }
                result.putIfAbsent(fn, new Prototype(prototype, retKind, Collections.unmodifiableList(kinds), variadic,
                        unmapped.isEmpty() ? null : unmapped.toString()));
            }
            return new Prototypes(result);
        }

        private static int matchingParen(String s, int open) {
            int depth = 0;
            for (int i = open; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    return i;
                }
            }
            return -1;
        }

        private static List<String> splitTopLevel(String params) {
            List<String> parts = new ArrayList<>();
            int depth = 0;
            int start = 0;
            for (int i = 0; i < params.length(); i++) {
                char c = params.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (c == ',' && depth == 0) {
                    parts.add(params.substring(start, i));
                    start = i + 1;
                }
            }
            parts.add(params.substring(start));
            return parts;
        }

        private static final Set<String> QUALIFIERS = Set.of("const", "volatile", "SQLITE_DEPRECATED",
                "SQLITE_EXPERIMENTAL", "SQLITE_EXTERN", "SQLITE_STDCALL", "SQLITE_APICALL", "struct", "signed");

        /** A C type (with or without a parameter name) to its kind; null for void returns. */
        private static Kind kindOf(String decl, Set<String> pointerTypedefs, boolean isReturn, StringBuilder unmapped) {
            String d = decl.trim();
            if (d.indexOf('(') >= 0 || d.indexOf('*') >= 0 || d.indexOf('[') >= 0) {
                return Kind.ADDRESS; // pointers, arrays and function pointers
            }
            List<String> words = new ArrayList<>();
            for (String w : d.split("\\s+")) {
                if (!w.isEmpty() && !QUALIFIERS.contains(w)) {
                    words.add(w);
                }
            }
            if (words.isEmpty()) {
                unmapped.append("[empty type] ");
                return null;
            }
            String t = String.join(" ", words);
            for (String typedef : pointerTypedefs) {
                if (words.get(0).equals(typedef)) {
                    return Kind.ADDRESS;
                }
            }
            // the type is the words minus a trailing parameter name; try with and without it
            for (String candidate : isReturn ? List.of(t) : List.of(t, String.join(" ", words.subList(0, Math.max(1, words.size() - 1))))) {
                switch (candidate) {
                    case "void":
                        if (isReturn) {
                            return null;
                        }
                        break;
                    case "int", "unsigned int", "unsigned":
                        return Kind.INT;
                    case "sqlite3_int64", "sqlite_int64", "sqlite3_uint64", "sqlite_uint64", "long long",
                            "long long int", "unsigned long long", "unsigned long long int":
                        return Kind.LONG;
                    case "double":
                        return Kind.DOUBLE;
                    case "char", "unsigned char":
                        return Kind.BYTE;
                    default:
                        break;
                }
            }
            unmapped.append("[cannot map C type '").append(d).append("'] ");
            return null;
        }

        /** Empty when {@code descriptor} fits {@code name}'s prototype; else a message naming both. */
        Optional<String> mismatch(String name, FunctionDescriptor descriptor) {
            Prototype p = byName.get(name);
            if (p == null) {
                return Optional.of(name + ": not declared in the header; descriptor " + descriptor);
            }
            List<String> why = new ArrayList<>();
            if (p.unmapped() != null) {
                why.add("the checker cannot map the prototype: " + p.unmapped());
            }
            Kind ret = descriptor.returnLayout().map(Kind::of).orElse(null);
            if (descriptor.returnLayout().isPresent() && ret == null) {
                why.add("return layout " + descriptor.returnLayout().get() + " fits no C type");
            } else if (ret != p.returns()) {
                why.add("returns " + (p.returns() == null ? "void" : p.returns()) + " in C but "
                        + (ret == null ? "nothing" : ret) + " in the descriptor");
            }
            List<Kind> expected = new ArrayList<>(p.params());
            if (p.variadic()) {
                List<Kind> extra = VARIADIC_ARGS.get(name);
                if (extra == null) {
                    why.add("variadic, and the test states no expectation for its variadic arguments");
                } else {
                    expected.addAll(extra);
                }
            }
            List<MemoryLayout> args = descriptor.argumentLayouts();
            if (args.size() != expected.size()) {
                why.add(expected.size() + " argument(s) expected" + (p.variadic() ? " (fixed + variadic)" : "")
                        + ", descriptor has " + args.size());
            }
            for (int i = 0; i < Math.min(args.size(), expected.size()); i++) {
                Kind actual = Kind.of(args.get(i));
                if (actual != expected.get(i)) {
                    why.add("argument " + (i + 1) + " is " + expected.get(i) + " in C"
                            + (i >= p.params().size() ? " (variadic)" : "") + " but " + args.get(i)
                            + " in the descriptor");
                }
            }
            if (why.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(name + ": " + String.join("; ", why) + "\n      C:          " + p.text()
                    + "\n      descriptor: " + descriptor);
        }
    }

    @Test
    void kindOfLayoutsIsStrict() {
        assertEquals(Kind.ADDRESS, Kind.of(ADDRESS));
        assertEquals(Kind.INT, Kind.of(JAVA_INT));
        assertEquals(Kind.LONG, Kind.of(JAVA_LONG));
        assertEquals(Kind.DOUBLE, Kind.of(JAVA_DOUBLE));
        assertNull(Kind.of(ValueLayout.JAVA_FLOAT));
        assertNull(Kind.of(ValueLayout.JAVA_SHORT));
        assertFalse(Kind.of(JAVA_INT) == Kind.of(JAVA_LONG));
    }
}
