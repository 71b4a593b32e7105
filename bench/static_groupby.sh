#!/usr/bin/env bash
# GROUP BY over a static (catalog) table: sluiced's CPU per query, cold (the
# first read, which decodes SQLite's rows and builds the table's columnar
# copy, server/table_cache.h) and warm (served from the copy), against DuckDB
# over the same rows in memory (bench/duckdb/groupby.mjs: same rows, same
# query, one thread). Rows are k = (i * 2654435761) % GROUPS, v = i % 100 for
# i in 0..ROWS-1 (BIGINT both), loaded with INSERT ... SELECT from
# generate_series in chunks of 1 M; the query is groupby.mjs's
#   SELECT count(*), sum(s), sum(c), sum(a) FROM
#     (SELECT k, sum(v) AS s, count(*) AS c, avg(v) AS a FROM t GROUP BY k)
# so both sides print the same checksum. The daemon runs with
# worker_threads=1 (single-threaded, as DuckDB's SET threads = 1). CPU is the
# daemon's user+system time over each query (/proc/<pid>/stat), wall the
# query's time seen by psql (a warm round runs it 10 times in one session); prints the cold CPU figure and the medians of
# ROUNDS warm ones, then runs DuckDB. SLUICED_OPTS="-c worker_threads=2"
# reads the table's copy with two tasks.
# Usage: bench/static_groupby.sh [ROWS] [GROUPS] [ROUNDS]   (BIN=bin by default;
# SLUICED_OPTS="-c table_cache_mb=0" measures the path without the copy)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
rows=${1:-10000000}
groups=${2:-1000}
rounds=${3:-5}
work=$(mktemp -d /tmp/sluice-bench-static-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
start_daemon "$work" -c worker_threads=1 ${SLUICED_OPTS:-} >/dev/null || exit 1
q() { psql -X -q -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice "$@"; }
cpu() { awk '{ print $14 + $15 }' "/proc/$SL_PID/stat"; }
hz=$(getconf CLK_TCK)
q -c "CREATE TABLE t (k BIGINT, v BIGINT)" || exit 1
load0=$(date +%s%N)
for ((from = 0; from < rows; from += 1000000)); do
    to=$((from + 1000000 - 1)); [ $to -ge "$rows" ] && to=$((rows - 1))
    q -c "INSERT INTO t SELECT (i * 2654435761) % $groups, i % 100 FROM generate_series($from, $to) AS g(i)" \
        || exit 1
done
load_ms=$(( ($(date +%s%N) - load0) / 1000000 ))
sql="SELECT count(*), sum(s), sum(c), sum(a) FROM (SELECT k, sum(v) AS s, count(*) AS c, avg(v) AS a FROM t GROUP BY k) x"
# run [N]: the query N times (default 1) in one psql session; prints the
# daemon's CPU ticks per query, and appends the wall ms per query to wall.
run() {
    local n=${1:-1} c0 c1 w0 w1 args=()
    for ((k = 0; k < n; k++)); do args+=(-c "$sql"); done
    c0=$(cpu); w0=$(date +%s%N)
    q "${args[@]}" | tail -n 1 >"$work/result"
    w1=$(date +%s%N); c1=$(cpu)
    echo $(( (w1 - w0) / 1000000 / n )) >>"$work/wall"
    echo $(( (c1 - c0) / n ))
}
cold=$(run)
warm=()
for ((i = 0; i < rounds; i++)); do warm+=("$(run 10)"); done
check=$(tr "\n" " " <"$work/result")
wall=$(tail -n "$rounds" "$work/wall" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
median=$(printf '%s\n' "${warm[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
awk -v c="$cold" -v m="$median" -v hz="$hz" -v r="$rows" -v g="$groups" -v l="$load_ms" -v chk="$check" \
    -v all="${warm[*]}" -v w="$wall" 'BEGIN {
    printf "sluiced         groups=%-8d rows=%d  load %.1f s (%.2f M rows/s)  cold cpu %.3f s  warm median cpu %.3f s wall %.3f s  (warm: %s ticks)  result %s\n",
        g, r, l / 1000, r / l / 1000, c / hz, m / hz, w / 1000, all, chk }'
if [ -d bench/duckdb/node_modules ]; then
    (cd bench/duckdb && node groupby.mjs "$rows" "$groups" "$rounds")
else
    echo "DuckDB side: cd bench/duckdb && npm ci, then run this again"
fi
