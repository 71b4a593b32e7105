#!/usr/bin/env bash
# I/O errors, not crashes: error failpoints (SLUICE_FAILPOINT=name=eio|enospc@path)
# make one write, fsync, rename or RocksDB call of one query fail as a bad
# or full disk would. That query must go FAILED with a message naming the
# operation, the file and the cause (in SHOW QUERIES and in AWAIT QUERY's
# error), while the daemon and the other queries keep running; once the
# fault is gone (daemon restarted without the failpoint) START QUERY resumes
# it and every output holds every row exactly once, windowed counts right.
#
# Three queries read one file stream: `sl` (stateless), `wm` (1-minute
# windowed count, memory state) and `wr` (the same, RocksDB state). Each
# round feeds one file, arms one fault on one query (paths of its own
# checkpoint or output directory), and checks the above; a last phase fails
# a memory state snapshot, which only logs (the deltas hold the state).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-iofaults-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/d/log" ] && tail -n 30 "$work/d/log"; exit 1; }

# feed N: file N, 10 rows, ids N*10+1..N*10+10, keys a/b alternating, event
# times in minute 2N (so that file N+1's watermark closes file N's windows).
feed() {
    local i
    for i in $(seq 1 10); do
        printf '%d,%s,%d,2026-01-01 00:%02d:%02d\n' $(( $1 * 10 + i )) \
            "$( [ $((i % 2)) -eq 1 ] && echo a || echo b)" "$i" $(( 2 * $1 )) "$i"
    done > "$work/in/.f$1.csv"
    mv "$work/in/.f$1.csv" "$work/in/f$1.csv"
}
# field Q N: column N of query Q's SHOW QUERIES line (3 status, 8 last error).
field() { sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" -v n="$2" '$1 == q { print $n }'; }
await() { sql -c "AWAIT QUERY $1 TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT $1: $(sql -c 'SHOW QUERIES' 2>&1)"; }
is_failed() {
    psql -X -q -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c 'SHOW QUERIES' |
        grep -q "^$1|[^|]*|FAILED|"
}

mkdir -p "$work/in" "$work/out"
start_daemon "$work/d" || fail "start"
sql <<SQL >/dev/null || fail "create"
CREATE STREAM ev (id INT, k STRING, v INT, ts TIMESTAMP) USING file
  OPTIONS (path '$work/in', format 'csv') WATERMARK ts DELAY OF INTERVAL '30 seconds';
CREATE QUERY sl SINK file OPTIONS (path '$work/out/sl', format 'json')
  CHECKPOINT '$work/chk/sl' AS SELECT id, k, v FROM ev;
CREATE QUERY wm SINK file OPTIONS (path '$work/out/wm', format 'json')
  CHECKPOINT '$work/chk/wm' OPTIONS ('sluice.stateStore' 'memory') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s FROM ev GROUP BY window(ts, '1 minute'), k;
CREATE QUERY wr SINK file OPTIONS (path '$work/out/wr', format 'json')
  CHECKPOINT '$work/chk/wr' OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT window.start AS ws, k, count(*) AS n, sum(v) AS s FROM ev GROUP BY window(ts, '1 minute'), k;
CREATE TABLE o_sl (id INT, k STRING, v INT) USING json OPTIONS (path '$work/out/sl');
CREATE TABLE o_wm (ws TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json OPTIONS (path '$work/out/wm');
CREATE TABLE o_wr (ws TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json OPTIONS (path '$work/out/wr');
SQL
feed 1
for q in sl wm wr; do await $q; done
files=1

# round VICTIM SPEC OP FILE CAUSE: feed a file, restart with failpoint SPEC;
# VICTIM goes FAILED with "could not OP ... FILE ...: CAUSE", the others
# process the file and stay ACTIVE; restart without it, START QUERY VICTIM.
round() {
    local victim=$1 spec=$2 op=$3 file=$4 cause=$5 q
    stop_daemon || fail "stop before $spec"
    files=$((files + 1)); feed $files
    SLUICE_FAILPOINT="$spec" start_daemon "$work/d" >/dev/null || fail "start with $spec"
    wait_for 30 is_failed "$victim" || fail "$spec: $victim is not FAILED: $(field "$victim" 3) $(field "$victim" 8)"
    local msg; msg=$(field "$victim" 8)
    case "$msg" in *"could not $op"*"$file"*"$cause"*) ;; *) fail "$spec: $victim's error: $msg" ;; esac
    local out; out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY $victim TIMEOUT '5 seconds'" 2>&1) && fail "$spec: AWAIT $victim succeeded"
    case "$out" in *58030*"query \"$victim\" failed"*DETAIL*"could not $op"*"$cause"*) ;; *) fail "$spec: AWAIT $victim: $out" ;; esac
    grep -q "query=$victim failed: could not $op.*$cause" "$work/d/log" || fail "$spec: the log lacks $victim's error"
    grep -q "failpoint reached, failing name=${spec%%=*} " "$work/d/log" || fail "$spec: failpoint not logged"
    for q in sl wm wr; do
        [ "$q" = "$victim" ] && continue
        await $q
        [ "$(field $q 3)" = ACTIVE ] || fail "$spec: $q is $(field $q 3): $(field $q 8)"
    done
    stop_daemon || fail "stop after $spec"
    start_daemon "$work/d" || fail "restart after $spec"
    [ "$(field "$victim" 3)" = FAILED ] || fail "$spec: $victim after the restart: $(field "$victim" 3)"
    sql -c "START QUERY $victim" >/dev/null || fail "$spec: START QUERY $victim"
    await "$victim"
    [ "$(field "$victim" 3)" = ACTIVE ] || fail "$spec: $victim after START: $(field "$victim" 3) $(field "$victim" 8)"
    local got; got=$(sql -c "SELECT count(*) || '|' || count(DISTINCT id) FROM o_sl")
    [ "$got" = "$((files * 10))|$((files * 10))" ] || fail "$spec: sl's output: $got, want $((files * 10)) rows once"
    echo "ok   $spec: $victim FAILED ($msg), the others ACTIVE; START QUERY resumes"
}

nospc="No space left on device"
eio="Input/output error"
round sl "fs.write=enospc@/chk/sl/offsets/"      "write file"  "/chk/sl/offsets/"          "$nospc"
round wm "fs.write=enospc@/chk/wm/offsets/"      "write file"  "/chk/wm/offsets/"          "$nospc"
round sl "fs.fsync=eio@/chk/sl/commits/"         "fsync file"  "/chk/sl/commits/"          "$eio"
round wr "fs.fsync=eio@/chk/wr/commits/"         "fsync file"  "/chk/wr/commits/"          "$eio"
round sl "fs.rename=eio@/out/sl/_sluice_metadata/" "rename file" "/out/sl/_sluice_metadata/" "$eio"
round wm "fs.rename=eio@/chk/wm/offsets/"        "rename file" "/chk/wm/offsets/"          "$eio"
round sl "fs.write=enospc@/out/sl/part-"         "write file"  "/out/sl/part-"             "$nospc"
round wm "fs.write=enospc@/out/wm/part-"         "write file"  "/out/wm/part-"             "$nospc"
round wr "rocksdb.write=eio@/chk/wr/"            "write RocksDB state store" "/chk/wr/"    "IO error: $eio"
round wr "rocksdb.checkpoint=enospc@/chk/wr/"     "checkpoint RocksDB state store" "/chk/wr/" "IO error: $nospc"
round wm "fs.write=enospc@/chk/wm/state/"        "write file"  "/chk/wm/state/"            "$nospc"

# a memory state snapshot is only a shortcut over the deltas: a failed one
# is logged, leaves no file behind, and the query runs on (a snapshot is
# taken every 10 versions: up to 12 more files, stopping at the first failure)
stop_daemon || fail "stop before the snapshot fault"
SLUICE_FAILPOINT="fs.write=enospc@.snapshot." start_daemon "$work/d" >/dev/null || fail "start with the snapshot fault"
for i in $(seq 1 12); do
    files=$((files + 1)); feed $files
    for q in sl wm wr; do await $q; done
    grep -q "state maintenance of operator .* failed: could not write file .*\.snapshot\..*: $nospc" "$work/d/log" && break
done
grep -q "state maintenance of operator .* failed: could not write file .*\.snapshot\..*: $nospc" "$work/d/log" \
    || fail "no failed snapshot after $files files: $(ls -R "$work/chk/wm/state" | head -20)"
[ "$(field wm 3)" = ACTIVE ] || fail "wm after a failed snapshot: $(field wm 3) $(field wm 8)"
left=$(find "$work/chk/wm/state" -name '.*.tmp' | wc -l)
[ "$left" = 0 ] || fail "a failed snapshot left $left temporary files"
stop_daemon || fail "stop after the snapshot fault"
start_daemon "$work/d" || fail "restart after the snapshot fault"
echo "ok   fs.write=enospc@.snapshot.: snapshot failure logged, no file left, wm ACTIVE"

# a last row far ahead in event time closes every window of files 1..N
# (its own window stays open)
printf '0,a,0,2026-01-01 05:00:00\n' > "$work/in/.flush.csv"
mv "$work/in/.flush.csv" "$work/in/flush.csv"
for q in sl wm wr; do await $q; done
got=$(sql -c "SELECT count(*) || '|' || count(DISTINCT id) FROM o_sl")
[ "$got" = "$((files * 10 + 1))|$((files * 10 + 1))" ] || fail "sl: $got, want $((files * 10 + 1)) rows once"
# two windows per file (a: count 5 sum 25, b: count 5 sum 30), each once
want="$((2 * files))|$((2 * files))|$((10 * files))|$((55 * files))|0"
for q in wm wr; do
    wait_for 20 bash -c "[ \"\$(psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SELECT count(*) FROM o_$q')\" -ge $((2 * files)) ]"
    got=$(sql -c "SELECT count(*) || '|' || count(DISTINCT CAST(ws AS STRING) || k) || '|' || sum(n) || '|' || sum(s)
                  || '|' || count(CASE WHEN n <> 5 OR s <> CASE k WHEN 'a' THEN 25 ELSE 30 END THEN 1 END) FROM o_$q")
    [ "$got" = "$want" ] || fail "$q's windows (count|distinct|sum n|sum s|wrong): $got, want $want"
done
echo "ok   every row exactly once after $files files: sl $((files * 10 + 1)) rows, wm and wr $((2 * files)) windows right"
stop_daemon || fail "final stop"
echo "io faults: all checks passed"
