#!/usr/bin/env bash
# Exactly-once through crashes: a file -> filter/project -> file sink query
# is killed (kill -9) at random moments, and at every named step of the
# commit protocol (failpoints), restarted each time, and must end with
# every expected row exactly once in its output, counted through the sink's
# manifest (a table over the output directory reads only listed files).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-eo-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }

rows_per_file=40
# write_files FIRST LAST: input files FIRST..LAST, ids 1.. in order, moved in atomically.
write_files() {
    for f in $(seq "$1" "$2"); do
        for r in $(seq 1 $rows_per_file); do
            id=$(( (f - 1) * rows_per_file + r ))
            printf '{"id":%d,"v":"row%d"}\n' "$id" "$id"
        done > "$work/in/.f$f.tmp"
        mv "$work/in/.f$f.tmp" "$work/in/f$f.json"
    done
}

# expected rows for files 1..N: ids not divisible by 7
expected_rows() { local n=$(( $1 * rows_per_file )); echo $(( n - n / 7 )); }

setup_query() {
    sql <<SQL || fail "could not create the query"
CREATE STREAM s (id INT, v STRING) USING file OPTIONS (path '$work/in', format 'json', maxFilesPerTrigger '1');
CREATE QUERY q SINK file OPTIONS (path '$work/out', format 'json') AS
  SELECT id, upper(v) AS v FROM s WHERE id % 7 <> 0;
CREATE TABLE outq (id INT, v STRING) USING json OPTIONS (path '$work/out');
SQL
}

# check N: after the query caught up, the output holds exactly the rows of files 1..N.
check_output() {
    local want; want=$(expected_rows "$1")
    sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT failed after restart"
    local got; got=$(sql -c "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM outq")
    local n=$(( $1 * rows_per_file ))
    [ $(( n % 7 )) -eq 0 ] && n=$(( n - 1 ))
    [ "$got" = "$want|$want|1|$n" ] || fail "output after $1 files: got '$got', want '$want|$want|1|$n'"
    local bad; bad=$(sql -c "SELECT count(*) FROM outq WHERE id % 7 = 0 OR v <> upper('row' || CAST(id AS STRING))")
    [ "$bad" = 0 ] || fail "$bad rows are wrong"
}

mkdir -p "$work/in" "$work/out"
start_daemon "$work" || fail "daemon did not start"
setup_query
write_files 1 3
check_output 3

# 1. kill -9 at random moments, five times, while new files keep arriving
files=3
for round in 1 2 3 4 5; do
    write_files $((files + 1)) $((files + 4)); files=$((files + 4))
    # a random point in the next ~0.3 s of processing (this only picks the
    # moment of the crash; nothing waits on it)
    sleep "0.$(( RANDOM % 300 + 1 ))"
    kill -9 "$SL_PID"; wait "$SL_PID" 2>/dev/null; SL_PID=""
    start_daemon "$work" || fail "restart $round failed"
    check_output "$files"
done
echo "ok   kill -9 at random moments (5 rounds, $files files)"

# 2. a crash at each named step of the commit protocol
for fp in offsets.before_rename offsets.after_rename source.file.after_log sink.file.staged \
          runner.after_offsets sink.file.before_manifest sink.file.after_manifest runner.before_commit \
          commits.before_rename commits.after_rename; do
    stop_daemon || fail "stop before $fp"
    write_files $((files + 1)) $((files + 2)); files=$((files + 2))
    SLUICE_FAILPOINT="$fp" start_daemon "$work" >/dev/null 2>&1
    # the daemon dies at the failpoint: wait (with a deadline) for its exit
    wait_for 30 bash -c "! kill -0 $SL_PID 2>/dev/null" || fail "failpoint $fp was never reached"
    wait "$SL_PID" 2>/dev/null; rc=$?; SL_PID=""
    [ $rc -eq 137 ] || fail "failpoint $fp: exit status $rc, want 137"
    grep -q "failpoint reached, exiting name=$fp " "$work/log" || fail "failpoint $fp not logged"
    start_daemon "$work" || fail "restart after $fp failed"
    check_output "$files"
    echo "ok   crash at $fp"
done
stop_daemon || fail "final stop"
echo "exactly-once: all checks passed"
