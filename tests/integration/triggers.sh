#!/usr/bin/env bash
# sluice-test: exclusive (measures timing: runs alone)
# Triggers: ONCE runs one batch then FINISHED; AVAILABLE NOW takes what is
# there in rate-limited batches then FINISHED, and START runs it again over
# new data; PROCESSING TIME starts batches at multiples of the interval;
# CONTINUOUS moves rows without per-batch logs and checkpoints an epoch per
# interval; idle queries cost (almost) no CPU.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-trig-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; tail -n 20 "$work/log"; exit 1; }
status() { sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" '$1 == q { print $3 }'; }
drop() { printf '{"n":%d}\n' $(seq "$2" "$3") > "$work/in/.$1"; mv "$work/in/.$1" "$work/in/$1"; }

mkdir -p "$work/in"
start_daemon "$work" || fail "start"
sql -c "CREATE STREAM nums (n INT) USING file OPTIONS (path '$work/in', format 'json', maxFilesPerTrigger '1')" >/dev/null || fail "stream"
for i in 1 2 3; do drop "f$i.json" $(( (i - 1) * 10 + 1 )) $(( i * 10 )); done

# ONCE: exactly one batch, reading everything (read limits ignored), then FINISHED
sql -c "CREATE QUERY once TRIGGER ONCE AS SELECT n FROM nums" >/dev/null || fail "create once"
sql -c "AWAIT QUERY once TIMEOUT '30 seconds'" >/dev/null || fail "await once"
wait_for 10 bash -c "$(declare -f sql status); SL_PORT=$SL_PORT; [ \"\$(status once)\" = FINISHED ]" || fail "once not FINISHED"
[ "$(sql -c 'SELECT count(*) FROM once')" = 30 ] || fail "once read $(sql -c 'SELECT count(*) FROM once') rows"
[ "$(sql -c 'SHOW RECENT PROGRESS once' | grep -c '"numInputRows":30')" = 1 ] || fail "once did not run one batch of 30 rows"
echo "ok   ONCE"

# AVAILABLE NOW: one file per batch (maxFilesPerTrigger), then FINISHED; START picks up new files
sql -c "CREATE QUERY avail TRIGGER AVAILABLE NOW AS SELECT n FROM nums" >/dev/null || fail "create avail"
sql -c "AWAIT QUERY avail TIMEOUT '30 seconds'" >/dev/null || fail "await avail"
wait_for 10 bash -c "$(declare -f sql status); SL_PORT=$SL_PORT; [ \"\$(status avail)\" = FINISHED ]" || fail "avail not FINISHED"
[ "$(sql -c 'SHOW RECENT PROGRESS avail' | grep -c '"numInputRows":10,')" = 3 ] || fail "avail did not run 3 batches of 10"
drop f4.json 31 40
sql -c "START QUERY avail" >/dev/null && sql -c "AWAIT QUERY avail TIMEOUT '30 seconds'" >/dev/null || fail "restart avail"
wait_for 10 bash -c "$(declare -f sql status); SL_PORT=$SL_PORT; [ \"\$(status avail)\" = FINISHED ]" || fail "avail not FINISHED again"
[ "$(sql -c 'SELECT count(*), count(DISTINCT n) FROM avail')" = "40|40" ] || fail "avail rows after START"
echo "ok   AVAILABLE NOW"

# PROCESSING TIME: triggers start at multiples of the interval
sql -c "CREATE QUERY paced TRIGGER PROCESSING TIME '500 milliseconds' AS SELECT n FROM nums" >/dev/null || fail "paced"
wait_for 20 bash -c "[ \$(psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SHOW RECENT PROGRESS paced' | wc -l) -ge 4 ]" || fail "paced made no progress"
# (the first trigger starts at once, as in Spark; the later ones are aligned)
sql -c "SHOW RECENT PROGRESS paced" | tail -n +2 | sed -n 's/.*"timestamp":"[^"]*:\([0-9][0-9]\)\.\([0-9]\)\([0-9][0-9]\)Z".*/\2\3/p' > "$work/ms"
# trigger start times (ms within the second) must sit just after 000 or 500
awk '{ m = $1 % 500; if (m > 150) bad++ } END { exit bad ? 1 : 0 }' "$work/ms" || { cat "$work/ms"; fail "triggers not aligned to 500 ms"; }
echo "ok   PROCESSING TIME"

# CONTINUOUS: rows arrive within the epoch; each epoch leaves offsets/E and commits/E
sql -c "CREATE STREAM r USING rate OPTIONS (rowsPerSecond '200')" >/dev/null || fail "rate"
sql -c "CREATE QUERY cont TRIGGER CONTINUOUS '300 milliseconds' AS SELECT value FROM r WHERE value % 2 = 0" >/dev/null || fail "cont"
wait_for 20 bash -c "[ \$(psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SELECT count(*) FROM cont') -ge 200 ]" || fail "continuous produced no rows"
ck="$work/data/checkpoints/cont"
[ -f "$ck/offsets/1" ] && [ -f "$ck/commits/1" ] || fail "continuous epochs not checkpointed"
[ "$(sql -c 'SELECT count(*) - count(DISTINCT value) FROM cont')" = 0 ] || fail "continuous duplicated rows within a run"
sql -c "SHOW RECENT PROGRESS cont" | grep -q '"numInputRows":[1-9]' || fail "no progress with rows"
echo "ok   CONTINUOUS"
sql -c "STOP QUERY cont; STOP QUERY paced" >/dev/null

# idle queries cost (almost) nothing: 20 idle queries over a file stream
# sleep on the directory's change notification — CPU and triggers over 3 s —
# and still take a file as soon as it arrives, without AWAIT QUERY
for i in $(seq 1 20); do sql -c "CREATE QUERY idle$i AS SELECT n FROM nums WHERE n < 0" >/dev/null; done
sql -c "CREATE QUERY seen AS SELECT n FROM nums WHERE n > 1000" >/dev/null || fail "create seen"
for i in $(seq 1 20) ; do sql -c "AWAIT QUERY idle$i TIMEOUT '30 seconds'" >/dev/null || fail "await idle$i"; done
sql -c "AWAIT QUERY seen TIMEOUT '30 seconds'" >/dev/null || fail "await seen"
cpu() { awk '{ print $14 + $15 }' "/proc/$SL_PID/stat"; }
triggers() {
    curl -s "http://127.0.0.1:$SL_HTTP_PORT/metrics" |
        awk '/^sluice_query_triggers_total\{query="(idle[0-9]+|seen)"\}/ { t += $2 } END { print t + 0 }'
}
c0=$(cpu); t0=$(triggers)
sleep 3 # a measurement window, not a wait for anything
c1=$(cpu); t1=$(triggers); ticks=$(( c1 - c0 )); hz=$(getconf CLK_TCK)
echo "     21 idle queries used $ticks CPU ticks (1/$hz s) and began $((t1 - t0)) triggers in 3 s"
[ $ticks -le $(( hz * 3 * 3 / 100 )) ] || fail "idle queries used $ticks ticks in 3 s (> 3% of a core)"
# at most the idle progress report (every 10 s) of each: polling every 200 ms would be 315
[ $((t1 - t0)) -le 21 ] || fail "idle queries began $((t1 - t0)) triggers in 3 s"
drop f_late.json 1001 1003
seen_rows() { [ "$(sql -c 'SELECT count(*) FROM seen')" = 3 ]; }
wait_for 10 seen_rows || fail "a file that arrived was not taken by the idle query within 10 s"
echo "ok   idle queries"
stop_daemon || fail "stop"
echo "triggers: all checks passed"
