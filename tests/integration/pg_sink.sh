#!/usr/bin/env bash
# The postgres sink against a real PostgreSQL 15 (tests/pg_server.sh): append
# through COPY, update (a grouped count revised over three batches: one row
# per key with the final values, compared with the same GROUP BY run in
# PostgreSQL over the same rows), complete, the progress table, a replay
# after kill -9 between the PostgreSQL commit and sluice's commit log
# (skipped: no duplicates), and the failures: bad URL (08001), wrong
# password (28P01), a column type mismatch naming the column (42804), a
# constraint violation (23505), and a server stopped and restarted while
# the query runs (retried, every row exactly once).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/pg_server.sh
work=$(mktemp -d /tmp/sluice-pg-sink-XXXXXX)
chmod 755 "$work"
trap 'kill -9 ${SL_PID:-} 2>/dev/null; pg_server_stop immediate; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }
ok() { echo "ok   $*"; }
pq() { pg_sql -q -A -t -v ON_ERROR_STOP=1 "$@"; }

pg_server_start "$work/pg" || fail "postgres"
mkdir -p "$work/in"
# three files of rows (id, k): ids 1..300, k = id % 7
for f in 1 2 3; do
    seq $(((f - 1) * 100 + 1)) $((f * 100)) | awk '{ printf "{\"id\":%d,\"k\":%d}\n", $1, $1 % 7 }' >"$work/in/.f$f"
    mv "$work/in/.f$f" "$work/in/f$f.json"
done
cat "$work/in"/f*.json | sed 's/{"id":\([0-9]*\),"k":\([0-9]*\)}/\1\t\2/' >"$work/rows.tsv"
pq -c "CREATE TABLE src (id int, k int)" -c "\\copy src FROM '$work/rows.tsv'" || fail "src table"
start_daemon "$work" || fail "daemon did not start"
sql -c "CREATE STREAM ev (id INT, k INT) USING file OPTIONS (path '$work/in', format 'json', maxFilesPerTrigger '1')" ||
    fail "create stream"

# ---- 1. append, update, complete
sql <<SQL >/dev/null || fail "create queries"
CREATE QUERY qa SINK postgres OPTIONS (url '$PG_URL', table 'public.ev_out', createTable 'true')
  TRIGGER AVAILABLE NOW AS SELECT id, k, CAST(id AS STRING) AS s, id * 0.5 AS d FROM ev;
CREATE QUERY qu SINK postgres OPTIONS (url '$PG_URL', table 'counts_u', createTable 'true')
  OUTPUT MODE update TRIGGER AVAILABLE NOW AS SELECT k, count(*) AS n, sum(id) AS total FROM ev GROUP BY k;
CREATE QUERY qc SINK postgres OPTIONS (url '$PG_URL', table 'counts_c', createTable 'true')
  OUTPUT MODE complete TRIGGER AVAILABLE NOW AS SELECT k, count(*) AS n FROM ev GROUP BY k;
AWAIT QUERY qa TIMEOUT '30 seconds';
AWAIT QUERY qu TIMEOUT '30 seconds';
AWAIT QUERY qc TIMEOUT '30 seconds';
SQL
got=$(pq -c "SELECT count(*), count(DISTINCT id), sum(id), sum(d) FROM ev_out")
[ "$got" = "300|300|45150|22575.0" ] || fail "append: $got"
pq -c "SELECT id, k, s FROM ev_out ORDER BY 1" >"$work/got.txt" || fail "read ev_out"
pq -c "SELECT id, k, id::text FROM src ORDER BY 1" >"$work/want.txt" || fail "read src"
[ -s "$work/want.txt" ] && diff "$work/got.txt" "$work/want.txt" >/dev/null || fail "append differs from the input"
ok "append: 300 rows by COPY, equal to the input"
want=$(pq -c "SELECT k, count(*), sum(id) FROM src GROUP BY k ORDER BY k")
got=$(pq -c "SELECT k, n, total FROM counts_u ORDER BY k")
[ "$got" = "$want" ] || fail "update: $got, want $want"
[ "$(pq -c "SELECT count(*) FROM pg_index WHERE indrelid = 'counts_u'::regclass AND indisprimary")" = 1 ] ||
    fail "update: no primary key"
[ "$(pq -c "SELECT batch_id FROM sluice_sink_progress WHERE query_name = 'qu'")" = 2 ] || fail "progress of qu"
ok "update: one row per key after 3 batches, equal to GROUP BY in PostgreSQL; progress batch 2"
got=$(pq -c "SELECT k, n FROM counts_c ORDER BY k")
[ "$got" = "$(pq -c "SELECT k, count(*) FROM src GROUP BY k ORDER BY k")" ] || fail "complete: $got"
ok "complete: the table replaced by the whole result"

# ---- 1b. eight sinks starting at once create one missing progress table
# (PostgreSQL's CREATE TABLE IF NOT EXISTS races: the losers see 42P07,
# 42710 or 23505, none of which may fail the query)
race=""
for i in 1 2 3 4 5 6 7 8; do
    race+="CREATE QUERY race$i SINK postgres OPTIONS (url '$PG_URL', table 'race_$i', createTable 'true',
  progressTable 'race_progress') TRIGGER AVAILABLE NOW AS SELECT id FROM ev WHERE k = $((i % 7));
"
done
for i in 1 2 3 4 5 6 7 8; do race+="AWAIT QUERY race$i TIMEOUT '30 seconds';
"; done
sql <<<"$race" >/dev/null || fail "eight sinks starting at once"
[ "$(pq -c "SELECT count(*), max(batch_id) FROM race_progress")" = "8|2" ] ||
    fail "race_progress: $(pq -c "SELECT * FROM race_progress")"
ok "eight sinks starting at once: one progress table, 8 rows at batch 2"

# ---- 2. replay after a crash between the PostgreSQL commit and sluice's commit log
stop_daemon || fail "stop"
SLUICE_FAILPOINT="sink.postgres.after_commit:2" start_daemon "$work" >/dev/null 2>&1 || fail "restart with failpoint"
sql -c "CREATE QUERY qr SINK postgres OPTIONS (url '$PG_URL', table 'replay', createTable 'true')
  AS SELECT id, k FROM ev" >/dev/null || fail "create qr"
wait_for 30 bash -c "! kill -0 $SL_PID 2>/dev/null" || fail "failpoint never reached"
wait "$SL_PID" 2>/dev/null; SL_PID=""
[ "$(pq -c "SELECT count(*) FROM replay")" = 200 ] || fail "before replay: $(pq -c "SELECT count(*) FROM replay")"
start_daemon "$work" || fail "restart"
wait_for 30 bash -c "[ \"\$(psql -X -q -A -t -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -c 'SELECT count(*) FROM replay')\" = 300 ]" ||
    fail "after replay: $(pq -c "SELECT count(*) FROM replay")"
grep -q "skipping already committed batch 1 query=qr" "$work/log" || fail "replay not skipped"
[ "$(pq -c "SELECT count(DISTINCT id) FROM replay")" = 300 ] || fail "duplicates after replay"
ok "kill -9 after the PostgreSQL commit: batch 1 skipped on replay, 300 rows, no duplicates"
sql -c "STOP QUERY qr" >/dev/null

# ---- 3. failures
failed() { # QUERY SQLSTATE TEXT
    local out; out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY $1 TIMEOUT '30 seconds'" 2>&1) && fail "$1 succeeded"
    case "$out" in *"$2"*"$3"*) ;; *) fail "$1: $out" ;; esac
}
bad_port=$((PG_PORT + 1))
sql -c "CREATE QUERY f1 SINK postgres OPTIONS (url 'postgresql://postgres@127.0.0.1:$bad_port/postgres', table 't')
  TRIGGER AVAILABLE NOW AS SELECT id FROM ev" >/dev/null 2>&1
failed f1 08001 "postgres sink"
ok "connection refused: FAILED 08001"
pq -c "CREATE ROLE alice LOGIN PASSWORD 'rightpw'" || fail "role"
sed -i '1i host all alice 127.0.0.1/32 scram-sha-256' "$PG_DATA/pg_hba.conf"
pq -c "SELECT pg_reload_conf()" >/dev/null
sql -c "CREATE QUERY f2 SINK postgres OPTIONS (url 'postgresql://alice:wrongpw@127.0.0.1:$PG_PORT/postgres', table 't')
  TRIGGER AVAILABLE NOW AS SELECT id FROM ev" >/dev/null 2>&1
failed f2 28P01 "password authentication failed"
out=$(sql -c "DESCRIBE f2"; sql -c "SHOW QUERIES"; sql -c "SHOW PROGRESS f2"; curl -s "http://127.0.0.1:$SL_HTTP_PORT/api/v1/queries/f2"; cat "$work/log")
case "$out" in *wrongpw*) fail "the URL's password is shown: $(echo "$out" | grep wrongpw | head -n 3)" ;; esac
echo "$out" | grep -q "postgresql://alice:\*\*\*\*\*\*\*\*@127.0.0.1" || fail "definition not redacted: $out"
ok "the URL's password redacted in DESCRIBE, SHOW, progress, HTTP and the log"
ok "wrong password: FAILED 28P01"
pq -c "CREATE TABLE typed (id int, k text)"
sql -c "CREATE QUERY f3 SINK postgres OPTIONS (url '$PG_URL', table 'typed')
  TRIGGER AVAILABLE NOW AS SELECT id, k FROM ev" >/dev/null 2>&1
failed f3 42804 'column "k" of table "typed" is text, but the query'"'"'s column is INT'
ok "type mismatch: FAILED 42804 naming the column and both types"
pq -c "CREATE TABLE uniq (id int, k int UNIQUE)"
sql -c "CREATE QUERY f4 SINK postgres OPTIONS (url '$PG_URL', table 'uniq')
  TRIGGER AVAILABLE NOW AS SELECT id, k FROM ev" >/dev/null 2>&1
failed f4 23505 "duplicate key"
[ "$(pq -c "SELECT count(*) FROM uniq")" = 0 ] || fail "a failed batch was half-written"
ok "constraint violation: FAILED 23505, nothing written"

# ---- 4. the server stops for a while: the batch is retried
mkdir -p "$work/in2"
sql -c "CREATE STREAM ev2 (id INT, k INT) USING file OPTIONS (path '$work/in2', format 'json')" >/dev/null || fail "ev2"
sql -c "CREATE QUERY qo SINK postgres OPTIONS (url '$PG_URL', table 'outage', createTable 'true',
  retries '10', retryBackoff '1s') TRIGGER PROCESSING TIME '200 milliseconds' AS SELECT id, k FROM ev2" >/dev/null ||
    fail "create qo"
cp "$work/in/f1.json" "$work/in2/.a" && mv "$work/in2/.a" "$work/in2/a.json"
count() { psql -X -q -A -t -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -c "SELECT count(*), count(DISTINCT id) FROM outage" 2>/dev/null; }
wait_for 30 bash -c "[ \"\$(psql -X -q -A -t -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -c 'SELECT count(*) FROM outage')\" = 100 ]" ||
    fail "qo first file"
pg_server_stop fast
cp "$work/in/f2.json" "$work/in2/.b" && mv "$work/in2/.b" "$work/in2/b.json"
wait_for 30 grep -q "sink.postgres.*retrying.*query=qo" "$work/log" || fail "no retry logged"
pg_server_launch || fail "postgres restart"
wait_for 30 bash -c "[ \"\$(psql -X -q -A -t -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -c 'SELECT count(*) FROM outage')\" = 200 ]" ||
    fail "after the outage: $(count)"
[ "$(count)" = "200|200" ] || fail "after the outage: $(count)"
ok "server stopped during a batch: retried, 200 rows exactly once"
sql -c "STOP QUERY qo" >/dev/null
stop_daemon || fail "stop"
