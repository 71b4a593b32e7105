#!/usr/bin/env bash
# Fixed cost of a micro-batch: a file -> file-sink query given one 1-row
# file at a time (each AWAIT QUERY forces one trigger that runs one batch:
# offsets/N, read, sink data file + manifest, commits/N, all fsynced), the
# CPU 20 idle queries use, and the cost of an empty trigger.
# Usage: bench/batch_overhead.sh [BATCHES [DAEMON OPTIONS]]   (BIN=bin by default)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
n=${1:-60}
shift $(( $# > 0 ? 1 : 0 )) # the rest: daemon options (-c io_threads=1)
work=$(mktemp -d /tmp/sluice-bench-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/in"
start_daemon "$work" "$@" >/dev/null || exit 1
sql -c "CREATE STREAM s (id INT) USING file OPTIONS (path '$work/in', format 'json')" >/dev/null
sql -c "CREATE QUERY q SINK file OPTIONS (path '$work/out', format 'json') AS SELECT id FROM s" >/dev/null
dev_requests() { # writes (less flushes) and flushes completed by the work directory's block device
    local f="/sys/dev/block/$(stat -c '%Hd:%Ld' "$work")/stat"
    [ -r "$f" ] && awk 'NF >= 16 { print $5 - $16, $16 }' "$f"
}
session_start # every AWAIT through one psql session: no client starts while a batch runs
r0=$(dev_requests)
for i in $(seq 1 "$n"); do
    printf '{"id":%d}\n' "$i" > "$work/in/.f$i"; mv "$work/in/.f$i" "$work/in/f$i.json"
    session_sql "AWAIT QUERY q"
done
r1=$(dev_requests)
session_end
sql -c "SHOW RECENT PROGRESS q" | grep '"numInputRows":1,' > "$work/p"
stats() { # stats NAME: median, 90th percentile and mean of a durationMs field over the 1-row
    # batches (whole ms each, as Spark reports them; the mean of many is finer than that)
    sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$work/p" | sort -n |
        awk -v name="$1" '{ v[NR] = $1; t += $1 } END { printf "%-18s median %3d ms  p90 %3d ms  mean %5.2f ms  (%d batches)\n", name, v[int((NR + 1) / 2)], v[int(NR * 0.9)], t / NR, NR }'
}
echo "1-row batch, file source -> file sink, every write fsynced:"
for f in triggerExecution walCommit getBatch addBatch commitOffsets; do stats $f; done
[ -n "$r0" ] && [ -n "$r1" ] && echo "$r0 $r1" | awk -v n="$n" '{ printf "device requests per batch: %.1f writes, %.1f flushes\n", ($3 - $1) / n, ($4 - $2) / n }'

for i in $(seq 1 20); do sql -c "CREATE QUERY idle$i AS SELECT id FROM s WHERE id < 0" >/dev/null; done
for i in $(seq 1 20); do sql -c "AWAIT QUERY idle$i" >/dev/null; done
cpu() { awk '{ print $14 + $15 }' "/proc/$SL_PID/stat"; }
triggers() { # triggers begun by the idle queries, from /metrics
    curl -s "http://127.0.0.1:$SL_HTTP_PORT/metrics" |
        awk '/^sluice_query_triggers_total\{query="idle/ { t += $2 } END { print t + 0 }'
}
hz=$(getconf CLK_TCK)
# idle queries over a file stream sleep on the directory's change notification
c0=$(cpu); t0=$(triggers)
sleep 5 # a measurement window
c1=$(cpu); t1=$(triggers)
echo "20 idle queries, 5 s: $((c1 - c0)) CPU ticks (1/$hz s), $((t1 - t0)) triggers"
# an empty trigger: files the stream ignores (".x") wake every idle query, which finds nothing new
c0=$(cpu); t0=$(triggers)
for i in $(seq 1 200); do : > "$work/in/.x$i"; sleep 0.01; done # pacing, so that wakes do not merge
c1=$(cpu); t1=$(triggers)
awk -v t=$((c1 - c0)) -v n=$((t1 - t0)) -v hz="$hz" \
    'BEGIN { printf "empty trigger: %.3f ms of CPU each (%d triggers, %d ticks)\n", t / hz * 1000 / n, n, t }'
stop_daemon >/dev/null
