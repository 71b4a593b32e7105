#!/usr/bin/env bash
# Slowloris against the HTTP endpoint: 32 connections from one address each
# trickle one header byte a second (never finishing a request). Each is cut
# off within http_timeout of its opening, however steadily it trickles
# (libmicrohttpd's own timeout is an idle one, which every byte restarts),
# and meanwhile /healthz keeps answering another client of the same address
# (a newcomer takes the slot of the oldest connection still waiting for its
# request). A request body trickled after complete headers is cut off the
# same way.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/integration/http_lib.sh

TRICKLE="$O/tools/http_trickle"
T=$(mktemp -d)
trap 'kill ${TPID:-} 2>/dev/null; stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
[ -x "$TRICKLE" ] || fail "$TRICKLE is missing (make $TRICKLE)"

timeout_s=3
start_daemon "$T/d" -c http_timeout=$timeout_s -c log_level=debug || fail "daemon did not start"
http_up
healthz_ok() { [ "$(curl -s --max-time 2 "$H/healthz")" = ok ]; }

# server_idle: the server closed every connection (none established or half-closed).
server_idle() { [ -z "$(ss -Htn state established state close-wait "( sport = :$SL_HTTP_PORT )")" ]; }

echo "-- 32 connections trickling a header byte a second (http_per_ip_connections = 32)"
wait_for 10 server_idle || fail "the server kept the connections of the start"
mark=$(( $(stat -c %s "$SL_LOG") + 1 ))
"$TRICKLE" "$SL_HTTP_PORT" 32 $((timeout_s * 4)) 1000 > "$T/trickle.out" &
TPID=$!
# all 32 accepted by the server (the debug line counts its open connections)
wait_for 10 bash -c "tail -c +$mark '$SL_LOG' | grep -q ' connection opened open=32\$'" \
    || fail "the 32 trickling connections were not all accepted: $(cat "$T/trickle.out"); $(grep -c 'connection cut' "$SL_LOG") cut"
# /healthz from the same address, again and again while they trickle
ok=0
for i in 1 2 3 4; do
    wait_for 3 healthz_ok && ok=$((ok + 1))
    kill -0 $TPID 2>/dev/null || break
done
[ $ok -ge 1 ] && [ $ok = "$i" ] || fail "/healthz answered $ok of $i times while 32 connections trickled"
wait $TPID; TPID=""
read -r out < "$T/trickle.out"
echo "   $out"
case "$out" in opened=32\ closed=32\ *) ;; *) fail "trickling connections were not all cut off: $out" ;; esac
last=${out##*last=}
awk -v l="$last" -v t=$timeout_s 'BEGIN { exit !(l <= t + 1.5) }' \
    || fail "a trickling connection lived ${last} s (http_timeout is $timeout_s s)"
healthz_ok || fail "/healthz after the attack"

echo "-- a body trickled after complete headers"
"$TRICKLE" -b "$SL_HTTP_PORT" 4 $((timeout_s * 4)) 1000 > "$T/body.out" || fail "http_trickle -b"
read -r out < "$T/body.out"
echo "   $out"
case "$out" in opened=4\ closed=4\ *) ;; *) fail "trickled bodies were not cut off: $out" ;; esac
last=${out##*last=}
awk -v l="$last" -v t=$timeout_s 'BEGIN { exit !(l <= t + 1.5) }' \
    || fail "a trickled body lived ${last} s (http_timeout is $timeout_s s)"

stop_daemon || fail "daemon did not stop cleanly"
echo "http_slowloris: ok"
