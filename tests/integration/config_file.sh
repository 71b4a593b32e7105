#!/usr/bin/env bash
# configs/sluiced.conf is generated from the key table (server/config_keys.def):
# it must list every key with its default; the daemon must accept it as is,
# and refuse a bad value with a message naming the key.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
"$BIN/sluiced" --describe-config | diff -u configs/sluiced.conf - \
    || { echo "FAIL: configs/sluiced.conf is out of date: run bin/sluiced --describe-config > configs/sluiced.conf"; exit 1; }
work=$(mktemp -d /tmp/sluice-conf-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
start_daemon "$work" -c configs/sluiced.conf -c port=0 -c http_port=0 -c "data_directory=$work/data" \
    || { echo "FAIL: the daemon does not start with configs/sluiced.conf"; exit 1; }
[ "$(sql -c 'SHOW worker_threads')" = 0 ] || { echo "FAIL: SHOW of a configuration key"; exit 1; }
sql -c 'SHOW http_token' >/dev/null 2>&1 && { echo "FAIL: SHOW revealed http_token"; exit 1; }
stop_daemon || exit 1
out=$("$BIN/sluiced" -c port=70000 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q '"port"' || { echo "FAIL: bad port accepted: $out"; exit 1; }
out=$("$BIN/sluiced" -c no_such_key=1 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q 'no_such_key' || { echo "FAIL: unknown key accepted: $out"; exit 1; }
echo "config file: all checks passed"
