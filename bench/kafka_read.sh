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
# sluice's figure is the batch's triggerExecution from its progress (latest
# offsets, plan, read all splits on the worker threads, sink), so the
# daemon's start is not counted; kcat's is its whole run (start included,
# ~0.1 s). Prints the median of each and messages per second.
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
sql -c "CREATE STREAM b_raw USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'bench', startingOffsets 'earliest')" \
    -c "CREATE STREAM b_json (id BIGINT, name STRING) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'bench', startingOffsets 'earliest')" >/dev/null || exit 1

now_ms() { date +%s%3N; }
# one sluice run: a TRIGGER ONCE query into the noop sink; prints triggerExecution ms
sluice_run() {
    local q=$1_$2
    sql -c "CREATE QUERY $q SINK noop TRIGGER ONCE AS SELECT * FROM b_$1" \
        -c "AWAIT QUERY $q TIMEOUT '300 seconds'" >/dev/null || { echo "query $q failed" >&2; return 1; }
    local prog; prog=$(sql -c "SHOW RECENT PROGRESS $q" | grep "\"numInputRows\":$((per * parts)),")
    [ -n "$prog" ] || { echo "query $q did not read every message" >&2; return 1; }
    sed 's/.*"triggerExecution":\([0-9]*\).*/\1/' <<<"$prog"
    sql -c "DROP QUERY $q" >/dev/null
}
kcat_run() {
    local t0; t0=$(now_ms)
    kcat -C -b "$BOOT" -t bench -e -q -o beginning >/dev/null
    echo $(($(now_ms) - t0))
}
declare -A times
for r in $(seq 1 "$rounds"); do
    times[kcat]+="$(kcat_run) "
    times[raw]+="$(sluice_run raw "$r") "
    times[json]+="$(sluice_run json "$r") "
done
echo "$((per * parts)) messages in $parts partitions of the mock cluster, $rounds rounds (ms each):"
for k in kcat raw json; do
    echo "${times[$k]}" | tr ' ' '\n' | grep . | sort -n | awk -v k="$k" -v m=$((per * parts)) '
        { v[NR] = $1; all = all " " $1 }
        END { med = v[int((NR + 1) / 2)]; printf "%-5s median %6d ms  %5.2f M msgs/s   (%s )\n", k, med, m / med / 1000, all }'
done
stop_daemon >/dev/null
