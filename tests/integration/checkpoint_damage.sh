#!/usr/bin/env bash
# A damaged checkpoint is refused, never silently repaired: with a file
# source log (sources/0/N) or the metadata file deleted while the daemon is
# down, the restarted query is FAILED with SQLSTATE 55000 and a message
# naming the missing file, and its output gains nothing (no duplicate row).
# The documented recovery (put the file back, START QUERY) resumes it with
# the same query id and every row exactly once.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-ckdamage-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${SL_LOG:-}" ] && [ -f "$SL_LOG" ] && tail -n 30 "$SL_LOG"; exit 1; }

chk=$work/chk/q
# feed N: one file of 5 rows with ids N*10+1 .. N*10+5, moved in atomically.
feed() {
    local i
    for i in 1 2 3 4 5; do echo "$(( $1 * 10 + i )),$1"; done > "$work/in/.f$1.csv"
    mv "$work/in/.f$1.csv" "$work/in/f$1.csv"
}
# rows: "count|distinct ids" of the sink's output.
rows() { sql -c "SELECT count(*) || '|' || count(DISTINCT id) FROM out_q"; }
# field N: column N of q's SHOW QUERIES line (2 id, 3 status, 8 last error).
field() { sql -c "SHOW QUERIES" | awk -F'|' -v n="$1" '$1 == "q" { print $n }'; }
await_q() { sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT q: $(sql -c 'SHOW QUERIES' 2>&1)"; }
# refused WHAT: q is FAILED naming WHAT, AWAIT reports 55000, nothing was written.
refused() {
    wait_for 30 bash -c "psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SHOW QUERIES' | grep -q '^q|[^|]*|FAILED|'" \
        || fail "q is not FAILED after losing $1: $(field 3) $(field 8)"
    case "$(field 8)" in *"$1"*"is missing"*) ;; *) fail "q's error does not name $1: $(field 8)" ;; esac
    local out; out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY q TIMEOUT '5 seconds'" 2>&1) && fail "AWAIT q succeeded"
    case "$out" in *55000*) ;; *) fail "AWAIT q without SQLSTATE 55000: $out" ;; esac
    [ "$(rows)" = "$2" ] || fail "output after losing $1: $(rows), want $2"
}

mkdir -p "$work/in" "$work/out"
start_daemon "$work/d" || fail "start"
sql <<SQL >/dev/null || fail "create"
CREATE STREAM ev (id INT, r INT) USING file OPTIONS (path '$work/in', format 'csv');
CREATE QUERY q SINK file OPTIONS (path '$work/out', format 'json') CHECKPOINT '$chk' AS SELECT id, r FROM ev;
CREATE TABLE out_q (id INT, r INT) USING json OPTIONS (path '$work/out');
SQL
for n in 0 1 2; do feed $n; await_q; done
[ "$(rows)" = "15|15" ] || fail "three files: $(rows)"
[ -f "$chk/sources/0/1" ] || fail "no file source log sources/0/1: $(ls -R "$chk")"
id=$(field 2)
stop_daemon || fail "stop"

# 1. a deleted file source log: refused, its 5 rows are not read again
mv "$chk/sources/0/1" "$work/saved_log"
start_daemon "$work/d" || fail "restart without sources/0/1"
feed 3
refused "sources/0/1" "15|15"
echo "ok   a deleted file source log: q FAILED (55000, names sources/0/1), no row read twice"
mv "$work/saved_log" "$chk/sources/0/1"
sql -c "START QUERY q" >/dev/null || fail "START q after restoring the log"
await_q
[ "$(rows)" = "20|20" ] || fail "after restoring the log: $(rows), want 20|20"
[ "$(field 3)" = ACTIVE ] || fail "q after restoring the log: $(field 3)"
echo "ok   the log put back: START QUERY resumes, every row exactly once"
stop_daemon || fail "stop"

# 2. every log of the source gone (sources/0 removed)
mv "$chk/sources/0" "$work/saved_dir"
start_daemon "$work/d" || fail "restart without sources/0"
refused "sources/0/0" "20|20"
# (the restart may have made sources/0 again, empty)
[ ! -d "$chk/sources/0" ] || rmdir "$chk/sources/0" || fail "sources/0 was written: $(ls "$chk/sources/0")"
mv "$work/saved_dir" "$chk/sources/0"
sql -c "START QUERY q" >/dev/null || fail "START q after restoring sources/0"
await_q
[ "$(rows)" = "20|20" ] || fail "after restoring sources/0: $(rows), want 20|20"
stop_daemon || fail "stop"
echo "ok   the source's log directory deleted: refused (names sources/0/0); put back, it resumes"

# 3. a deleted metadata file: refused, the query id is kept by restoring it
mv "$chk/metadata" "$work/saved_meta"
start_daemon "$work/d" || fail "restart without metadata"
feed 4
refused "metadata" "20|20"
[ ! -f "$chk/metadata" ] || fail "a new metadata file was written: $(cat "$chk/metadata")"
echo "ok   a deleted metadata file: q FAILED (55000, names metadata), no new query id"
printf '{"id":"%s"}' "$id" > "$chk/metadata"
sql -c "START QUERY q" >/dev/null || fail "START q after rewriting metadata"
await_q
[ "$(field 2)" = "$id" ] || fail "query id after recovery: $(field 2), want $id"
[ "$(rows)" = "25|25" ] || fail "after rewriting metadata: $(rows), want 25|25"
echo "ok   metadata rewritten with the old id: START QUERY resumes with id $id"
stop_daemon || fail "stop"

# 4. the newest offsets/N damaged three ways: q FAILED with the message of
# docs/checkpoints.md, nothing written; put back, it resumes
last=$(ls "$chk/offsets" | grep -E '^[0-9]+$' | sort -n | tail -n 1)
cp "$chk/offsets/$last" "$work/saved_offsets"
damaged() { # CONTENT WANT: q fails with WANT in its error, and AWAIT's detail says so
    printf '%b' "$1" > "$chk/offsets/$last"
    start_daemon "$work/d" || fail "restart with offsets/$last damaged"
    sql -c "START QUERY q" >/dev/null 2>&1 # a query FAILED before the restart waits for START
    wait_for 30 bash -c "psql -X -q -A -t -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice -c 'SHOW QUERIES' | grep -q '^q|[^|]*|FAILED|'" \
        || fail "q is not FAILED with offsets/$last damaged ($2): $(field 3) $(field 8)"
    case "$(field 8)" in *"offsets/$last"*"$2"*) ;; *) fail "q's error for offsets/$last: $(field 8), want '$2'" ;; esac
    local out; out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY q TIMEOUT '5 seconds'" 2>&1) && fail "AWAIT q succeeded"
    case "$out" in *"DETAIL:"*"offsets/$last"*"$2"*) ;; *) fail "AWAIT q's detail lacks the cause: $out" ;; esac
    [ "$(rows)" = "25|25" ] || fail "output with offsets/$last damaged: $(rows), want 25|25"
    stop_daemon || fail "stop"
}
damaged 'v1\n{"batchWatermarkMs":0,"batchTimes' "is malformed"
damaged '\x00\x01garbage\n' "is malformed"
damaged 'v99\n{"batchWatermarkMs":0,"batchTimestampMs":0,"conf":{}}\n' "was written by a newer version of sluice"
cp "$work/saved_offsets" "$chk/offsets/$last"
start_daemon "$work/d" || fail "restart with offsets/$last restored"
sql -c "START QUERY q" >/dev/null 2>&1
feed 5
await_q
[ "$(rows)" = "30|30" ] || fail "after restoring offsets/$last: $(rows), want 30|30"
echo "ok   offsets/$last truncated, garbage, v99: q FAILED naming it (malformed / newer version); put back, it resumes"
stop_daemon || fail "final stop"
echo "checkpoint damage: all checks passed"
