#!/usr/bin/env bash
# COPY through real clients: psql's \copy of 100k rows both ways (text and
# CSV, compared with the source byte for byte), psycopg 3's cursor.copy()
# (write_row / rows(), and a COPY (query) with a bound parameter through the
# extended protocol), psycopg2's copy_expert, pgjdbc's CopyManager; COPY
# FROM in transaction blocks (ROLLBACK and ROLLBACK TO undo it, others see
# it at COMMIT, a bad record fails the block, psycopg 3's transaction()),
# COPYs waiting for another session's write block (no worker held: SELECT 1
# answers; lock_timeout 55P03, a cancel 57014; all rows after its COMMIT);
# and clients that disconnect in the middle of a COPY FROM STDIN (nothing
# of it is added) and of a large COPY TO STDOUT; the daemon keeps serving.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust -c log_level=debug || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
DSN="host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice"
PY=/usr/bin/python3

# ---- psql \copy, 100k rows both ways ----
$PY - "$T" <<'PYEOF'
import sys
d = sys.argv[1]
with open(d + "/src.txt", "w") as f, open(d + "/src.csv", "w") as g:
    g.write("id,name,amount\n")
    for i in range(100000):
        name = ["plain %d" % i, "tab\there", "back\\slash", "comma, \"quoted\"", "line\nbreak"][i % 5]
        esc = name.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
        amount = "\\N" if i % 7 == 0 else "%d.%02d" % (i // 100, i % 100)
        f.write("%d\t%s\t%s\n" % (i, esc, amount))
        q = '"%s"' % name.replace('"', '""') if any(c in name for c in ',"\n') else name
        g.write("%d,%s,%s\n" % (i, q, "" if i % 7 == 0 else amount))
PYEOF
sql -c "CREATE TABLE t (id INT, name STRING, amount DECIMAL(10,2))" >/dev/null || fail "create t"
out=$(psql -X -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "\\copy t FROM '$T/src.txt'") || fail "\\copy from text"
[ "$out" = "COPY 100000" ] || fail "\\copy from said: $out"
sql -c "\\copy t TO '$T/out.txt'" >/dev/null || fail "\\copy to text"
cmp "$T/src.txt" "$T/out.txt" || fail "text round trip differs"
sql -c "\\copy (SELECT * FROM t ORDER BY id) TO '$T/out.csv' WITH (FORMAT csv, HEADER)" >/dev/null || fail "\\copy to csv"
cmp "$T/src.csv" "$T/out.csv" || fail "csv round trip differs"
sql -c "CREATE TABLE t2 (id INT, name STRING, amount DECIMAL(10,2))" >/dev/null
out=$(psql -X -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "\\copy t2 FROM '$T/src.csv' CSV HEADER") || fail "\\copy from csv"
[ "$out" = "COPY 100000" ] || fail "\\copy from csv said: $out"
n=$(sql -c "SELECT count(*) FROM t2 a JOIN t b ON a.id = b.id WHERE a.name = b.name AND a.amount IS NOT DISTINCT FROM b.amount")
[ "$n" = "100000" ] || fail "csv load differs from text load: $n rows equal"

# ---- psycopg 3 ----
$PY - "$DSN" <<'PYEOF' || fail "psycopg 3 copy"
import sys, decimal, psycopg
with psycopg.connect(sys.argv[1], autocommit=True) as conn:
    cur = conn.cursor()
    cur.execute("CREATE TABLE p3 (id INT, name STRING, amount DECIMAL(10,2))")
    with cur.copy("COPY p3 (id, name, amount) FROM STDIN") as copy:
        for i in range(1000):
            copy.write_row((i, None if i == 5 else "n\t%d" % i, decimal.Decimal("%d.25" % i)))
    assert cur.rowcount == 1000, cur.rowcount
    rows = []
    with cur.copy("COPY (SELECT id, name, amount FROM p3 ORDER BY id) TO STDOUT") as copy:
        copy.set_types(["int4", "text", "numeric"])
        rows = list(copy.rows())
    assert len(rows) == 1000 and rows[5] == (5, None, decimal.Decimal("5.25")), rows[5]
    assert rows[7] == (7, "n\t7", decimal.Decimal("7.25")), rows[7]
    with cur.copy("COPY (SELECT id FROM p3 WHERE id >= %s ORDER BY id) TO STDOUT (FORMAT csv)", (998,)) as copy:
        data = b"".join(bytes(b) for b in copy)
    assert data == b"998\n999\n", data
    try:  # an error in the block: psycopg sends CopyFail
        with cur.copy("COPY p3 FROM STDIN") as copy:
            copy.write_row((1, "x", 1))
            raise RuntimeError("client gives up")
    except psycopg.errors.QueryCanceled as e:
        assert "COPY from stdin failed" in str(e), str(e)
    cur.execute("SELECT count(*) FROM p3")
    assert cur.fetchone()[0] == 1000
print("psycopg 3: ok")
PYEOF

# ---- the extended protocol (libpq through psycopg.pq), statements after a
# COPY in one Query, and a CancelRequest during COPY FROM STDIN ----
$PY - "$DSN" <<'PYEOF' || fail "extended protocol / multi-statement / cancel"
import sys, psycopg
from psycopg import pq
conn = psycopg.connect(sys.argv[1], autocommit=True)
pg, cur = conn.pgconn, conn.cursor()
cur.execute("CREATE TABLE x (a INT, b STRING)")
pg.send_query_params(b"COPY x FROM STDIN", [])          # Parse/Bind/Describe/Execute/Sync
r = pg.get_result()
assert r.status == pq.ExecStatus.COPY_IN, r.status
pg.put_copy_data(b"1\tone\n2\ttwo\n")
pg.put_copy_end()
r = pg.get_result()
assert r.status == pq.ExecStatus.COMMAND_OK and r.command_status == b"COPY 2", (r.status, r.command_status)
assert pg.get_result() is None
pg.send_query_params(b"COPY x FROM STDIN", [])
assert pg.get_result().status == pq.ExecStatus.COPY_IN
pg.put_copy_data(b"3\tthree\nfour\t4\n")
pg.put_copy_end()
r = pg.get_result()
assert r.status == pq.ExecStatus.FATAL_ERROR and r.error_field(pq.DiagnosticField.SQLSTATE) == b"22P02"
assert pg.get_result() is None
# one Query: the statements after the COPY run once it ended
pg.send_query(b"COPY x FROM STDIN; SELECT count(*) FROM x")
assert pg.get_result().status == pq.ExecStatus.COPY_IN
pg.put_copy_data(b"5\tfive\n")
pg.put_copy_end()
assert pg.get_result().command_status == b"COPY 1"
r = pg.get_result()
assert r.status == pq.ExecStatus.TUPLES_OK and r.get_value(0, 0) == b"3", r.get_value(0, 0)
assert pg.get_result() is None
# a cancel ends the COPY with 57014; the client never ends it itself
try:
    with cur.copy("COPY x FROM STDIN") as copy:
        copy.write(b"9\tcancelled\n" * 1000)
        conn.cancel()
        for _ in range(5000):
            copy.write(b"9\tcancelled\n" * 1000)
    raise SystemExit("the COPY was not cancelled")
except psycopg.errors.QueryCanceled as e:
    assert "canceling statement due to user request" in str(e), str(e)
assert cur.execute("SELECT count(*) FROM x").fetchone()[0] == 3
print("extended protocol, multi-statement, cancel: ok")
PYEOF

# ---- psycopg2 copy_expert ----
$PY - "$DSN" <<'PYEOF' || fail "psycopg2 copy_expert"
import io, sys, psycopg2
conn = psycopg2.connect(sys.argv[1])
conn.autocommit = True
cur = conn.cursor()
cur.execute("CREATE TABLE p2 (id INT, name STRING)")
cur.copy_expert("COPY p2 FROM STDIN WITH (FORMAT csv, HEADER)", io.StringIO('id,name\n1,"a,b"\n2,\n3,""\n'))
assert cur.rowcount == 3, cur.rowcount
out = io.StringIO()
cur.copy_expert("COPY p2 TO STDOUT WITH CSV HEADER", out)
assert out.getvalue() == 'id,name\n1,"a,b"\n2,\n3,""\n', out.getvalue()
try:
    cur.copy_expert("COPY p2 FROM STDIN", io.StringIO("4\tok\nfive\tbad\n"))
    raise SystemExit("a bad value was accepted")
except psycopg2.Error as e:
    assert e.pgcode == "22P02", e.pgcode
    assert "COPY p2, line 2, column id" in e.diag.message_detail, e.diag.message_detail
cur.execute("SELECT count(*) FROM p2")
assert cur.fetchone()[0] == 3
print("psycopg2: ok")
PYEOF

# ---- pgjdbc CopyManager ----
cat >"$T/CopyTest.java" <<'JEOF'
import java.io.*;
import java.sql.*;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

public class CopyTest {
    public static void main(String[] a) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + a[0] + "/sluice", "sluice", "")) {
            c.createStatement().execute("CREATE TABLE j (id INT, name STRING)");
            CopyManager cm = c.unwrap(PGConnection.class).getCopyAPI();
            long n = cm.copyIn("COPY j FROM STDIN (FORMAT csv)", new StringReader("1,one\n2,\"t,wo\"\n3,\n"));
            if (n != 3) throw new AssertionError("copyIn " + n);
            StringWriter w = new StringWriter();
            long m = cm.copyOut("COPY (SELECT * FROM j ORDER BY id) TO STDOUT (FORMAT csv)", w);
            if (m != 3 || !w.toString().equals("1,one\n2,\"t,wo\"\n3,\n")) throw new AssertionError("copyOut " + m + " " + w);
            try {
                cm.copyIn("COPY j FROM STDIN", new StringReader("4\tx\ny\tz\n"));
                throw new AssertionError("bad value accepted");
            } catch (SQLException e) {
                if (!"22P02".equals(e.getSQLState())) throw e;
            }
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM j");
            rs.next();
            if (rs.getLong(1) != 3) throw new AssertionError("count " + rs.getLong(1));
            System.out.println("pgjdbc: ok");
        }
    }
}
JEOF
(cd "$T" && javac -cp /usr/share/java/postgresql.jar CopyTest.java && java -cp /usr/share/java/postgresql.jar:. CopyTest "$SL_PORT") || fail "pgjdbc CopyManager"

# ---- COPY FROM in transactions (psql): a block's ROLLBACK undoes it; a
# COPY waits, holding no worker, while another session's write block is
# open, and adds its rows when that one commits; lock_timeout ends the wait ----
answers() { [ "$(timeout 10 psql -X -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c 'SELECT 1')" = 1 ]; }
lock_waits() { grep -c "waits for the table write lock" "$SL_LOG"; }
$PY -c "
with open('$T/tx.txt', 'w') as f:
    for i in range(1, 5001): f.write('%d\trow %d\n' % (i, i))"
sql -c "CREATE TABLE tx (id INT, name STRING)" >/dev/null || fail "create tx"
out=$(sql -f - <<EOF 2>&1
BEGIN;
\\copy tx FROM '$T/tx.txt'
SELECT count(*) FROM tx;
ROLLBACK;
SELECT count(*) FROM tx;
EOF
)
[ "$out" = "$(printf '5000\n0')" ] || fail "COPY in BEGIN ... ROLLBACK: $out"
session_start                                   # a write block holds the lock
session_sql "BEGIN"
session_sql "INSERT INTO tx VALUES (0, 'holder')"
base=$(lock_waits)
pids=()
for i in 1 2 3; do                              # more than the worker threads
    psql -X -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "\\copy tx FROM '$T/tx.txt'" >"$T/copy$i" 2>&1 &
    pids+=($!)
done
wait_for 30 bash -c "[ \$(grep -c 'waits for the table write lock' '$SL_LOG') -ge $((base + 3)) ]" ||
    fail "the COPYs did not wait for the write lock"
answers || fail "SELECT 1 got no answer while 3 COPYs wait"
for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "a COPY did not wait for the block"; done
n=$(sql -c "SELECT count(*) FROM tx")
[ "$n" = "0" ] || fail "rows visible before the block committed: $n"
out=$(PGOPTIONS="-c lock_timeout=200" psql -X -v VERBOSITY=verbose -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice \
      -c "\\copy tx FROM '$T/tx.txt'" 2>&1) && fail "a COPY with lock_timeout did not fail"
case "$out" in *"55P03: canceling statement due to lock timeout"*) ;; *) fail "lock_timeout COPY said: $out" ;; esac
session_sql "COMMIT"
for i in 1 2 3; do
    wait "${pids[$((i - 1))]}" || fail "COPY $i failed: $(cat "$T/copy$i")"
    [ "$(cat "$T/copy$i")" = "COPY 5000" ] || fail "COPY $i said: $(cat "$T/copy$i")"
done
session_end
n=$(sql -c "SELECT count(*) FROM tx")
[ "$n" = "15001" ] || fail "after COMMIT and 3 COPYs tx has $n rows, not 15001"

# ---- COPY FROM in transactions (psycopg 3) ----
$PY - "$DSN" "$SL_LOG" <<'PYEOF' || fail "COPY FROM in transactions (psycopg 3)"
import sys, threading, time, psycopg
from psycopg import pq
dsn, log = sys.argv[1], sys.argv[2]
a = psycopg.connect(dsn, autocommit=True)
other = psycopg.connect(dsn, autocommit=True)
a.execute("CREATE TABLE ct (id INT, name STRING)")
def ids(c=other):
    return [r[0] for r in c.execute("SELECT id FROM ct ORDER BY id").fetchall()]
def copy(c, *rows):
    with c.cursor().copy("COPY ct FROM STDIN") as cp:
        for r in rows:
            cp.write_row((r, "n%d" % r))
def lock_waits():
    with open(log) as f:
        return f.read().count("waits for the table write lock")
def wait_until(what, cond):
    deadline = time.monotonic() + 20
    while not cond():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting: " + what)
        time.sleep(0.05)

# BEGIN / COPY / COMMIT: visible to others only after COMMIT
a.execute("BEGIN")
copy(a, 1, 2, 3)
assert ids(a) == [1, 2, 3], ids(a)
assert ids() == [], ids()
a.execute("COMMIT")
assert ids() == [1, 2, 3], ids()

# SAVEPOINT / COPY / ROLLBACK TO: the COPY after the savepoint is undone
a.execute("BEGIN")
copy(a, 4)
a.execute("SAVEPOINT s")
copy(a, 5, 6)
assert ids(a) == [1, 2, 3, 4, 5, 6], ids(a)
a.execute("ROLLBACK TO SAVEPOINT s")
assert ids(a) == [1, 2, 3, 4], ids(a)
copy(a, 7)
a.execute("COMMIT")
assert ids() == [1, 2, 3, 4, 7], ids()

# a bad record fails the block: its earlier rows and the block's go at ROLLBACK
a.execute("BEGIN")
copy(a, 8)
try:
    with a.cursor().copy("COPY ct FROM STDIN") as cp:
        cp.write(b"9\tnine\nten\tbad\n")
    raise SystemExit("a bad value was accepted")
except psycopg.errors.InvalidTextRepresentation:
    pass
assert a.info.transaction_status == pq.TransactionStatus.INERROR, a.info.transaction_status
try:
    a.execute("SELECT 1")
    raise SystemExit("the failed block ran a statement")
except psycopg.errors.InFailedSqlTransaction:
    pass
a.execute("ROLLBACK")
assert ids() == [1, 2, 3, 4, 7], ids()

# psycopg 3's transaction(): an exception rolls the COPY back; a nested
# transaction() (a savepoint) undoes only its own COPY
try:
    with a.transaction():
        copy(a, 20, 21)
        raise RuntimeError("undo")
except RuntimeError:
    pass
assert ids() == [1, 2, 3, 4, 7], ids()
with a.transaction():
    copy(a, 30)
    try:
        with a.transaction():
            copy(a, 31)
            raise RuntimeError("undo the inner one")
    except RuntimeError:
        pass
    try:  # CopyFail from the client inside a savepoint
        with a.transaction():
            with a.cursor().copy("COPY ct FROM STDIN") as cp:
                cp.write_row((32, "x"))
                raise RuntimeError("give up")
    except psycopg.errors.QueryCanceled as e:  # what psycopg makes of it
        assert "COPY from stdin failed" in str(e), str(e)
assert ids() == [1, 2, 3, 4, 7, 30], ids()

# a COPY waiting for the lock: a cancel ends it with 57014 and adds nothing;
# the extended protocol's COPY waits too and goes ahead at COMMIT
other.execute("BEGIN")
other.execute("INSERT INTO ct VALUES (40, 'holder')")
res = {}
def cancelled():
    try:
        copy(a, 41)
        res["cancel"] = "no error"
    except psycopg.Error as e:
        res["cancel"] = e
base = lock_waits()
t = threading.Thread(target=cancelled)
t.start()
wait_until("the COPY waiting", lambda: lock_waits() > base)
a.cancel()
t.join(10)
assert not t.is_alive(), "the cancel did not end the COPY's wait"
assert isinstance(res["cancel"], psycopg.errors.QueryCanceled), repr(res["cancel"])
ext = psycopg.connect(dsn, autocommit=True)
def extended():
    pg = ext.pgconn
    pg.send_query_params(b"COPY ct FROM STDIN", [])
    r = pg.get_result()
    if r.status != pq.ExecStatus.COPY_IN:
        res["ext"] = r.error_message
        return
    pg.put_copy_data(b"42\tforty-two\n43\tforty-three\n")
    pg.put_copy_end()
    res["ext"] = pg.get_result().command_status
    pg.get_result()
base = lock_waits()
t = threading.Thread(target=extended)
t.start()
wait_until("the extended COPY waiting", lambda: lock_waits() > base)
assert t.is_alive()
assert ids(a) == [1, 2, 3, 4, 7, 30], ids(a)
other.execute("COMMIT")
t.join(20)
assert not t.is_alive(), "the extended COPY still waits after COMMIT"
assert res["ext"] == b"COPY 2", res["ext"]
assert ids(a) == [1, 2, 3, 4, 7, 30, 40, 42, 43], ids(a)
print("COPY FROM in transactions: ok")
PYEOF

# ---- a client that dies in the middle of COPY FROM STDIN ----
sql -c "CREATE TABLE half (id INT, name STRING)" >/dev/null
$PY - "$DSN" <<'PYEOF'
import os, sys, psycopg2
class Dies:
    """Feeds rows, then ends the process with the COPY still open."""
    def __init__(self): self.sent = 0
    def read(self, size=-1):
        if self.sent > 4 * 1024 * 1024:
            os._exit(0)
        chunk = "".join("%d\tpartial row\n" % (self.sent + i) for i in range(2000))
        self.sent += len(chunk)
        return chunk
    readline = read
conn = psycopg2.connect(sys.argv[1])
conn.autocommit = True
conn.cursor().copy_expert("COPY half FROM STDIN", Dies())
PYEOF
n=$(sql -c "SELECT count(*) FROM half") || fail "daemon not serving after a broken COPY FROM"
[ "$n" = "0" ] || fail "a broken COPY FROM added $n rows"

# ---- a client that stops reading a large COPY TO STDOUT ----
got=$(psql -X -q -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "COPY t TO STDOUT" | head -c 100000 | wc -c)
[ "$got" = "100000" ] || fail "large COPY TO read $got bytes"
n=$(sql -c "SELECT count(*) FROM t") || fail "daemon not serving after a broken COPY TO"
[ "$n" = "100000" ] || fail "t has $n rows"
kill -0 "$SL_PID" 2>/dev/null || fail "daemon died"

stop_daemon || status=1
[ $status -eq 0 ] && echo "pg_copy: ok"
exit $status
