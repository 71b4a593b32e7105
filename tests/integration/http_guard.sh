#!/usr/bin/env bash
# The HTTP endpoint against other web sites (no http_token, the default):
# a page on another origin, in headless Chromium, posts to stop a query with
# a no-cors fetch and a form: both reach the server and are refused (403),
# the query keeps running. POSTs that any page could send (no Content-Type,
# text/plain, a form encoding) are refused even without an Origin; a
# foreign Origin is refused even with the marker header; the server's own
# origins pass. A Host header that is not one of the server's names (DNS
# rebinding) is answered 421 everywhere but /healthz; http_allowed_hosts
# sets the names. The web UI's own Stop and Start buttons still work.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/integration/http_lib.sh

T=$(mktemp -d)
trap 'kill ${EVIL_PID:-} 2>/dev/null; stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
[ -x "$JSON_TOOL" ] || fail "$JSON_TOOL is missing (make $JSON_TOOL)"
command -v chromium >/dev/null || fail "chromium is missing (Debian package chromium; make deps)"

state() { sql -c "SHOW QUERIES" | awk -F'|' '$1 == "q" { print $3 }'; }
refused403() { expect 403 "$1"; expect_json_error 403; [ "$(state)" = ACTIVE ] || fail "$1 changed q to $(state)"; }

start_daemon "$T/d" || fail "daemon did not start"
http_up
P=$SL_HTTP_PORT
sql -c "CREATE STREAM s USING rate OPTIONS (rowsPerSecond '10');" \
    -c "CREATE QUERY q AS SELECT value FROM s;" >/dev/null || fail "CREATE QUERY"
[ "$(state)" = ACTIVE ] || fail "q is $(state)"

echo "-- a page on another origin posts a no-cors fetch and a form"
mkdir -p "$T/evil"
cat > "$T/evil/fetch.html" <<EOF
<!doctype html><html><body><p id="r">start</p><script>
fetch('http://127.0.0.1:$P/api/v1/queries/q/stop', { method: 'POST', mode: 'no-cors' })
  .then(() => { document.getElementById('r').textContent = 'sent'; },
        (e) => { document.getElementById('r').textContent = 'fetch failed ' + e; });
</script></body></html>
EOF
cat > "$T/evil/form.html" <<EOF
<!doctype html><html><body>
<form id="f" method="POST" action="http://127.0.0.1:$P/api/v1/queries/q/stop" enctype="text/plain">
<input name="a" value="b"></form>
<script>document.getElementById('f').submit();</script></body></html>
EOF
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$T/evil" > "$T/evil.log" 2>&1 &
EVIL_PID=$!
evil_port() { sed -n 's/.*port \([0-9]*\).*/\1/p' "$T/evil.log" | head -n 1; }
wait_for 10 grep -q 'port [0-9]' "$T/evil.log" || fail "the attacker's server did not start: $(cat "$T/evil.log")"
EP=$(evil_port)
before=$(curl -s "$H/metrics" | sed -n 's/^sluice_http_responses_total{code="403"} //p')
# evil PAGE : the attacker's page in headless Chromium; its final DOM in $T/PAGE.dom.
evil() {
    timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$T")" \
        --virtual-time-budget=5000 --dump-dom "http://127.0.0.1:$EP/$1.html" > "$T/$1.dom" 2>>"$T/chromium.log" \
        || fail "chromium failed on $1.html: $(tail -3 "$T/chromium.log")"
}
evil fetch
grep -q '<p id="r">sent</p>' "$T/fetch.dom" || fail "the page's fetch did not go out: $(head -c 300 "$T/fetch.dom")"
evil form
grep -q 'cross-origin request refused' "$T/form.dom" || fail "the form's answer is not the refusal: $(head -c 300 "$T/form.dom")"
after=$(curl -s "$H/metrics" | sed -n 's/^sluice_http_responses_total{code="403"} //p')
[ "${after:-0}" -ge $(( ${before:-0} + 2 )) ] || fail "403s went from ${before:-0} to ${after:-0}: the page's requests did not both arrive"
[ "$(state)" = ACTIVE ] || fail "a page on another origin stopped q: $(state)"
kill $EVIL_PID; EVIL_PID=""

echo "-- requests any page could send are refused, with or without an Origin"
for ct in "" "text/plain" "application/x-www-form-urlencoded" "multipart/form-data; boundary=x" "text/plain; charset=utf-8"; do
    req POST /api/v1/queries/q/stop ${ct:+-H "Content-Type: $ct"}
    refused403 "POST stop with Content-Type '$ct'"
    case "$(jget error)" in *X-Sluice-Request*) ;; *) fail "the refusal does not say what to send: $(jget error)" ;; esac
done
for o in "http://evil.example" "null" "http://127.0.0.1" "http://127.0.0.1:1" "http://localhost:$P.evil.example" "file://"; do
    req POST /api/v1/queries/q/stop -H "Origin: $o" -H "X-Sluice-Request: 1"
    refused403 "POST stop from origin $o"
done

echo "-- the server's own origins, with the marker header, JSON or a bearer token"
req POST /api/v1/queries/q/stop -H "X-Sluice-Request: 1"
expect 200 "stop with X-Sluice-Request"
[ "$(jget status.state)" = STOPPED ] || fail "stop answered $(jget status.state)"
req POST /api/v1/queries/q/start -H "Origin: http://localhost:$P" -H "Content-Type: application/json"
expect 200 "start from http://localhost:$P as JSON"
[ "$(state)" = ACTIVE ] || fail "q after start: $(state)"
req POST /api/v1/queries/q/stop -H "Origin: http://127.0.0.1:$P" -H "Authorization: Bearer x"
expect 200 "stop from http://127.0.0.1:$P with a bearer header"
req POST /api/v1/queries/q/start -H "Origin: http://[::1]:$P" -H "X-Sluice-Request: 1"
expect 200 "start from http://[::1]:$P"
[ "$(state)" = ACTIVE ] || fail "q after start: $(state)"

echo "-- Host: the server's names only (DNS rebinding)"
for h in "evil.example:$P" "evil.example" "127.0.0.1.evil.example:$P" "localhost:1"; do
    req GET /api/v1/queries -H "Host: $h"
    expect 421 "GET /api/v1/queries with Host $h"
    expect_json_error 421
    req GET / -H "Host: $h"
    expect 421 "GET / with Host $h"
done
req POST /api/v1/queries/q/stop -H "Host: evil.example:$P" -H "X-Sluice-Request: 1"
expect 421 "POST stop with a foreign Host"
[ "$(state)" = ACTIVE ] || fail "a foreign Host stopped q"
req GET /healthz -H "Host: evil.example:$P"
expect 200 "/healthz with a foreign Host"
for h in "127.0.0.1:$P" "LOCALHOST:$P" "localhost" "[::1]:$P"; do
    req GET /api/v1/queries -H "Host: $h"
    expect 200 "GET with Host $h"
done
stop_daemon || fail "daemon did not stop cleanly"

echo "-- http_allowed_hosts"
mv "$T/d/log" "$T/d/log.1"
start_daemon "$T/d" -c "http_allowed_hosts=sluice.test, 10.1.2.3:8443" || fail "daemon did not start"
http_up
P=$SL_HTTP_PORT
req GET /api/v1/queries -H "Host: sluice.test:$P"
expect 200 "a configured name"
req GET /api/v1/queries -H "Host: 10.1.2.3:8443"
expect 200 "a configured name:port"
req GET /api/v1/queries
expect 421 "127.0.0.1 once http_allowed_hosts names others"
req POST /api/v1/queries/q/stop -H "Host: sluice.test" -H "Origin: https://sluice.test" -H "X-Sluice-Request: 1"
expect 200 "behind a proxy: the Origin the Host names"
req POST /api/v1/queries/q/start -H "Host: sluice.test:$P" -H "Origin: http://evil.example" -H "X-Sluice-Request: 1"
expect 403 "a foreign Origin with a configured Host"
stop_daemon || fail "daemon did not stop cleanly"
out=$("$BIN/sluiced" -c port=0 -c http_port=0 -c "data_directory=$T/d/data" -c "http_allowed_hosts=a b" 2>&1) \
    && fail "sluiced started with http_allowed_hosts='a b'"
case "$out" in *'invalid entry "a b" in http_allowed_hosts'*) ;; *) fail "bad http_allowed_hosts: $out" ;; esac

echo "-- the web UI's Stop and Start buttons"
mv "$T/d/log" "$T/d/log.2"
start_daemon "$T/d" || fail "daemon did not start"
http_up
sql -c "START QUERY q" >/dev/null || fail "START q"
[ "$(state)" = ACTIVE ] || fail "q after START: $(state)"
node tests/tools/ui_click.mjs "$H/#query=q" btn-stop "q: STOPPED" > "$T/ui1" 2>&1 || fail "the UI's Stop: $(cat "$T/ui1")"
[ "$(state)" = STOPPED ] || fail "q after the UI's Stop: $(state)"
node tests/tools/ui_click.mjs "$H/#query=q" btn-start "q: ACTIVE" > "$T/ui2" 2>&1 || fail "the UI's Start: $(cat "$T/ui2")"
[ "$(state)" = ACTIVE ] || fail "q after the UI's Start: $(state)"
stop_daemon || fail "daemon did not stop cleanly"
echo "http_guard: ok"
