package dev.panlite;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run in a child JVM by {@link VectorEngineTest} under the locale its environment names: prints the
 * process's LC_NUMERIC as the JVM set it, then each JSON vector given as an argument read by
 * sqlite-vec and written back ({@code vec_to_json(vec_f32(...))}), or the error, one
 * {@code key=value} a line.
 */
public final class VectorLocaleChild {
    private static final int LC_NUMERIC = 1; // glibc's value (the test runs this on glibc only)

    private VectorLocaleChild() {}

    public static void main(String[] args) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle setlocale = linker.downcallHandle(linker.defaultLookup().find("setlocale").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        MemorySegment numeric = (MemorySegment) setlocale.invokeExact(LC_NUMERIC, MemorySegment.NULL); // only reads it
        System.out.println("numeric=" + numeric.reinterpret(256).getString(0));
        try (Connection c = new Driver().connect("jdbc:sqlite::memory:", new Properties());
             Statement s = c.createStatement()) {
            for (int i = 0; i < args.length; i++) {
                try (ResultSet rs = s.executeQuery("SELECT vec_to_json(vec_f32('" + args[i] + "'))")) {
                    rs.next();
                    System.out.println("vector" + i + "=" + rs.getString(1));
                } catch (SQLException e) {
                    System.out.println("vector" + i + "=" + e.getMessage());
                }
            }
        }
    }
}
