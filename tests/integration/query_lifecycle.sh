#!/usr/bin/env bash
# Query lifecycle: progress in Spark's shape, a query id stable across
# STOP/START and daemon restarts while the run id changes, ACTIVE queries
# resuming after SIGTERM and kill -9, STOPPED ones staying stopped, and a
# query FAILED by a bad sink path leaving the daemon and other queries
# running, and STOP abandoning a batch that is computing (run again at START).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-life-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; tail -n 30 "$work/log"; sql -c "SHOW RECENT PROGRESS win" | cut -c1-400; exit 1; }
shape=${O}/tools/json_shape
[ -x "$shape" ] || fail "missing $shape (make builds the test tools)"

drop_file() { # drop_file NAME MINUTE: three events in that minute of 2024-05-01 12:MM
    printf '{"k":"a","t":"2024-05-01 12:%02d:05"}\n{"k":"b","t":"2024-05-01 12:%02d:10"}\n{"k":"a","t":"2024-05-01 12:%02d:20"}\n' \
        "$2" "$2" "$2" > "$work/in/.$1"
    mv "$work/in/.$1" "$work/in/$1"
}
field() { sql -c "SELECT 1" >/dev/null; sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" -v c="$2" '$1 == q { print $c }'; }

mkdir -p "$work/in"
start_daemon "$work" || fail "start"
sql <<SQL || fail "setup"
CREATE STREAM ev (k STRING, t TIMESTAMP) USING file OPTIONS (path '$work/in', format 'json')
  WATERMARK t DELAY OF INTERVAL '10 seconds';
CREATE QUERY win AS SELECT window.start AS m, k, count(*) AS n FROM ev GROUP BY window(t, '1 minute'), k;
CREATE QUERY copy AS SELECT k, t FROM ev;
CREATE QUERY bad SINK file OPTIONS (path '/proc/sluice-no-such-dir/out') AS SELECT k FROM ev;
SQL
drop_file f1 0
drop_file f2 1
sql -c "AWAIT QUERY win TIMEOUT '30 seconds'" >/dev/null || fail "AWAIT win"

# 1. the first batch's progress has Spark's field names, order and types
first=$(sql -c "SHOW RECENT PROGRESS win" | grep -m 1 '"numInputRows":[1-9]')
printf '%s' "$first" | "$shape" > "$work/shape" || fail "progress is not JSON: $first"
cat > "$work/want" <<'SHAPE'
id string
runId string
name string
timestamp string
batchId integer
batchDuration integer
numInputRows integer
inputRowsPerSecond double
processedRowsPerSecond double
durationMs object
durationMs.addBatch integer
durationMs.commitOffsets integer
durationMs.getBatch integer
durationMs.latestOffset integer
durationMs.queryPlanning integer
durationMs.triggerExecution integer
durationMs.walCommit integer
eventTime object
eventTime.avg string
eventTime.max string
eventTime.min string
eventTime.watermark string
stateOperators array
stateOperators[0] object
stateOperators[0].operatorName string
stateOperators[0].numRowsTotal integer
stateOperators[0].numRowsUpdated integer
stateOperators[0].allUpdatesTimeMs integer
stateOperators[0].numRowsRemoved integer
stateOperators[0].allRemovalsTimeMs integer
stateOperators[0].commitTimeMs integer
stateOperators[0].memoryUsedBytes integer
stateOperators[0].numRowsDroppedByWatermark integer
stateOperators[0].numShufflePartitions integer
stateOperators[0].numStateStoreInstances integer
sources array
sources[0] object
sources[0].description string
sources[0].startOffset null
sources[0].endOffset object
sources[0].endOffset.logOffset integer
sources[0].latestOffset null
sources[0].numInputRows integer
sources[0].inputRowsPerSecond double
sources[0].processedRowsPerSecond double
sink object
sink.description string
sink.numOutputRows integer
SHAPE
grep -v customMetrics "$work/shape" | diff -u "$work/want" - || fail "progress shape differs from Spark's"
case "$first" in *'"name":"win"'*'"batchId":0,'*'"eventTime":{"avg":"2024-05-01T12:0'*'"watermark":"1970-01-01T00:00:00.000Z"}'*'"operatorName":"stateStoreSave"'*) ;;
  *) fail "first progress values: $first" ;; esac
echo "ok   progress JSON has Spark's shape"

# 2. a query with a bad sink path fails alone; the daemon and the others go on
wait_for 20 bash -c "$(declare -f sql field); SL_PORT=$SL_PORT; [ \"\$(field bad 3)\" = FAILED ]" || fail "bad did not fail"
err=$(field bad 8)
case "$err" in *sluice-no-such-dir*) ;; *) fail "last_error does not name the path: $err" ;; esac
[ "$(field win 3)" = ACTIVE ] && [ "$(field copy 3)" = ACTIVE ] || fail "other queries stopped"
drop_file f3 2
sql -c "AWAIT QUERY copy TIMEOUT '30 seconds'" >/dev/null || fail "AWAIT copy"
[ "$(sql -c 'SELECT count(*) FROM copy')" = 9 ] || fail "copy did not process the new file"
# windows are emitted once each, when final: minutes 0 and 1 (watermark 12:02:10)
sql -c "AWAIT QUERY win TIMEOUT '30 seconds'" >/dev/null || fail "AWAIT win"
got=$(sql -c "SELECT count(*), sum(n) FROM win")
[ "$got" = "4|6" ] || fail "window output: $got"
echo "ok   a failed query leaves the daemon and other queries running"

# 3. the id is stable across STOP/START and restarts; each start has a new run id
id0=$(field win 2)
run_of() { sql -c "SHOW PROGRESS win" | sed -n 's/.*"runId":"\([^"]*\)".*/\1/p'; }
run0=$(run_of)
sql -c "STOP QUERY win" >/dev/null && [ "$(field win 3)" = STOPPED ] || fail "STOP"
sql -c "START QUERY win" >/dev/null && sql -c "AWAIT QUERY win TIMEOUT '30 seconds'" >/dev/null || fail "START"
run1=$(run_of)
[ "$(field win 2)" = "$id0" ] || fail "id changed across STOP/START"
[ -n "$run1" ] && [ "$run1" != "$run0" ] || fail "runId did not change across STOP/START"
sql -c "STOP QUERY copy" >/dev/null
stop_daemon || fail "SIGTERM stop"
start_daemon "$work" || fail "restart"
wait_for 20 bash -c "$(declare -f sql field); SL_PORT=$SL_PORT; [ \"\$(field win 3)\" = ACTIVE ]" || fail "win not resumed"
[ "$(field copy 3)" = STOPPED ] || fail "a stopped query was resumed"
sql -c "SHOW STREAMS" | grep -q "^ev|file|k STRING, t TIMESTAMP|t, delay 00:00:10|" || fail "stream lost across restart"
[ "$(field bad 3)" = FAILED ] || fail "a failed query was resumed"
drop_file f4 3
sql -c "AWAIT QUERY win TIMEOUT '30 seconds'" >/dev/null || fail "AWAIT after restart"
run2=$(run_of)
[ "$(field win 2)" = "$id0" ] && [ "$run2" != "$run1" ] || fail "id/runId after restart"
kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
start_daemon "$work" || fail "restart after kill -9"
wait_for 20 bash -c "$(declare -f sql field); SL_PORT=$SL_PORT; [ \"\$(field win 3)\" = ACTIVE ]" || fail "win not resumed after kill -9"
[ "$(field win 2)" = "$id0" ] || fail "id changed after kill -9"
echo "ok   id stable, runId new per start; ACTIVE queries resume after SIGTERM and kill -9"

# STOP abandons a batch that is computing: the batch naps 60 s per row (the
# nap's length comes from a table, so the rerun can be quick); STOP returns
# at once, the query is STOPPED (not FAILED), offsets/0 is logged and not
# committed, and START runs the same batch again: each row exactly once.
mkdir -p "$work/naps_in"
for i in 1 2 3; do echo "{\"a\": $i}" >"$work/naps_in/f$i.json"; done
sql <<SQL || fail "nap setup"
CREATE TABLE naps (s DOUBLE);
INSERT INTO naps VALUES (60);
CREATE STREAM napev (a INT) USING file OPTIONS (path '$work/naps_in', format 'json');
CREATE QUERY nap SINK memory AS SELECT e.a, pg_sleep(n.s) AS z FROM napev e CROSS JOIN naps n;
SQL
napck="$work/data/checkpoints/nap"
wait_for 20 test -f "$napck/offsets/0" || fail "the nap batch did not start"
t0=$SECONDS
sql -c "STOP QUERY nap" >/dev/null || fail "STOP QUERY nap"
[ $((SECONDS - t0)) -lt 10 ] || fail "STOP waited $((SECONDS - t0)) s for the batch"
[ "$(field nap 3)" = STOPPED ] || fail "nap is $(field nap 3) after STOP, not STOPPED"
[ ! -e "$napck/commits/0" ] || fail "the abandoned batch was committed"
grep -q "query=nap batch abandoned by the stop" "$work/log" || fail "no log line for the abandoned batch"
sql -c "DELETE FROM naps" -c "INSERT INTO naps VALUES (0)" -c "START QUERY nap" \
    -c "AWAIT QUERY nap TIMEOUT '30 seconds'" >/dev/null || fail "restart nap"
[ "$(sql -c "SELECT a FROM nap ORDER BY a" | paste -sd,)" = "1,2,3" ] ||
    fail "after the rerun: $(sql -c "SELECT a FROM nap ORDER BY a" | tr '\n' ' ')"
[ -e "$napck/commits/0" ] || fail "the rerun did not commit batch 0"
echo "ok   STOP abandons a computing batch at once (STOPPED, not committed); START reruns it: 1,2,3 once"

stop_daemon || fail "final stop"
echo "query lifecycle: all checks passed"
