#!/usr/bin/env bash
# Hostile clients against the SQL endpoint (tests/tools/pg_hostile): absurd
# startup lengths, garbage before and after the startup packet, a 2 GiB
# message length, plaintext pipelined behind an SSLRequest, an unsupported
# protocol version, a half-sent startup packet held past
# authentication_timeout, a cancel request naming no backend; a
# Parse/Bind/Describe/Execute/Sync sequence with parameters cut after and
# in the middle of each message, closed (FIN) or reset (SO_LINGER 0), and a
# large result reset while it is being written (teardown, backpressure).
# Each must get the expected reaction, and after each the daemon must still
# serve psql.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" -days 2 \
    -subj "/CN=localhost" >/dev/null 2>&1 || { echo "FAIL: openssl req"; exit 1; }
chmod 600 "$T/key.pem"
start_daemon "$T" -c authentication=trust -c authentication_timeout=1 \
    -c "ssl_cert_file=$T/cert.pem" -c "ssl_key_file=$T/key.pem" || exit 1

H="$O/tools/pg_hostile"
status=0
for sc in startup-len-0 startup-len-7 startup-len-10001 startup-len-huge garbage-before-startup \
          garbage-after-startup huge-query-length ssl-pipelined gss-pipelined bad-protocol "startup-timeout 1" \
          cancel-unknown teardown backpressure; do
    echo "-- $sc"
    # shellcheck disable=SC2086
    if ! "$H" 127.0.0.1 "$SL_PORT" $sc; then echo "FAIL: $sc"; status=1; fi
    if ! sql -c 'SHOW STREAMS' >/dev/null; then
        echo "FAIL: the daemon does not answer psql after $sc"; status=1
    fi
done
grep -q "received unencrypted data after SSL request" "$SL_LOG" || { echo "FAIL: injection not logged"; status=1; }
stop_daemon || status=1
[ $status -eq 0 ] && echo "pgwire_hostile: ok"
exit $status
