#!/usr/bin/env bash
# Connection teardown after bound parameters (issue 12's crash: the daemon
# died when a connection whose last statement had a bind parameter
# disconnected). The reproducers — pgbench with a bound variable in
# extended, prepared and simple mode, psycopg 3 and psycopg2 closing after a
# parameterized statement — each followed by a check that the daemon still
# answers a new connection with the right result; the daemon must log no
# crash and stop cleanly (exit status 0) at the end. The other teardown
# shapes: pg_extended (pgwire_extended.sh) and pg_hostile's teardown and
# backpressure scenarios (pgwire_hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust || exit 1
status=0

# still_serving AFTER: a new connection runs a statement and gets 42.
still_serving() {
    local got
    got=$(sql -c 'SELECT 41 + 1' 2>&1)
    if [ "$got" != 42 ] || ! kill -0 "$SL_PID" 2>/dev/null; then
        echo "FAIL: after $1 the daemon answers \"$got\""; status=1
    fi
}

echo 'SELECT 1 + :x;' >"$T/bench.sql"
for mode in extended prepared simple; do
    out=$(pgbench -n -M "$mode" -t 5 -D x=1 -f "$T/bench.sql" -h 127.0.0.1 -p "$SL_PORT" -U sluice sluice 2>&1)
    if ! grep -q 'number of transactions actually processed: 5/5' <<<"$out"; then
        echo "FAIL: pgbench -M $mode"; echo "$out"; status=1
    fi
    still_serving "pgbench -M $mode"
done

for driver in psycopg psycopg2; do
    got=$(/usr/bin/python3 - "$SL_PORT" "$driver" <<'PY'
import sys, importlib
port, name = int(sys.argv[1]), sys.argv[2]
mod = importlib.import_module(name)
conn = mod.connect(host="127.0.0.1", port=port, user="sluice", dbname="sluice")
cur = conn.cursor()
cur.execute("SELECT %s || 'y'", ("x",))
print(cur.fetchone()[0])
conn.close()
PY
)
    [ "$got" = xy ] || { echo "FAIL: $driver answered \"$got\""; status=1; }
    still_serving "$driver closing after a bound parameter"
done

if grep -q 'FATAL crash' "$T/log"; then echo "FAIL: the daemon logged a crash"; status=1; fi
stop_daemon || status=1
[ $status -eq 0 ] && echo "pgwire_teardown: ok"
exit $status
