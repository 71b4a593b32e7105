#!/usr/bin/env bash
# Writing PostgreSQL: the postgres sink (append mode, COPY text) against
# `psql \copy` of the same rows. N rows (id BIGINT, k INT, s STRING) in one
# CSV file read by a file stream; alternately for ROUNDS rounds:
#   sluice  CREATE QUERY ... SINK postgres TRIGGER AVAILABLE NOW, then AWAIT
#           QUERY: wall time from CREATE to the end of AWAIT (planning, the
#           CSV read and parse, COPY, the commit; a new table each round)
#   psql    \copy of the same CSV file into a new table of the same columns
# Both target an ordinary table on tests/pg_server.sh's server
# (fsync off). Prints each round's seconds, the medians and rows per second.
# Usage: bench/pg_sink.sh [ROWS] [ROUNDS]   (BIN=bin, O=build/obj by default)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/pg_server.sh
n=${1:-1000000}
rounds=${2:-3}
work=$(mktemp -d /tmp/sluice-bench-pg-XXXXXX)
chmod 755 "$work"
trap 'kill -9 ${SL_PID:-} 2>/dev/null; pg_server_stop immediate; rm -rf "$work"' EXIT
pg_server_start "$work/pg" >/dev/null || exit 1
mkdir -p "$work/in"
seq 1 "$n" | awk '{ printf "%d,%d,s%d\n", $1, $1 % 1000, $1 }' >"$work/rows.csv"
cp "$work/rows.csv" "$work/in/.r" && mv "$work/in/.r" "$work/in/rows.csv"
start_daemon "$work" >/dev/null || exit 1
sql -c "CREATE STREAM r (id BIGINT, k INT, s STRING) USING file OPTIONS (path '$work/in', format 'csv')" || exit 1
now() { date +%s.%N; }
sl=(); ps=()
for i in $(seq 1 "$rounds"); do
    t0=$(now)
    sql -c "CREATE QUERY b$i SINK postgres OPTIONS (url '$PG_URL', table 'sl$i', createTable 'true')
      TRIGGER AVAILABLE NOW AS SELECT id, k, s FROM r" -c "AWAIT QUERY b$i TIMEOUT '600 seconds'" >/dev/null || exit 1
    t1=$(now)
    got=$(pg_sql -A -t -c "SELECT count(*) FROM sl$i")
    [ "$got" = "$n" ] || { echo "sluice round $i wrote $got rows"; exit 1; }
    pg_sql -q -c "CREATE TABLE ps$i (id bigint, k integer, s text)" || exit 1
    t2=$(now)
    pg_sql -q -c "\\copy ps$i FROM '$work/rows.csv' CSV" || exit 1
    t3=$(now)
    sl+=("$(echo "$t1 - $t0" | bc)"); ps+=("$(echo "$t3 - $t2" | bc)")
    echo "round $i: sluice ${sl[-1]} s, psql \\copy ${ps[-1]} s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ms=$(median "${sl[@]}"); mp=$(median "${ps[@]}")
echo "median: sluice $ms s ($(echo "$n / $ms" | bc) rows/s), psql \\copy $mp s ($(echo "$n / $mp" | bc) rows/s), ratio $(echo "scale=2; $ms / $mp" | bc)"
