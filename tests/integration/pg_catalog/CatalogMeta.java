// pgjdbc's DatabaseMetaData against sluice: getDatabaseProductVersion,
// getTables, getColumns, getTypeInfo, getSchemas, getPrimaryKeys. Prints one
// line per check; exits 1 when one is wrong. args: port.
import java.sql.*;
import java.util.*;

public class CatalogMeta {
    static int failed = 0;

    static void check(String what, Object got, Object want) {
        boolean ok = Objects.equals(got, want);
        if (!ok) failed = 1;
        System.out.println((ok ? "ok   " : "FAIL ") + what + (ok ? "" : ": got " + got + ", want " + want));
    }

    static List<String> column(ResultSet rs, String... cols) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (String c : cols) b.append(b.length() > 0 ? "|" : "").append(rs.getString(c));
            out.add(b.toString());
        }
        return out;
    }

    interface Step { void run() throws SQLException; }

    static void step(String what, Step s) {
        try { s.run(); } catch (SQLException e) { check(what, "error " + e.getMessage().split("\n")[0], "no error"); }
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/sluice";
        Connection c = DriverManager.getConnection(url, "sluice", "");
        DatabaseMetaData m = c.getMetaData();
        check("getDatabaseProductName", m.getDatabaseProductName(), "PostgreSQL");
        check("getDatabaseMajorVersion", m.getDatabaseMajorVersion(), 15);
        check("getDatabaseProductVersion", m.getDatabaseProductVersion().startsWith("15.0"), true);
        step("getTables", () -> check("getTables public", column(m.getTables(null, "public", "%", null),
                "TABLE_NAME", "TABLE_TYPE"), List.of("cat_q|MATERIALIZED VIEW", "cat_t|TABLE", "completion_target|TABLE", "cat_s|VIEW")));
        step("getTables system", () -> check("getTables pg_catalog.pg_type",
                column(m.getTables(null, "pg_catalog", "pg_type", null), "TABLE_TYPE"), List.of("SYSTEM TABLE")));
        step("getColumns", () -> check("getColumns cat_t", column(m.getColumns(null, "public", "cat_t", null),
                "COLUMN_NAME", "TYPE_NAME", "DATA_TYPE", "ORDINAL_POSITION"),
                List.of("id|int4|4|1", "name|text|12|2", "price|numeric|2|3", "at|timestamp|93|4", "ok|bool|-7|5")));
        step("getTypeInfo", () -> {
            List<String> t = column(m.getTypeInfo(), "TYPE_NAME");
            check("getTypeInfo has int4, numeric, timestamptz",
                  t.containsAll(List.of("int4", "numeric", "timestamptz", "text", "bool")), true);
        });
        step("getSchemas", () -> check("getSchemas", column(m.getSchemas(), "TABLE_SCHEM"),
                List.of("information_schema", "pg_catalog", "public")));
        step("getPrimaryKeys", () -> check("getPrimaryKeys", column(m.getPrimaryKeys(null, "public", "cat_t"),
                "COLUMN_NAME"), List.of()));
        c.close();
        System.exit(failed);
    }
}
