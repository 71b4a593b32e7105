#!/usr/bin/env bash
# Sessions as drivers use them: settings and transactions through
# psycopg2 (a transaction opened by default), psycopg 3 (nested
# transaction() blocks as savepoints, ParameterStatus after SET), pgjdbc
# (its connect-time settings, autocommit off with a fetch size: a portal
# that lives across Syncs; rollback) and psql; statement_timeout cancels a
# slow statement with 57014; another session reads only committed rows;
# the daemon keeps serving after each client disconnects; and a table that
# an older version kept in catalog.db moves to tables.db at start.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust || exit 1
DSN="host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice"
PY=/usr/bin/python3
status=0
check() { # name command...
    local name=$1; shift
    if "$@" >"$T/out" 2>&1; then echo "ok   $name"; else echo "FAIL $name"; cat "$T/out"; status=1; fi
}
serving() { # the daemon still answers a fresh connection
    [ "$(psql -X -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c 'SELECT 40 + 2')" = 42 ]
}

cat >"$T/psycopg2_test.py" <<'EOF'
import sys, time
import psycopg2, psycopg2.errors
from psycopg2.extensions import (TRANSACTION_STATUS_IDLE, TRANSACTION_STATUS_INTRANS,
                                 TRANSACTION_STATUS_INERROR)
dsn = sys.argv[1]
conn = psycopg2.connect(dsn)            # autocommit off: psycopg2 sends BEGIN
other = psycopg2.connect(dsn)
other.autocommit = True
assert conn.server_version >= 150000, conn.server_version
assert conn.get_parameter_status("client_encoding") == "UTF8"
assert conn.get_parameter_status("standard_conforming_strings") == "on"
cur, ocur = conn.cursor(), other.cursor()
def count(c):
    c.execute("SELECT count(*) FROM p2")
    return c.fetchone()[0]
cur.execute("CREATE TABLE p2 (id INT, name STRING)")
cur.executemany("INSERT INTO p2 VALUES (%s, %s)", [(1, "a"), (2, "b"), (3, "c")])
assert conn.info.transaction_status == TRANSACTION_STATUS_INTRANS
assert count(cur) == 3
assert count(ocur) == 0, "another session saw uncommitted rows"
conn.commit()
assert conn.info.transaction_status == TRANSACTION_STATUS_IDLE
assert count(ocur) == 3
cur.execute("DELETE FROM p2 WHERE id = 1")
cur.execute("INSERT INTO p2 VALUES (9, 'z')")
assert count(cur) == 3 and count(ocur) == 3
conn.rollback()
cur.execute("SELECT id FROM p2 ORDER BY id")
assert [r[0] for r in cur.fetchall()] == [1, 2, 3]
# an error fails the transaction until rollback
try:
    cur.execute("SELECT nosuchcol FROM p2")
    raise SystemExit("no error")
except psycopg2.errors.UndefinedColumn:
    pass
assert conn.info.transaction_status == TRANSACTION_STATUS_INERROR
try:
    cur.execute("SELECT 1")
    raise SystemExit("no 25P02")
except psycopg2.errors.InFailedSqlTransaction as e:
    assert e.pgcode == "25P02"
conn.rollback()
cur.execute("SELECT 1")
assert cur.fetchone() == (1,)
conn.commit()
# stream statements need autocommit; the hint says so
try:
    cur.execute("CREATE STREAM r USING rate")
    raise SystemExit("CREATE STREAM ran in a transaction")
except psycopg2.errors.ActiveSqlTransaction as e:
    assert "autocommit" in e.diag.message_hint, e.diag.message_hint
conn.rollback()
conn.autocommit = True
cur.execute("CREATE STREAM r USING rate")
cur.execute("DROP STREAM r")
# a block that changed rows holds the table lock: another writer waits,
# here at most its lock_timeout (55P03), and goes ahead after COMMIT
conn.autocommit = False
cur.execute("INSERT INTO p2 VALUES (4, 'd')")
ocur.execute("SET lock_timeout = '200ms'")
try:
    ocur.execute("INSERT INTO p2 VALUES (5, 'e')")
    raise SystemExit("a second writer did not wait for the lock")
except psycopg2.errors.LockNotAvailable as e:
    assert e.pgcode == "55P03", e.pgcode
assert count(ocur) == 3
ocur.execute("CREATE STREAM r2 USING rate")        # the catalog does not wait for the block
ocur.execute("DROP STREAM r2")
conn.commit()
ocur.execute("INSERT INTO p2 VALUES (5, 'e')")
assert count(cur) == 5
conn.commit()
# isolation levels and read-only sessions as psycopg2 sets them
conn.set_session(isolation_level="SERIALIZABLE", readonly=True)
cur.execute("SHOW transaction_isolation")
assert cur.fetchone()[0] == "serializable"
try:
    cur.execute("INSERT INTO p2 VALUES (4, 'd')")
    raise SystemExit("read-only transaction wrote")
except psycopg2.errors.ReadOnlySqlTransaction:
    conn.rollback()
conn.set_session(isolation_level="READ COMMITTED", readonly=False)
# statement_timeout
cur.execute("SET statement_timeout = '300ms'")
conn.commit()
t0 = time.monotonic()
try:
    cur.execute("SELECT pg_sleep(10)")
    raise SystemExit("pg_sleep(10) was not canceled")
except psycopg2.errors.QueryCanceled as e:
    assert e.pgcode == "57014" and "statement timeout" in str(e), str(e)
assert time.monotonic() - t0 < 5
conn.rollback()
cur.execute("RESET statement_timeout")
cur.execute("SELECT 7")
assert cur.fetchone() == (7,)
conn.close()
# a block left idle past idle_in_transaction_session_timeout ends with its
# connection, and its table lock goes with it: a waiting writer proceeds
idle = psycopg2.connect(dsn)
icur = idle.cursor()
icur.execute("SET idle_in_transaction_session_timeout = '2s'")
icur.execute("INSERT INTO p2 VALUES (6, 'f')")
ocur.execute("SET lock_timeout = 0")
ocur.execute("INSERT INTO p2 VALUES (7, 'g')")     # waits for the idle block to end
ocur.execute("SELECT id FROM p2 WHERE id >= 6")
assert [r[0] for r in ocur.fetchall()] == [7]
try:
    icur.execute("SELECT 1")
    raise SystemExit("the idle block's connection survived")
except psycopg2.OperationalError:
    pass
other.close()
print("psycopg2 ok")
EOF

cat >"$T/psycopg3_test.py" <<'EOF'
import sys
import psycopg
dsn = sys.argv[1]
with psycopg.connect(dsn) as conn:
    conn.execute("CREATE TABLE p3 (id INT)")
    conn.commit()
    with conn.transaction():
        conn.execute("INSERT INTO p3 VALUES (1)")
        with conn.transaction():                 # a savepoint
            conn.execute("INSERT INTO p3 VALUES (2)")
        try:
            with conn.transaction():
                conn.execute("INSERT INTO p3 VALUES (3)")
                raise RuntimeError("undo this savepoint")
        except RuntimeError:
            pass
        with conn.transaction():
            with conn.transaction():
                conn.execute("INSERT INTO p3 VALUES (4)")
    ids = [r[0] for r in conn.execute("SELECT id FROM p3 ORDER BY id")]
    assert ids == [1, 2, 4], ids
    conn.commit()
    conn.execute("INSERT INTO p3 VALUES (5)")
    conn.rollback()
    ids = [r[0] for r in conn.execute("SELECT id FROM p3 ORDER BY id")]
    assert ids == [1, 2, 4], ids
    conn.commit()
    # ParameterStatus follows SET, and ROLLBACK of a SET
    conn.autocommit = True
    conn.execute("SET application_name = 'psycopg-test'")
    assert conn.info.parameter_status("application_name") == "psycopg-test"
    conn.autocommit = False
    conn.execute("SET TimeZone = 'Europe/Berlin'")
    assert conn.info.parameter_status("TimeZone") == "Europe/Berlin"
    conn.rollback()
    assert conn.info.parameter_status("TimeZone") == "UTC", conn.info.parameter_status("TimeZone")
    row = conn.execute("SELECT current_setting('TimeZone'), set_config('myapp.k', 'v', false)").fetchone()
    assert row == ("UTC", "v"), row
    conn.rollback()
print("psycopg3 ok")
EOF

cat >"$T/JdbcTest.java" <<'EOF'
import java.sql.*;

public class JdbcTest {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "sluice", "")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE j5 (id INT, v STRING)");
                s.execute("INSERT INTO j5 VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d'),(5,'e')");
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(2);                       // Execute with a row limit, Sync, Execute...
                int n = 0, sum = 0;
                try (ResultSet rs = s.executeQuery("SELECT id FROM j5 ORDER BY id")) {
                    while (rs.next()) { n++; sum += rs.getInt(1); }
                }
                check(n == 5 && sum == 15, "fetch size 2 read " + n + " rows");
            }
            c.commit();
            try (PreparedStatement p = c.prepareStatement("INSERT INTO j5 VALUES (6, ?)")) {
                p.setString(1, "f");
                p.executeUpdate();
            }
            c.rollback();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM j5")) {
                rs.next();
                check(rs.getLong(1) == 5, "rollback kept the insert: " + rs.getLong(1));
            }
            check(c.getTransactionIsolation() == Connection.TRANSACTION_READ_COMMITTED, "isolation");
            c.rollback();
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW transaction_isolation")) {
                rs.next();
                check(rs.getString(1).equals("serializable"), "isolation " + rs.getString(1));
            }
            c.rollback();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW extra_float_digits")) {
                rs.next();
                check(rs.getString(1).equals("3"), "extra_float_digits " + rs.getString(1));
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW TimeZone")) {
                rs.next();                               // the JVM's zone, sent at startup
                check(rs.getString(1).equals("Europe/Berlin"), "TimeZone " + rs.getString(1));
            }
            c.commit();
        }
        System.out.println("pgjdbc ok");
    }
}
EOF

check "psycopg2: transactions, failed state, read only, statement_timeout" \
    "$PY" "$T/psycopg2_test.py" "$DSN"
check "serving after psycopg2" serving
check "psycopg 3: nested transaction() blocks, rollback, ParameterStatus" \
    "$PY" "$T/psycopg3_test.py" "$DSN"
check "serving after psycopg 3" serving
check "pgjdbc: connect defaults, fetch size over a Sync, rollback" \
    sh -c "cd '$T' && javac -d . JdbcTest.java && java -Duser.timezone=Europe/Berlin -cp /usr/share/java/postgresql.jar:. JdbcTest \
        'jdbc:postgresql://127.0.0.1:$SL_PORT/sluice'"
check "serving after pgjdbc" serving

# startup options and refused settings, as libpq sends them
check "options=-c applied at startup" sh -c "[ \"\$(psql -X -A -t -d '$DSN options=-cstatement_timeout=2min' \
    -c 'SHOW statement_timeout')\" = 2min ]"
check "unknown startup setting refused" sh -c "! psql -X -A -t -d '$DSN options=--no_such=1' -c 'SELECT 1' \
    2>'$T/err' && grep -q 'unrecognized configuration parameter \"no_such\"' '$T/err'"
check "client_encoding LATIN1 refused at startup" sh -c "! PGCLIENTENCODING=LATIN1 psql -X -A -t -d '$DSN' \
    -c 'SELECT 1' 2>'$T/err' && grep -q 'invalid value for parameter \"client_encoding\"' '$T/err'"
check "client_encoding=auto from a C locale (interactive psql) connects" sh -c "[ \"\$(LC_ALL=C LANG=C \
    psql -X -A -t -d '$DSN client_encoding=auto' -c 'SHOW client_encoding')\" = SQL_ASCII ]"
check "serving at the end" serving
stop_daemon || status=1

# older versions kept table rows in catalog.db: at start they move to tables.db
cat >"$T/old_layout.py" <<'EOF'
import sqlite3, sys
d = sys.argv[1]
db = sqlite3.connect(d + "/catalog.db")
db.execute("ATTACH DATABASE ? AS t", (d + "/tables.db",))
sql = db.execute("SELECT sql FROM t.sqlite_schema WHERE name = 'table:j5'").fetchone()[0]
db.execute(sql)
db.execute('INSERT INTO main."table:j5" SELECT * FROM t."table:j5" ORDER BY rowid')
db.execute('DROP TABLE t."table:j5"')
db.commit()
assert db.execute("SELECT count(*) FROM main.sqlite_schema WHERE name = 'table:j5'").fetchone()[0] == 1
EOF
cat >"$T/moved.py" <<'EOF'
import sqlite3, sys
d = sys.argv[1]
left = sqlite3.connect(d + "/catalog.db").execute(
    "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'table:%'").fetchone()[0]
assert left == 0, left
EOF
j5_rows() {
    [ "$(psql -X -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c 'SELECT v FROM j5' | tr -d '\n')" = abcde ]
}
check "a table kept in catalog.db, as older versions did" "$PY" "$T/old_layout.py" "$T/data"
start_daemon "$T" -c authentication=trust >/dev/null || exit 1
check "it moved to tables.db with its rows in order" j5_rows
check "catalog.db keeps no table rows" "$PY" "$T/moved.py" "$T/data"
stop_daemon || status=1
[ $status -eq 0 ] && echo "pg_sessions: ok"
exit $status
