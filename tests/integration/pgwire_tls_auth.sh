#!/usr/bin/env bash
# TLS and authentication on the SQL endpoint, with psql and openssl s_client:
# a self-signed certificate; sslmode=require gets TLS; ssl = require refuses
# plaintext; scram-sha-256 (plain and verifier entries, with and without
# channel binding): the right password logs in, a wrong password and an
# unknown user get the same 28P01 error; the password method; PGPASSWORD and
# ~/.pgpass; configuration mistakes stop the daemon at start; pg_extended
# (with its teardown shapes) over TLS.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" -days 2 \
    -subj "/CN=localhost" >/dev/null 2>&1 || { echo "FAIL: openssl req"; exit 1; }
chmod 600 "$T/key.pem"
# bob's verifier is PostgreSQL's SCRAM-SHA-256 verifier of "pencil" (RFC 7677's salt).
cat > "$T/passwords" <<'PW'
# sluice users
alice:wonder land
bob:SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=
PW
TLS=(-c "ssl_cert_file=$T/cert.pem" -c "ssl_key_file=$T/key.pem")

# psql_as CONNINFO... : SHOW STREAMS then \conninfo, without password prompts.
psql_as() {
    psql -X -A -t -w -d "host=127.0.0.1 port=$SL_PORT dbname=sluice $*" \
        -c 'SHOW STREAMS' -c '\conninfo' 2>&1
}

# ---- scram-sha-256, ssl = on -------------------------------------------------
start_daemon "$T/scram" -c authentication=scram-sha-256 -c "password_file=$T/passwords" "${TLS[@]}" || exit 1
out=$(psql_as "user=alice password='wonder land' sslmode=require")
echo "$out" | grep -q "SSL connection (protocol: TLSv1" || fail "sslmode=require did not use TLS: $out"
out=$(psql_as "user=alice password='wonder land' sslmode=require channel_binding=require")
echo "$out" | grep -q 'as user "alice"' || fail "SCRAM-SHA-256-PLUS (channel binding) failed: $out"
out=$(psql_as "user=bob password=pencil sslmode=disable")
echo "$out" | grep -q 'as user "bob"' || fail "verifier entry over plaintext failed: $out"
echo "$out" | grep -q "SSL connection" && fail "sslmode=disable still used TLS"
echo | openssl s_client -starttls postgres -connect "127.0.0.1:$SL_PORT" -brief 2>&1 \
    | grep -q "CONNECTION ESTABLISHED" || fail "openssl s_client -starttls postgres did not get TLS"

wrong=$(psql_as "user=alice password=wrong sslmode=require")
unknown=$(psql_as "user=mallory password=whatever sslmode=require")
echo "$wrong" | grep -q 'FATAL:  password authentication failed for user "alice"' || fail "wrong password: $wrong"
echo "$unknown" | grep -q 'FATAL:  password authentication failed for user "mallory"' || fail "unknown user: $unknown"
[ "${wrong//alice/X}" = "${unknown//mallory/X}" ] || fail "wrong password and unknown user differ: '$wrong' vs '$unknown'"
[ "$(grep -c 'sqlstate=28P01: password authentication failed' "$SL_LOG")" -eq 2 ] || fail "28P01 not logged twice"

out=$(PGPASSWORD='wonder land' psql_as "user=alice")
echo "$out" | grep -q 'as user "alice"' || fail "PGPASSWORD: $out"
mkdir -p "$T/home"
printf '127.0.0.1:%s:sluice:bob:pencil\n' "$SL_PORT" > "$T/home/.pgpass"
chmod 600 "$T/home/.pgpass"
out=$(HOME="$T/home" psql_as "user=bob")
echo "$out" | grep -q 'as user "bob"' || fail "~/.pgpass: $out"
out=$(HOME="$T/home" psql_as "user=alice")
echo "$out" | grep -q "password authentication failed\|no password supplied" || fail "alice logged in without a password: $out"
stop_daemon || fail "stop (scram)"

# ---- ssl = require ------------------------------------------------------------
start_daemon "$T/require" -c ssl=require "${TLS[@]}" || exit 1
out=$(psql_as "user=sluice sslmode=disable")
echo "$out" | grep -q "FATAL:  TLS is required" || fail "ssl = require accepted plaintext: $out"
out=$(psql_as "user=sluice sslmode=require")
echo "$out" | grep -q "SSL connection" || fail "ssl = require refused TLS: $out"
# the extended protocol and its teardown shapes over TLS (tests/tools/pg_extended)
"$O/tools/pg_extended" "host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice sslmode=require" \
    || fail "pg_extended over TLS"
stop_daemon || fail "stop (require)"

# ---- password (cleartext) method ----------------------------------------------
start_daemon "$T/password" -c authentication=password -c "password_file=$T/passwords" "${TLS[@]}" || exit 1
out=$(psql_as "user=alice password='wonder land' sslmode=require")
echo "$out" | grep -q 'as user "alice"' || fail "password method over TLS: $out"
out=$(psql_as "user=bob password=pencil sslmode=disable")
echo "$out" | grep -q 'as user "bob"' || fail "password method against a verifier: $out"
wrong=$(psql_as "user=bob password=pencils sslmode=disable")
unknown=$(psql_as "user=nobody password=pencil sslmode=disable")
[ "${wrong//bob/X}" = "${unknown//nobody/X}" ] || fail "password: wrong password and unknown user differ"
echo "$wrong" | grep -q 'password authentication failed for user "bob"' || fail "password method, wrong password: $wrong"
stop_daemon || fail "stop (password)"

# ---- configuration mistakes are refused at start --------------------------------
refuses() { # refuses "what the log must say" -c ...
    local want=$1; shift
    rm -rf "$T/bad"; mkdir -p "$T/bad"
    if timeout 20 "$BIN/sluiced" -c port=0 -c http_port=0 -c "data_directory=$T/bad/data" "$@" >"$T/bad/log" 2>&1; then
        fail "sluiced started with $*"
    fi
    grep -q "$want" "$T/bad/log" || fail "expected '$want' in: $(cat "$T/bad/log")"
}
cp "$T/key.pem" "$T/key_open.pem"; chmod 644 "$T/key_open.pem"
refuses "has group or world access" -c "ssl_cert_file=$T/cert.pem" -c "ssl_key_file=$T/key_open.pem"
refuses "requires password_file" -c authentication=scram-sha-256
refuses "ssl = require needs ssl_cert_file" -c ssl=require
printf 'carol\n' > "$T/badpw"
refuses "invalid entry in password file" -c authentication=password -c "password_file=$T/badpw"

[ $status -eq 0 ] && echo "pgwire_tls_auth: ok"
exit $status
