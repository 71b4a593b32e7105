#!/usr/bin/env bash
# Soak: random kill -9s of the daemon while six queries run at once, fed
# continuously, every output compared with an independent computation of
# what it must be (awk over the input this script generated).
#
#   stateless   file stream -> filter/project                  -> file sink
#   win_mem     1-minute windowed count/sum, memory state       -> file sink
#   win_rdb     the same, RocksDB state                         -> file sink
#   dedup       DISTINCT ON (id), memory state                  -> file sink
#   clicks      stream-stream inner join with a time bound      -> file sink
#   kafka       Kafka source (tests/tools/kafka_mock) -> project -> file sink
#
# A feeder moves a round of files into the three file streams' directories
# and produces a round of messages with kcat every FEED_MS, while the main
# loop kills the daemon (kill -9) after a random delay drawn from a seeded
# RNG (so kills fall at random points of a batch; the seed is printed and
# SOAK_SEED=n repeats a run's delays) and restarts it, SOAK_KILLS times
# (default 40; SOAK_KILLS=1000 for release checks, docs/operations.md).
# Then the feeder stops, a last round two hours of event time later closes
# every window, and each output, read through its sink's manifest (exactly
# once), must equal the expected rows: 0 lost, 0 duplicated, 0 wrong.
#
# The input is built so that the output does not depend on how rounds fall
# into batches: no row is ever late (event time only grows, by much less
# than the 10-minute watermark delay), a click comes at most one round
# after its impression, and a repeated id repeats its whole row.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
work=$(mktemp -d /tmp/sluice-soak-XXXXXX)
MOCK_DIR=$work
feeder=""
trap '[ -n "$feeder" ] && kill "$feeder" 2>/dev/null; kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${SL_LOG:-}" ] && [ -f "$SL_LOG" ] && tail -n 40 "$SL_LOG"; exit 1; }

kills=${SOAK_KILLS:-40}
seed=${SOAK_SEED:-$(( $(date +%s) % 100000 ))}
feed_ms=${FEED_MS:-150}
echo "soak: $kills kills, seed $seed (SOAK_SEED=$seed repeats the kill delays)"
queries="stateless win_mem win_rdb dedup clicks kafka"
T0=1714564800   # 2024-05-01 12:00:00 UTC: round R's events start at T0 + 20 R seconds

# write_round R: round R's files (moved in atomically) and Kafka messages.
write_round() {
    local r=$1
    awk -v r="$r" -v t0=$T0 'BEGIN {
        print "id,k,v,ts"
        for (j = 0; j < 8; j++) {
            id = r * 10 + j; jj = j
            if (j == 7) { id = r * 10 + 6; jj = 6 }            # repeats row 6 of the round
            if (j == 0 && r > 1) { id = (r - 1) * 10 + 1; jj = 1; rr = r - 1 } else rr = r
            printf "%d,k%d,%d,%s\n", id, (rr + jj) % 4, (rr * 7 + jj * 3) % 11,
                strftime("%Y-%m-%d %H:%M:%S", t0 + rr * 20 + jj * 2, 1)
        } }' > "$work/in/ev/.r$r.csv"
    awk -v r="$r" -v t0=$T0 'BEGIN {
        print "ad,it"
        printf "a%d,%s\nb%d,%s\n", r, strftime("%Y-%m-%d %H:%M:%S", t0 + r * 20, 1),
            r, strftime("%Y-%m-%d %H:%M:%S", t0 + r * 20 + 5, 1) }' > "$work/in/imp/.r$r.csv"
    awk -v r="$r" -v t0=$T0 'BEGIN {
        print "ad,ct"
        printf "a%d,%s\nz%d,%s\n", r, strftime("%Y-%m-%d %H:%M:%S", t0 + r * 20 + 10, 1),
            r, strftime("%Y-%m-%d %H:%M:%S", t0 + r * 20 + 1, 1)
        if (r > 1) printf "b%d,%s\n", r - 1, strftime("%Y-%m-%d %H:%M:%S", t0 + r * 20 + 2, 1) }' \
        > "$work/in/clk/.r$r.csv"
    mv "$work/in/ev/.r$r.csv" "$work/in/ev/r$r.csv"
    mv "$work/in/imp/.r$r.csv" "$work/in/imp/r$r.csv"
    mv "$work/in/clk/.r$r.csv" "$work/in/clk/r$r.csv"
    seq 0 4 | awk -v r="$r" '{ printf "{\"id\":%d,\"k\":\"m%d\",\"v\":%d}\n", r * 10 + $1, $1, r % 13 }' \
        > "$work/kafka/r$r"
    produce kev $(( r % 4 )) < "$work/kafka/r$r" || { echo "kcat failed at round $r" >"$work/feed.err"; return 1; }
}

# write_flush: one row per stream two hours of event time after round R: every window closes.
write_flush() {
    local ts; ts=$(awk -v t=$(( T0 + $1 * 20 + 7200 )) 'BEGIN { print strftime("%Y-%m-%d %H:%M:%S", t, 1) }')
    printf 'id,k,v,ts\n999999999,flush,0,%s\n' "$ts" > "$work/in/ev/.flush.csv"
    printf 'ad,it\nflush,%s\n' "$ts" > "$work/in/imp/.flush.csv"
    printf 'ad,ct\nflush,%s\n' "$ts" > "$work/in/clk/.flush.csv"
    for s in ev imp clk; do mv "$work/in/$s/.flush.csv" "$work/in/$s/flush.csv"; done
}

# feed: a round every feed_ms until $work/stop exists; the last round's number in $work/rounds.
feed() {
    local r=1
    while [ ! -e "$work/stop" ]; do
        write_round $r || return 1
        echo $r > "$work/rounds"
        r=$(( r + 1 ))
        sleep "$(awk -v ms="$feed_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
    done
}

create_all() {
    sql <<SQL || fail "could not create the streams and queries"
CREATE STREAM ev (id INT, k STRING, v INT, ts TIMESTAMP) USING file
  OPTIONS (path '$work/in/ev', format 'csv', header 'true') WATERMARK ts DELAY OF INTERVAL '10 minutes';
CREATE STREAM imp (ad STRING, it TIMESTAMP) USING file
  OPTIONS (path '$work/in/imp', format 'csv', header 'true') WATERMARK it DELAY OF INTERVAL '10 minutes';
CREATE STREAM clk (ad STRING, ct TIMESTAMP) USING file
  OPTIONS (path '$work/in/clk', format 'csv', header 'true') WATERMARK ct DELAY OF INTERVAL '10 minutes';
CREATE STREAM kev (id INT, k STRING, v INT) USING kafka
  OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'kev', startingOffsets 'earliest');
CREATE QUERY stateless SINK file OPTIONS (path '$work/out/stateless', format 'json')
  CHECKPOINT '$work/chk/stateless' AS
  SELECT id, k, v * 2 AS v2, ts FROM ev WHERE v % 3 <> 0;
CREATE QUERY win_mem SINK file OPTIONS (path '$work/out/win_mem', format 'json')
  CHECKPOINT '$work/chk/win_mem' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s FROM ev GROUP BY window(ts, '1 minute'), k;
CREATE QUERY win_rdb SINK file OPTIONS (path '$work/out/win_rdb', format 'json')
  CHECKPOINT '$work/chk/win_rdb' OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s FROM ev GROUP BY window(ts, '1 minute'), k;
CREATE QUERY dedup SINK file OPTIONS (path '$work/out/dedup', format 'json')
  CHECKPOINT '$work/chk/dedup' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT DISTINCT ON (id) id, k, v, ts FROM ev;
CREATE QUERY clicks SINK file OPTIONS (path '$work/out/clicks', format 'json')
  CHECKPOINT '$work/chk/clicks' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT i.ad, i.it, c.ct FROM imp i JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY kafka SINK file OPTIONS (path '$work/out/kafka', format 'json')
  CHECKPOINT '$work/chk/kafka' AS
  SELECT id, k, v FROM kev;
CREATE TABLE o_stateless (id INT, k STRING, v2 INT, ts TIMESTAMP) USING json OPTIONS (path '$work/out/stateless');
CREATE TABLE o_win_mem (ws TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json OPTIONS (path '$work/out/win_mem');
CREATE TABLE o_win_rdb (ws TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json OPTIONS (path '$work/out/win_rdb');
CREATE TABLE o_dedup (id INT, k STRING, v INT, ts TIMESTAMP) USING json OPTIONS (path '$work/out/dedup');
CREATE TABLE o_clicks (ad STRING, it TIMESTAMP, ct TIMESTAMP) USING json OPTIONS (path '$work/out/clicks');
CREATE TABLE o_kafka (id INT, k STRING, v INT) USING json OPTIONS (path '$work/out/kafka');
SQL
}

# ev_rows: every row of the ev stream's files (headers dropped), comma-separated.
ev_rows() { cat "$work"/in/ev/*.csv | grep -v '^id,'; }

# expected Q: the rows query Q must have output, '|'-separated, sorted (awk over the input).
expected() {
    case $1 in
    stateless) ev_rows | awk -F, '$3 % 3 != 0 { print $1 "|" $2 "|" $3 * 2 "|" $4 }' ;;
    win_mem|win_rdb)
        ev_rows | awk -F, '$2 != "flush" { w = substr($4, 1, 16) ":00"; n[w "|" $2]++; s[w "|" $2] += $3 }
                           END { for (g in n) print g "|" n[g] "|" s[g] }' ;;
    dedup) ev_rows | awk -F, '!seen[$1]++ { print $1 "|" $2 "|" $3 "|" $4 }' ;;
    clicks)
        # impressions and clicks as "ad,ts" lines, joined by ad with the time bound
        cat "$work"/in/imp/*.csv | grep -v "^ad," | LC_ALL=C sort -t, -k1,1 > "$work/imp.rows"
        cat "$work"/in/clk/*.csv | grep -v "^ad," | LC_ALL=C sort -t, -k1,1 > "$work/clk.rows"
        LC_ALL=C join -t, "$work/imp.rows" "$work/clk.rows" | TZ=UTC awk -F, '
            function t(s) { gsub(/[-:]/, " ", s); return mktime(s) }
            t($3) >= t($2) && t($3) <= t($2) + 600 { print $1 "|" $2 "|" $3 }' ;;
    kafka) cat "$work"/kafka/r* | sed 's/{"id":\([0-9]*\),"k":"\([^"]*\)","v":\([0-9]*\)}/\1|\2|\3/' ;;
    esac | LC_ALL=C sort
}

# output Q: what query Q wrote (through its sink's manifest), sorted.
output() { sql -c "SELECT * FROM o_$1" | LC_ALL=C sort; }

# kill9: the daemon must still be running (a crash of its own is a failure), then kill -9.
kill9() {
    kill -0 "$SL_PID" 2>/dev/null || { wait "$SL_PID"; fail "the daemon died by itself (status $?)"; }
    kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
}

mkdir -p "$work/in/ev" "$work/in/imp" "$work/in/clk" "$work/kafka" "$work/out"
start_mock "$work" -t kev:4 || fail "kafka mock"
start_daemon "$work" || fail "daemon did not start"
create_all
start=$SECONDS
feed & feeder=$!

# the kills: each after a random delay of 0.1 to 1.6 s (this only picks the
# moment of the crash; nothing waits on it), then a restart
RANDOM=$seed
for i in $(seq 1 "$kills"); do
    ms=$(( RANDOM % 1500 + 100 ))
    sleep "$(( ms / 1000 )).$(printf '%03d' $(( ms % 1000 )))"
    [ -e "$work/feed.err" ] && fail "feeder: $(cat "$work/feed.err")"
    kill9
    start_daemon "$work" >/dev/null || fail "restart $i failed"
done
touch "$work/stop"; wait "$feeder" || fail "feeder failed: $(cat "$work/feed.err" 2>/dev/null)"; feeder=""
rounds=$(cat "$work/rounds")
write_flush "$rounds"
for q in $queries; do
    sql -c "AWAIT QUERY $q TIMEOUT '180 seconds'" >/dev/null || fail "AWAIT $q: $(sql -c 'SHOW QUERIES' 2>&1)"
done
echo "ok   $kills kills in $(( SECONDS - start )) s while $rounds rounds were fed; every query caught up"

# the comparison, per query: lost = expected rows missing, duplicated = an
# expected row more often than expected, wrong = a row that is not expected
rows_in=$(( $(ev_rows | wc -l) + $(cat "$work"/in/imp/*.csv "$work"/in/clk/*.csv | grep -vc '^ad,') + $(cat "$work"/kafka/r* | wc -l) ))
tot_out=0; tot_lost=0; tot_dup=0; tot_wrong=0
for q in $queries; do
    expected "$q" > "$work/$q.want"
    output "$q" > "$work/$q.got" || fail "read the output of $q"
    lost=$(LC_ALL=C comm -23 "$work/$q.want" "$work/$q.got" | wc -l)
    LC_ALL=C comm -13 "$work/$q.want" "$work/$q.got" > "$work/$q.extra"
    dup=$(LC_ALL=C grep -cxFf <(sort -u "$work/$q.want") "$work/$q.extra")
    wrong=$(( $(wc -l < "$work/$q.extra") - dup ))
    out=$(wc -l < "$work/$q.got")
    printf '     %-9s %6d rows out (%d expected): %d lost, %d duplicated, %d wrong\n' \
        "$q" "$out" "$(wc -l < "$work/$q.want")" "$lost" "$dup" "$wrong"
    if [ $(( lost + dup + wrong )) -gt 0 ]; then
        diff "$work/$q.want" "$work/$q.got" | head -n 20
    fi
    tot_out=$(( tot_out + out )); tot_lost=$(( tot_lost + lost ))
    tot_dup=$(( tot_dup + dup )); tot_wrong=$(( tot_wrong + wrong ))
done
echo "soak figures: kills $kills, rows in $rows_in, rows out $tot_out, lost $tot_lost, duplicated $tot_dup, wrong $tot_wrong (seed $seed)"
[ $(( tot_lost + tot_dup + tot_wrong )) -eq 0 ] || fail "the outputs differ from the expected rows (seed $seed)"
stop_daemon || fail "final stop"
echo "soak: all checks passed"
