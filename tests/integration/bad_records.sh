#!/usr/bin/env bash
# badRecordsPath stays within its bound: a file stream with many malformed
# lines (badRecordsMaxBytes '4k', badRecordsMaxFiles '3') leaves exactly
# q-source0.json and .1 .. .3, none over 4 KiB, holding the newest bad
# records in order (the oldest deleted; their number checked against an
# independent simulation of the rule), with the figures in SHOW PROGRESS;
# across daemon restarts the current file's size is read back (a full file
# rotates at the next record, one with room is appended to) and the bound
# holds; bad option values are refused at CREATE STREAM with 22023; a
# rotation that fails (a directory where the oldest file goes) fails the
# query with the cause, and START QUERY once it is gone writes the record.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-badrec-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${SL_LOG:-}" ] && [ -f "$SL_LOG" ] && tail -n 30 "$SL_LOG"; exit 1; }
status() { sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" '$1 == q { print $3 }'; }

bad=$work/bad
base=$bad/q-source0.json
export LC_ALL=C
mkdir -p "$work/in"
: > "$work/expected"   # every bad record in the order written: path, line, record (tab-separated)

# put_file N: file fN.json of 40 good and 200 bad lines, moved in atomically
# (maxFilesPerTrigger 1: one file per batch, so records are written in order)
put_file() {
    local n=$1 j
    for j in $(seq 1 240); do
        if [ $((j % 6)) -eq 0 ]; then echo "{\"v\":$j}"
        else echo "{bad f$n l$j"; printf '%s\t%s\t%s\n' "$work/in/f$n.json" "$j" "{bad f$n l$j" >> "$work/expected"; fi
    done > "$work/in/.f$n.json"
    mv "$work/in/.f$n.json" "$work/in/f$n.json"
}

# put_one NAME RECORD: a file of one bad line.
put_one() {
    printf '%s\n' "$2" > "$work/in/.$1.json"; mv "$work/in/.$1.json" "$work/in/$1.json"
    printf '%s\t1\t%s\n' "$work/in/$1.json" "$2" >> "$work/expected"
}

# restart: SIGTERM, start again, q resumed.
restart() {
    stop_daemon || fail "stop"
    start_daemon "$work" || fail "restart"
    wait_for 20 bash -c "$(declare -f sql status); SL_PORT=$SL_PORT; [ \"\$(status q)\" = ACTIVE ]" || fail "q not resumed"
}

# The length of a bad-record line {"path":..,"line":..,"record":..,"reason":..}\n
# (awk); every reason is the one of the current file's first line (check_bound
# checks they are all the same).
line_len='function line_len(p, l, r) { return length("{\"path\":\"" p "\",\"line\":" l ",\"record\":\"" r "\",\"reason\":\"" reason "\"}") + 1 }'
reason() { head -n 1 "$base" | sed 's/.*"reason":"\(.*\)"}$/\1/'; }

# len_of PATH LINE RECORD: the length of that record's line.
len_of() { awk -v reason="$(reason)" -v p="$1" -v l="$2" -v r="$3" "$line_len"' BEGIN { print line_len(p, l, r) }'; }

# simulate: the rotation rule applied to every expected record (4096 bytes
# a file, 4 files kept) from an empty file: prints the rotations, the bytes
# written and how many records the 4 newest files hold.
simulate() {
    awk -F'\t' -v reason="$(reason)" "$line_len"'
        { len = line_len($1, $2, $3)
          if (size > 0 && size + len > 4096) { nfile++; size = 0 }
          size += len; written += len; count[nfile]++ }
        END { for (i = nfile; i >= 0 && i > nfile - 4; i--) kept += count[i]; print nfile + 0, written, kept }' \
        "$work/expected"
}

# check_bound: exactly the current file and .1 .. .3, each at most 4096
# bytes, holding the newest records in order, as many as the simulation says.
check_bound() {
    local names; names=$(cd "$bad" && ls | tr '\n' ' ')
    [ "$names" = "q-source0.json q-source0.json.1 q-source0.json.2 q-source0.json.3 " ] \
        || fail "bad records files: $names"
    local f
    for f in "$base.3" "$base.2" "$base.1" "$base"; do
        [ "$(stat -c %s "$f")" -le 4096 ] || fail "$f is $(stat -c %s "$f") bytes"
    done
    cat "$base.3" "$base.2" "$base.1" "$base" > "$work/kept.json"
    [ "$(sed 's/.*"reason"://' "$work/kept.json" | sort -u | wc -l)" = 1 ] || fail "reasons differ"
    sed -n 's/.*"record":"\([^"]*\)".*/\1/p' "$work/kept.json" > "$work/kept"
    local kept; kept=$(wc -l < "$work/kept")
    [ "$(wc -l < "$work/kept.json")" = "$kept" ] || fail "lines without a record"
    [ "$kept" = "$(simulate | cut -d' ' -f3)" ] || fail "$kept records kept, expected $(simulate)"
    tail -n "$kept" "$work/expected" | cut -f3 | cmp -s - "$work/kept" \
        || fail "the files do not hold the newest $kept records in order"
}

start_daemon "$work" || fail "start"

# bad option values: 22023 at CREATE STREAM
out=$(sql -v VERBOSITY=verbose -c "CREATE STREAM s0 (v INT) USING file OPTIONS (path '$work/in', badRecordsPath '$bad', badRecordsMaxBytes '0')" 2>&1)
echo "$out" | grep -q '22023.*invalid value "0" for option "badRecordsMaxBytes"' || fail "MaxBytes 0: $out"
out=$(sql -v VERBOSITY=verbose -c "CREATE STREAM s0 (v INT) USING file OPTIONS (path '$work/in', badRecordsPath '$bad', badRecordsMaxFiles '1001')" 2>&1)
echo "$out" | grep -q '22023.*invalid value "1001" for option "badRecordsMaxFiles"' || fail "MaxFiles 1001: $out"
echo "ok   bad option values refused with 22023"

sql -c "CREATE STREAM s (v INT) USING file OPTIONS (path '$work/in', format 'json', maxFilesPerTrigger '1', mode 'DROPMALFORMED', badRecordsPath '$bad', badRecordsMaxBytes '4k', badRecordsMaxFiles '3')" >/dev/null || fail "stream"
for n in 1 2 3 4 5; do put_file $n; done
sql -c "CREATE QUERY q AS SELECT v FROM s" >/dev/null || fail "create q"
sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "await q"
[ "$(sql -c 'SELECT count(*) FROM q')" = 200 ] || fail "q has $(sql -c 'SELECT count(*) FROM q') rows"
check_bound
progress=$(sql -c "SHOW PROGRESS q")
read -r rotations written kept <<<"$(simulate)"
echo "$progress" | grep -q "\"numMalformedRecords\":\"1000\",\"badRecordsBytesWritten\":\"$written\",\"badRecordsFilesRotated\":\"$rotations\"" \
    || fail "progress (expected $written bytes, $rotations rotations): $progress"
[ "$rotations" -ge 20 ] || fail "only $rotations rotations"
echo "ok   1000 bad records ($written bytes): $rotations rotations, 4 files of at most 4 KiB ($(cat "$base"* | wc -c) bytes) with the newest $kept"

# a restart reads the current file's size back. One-line files until the
# next record no longer fits, a restart, that record: the file rotates.
# Then a restart with room, one record: it is appended.
len=$(len_of "$work/in/r1.json" 1 "{bad after restart")
k=0
while [ $(( $(stat -c %s "$base") + len )) -le 4096 ]; do
    k=$((k + 1)); [ $k -le 40 ] || fail "the current file never filled"
    put_one "g$k" "{bad one"
    sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "await g$k"
done
size0=$(stat -c %s "$base"); head0=$(head -n 1 "$base")
restart
put_one r1 "{bad after restart"
sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "await after restart"
[ "$(head -n 1 "$base.1")" = "$head0" ] && [ "$(stat -c %s "$base.1")" = "$size0" ] || fail "the full file was not rotated after the restart"
[ "$(stat -c %s "$base")" = "$len" ] && grep -q '"record":"{bad after restart"' "$base" || fail "the record after the restart"
sql -c "SHOW PROGRESS q" | grep -q "\"badRecordsBytesWritten\":\"$len\",\"badRecordsFilesRotated\":\"1\"" \
    || fail "figures after the restart: $(sql -c 'SHOW PROGRESS q')"
restart
put_one r2 "{bad after restart"
sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "await after the second restart"
[ "$(stat -c %s "$base")" = $(( 2 * len )) ] && [ "$(head -n 1 "$base.1")" = "$head0" ] \
    || fail "the record after the second restart was not appended"
for n in 7 8; do put_file $n; done
sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "await after restart"
check_bound
echo "ok   restarts: a ${size0}-byte file rotated at the next record, a ${len}-byte one appended to; the bound kept ($(cat "$base"* | wc -c) bytes)"

# a rotation that cannot delete the oldest file fails the query with the cause
rm "$base.3" && mkdir "$base.3"
put_file 9
sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null 2>&1
wait_for 20 bash -c "$(declare -f sql status); SL_PORT=$SL_PORT; [ \"\$(status q)\" = FAILED ]" || fail "q did not fail"
sql -c "SHOW QUERIES" | grep "^q|" | grep -q "could not rotate bad records file \"$base.3\": Is a directory" \
    || fail "cause: $(sql -c 'SHOW QUERIES' | grep '^q|')"
[ "$(sql -c 'SELECT 1')" = 1 ] || fail "the daemon does not answer"
rmdir "$base.3"
sql -c "START QUERY q" >/dev/null && sql -c "AWAIT QUERY q TIMEOUT '60 seconds'" >/dev/null || fail "START after the cause is gone"
[ "$(status q)" = ACTIVE ] || fail "q is $(status q)"
[ "$(tail -n 1 "$base" | sed -n 's/.*"record":"\([^"]*\)".*/\1/p')" = "$(tail -n 1 "$work/expected" | cut -f3)" ] \
    || fail "the last bad record is not in the current file"
echo "ok   a failed rotation fails the query with its cause; START writes the record"

stop_daemon || fail "final stop"
echo "bad records: all checks passed"
