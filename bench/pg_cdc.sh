#!/usr/bin/env bash
# Reading PostgreSQL changes: the postgres_cdc source (into a noop sink)
# against pg_recvlogical reading the same changes from a slot of its own
# with pgoutput (proto_version 1, the same publication). Each round: two
# new slots at the same position, then N inserts (in transactions of 1000
# rows, table ev (id bigint, k int, s text), REPLICA IDENTITY FULL), then
#   sluice          CREATE QUERY ... SINK noop TRIGGER AVAILABLE NOW on a
#                   stream with snapshot 'false', then AWAIT QUERY: wall time
#                   from CREATE to the end of AWAIT (planning, the stream
#                   decoded by the server, pgoutput parsed, rows typed)
#   pg_recvlogical  --start --endpos=<the WAL position after the inserts>
#                   -f /dev/null (the server decodes the same changes;
#                   pg_recvlogical only writes the bytes)
# on tests/pg_server.sh's server (fsync off). Prints each round's seconds,
# the medians, changes per second and the ratio.
# Usage: bench/pg_cdc.sh [CHANGES] [ROUNDS]   (BIN=bin, O=build/obj by default)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/pg_server.sh
n=${1:-500000}
rounds=${2:-3}
work=$(mktemp -d /tmp/sluice-bench-pgcdc-XXXXXX)
chmod 755 "$work"
trap 'kill -9 ${SL_PID:-} 2>/dev/null; pg_server_stop immediate; rm -rf "$work"' EXIT
pg_server_start "$work/pg" >/dev/null || exit 1
pq() { pg_sql -q -A -t -v ON_ERROR_STOP=1 "$@"; }
pq -c "CREATE TABLE ev (id bigint PRIMARY KEY, k int, s text)" -c "ALTER TABLE ev REPLICA IDENTITY FULL" \
    -c "CREATE PUBLICATION pb FOR TABLE ev" || exit 1
start_daemon "$work" >/dev/null || exit 1
now() { date +%s.%N; }
sl=(); pr=()
for i in $(seq 1 "$rounds"); do
    pq -c "SELECT pg_create_logical_replication_slot('sl$i', 'pgoutput')" \
        -c "SELECT pg_create_logical_replication_slot('pr$i', 'pgoutput')" >/dev/null || exit 1
    base=$(((i - 1) * n))
    for ((t = 0; t < n; t += 1000)); do
        echo "INSERT INTO ev SELECT g, g % 1000, 's' || g FROM generate_series($((base + t + 1)), $((base + t + 1000))) g;"
    done | pq >/dev/null || exit 1
    endpos=$(pq -c "SELECT pg_current_wal_lsn()")
    sql -c "CREATE STREAM st$i (id BIGINT, k INT, s STRING, sign INT) USING postgres_cdc
      OPTIONS (url '$PG_URL', publication 'pb', slot 'sl$i', tables 'ev', snapshot 'false')" || exit 1
    t0=$(now)
    sql -c "CREATE QUERY b$i SINK noop TRIGGER AVAILABLE NOW AS SELECT * FROM st$i" \
        -c "AWAIT QUERY b$i TIMEOUT '600 seconds'" >/dev/null || exit 1
    t1=$(now)
    got=$(curl -s "http://127.0.0.1:$SL_HTTP_PORT/api/v1/queries/b$i/progress/recent" |
        jq '[.[].numInputRows] | add')
    [ "$got" = "$n" ] || { echo "sluice round $i read $got changes, want $n"; exit 1; }
    t2=$(now)
    pg_recvlogical -d "$PG_URL" --slot "pr$i" --start -o proto_version=1 -o publication_names=pb \
        --endpos="$endpos" -f /dev/null || exit 1
    t3=$(now)
    sl+=("$(echo "$t1 - $t0" | bc)"); pr+=("$(echo "$t3 - $t2" | bc)")
    echo "round $i: sluice ${sl[-1]} s (input rows reported: $got), pg_recvlogical ${pr[-1]} s"
    sql -c "DROP QUERY b$i" >/dev/null 2>&1
    pq -c "SELECT pg_drop_replication_slot('sl$i')" -c "SELECT pg_drop_replication_slot('pr$i')" >/dev/null
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ms=$(median "${sl[@]}"); mp=$(median "${pr[@]}")
echo "median: sluice $ms s ($(echo "$n / $ms" | bc) changes/s), pg_recvlogical $mp s ($(echo "$n / $mp" | bc) changes/s), ratio $(echo "scale=2; $ms / $mp" | bc)"
