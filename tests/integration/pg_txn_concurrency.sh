#!/usr/bin/env bash
# Concurrent write transactions on static tables: one block writes at a
# time, and sessions waiting for the write lock hold no worker thread.
# pgbench runs BEGIN/INSERT/COMMIT and BEGIN/INSERT/INSERT/COMMIT with 8
# clients (more than the default worker threads) in simple, extended and
# prepared modes: every transaction completes, the table holds exactly the
# rows inserted, and a new connection's SELECT 1 answers meanwhile. With
# one block holding the lock and more writers waiting than workers
# (psycopg2): the daemon keeps serving; lock_timeout ends a wait with
# 55P03, statement_timeout and a cancel with 57014, a client disconnects
# while it waits; after COMMIT the others go ahead. Shutting down with
# writers waiting ends them (57P01) and the daemon exits cleanly.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust -c log_level=debug || exit 1
DSN="host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice"
status=0
fail() { echo "FAIL $*"; status=1; }
rows() { sql -c "SELECT count(*) FROM t"; }
answers() { [ "$(timeout 10 psql -X -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c 'SELECT 1')" = 1 ]; }
# statements that began waiting for the write lock, per the daemon's log
lock_waits() { grep -c "waits for the table write lock" "$SL_LOG"; }

sql -c "CREATE TABLE t (id INT)" || exit 1
printf 'BEGIN;\nINSERT INTO t VALUES (1);\nCOMMIT;\n' >"$T/one.sql"
printf 'BEGIN;\nINSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\nCOMMIT;\n' >"$T/two.sql"

# bench SCRIPT MODE ROWS_PER_TRANSACTION
bench() {
    local before; before=$(rows)
    local waits; waits=$(lock_waits)
    timeout 60 pgbench -n -M "$2" -c 8 -j 2 -t 50 -f "$T/$1.sql" -h 127.0.0.1 -p "$SL_PORT" \
        -U sluice sluice >"$T/bench" 2>&1 &
    local pid=$!
    # a new connection is served while the writers contend
    wait_for 30 bash -c "[ \$(grep -c 'waits for the table write lock' '$SL_LOG') -gt $waits ] || ! kill -0 $pid"
    answers || fail "$1/$2: SELECT 1 got no answer while 8 writers contend"
    wait $pid || { fail "$1/$2: pgbench failed or hung"; cat "$T/bench"; return; }
    grep -q "number of transactions actually processed: 400/400" "$T/bench" ||
        { fail "$1/$2: not every transaction was processed"; cat "$T/bench"; return; }
    local after; after=$(rows)
    [ "$after" -eq $((before + 400 * $3)) ] || { fail "$1/$2: $before rows became $after, not +$((400 * $3))"; return; }
    echo "ok   pgbench $1 $2: 400/400 transactions, +$((400 * $3)) rows, SELECT 1 served"
}
for mode in simple extended prepared; do
    bench one "$mode" 1
    bench two "$mode" 2
done
answers || fail "the daemon stopped answering after the runs"

cat >"$T/waits.py" <<'EOF'
import os, subprocess, sys, threading, time
import psycopg2, psycopg2.errors
dsn, log = sys.argv[1], sys.argv[2]

def lock_waits():
    with open(log) as f:
        return f.read().count("waits for the table write lock")

def wait_until(what, cond, seconds=20):
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting: " + what)
        time.sleep(0.05)

def answers():
    out = subprocess.run(["psql", "-X", "-A", "-t", dsn, "-c", "SELECT 1"], capture_output=True,
                         text=True, timeout=10)
    return out.stdout.strip() == "1"

def connect():
    c = psycopg2.connect(dsn)
    c.autocommit = True
    return c

setup = connect()
setup.cursor().execute("CREATE TABLE t2 (id INT)")
holder = psycopg2.connect(dsn)             # a block that changed rows holds the lock
holder.cursor().execute("INSERT INTO t2 VALUES (1)")

class Writer(threading.Thread):
    def __init__(self, value, setting=None):
        super().__init__()
        self.conn, self.value, self.error = connect(), value, None
        if setting:
            self.conn.cursor().execute(setting)
    def run(self):
        try:
            self.conn.cursor().execute("INSERT INTO t2 VALUES (%s)", (self.value,))
        except psycopg2.Error as e:
            self.error = e

base = lock_waits()
writers = [Writer(10 + i) for i in range(6)]    # more than the worker threads
for w in writers:
    w.start()
wait_until("6 writers waiting", lambda: lock_waits() >= base + 6)
assert answers(), "SELECT 1 got no answer while 6 writers wait"
assert all(w.is_alive() for w in writers)

# lock_timeout: 55P03 while the daemon keeps serving
lt = Writer(90, "SET lock_timeout = '200ms'")
t0 = time.monotonic()
lt.start()
lt.join(10)
assert not lt.is_alive(), "lock_timeout did not end the wait"
assert isinstance(lt.error, psycopg2.errors.LockNotAvailable), repr(lt.error)
assert lt.error.pgcode == "55P03" and "lock timeout" in str(lt.error), str(lt.error)
assert time.monotonic() - t0 >= 0.2
# in a block, the error fails the block
blk = psycopg2.connect(dsn)
bcur = blk.cursor()
bcur.execute("SET lock_timeout = '100ms'")
try:
    bcur.execute("INSERT INTO t2 VALUES (91)")
    raise SystemExit("a block's INSERT did not time out")
except psycopg2.errors.LockNotAvailable:
    pass
try:
    bcur.execute("SELECT 1")
    raise SystemExit("the block did not fail")
except psycopg2.errors.InFailedSqlTransaction:
    blk.rollback()
blk.close()

# statement_timeout: 57014
st = Writer(92, "SET statement_timeout = '300ms'")
st.start()
st.join(10)
assert not st.is_alive(), "statement_timeout did not end the wait"
assert isinstance(st.error, psycopg2.errors.QueryCanceled), repr(st.error)
assert "statement timeout" in str(st.error), str(st.error)

# a cancel request: 57014, the others keep waiting
writers[0].conn.cancel()
writers[0].join(10)
assert not writers[0].is_alive(), "the cancel did not end the wait"
assert isinstance(writers[0].error, psycopg2.errors.QueryCanceled), repr(writers[0].error)
assert "user request" in str(writers[0].error), str(writers[0].error)
assert all(w.is_alive() for w in writers[1:])

# a client that disconnects while it waits: as PostgreSQL (without
# client_connection_check_interval), the session notices when it answers,
# after its statement ran
base = lock_waits()
gone = subprocess.Popen(["psql", "-X", dsn, "-c", "INSERT INTO t2 VALUES (93)"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wait_until("the disconnecting writer waiting", lambda: lock_waits() >= base + 1)
gone.kill()
gone.wait()
assert answers(), "SELECT 1 got no answer after a waiting client left"

holder.commit()                             # the waiters go ahead
for w in writers[1:]:
    w.join(20)
    assert not w.is_alive(), "a writer still waits after COMMIT"
    assert w.error is None, repr(w.error)
cur = setup.cursor()
# the departed client's INSERT runs once its turn at the lock comes, which
# may be after the writers above have answered: wait for it by its row
def t2_ids():
    cur.execute("SELECT id FROM t2 ORDER BY id")
    return [r[0] for r in cur.fetchall()]
wait_until("the departed client's INSERT", lambda: 93 in t2_ids())
got = t2_ids()
assert got == [1, 11, 12, 13, 14, 15, 93], got
assert answers()
# the lock is free again for anyone
cur.execute("INSERT INTO t2 VALUES (2)")
cur.execute("SELECT count(*) FROM t2")
assert cur.fetchone()[0] == 8
EOF
cat >"$T/shutdown.py" <<'EOF'
import os, signal, sys, threading, time
import psycopg2
dsn, log, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
def lock_waits():
    with open(log) as f:
        return f.read().count("waits for the table write lock")
holder = psycopg2.connect(dsn)
holder.cursor().execute("INSERT INTO t2 VALUES (3)")
errors = []
def write():
    c = psycopg2.connect(dsn)
    c.autocommit = True
    try:
        c.cursor().execute("INSERT INTO t2 VALUES (4)")
        errors.append(None)
    except psycopg2.Error as e:
        errors.append(e)
base = lock_waits()
threads = [threading.Thread(target=write) for _ in range(4)]
for t in threads:
    t.start()
deadline = time.monotonic() + 20
while lock_waits() < base + 4:
    assert time.monotonic() < deadline, "the writers did not wait"
    time.sleep(0.05)
os.kill(pid, signal.SIGTERM)
for t in threads:
    t.join(20)
    assert not t.is_alive(), "a waiting writer outlived the shutdown"
assert len(errors) == 4 and all(isinstance(e, psycopg2.OperationalError) for e in errors), errors
EOF
if /usr/bin/python3 "$T/waits.py" "$DSN" "$SL_LOG" >"$T/out" 2>&1; then
    echo "ok   waiting writers hold no worker: lock_timeout 55P03, statement_timeout and cancel 57014, a disconnect, COMMIT lets the rest in"
else
    fail "waiting writers"; cat "$T/out"
fi
answers || fail "the daemon stopped answering"
if /usr/bin/python3 "$T/shutdown.py" "$DSN" "$SL_LOG" "$SL_PID" >"$T/out" 2>&1; then
    echo "ok   shutdown with writers waiting ends them"
else
    fail "shutdown with writers waiting"; cat "$T/out"
fi
# the script's SIGTERM started the shutdown: the daemon exits with 0
wait_for 20 bash -c "! kill -0 $SL_PID" || fail "the daemon did not stop with writers waiting"
wait "$SL_PID"; rc=$?
SL_PID=""
[ $rc -eq 0 ] || fail "the daemon exited with status $rc after a shutdown with writers waiting"

[ $status -eq 0 ] && echo "pg_txn_concurrency: ok"
exit $status
