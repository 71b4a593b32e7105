#!/usr/bin/env bash
# Fixed cost of a micro-batch: a file -> file-sink query given one 1-row
# file at a time (each AWAIT QUERY forces one trigger that runs one batch:
# offsets/N, read, sink data file + manifest, commits/N, all fsynced), and
# the cost of an empty trigger (CPU per idle poll of 20 idle queries).
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
for i in $(seq 1 "$n"); do
    printf '{"id":%d}\n' "$i" > "$work/in/.f$i"; mv "$work/in/.f$i" "$work/in/f$i.json"
    sql -c "AWAIT QUERY q" >/dev/null
done
sql -c "SHOW RECENT PROGRESS q" | grep '"numInputRows":1,' > "$work/p"
stats() { # stats NAME: median, 90th percentile and mean of a durationMs field over the 1-row
    # batches (whole ms each, as Spark reports them; the mean of many is finer than that)
    sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$work/p" | sort -n |
        awk -v name="$1" '{ v[NR] = $1; t += $1 } END { printf "%-18s median %3d ms  p90 %3d ms  mean %5.2f ms  (%d batches)\n", name, v[int((NR + 1) / 2)], v[int(NR * 0.9)], t / NR, NR }'
}
echo "1-row batch, file source -> file sink, every write fsynced:"
for f in triggerExecution walCommit getBatch addBatch commitOffsets; do stats $f; done

for i in $(seq 1 20); do sql -c "CREATE QUERY idle$i AS SELECT id FROM s WHERE id < 0" >/dev/null; done
for i in $(seq 1 20); do sql -c "AWAIT QUERY idle$i" >/dev/null; done
c0=$(awk '{ print $14 + $15 }' "/proc/$SL_PID/stat")
sleep 5 # a measurement window
c1=$(awk '{ print $14 + $15 }' "/proc/$SL_PID/stat")
hz=$(getconf CLK_TCK)
# an idle query polls every 200 ms once it has been idle a while: 5 triggers/s
awk -v t=$((c1 - c0)) -v hz="$hz" 'BEGIN { printf "empty trigger: %.3f ms of CPU each (20 idle queries, 5 s, %d ticks)\n", t / hz * 1000 / (20 * 5 * 5), t }'
stop_daemon >/dev/null
