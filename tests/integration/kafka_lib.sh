# Helpers for the Kafka tests (sourced after tests/lib.sh): a mock Kafka
# cluster (tests/tools/kafka_mock) on a free port, producing with kcat,
# polling SQL results with a deadline.

KAFKA_MOCK="$O/tools/kafka_mock"

# start_mock DIR [kafka_mock args...] : starts the mock cluster with its
# stdin on a FIFO held open by fd 7 (mock_cmd writes commands to it).
# Sets MOCK_PID and BOOT (its bootstrap servers).
start_mock() {
    local dir=$1; shift
    [ -x "$KAFKA_MOCK" ] || { echo "missing $KAFKA_MOCK (make $KAFKA_MOCK)"; return 1; }
    rm -f "$dir/mock.in"; mkfifo "$dir/mock.in"
    "$KAFKA_MOCK" "$@" <"$dir/mock.in" >"$dir/mock.out" 2>"$dir/mock.err" &
    MOCK_PID=$!
    exec 7>"$dir/mock.in"
    wait_for 10 test -s "$dir/mock.out" || { echo "kafka_mock did not start"; cat "$dir/mock.err"; return 1; }
    BOOT=$(head -n 1 "$dir/mock.out")
}

# stop_mock : closes the mock's stdin (it exits) and waits for it.
stop_mock() {
    [ -n "${MOCK_PID:-}" ] || return 0
    exec 7>&-
    wait "$MOCK_PID" 2>/dev/null
    MOCK_PID=""
}

# mock_answered N : the mock has printed more than N lines (counted at each call,
# so wait_for can poll it).
mock_answered() {
    [ "$(wc -l <"$MOCK_DIR/mock.out")" -gt "$1" ]
}

# mock_cmd WORDS... : one command to the mock ("create TOPIC N"), waiting for its answer line.
mock_cmd() {
    local before; before=$(wc -l <"$MOCK_DIR/mock.out")
    echo "$*" >&7
    wait_for 10 mock_answered "$before" || return 1
    [ "$(tail -n 1 "$MOCK_DIR/mock.out")" = ok ]
}

# produce TOPIC PARTITION : stdin lines become messages of one partition.
produce() {
    kcat -P -b "$BOOT" -t "$1" -p "$2"
}

# produce_json TOPIC PARTITION FIRST LAST : {"id":N,"name":"nN"} for N in FIRST..LAST.
produce_json() {
    seq "$3" "$4" | awk '{printf "{\"id\":%d,\"name\":\"n%d\"}\n", $1, $1}' | produce "$1" "$2"
}

# consume TOPIC [kcat args...] : every message of the topic, one per line.
consume() {
    local t=$1; shift
    kcat -C -b "$BOOT" -t "$t" -e -q "$@"
}

# sql_is EXPECTED SQL : true when the query prints EXPECTED (for wait_for).
sql_is() {
    [ "$(sql -c "$2" 2>/dev/null)" = "$1" ]
}

# query_status NAME : ACTIVE, STOPPED, FAILED or FINISHED.
query_status() {
    sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" '$1 == q { print $3 }'
}

# status_is NAME STATUS : true when the query has that status (for wait_for).
status_is() {
    [ "$(query_status "$1")" = "$2" ]
}
