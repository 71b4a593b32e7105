# Helpers shared by the HTTP suites (tests/integration/http_*.sh), sourced
# after tests/lib.sh. run_all.sh runs every script here: run directly, this
# file does nothing and exits 0.
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

JSON_TOOL="$O/tools/http_json"

# fail MESSAGE : prints the message, the response and the daemon's log tail, exits 1.
fail() {
    echo "FAIL: $*"
    [ -f "$T/body" ] && { echo "-- last response body:"; head -c 2000 "$T/body"; echo; }
    [ -n "${SL_LOG:-}" ] && { echo "-- daemon log:"; tail -n 30 "$SL_LOG"; }
    exit 1
}

# http_logged : true once the daemon's log has its "http: listening" line.
http_logged() {
    grep -q ' http: listening addr=' "$SL_LOG"
}

# http_up : sets H (base URL) once the daemon logged its HTTP port (the log
# must be this run's alone: move the old one away before a restart).
http_up() {
    wait_for 10 http_logged || fail "no 'http: listening' line in the log"
    local port
    port=$(log_port "$SL_LOG" http)
    [ -n "$port" ] || fail "no HTTP port"
    SL_HTTP_PORT=$port
    H="http://127.0.0.1:$port"
    wait_for 10 curl -sf "$H/healthz" || fail "/healthz did not answer"
}

# req METHOD PATH [curl args...] : one request; sets CODE, body in $T/body, headers in $T/headers.
req() {
    local m=$1 p=$2; shift 2
    CODE=$(curl -s -o "$T/body" -D "$T/headers" -w '%{http_code}' -X "$m" "$@" "$H$p") || CODE="curl-failed"
}

# expect CODE WHAT : the last response had status CODE.
expect() {
    [ "$CODE" = "$1" ] || fail "$2: expected HTTP $1, got $CODE"
}

# header NAME : the value of a header of the last response (CR stripped).
header() {
    grep -i "^$1:" "$T/headers" | head -n 1 | sed 's/^[^:]*: *//' | tr -d '\r'
}

# jget PATH [FILE] : a value of the last response body (or FILE) as http_json prints it.
jget() {
    "$JSON_TOOL" get "${2:-$T/body}" "$1"
}

# expect_json_error CODE : the body is {"error": "...", "status": CODE, ...}.
expect_json_error() {
    "$JSON_TOOL" valid "$T/body" || fail "error body is not JSON"
    [ "$(jget status)" = "$1" ] || fail "error body status is not $1"
    [ -n "$(jget error)" ] || fail "error body has no message"
    [ "$(header Content-Type)" = "application/json; charset=utf-8" ] || fail "error is not JSON typed"
}
