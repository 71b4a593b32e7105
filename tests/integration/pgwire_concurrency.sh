#!/usr/bin/env bash
# Many clients at once: 50 concurrent psql sessions each run a few statements
# and all succeed; max_connections refuses the next client with 53300 and
# admits it again once a slot is free; shutdown sends the remaining clients
# 57P01.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
holders=()
trap 'kill "${holders[@]}" 2>/dev/null; stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

start_daemon "$T/many" -c authentication=trust -c max_connections=60 || exit 1
pids=()
for i in $(seq 1 50); do
    sql -c "SHOW STREAMS" -c "CREATE STREAM conc_$i USING rate" -c "SHOW STREAMS" \
        -c "" -c "DROP STREAM conc_$i" >"$T/out_$i" 2>&1 &
    pids+=($!)
done
for i in $(seq 1 50); do
    wait "${pids[$((i - 1))]}" || fail "session $i: $(cat "$T/out_$i")"
    grep -qx "conc_$i|.*\|conc_$i" "$T/out_$i" || fail "session $i did not see its stream: $(cat "$T/out_$i")"
done
[ -z "$(sql -c 'SHOW STREAMS' | grep conc_)" ] || fail "streams left behind"
stop_daemon || fail "stop after 50 sessions"

start_daemon "$T/limit" -c authentication=trust -c max_connections=3 || exit 1
for i in 1 2 3; do
    "$O/tools/pg_hostile" 127.0.0.1 "$SL_PORT" hold >"$T/hold_$i" 2>&1 &
    holders+=($!)
done
for i in 1 2 3; do wait_for 20 grep -q ready "$T/hold_$i" || fail "holder $i did not log in"; done
out=$(sql -c "SHOW STREAMS" 2>&1) && fail "a 4th client was admitted"
echo "$out" | grep -q "FATAL:  sorry, too many clients already" || fail "unexpected refusal: $out"
kill "${holders[0]}"
wait_for 20 sql -c "SHOW STREAMS" || fail "a freed slot was not reused"
stop_daemon || fail "stop with clients connected"
for i in 2 3; do
    wait_for 20 grep -q "closed sqlstate=57P01" "$T/hold_$i" || fail "holder $i: $(cat "$T/hold_$i")"
done
[ $status -eq 0 ] && echo "pgwire_concurrency: ok"
exit $status
