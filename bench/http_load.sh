#!/usr/bin/env bash
# HTTP load against micro-batches, side by side: runs a CPU-heavy streaming
# aggregation with fixed-size batches (rate source, 1 s processing-time
# trigger) and alternates quiet windows with windows in which wrk hammers
# GET /api/v1/queries and GET /metrics; then compares the median batch
# duration (batchDuration of the progress reports, no-data batches left out)
# under load with the quiet median.
#
# Exit status 0 when every HTTP request succeeded (no socket error, no
# non-2xx), each endpoint served at least MIN_REQUESTS and the median under
# load is at most MAX_SLOWDOWN times the quiet median; 1 otherwise.
# Prints a Markdown section suitable for bench/RESULTS.md.
#
#   bench/http_load.sh                    strict: MAX_SLOWDOWN=1.10, 4 rounds of 15 s
#   MAX_SLOWDOWN=1.5 ROUNDS=2 bench/http_load.sh
#
# Knobs (environment): ROUNDS (quiet+load pairs, 4), WINDOW (seconds per
# window, 15), RATE (rows/s, 600000), KEYS (distinct keys, 50000),
# CONNECTIONS (per wrk, 4), WRK_NICE (nice of wrk, 19: the load generator
# stands in for clients on other machines and should not take the batches'
# CPU on a small box), MIN_REQUESTS (per endpoint, 10000), MAX_SLOWDOWN
# (1.10), HTTP_NICE (the daemon's http_nice; its default when unset), BIN and
# O as for the tests.
set -u
cd "$(dirname "$0")/.."
: "${BIN:=bin}" "${O:=build/obj}"
ROUNDS=${ROUNDS:-4} WINDOW=${WINDOW:-15} RATE=${RATE:-600000} KEYS=${KEYS:-50000}
CONNECTIONS=${CONNECTIONS:-4} WRK_NICE=${WRK_NICE:-19} MIN_REQUESTS=${MIN_REQUESTS:-10000}
MAX_SLOWDOWN=${MAX_SLOWDOWN:-1.10}
source tests/lib.sh
JSON_TOOL="$O/tools/http_json"

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
die() { echo "http_load: $*" >&2; [ -n "${SL_LOG:-}" ] && tail -n 20 "$SL_LOG" >&2; exit 1; }
for tool in wrk "$JSON_TOOL"; do command -v "$tool" >/dev/null || die "$tool is missing"; done

start_daemon "$T/d" ${HTTP_NICE:+-c http_nice=$HTTP_NICE} || die "daemon did not start"
wait_for 10 grep -q ' http: listening addr=' "$SL_LOG" || die "no HTTP port"
H="http://127.0.0.1:$(log_port "$SL_LOG" http)"
sql -c "CREATE STREAM s USING rate OPTIONS (rowsPerSecond '$RATE');" \
    -c "CREATE QUERY heavy SINK noop OUTPUT MODE update TRIGGER PROCESSING TIME '1 second' AS
        SELECT value % $KEYS AS k, count(*) AS n, sum(value) AS total, max(value) AS top
        FROM s GROUP BY value % $KEYS;" >/dev/null || die "CREATE QUERY"

last_batch() { curl -s "$H/api/v1/queries/heavy/progress" > "$T/last" && "$JSON_TOOL" get "$T/last" batchId; }
warm() { [ "$(last_batch)" -ge 3 ] 2>/dev/null; }
wait_for 60 warm || die "the query did not run 4 batches"

# window KIND : one window; appends "KIND batchDuration" lines to $T/durations.
window() {
    local kind=$1 from to pids=()
    from=$(last_batch)
    if [ "$kind" = load ]; then
        for ep in /api/v1/queries /metrics; do
            nice -n "$WRK_NICE" wrk -t1 -c"$CONNECTIONS" -d"${WINDOW}s" "$H$ep" \
                > "$T/wrk.$round${ep//\//_}" 2>&1 &
            pids+=($!)
        done
        wait "${pids[@]}"
    else
        sleep "$WINDOW" # a measurement window, not synchronisation
    fi
    to=$(last_batch)
    curl -s "$H/api/v1/queries/heavy/progress/recent" > "$T/recent"
    "$JSON_TOOL" rows "$T/recent" batchId batchDuration numInputRows |
        awk -v a="$from" -v b="$to" -v k="$kind" '$1 > a && $1 <= b && $3 > 0 { print k, $2 }' >> "$T/durations"
}

: > "$T/durations"
for ((round = 1; round <= ROUNDS; round++)); do
    window quiet
    window load
done

median() { awk -v k="$1" '$1 == k { print $2 }' "$T/durations" | sort -n |
    awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
count() { awk -v k="$1" '$1 == k' "$T/durations" | wc -l; }
q_med=$(median quiet) l_med=$(median load) q_n=$(count quiet) l_n=$(count load)
ratio=$(awk -v q="$q_med" -v l="$l_med" 'BEGIN { printf "%.3f", (q > 0 ? l / q : 99) }')

# wrk totals per endpoint
total() { cat "$T"/wrk.*"$1" | awk '/requests in/ { n += $1 } END { print n + 0 }'; }
errors() { cat "$T"/wrk.*"$1" | awk '/Non-2xx/ { n += $NF } /Socket errors/ { gsub(",", ""); n += $4 + $6 + $8 + $10 } END { print n + 0 }'; }
rps() { cat "$T"/wrk.*"$1" | awk '/Requests\/sec/ { s += $2; k++ } END { printf "%.0f", k ? s / k : 0 }'; }
api_n=$(total _api_v1_queries) met_n=$(total _metrics)
api_err=$(errors _api_v1_queries) met_err=$(errors _metrics)

cat <<EOF
## HTTP load vs batch duration ($(date -u +%Y-%m-%d), $(nproc) CPUs)

Query: rate source at $RATE rows/s, \`GROUP BY value % $KEYS\` (count, sum, max), update mode,
noop sink, 1 s processing-time trigger. $ROUNDS rounds of a ${WINDOW} s quiet window then a
${WINDOW} s window with two \`wrk -t1 -c$CONNECTIONS\` (nice $WRK_NICE) on /api/v1/queries and /metrics;
http_nice ${HTTP_NICE:-default}; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg).

| | batches | median batch duration |
|---|---|---|
| quiet | $q_n | $q_med ms |
| under HTTP load | $l_n | $l_med ms |
| ratio | | **$ratio** (limit $MAX_SLOWDOWN) |

| endpoint | requests | mean req/s per window | failed (non-2xx + socket errors) |
|---|---|---|---|
| /api/v1/queries | $api_n | $(rps _api_v1_queries) | $api_err |
| /metrics | $met_n | $(rps _metrics) | $met_err |
EOF

status=0
[ "$api_err" = 0 ] && [ "$met_err" = 0 ] || { echo "FAIL: failed HTTP requests" >&2; status=1; }
[ "$api_n" -ge "$MIN_REQUESTS" ] && [ "$met_n" -ge "$MIN_REQUESTS" ] \
    || { echo "FAIL: fewer than $MIN_REQUESTS requests per endpoint" >&2; status=1; }
[ "$q_n" -ge 5 ] && [ "$l_n" -ge 5 ] || { echo "FAIL: too few batches to compare" >&2; status=1; }
awk -v r="$ratio" -v m="$MAX_SLOWDOWN" 'BEGIN { exit !(r <= m) }' \
    || { echo "FAIL: batches ran $ratio times as long under HTTP load (limit $MAX_SLOWDOWN)" >&2; status=1; }
stop_daemon >/dev/null || { echo "FAIL: daemon did not stop cleanly" >&2; status=1; }
exit $status
