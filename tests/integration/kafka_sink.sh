#!/usr/bin/env bash
# The Kafka sink against librdkafka's mock cluster (tests/tools/kafka_mock),
# fed by a Kafka stream and read back with kcat: the value/key columns and
# their checks at CREATE QUERY, at-least-once delivery across kill -9 and a
# broker outage (a failed delivery fails the batch; the re-run delivers it),
# and exactlyOnce: one transaction per batch whose messages carry the batch
# id, read with isolation.level=read_committed, no batch committed twice
# across crashes at sink.kafka.before_commit and sink.kafka.after_commit;
# ALTER QUERY SET OPTIONS (topic) sends the next batches to another topic.
# (The mock does not hide aborted messages from read_committed readers, so
# it cannot show an aborted batch disappearing: see sink_kafka.c.)
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
work=$(mktemp -d /tmp/sluice-kafka-sink-XXXXXX)
MOCK_DIR=$work
trap 'kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }
ok() { echo "ok   $*"; }

start_mock "$work" -t in:2 -t out_alo:3 -t out_eo:3 -t out_down:1 || fail "mock"
produce_json in 0 1 1000
produce_json in 1 1001 2000
start_daemon "$work" || fail "daemon did not start"
sql -c "CREATE STREAM ins (id INT, name STRING) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT',
  subscribe 'in', startingOffsets 'earliest', maxOffsetsPerTrigger '200')" >/dev/null || fail "create ins"

# ids N..M each exactly once (and nothing else) in the lines of stdin
exactly() {
    local got; got=$(sort -n | uniq -c | awk -v lo="$1" -v hi="$2" '
        $1 != 1 { dup++ } $2 < lo || $2 > hi { odd++ } { n++ }
        END { printf "%d %d %d", n, dup + 0, odd + 0 }')
    [ "$got" = "$(($2 - $1 + 1)) 0 0" ] || { echo "ids $1..$2: got $got (distinct, duplicated, foreign)"; return 1; }
}

# ---- 1. schema checks at CREATE QUERY
out=$(sql -v VERBOSITY=verbose -c "CREATE QUERY bad1 SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 't')
  AS SELECT id AS value FROM ins" 2>&1)
case "$out" in *42804*'column "value" of a kafka sink must be text or bytea, not integer'*) ;; *) fail "INT value: $out" ;; esac
out=$(sql -v VERBOSITY=verbose -c "CREATE QUERY bad2 SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 't')
  AS SELECT name FROM ins" 2>&1)
case "$out" in *42703*'a kafka sink needs a column named "value"'*) ;; *) fail "no value: $out" ;; esac
out=$(sql -v VERBOSITY=verbose -c "CREATE QUERY bad3 SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 't')
  AS SELECT name AS value, id AS key FROM ins" 2>&1)
case "$out" in *42804*'column "key" of a kafka sink'*) ;; *) fail "INT key: $out" ;; esac
out=$(sql -c "CREATE QUERY bad4 SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 't',
  'kafka.transactional.id' 'x') AS SELECT name AS value FROM ins" 2>&1)
case "$out" in *'kafka.transactional.id'*) ;; *) fail "transactional.id without exactlyOnce: $out" ;; esac
[ -z "$(sql -c "SHOW QUERIES" | grep '^bad')" ] || fail "a refused query was created"
ok "value and key columns checked at CREATE QUERY (42804, 42703)"

# ---- 2. at-least-once: every row arrives, keyed, across a kill -9
sql <<SQL >/dev/null || fail "create q_alo"
CREATE QUERY q_alo SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out_alo')
  TRIGGER PROCESSING TIME '300 milliseconds'
  AS SELECT CAST(id AS STRING) AS key, to_json(named_struct('id', id, 'name', name)) AS value FROM ins;
SQL
# crash in the middle: after 2 of the 10 batches are committed
wait_for 30 bash -c "[ \$(ls '$work/data/checkpoints/q_alo/commits' 2>/dev/null | wc -l) -ge 2 ]" \
    || fail "no batch before the crash"
kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
before=$(consume out_alo | wc -l)
[ "$before" -lt 2000 ] || fail "the query finished before the crash"
start_daemon "$work" || fail "restart"
sql -c "AWAIT QUERY q_alo TIMEOUT '60 seconds'" >/dev/null || fail "await q_alo"
keys=$(consume out_alo -f '%k\n' | sort -un | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print NR, lo, hi }')
[ "$keys" = "2000 1 2000" ] || fail "distinct keys after kill -9 ($before before): $keys"
bad=$(consume out_alo -f '%k %s\n' | awk '{ if ($2 != "{\"id\":" $1 ",\"name\":\"n" $1 "\"}") n++ } END { print n + 0 }')
[ "$bad" = 0 ] || fail "$bad messages do not match their keys"
total=$(consume out_alo | wc -l)
ok "at-least-once: all 2000 rows after kill -9 at $before messages ($((total - 2000)) re-sent)"

# ---- 3. a failed delivery fails the batch; the re-run delivers it (the
# mock answers produce requests with "topic authorization failed", which
# the client does not retry)
sql <<SQL >/dev/null || fail "create q_down"
CREATE QUERY q_down SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out_down',
  'kafka.message.timeout.ms' '1500') AS SELECT to_json(named_struct('id', id)) AS value FROM ins;
AWAIT QUERY q_down TIMEOUT '60 seconds';
STOP QUERY q_down;
SQL
produce_json in 0 2001 2100
mock_cmd fail-produce 1000 29 || fail "produce errors"
sql -c "START QUERY q_down" >/dev/null || fail "start q_down"
wait_for 30 status_is q_down FAILED || fail "the sink did not fail while produce requests failed"
sql -c "SHOW QUERIES" | grep '^q_down|' | grep -q 'messages could not be delivered to kafka topic "out_down"' \
    || fail "delivery error: $(sql -c "SHOW QUERIES" | grep '^q_down|')"
mock_cmd clear-produce || fail "clear produce errors"
sql -c "START QUERY q_down" -c "AWAIT QUERY q_down TIMEOUT '60 seconds'" >/dev/null || fail "re-run q_down"
consume out_down -f '%s\n' | sed 's/[^0-9]//g' | sort -un | awk 'END { print NR, $1 }' | grep -qx "2100 2100" \
    || fail "out_down after the outage: $(consume out_down | wc -l) messages"
ok "delivery failure fails the batch (query FAILED); START re-runs it and every row arrives"

# ---- 4. exactlyOnce: transactions, batch ids in headers, no batch committed twice
sql <<SQL >/dev/null || fail "create q_eo"
CREATE QUERY q_eo SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out_eo', exactlyOnce 'true')
  AS SELECT CAST(id AS STRING) AS key, CAST(id AS STRING) AS value FROM ins;
AWAIT QUERY q_eo TIMEOUT '60 seconds';
SQL
qid=$(sed 's/.*"id":"\([^"]*\)".*/\1/' "$work/data/checkpoints/q_eo/metadata")
committed() { consume out_eo -X isolation.level=read_committed -f '%h %s\n'; }
bad=$(committed | grep -vc "^sluice.batch=[0-9]*,sluice.txn=sluice-$qid ")
[ "$bad" = 0 ] || fail "$bad messages without the batch headers of transactional id sluice-$qid"
committed | awk '{ print $2 }' | exactly 1 2100 || fail "exactlyOnce output"
ok "exactlyOnce: 2100 rows once, every message tagged with its batch and transactional id sluice-$qid"

# one batch id per row and, per batch, one contiguous run of rows: a batch
# committed twice would show its ids twice or its batch id in two runs
batch_check() {
    committed | sed 's/^sluice.batch=\([0-9]*\),[^ ]* /\1 /' | awk '
        { if ($2 in seen) dup++; seen[$2] = 1; rows[$1]++ }
        END { for (b in rows) n++; printf "%d %d\n", n, dup + 0 }'
}
last=2100
for fp in sink.kafka.before_commit sink.kafka.after_commit; do
    stop_daemon || fail "stop before $fp"
    produce_json in 1 $((last + 1)) $((last + 150)); last=$((last + 150))
    SLUICE_FAILPOINT="$fp" start_daemon "$work" >/dev/null 2>&1
    wait_for 30 bash -c "! kill -0 $SL_PID 2>/dev/null" || fail "failpoint $fp was never reached"
    wait "$SL_PID" 2>/dev/null; rc=$?; SL_PID=""
    [ $rc -eq 137 ] || fail "failpoint $fp: exit status $rc, want 137"
    grep -q "failpoint reached, exiting name=$fp " "$work/log" || fail "failpoint $fp not logged"
    grep -q '"status":"pending"' "$work/data/checkpoints/q_eo/sink/batch" || fail "no pending record at $fp"
    start_daemon "$work" || fail "restart after $fp"
    sql -c "AWAIT QUERY q_eo TIMEOUT '60 seconds'" >/dev/null || fail "await after $fp"
    grep -q "query=q_eo batch [0-9]* was pending at the crash: committed" "$work/log" \
        || fail "the replayed batch was not read back after $fp"
    committed | awk '{ print $2 }' | exactly 1 $last || fail "exactlyOnce output after $fp"
    read -r nbatches dups <<<"$(batch_check)"
    [ "$dups" = 0 ] || fail "$dups rows recorded under a second batch after $fp"
    grep -q '"status":"committed"' "$work/data/checkpoints/q_eo/sink/batch" || fail "record not committed after $fp"
    ok "exactlyOnce: crash at $fp, replayed batch found committed and skipped ($nbatches batches, rows 1..$last once)"
done

# ---- 5. ALTER QUERY SET OPTIONS (topic ...): the batches after it go to the new topic
mock_cmd create out_t1 1 && mock_cmd create out_t2 1 || fail "create out_t1, out_t2"
sql <<SQL >/dev/null || fail "create q_topic"
CREATE QUERY q_topic SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out_t1')
  AS SELECT CAST(id AS STRING) AS value FROM ins;
AWAIT QUERY q_topic TIMEOUT '60 seconds';
ALTER QUERY q_topic SET OPTIONS (topic 'out_t2');
SQL
produce_json in 0 $((last + 1)) $((last + 100))
sql -c "AWAIT QUERY q_topic TIMEOUT '60 seconds'" >/dev/null || fail "await q_topic after ALTER"
consume out_t1 | exactly 1 $last || fail "out_t1 before the ALTER"
consume out_t2 | exactly $((last + 1)) $((last + 100)) || fail "out_t2 after the ALTER"
ok "ALTER QUERY SET OPTIONS (topic 'out_t2'): rows 1..$last in out_t1, the next 100 in out_t2, none twice"
stop_daemon || fail "final stop"
echo "kafka sink: all checks passed"
