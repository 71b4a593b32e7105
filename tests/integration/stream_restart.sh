#!/usr/bin/env bash
# Stateful queries through crashes: window aggregations (memory and rocksdb
# state stores), session windows, stream-stream joins (full and left
# outer), deduplication (DISTINCT ON, and WITHIN WATERMARK) into file sinks. The same input,
# round by round, goes through an uninterrupted daemon and through one that
# is killed (kill -9) between batches, at every named step of the commit
# protocol (failpoints) and at random moments, and restarted each time; the
# two outputs, read back through the sinks' manifests, must be identical
# (every row exactly once), and agree with batch queries over the input.
# Then a query changed to a different aggregate, created on the same
# CHECKPOINT, is refused with a clear error (both schemas), and the original
# runs again.
#
# The input is built so that results do not depend on how rounds are split
# into batches: no row is ever late, a click comes at most one round after
# its impression (long before eviction), a key's session continues at most
# one round later (long before the watermark closes it), and a WITHIN
# WATERMARK key comes back only long after it expired. So any crash may change the batches but
# never the output.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-srestart-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${SL_LOG:-}" ] && [ -f "$SL_LOG" ] && tail -n 30 "$SL_LOG"; exit 1; }

queries="win_mem win_rdb sess_rdb join_full join_left dedup dedup_ww"
rounds=16          # input rounds; then one round that flushes everything

# ts R MINUTE_OFFSET_SECONDS: the event time of round R plus S seconds (round R starts at 12:00 + 5R minutes).
ts() { date -u -d "@$(( 1714564800 + $1 * 300 + $2 ))" '+%Y-%m-%d %H:%M:%S'; }

# put DIR NAME: moves DIR/.NAME (written) in as DIR/NAME, atomically.
put() { mv "$1/.$2" "$1/$2"; }

# write_round D R: the files of round R in run directory D (one per stream).
write_round() {
    local d=$1 r=$2 j
    {   echo "id,k,v,ts"
        for j in 0 1 2 3 4 5; do
            # ids repeat within the round (j 5 repeats j 4) and across rounds
            # (j 0 repeats the previous round's j 1); keys k0..k7 come back
            # in rounds R and R+1, then 8 rounds later
            local id=$(( r * 10 + j )); [ $j -eq 5 ] && id=$(( r * 10 + 4 ))
            [ $j -eq 0 ] && [ $r -gt 1 ] && id=$(( (r - 1) * 10 + 1 ))
            echo "$id,k$(( (r + j % 2) % 8 )),$(( (r * 7 + j * 3) % 11 )),$(ts "$r" $(( j * 30 )))"
        done
    } > "$d/in/ev/.r$r.csv"
    {   echo "ad,it"
        echo "a$r,$(ts "$r" 0)"; echo "b$r,$(ts "$r" 60)"; echo "u$r,$(ts "$r" 120)"
    } > "$d/in/imp/.r$r.csv"
    {   echo "ad,ct"
        echo "a$r,$(ts "$r" 180)"; echo "z$r,$(ts "$r" 120)"
        [ "$r" -gt 1 ] && echo "b$(( r - 1 )),$(ts "$r" 30)"
    } > "$d/in/clk/.r$r.csv"
    put "$d/in/ev" "r$r.csv"; put "$d/in/imp" "r$r.csv"; put "$d/in/clk" "r$r.csv"
}

# write_flush D: one row per stream two hours on: every window closes, all join state is evicted.
write_flush() {
    local d=$1
    printf 'id,k,v,ts\n9999,flush,0,%s\n' "$(ts 30 0)" > "$d/in/ev/.flush.csv"
    printf 'ad,it\nflush,%s\n' "$(ts 30 0)" > "$d/in/imp/.flush.csv"
    printf 'ad,ct\nflush,%s\n' "$(ts 30 0)" > "$d/in/clk/.flush.csv"
    put "$d/in/ev" flush.csv; put "$d/in/imp" flush.csv; put "$d/in/clk" flush.csv
}

# create_all D: streams, the six queries (file sinks, own checkpoints) and tables over their outputs.
create_all() {
    local d=$1
    sql <<SQL || fail "create in $d"
CREATE STREAM ev (id INT, k STRING, v INT, ts TIMESTAMP) USING file
  OPTIONS (path '$d/in/ev', format 'csv', header 'true') WATERMARK ts DELAY OF INTERVAL '10 minutes';
CREATE STREAM imp (ad STRING, it TIMESTAMP) USING file
  OPTIONS (path '$d/in/imp', format 'csv', header 'true') WATERMARK it DELAY OF INTERVAL '10 minutes';
CREATE STREAM clk (ad STRING, ct TIMESTAMP) USING file
  OPTIONS (path '$d/in/clk', format 'csv', header 'true') WATERMARK ct DELAY OF INTERVAL '10 minutes';
CREATE QUERY win_mem SINK file OPTIONS (path '$d/out/win_mem', format 'json')
  CHECKPOINT '$d/chk/win_mem' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi
  FROM ev GROUP BY window(ts, '5 minutes'), k;
CREATE QUERY win_rdb SINK file OPTIONS (path '$d/out/win_rdb', format 'json')
  CHECKPOINT '$d/chk/win_rdb' OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi
  FROM ev GROUP BY window(ts, '5 minutes'), k;
CREATE QUERY sess_rdb SINK file OPTIONS (path '$d/out/sess_rdb', format 'json')
  CHECKPOINT '$d/chk/sess_rdb' OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT k, session_window.start AS ss, session_window.end AS se, count(*) AS n, sum(v) AS s
  FROM ev GROUP BY k, session_window(ts, '3 minutes');
CREATE QUERY join_full SINK file OPTIONS (path '$d/out/join_full', format 'json')
  CHECKPOINT '$d/chk/join_full' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp i FULL JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY join_left SINK file OPTIONS (path '$d/out/join_left', format 'json')
  CHECKPOINT '$d/chk/join_left' OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp i LEFT JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY dedup SINK file OPTIONS (path '$d/out/dedup', format 'json')
  CHECKPOINT '$d/chk/dedup' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT DISTINCT ON (id) id, k, v, ts FROM ev;
CREATE QUERY dedup_ww SINK file OPTIONS (path '$d/out/dedup_ww', format 'json')
  CHECKPOINT '$d/chk/dedup_ww' OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT DISTINCT ON (k) WITHIN WATERMARK k, id, ts FROM ev;
CREATE TABLE o_win_mem (ws TIMESTAMP, k STRING, n BIGINT, s BIGINT, lo INT, hi INT) USING json OPTIONS (path '$d/out/win_mem');
CREATE TABLE o_win_rdb (ws TIMESTAMP, k STRING, n BIGINT, s BIGINT, lo INT, hi INT) USING json OPTIONS (path '$d/out/win_rdb');
CREATE TABLE o_sess_rdb (k STRING, ss TIMESTAMP, se TIMESTAMP, n BIGINT, s BIGINT) USING json OPTIONS (path '$d/out/sess_rdb');
CREATE TABLE o_join_full (ad STRING, it TIMESTAMP, cad STRING, ct TIMESTAMP) USING json OPTIONS (path '$d/out/join_full');
CREATE TABLE o_join_left (ad STRING, it TIMESTAMP, cad STRING, ct TIMESTAMP) USING json OPTIONS (path '$d/out/join_left');
CREATE TABLE o_dedup (id INT, k STRING, v INT, ts TIMESTAMP) USING json OPTIONS (path '$d/out/dedup');
CREATE TABLE o_dedup_ww (k STRING, id INT, ts TIMESTAMP) USING json OPTIONS (path '$d/out/dedup_ww');
SQL
}

# await_all: every query caught up (a restarted daemon resumes them itself).
await_all() {
    local q
    for q in $queries; do
        sql -c "AWAIT QUERY $q TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT $q: $(sql -c 'SHOW QUERIES' 2>&1)"
    done
}

# dump D: each output, sorted, into D/dump/<query>.
dump() {
    local d=$1
    mkdir -p "$d/dump"
    sql -c "SELECT * FROM o_win_mem ORDER BY ws, k" > "$d/dump/win_mem" || fail "read win_mem"
    sql -c "SELECT * FROM o_win_rdb ORDER BY ws, k" > "$d/dump/win_rdb" || fail "read win_rdb"
    sql -c "SELECT * FROM o_sess_rdb ORDER BY k, ss" > "$d/dump/sess_rdb" || fail "read sess_rdb"
    sql -c "SELECT * FROM o_join_full ORDER BY ad NULLS LAST, it, cad, ct" > "$d/dump/join_full" || fail "read join_full"
    sql -c "SELECT * FROM o_join_left ORDER BY ad, it, cad, ct" > "$d/dump/join_left" || fail "read join_left"
    sql -c "SELECT * FROM o_dedup ORDER BY id, ts" > "$d/dump/dedup" || fail "read dedup"
    sql -c "SELECT * FROM o_dedup_ww ORDER BY ts, k" > "$d/dump/dedup_ww" || fail "read dedup_ww"
}

# kill9: kills the daemon as a power loss would.
kill9() { kill -9 "$SL_PID" 2>/dev/null; wait "$SL_PID" 2>/dev/null; SL_PID=""; }

# ---------------------------------------------------------------------------
# 1. the reference: one daemon, every round awaited, never interrupted
ref=$work/ref
mkdir -p "$ref/in/ev" "$ref/in/imp" "$ref/in/clk"
start_daemon "$ref" || fail "start the reference daemon"
create_all "$ref"
for r in $(seq 1 $rounds); do write_round "$ref" "$r"; await_all; done
write_flush "$ref"; await_all
dump "$ref"

# the reference agrees with batch queries over the same input
sql <<SQL > "$work/batch" || fail "batch queries"
CREATE TABLE ev_all (id INT, k STRING, v INT, ts TIMESTAMP) USING csv OPTIONS (path '$ref/in/ev', header 'true');
CREATE TABLE imp_all (ad STRING, it TIMESTAMP) USING csv OPTIONS (path '$ref/in/imp', header 'true');
CREATE TABLE clk_all (ad STRING, ct TIMESTAMP) USING csv OPTIONS (path '$ref/in/clk', header 'true');
SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi
  FROM ev_all WHERE k <> 'flush' GROUP BY window(ts, '5 minutes'), k ORDER BY ws, k;
SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp_all i LEFT JOIN clk_all c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes'
  WHERE i.ad <> 'flush' ORDER BY i.ad, i.it, c.ad, c.ct;
SELECT c.ad, c.ct FROM clk_all c LEFT JOIN imp_all i
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes'
  WHERE i.ad IS NULL AND c.ad <> 'flush' ORDER BY c.ad, c.ct;
SELECT count(DISTINCT id) FROM ev_all WHERE k <> 'flush';
SQL
nwin=$(( rounds * 2 ))                      # two keys per 5-minute window, one window per round
[ "$(wc -l < "$ref/dump/win_mem")" -eq $nwin ] || fail "reference win_mem has $(wc -l < "$ref/dump/win_mem") rows, want $nwin"
head -n $nwin "$work/batch" | diff -u - "$ref/dump/win_mem" || fail "reference windows differ from the batch query"
# the joins (the flush rows, which match each other, aside): the left join
# has a, b and u of every round (u and the last b unmatched); the full join
# adds every click without an impression (z of each round)
nleft=$(( rounds * 3 ))
sed -n "$(( nwin + 1 )),$(( nwin + nleft ))p" "$work/batch" > "$work/want_left"
grep -v flush "$ref/dump/join_left" | diff -u "$work/want_left" - || fail "reference left join differs from the batch join"
{ cat "$work/want_left"
  sed -n "$(( nwin + nleft + 1 )),$(( nwin + nleft + rounds ))p" "$work/batch" | sed 's/^/||/'
} | sort > "$work/want_full"
grep -v flush "$ref/dump/join_full" | sort | diff -u "$work/want_full" - || fail "reference full join differs from the batch joins"
ndistinct=$(tail -n 1 "$work/batch")
[ "$(grep -vc flush "$ref/dump/dedup")" -eq "$ndistinct" ] || fail "reference dedup has $(grep -vc flush "$ref/dump/dedup") rows, want $ndistinct"
# WITHIN WATERMARK: each key once per appearance (rounds R and R+1, then 8 rounds later)
[ "$(awk -F'|' '{print $1}' "$ref/dump/dedup_ww" | sort | uniq -d | wc -l)" -gt 0 ] \
    || fail "reference dedup_ww never emitted a key again after it expired"
# sessions: a key's rows of rounds R and R+1 are one session when its last
# row of R is at most 3 minutes before its first of R+1, else two
sql -c "SELECT k, session_window.start AS ss, session_window.end AS se, count(*) AS n, sum(v) AS s
        FROM ev_all WHERE k <> 'flush' GROUP BY k, session_window(ts, '3 minutes') ORDER BY k, ss" \
    > "$work/batch_sess" || fail "batch session query"
diff -u "$work/batch_sess" "$ref/dump/sess_rdb" || fail "reference sessions differ from the batch query"
# (a key has at most 3 rows a round: more than 3 is a session over two rounds)
nsess=$(wc -l < "$ref/dump/sess_rdb"); nspan=$(awk -F'|' '$4 > 3' "$ref/dump/sess_rdb" | wc -l)
[ "$nspan" -gt 0 ] && [ "$nspan" -lt "$nsess" ] || fail "reference sessions: $nspan of $nsess span two rounds; want some, not all"
stop_daemon || fail "stop the reference daemon"
echo "ok   reference run agrees with batch queries over the input ($nwin windows, $nsess sessions, $nleft impressions)"

# ---------------------------------------------------------------------------
# 2. the same input through crashes
run=$work/crash
mkdir -p "$run/in/ev" "$run/in/imp" "$run/in/clk"
start_daemon "$run" || fail "start the crash daemon"
create_all "$run"
r=0
# a. kill -9 between batches: after each round is processed and committed
for i in 1 2 3 4; do
    r=$((r + 1)); write_round "$run" "$r"; await_all
    kill9; start_daemon "$run" || fail "restart after kill -9 (round $r)"
done
await_all
echo "ok   kill -9 between batches ($r rounds)"
# b. a crash at a named step of the commit protocol, in whichever query gets there first
for fp in source.file.after_log sink.file.staged runner.after_offsets state.before_commit \
          state.after_commit:3 state.after_commit:9 sink.file.before_manifest sink.file.after_manifest runner.before_commit commits.before_rename; do
    stop_daemon || fail "stop before $fp"
    r=$((r + 1)); write_round "$run" "$r"
    # started by hand: the daemon may die before it answers, so start_daemon would wait in vain
    SLUICE_FAILPOINT="$fp" "$BIN/sluiced" -c port=0 -c http_port=0 -c "data_directory=$run/data" \
        >>"$run/log" 2>&1 &
    SL_PID=$!
    wait_for 60 bash -c "! kill -0 $SL_PID 2>/dev/null" || fail "failpoint $fp was never reached"
    wait "$SL_PID" 2>/dev/null; rc=$?; SL_PID=""
    [ $rc -eq 137 ] || fail "failpoint $fp: exit status $rc, want 137"
    grep -q "failpoint reached, exiting name=${fp%%:*} " "$run/log" || fail "failpoint $fp not logged"
    start_daemon "$run" || fail "restart after $fp"
    await_all
done
echo "ok   crashes at failpoints of the commit protocol and the state stores"
# c. kill -9 at random moments while a round is being processed
while [ $r -lt $rounds ]; do
    r=$((r + 1)); write_round "$run" "$r"
    sleep "0.$(( RANDOM % 400 + 1 ))"   # only picks the moment of the crash; nothing waits on it
    kill9; start_daemon "$run" || fail "restart after a random kill (round $r)"
done
await_all
write_flush "$run"; await_all
kill9; start_daemon "$run" || fail "restart after the flush"
await_all
dump "$run"
echo "ok   kill -9 at random moments"
for q in $queries; do
    diff -u "$ref/dump/$q" "$run/dump/$q" || fail "$q: output through crashes differs from the uninterrupted run"
done
diff -u "$run/dump/win_mem" "$run/dump/win_rdb" || fail "the rocksdb state store gave other windows"
echo "ok   every output identical to the uninterrupted run"

# ---------------------------------------------------------------------------
# 3. the same CHECKPOINT with a different aggregate is refused; the original runs on it again
sql -c "DROP QUERY win_mem" >/dev/null || fail "drop win_mem"
[ -d "$run/chk/win_mem/state" ] || fail "DROP QUERY removed a checkpoint it did not own"
changed="CREATE QUERY win_changed SINK file OPTIONS (path '$run/out/win_changed', format 'json')
  CHECKPOINT '$run/chk/win_mem' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s, min(v) AS lo, avg(v) AS hi
  FROM ev GROUP BY window(ts, '5 minutes'), k"
out=$(sql -v VERBOSITY=verbose -c "$changed" 2>&1) && fail "the changed query was created: $out"
case "$out" in
    *55000*"does not fit its checkpoint"*"stateful operator 0"*"checkpoint ("*"max(v)"*"query now ("*"avg(v)"*) ;;
    *) fail "unclear error for a changed aggregate: $out" ;;
esac
[ -z "$(sql -c "SHOW QUERIES" | awk -F'|' '$1 == "win_changed"')" ] || fail "a refused CREATE left win_changed"
printf 'id,k,v,ts\n10000,late_k,1,%s\n' "$(ts 35 0)" > "$run/in/ev/.more.csv"; put "$run/in/ev" more.csv
[ ! -d "$run/out/win_changed/_sluice_metadata" ] || [ -z "$(ls "$run/out/win_changed/_sluice_metadata")" ] \
    || fail "the refused query wrote output"
sql <<SQL >/dev/null || fail "create win_mem again"
CREATE QUERY win_mem SINK file OPTIONS (path '$run/out/win_mem', format 'json')
  CHECKPOINT '$run/chk/win_mem' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi
  FROM ev GROUP BY window(ts, '5 minutes'), k;
SQL
sql -c "AWAIT QUERY win_mem TIMEOUT '60 seconds'" >/dev/null || fail "the original query did not run again on its checkpoint"
got=$(sql -c "SELECT count(*), count(DISTINCT ws) FROM o_win_mem")
[ "$got" = "$(( nwin + 1 ))|$(( rounds + 1 ))" ] || fail "win_mem after its restart: $got"
echo "ok   a different aggregate on the same checkpoint is refused; the original query resumes"
stop_daemon || fail "final stop"
echo "stream restart: all checks passed"
