#!/usr/bin/env bash
# A psycopg 3 client sends a long query and is killed with SIGKILL once the
# query has left it (tests/drivers/python/kill_mid_query.py prints "sent"
# after the socket took it): the server sees the connection vanish mid-query.
set -uo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/out"
/usr/bin/python3 "$(dirname "$0")/python/kill_mid_query.py" >"$dir/out" &
pid=$!
read -r line <"$dir/out"
kill -9 "$pid"
wait "$pid" 2>/dev/null
if [ "$line" = sent ]; then echo "ok   kill-9/query sent, client killed"; exit 0; fi
echo "FAIL kill-9/query sent: the client printed '$line'"
exit 1
