#!/usr/bin/env bash
# Memory state is bounded and watched (docs/operations.md, "State memory"):
#  1. sluice.stateStore.maxMemory: a dedup whose state passes the limit goes
#     FAILED (53200 in the message's words: operator, rows, the fix) and the
#     batch that passed it is not committed; re-created on the same
#     checkpoint with a higher limit, the query re-runs that batch, once.
#  2. a dedup with no watermark whose state grows for 10 batches gets a
#     warning in progress and, once, in the log; it goes when the state
#     stops growing (the UI shows it too); a dedup whose watermark drops
#     state never gets one.
#  3. STOP QUERY gives a large state's memory back to the system (RSS).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d /tmp/sluice-statemem-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/d/log" ] && tail -n 20 "$work/d/log"; exit 1; }
ok() { echo "ok   $*"; }

# put DIR NAME FIRST LAST [MINUTE] : a CSV file of ids FIRST..LAST, key "k<id>",
# event time in minute MINUTE (default 0), moved into DIR whole.
put() {
    seq "$3" "$4" | awk -v m="${5:-0}" '{ printf "%d,k%d,2026-01-01 00:%02d:00\n", $1, $1, m }' >"$1/.$2"
    mv "$1/.$2" "$1/$2"
}
field() { sql -c "SHOW QUERIES" | awk -F'|' -v q="$1" -v n="$2" '$1 == q { print $n }'; }
is_failed() { [ "$(field "$1" 3)" = FAILED ]; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$SL_PID/status"; }
progress() { sql -c "SHOW PROGRESS $1"; }

mkdir -p "$work/lim" "$work/grow" "$work/wm" "$work/big"
start_daemon "$work/d" || fail "start"
sql <<SQL >/dev/null || fail "create streams"
CREATE STREAM lim (id BIGINT, k TEXT, ts TIMESTAMP) USING file OPTIONS (path '$work/lim', format 'csv');
CREATE STREAM grow (id BIGINT, k TEXT, ts TIMESTAMP) USING file
  OPTIONS (path '$work/grow', format 'csv', maxFilesPerTrigger '1');
CREATE STREAM wm (id BIGINT, k TEXT, ts TIMESTAMP) USING file
  OPTIONS (path '$work/wm', format 'csv', maxFilesPerTrigger '1') WATERMARK ts DELAY OF INTERVAL '1 minute';
CREATE STREAM big (id BIGINT, k TEXT, ts TIMESTAMP) USING file OPTIONS (path '$work/big', format 'csv');
SQL

echo "-- 1. sluice.stateStore.maxMemory"
out=$(sql -c "CREATE QUERY bad OPTIONS ('sluice.stateStore.maxMemory' '4 parsecs') AS SELECT id FROM lim" 2>&1) \
    && fail "a bad size was accepted"
case "$out" in *"invalid value for option \"sluice.stateStore.maxMemory\""*) ;; *) fail "bad size: $out" ;; esac
create_lim() {
    sql -c "CREATE QUERY d SINK memory OUTPUT MODE append CHECKPOINT '$work/chk/d'
            OPTIONS ('sluice.stateStore.maxMemory' '$1') AS SELECT DISTINCT ON (k) id, k FROM lim" >/dev/null
}
create_lim 4m || fail "create d"
put "$work/lim" f1.csv 1 1000
sql -c "AWAIT QUERY d TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT d: $(field d 8)"
[ "$(sql -c 'SELECT count(*) FROM d')" = 1000 ] || fail "d after f1"
put "$work/lim" f2.csv 1001 101000
wait_for 60 is_failed d || fail "d is $(field d 3) past its limit"
msg=$(field d 8)
case "$msg" in *"over sluice.stateStore.maxMemory (4.0 MB): operator dedupe (id 0) holds 101000 rows in"*"give the input a watermark"*) ;;
    *) fail "d's error: $msg" ;; esac
out=$(sql -v VERBOSITY=verbose -c "AWAIT QUERY d TIMEOUT '5 seconds'" 2>&1) && fail "AWAIT d succeeded"
case "$out" in *53200*"over sluice.stateStore.maxMemory"*) ;; *) fail "AWAIT d: $out" ;; esac
grep -q 'query=d failed: the state of query "d" needs' "$work/d/log" || fail "the log lacks d's error"
[ "$(sql -c 'SELECT count(*) FROM d')" = 1000 ] || fail "the batch past the limit reached the sink"
sql -c "DROP QUERY d" >/dev/null || fail "drop d"
create_lim 1g || fail "re-create d"
sql -c "AWAIT QUERY d TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT re-created d: $(field d 8)"
[ "$(sql -c 'SELECT count(*), count(DISTINCT k), min(id), max(id) FROM d')" = "100000|100000|1001|101000" ] \
    || fail "re-created d: $(sql -c 'SELECT count(*), count(DISTINCT k), min(id), max(id) FROM d')"
ok "past 4m: FAILED naming dedupe and 101000 rows, batch not committed; with 1g the batch ran once"

echo "-- 2. growth with no watermark"
sql <<SQL >/dev/null || fail "create g, w"
CREATE QUERY g SINK noop OUTPUT MODE append AS SELECT DISTINCT ON (k) id, k FROM grow;
CREATE QUERY w SINK noop OUTPUT MODE append AS SELECT DISTINCT ON (k, ts) id, k, ts FROM wm;
SQL
for i in $(seq 1 12); do
    put "$work/grow" "f$(printf %02d "$i").csv" $((i * 100)) $((i * 100 + 99))
    put "$work/wm" "f$(printf %02d "$i").csv" $((i * 100)) $((i * 100 + 99)) $((i * 2))
done
sql -c "AWAIT QUERY g TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT g"
sql -c "AWAIT QUERY w TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT w"
case "$(progress g)" in *'"warnings":["the state of operator dedupe (id 0) has grown in each of the last 1'*' batches with no watermark to drop it: 1200 rows'*) ;;
    *) fail "g's progress lacks the warning: $(progress g)" ;; esac
case "$(progress w)" in *warnings*) fail "w (watermarked) was warned: $(progress w)" ;; esac
[ "$(grep -c 'query=g operator=dedupe id=0 state keeps growing with no watermark' "$work/d/log")" = 1 ] \
    || fail "the log should warn about g once: $(grep -c 'keeps growing' "$work/d/log")"
grep -q 'query=w .*keeps growing' "$work/d/log" && fail "w was warned in the log"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/chromium" \
    --virtual-time-budget=5000 --dump-dom "http://127.0.0.1:$SL_HTTP_PORT/#query=g" >"$work/dom.html" \
    2>"$work/chromium.log" || fail "chromium: $(tail -3 "$work/chromium.log")"
grep -q '<ul class="warnings" id="d-warnings"><li>the state of operator dedupe (id 0) has grown' "$work/dom.html" \
    || fail "the UI does not show g's warning: $(grep -o '<ul class="warnings"[^>]*>.\{0,80\}' "$work/dom.html")"
put "$work/grow" f13.csv 100 199 # keys seen already: the state does not grow
sql -c "AWAIT QUERY g TIMEOUT '60 seconds'" >/dev/null || fail "AWAIT g after f13"
case "$(progress g)" in *warnings*) fail "the warning stayed after the state stopped growing" ;; esac
ok "g warned in progress and once in the log; gone when the state stopped growing; w never warned"

echo "-- 3. STOP QUERY returns the state's memory"
before=$(rss_kb)
put "$work/big" f1.csv 1 1000000
sql -c "CREATE QUERY b SINK noop OUTPUT MODE append AS SELECT DISTINCT ON (k) id, k FROM big" >/dev/null || fail "create b"
sql -c "AWAIT QUERY b TIMEOUT '120 seconds'" >/dev/null || fail "AWAIT b"
held=$(rss_kb)
grown=$((held - before))
[ "$grown" -gt 50000 ] || fail "1 M keys of state grew RSS by only $grown kB"
sql -c "STOP QUERY b" >/dev/null || fail "stop b"
after=$(rss_kb)
[ $((held - after)) -ge $((grown * 7 / 10)) ] \
    || fail "STOP QUERY gave back $((held - after)) of $grown kB (RSS $before -> $held -> $after kB)"
ok "RSS $before -> $held -> $after kB: $(( (held - after) * 100 / grown ))% of the state's growth returned"

stop_daemon || fail "stop"
echo "state memory: all checks passed"
