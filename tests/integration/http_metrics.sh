#!/usr/bin/env bash
# GET /metrics: valid Prometheus text exposition (promtool check metrics), the
# expected families with # HELP/# TYPE and the query label, state operator and
# watermark figures of a windowed aggregation, values equal to the last
# progress report, label escaping, the status gauge following STOP, and the
# process metrics.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/integration/http_lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
[ -x "$JSON_TOOL" ] || fail "$JSON_TOOL is missing"
command -v promtool >/dev/null || fail "promtool is missing (Debian package prometheus; make deps)"

start_daemon "$T/d" || fail "daemon did not start"
http_up
sql -c "CREATE STREAM s USING rate OPTIONS (rowsPerSecond '200');" \
    -c "CREATE QUERY q AS SELECT value FROM s;" \
    -c "CREATE QUERY agg OUTPUT MODE update AS SELECT window, count(*) AS n FROM s
        WATERMARK timestamp DELAY OF INTERVAL '2 seconds' GROUP BY window(timestamp, '5 seconds');" \
    -c 'CREATE QUERY "we""ird\q" AS SELECT value FROM s;' || fail "CREATE QUERY"

metrics() { curl -s -o "$T/m" -D "$T/headers" "$H/metrics"; }
# has LINE-REGEX : the last scrape has a line matching it
has() { grep -Eq "$1" "$T/m"; }
# value NAME{LABELS} : the sample's value in the last scrape
value() { awk -v k="$1" '$1 == k { print $2 }' "$T/m"; }

ready() { # agg has state and a watermark past the epoch, q has run a batch
    metrics && has '^sluice_query_watermark_lag_seconds\{query="agg"\} ' \
        && has '^sluice_query_state_rows\{query="agg",operator="stateStoreSave",op="0"\} [1-9]' \
        && has '^sluice_query_last_batch_id\{query="q"\} [1-9]'
}
wait_for 60 ready || { cat "$T/m"; fail "metrics of agg and q never appeared"; }

echo "-- promtool check metrics"
promtool check metrics < "$T/m" > "$T/promtool" 2>&1 || { cat "$T/promtool"; fail "promtool rejected /metrics"; }
[ "$(header Content-Type)" = "text/plain; version=0.0.4; charset=utf-8" ] || fail "Content-Type $(header Content-Type)"

echo "-- families: HELP, TYPE and samples with the query label"
for f in sluice_query_input_rows_per_second sluice_query_processed_rows_per_second \
         sluice_query_last_batch_duration_seconds sluice_query_last_batch_id \
         sluice_query_last_batch_input_rows sluice_query_status sluice_query_info; do
    has "^# HELP $f " || fail "no HELP for $f"
    has "^# TYPE $f gauge$" || fail "no TYPE gauge for $f"
    for q in q agg; do
        has "^$f\{query=\"$q\"[,}]" || fail "no $f sample for query $q"
    done
done
for f in sluice_query_state_rows sluice_query_state_memory_bytes sluice_query_rows_dropped_by_watermark; do
    has "^# TYPE $f gauge$" || fail "no TYPE for $f"
    has "^$f\{query=\"agg\",operator=\"stateStoreSave\",op=\"0\"\} [0-9]" || fail "no $f of agg's operator"
    has "^$f\{query=\"q\"" && fail "$f for the stateless q"
done
has '^sluice_query_state_memory_bytes\{query="agg",operator="stateStoreSave",op="0"\} [1-9]' \
    || fail "state memory of agg is 0"
has '^sluice_query_watermark_lag_seconds\{query="q"\}' && fail "watermark lag for q, which has no watermark"
lag=$(value 'sluice_query_watermark_lag_seconds{query="agg"}')
awk -v v="$lag" 'BEGIN { exit !(v > 0 && v < 120) }' || fail "watermark lag $lag is not within (0, 120) s"
for f in process_cpu_seconds_total process_resident_memory_bytes process_open_fds \
         process_start_time_seconds process_virtual_memory_bytes process_max_fds; do
    has "^$f [0-9]" || fail "no $f"
done
has '^# TYPE process_cpu_seconds_total counter$' || fail "process_cpu_seconds_total is not a counter"
awk -v v="$(value process_resident_memory_bytes)" 'BEGIN { exit !(v > 1000000) }' || fail "resident memory"
awk -v v="$(value process_start_time_seconds)" -v now="$(date +%s)" \
    'BEGIN { exit !(v > now - 600 && v <= now + 1) }' || fail "process start time"
has '^sluice_http_responses_total\{code="200"\} [1-9]' || fail "HTTP responses are not counted"
has '^# TYPE sluice_query_triggers_total counter$' || fail "sluice_query_triggers_total is not a counter"
t0=$(value 'sluice_query_triggers_total{query="q"}')
sql -c "AWAIT QUERY q" >/dev/null || fail "AWAIT QUERY q"
metrics
t1=$(value 'sluice_query_triggers_total{query="q"}')
[ "$t1" -gt "$t0" ] || fail "AWAIT ran a trigger but sluice_query_triggers_total went from $t0 to $t1"

echo "-- label values are escaped"
has '^sluice_query_status\{query="we\\"ird\\\\q",status="ACTIVE"\} 1$' \
    || { grep 'ird' "$T/m"; fail "quote and backslash not escaped in the query label"; }

echo "-- values equal the last progress report; the status gauge follows STOP"
sql -c "STOP QUERY q" >/dev/null || fail "STOP QUERY q"
metrics
curl -s "$H/api/v1/queries/q/progress" > "$T/p"
[ "$(value 'sluice_query_last_batch_id{query="q"}')" = "$(jget batchId "$T/p")" ] || fail "last_batch_id != batchId"
[ "$(value 'sluice_query_last_batch_input_rows{query="q"}')" = "$(jget numInputRows "$T/p")" ] \
    || fail "last_batch_input_rows != numInputRows"
[ "$(value 'sluice_query_last_batch_output_rows{query="q"}')" = "$(jget sink.numOutputRows "$T/p")" ] \
    || fail "last_batch_output_rows != sink.numOutputRows"
awk -v s="$(value 'sluice_query_last_batch_duration_seconds{query="q"}')" -v ms="$(jget batchDuration "$T/p")" \
    'BEGIN { d = s * 1000 - ms; exit !(d < 0.001 && d > -0.001) }' || fail "batch duration != batchDuration/1000"
awk -v a="$(value 'sluice_query_processed_rows_per_second{query="q"}')" -v b="$(jget processedRowsPerSecond "$T/p")" \
    'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' || fail "processed rate != processedRowsPerSecond"
[ "$(value 'sluice_query_status{query="q",status="STOPPED"}')" = 1 ] || fail "status STOPPED is not 1"
[ "$(value 'sluice_query_status{query="q",status="ACTIVE"}')" = 0 ] || fail "status ACTIVE is not 0"
promtool check metrics < "$T/m" > "$T/promtool" 2>&1 || { cat "$T/promtool"; fail "promtool after STOP"; }

stop_daemon || fail "daemon did not stop cleanly"
echo "http_metrics: ok"
