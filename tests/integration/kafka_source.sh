#!/usr/bin/env bash
# The Kafka source against librdkafka's mock cluster (tests/tools/kafka_mock):
# startingOffsets earliest/latest/JSON, exact rows and offsets, Spark's raw
# columns and from_json, maxOffsetsPerTrigger splitting batches, the
# initial offsets file, kill -9 and restart with no loss and no duplicate,
# a topic appearing in the subscription, malformed records in the three
# modes with badRecordsPath, and failOnDataLoss when old offsets age out.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
work=$(mktemp -d /tmp/sluice-kafka-src-XXXXXX)
MOCK_DIR=$work
trap 'kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }
ok() { echo "ok   $*"; }

start_mock "$work" -t ev:3 -t big:2 -t mal:1 -t loss:1 -t ta:1 || fail "mock"
for p in 0 1 2; do produce_json ev $p $((p * 100 + 1)) $((p * 100 + 10)); done
start_daemon "$work" || fail "daemon did not start"

# ---- 1. earliest: every row, decoded, and the raw columns at exact offsets
sql <<SQL || fail "create ev streams"
CREATE STREAM ev (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', startingOffsets 'earliest');
CREATE STREAM ev_raw USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', startingOffsets 'earliest');
CREATE QUERY q_ev AS SELECT id, name FROM ev;
CREATE QUERY q_raw AS SELECT topic, partition, offset, CAST(value AS STRING) AS v,
  from_json(CAST(value AS STRING), 'id INT, name STRING').id AS id, key, timestamp FROM ev_raw;
AWAIT QUERY q_ev TIMEOUT '30 seconds';
AWAIT QUERY q_raw TIMEOUT '30 seconds';
SQL
got=$(sql -c "SELECT count(*), count(DISTINCT id), sum(id), min(id), max(id), sum(CASE WHEN name = 'n' || CAST(id AS STRING) THEN 1 ELSE 0 END) FROM q_ev")
[ "$got" = "30|30|3165|1|210|30" ] || fail "earliest rows: $got"
# every message at its offset: id = partition*100 + offset + 1, value the JSON produced
bad=$(sql -c "SELECT count(*) FROM q_raw WHERE topic <> 'ev' OR id <> partition * 100 + offset + 1
  OR v <> '{\"id\":' || CAST(id AS STRING) || ',\"name\":\"n' || CAST(id AS STRING) || '\"}'
  OR key IS NOT NULL OR timestamp IS NULL")
[ "$bad" = 0 ] || fail "$bad raw rows do not match their offsets"
got=$(sql -c "SELECT count(*), min(offset), max(offset), count(DISTINCT partition) FROM q_raw")
[ "$got" = "30|0|9|3" ] || fail "raw offsets: $got"
# the initial offsets file: a zero byte, v1, the JSON (Spark's KafkaSourceInitialOffsetWriter)
printf '\0v1\n{"ev":{"0":0,"1":0,"2":0}}' | cmp -s - "$work/data/checkpoints/q_ev/sources/0/0" \
    || fail "sources/0/0: $(od -c "$work/data/checkpoints/q_ev/sources/0/0" | head -3)"
prog=$(sql -c "SHOW RECENT PROGRESS q_ev" | grep -m1 '"batchId":0,')
case "$prog" in
*'"description":"KafkaV2[Subscribe[ev]]","startOffset":null,"endOffset":{"ev":{"0":10,"1":10,"2":10}},"latestOffset":{"ev":{"0":10,"1":10,"2":10}},"numInputRows":30'*) ;;
*) fail "progress of q_ev: $prog" ;;
esac
case "$prog" in
*'"metrics":{"avgOffsetsBehindLatest":"0.0","maxOffsetsBehindLatest":"0","minOffsetsBehindLatest":"0"}'*) ;;
*) fail "offsets-behind metrics: $prog" ;;
esac
ok "startingOffsets earliest: rows, raw columns at exact offsets, from_json, initial offsets file, progress"

# ---- 2. latest and JSON starting offsets; new messages reach every query
sql <<SQL || fail "create latest/json streams"
CREATE STREAM ev_latest (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', startingOffsets 'latest');
CREATE STREAM ev_json (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', startingOffsets '{"ev":{"0":5,"1":-2,"2":-1}}');
CREATE QUERY q_latest AS SELECT id FROM ev_latest;
CREATE QUERY q_json AS SELECT id FROM ev_json;
AWAIT QUERY q_latest TIMEOUT '30 seconds';
AWAIT QUERY q_json TIMEOUT '30 seconds';
SQL
printf '\0v1\n{"ev":{"0":10,"1":10,"2":10}}' | cmp -s - "$work/data/checkpoints/q_latest/sources/0/0" \
    || fail "latest initial offsets file"
printf '\0v1\n{"ev":{"0":5,"1":0,"2":10}}' | cmp -s - "$work/data/checkpoints/q_json/sources/0/0" \
    || fail "json initial offsets file"
got=$(sql -c "SELECT count(*), min(id), max(id) FROM q_json")
[ "$got" = "15|6|110" ] || fail "json start offsets read: $got"
[ "$(sql -c "SELECT count(*) FROM q_latest")" = 0 ] || fail "latest read old messages"
produce_json ev 2 211 215
for q in q_latest q_json q_ev; do sql -c "AWAIT QUERY $q TIMEOUT '30 seconds'" >/dev/null || fail "await $q"; done
got=$(sql -c "SELECT count(*), min(id), max(id) FROM q_latest")
[ "$got" = "5|211|215" ] || fail "latest: $got"
[ "$(sql -c "SELECT count(*) FROM q_json")" = 20 ] || fail "json after new messages"
[ "$(sql -c "SELECT count(*), count(DISTINCT id) FROM q_ev")" = "35|35" ] || fail "earliest after new messages"
ok "startingOffsets latest and JSON (-2, -1, an offset), then new messages"

# ---- 3. maxOffsetsPerTrigger splits the backlog, prorated over partitions
seq 1 1000 | awk '{printf "{\"id\":%d}\n", $1}' | produce big 0
seq 1001 1600 | awk '{printf "{\"id\":%d}\n", $1}' | produce big 1
sql <<SQL || fail "create big"
CREATE STREAM big (id INT) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'big', startingOffsets 'earliest', maxOffsetsPerTrigger '300');
CREATE QUERY q_big AS SELECT id FROM big;
AWAIT QUERY q_big TIMEOUT '60 seconds';
SQL
[ "$(sql -c "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM q_big")" = "1600|1600|1|1600" ] \
    || fail "rate-limited rows"
rows=$(sql -c "SHOW RECENT PROGRESS q_big" | sed -n 's/.*"batchId":\([0-9]*\),.*"numInputRows":\([0-9]*\),"inputRowsPerSecond.*/\1 \2/p')
nb=$(echo "$rows" | awk '$2 > 0' | wc -l)
max=$(echo "$rows" | awk 'BEGIN{m=0} $2 > m {m=$2} END{print m}')
[ "$nb" -ge 6 ] && [ "$max" -le 300 ] || fail "batches with data: $nb, largest $max (want >= 6 batches of <= 300): $rows"
# the first batch: 300 over sizes 1000 and 600 -> floor(187.5) + floor(112.5)
first=$(sql -c "SHOW RECENT PROGRESS q_big" | grep -m1 '"numInputRows":[1-9]')
case "$first" in *'"endOffset":{"big":{"0":187,"1":112}}'*) ;; *) fail "first rate-limited batch: $first" ;; esac
ok "maxOffsetsPerTrigger: $nb batches, none above 300 rows, Spark's proration"

# ---- 4. kill -9 while a rate-limited query writes files: no loss, no duplicate
seq 1 3000 | awk '{printf "{\"id\":%d}\n", $1}' | produce ta 0
sql <<SQL || fail "create ta"
CREATE STREAM ta_s (id INT) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'ta,tb', startingOffsets 'earliest', maxOffsetsPerTrigger '100');
CREATE QUERY q_ta SINK file OPTIONS (path '$work/out', format 'json')
  TRIGGER PROCESSING TIME '100 milliseconds' AS SELECT id FROM ta_s;
CREATE TABLE out_ta (id INT) USING json OPTIONS (path '$work/out');
SQL
# crash in the middle: after 3 of the 30 batches
wait_for 30 bash -c "[ \$(ls '$work/out/_sluice_metadata' 2>/dev/null | wc -l) -ge 3 ]" || fail "no batch before the crash"
kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
done_before=$(ls "$work/out/_sluice_metadata" | wc -l)
[ "$done_before" -lt 30 ] || fail "the query finished before the crash"
start_daemon "$work" || fail "restart"
sql -c "AWAIT QUERY q_ta TIMEOUT '90 seconds'" >/dev/null || fail "await after restart"
got=$(sql -c "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM out_ta")
[ "$got" = "3000|3000|1|3000" ] || fail "after kill -9: $got"
ok "kill -9 after $done_before batches, restart: 3000 rows exactly once"

# ---- 5. a topic of the subscription that appears later is read from its start
produce_json tb 1 9001 9004
produce_json tb 0 9005 9006
sql -c "AWAIT QUERY q_ta TIMEOUT '60 seconds'" >/dev/null || fail "await tb"
got=$(sql -c "SELECT count(*), min(id), max(id) FROM out_ta WHERE id > 9000")
[ "$got" = "6|9001|9006" ] || fail "rows of the new topic: $got"
prog=$(sql -c "SHOW PROGRESS q_ta")
case "$prog" in *'"description":"KafkaV2[Subscribe[ta, tb]]"'*'"tb":{"0":2,"1":4'*) ;; *) fail "progress with tb: $prog" ;; esac
ok "new topic picked up in the subscription"

# ---- 6. malformed records: PERMISSIVE, DROPMALFORMED, FAILFAST, badRecordsPath
printf '%s\n' '{"id":1,"name":"a"}' '{"id":2,"name":' '{"id":"x"}' '{"id":4,"name":"d"}' | produce mal 0
sql <<SQL || fail "create mal"
CREATE STREAM mal_p (id INT, name STRING, _corrupt_record STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'mal', startingOffsets 'earliest', badRecordsPath '$work/bad');
CREATE STREAM mal_d (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'mal', startingOffsets 'earliest', mode 'DROPMALFORMED');
CREATE STREAM mal_f (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'mal', startingOffsets 'earliest', mode 'FAILFAST');
CREATE QUERY q_mp AS SELECT id, name, _corrupt_record FROM mal_p;
CREATE QUERY q_md AS SELECT id, name FROM mal_d;
AWAIT QUERY q_mp TIMEOUT '30 seconds';
AWAIT QUERY q_md TIMEOUT '30 seconds';
SQL
got=$(sql -c "SELECT coalesce(CAST(id AS STRING), '-'), coalesce(name, '-'), coalesce(_corrupt_record, '-') FROM q_mp ORDER BY _corrupt_record, id")
want=$(printf '%s\n' '-|-|{"id":"x"}' '-|-|{"id":2,"name":' '1|a|-' '4|d|-')
[ "$got" = "$want" ] || fail "PERMISSIVE rows: $got"
[ "$(sql -c "SELECT count(*), sum(id) FROM q_md")" = "2|5" ] || fail "DROPMALFORMED rows"
sql -c "SHOW PROGRESS q_md" | grep -q '"numMalformedRecords":"2"' \
    || fail "numMalformedRecords of q_md: $(sql -c "SHOW PROGRESS q_md")"
grep -q '"path":"mal-0","offset":1,"record":"{\\"id\\":2,\\"name\\":"' "$work"/bad/q_mp-source0.json \
    || fail "bad record file: $(cat "$work"/bad/* 2>&1)"
[ "$(wc -l < "$work/bad/q_mp-source0.json")" = 2 ] || fail "two bad records expected"
sql -c "CREATE QUERY q_mf AS SELECT id, name FROM mal_f" >/dev/null || fail "create q_mf"
wait_for 30 status_is q_mf FAILED || fail "FAILFAST query did not fail"
sql -c "SHOW QUERIES" | grep '^q_mf|' | grep -q 'malformed record in topic partition "mal-0" at offset 1' \
    || fail "FAILFAST error: $(sql -c "SHOW QUERIES" | grep '^q_mf|')"
ok "malformed records: PERMISSIVE with _corrupt_record, DROPMALFORMED, FAILFAST naming the offset, badRecordsPath"

# ---- 7. failOnDataLoss: offsets that aged out of the log (the mock keeps ~5 MB a partition)
produce_json loss 0 1 10
sql <<SQL || fail "create loss"
CREATE STREAM loss_t (id INT) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'loss', startingOffsets 'earliest');
CREATE STREAM loss_f (id INT) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'loss', startingOffsets 'earliest', failOnDataLoss 'false');
CREATE QUERY q_lt AS SELECT id FROM loss_t;
CREATE QUERY q_lf AS SELECT id FROM loss_f;
AWAIT QUERY q_lt TIMEOUT '30 seconds';
AWAIT QUERY q_lf TIMEOUT '30 seconds';
STOP QUERY q_lt;
STOP QUERY q_lf;
SQL
seq 11 80010 | awk '{printf "{\"id\":%d,\"pad\":\"%080d\"}\n", $1, 0}' | produce loss 0
earliest=$(consume loss -o beginning -c 1 -f '%o\n')
[ "$earliest" -gt 10 ] || fail "the mock kept offset $earliest: nothing aged out"
sql -c "START QUERY q_lt" -c "START QUERY q_lf" >/dev/null || fail "start loss queries"
wait_for 30 status_is q_lt FAILED || fail "failOnDataLoss true did not fail"
err=$(sql -c "SHOW QUERIES" | grep '^q_lt|')
case "$err" in *"offsets 10 to $((earliest - 1)) of kafka partition loss-0 were deleted"*) ;; *) fail "data loss error: $err" ;; esac
out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY q_lt TIMEOUT '5 seconds'" 2>&1) && fail "AWAIT q_lt succeeded"
case "$out" in *"ERROR:  22000: query \"q_lt\" failed"*DETAIL*"kafka data may have been lost"*) ;; *) fail "AWAIT q_lt after data loss: $out" ;; esac
sql -c "AWAIT QUERY q_lf TIMEOUT '60 seconds'" >/dev/null || fail "failOnDataLoss false did not continue"
got=$(sql -c "SELECT count(*), min(id) FROM q_lf WHERE id > 10")
[ "$got" = "$((80010 - earliest))|$((earliest + 1))" ] || fail "failOnDataLoss false rows: $got (earliest $earliest)"
grep -q "possible data loss: offsets 10 to $((earliest - 1)) of kafka partition loss-0" "$work/log" \
    || fail "no data loss warning logged"
ok "failOnDataLoss: true fails (22000) naming loss-0 and offsets 10..$((earliest - 1)); false continues from $earliest"

# ---- 8. option checks at CREATE STREAM
out=$(sql -c "CREATE STREAM bad1 (a INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT')" 2>&1)
case "$out" in *"exactly one of the options subscribe and assign"*) ;; *) fail "no subscribe: $out" ;; esac
out=$(sql -c "CREATE STREAM bad2 (a INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'x', 'kafka.no.such.thing' '1')" 2>&1)
case "$out" in *'invalid kafka option "kafka.no.such.thing"'*) ;; *) fail "bad passthrough: $out" ;; esac
out=$(sql -c "CREATE STREAM bad3 (a INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'x', startingOffsets '{\"x\":[1]}')" 2>&1)
case "$out" in *'invalid value'*'startingOffsets'*) ;; *) fail "bad startingOffsets: $out" ;; esac
out=$(sql -c "CREATE STREAM bad4 (a INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'x', 'kafka.enable.auto.commit' 'true')" 2>&1)
case "$out" in *'kafka option "kafka.enable.auto.commit" cannot be set'*) ;; *) fail "auto commit: $out" ;; esac
ok "option checks at CREATE STREAM"

stop_daemon || fail "stop"
echo "kafka source: all checks passed"
