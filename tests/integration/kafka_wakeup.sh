#!/usr/bin/env bash
# An idle query over a Kafka stream sleeps on the source's change
# descriptor (its watcher consumer) instead of polling, and a message that
# arrives wakes it: few triggers while idle, and the message's batch starts
# right after the message, well before the idle sleep (10 s) would end.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
work=$(mktemp -d /tmp/sluice-kafka-wakeup-XXXXXX)
MOCK_DIR=$work
trap 'kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }

start_mock "$work" -t w:2 || fail "mock"
start_daemon "$work" || fail "daemon did not start"
sql -c "CREATE STREAM ws (id INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT',
  subscribe 'w', startingOffsets 'earliest')" >/dev/null || fail "create stream"
sql -c "CREATE QUERY wq AS SELECT id FROM ws" >/dev/null || fail "create query"
sql -c "AWAIT QUERY wq TIMEOUT '30 seconds'" >/dev/null || fail "await"
triggers() {
    curl -s "http://127.0.0.1:$SL_HTTP_PORT/metrics" |
        awk '/^sluice_query_triggers_total\{query="wq"\}/ { print $2 }'
}
rows_are() { [ "$(sql -c 'SELECT count(*) FROM wq')" = "$1" ]; }
# batches of the progress log: "<batch id> <start time, ms since the epoch>"
batches() {
    sql -c "SHOW RECENT PROGRESS wq" | grep '"numInputRows":[1-9]' |
        sed 's/.*"batchId":\([0-9]*\).*"timestamp":"\([^"]*\)".*/\1 \2/;s/.*"timestamp":"\([^"]*\)".*"batchId":\([0-9]*\).*/\2 \1/'
}
t0=$(triggers)
sleep 2 # a measurement window, not a wait for anything
t1=$(triggers)
# polling every 200 ms would begin 10 triggers; the idle sleep begins at most one
[ $((t1 - t0)) -le 1 ] || fail "the idle query began $((t1 - t0)) triggers in 2 s"
echo "ok   an idle kafka query sleeps ($((t1 - t0)) triggers in 2 s)"
for round in 1 2 3; do
    before=$(batches | wc -l)
    sent=$(date +%s%3N)
    echo "{\"id\":$round}" | produce w $((round % 2)) || fail "produce"
    wait_for 20 rows_are "$round" || fail "round $round: the message was not read"
    [ "$(batches | wc -l)" -gt "$before" ] || fail "round $round: no batch with rows"
    started=$(batches | tail -n 1 | awk '{ print $2 }')
    ms=$(( $(date -d "$started" +%s%3N) - sent ))
    # the batch began after the message was sent, long before the 10 s idle sleep ended
    [ "$ms" -lt 5000 ] || fail "round $round: the batch began $ms ms after the message"
    echo "ok   round $round: the message woke the idle query (batch began $ms ms after it)"
done
stop_daemon || fail "stop"
echo "kafka wakeup: all checks passed"
