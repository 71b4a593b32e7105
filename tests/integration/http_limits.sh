#!/usr/bin/env bash
# Limits of the HTTP endpoint against slow or hostile clients: a client that
# never finishes its request is cut off after http_timeout and does not hold
# up others; http_per_ip_connections and http_max_connections cap concurrent
# connections: a newcomer past a cap takes the slot of the oldest one still
# waiting for a request after a second, or is refused (slots are freed when
# clients leave); oversized headers and URLs
# are refused (431, 414); 200 requests in a row are served.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/integration/http_lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT

# hold N : opens N idle connections (their fds in HELD).
HELD=()
hold() {
    local i fd
    for ((i = 0; i < $1; i++)); do
        exec {fd}<>"/dev/tcp/127.0.0.1/$SL_HTTP_PORT" || fail "could not open connection $i"
        HELD+=("$fd")
    done
}
# release : closes the HELD connections and waits until the server closed its
# ends too (none established or half-closed), so that they hold no slot.
release() {
    local fd
    for fd in "${HELD[@]}"; do exec {fd}<&-; done
    HELD=()
    wait_for 10 server_idle || fail "the server kept connections the clients closed"
}
server_idle() {
    [ -z "$(ss -Htn state established state close-wait "( sport = :$SL_HTTP_PORT )")" ]
}
healthz_ok() { [ "$(curl -s --max-time 2 "$H/healthz")" = ok ]; }
healthz_refused() { ! curl -s --max-time 2 -o /dev/null "$H/healthz"; }

start_daemon "$T/d" -c http_timeout=2 -c http_per_ip_connections=4 || fail "daemon did not start"
http_up

echo "-- a request that never ends is cut off after http_timeout, others go on"
exec {slow}<>"/dev/tcp/127.0.0.1/$SL_HTTP_PORT"
printf 'GET /healthz HTTP/1.1\r\nHost: x\r\n' >&$slow
healthz_ok || fail "a slow client held up /healthz"
start=$SECONDS
timeout 20 cat <&$slow > "$T/slow.out"
rc=$?
exec {slow}<&-
[ $rc = 0 ] || fail "the slow connection was not closed within 20 s"
[ $((SECONDS - start)) -le 8 ] || fail "the slow connection took $((SECONDS - start)) s to be closed"
[ ! -s "$T/slow.out" ] || fail "the unfinished request got an answer: $(head -c 200 "$T/slow.out")"
exec {idle}<>"/dev/tcp/127.0.0.1/$SL_HTTP_PORT"
start=$SECONDS
timeout 20 cat <&$idle > /dev/null || fail "an idle connection was not closed"
exec {idle}<&-
[ $((SECONDS - start)) -le 8 ] || fail "the idle connection lived $((SECONDS - start)) s"

echo "-- oversized headers and URLs"
big=$(head -c 40000 /dev/zero | tr '\0' a)
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "$H/healthz")
[ "$code" = 431 ] || fail "a 40 kB header got $code, not 431"
code=$(curl -s -o /dev/null -w '%{http_code}' "$H/api/v1/queries/$big")
[ "$code" = 414 ] || fail "a 40 kB URL got $code, not 414"
healthz_ok || fail "the server did not survive oversized requests"

echo "-- keep-alive: 200 requests on one connection"
urls=()
for ((i = 0; i < 200; i++)); do urls+=("$H/healthz"); done
n=$(curl -s -w '%{http_code}\n' -o /dev/null "${urls[@]}" | grep -c '^200$')
[ "$n" = 200 ] || fail "only $n of 200 keep-alive requests succeeded"
stop_daemon || fail "daemon did not stop cleanly"

# closed_held : how many of the HELD connections the server has closed.
closed_held() {
    local fd n=0 x
    for fd in "${HELD[@]}"; do
        read -r -t 0.3 -u "$fd" x; [ $? -le 128 ] && n=$((n + 1))
    done
    echo $n
}
# check_cap N WHAT : with N connections held (the cap) and accepted, a
# newcomer is refused until the oldest idle one has waited a second, then
# served in its slot: exactly one held connection is closed.
check_cap() {
    local mark; mark=$(( $(stat -c %s "$SL_LOG") + 1 ))
    hold "$1"
    # every held connection accepted by the server, not only by the kernel
    wait_for 10 bash -c "tail -c +$mark '$SL_LOG' | grep -q ' connection opened open=$1\$'" \
        || fail "the server did not accept the $1 held connections"
    wait_for 10 healthz_ok || fail "a newcomer past $2 never got the slot of an idle connection"
    [ "$(closed_held)" = 1 ] || fail "past $2, $(closed_held) held connections were closed, want 1"
    release
    wait_for 10 healthz_ok || fail "slots were not freed when the clients left"
}

echo "-- http_per_ip_connections = 4"
mv "$T/d/log" "$T/d/log.1"
start_daemon "$T/d" -c http_timeout=60 -c http_per_ip_connections=4 -c log_level=debug || fail "daemon did not start"
http_up
wait_for 10 server_idle || fail "the server kept the connection of http_up"
check_cap 4 http_per_ip_connections
stop_daemon || fail "daemon did not stop cleanly"

echo "-- http_max_connections = 6"
mv "$T/d/log" "$T/d/log.2"
start_daemon "$T/d" -c http_timeout=60 -c http_max_connections=6 -c http_per_ip_connections=0 \
    -c log_level=debug || fail "daemon did not start"
http_up
wait_for 10 server_idle || fail "the server kept the connection of http_up"
hold 5
healthz_ok || fail "the 6th connection was refused"
release
check_cap 6 http_max_connections
stop_daemon || fail "daemon did not stop cleanly"
echo "http_limits: ok"
