import java.sql.*;
import java.lang.management.*;
public class InPlace {
  public static void main(String[] a) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:/tmp/d1bench/x.db")) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, s TEXT, b BLOB)");
        ResultSet r = s.executeQuery("SELECT count(*) FROM t"); r.next();
        if (r.getInt(1) == 0) s.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<1000) INSERT INTO t SELECT i, 'text-' || i, randomblob(16) FROM n");
      }
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      PreparedStatement ps = c.prepareStatement("SELECT s, b FROM t");
      long sink = 0;
      for (int round = 0; round < 8; round++) {
        long t0 = mx.getCurrentThreadCpuTime(); int n = 0;
        for (int k = 0; k < 200; k++) {
          ps.setFetchSize(1);
          try (ResultSet rs = ps.executeQuery()) { while (rs.next()) { sink += rs.getString(1).length() + rs.getBytes(2).length; n++; } }
        }
        long t1 = mx.getCurrentThreadCpuTime();
        System.out.printf("RESULT ns/row %.1f%n", (t1 - t0) / (double) n);
      }
      if (sink == 42) System.out.println();
    }
  }
}
