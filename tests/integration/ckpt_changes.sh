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
stop_daemon || fail "stop"
