#!/usr/bin/env bash
# Reading Kafka: sluiced's Kafka source against `kcat -C -e` over the same
# messages of librdkafka's mock cluster (tests/tools/kafka_mock). N small
# JSON messages ({"id":N,"name":"nN"}, 20-30 bytes) are spread over 8
# partitions (the mock keeps ~5 MB a partition), then, alternately for
# ROUNDS rounds:
#   kcat      kcat -C -e -q -o beginning over every partition, output to /dev/null
#   raw       CREATE QUERY ... SINK noop TRIGGER ONCE over a stream without
#             columns (Spark's key, value, topic, partition, offset, timestamp)
#   json      the same over a stream decoding the values (id BIGINT, name STRING)
# sluice's wall figure is the batch's triggerExecution from its progress
# (latest offsets, plan, read all splits on the worker threads, sink), so
# the daemon's start is not counted; kcat's is its whole run (start
# included, ~0.1 s). CPU is the reader's: the daemon's user+system time
# over the query (/proc), kcat's from /usr/bin/time; the mock broker's own
# CPU is counted on neither side. Prints medians and messages per second.
# Usage: bench/kafka_read.sh [MESSAGES] [ROUNDS]   (BIN=bin, O=build/obj by default)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
n=${1:-1000000}
rounds=${2:-3}
parts=8
work=$(mktemp -d /tmp/sluice-bench-kafka-XXXXXX)
MOCK_DIR=$work
trap 'kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; rm -rf "$work"' EXIT
start_mock "$work" -t bench:$parts >/dev/null || exit 1
per=$((n / parts))
for p in $(seq 0 $((parts - 1))); do
    produce_json bench "$p" $((p * per + 1)) $(((p + 1) * per)) || exit 1
done
got=$(kcat -C -b "$BOOT" -t bench -e -q -o beginning | wc -l)
[ "$got" = $((per * parts)) ] || { echo "the mock holds $got messages, not $((per * parts))"; exit 1; }
start_daemon "$work" -c worker_threads=2 >/dev/null || exit 1
# KAFKA_OPTS: more stream options to try, e.g. ", 'kafka.queued.min.messages' '100000'"
opts="'kafka.bootstrap.servers' '$BOOT', subscribe 'bench', startingOffsets 'earliest'${KAFKA_OPTS:-}"
sql -c "CREATE STREAM b_raw USING kafka OPTIONS ($opts)" \
    -c "CREATE STREAM b_json (id BIGINT, name STRING) USING kafka OPTIONS ($opts)" >/dev/null || exit 1

now_ms() { date +%s%3N; }
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$SL_PID/stat"; }
# one sluice run: a TRIGGER ONCE query into the noop sink; prints "wall_ms cpu_ms"
sluice_run() {
    local q=$1_$2 c0 c1
    c0=$(cpu_ms)
    sql -c "CREATE QUERY $q SINK noop TRIGGER ONCE AS SELECT * FROM b_$1" \
        -c "AWAIT QUERY $q TIMEOUT '300 seconds'" >/dev/null || { echo "query $q failed" >&2; return 1; }
    c1=$(cpu_ms)
    local prog; prog=$(sql -c "SHOW RECENT PROGRESS $q" | grep "\"numInputRows\":$((per * parts)),")
    [ -n "$prog" ] || { echo "query $q did not read every message" >&2; return 1; }
    echo "$(sed 's/.*"triggerExecution":\([0-9]*\).*/\1/' <<<"$prog") $((c1 - c0))"
    sql -c "DROP QUERY $q" >/dev/null
}
kcat_run() {
    local t0 t1 cpu
    t0=$(now_ms)
    cpu=$( { /usr/bin/time -f '%U %S' kcat -C -b "$BOOT" -t bench -e -q -o beginning >/dev/null; } 2>&1 | tail -n 1)
    t1=$(now_ms)
    echo "$((t1 - t0)) $(awk '{ print int(($1 + $2) * 1000) }' <<<"$cpu")"
}
declare -A wall cpu
for r in $(seq 1 "$rounds"); do
    for k in kcat raw json; do
        if [ $k = kcat ]; then read -r w c <<<"$(kcat_run)"; else read -r w c <<<"$(sluice_run $k "$r")"; fi
        wall[$k]+="$w "; cpu[$k]+="$c "
    done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "$((per * parts)) messages in $parts partitions of the mock cluster, $rounds rounds:"
printf '%-5s %10s %12s %10s %12s   %s\n' "" "wall ms" "M msgs/s" "CPU ms" "M msgs/CPU-s" "(wall; CPU per round)"
for k in kcat raw json; do
    w=$(median <<<"${wall[$k]}"); c=$(median <<<"${cpu[$k]}")
    awk -v k="$k" -v w="$w" -v c="$c" -v m=$((per * parts)) -v ws="${wall[$k]}" -v cs="${cpu[$k]}" \
        'BEGIN { printf "%-5s %10d %12.2f %10d %12.2f   (%s; %s)\n", k, w, m / w / 1000, c, m / (c > 0 ? c : 1) / 1000, ws, cs }'
done
stop_daemon >/dev/null
