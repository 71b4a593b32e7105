# Shared helpers for the shell test suites: start and stop a daemon on free
# ports with its own data directory, wait on conditions with a deadline.
# Source it; it expects BIN (directory of sluiced and sluice) in the environment.

: "${BIN:=bin}"
: "${O:=build/obj}"
export PGCONNECT_TIMEOUT=10

# wait_for SECONDS COMMAND... : polls COMMAND every 50 ms until it succeeds or the deadline passes.
wait_for() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -ge $deadline ] && return 1
        sleep 0.05
    done
}

# log_port LOGFILE MODULE : the port a module logged as "MODULE: listening addr=... port=N".
log_port() {
    sed -n "s/.* $2: listening addr=[^ ]* port=\([0-9]*\).*/\1/p" "$1" | head -n 1
}

# start_daemon DIR [-c key=value ...] : starts sluiced with data in DIR/data, log in DIR/log.
# Sets SL_PID, SL_PORT, SL_HTTP_PORT. Fails (returns 1) when it does not come up in 20 s.
start_daemon() {
    local dir=$1; shift
    mkdir -p "$dir"
    touch "$dir/log"
    local skip; skip=$(( $(stat -c %s "$dir/log") + 1 ))  # read only this run's lines
    "$BIN/sluiced" -c port=0 -c http_port=0 -c "data_directory=$dir/data" "$@" >>"$dir/log" 2>&1 &
    SL_PID=$!
    SL_LOG=$dir/log
    local deadline=$((SECONDS + 20))
    SL_PORT=""
    while [ -z "$SL_PORT" ]; do
        if ! kill -0 "$SL_PID" 2>/dev/null; then echo "sluiced exited:"; cat "$dir/log"; return 1; fi
        [ $SECONDS -ge $deadline ] && { echo "sluiced did not log its port"; cat "$dir/log"; return 1; }
        SL_PORT=$(tail -c +$skip "$dir/log" | sed -n "s/.* pgwire: listening addr=[^ ]* port=\([0-9]*\).*/\1/p" | head -n 1)
        [ -z "$SL_PORT" ] && sleep 0.05
    done
    wait_for 20 pg_isready -q -h 127.0.0.1 -p "$SL_PORT" || { echo "pg_isready timed out"; return 1; }
    # the HTTP endpoint starts right after pgwire, before the loop answers
    SL_HTTP_PORT=$(tail -c +$skip "$dir/log" | sed -n "s/.* http: listening addr=[^ ]* port=\([0-9]*\).*/\1/p" | head -n 1)
}

# stop_daemon : SIGTERM, then waits (20 s) for exit status 0.
stop_daemon() {
    [ -n "${SL_PID:-}" ] || return 0
    kill -TERM "$SL_PID" 2>/dev/null
    local deadline=$((SECONDS + 20))
    while kill -0 "$SL_PID" 2>/dev/null; do
        if [ $SECONDS -ge $deadline ]; then
            echo "sluiced did not stop within 20 s"; kill -9 "$SL_PID"; SL_PID=""; return 1
        fi
        sleep 0.05
    done
    wait "$SL_PID"; local rc=$?
    SL_PID=""
    [ $rc -eq 0 ] || { echo "sluiced exited with status $rc"; return 1; }
}

# sql ARGS... : psql against the running daemon, unaligned, tuples only, stop on error.
sql() {
    psql -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice "$@"
}

# session_start, session_sql STATEMENT, session_end: many statements through
# one psql session, so that no client process starts between them (the
# benchmarks time batches that run meanwhile); session_sql returns when
# the statement has finished, its output discarded.
session_start() { coproc SL_SESSION { sql; }; }
session_sql() {
    local line
    printf '%s;\n\\echo done\n' "$1" >&"${SL_SESSION[1]}"
    read -r line <&"${SL_SESSION[0]}"
}
session_end() { exec {SL_SESSION[1]}>&-; wait "$SL_SESSION_PID"; }
