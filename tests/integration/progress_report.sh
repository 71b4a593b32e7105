#!/usr/bin/env bash
# The last progress report right after a batch is that batch's, as in Spark:
# an executed batch restarts the 10-second idle-report interval, so the idle
# trigger that follows it does not replace its report with an idle one
# (batchId N + 1, 0 rows). One snapshot of GET /api/v1/queries/{name} holds
# lastBatchId, isDataAvailable and lastProgress together: once it shows
# batch 0 committed and no data available (an idle trigger has run since),
# its lastProgress must still be batch 0 with its 3 rows.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-progress-XXXXXX)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/doc" ] && cat "$work/doc"; echo; tail -n 20 "$work/log"; exit 1; }

mkdir -p "$work/in"
printf '{"n":1}\n{"n":2}\n{"n":3}\n' > "$work/in/.a" && mv "$work/in/.a" "$work/in/a.json"
start_daemon "$work" || fail "start"
H="http://127.0.0.1:$SL_HTTP_PORT"
sql -c "CREATE STREAM nums (n INT) USING file OPTIONS (path '$work/in', format 'json')" >/dev/null || fail "stream"
sql -c "CREATE QUERY q AS SELECT n FROM nums" >/dev/null || fail "create q"

# idle_after_batch0 : the query's document shows batch 0 committed and an
# idle trigger since (isDataAvailable false); it is left in $work/doc.
idle_after_batch0() {
    curl -sf "$H/api/v1/queries/q" > "$work/doc" || return 1
    grep -q '"isDataAvailable":false' "$work/doc" && grep -q '"lastBatchId":0,' "$work/doc"
}
wait_for 30 idle_after_batch0 || fail "no idle trigger after batch 0"
progress=$(sed -n 's/.*"lastProgress":\(.*\)}$/\1/p' "$work/doc")
grep -q '"batchId":0,' <<<"$progress" || fail "the last report after batch 0 is not batch 0's: $progress"
grep -q '"numInputRows":3,' <<<"$progress" || fail "the last report after batch 0 does not count its 3 rows"
echo "ok   the report of batch 0 stays the last one after the idle trigger that follows it"

# and an idle query still reports (batchId 1, 0 rows) once 10 s pass with no batch
idle_report() {
    curl -sf "$H/api/v1/queries/q/progress" > "$work/doc" &&
        grep -q '"batchId":1,' "$work/doc" && grep -q '"numInputRows":0,' "$work/doc"
}
wait_for 30 idle_report || fail "no idle report after 10 s without a batch"
echo "ok   an idle report follows once the interval passes without a batch"
stop_daemon || fail "stop"
