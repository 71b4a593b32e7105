#!/usr/bin/env bash
# The postgres_cdc source against a real PostgreSQL 15 (tests/pg_server.sh):
# a snapshot of a table then its changes (inserts, updates, deletes) into a
# memory sink, every change exactly once (the rows per key summed by sign
# give back the table's final content, the counts per op those made); a
# kill -9 of the daemon while changes stream, then a restart: nothing lost
# or duplicated; and the failures: a bad URL (08001), a missing
# publication (42704), a table without REPLICA IDENTITY FULL (55000), the
# slot dropped under a running query with failOnDataLoss (55000), max()
# over a change stream (0A000). The worked example: per-customer totals
# kept by sum(amount * sign) in a postgres sink in update mode, through
# 20 random kill -9s and a PostgreSQL restart, equal to GROUP BY in PostgreSQL.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/pg_server.sh
work=$(mktemp -d /tmp/sluice-pg-cdc-XXXXXX)
chmod 755 "$work"
trap 'kill -9 ${SL_PID:-} 2>/dev/null; pg_server_stop immediate; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }
ok() { echo "ok   $*"; }
pq() { pg_sql -q -A -t -v ON_ERROR_STOP=1 "$@"; }
# until_equal SECONDS "sluice query" "want": polls a result with a deadline
until_equal() {
    local deadline=$((SECONDS + $1)) got
    while :; do
        got=$(sql -c "$2" 2>&1)
        [ "$got" = "$3" ] && return 0
        [ $SECONDS -ge $deadline ] && { echo "got: $got"; echo "want: $3"; return 1; }
        sleep 0.2
    done
}

# A fast shutdown waits for each walsender until its client has confirmed
# what it was sent; a daemon busy retrying its sink meanwhile answers late,
# so the test server gives up on silent clients after 5 s.
pg_server_start "$work/pg" wal_sender_timeout=5s || fail "postgres"
pq -c "CREATE TABLE orders (id int PRIMARY KEY, customer text, amount numeric(10,2), note text)" \
    -c "ALTER TABLE orders REPLICA IDENTITY FULL" \
    -c "INSERT INTO orders SELECT g, 'c' || (g % 7), g * 1.25, CASE WHEN g % 3 = 0 THEN NULL ELSE E'tab\\there' END FROM generate_series(1, 100000) g" \
    -c "CREATE PUBLICATION p FOR TABLE orders" || fail "tables"
start_daemon "$work" || fail "daemon did not start"
cols="id INT, customer STRING, amount DECIMAL(10,2), note STRING, op STRING, sign INT, lsn STRING, commit_time TIMESTAMP"
sql -c "CREATE STREAM oc ($cols) USING postgres_cdc OPTIONS (url '$PG_URL', publication 'p', slot 's_basic', tables 'public.orders')" ||
    fail "create stream"

# ---- 1. snapshot, then changes
sql -c "CREATE QUERY qb SINK memory TRIGGER PROCESSING TIME '100 milliseconds' AS SELECT * FROM oc" >/dev/null || fail "create qb"
until_equal 30 "SELECT op, sign, count(*) FROM qb GROUP BY op, sign" "r|1|100000" || fail "snapshot"
[ "$(sql -c "SELECT count(*) FROM qb WHERE note = E'tab\\there'")" = 66667 ] || fail "snapshot: escaped text"
pq -c "UPDATE orders SET amount = amount + 1 WHERE id <= 100" \
    -c "DELETE FROM orders WHERE id > 99950" \
    -c "BEGIN" -c "INSERT INTO orders SELECT g, 'new', g, NULL FROM generate_series(200001, 200010) g" \
    -c "UPDATE orders SET customer = 'moved' WHERE id = 200001" -c "COMMIT" || fail "changes"
until_equal 30 "SELECT op, sign, count(*) FROM qb GROUP BY op, sign ORDER BY 1, 2" \
    "$(printf 'c|1|10\nd|-1|50\nr|1|100000\nu|-1|101\nu|1|101')" || fail "changes streamed"
want=$(pq -c "SELECT id, customer, amount FROM orders ORDER BY id")
got=$(sql -c "SELECT id, customer, sum(amount * sign) FROM qb GROUP BY id, customer HAVING sum(sign) <> 0 ORDER BY id")
[ "$got" = "$want" ] || fail "rows summed by sign differ from the table"
[ "$(sql -c "SELECT count(*) FROM (SELECT id FROM qb GROUP BY id HAVING sum(sign) NOT IN (0, 1)) x")" = 0 ] ||
    fail "a key counted twice"
[ "$(sql -c "SELECT count(DISTINCT lsn) FROM qb WHERE op = 'c'")" = 1 ] || fail "one transaction, one lsn"
ok "snapshot of 100000 rows (op r), then 100 updates, 50 deletes, a transaction of 11 changes: summed by sign equal to the table"

# ---- 1b. (one query per slot: a second stream) a concurrent writer: 200 transactions of inserts, updates and
# deletes while the query streams; counts per op equal what PostgreSQL
# reported, and per key the rows in commit order chain (each before image
# equals the key's previous row)
sql -c "CREATE STREAM ow (id INT, amount DECIMAL(10,2), sign INT, op STRING, lsn STRING) USING postgres_cdc OPTIONS (url '$PG_URL', publication 'p', slot 's_writer', tables 'orders')" ||
    fail "ow"
sql -c "CREATE QUERY qw SINK memory TRIGGER PROCESSING TIME '100 milliseconds' AS SELECT * FROM ow" >/dev/null ||
    fail "create qw"
until_equal 30 "SELECT count(*) FROM qw WHERE op = 'r'" "$(pq -c "SELECT count(*) FROM orders")" || fail "qw snapshot"
for i in $(seq 1 200); do
    echo "BEGIN;"
    echo "INSERT INTO orders SELECT g, 'w', g % 50, NULL FROM generate_series($((300000 + i * 5)), $((300004 + i * 5))) g;"
    echo "UPDATE orders SET amount = amount + 1 WHERE id < 300000 AND id % 1000 = $((i * 7 % 1000));"
    echo "DELETE FROM orders WHERE id < 300000 AND id % 997 = $i AND id % 1000 <> $((i * 7 % 1000));"
    echo "COMMIT;"
done | pg_sql -v ON_ERROR_STOP=1 >"$work/writer.out" || fail "writer"
ins=$(awk '$1 == "INSERT" { n += $3 } END { print n + 0 }' "$work/writer.out")
upd=$(awk '$1 == "UPDATE" { n += $2 } END { print n + 0 }' "$work/writer.out")
del=$(awk '$1 == "DELETE" { n += $2 } END { print n + 0 }' "$work/writer.out")
until_equal 30 "SELECT op, sign, count(*) FROM qw WHERE op <> 'r' GROUP BY op, sign ORDER BY 1, 2" \
    "$(printf 'c|1|%d\nd|-1|%d\nu|-1|%d\nu|1|%d' "$ins" "$del" "$upd" "$upd")" || fail "writer's changes"
want=$(pq -c "SELECT id, amount FROM orders ORDER BY id")
got=$(sql -c "SELECT id, sum(amount * sign) FROM qw GROUP BY id HAVING sum(sign) <> 0 ORDER BY id")
[ "$got" = "$want" ] || fail "after the writer: rows summed by sign differ from the table"
# commit order per key (the writer changes a key at most once per
# transaction): sorted by (lsn, sign), a key's rows alternate +1 / -1
# and each -1 row (the row before a change) equals the +1 row before it
sql -F ' ' -c "SELECT id, lsn, sign, amount FROM qw" |
    awk '{ split($2, l, "/"); lsn = sprintf("%8s%8s", l[1], l[2]); gsub(/ /, "0", lsn)
           printf "%s\t%s\t%s\t%s\n", $1, lsn, $3, $4 }' |
    sort -t "$(printf '\t')" -k1,1n -k2,2 -k3,3n >"$work/chain.tsv"
[ "$(wc -l <"$work/chain.tsv")" -gt 100000 ] || fail "chain: too few rows"
bad=$(awk -F'\t' '$1 != key { key = $1; prev = "" }
    { if (($3 == 1 && prev != "" && prev !~ /^-1 /) || ($3 == -1 && prev != "1 " $4)) n++; prev = $3 " " $4 }
    END { print n + 0 }' "$work/chain.tsv")
[ "$bad" = 0 ] || fail "$bad rows out of commit order or with a wrong before image"
ok "concurrent writer: $ins inserts, $upd updates, $del deletes in 200 transactions, each once, in commit order per key"
sql -c "STOP QUERY qw" >/dev/null

# ---- 2. kill -9 while changes stream, then restart
pq -c "CREATE TABLE feed (id int PRIMARY KEY, v int)" -c "ALTER TABLE feed REPLICA IDENTITY FULL" \
    -c "CREATE PUBLICATION pf FOR TABLE feed" || fail "feed"
sql -c "CREATE STREAM fc (id INT, v INT, sign INT) USING postgres_cdc OPTIONS (url '$PG_URL', publication 'pf', slot 's_kill', tables 'feed', snapshot 'false', maxChangesPerTrigger '50')" ||
    fail "fc"
sql -c "CREATE QUERY qk SINK file OPTIONS (path '$work/out', format 'csv') TRIGGER PROCESSING TIME '50 milliseconds' AS SELECT id, v, sign FROM fc" >/dev/null ||
    fail "create qk"
writer() {
    for i in $(seq 1 40); do
        echo "INSERT INTO feed SELECT g, 0 FROM generate_series($((i * 100)), $((i * 100 + 99))) g;"
        echo "UPDATE feed SET v = v + 1 WHERE id % 10 = $((i % 10));"
        echo "DELETE FROM feed WHERE id = $((i * 100 + 7));"
    done | pg_sql -q -v ON_ERROR_STOP=1 >/dev/null
}
writer &
wpid=$!
wait_for 30 bash -c "ls $work/out/part-* >/dev/null 2>&1" || fail "no output before the kill"
kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
wait $wpid || fail "writer"
start_daemon "$work" || fail "restart"
want_rows=$(pq -c "SELECT count(*) FROM feed")
sum_file() { cat "$work"/out/part-* 2>/dev/null | awk -F, '$1 ~ /^[0-9]+$/ { n[$1] += $3; v[$1] += $2 * $3 } END { for (k in n) if (n[k] != 0) print k "|" v[k] "|" n[k] }' | sort -n; }
deadline=$((SECONDS + 30))
want=$(pq -c "SELECT id, v, 1 FROM feed ORDER BY id")
until [ "$(sum_file)" = "$want" ]; do
    [ $SECONDS -ge $deadline ] && fail "after the restart: $(sum_file | wc -l) keys, want $want_rows; $(diff <(sum_file) <(echo "$want") | head -5)"
    sleep 0.3
done
ok "kill -9 while 4000 inserts, 40 updates and 40 deletes stream: after the restart the changes summed by sign equal the table ($want_rows keys)"
sql -c "STOP QUERY qk" >/dev/null

# ---- 3. the worked example: per-customer totals kept in PostgreSQL by the
# postgres sink in update mode, through random kill -9s of the daemon and a
# PostgreSQL restart while a writer inserts, updates and deletes orders
pq -c "CREATE TABLE shop (id int PRIMARY KEY, customer text NOT NULL, amount numeric(10,2) NOT NULL)" \
    -c "ALTER TABLE shop REPLICA IDENTITY FULL" -c "CREATE PUBLICATION pshop FOR TABLE shop" \
    -c "INSERT INTO shop SELECT g, 'cust' || (g % 20), (g % 97) + 0.5 FROM generate_series(1, 5000) g" || fail "shop"
sql -c "CREATE STREAM shop_cdc (customer STRING, amount DECIMAL(10,2), sign INT) USING postgres_cdc
  OPTIONS (url '$PG_URL', publication 'pshop', slot 's_shop', tables 'shop', maxChangesPerTrigger '300')" || fail "shop_cdc"
totals_query="CREATE QUERY totals SINK postgres OPTIONS (url '$PG_URL', table 'totals', createTable 'true', retries '8')
  OUTPUT MODE update TRIGGER PROCESSING TIME '100 milliseconds'
  AS SELECT customer, sum(amount * sign) AS total, sum(sign) AS n FROM shop_cdc GROUP BY customer"
sql -c "$totals_query" >/dev/null || fail "create totals"
# The writer runs until the kills are done (at most 1000 transactions), so
# every kill lands while changes stream.
shop_writer() {
    local i=0
    while [ ! -e "$work/writer.stop" ] && [ $i -lt 1000 ]; do
        i=$((i + 1))
        pg_sql -q -c "BEGIN;
          INSERT INTO shop SELECT g, 'cust' || (g % 23), (g % 89) + 0.25 FROM generate_series($((10000 + i * 20)), $((10000 + i * 20 + 19))) g;
          UPDATE shop SET amount = amount + 1, customer = 'cust' || ((id + $i) % 21) WHERE id % 150 = $((i % 150));
          DELETE FROM shop WHERE id % 151 = $((i % 151));
          COMMIT;" >/dev/null 2>&1 || sleep 0.1
    done
    echo $i >"$work/writer.count"
}
shop_writer &
wpid=$!
kills=0
for round in $(seq 1 21); do
    sleep "0.$((RANDOM % 5 + 1))"
    if [ $round = 11 ]; then # PostgreSQL restarts under the running query
        pg_server_restart || fail "postgres restart"
        continue
    fi
    kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
    kills=$((kills + 1))
    start_daemon "$work" || fail "restart $round"
done
touch "$work/writer.stop"
wait $wpid
want=$(pq -c "SELECT customer, sum(amount), count(*) FROM shop GROUP BY customer ORDER BY customer")
got_totals() { psql -X -q -A -t -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -c "SELECT customer, total, n FROM totals WHERE n <> 0 ORDER BY customer" 2>/dev/null; }
deadline=$((SECONDS + 40))
until [ "$(got_totals)" = "$want" ]; do
    [ $SECONDS -ge $deadline ] && fail "totals differ from GROUP BY in PostgreSQL: $(diff <(got_totals) <(echo "$want") | head -6)"
    sleep 0.3
done
ok "worked example: 5000 orders + $(cat "$work/writer.count") writer transactions, $kills kill -9s and a PostgreSQL restart: totals equal SELECT customer, sum(amount), count(*) ... GROUP BY customer"
sql -c "STOP QUERY totals" >/dev/null

# ---- 4. failures
failed() { # QUERY SQLSTATE TEXT
    local out; out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY $1 TIMEOUT '30 seconds'" 2>&1) && fail "$1 succeeded"
    case "$out" in *"$2"*"$3"*) ;; *) fail "$1: $out" ;; esac
}
sql -c "CREATE STREAM bad1 (id INT) USING postgres_cdc OPTIONS (url 'postgresql://postgres:sekrit1@127.0.0.1:$((PG_PORT + 1))/postgres', password 'sekrit2', publication 'p', slot 's_f1', tables 'orders')" || fail "bad1"
sql -c "CREATE QUERY f1 SINK memory AS SELECT * FROM bad1" >/dev/null 2>&1
failed f1 08001 "postgres_cdc source"
ok "connection refused: FAILED 08001"
out=$(sql -c "DESCRIBE bad1"; sql -c "SHOW STREAMS"; sql -c "SHOW QUERIES"; cat "$work/log")
case "$out" in *sekrit*) fail "a password is shown: $(echo "$out" | grep sekrit | head -n 3)" ;; esac
echo "$out" | grep -q "url '\*\*\*\*\*\*\*\*', password '\*\*\*\*\*\*\*\*'" || fail "definition not redacted: $out"
ok "the URL's password and the password option redacted in DESCRIBE, SHOW and the log"
sql -c "CREATE STREAM bad2 (id INT) USING postgres_cdc OPTIONS (url '$PG_URL', publication 'nope', slot 's_f2', tables 'orders')" || fail "bad2"
sql -c "CREATE QUERY f2 SINK memory AS SELECT * FROM bad2" >/dev/null 2>&1
failed f2 42704 'publication "nope" does not exist'
ok "missing publication: FAILED 42704"
pq -c "CREATE TABLE plain (id int PRIMARY KEY)" -c "ALTER PUBLICATION p ADD TABLE plain" || fail "plain"
sql -c "CREATE STREAM bad3 (id INT) USING postgres_cdc OPTIONS (url '$PG_URL', publication 'p', slot 's_f3', tables 'plain')" || fail "bad3"
sql -c "CREATE QUERY f3 SINK memory AS SELECT * FROM bad3" >/dev/null 2>&1
failed f3 55000 'must have REPLICA IDENTITY FULL'
ok "table without REPLICA IDENTITY FULL: FAILED 55000"
out=$(sql -v VERBOSITY=verbose -c "CREATE QUERY fm SINK memory OUTPUT MODE update AS SELECT customer, max(amount) FROM oc GROUP BY customer" 2>&1) &&
    fail "max() over a change stream accepted"
case "$out" in *0A000*"max() over a postgres_cdc stream is not supported"*) ;; *) fail "max: $out" ;; esac
ok "max() over a postgres_cdc stream: refused with 0A000"
sql -c "STOP QUERY qb" >/dev/null || fail "stop qb"
pq -c "SELECT pg_drop_replication_slot('s_basic')" >/dev/null || fail "drop slot"
sql -c "START QUERY qb" >/dev/null || fail "start qb"
failed qb 55000 'replication slot "s_basic" does not exist'
ok "slot dropped, failOnDataLoss: FAILED 55000"
stop_daemon || fail "stop"
