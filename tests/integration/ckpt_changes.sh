#!/usr/bin/env bash
# Changes a checkpoint cannot take are refused when the query starts, before
# any batch runs (Spark's "Recovery Semantics after Changes in a Streaming
# Query"): another number of sources, another file sink path, another state
# schema — at CREATE QUERY on an existing checkpoint, at START QUERY, at the
# HTTP start (409) and at a daemon restart, each with SQLSTATE 55000 and a
# message showing the checkpoint's value and the query's; nothing is written.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-ckchanges-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${SL_LOG:-}" ] && [ -f "$SL_LOG" ] && tail -n 30 "$SL_LOG"; exit 1; }
TOKEN='ckpt-changes-token'

# feed DIR N: one csv file of 2 rows (ids N*10+1, N*10+2, r = N), moved in.
feed() {
    printf '%s,%s\n%s,%s\n' $(( $2 * 10 + 1 )) "$2" $(( $2 * 10 + 2 )) "$2" > "$1/.f$2.csv"
    mv "$1/.f$2.csv" "$1/f$2.csv"
}
# field Q N: column N of Q's SHOW QUERIES line (3 status, 8 last error).
field() { sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" -v n="$2" '$1 == q { print $n }'; }
await_q() { sql -c "AWAIT QUERY $1 TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT $1: $(sql -c 'SHOW QUERIES' 2>&1)"; }
# refused_sql WANT STATEMENT: the statement fails with 55000 and WANT in its message.
refused_sql() {
    local out; out=$(sql -v VERBOSITY=verbose -c "$2" 2>&1) && fail "accepted: $2"
    case "$out" in *55000*"$1"*) ;; *) fail "$2: not 55000 with '$1': $out" ;; esac
}
offsets() { ls "$1/offsets" | sort -n | tr '\n' ' '; }

mkdir -p "$work/a" "$work/b" "$work/o1" "$work/o2"
start_daemon "$work/d" -c "http_token=$TOKEN" || fail "start"
sql <<SQL >/dev/null || fail "create"
CREATE STREAM sa (id INT, r INT) USING file OPTIONS (path '$work/a', format 'csv');
CREATE STREAM sb (id INT, r INT) USING file OPTIONS (path '$work/b', format 'csv');
CREATE QUERY one CHECKPOINT '$work/c1' AS SELECT id FROM sa;
CREATE QUERY two CHECKPOINT '$work/c2' AS SELECT id FROM sa UNION ALL SELECT id FROM sb;
CREATE QUERY fs SINK file OPTIONS (path '$work/o1', format 'json') CHECKPOINT '$work/c3' AS SELECT id FROM sa;
CREATE QUERY cnt OUTPUT MODE complete CHECKPOINT '$work/c4' AS SELECT r, count(*) AS n FROM sa GROUP BY r;
CREATE QUERY sm OUTPUT MODE complete CHECKPOINT '$work/c5' AS SELECT r, sum(id) AS s FROM sa GROUP BY r;
SQL
feed "$work/a" 0
for q in one two fs cnt sm; do await_q $q; done
[ -f "$work/c3/sink/options" ] || fail "the file sink's path is not recorded: $(ls -R "$work/c3")"
grep -q "\"path\":\"$work/o1\"" "$work/c3/sink/options" || fail "sink/options: $(cat "$work/c3/sink/options")"

# 1. CREATE QUERY on an existing checkpoint: another source count, another sink path
sql -c "DROP QUERY one" >/dev/null || fail "drop one"
refused_sql "number of sources changed: checkpoint 1, query now 2" \
    "CREATE QUERY one CHECKPOINT '$work/c1' AS SELECT id FROM sa UNION ALL SELECT id FROM sb"
[ -z "$(field one 3)" ] || fail "a refused CREATE left query one: $(field one 3)"
sql -c "DROP QUERY fs" >/dev/null || fail "drop fs"
refused_sql "option \"path\" of the file sink changed: checkpoint $work/o1, query now $work/o2" \
    "CREATE QUERY fs SINK file OPTIONS (path '$work/o2', format 'json') CHECKPOINT '$work/c3' AS SELECT id FROM sa"
[ -z "$(ls "$work/o2")" ] || fail "a refused CREATE wrote to the new path: $(ls "$work/o2")"
sql -c "CREATE QUERY fs SINK file OPTIONS (path '$work/o1', format 'json') CHECKPOINT '$work/c3' AS SELECT id FROM sa" >/dev/null \
    || fail "the same path on the same checkpoint is refused"
await_q fs
echo "ok   CREATE QUERY on an existing checkpoint: another source count and another file sink path refused (55000)"

# 2. START QUERY over a checkpoint of another shape (a wrong backup restored)
sql -c "STOP QUERY two" -c "STOP QUERY sm" >/dev/null || fail "stop"
rm -rf "$work/c2" && cp -a "$work/c1" "$work/c2"
before=$(offsets "$work/c2")
refused_sql "number of sources changed: checkpoint 1, query now 2" "START QUERY two"
[ "$(field two 3)" = FAILED ] || fail "two after a refused START: $(field two 3)"
case "$(field two 8)" in *"checkpoint 1, query now 2"*) ;; *) fail "SHOW QUERIES two: $(field two 8)" ;; esac
feed "$work/a" 1
[ "$(offsets "$work/c2")" = "$before" ] || fail "offsets written after the refusal: $(offsets "$work/c2") (was $before)"
mv "$work/c5" "$work/c5.orig" && cp -a "$work/c4" "$work/c5"
refused_sql "value schema of stateful operator 0 changed: checkpoint (count(*) AS count: count BIGINT), query now (sum(id) AS sum: sum BIGINT" "START QUERY sm"
case "$(field sm 8)" in *"checkpoint (count(*)"*"query now (sum(id)"*) ;; *) fail "SHOW QUERIES sm: $(field sm 8)" ;; esac
echo "ok   START QUERY: another source count, another state schema refused before any batch, both shown, FAILED"

# 3. the HTTP start answers 409 with the message
H="http://127.0.0.1:$SL_HTTP_PORT"
code=$(curl -s -o "$work/resp" -w '%{http_code}' -X POST -H "Authorization: Bearer $TOKEN" "$H/api/v1/queries/sm/start")
[ "$code" = 409 ] || fail "HTTP start of sm: $code $(cat "$work/resp")"
grep -q '55000' "$work/resp" && grep -qF 'query now (sum(id) AS sum' "$work/resp" || fail "HTTP 409 body: $(cat "$work/resp")"
echo "ok   POST /api/v1/queries/sm/start: 409 with 55000 and both schemas"

# 4. a daemon restart: an ACTIVE query over a changed checkpoint is FAILED
#    before any batch; the refused ones stay refused; the others run on
stop_daemon || fail "stop daemon"
rm -rf "$work/c4" && mv "$work/c5.orig" "$work/c4"
cnt_before=$(offsets "$work/c4")
feed "$work/a" 2
start_daemon "$work/d" -c "http_token=$TOKEN" || fail "restart"
wait_for 20 bash -c "$(declare -f sql field); SL_PORT=$SL_PORT; [ \"\$(field cnt 3)\" = FAILED ]" \
    || fail "cnt over a changed checkpoint after the restart: $(field cnt 3) $(field cnt 8)"
case "$(field cnt 8)" in *"checkpoint (sum(id)"*"query now (count(*)"*) ;; *) fail "SHOW QUERIES cnt: $(field cnt 8)" ;; esac
[ "$(offsets "$work/c4")" = "$cnt_before" ] || fail "cnt wrote offsets: $(offsets "$work/c4") (was $cnt_before)"
refused_sql "number of sources changed: checkpoint 1, query now 2" "START QUERY two"
[ "$(offsets "$work/c2")" = "$before" ] || fail "offsets written after the restart: $(offsets "$work/c2")"
await_q fs
[ "$(cat "$work"/o1/*.json 2>/dev/null | wc -l)" -ge 6 ] || fail "fs did not go on: $(ls "$work/o1")"
echo "ok   after a daemon restart: a changed state schema FAILED at start, nothing written, the others run"

# 5. ALTER STREAM SET OPTIONS: maxFilesPerTrigger 1 -> 2 sizes the next batches
H="http://127.0.0.1:$SL_HTTP_PORT"
mkdir -p "$work/f"
# batches Q AFTER: "rows rows ..." of Q's batches with an id > AFTER.
batches() {
    curl -s -H "Authorization: Bearer $TOKEN" "$H/api/v1/queries/$1/progress/recent?limit=100" \
        | grep -o '"batchId":[0-9]*,"batchDuration":[0-9]*,"numInputRows":[0-9]*' \
        | awk -F'[:,]' -v after="$2" '$2 > after && $6 > 0 { printf "%s ", $6 }'
}
sql <<SQL >/dev/null || fail "create sf, qa"
CREATE STREAM sf (id INT, r INT) USING file OPTIONS (path '$work/f', format 'csv', maxFilesPerTrigger '1');
CREATE QUERY qa CHECKPOINT '$work/c6' AS SELECT id FROM sf;
SQL
sql -c "STOP QUERY qa" >/dev/null || fail "stop qa"
for n in 10 11 12 13; do feed "$work/f" $n; done
sql -c "START QUERY qa" >/dev/null || fail "start qa"
await_q qa
[ "$(batches qa -1)" = "2 2 2 2 " ] || fail "maxFilesPerTrigger 1: batches of $(batches qa -1), want 2 2 2 2"
last=$(field qa 4)
sql -c "STOP QUERY qa" >/dev/null || fail "stop qa"
for n in 14 15 16 17; do feed "$work/f" $n; done
sql -c "ALTER STREAM sf SET OPTIONS (maxFilesPerTrigger '2')" >/dev/null || fail "ALTER STREAM sf"
sql -c "START QUERY qa" >/dev/null || fail "start qa after ALTER"
await_q qa
[ "$(batches qa "$last")" = "4 4 " ] || fail "maxFilesPerTrigger 2: batches of $(batches qa "$last"), want 4 4"
sql -c "DESCRIBE sf" | grep -qx "Option|maxFilesPerTrigger|2" || fail "DESCRIBE sf: $(sql -c 'DESCRIBE sf')"
echo "ok   ALTER STREAM sf SET OPTIONS (maxFilesPerTrigger '2'): the next batches take 2 files (4 rows), not 1"

# 6. ALTER QUERY SET TRIGGER on a running query: restarted with it, same id
id=$(field qa 2)
sql -c "ALTER QUERY qa SET TRIGGER PROCESSING TIME '1 second'" >/dev/null || fail "ALTER QUERY qa SET TRIGGER"
[ "$(field qa 3)" = ACTIVE ] && [ "$(field qa 2)" = "$id" ] || fail "qa after ALTER: $(field qa 2) $(field qa 3)"
sql -c "DESCRIBE qa" | grep -qx "Trigger|processing time '1 second'|" || fail "DESCRIBE qa: $(sql -c 'DESCRIBE qa' | grep Trigger)"
wait_for 20 bash -c "curl -s -H 'Authorization: Bearer $TOKEN' $H/api/v1/queries/qa | grep -qF '\"trigger\":\"processing time '\''1 second'\''\"'" \
    || fail "HTTP qa trigger: $(curl -s -H "Authorization: Bearer $TOKEN" "$H/api/v1/queries/qa")"
feed "$work/f" 18
await_q qa
echo "ok   ALTER QUERY qa SET TRIGGER PROCESSING TIME '1 second': ACTIVE with the same id, DESCRIBE and the HTTP API show it"

# 7. a refused ALTER changes nothing
sdef=$(sql -c "DESCRIBE sf"); qdef=$(sql -c "DESCRIBE fs" | grep Definition)
refused_sql 'option "path" of stream "sf" cannot be changed' "ALTER STREAM sf SET OPTIONS (maxFilesPerTrigger '3', path '/elsewhere')"
refused_sql 'option "path" of query "fs" cannot be changed' "ALTER QUERY fs SET OPTIONS (path '/elsewhere')"
refused_sql 'cannot change to TRIGGER CONTINUOUS' "ALTER QUERY qa SET TRIGGER CONTINUOUS '1 second'"
[ "$(sql -c 'DESCRIBE sf')" = "$sdef" ] || fail "a refused ALTER STREAM changed sf: $(sql -c 'DESCRIBE sf')"
[ "$(sql -c 'DESCRIBE fs' | grep Definition)" = "$qdef" ] || fail "a refused ALTER QUERY changed fs"
echo "ok   refused ALTERs (a file path, CONTINUOUS) leave the stream and the queries as they were"

# 8. kept across a daemon restart
stop_daemon || fail "stop before the last restart"
start_daemon "$work/d" -c "http_token=$TOKEN" || fail "last restart"
sql -c "DESCRIBE sf" | grep -qx "Option|maxFilesPerTrigger|2" || fail "sf after restart: $(sql -c 'DESCRIBE sf')"
sql -c "DESCRIBE qa" | grep -qx "Trigger|processing time '1 second'|" || fail "qa after restart: $(sql -c 'DESCRIBE qa' | grep Trigger)"
wait_for 20 bash -c "$(declare -f sql field); SL_PORT=$SL_PORT; [ \"\$(field qa 3)\" = ACTIVE ]" || fail "qa not resumed"
echo "ok   after a daemon restart: the altered options and trigger are kept"
stop_daemon || fail "stop"
