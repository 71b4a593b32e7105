#!/usr/bin/env bash
# HTTP REST API: every endpoint and status code (200, 400, 401 with and
# without the token, 404 for an unknown query and path, 405 with Allow, 413),
# JSON bodies and field order (Spark's StreamingQueryProgress order), /progress
# equal to SHOW PROGRESS byte for byte, recentProgress oldest first, POST
# stop/start changing SHOW QUERIES, and lastProgress null after a restart.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/integration/http_lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
[ -x "$JSON_TOOL" ] || fail "$JSON_TOOL is missing (make $JSON_TOOL)"

TOKEN='t0k3n-for+tests/=='
AUTH=(-H "Authorization: Bearer $TOKEN")
start_daemon "$T/d" -c "http_token=$TOKEN" -c http_max_request_bytes=1024 || fail "daemon did not start"
http_up

echo "-- /healthz needs no token"
req GET /healthz
expect 200 "/healthz"
[ "$(cat "$T/body")" = "ok" ] || fail "/healthz body is not ok"

echo "-- 401 without, with a wrong and with a truncated token; 200 with the token"
req GET /api/v1/queries
expect 401 "no token"
expect_json_error 401
header WWW-Authenticate | grep -q '^Bearer' || fail "401 without WWW-Authenticate: Bearer"
req GET /api/v1/queries -H "Authorization: Bearer wrong"
expect 401 "wrong token"
header WWW-Authenticate | grep -q 'invalid_token' || fail "wrong token: no invalid_token"
req GET /api/v1/queries -H "Authorization: Bearer ${TOKEN%?}"
expect 401 "truncated token"
req GET /api/v1/queries -H "Authorization: Basic $TOKEN"
expect 401 "Basic scheme"
req GET /metrics
expect 401 "/metrics without a token"
req POST /api/v1/queries/q/stop
expect 401 "POST without a token"
req GET /api/v1/queries "${AUTH[@]}"
expect 200 "list with the token"
[ "$(cat "$T/body")" = "[]" ] || fail "list of no query is not []"
req GET /api/v1/queries -H "authorization: bearer $TOKEN"
expect 200 "case-insensitive header and scheme"

echo "-- a query runs"
sql -c "CREATE STREAM s USING rate OPTIONS (rowsPerSecond '100');" \
    -c "CREATE QUERY q AS SELECT value FROM s;" || fail "CREATE QUERY"
batch_at_least() { # N : the query's last batch id is >= N
    req GET /api/v1/queries/q "${AUTH[@]}"
    [ "$CODE" = 200 ] && [ "$(jget lastBatchId)" != null ] && [ "$(jget lastBatchId)" -ge "$1" ]
}
wait_for 30 batch_at_least 2 || fail "q did not run 3 batches"
sql -c "AWAIT QUERY q" >/dev/null || fail "AWAIT QUERY q"

echo "-- GET /api/v1/queries"
req GET /api/v1/queries "${AUTH[@]}"
expect 200 "list"
[ "$(header Content-Type)" = "application/json; charset=utf-8" ] || fail "list Content-Type"
[ "$("$JSON_TOOL" len "$T/body")" = 1 ] || fail "list does not hold one query"
[ "$("$JSON_TOOL" keys "$T/body" 0)" = "name id runId status lastBatchId inputRowsPerSecond processedRowsPerSecond watermark lastError sink outputMode trigger" ] \
    || fail "list entry members: $("$JSON_TOOL" keys "$T/body" 0)"
[ "$(jget 0.name)" = q ] && [ "$(jget 0.status)" = ACTIVE ] && [ "$(jget 0.sink)" = memory ] \
    && [ "$(jget 0.outputMode)" = append ] || fail "list entry values"
[ "$(jget 0.id)" = "$(sql -c 'SHOW QUERIES' | cut -d'|' -f2)" ] || fail "list id differs from SHOW QUERIES"

echo "-- HEAD answers the headers only"
curl -s -I "${AUTH[@]}" "$H/api/v1/queries" -o "$T/headers" -w '%{http_code}' > "$T/code"
[ "$(cat "$T/code")" = 200 ] || fail "HEAD /api/v1/queries"

echo "-- GET /api/v1/queries/q"
req GET /api/v1/queries/q "${AUTH[@]}"
expect 200 "query"
[ "$("$JSON_TOOL" keys "$T/body")" = "name id runId status definition lastBatchId inputRowsPerSecond processedRowsPerSecond watermark lastError sink outputMode trigger checkpoint lastProgress" ] \
    || fail "query members: $("$JSON_TOOL" keys "$T/body")"
[ "$("$JSON_TOOL" keys "$T/body" status)" = "message isDataAvailable isTriggerActive state" ] \
    || fail "StreamingQueryStatus members"
[ "$(jget status.state)" = ACTIVE ] || fail "status.state"
jget definition | grep -q "SELECT value FROM s" || fail "definition"
[ "$(jget lastProgress.name)" = q ] || fail "lastProgress.name"

echo "-- /progress is SHOW PROGRESS, byte for byte, in Spark's field order"
# compared on a query whose progress changes every 3 s (q's changes every few
# ms, faster than a loaded machine runs curl, psql and curl)
sql -c "CREATE QUERY qs TRIGGER PROCESSING TIME '3 seconds' AS SELECT value FROM s;" \
    -c "AWAIT QUERY qs" >/dev/null || fail "CREATE QUERY qs"
same_progress() { # one HTTP read, one SQL read, one HTTP read: both HTTP equal -> compare
    curl -s "${AUTH[@]}" "$H/api/v1/queries/qs/progress" > "$T/p1"
    sql -c "SHOW PROGRESS qs" > "$T/psql"
    curl -s "${AUTH[@]}" "$H/api/v1/queries/qs/progress" > "$T/p2"
    cmp -s "$T/p1" "$T/p2" || return 2
    printf '%s\n' "$(cat "$T/p1")" | cmp -s - "$T/psql"
}
ok=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
    same_progress; rc=$?
    [ $rc = 0 ] && { ok=1; break; }
    [ $rc = 1 ] && fail "/progress differs from SHOW PROGRESS: $(diff <(cat "$T/p1"; echo) "$T/psql")"
done
[ $ok = 1 ] || fail "/progress never stood still long enough to compare"
sql -c "DROP QUERY qs" >/dev/null || fail "DROP QUERY qs"
keys=$("$JSON_TOOL" keys "$T/p1")
case "$keys" in
"id runId name timestamp batchId batchDuration numInputRows "*) ;;
*) fail "progress does not start with Spark's fields: $keys" ;;
esac
spark_order="id runId name timestamp batchId batchDuration numInputRows inputRowsPerSecond processedRowsPerSecond durationMs eventTime stateOperators sources sink observedMetrics"
echo "$spark_order" "|" "$keys" | awk '{
    n = 0; for (i = 1; $i != "|"; i++) pos[$i] = ++n
    last = 0; for (i++; i <= NF; i++) { if (!($i in pos) || pos[$i] <= last) exit 1; last = pos[$i] } }' \
    || fail "progress members out of Spark's order: $keys"
for k in stateOperators sources sink durationMs; do
    echo " $keys " | grep -q " $k " || fail "progress lacks $k"
done

echo "-- /progress/recent: oldest first, limit"
req GET /api/v1/queries/q/progress/recent "${AUTH[@]}"
expect 200 "recent"
n=$("$JSON_TOOL" len "$T/body") || fail "recent is not an array"
[ "$n" -ge 3 ] || fail "recent holds $n reports"
[ "$(jget 0.batchId)" -lt "$(jget $((n - 1)).batchId)" ] || fail "recent is not oldest first"
req GET "/api/v1/queries/q/progress/recent?limit=2" "${AUTH[@]}"
expect 200 "recent?limit=2"
[ "$("$JSON_TOOL" len "$T/body")" = 2 ] || fail "limit=2 did not give 2 reports"
for bad in 0 101 abc 1x "%zz"; do
    req GET "/api/v1/queries/q/progress/recent?limit=$bad" "${AUTH[@]}"
    expect 400 "limit=$bad"
    expect_json_error 400
done

echo "-- POST stop: the state changes in SHOW QUERIES"
req POST /api/v1/queries/q/stop "${AUTH[@]}"
expect 200 "stop"
[ "$(jget status.state)" = STOPPED ] || fail "stop answered $(jget status.state)"
[ "$(sql -c 'SHOW QUERIES' | cut -d'|' -f3)" = STOPPED ] || fail "SHOW QUERIES after HTTP stop"

echo "-- stopped: /progress and /progress/recent equal SHOW [RECENT] PROGRESS exactly"
curl -s "${AUTH[@]}" "$H/api/v1/queries/q/progress" > "$T/p1"
printf '%s\n' "$(cat "$T/p1")" | cmp -s - <(sql -c "SHOW PROGRESS q") || fail "stopped /progress != SHOW PROGRESS"
curl -s "${AUTH[@]}" "$H/api/v1/queries/q/progress/recent" > "$T/r1"
printf '[%s]\n' "$(sql -c "SHOW RECENT PROGRESS q" | paste -sd,)" | cmp -s - <(cat "$T/r1"; echo) \
    || fail "/progress/recent != SHOW RECENT PROGRESS"
n=$("$JSON_TOOL" len "$T/r1")
[ "$(jget $((n - 1)) "$T/r1")" = "$(jget . "$T/p1")" ] || fail "last of recent is not lastProgress"

echo "-- POST start"
req POST /api/v1/queries/q/start "${AUTH[@]}"
expect 200 "start"
[ "$(jget status.state)" = ACTIVE ] || fail "start answered $(jget status.state)"
[ "$(sql -c 'SHOW QUERIES' | cut -d'|' -f3)" = ACTIVE ] || fail "SHOW QUERIES after HTTP start"
req POST /api/v1/queries/q/start "${AUTH[@]}"
expect 200 "start of an active query"
[ "$(jget status.state)" = ACTIVE ] || fail "second start"

echo "-- priorities: HTTP threads at http_nice (19), the query started over HTTP not"
ps -L -o ni=,comm= -p "$SL_PID" > "$T/threads"
mhd=$(awk '$2 == "MHD-worker" && $1 == 19' "$T/threads" | wc -l)
low=$(awk '$1 == 19' "$T/threads" | wc -l)
[ "$mhd" -ge 1 ] || fail "no libmicrohttpd thread at nice 19: $(cat "$T/threads")"
[ "$low" = "$mhd" ] || fail "a thread other than libmicrohttpd's inherited nice 19: $(cat "$T/threads")"

echo "-- 404: unknown query and path"
for p in /api/v1/queries/nope /api/v1/queries/nope/progress /api/v1/queries/nope/progress/recent \
         /nope /api/v1 /api/v1/queries/ /api/v1/queries/q/bogus /api/v1/queries/q/progress/x /index.htm; do
    req GET "$p" "${AUTH[@]}"
    expect 404 "GET $p"
    expect_json_error 404
done
req POST /api/v1/queries/nope/stop "${AUTH[@]}"
expect 404 "POST stop of an unknown query"
expect_json_error 404
req POST /api/v1/queries/Q/stop "${AUTH[@]}"
expect 404 "names are matched exactly"

echo "-- 405 with Allow"
req DELETE /api/v1/queries "${AUTH[@]}"
expect 405 "DELETE list"
[ "$(header Allow)" = "GET, HEAD" ] || fail "Allow of the list: $(header Allow)"
expect_json_error 405
req GET /api/v1/queries/q/stop "${AUTH[@]}"
expect 405 "GET stop"
[ "$(header Allow)" = "POST" ] || fail "Allow of stop: $(header Allow)"
req PUT /metrics "${AUTH[@]}"
expect 405 "PUT /metrics"
req POST /api/v1/queries/q/progress "${AUTH[@]}"
expect 405 "POST progress"

echo "-- 400: malformed escapes, a body where none is taken"
req GET "/api/v1/queries/q%zz" "${AUTH[@]}"
expect 400 "malformed escape"
expect_json_error 400
req GET "/api/v1/queries/q%00" "${AUTH[@]}"
expect 400 "escaped NUL"
req POST /api/v1/queries/q/stop "${AUTH[@]}" -d 'now=1'
expect 400 "POST stop with a body"
expect_json_error 400
[ "$(sql -c 'SHOW QUERIES' | cut -d'|' -f3)" = ACTIVE ] || fail "a refused stop stopped the query"

echo "-- 413: bodies over http_max_request_bytes, with a length and chunked"
head -c 4096 /dev/zero | tr '\0' x > "$T/big"
req POST /api/v1/queries/q/stop "${AUTH[@]}" --data-binary @"$T/big"
expect 413 "oversized body"
expect_json_error 413
req POST /api/v1/queries/q/stop "${AUTH[@]}" -H "Transfer-Encoding: chunked" --data-binary @"$T/big"
expect 413 "oversized chunked body"
req POST /api/v1/queries/q/stop -H "Authorization: Bearer wrong" --data-binary @"$T/big"
expect 413 "size is checked before the token"
head -c 3000000 /dev/zero > "$T/huge"
req POST /api/v1/queries/q/stop "${AUTH[@]}" -H "Transfer-Encoding: chunked" --data-binary @"$T/huge"
[ "$CODE" = 413 ] || [ "$CODE" = 000 ] || [ "$CODE" = curl-failed ] || fail "a 3 MB chunked body got $CODE"
req GET /healthz
expect 200 "/healthz after an endless body was cut off"
[ "$(sql -c 'SHOW QUERIES' | cut -d'|' -f3)" = ACTIVE ] || fail "an oversized request stopped the query"

echo "-- a quoted name with a slash and a space is reachable escaped"
sql -c 'CREATE QUERY "a/b c" AS SELECT value FROM s;' || fail "CREATE QUERY \"a/b c\""
req GET "/api/v1/queries/a%2Fb%20c" "${AUTH[@]}"
expect 200 "escaped name"
[ "$(jget name)" = "a/b c" ] || fail "escaped name resolved to $(jget name)"
req POST "/api/v1/queries/a%2Fb%20c/stop" "${AUTH[@]}"
expect 200 "stop of the escaped name"

echo "-- after a restart a stopped query has no progress: null, [], lastProgress null"
req POST /api/v1/queries/q/stop "${AUTH[@]}"
expect 200 "stop before restart"
stop_daemon || fail "daemon did not stop cleanly"
grep -q "http: stopped" "$T/d/log" || fail "the HTTP server did not log its stop"
mv "$T/d/log" "$T/d/log.1"
start_daemon "$T/d" -c "http_token=$TOKEN" || fail "restart"
http_up
req GET /api/v1/queries/q/progress "${AUTH[@]}"
expect 200 "progress of a query without progress"
[ "$(cat "$T/body")" = null ] || fail "progress before the first report is not null"
req GET /api/v1/queries/q/progress/recent "${AUTH[@]}"
[ "$(cat "$T/body")" = "[]" ] || fail "recent before the first report is not []"
req GET /api/v1/queries/q "${AUTH[@]}"
[ "$(jget lastProgress)" = null ] || fail "lastProgress before the first report"
[ "$(jget status.state)" = STOPPED ] || fail "q did not stay stopped"

stop_daemon || fail "daemon did not stop cleanly"
echo "http_api: ok"
