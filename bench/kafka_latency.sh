#!/usr/bin/env bash
# Kafka -> sluice -> Kafka latency on librdkafka's mock cluster
# (tests/tools/kafka_mock). bench/kafka_latency.c writes RATE messages a
# second to the topic `in` (1 partition), each value its send time, and
# reads the query's output topic with isolation.level=read_committed,
# reporting p50/p90/p99/max of receive time - send time. Configurations,
# alternated for ROUNDS rounds:
#   floor       kafka_latency writing and reading `in` itself: the broker's
#               and the clients' own latency, no daemon in between
#   default     SELECT value FROM s, default trigger, kafka sink exactlyOnce
#   pt100       the same with TRIGGER PROCESSING TIME '100 milliseconds'
#   continuous  the same with TRIGGER CONTINUOUS '1 second', at-least-once
#               sink (continuous processing is at-least-once)
#   windowed    SELECT max(CAST(value AS STRING)) AS value ... GROUP BY
#               window(timestamp, '1 second'), OUTPUT MODE update,
#               exactlyOnce: the latency of the newest row a batch counted
# Each run has a mock cluster of its own and each query a daemon of its own
# (started for the run, stopped after it: a mock whose topic grew past the
# ~50,000 messages it keeps per partition slows down by seconds), from a
# fresh checkpoint, reading from `latest`. Prints one line per run and the medians.
# Usage: bench/kafka_latency.sh [ROUNDS] [SECONDS] [RATE]   (BIN=bin, O=build/obj)
# STREAM_OPTS / SINK_OPTS: more options, e.g. ", 'kafka.fetch.wait.max.ms' '100'"
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
rounds=${1:-3}
secs=${2:-10}
rate=${3:-10000}
configs=${CONFIGS:-floor default pt100 continuous windowed}
work=$(mktemp -d /tmp/sluice-bench-latency-XXXXXX)
MOCK_DIR=$work
trap 'kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; rm -rf "$work"' EXIT
LAT="$O/bench/kafka_latency"
[ -x "$LAT" ] || { echo "missing $LAT (make $LAT)"; exit 1; }

sink() { echo "SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out_$1'$2${SINK_OPTS:-})"; }
query_sql() {
    local q=$1 c=$2 eo=", 'exactlyOnce' 'true'"
    case $c in
    default) echo "CREATE QUERY $q $(sink "$c" "$eo") AS SELECT value FROM s" ;;
    pt100) echo "CREATE QUERY $q $(sink "$c" "$eo") TRIGGER PROCESSING TIME '100 milliseconds'
                 AS SELECT value FROM s" ;;
    continuous) echo "CREATE QUERY $q $(sink "$c" "") TRIGGER CONTINUOUS '1 second'
                      AS SELECT value FROM s" ;;
    windowed) echo "CREATE QUERY $q $(sink "$c" "$eo") OUTPUT MODE update
                    AS SELECT max(CAST(value AS STRING)) AS value FROM s
                    GROUP BY window(timestamp, '1 second')" ;;
    esac
}
# one run: prints kafka_latency's line
run() {
    local c=$1 r=$2 q="lat_$1_$2"
    mkdir -p "$work/$q"
    MOCK_DIR=$work/$q
    start_mock "$work/$q" -t in:1 -t "out_$c:1" >/dev/null || return 1
    if [ "$c" = floor ]; then
        "$LAT" -b "$BOOT" -i in -o in -r "$rate" -d "$secs"
        stop_mock
        return
    fi
    start_daemon "$work/$q" >/dev/null || return 1
    sql -c "CREATE STREAM s USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'in',
      startingOffsets 'latest'${STREAM_OPTS:-})" >/dev/null || return 1
    sql -c "$(query_sql "$q" "$c")" >/dev/null || { echo "query $q not created" >&2; return 1; }
    wait_for 10 status_is "$q" ACTIVE || { echo "query $q not active" >&2; return 1; }
    "$LAT" -b "$BOOT" -i in -o "out_$c" -r "$rate" -d "$secs"
    [ "$(query_status "$q")" = ACTIVE ] || echo "query $q is $(query_status "$q")" >&2
    stop_daemon >/dev/null
    stop_mock
}
declare -A p50 p99
for r in $(seq 1 "$rounds"); do
    for c in $configs; do
        line=$(run "$c" "$r") || exit 1
        printf '%-10s round %d: %s\n' "$c" "$r" "$line"
        p50[$c]+="$(sed 's/.*p50=\([0-9.]*\).*/\1/' <<<"$line") "
        p99[$c]+="$(sed 's/.*p99=\([0-9.]*\).*/\1/' <<<"$line") "
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "medians of $rounds rounds, $rate msgs/s, $secs s each (ms):"
for c in $configs; do
    printf '%-10s p50 %6s  p99 %6s   (p50 %s; p99 %s)\n' "$c" "$(median <<<"${p50[$c]}")" \
        "$(median <<<"${p99[$c]}")" "${p50[$c]}" "${p99[$c]}"
done
