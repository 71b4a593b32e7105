#!/usr/bin/env bash
# Every file in configs/examples/ runs without an error against a fresh
# daemon; the demo, loaded as the startup file (as `make run` does), starts
# its queries, survives a restart (it is idempotent) and they produce rows;
# the README's tour runs twice in a row with the same result.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-ex-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; tail -n 20 "$work"/*/log 2>/dev/null; exit 1; }

for f in configs/examples/*.sql; do
    name=$(basename "$f" .sql)
    start_daemon "$work/$name" || fail "daemon for $name"
    sql -f "$f" >"$work/$name.out" 2>&1 || { cat "$work/$name.out"; fail "$f failed"; }
    grep -q ERROR "$work/$name.out" && fail "$f printed an error"
    stop_daemon || fail "stop after $name"
    echo "ok   $f"
done
grep -q '2024-05-01 12:00:00|spring sale|1' "$work/clickstream.out" || fail "clickstream result"
grep -q '^u1|2024-05-01 12:00:00|2024-05-01 12:20:00|3|/|/signup$' "$work/sessions.out" || fail "sessions result"
[ "$(grep -c '^u[0-9]|' "$work/sessions.out")" = 3 ] || fail "sessions: want 3 final sessions"

# the demo as the startup file, twice (restart): no error, queries ACTIVE and producing
for run in 1 2; do
    start_daemon "$work/demo-startup" -c startup_file=configs/examples/demo.sql || fail "demo start $run"
    wait_for 20 grep -q "startup: configs/examples/demo.sql: 3 statement(s) done" "$work/demo-startup/log" \
        || fail "startup file did not finish (run $run)"
    grep -q "startup.*failed" "$work/demo-startup/log" && fail "startup statement failed"
    sql -c "AWAIT QUERY demo_by_residue TIMEOUT '30 seconds'" >/dev/null || fail "AWAIT demo"
    wait_for 30 bash -c "[ \$(psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SELECT count(*) FROM demo_by_residue') = 5 ]" \
        || fail "demo_by_residue produced no rows"
    sql -c "SHOW QUERIES" > "$work/queries"
    [ "$(grep -c "|ACTIVE|" "$work/queries")" = 2 ] || { cat "$work/queries"; fail "demo queries not ACTIVE"; }
    stop_daemon || fail "demo stop $run"
    : > "$work/demo-startup/log.old"; cat "$work/demo-startup/log" >> "$work/demo-startup/log.old"; : > "$work/demo-startup/log"
done
# the README's tour, twice in one daemon (with the demo loaded): each run
# has the one error the tour shows on purpose (the refused EXPLAIN) and the
# same final 12:00 window
mkdir -p "$work/tour"
sed -n '/^```sql$/,/^```$/p' README.md | sed '/^```/d; s|/tmp/orders|'"$work"'/orders|g' > "$work/tour/tour.sql"
grep -q "CREATE QUERY revenue" "$work/tour/tour.sql" || fail "no tour in README.md"
start_daemon "$work/tour" -c startup_file=configs/examples/demo.sql || fail "tour daemon"
wait_for 20 grep -q "startup: configs/examples/demo.sql: 3 statement(s) done" "$work/tour/log" || fail "tour: demo not loaded"
for run in 1 2; do
    sql -v ON_ERROR_STOP=0 -f "$work/tour/tour.sql" >"$work/tour/out$run" 2>&1
    [ "$(grep -c ERROR "$work/tour/out$run")" = 1 ] || { cat "$work/tour/out$run"; fail "tour run $run: errors besides the refused EXPLAIN"; }
    grep -q 'ERROR:  append output mode' "$work/tour/out$run" || { cat "$work/tour/out$run"; fail "tour run $run: the EXPLAIN was not the error"; }
    grep -q '^2024-05-01 12:00:00|fruit|2.50$' "$work/tour/out$run" || { cat "$work/tour/out$run"; fail "tour run $run: no final 12:00 window"; }
    echo "ok   README tour, run $run"
done
stop_daemon || fail "tour stop"
echo "examples: all checks passed"
