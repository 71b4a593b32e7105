#!/usr/bin/env bash
# Window functions in a batch SELECT: sluiced against PostgreSQL 15 over the
# same rows. Rows are i, k = (i * 2654435761) % GROUPS, v = (i * 40503) % 1000
# for i in 0..ROWS-1 (BIGINT), loaded with INSERT ... SELECT from
# generate_series in chunks of 1 M on both sides. The queries, each wrapped
# in a count/sum so only one row comes back and both sides print the same
# checksum:
#   top1   a top-1 per key: row_number() OVER (PARTITION BY k ORDER BY v DESC, i) = 1
#   run    a running total: sum(v) OVER (PARTITION BY k ORDER BY i)
#   slide  a sliding frame: avg(v) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)
# Wall time of each query as psql sees it (its \timing), the median of
# ROUNDS runs; sluiced runs with worker_threads=1, PostgreSQL with its
# defaults (work_mem raised to 256MB so its sorts stay in memory).
# Usage: bench/window_fn.sh [ROWS] [GROUPS] [ROUNDS]   (BIN=bin by default)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/pg_server.sh
rows=${1:-200000}
groups=${2:-1000}
rounds=${3:-3}
work=$(mktemp -d /tmp/sluice-bench-window-XXXXXX)
chmod 755 "$work"
trap 'kill -9 ${SL_PID:-} 2>/dev/null; pg_server_stop immediate >/dev/null 2>&1; rm -rf "$work"' EXIT
start_daemon "$work/sl" -c worker_threads=1 >/dev/null || exit 1
pg_server_start "$work/pg" work_mem=256MB >/dev/null || exit 1
sl() { psql -X -q -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice "$@"; }
pg() { pg_sql -q -A -t "$@"; }

declare -A queries=(
    [top1]="SELECT count(*), sum(v) FROM (SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v DESC, i) AS n FROM t) x WHERE n = 1"
    [run]="SELECT count(*), sum(s) FROM (SELECT sum(v) OVER (PARTITION BY k ORDER BY i) AS s FROM t) x"
    [slide]="SELECT count(*), sum(CAST(round(a * 4) AS BIGINT)) FROM (SELECT avg(v) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS a FROM t) x"
)

load() { # load CLIENT
    "$1" -c "CREATE TABLE t (i BIGINT, k BIGINT, v BIGINT)" >/dev/null || exit 1
    for ((from = 0; from < rows; from += 1000000)); do
        to=$((from + 1000000 - 1)); [ $to -ge "$rows" ] && to=$((rows - 1))
        "$1" -c "INSERT INTO t SELECT i, (i * 2654435761) % $groups, (i * 40503) % 1000 FROM generate_series(CAST($from AS BIGINT), CAST($to AS BIGINT)) AS g(i)" \
            >/dev/null || exit 1
    done
}

# time_query CLIENT SQL: median wall ms of ROUNDS runs; the last result in $work/result.
time_query() {
    local ms=() out
    for ((r = 0; r < rounds; r++)); do
        out=$("$1" -c '\timing on' -c "$2") || return 1
        echo "$out" | head -n 1 >"$work/result"
        ms+=("$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')")
    done
    printf '%s\n' "${ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

load sl
load pg
pg -c "ANALYZE t" >/dev/null
for name in top1 run slide; do
    # a sluiced without that window function: no time, no result
    s=$(time_query sl "${queries[$name]}" 2>/dev/null) || { s=nan; echo error >"$work/result"; }
    sres=$(cat "$work/result")
    p=$(time_query pg "${queries[$name]}") || exit 1
    pres=$(cat "$work/result")
    same=$([ "$sres" = "$pres" ] && echo same || echo DIFFERENT)
    awk -v n="$name" -v r="$rows" -v s="$s" -v p="$p" -v sr="$sres" -v c="$same" 'BEGIN {
        printf "%-5s rows=%-8d sluiced %8.1f ms  postgresql %8.1f ms  (sluiced/pg %.2fx)  result %s (%s)\n",
            n, r, s, p, s / p, sr, c }'
done
