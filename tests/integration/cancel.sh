#!/usr/bin/env bash
# Query cancellation with a real client: psql sends a CancelRequest on
# SIGINT; the running statement (pg_sleep, AWAIT QUERY) ends with 57014 and
# the session and daemon stay usable.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-cancel-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; tail -n 20 "$work/log"; exit 1; }
start_daemon "$work" || fail "start"

# cancel_during SQL: runs SQL in psql, interrupts it once it is running, and
# checks psql reports the cancellation promptly.
cancel_during() {
    psql -X -v VERBOSITY=verbose -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "$1" >"$work/out" 2>&1 &
    local pid=$!
    # wait until the statement is running: its session shows in the daemon as busy
    wait_for 10 bash -c "ss -tn state established '( dport = :$SL_PORT )' | grep -q $SL_PORT" || { cat "$work/out"; fail "psql did not connect"; }
    local t0=$SECONDS
    while kill -0 $pid 2>/dev/null; do
        kill -INT $pid 2>/dev/null
        [ $((SECONDS - t0)) -gt 15 ] && { kill -9 $pid; fail "psql still running 15 s after SIGINT: $1"; }
        sleep 0.2 # resend: the first SIGINT may arrive before the query was sent
    done
    grep -q "57014" "$work/out" || { cat "$work/out"; fail "no 57014 for: $1"; }
}

cancel_during "SELECT pg_sleep(60)"
echo "ok   pg_sleep cancelled"
# a query whose first batches take seconds (5 s for each of the values 0..2):
# once it has data, AWAIT on it waits for a whole new trigger, and is cancelled
sql -c "CREATE STREAM r USING rate OPTIONS (rowsPerSecond '1')" >/dev/null
sql -c "CREATE QUERY slow AS SELECT value, CASE WHEN value < 3 THEN pg_sleep(5) END AS z FROM r" >/dev/null
wait_for 20 bash -c "psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SHOW RECENT PROGRESS slow' | grep -q '\"numInputRows\":[1-9]'" \
    || fail "slow query made no progress"
cancel_during "AWAIT QUERY slow"
echo "ok   AWAIT QUERY cancelled"
[ "$(sql -c 'SELECT 41 + 1')" = 42 ] || fail "daemon unusable after cancel"
echo "ok   daemon usable after cancellation"
stop_daemon || fail "stop"
echo "cancel: all checks passed"
