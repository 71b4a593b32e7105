#!/usr/bin/env bash
# The cost of a file stream's directory listing: a directory that already
# holds FILES taken files (one row each), then BATCHES batches of one new
# file each; the mean latestOffset (the listing and the choice of new files)
# and triggerExecution of those batches, from their progress reports.
# Usage: bench/file_listing.sh [FILES [BATCHES]]   (BIN=bin by default)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
files=${1:-20000}
batches=${2:-30}
work=$(mktemp -d /tmp/sluice-bench-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/in"
for i in $(seq 1 "$files"); do echo "{\"id\":$i}" > "$work/in/f$i.json"; done
start_daemon "$work" >/dev/null || exit 1
sql -c "CREATE STREAM s (id INT) USING file OPTIONS (path '$work/in', format 'json')" >/dev/null
sql -c "CREATE QUERY q AS SELECT id FROM s" >/dev/null
sql -c "AWAIT QUERY q" >/dev/null
[ "$(sql -c 'SELECT count(*) FROM q')" = "$files" ] || { echo "the first batch did not take every file"; exit 1; }
session_start
for i in $(seq 1 "$batches"); do
    printf '{"id":%d}\n' "$i" > "$work/in/.g$i"; mv "$work/in/.g$i" "$work/in/g$i.json"
    session_sql "AWAIT QUERY q"
done
session_end
sql -c "SHOW RECENT PROGRESS q" | grep '"numInputRows":1,' |
    sed -n 's/.*"latestOffset":\([0-9]*\).*"triggerExecution":\([0-9]*\).*/\1 \2/p' |
    awk -v f="$files" '{ a += $1; b += $2 } END { printf "%d files in the directory: latestOffset %.2f ms, triggerExecution %.2f ms (mean of %d one-file batches)\n", f, a / NR, b / NR, NR }'
