// pgjdbc (Debian's libpostgresql-jdbc-java) against the server of the PG*
// environment, the way a Java application uses it: DriverManager with the
// default properties (the driver sends extra_float_digits and
// application_name at startup), PreparedStatement with setInt /
// setBigDecimal / setNull / setBytes / setTimestamp (binary where pgjdbc
// sends binary), server-prepared after prepareThreshold (5) uses and at once
// with prepareThreshold=1, DatabaseMetaData, transactions with autocommit
// off and savepoints, a setFetchSize cursor, close(). Every check prints
// one ok/FAIL line; the exit status is 1 when one failed.
// Fixtures: tests/integration/drivers.sh's.

import java.math.BigDecimal;
import java.sql.*;
import java.util.*;
import org.postgresql.util.PGInterval;

public class JdbcTest {
    static int failed = 0;
    static String prefix = "jdbc";

    static void report(String name, String error) {
        if (error == null) System.out.println("ok   " + prefix + "/" + name);
        else { failed++; System.out.println("FAIL " + prefix + "/" + name + ": " + error); }
    }

    static void eq(String name, Object got, Object want) {
        boolean same = Objects.equals(got, want)
            && (got == null || want == null || want instanceof List || got.getClass() == want.getClass());
        report(name, same ? null : "got " + show(got) + ", want " + show(want));
    }

    static String firstLine(String s) { return s == null ? "" : s.split("\n", 2)[0]; }

    static void check(String name, boolean cond, String detail) { report(name, cond ? null : detail); }

    static String show(Object o) {
        if (o == null) return "null";
        if (o instanceof byte[]) return "bytes" + Arrays.toString((byte[]) o) + " (byte[])";
        return "'" + o + "' (" + o.getClass().getName() + ")";
    }

    interface Part { void run(Connection c) throws Exception; }

    static String url(String extra) {
        return "jdbc:postgresql://" + System.getenv("PGHOST") + ":" + System.getenv("PGPORT") + "/"
            + System.getenv("PGDATABASE") + extra;
    }

    static Connection connect(String extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", System.getenv("PGUSER"));
        return DriverManager.getConnection(url(extra), p);
    }

    static void part(String name, Connection c, Part p) {
        prefix = "jdbc/" + name;
        try {
            p.run(c);
        } catch (Exception e) {
            prefix = "jdbc";
            report(name, e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
            try { if (!c.getAutoCommit()) c.rollback(); } catch (SQLException ignored) { }
        }
    }

    static final Timestamp TS1 = Timestamp.valueOf("2024-05-01 12:00:10.5");
    static final Timestamp TS3 = Timestamp.valueOf("1999-12-31 23:59:59.999999");

    static void connectChecks(Connection c) throws Exception {
        try (Statement s = c.createStatement()) {
            ResultSet r = s.executeQuery("SHOW extra_float_digits");
            r.next();
            eq("extra_float_digits sent at startup", r.getString(1), "3");
            r = s.executeQuery("SHOW application_name");
            r.next();
            eq("application_name sent at startup", r.getString(1), "PostgreSQL JDBC Driver");
            r = s.executeQuery("SELECT current_database(), current_schema(), current_user");
            r.next();
            eq("current_database", r.getString(1), "sluice");
            eq("current_schema", r.getString(2), "public");
            eq("current_user", r.getString(3), "sluice");
        }
        eq("autocommit on by default", c.getAutoCommit(), true);
        eq("product name", c.getMetaData().getDatabaseProductName(), "PostgreSQL");
    }

    // Reads the three rows of prices through ps (bound with setInt) and checks every column.
    static void readPrices(PreparedStatement ps, String tag) throws SQLException {
        ps.setInt(1, 1);
        ResultSet r = ps.executeQuery();
        check(tag + " row 1", r.next(), "no row");
        eq(tag + " int", r.getObject(1), 1);
        eq(tag + " text", r.getString(2), "apple");
        eq(tag + " decimal", r.getBigDecimal(3), new BigDecimal("12.34"));
        eq(tag + " decimal object", r.getObject(3), new BigDecimal("12.34"));
        eq(tag + " timestamp", r.getTimestamp(4), TS1);
        eq(tag + " timestamp object", r.getObject(4), TS1);
        eq(tag + " interval", r.getObject(5), new PGInterval(0, 0, 1, 2, 3, 4));
        eq(tag + " null", r.getString(6), null);
        eq(tag + " wasNull", r.wasNull(), true);
        eq(tag + " bytea", Arrays.toString(r.getBytes(7)), Arrays.toString(new byte[] {'a', 'b'}));
        eq(tag + " bool", r.getObject(8), true);
        eq(tag + " bigint", r.getObject(9), 9000000000L);
        eq(tag + " double", r.getObject(10), 0.5);
        eq(tag + " date", r.getObject(11), java.sql.Date.valueOf("2024-05-01"));
        check(tag + " one row", !r.next(), "a second row");
        ps.setInt(1, 2);
        r = ps.executeQuery();
        r.next();
        eq(tag + " null decimal", r.getBigDecimal(3), null);
        eq(tag + " null timestamp", r.getTimestamp(4), null);
        eq(tag + " null interval", r.getObject(5), null);
        eq(tag + " null int8", r.getLong(9), 0L);
        eq(tag + " null int8 wasNull", r.wasNull(), true);
        ps.setInt(1, 3);
        r = ps.executeQuery();
        r.next();
        eq(tag + " negative decimal", r.getBigDecimal(3), new BigDecimal("-0.05"));
        eq(tag + " microseconds", r.getTimestamp(4), TS3);
        eq(tag + " negative interval", r.getObject(5), new PGInterval(0, 0, 0, -3, 0, 0));
        eq(tag + " empty bytea", Arrays.toString(r.getBytes(7)), "[]");
    }

    static final String PRICES = "SELECT id, name, price, ts, dur, note, raw, flag, big, ratio, day FROM prices WHERE id = ?";

    static void values(Connection c) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(PRICES)) {
            for (int i = 1; i <= 6; i++) readPrices(ps, i == 1 ? "first" : i < 6 ? "use " + i : "server-prepared");
            ResultSetMetaData md = ps.getMetaData();
            eq("column type names", Arrays.asList(md.getColumnTypeName(1), md.getColumnTypeName(2),
                    md.getColumnTypeName(3), md.getColumnTypeName(4), md.getColumnTypeName(5), md.getColumnTypeName(7)),
                Arrays.asList("int4", "text", "numeric", "timestamp", "interval", "bytea"));
            eq("column java types", Arrays.asList(md.getColumnType(1), md.getColumnType(3), md.getColumnType(4),
                    md.getColumnType(7), md.getColumnType(9)),
                Arrays.asList(Types.INTEGER, Types.NUMERIC, Types.TIMESTAMP, Types.BINARY, Types.BIGINT));
        }
    }

    static void prepareThresholdOne(Connection unused) throws Exception {
        try (Connection c = connect("?prepareThreshold=1"); PreparedStatement ps = c.prepareStatement(PRICES)) {
            for (int i = 1; i <= 3; i++) readPrices(ps, "prepareThreshold=1 use " + i);
        }
    }

    static void parameters(Connection c) throws Exception {
        try (Statement s = c.createStatement()) { s.executeUpdate("DELETE FROM tx_jdbc"); }
        String ins = "INSERT INTO tx_jdbc (id, amount, note, ts, raw) VALUES (?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement(ins)) {
            ps.setInt(1, 1);
            ps.setBigDecimal(2, new BigDecimal("7.25"));
            ps.setNull(3, Types.VARCHAR);
            ps.setTimestamp(4, TS1);
            ps.setBytes(5, new byte[] {0, 1, (byte) 0xff});
            eq("insert one row", ps.executeUpdate(), 1);
            ps.setInt(1, 2);
            ps.setBigDecimal(2, new BigDecimal("-1234.5"));
            ps.setString(3, "two");
            ps.setNull(4, Types.TIMESTAMP);
            ps.setNull(5, Types.BINARY);
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setObject(2, null, Types.NUMERIC);
            ps.setString(3, "it's");
            ps.setTimestamp(4, TS3);
            ps.setBytes(5, new byte[0]);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id, amount, note, ts, raw FROM tx_jdbc WHERE id >= ? ORDER BY id")) {
            ps.setInt(1, 0);
            ResultSet r = ps.executeQuery();
            r.next();
            eq("setInt back", r.getInt(1), 1);
            eq("setBigDecimal back", r.getBigDecimal(2), new BigDecimal("7.25"));
            eq("setNull back", r.getString(3), null);
            eq("setTimestamp back", r.getTimestamp(4), TS1);
            eq("setBytes back", Arrays.toString(r.getBytes(5)), "[0, 1, -1]");
            r.next();
            eq("negative decimal back", r.getBigDecimal(2), new BigDecimal("-1234.50"));
            eq("setString back", r.getString(3), "two");
            eq("null timestamp back", r.getTimestamp(4), null);
            eq("null bytes back", r.getBytes(5), null);
            r.next();
            eq("null decimal back", r.getBigDecimal(2), null);
            eq("quote in a parameter", r.getString(3), "it's");
            eq("microseconds back", r.getTimestamp(4), TS3);
            eq("empty bytes back", Arrays.toString(r.getBytes(5)), "[]");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1, ?, ?")) {
            ps.setLong(1, 41L);
            ps.setBigDecimal(2, new BigDecimal("1.50"));
            ps.setDouble(3, 0.25);
            ResultSet r = ps.executeQuery();
            r.next();
            eq("bigint expression", r.getObject(1), 42L);
            eq("decimal parameter type kept", r.getObject(2), new BigDecimal("1.50"));
            eq("double parameter", r.getObject(3), 0.25);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM prices WHERE price > ?")) {
            ps.setBigDecimal(1, new BigDecimal("0"));
            ResultSet r = ps.executeQuery();
            r.next();
            eq("decimal comparison", r.getLong(1), 1L);
        }
    }

    static void metadata(Connection c) throws Exception {
        DatabaseMetaData md = c.getMetaData();
        Map<String, String> kinds = new TreeMap<>();
        ResultSet r = md.getTables(null, "public", "%", null);
        while (r.next()) kinds.put(r.getString("TABLE_NAME"), r.getString("TABLE_TYPE"));
        eq("getTables static table", kinds.get("prices"), "TABLE");
        check("getTables stream", kinds.containsKey("orders"), kinds.toString());
        check("getTables query result", kinds.containsKey("order_totals"), kinds.toString());
        List<String> cols = new ArrayList<>();
        r = md.getColumns(null, "public", "prices", "%");
        while (r.next())
            cols.add(r.getString("COLUMN_NAME") + " " + r.getString("TYPE_NAME") + " " + r.getInt("DATA_TYPE")
                + (r.getString("TYPE_NAME").equals("numeric") ? " " + r.getInt("COLUMN_SIZE") + "," + r.getInt("DECIMAL_DIGITS") : ""));
        eq("getColumns static table", cols, Arrays.asList("id int4 4", "name text 12", "price numeric 2 10,2",
            "ts timestamp 93", "dur interval 1111", "note text 12", "raw bytea -2", "flag bool -7", "big int8 -5",
            "ratio float8 8", "day date 91"));
        cols.clear();
        r = md.getColumns(null, "public", "orders", "%");
        while (r.next()) cols.add(r.getString("COLUMN_NAME") + " " + r.getString("TYPE_NAME"));
        eq("getColumns stream", cols, Arrays.asList("id int4", "item text", "amount numeric", "ts timestamp"));
        cols.clear();
        r = md.getColumns(null, "public", "order_totals", "%");
        while (r.next()) cols.add(r.getString("COLUMN_NAME") + " " + r.getString("TYPE_NAME"));
        eq("getColumns query result", cols, Arrays.asList("item text", "n int8", "total numeric"));
        Set<String> types = new TreeSet<>();
        r = md.getTypeInfo();
        while (r.next()) types.add(r.getString("TYPE_NAME"));
        check("getTypeInfo", types.containsAll(Arrays.asList("int4", "int8", "numeric", "text", "timestamp",
            "interval", "bytea", "bool", "float8", "date")), types.toString());
        List<String> schemas = new ArrayList<>();
        r = md.getSchemas();
        while (r.next()) schemas.add(r.getString("TABLE_SCHEM"));
        check("getSchemas", schemas.contains("public"), schemas.toString());
        r = md.getPrimaryKeys(null, "public", "prices");
        check("getPrimaryKeys", !r.next(), "a key");
    }

    static void transactions(Connection c) throws Exception {
        try (Statement s = c.createStatement()) { s.executeUpdate("DELETE FROM tx_jdbc"); }
        c.setAutoCommit(false);
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO tx_jdbc (id, note) VALUES (?, ?)");
             PreparedStatement count = c.prepareStatement("SELECT count(*) FROM tx_jdbc WHERE id > ?")) {
            ins.setInt(1, 10);
            ins.setString(2, "rolled back");
            ins.executeUpdate();
            c.rollback();
            count.setInt(1, 0);
            ResultSet r = count.executeQuery();
            r.next();
            eq("rollback undoes insert", r.getLong(1), 0L);
            ins.setInt(1, 11);
            ins.setString(2, "kept");
            ins.executeUpdate();
            Savepoint sp = c.setSavepoint();
            ins.setInt(1, 12);
            ins.setString(2, "after savepoint");
            ins.executeUpdate();
            c.rollback(sp);
            c.commit();
            try (Connection other = connect(""); Statement s = other.createStatement()) {
                r = s.executeQuery("SELECT id, note FROM tx_jdbc ORDER BY id");
                List<String> seen = new ArrayList<>();
                while (r.next()) seen.add(r.getInt(1) + " " + r.getString(2));
                eq("commit and rollback to savepoint", seen, Arrays.asList("11 kept"));
            }
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT * FROM no_such_table");
                check("error raised", false, "no error");
            } catch (SQLException e) {
                eq("error raised", e.getSQLState(), "42P01");
            }
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1");
                check("statements refused until rollback", false, "no error");
            } catch (SQLException e) {
                eq("statements refused until rollback", e.getSQLState(), "25P02");
            }
            c.rollback();
            count.setInt(1, 0);
            r = count.executeQuery();
            r.next();
            eq("usable after rollback", r.getLong(1), 1L);
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        try (Statement s = c.createStatement()) {
            ResultSet r = s.executeQuery("SHOW transaction_isolation");
            r.next();
            eq("isolation level", r.getString(1), "serializable");
        }
        c.rollback();
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        c.setAutoCommit(true);
    }

    static void cursors(Connection c) throws Exception {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("SELECT id, name, price FROM prices WHERE id > ? ORDER BY id")) {
            ps.setFetchSize(1);
            for (int round = 1; round <= 6; round++) {
                ps.setInt(1, 0);
                ResultSet r = ps.executeQuery();
                List<String> got = new ArrayList<>();
                while (r.next()) got.add(r.getInt(1) + " " + r.getString(2) + " " + r.getBigDecimal(3));
                if (round == 1 || round == 6)
                    eq("setFetchSize(1) use " + round, got, Arrays.asList("1 apple 12.34", "2 leek null", "3 pear -0.05"));
            }
            c.commit();
        }
        try (Statement s = c.createStatement()) {
            s.setFetchSize(1);
            ResultSet r = s.executeQuery("SELECT item, n, total FROM order_totals ORDER BY item");
            List<String> got = new ArrayList<>();
            while (r.next()) got.add(r.getString(1) + " " + r.getLong(2) + " " + r.getBigDecimal(3));
            eq("setFetchSize(1) query result table", got, Arrays.asList("apple 2 6.50", "leek 1 1.20"));
            r = s.executeQuery("SELECT id FROM prices ORDER BY id");
            r.next();
            r.close();
            eq("closing a cursor early", s.executeQuery("SELECT 5").next(), true);
        }
        c.commit();
        c.setAutoCommit(true);
    }

    // The last statement is a PreparedStatement with a parameter; the JVM halts without close().
    static void exitWithoutClose() {
        prefix = "jdbc/exit without close";
        try {
            Connection c = connect("");
            PreparedStatement ps = c.prepareStatement("SELECT name FROM prices WHERE id = ?");
            ps.setInt(1, 3);
            ResultSet r = ps.executeQuery();
            r.next();
            eq("PreparedStatement last", r.getString(1), "pear");
        } catch (Exception e) {
            report("PreparedStatement last", e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        System.out.println(failed == 0 ? "all checks passed" : failed + " failed");
        Runtime.getRuntime().halt(failed == 0 ? 0 : 1);
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("exit-without-close")) exitWithoutClose();
        Connection c;
        try {
            c = connect("");
        } catch (SQLException e) {
            report("connect with default properties", e.getMessage());
            System.out.println(failed + " failed");
            System.exit(1);
            return;
        }
        part("connect", c, JdbcTest::connectChecks);
        part("values", c, JdbcTest::values);
        part("prepareThreshold=1", c, JdbcTest::prepareThresholdOne);
        part("parameters", c, JdbcTest::parameters);
        part("metadata", c, JdbcTest::metadata);
        part("transactions", c, JdbcTest::transactions);
        part("cursors", c, JdbcTest::cursors);
        prefix = "jdbc/disconnect";
        c.close();
        eq("closed", c.isClosed(), true);
        System.out.println(failed == 0 ? "all checks passed" : failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
