#!/usr/bin/env bash
# Binary format and declared parameter types with the real clients:
#  - libpq (tests/tools/pg_binary): every type's binary parameter and result
#    bytes, PostgreSQL's errors for malformed values, declared types typing
#    text values, ParameterDescription, a table written and read in binary;
#  - a raw client (pg_hostile result-formats): one result format code per
#    column in RowDescription and DataRow, and the 08P01 refusals;
#  - psycopg 3: its defaults (int and datetime binary), every value as %b and
#    %t, through text and binary cursors, with the right Python types;
#  - pgjdbc: every setter, binary results once the statement is prepared
#    (prepareThreshold=1, binaryTransfer=true), getBigDecimal/getTimestamp.
# Then the daemon still serves and stops cleanly.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust || exit 1
CONNINFO="host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice"
status=0

"$O/tools/pg_binary" "$CONNINFO" || status=1
"$O/tools/pg_hostile" 127.0.0.1 "$SL_PORT" result-formats || status=1

cat > "$T/psycopg_binary.py" <<'EOF'
import datetime, decimal, sys
import psycopg

D = decimal.Decimal
TS = datetime.datetime(2024, 5, 1, 12, 0, 10, 123456)
failures = 0

def expect(ok, what):
    global failures
    if not ok:
        print("psycopg:", what, file=sys.stderr)
        failures += 1

conn = psycopg.connect(sys.argv[1], autocommit=True)
values = [
    (42, int), (9000000000, int), (D("12345.678"), D), (D("-0.001"), D), (TS, datetime.datetime),
    (datetime.date(2024, 5, 1), datetime.date),
    (datetime.timedelta(days=1, hours=2, microseconds=5), datetime.timedelta),
    (b"\x00\xffA", bytes), (True, bool), (0.1, float), ("h\u00e9llo", str),
]
# The driver's defaults (int and datetime binary), then every value binary (%b)
# and text (%t), read through a text and a binary cursor.
for placeholder in ("%s", "%b", "%t"):
    for binary_results in (False, True):
        cur = conn.cursor(binary=binary_results)
        for v, t in values:
            cur.execute("SELECT " + placeholder, (v,))
            got = cur.fetchone()[0]
            expect(got == v and type(got) is t,
                   f"{placeholder} binary={binary_results}: {v!r} came back as {got!r}")
        cur.execute("SELECT " + placeholder, (None,))
        expect(cur.fetchone()[0] is None, f"{placeholder} binary={binary_results}: None")

# Arithmetic on binary parameters uses their declared types.
cur = conn.cursor()
cur.execute("SELECT %b + 1, %b * 2, %b + INTERVAL '1 day'", (41, D("1.25"), TS))
expect(cur.fetchone() == (42, D("2.50"), TS + datetime.timedelta(days=1)), "arithmetic")
cur.execute("SELECT %b", (datetime.time(12, 0, 10, 500000),))
expect(cur.fetchone()[0] == "12:00:10.5", "time parameter")

# A table written with binary parameters, read back through a binary cursor.
cur.execute("CREATE TABLE pybin (id INT, amount DECIMAL(10,3), at TIMESTAMP, day DATE, span INTERVAL, "
            "data BINARY, flag BOOLEAN, score DOUBLE, note STRING)")
rows = [(i, D("12345.678") * i, TS + datetime.timedelta(seconds=i), datetime.date(2024, 5, i),
         datetime.timedelta(hours=i), bytes([i]), i % 2 == 0, i / 4, None if i == 3 else f"n{i}")
        for i in (1, 2, 3)]
cur.executemany("INSERT INTO pybin VALUES (%b, %b, %b, %b, %b, %b, %b, %b, %b)", rows)
bc = conn.cursor(binary=True)
bc.execute("SELECT * FROM pybin ORDER BY id")
got = bc.fetchall()
expect(got == rows, f"table round trip: {got!r}")
bc.execute("SELECT id FROM pybin WHERE at > %s AND amount < %s ORDER BY id",
           (TS + datetime.timedelta(seconds=1), D("40000")))
expect(bc.fetchall() == [(2,), (3,)], "WHERE on binary parameters")

# An explicitly sized integer (int8) binds as BIGINT and casts.
cur.execute("SELECT %b::INT", (psycopg.types.numeric.Int8(1),))
expect(cur.fetchone()[0] == 1, "int8 parameter cast to INT")
conn.close()
print("psycopg: ok" if failures == 0 else f"psycopg: {failures} failed")
sys.exit(1 if failures else 0)
EOF
/usr/bin/python3 "$T/psycopg_binary.py" "$CONNINFO" || status=1

mkdir -p "$T/java"
cat > "$T/java/PgBinary.java" <<'EOF'
import java.math.BigDecimal;
import java.sql.*;
import java.util.Arrays;

/* pgjdbc: parameters of every setter; binary results once prepared. */
public class PgBinary {
    static int failures = 0;

    static void expect(boolean ok, String what) {
        if (!ok) {
            System.err.println("pgjdbc: " + what);
            failures++;
        }
    }

    static void parameters(Connection c) throws SQLException {
        PreparedStatement ps = c.prepareStatement("SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? + 1");
        ps.setInt(1, 42);
        ps.setLong(2, 9000000000L);
        ps.setBigDecimal(3, new BigDecimal("12345.678"));
        ps.setNull(4, Types.INTEGER);
        ps.setBytes(5, new byte[] {0, (byte) 0xff, 65});
        ps.setTimestamp(6, Timestamp.valueOf("2024-05-01 12:00:10.123456"));
        ps.setDate(7, Date.valueOf("2024-05-01"));
        ps.setBoolean(8, true);
        ps.setDouble(9, 0.1);
        ps.setString(10, "h\u00e9llo");
        ps.setInt(11, 1);
        for (int run = 0; run < 3; run++) { /* run 0 describes; later runs bind binary results */
            try (ResultSet rs = ps.executeQuery()) {
                expect(rs.next(), "no row");
                String r = "run " + run + ": ";
                expect(rs.getInt(1) == 42, r + "int " + rs.getInt(1));
                expect(rs.getLong(2) == 9000000000L, r + "long " + rs.getLong(2));
                expect(new BigDecimal("12345.678").equals(rs.getBigDecimal(3)), r + "decimal " + rs.getBigDecimal(3));
                rs.getInt(4);
                expect(rs.wasNull(), r + "null");
                expect(Arrays.equals(new byte[] {0, (byte) 0xff, 65}, rs.getBytes(5)), r + "bytes");
                expect(Timestamp.valueOf("2024-05-01 12:00:10.123456").equals(rs.getTimestamp(6)),
                       r + "timestamp " + rs.getTimestamp(6));
                expect(Date.valueOf("2024-05-01").equals(rs.getDate(7)), r + "date " + rs.getDate(7));
                expect(rs.getBoolean(8), r + "boolean");
                expect(rs.getDouble(9) == 0.1, r + "double " + rs.getDouble(9));
                expect("h\u00e9llo".equals(rs.getString(10)), r + "string " + rs.getString(10));
                expect(rs.getInt(11) == 2, r + "int + 1 " + rs.getInt(11));
                ResultSetMetaData md = rs.getMetaData();
                expect(md.getColumnType(1) == Types.INTEGER, r + "int column " + md.getColumnTypeName(1));
                expect(md.getColumnType(2) == Types.BIGINT, r + "long column " + md.getColumnTypeName(2));
                expect(md.getColumnType(3) == Types.NUMERIC, r + "decimal column " + md.getColumnTypeName(3));
            }
        }
        ps.close();
    }

    static void table(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jbin (id INT, amount DECIMAL(10,3), at TIMESTAMP, day DATE, flag BOOLEAN, "
                       + "data BINARY, note STRING)");
        }
        PreparedStatement ins = c.prepareStatement("INSERT INTO jbin VALUES (?, ?, ?, ?, ?, ?, ?)");
        for (int i = 1; i <= 3; i++) {
            ins.setInt(1, i);
            ins.setBigDecimal(2, new BigDecimal("12345.678").multiply(BigDecimal.valueOf(i)));
            ins.setTimestamp(3, Timestamp.valueOf("2024-05-01 12:00:10.123456"));
            ins.setDate(4, Date.valueOf("2024-05-01"));
            ins.setBoolean(5, i % 2 == 1);
            ins.setBytes(6, new byte[] {(byte) i});
            if (i == 3) ins.setNull(7, Types.VARCHAR);
            else ins.setString(7, "n" + i);
            expect(ins.executeUpdate() == 1, "insert " + i);
        }
        PreparedStatement q = c.prepareStatement("SELECT id, amount, at, day, flag, data, note FROM jbin "
                                                 + "WHERE amount > ? ORDER BY id");
        for (int run = 0; run < 3; run++) {
            q.setBigDecimal(1, new BigDecimal("20000"));
            try (ResultSet rs = q.executeQuery()) {
                for (int i = 2; i <= 3; i++) {
                    String r = "run " + run + " row " + i + ": ";
                    expect(rs.next(), r + "missing");
                    expect(rs.getInt(1) == i, r + "id " + rs.getInt(1));
                    expect(new BigDecimal("12345.678").multiply(BigDecimal.valueOf(i)).equals(rs.getBigDecimal(2)),
                           r + "amount " + rs.getBigDecimal(2));
                    expect(Timestamp.valueOf("2024-05-01 12:00:10.123456").equals(rs.getTimestamp(3)),
                           r + "at " + rs.getTimestamp(3));
                    expect(Date.valueOf("2024-05-01").equals(rs.getDate(4)), r + "day " + rs.getDate(4));
                    expect(rs.getBoolean(5) == (i % 2 == 1), r + "flag");
                    expect(Arrays.equals(new byte[] {(byte) i}, rs.getBytes(6)), r + "data");
                    expect(i == 3 ? rs.getString(7) == null : ("n" + i).equals(rs.getString(7)),
                           r + "note " + rs.getString(7));
                }
                expect(!rs.next(), "run " + run + ": extra row");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0]
                     + "/sluice?user=sluice&prepareThreshold=1&binaryTransfer=true";
        try (Connection c = DriverManager.getConnection(url)) {
            parameters(c);
            table(c);
        }
        System.out.println(failures == 0 ? "pgjdbc: ok" : "pgjdbc: " + failures + " failed");
        System.exit(failures == 0 ? 0 : 1);
    }
}
EOF
JAR=/usr/share/java/postgresql.jar
if (cd "$T/java" && javac -cp "$JAR" PgBinary.java); then
    java -Duser.timezone=UTC -cp "$JAR:$T/java" PgBinary "$SL_PORT" || status=1
else
    echo "pgjdbc: javac failed"; status=1
fi

[ "$(sql -c 'SELECT 1')" = "1" ] || { echo "the daemon stopped serving"; status=1; }
stop_daemon || status=1
[ $status -eq 0 ] && echo "pgwire_binary: ok"
exit $status
