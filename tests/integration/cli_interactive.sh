#!/usr/bin/env bash
# The sluice CLI at a terminal, driven through tmux: the banner and psql's
# prompts, \dq, a SELECT typed over several lines (continuation prompt),
# \progress, \tail showing rows that arrive while it runs and stopping on
# Ctrl-C, Ctrl-C cancelling a running AWAIT QUERY (the CLI stays alive),
# Ctrl-C abandoning a half-typed statement, \q with exit status 0 and the
# history file in $HOME. Every wait polls the pane with a deadline.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
SOCK="sluice-cli-test-$$"
TM() { tmux -L "$SOCK" "$@"; }
trap 'TM kill-server >/dev/null 2>&1; stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGPASSWORD PGSERVICE SLUICERC
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
    # a daemon that went away explains the failures that follow: show why
    if [ -n "${SL_PID:-}" ] && ! kill -0 "$SL_PID" 2>/dev/null && [ -z "${daemon_gone:-}" ]; then
        daemon_gone=1
        echo "sluiced (pid $SL_PID) is not running; the end of its log:"
        tail -n 15 "$SL_LOG" | sed 's/^/    /'
    fi
}

# The pane's text with its scrollback, wrapped lines joined.
pane() { TM capture-pane -p -J -S -2000 -t cli 2>/dev/null; }
# wait_pane SECONDS REGEX : polls the pane until a line matches.
wait_pane() {
    local deadline=$((SECONDS + $1))
    until pane | grep -Eq -- "$2"; do
        [ $SECONDS -ge $deadline ] && return 1
        sleep 0.05
    done
}
# expect SECONDS REGEX WHAT : wait_pane or record a failure with the pane.
expect() {
    wait_pane "$1" "$2" && return 0
    fail "$3: no line matching [$2]"
    pane | sed '/^$/d' | tail -n 25 | sed 's/^/    | /'
    return 1
}
# type_line TEXT : types TEXT and Enter (a trailing ';' is escaped for tmux).
type_line() {
    local s=$1
    [[ $s == *';' ]] && s="${s%;}\\;"
    TM send-keys -t cli -l -- "$s"
    TM send-keys -t cli Enter
}
# fresh : clears screen and scrollback so later waits only see new output.
fresh() {
    TM send-keys -t cli C-l
    TM clear-history -t cli
    wait_pane 10 '^sluice=[>#]' || true
    TM clear-history -t cli
}
cursor_y() { TM display-message -p -t cli '#{cursor_y}'; }
PROMPT='^sluice=[>#] ?'

start_daemon "$T/d" -c authentication=trust || exit 1
sql -q <<'EOF' || { echo "fixture setup failed"; exit 1; }
CREATE STREAM s USING rate OPTIONS (rowsPerSecond '100');
CREATE QUERY q AS SELECT value FROM s;
CREATE STREAM slow USING rate OPTIONS (rowsPerSecond '2');
CREATE QUERY trickle AS SELECT value FROM slow;
EOF
# q has committed a batch (SHOW QUERIES shows its number)
q_has_batch() { sql -c 'SHOW QUERIES' | grep -Eq '^q\|[^|]*\|ACTIVE\|[0-9]+\|'; }
wait_for 20 q_has_batch || fail "query q committed no batch"

mkdir -p "$T/home"
TM new-session -d -s cli -x 200 -y 50 \
    "env HOME='$T/home' '$BIN/sluice' -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice; echo \$? >'$T/rc'"

# ---- banner and prompt ------------------------------------------------------------------
expect 15 '^sluice \(0\.1\.0' "banner"
expect 15 '^Type "help" for help\.$' "banner help line"
expect 15 "$PROMPT" "first prompt"

# ---- \dq ----------------------------------------------------------------------------------
type_line '\dq'
expect 15 '^ +List of queries$' "\\dq title"
expect 15 '^ +Name +\| +Status +\| +Batch +\| Input rows/s \| Processed rows/s \| Watermark \| Last error *$' "\\dq header"
expect 15 '^ q +\| ACTIVE +\| +[0-9]+ \| +[0-9.]+ \| +[0-9.]+ \|' "\\dq row for q"
expect 15 '^\(2 rows\)$' "\\dq footer"

# ---- a statement over three lines -----------------------------------------------------------
fresh
type_line 'SELECT 40 + 2 AS answer,'
expect 15 '^sluice-[>#] ?$' "continuation prompt"
type_line "  'multi' AS word"
wait_pane 15 "^sluice-[>#]   'multi' AS word$" || fail "second line not shown after the continuation prompt"
type_line ';'
expect 15 '^ answer \| word *$' "multi-line SELECT header"
expect 15 '^ +42 \| multi$' "multi-line SELECT row"
expect 15 '^\(1 row\)$' "multi-line SELECT footer"

# ---- \progress ----------------------------------------------------------------------------
fresh
type_line '\progress q'
expect 15 '^Query q \(id [0-9a-f-]{36}, run [0-9a-f-]{36}\)$' "\\progress head"
expect 15 '^Batch: +[0-9]+ at [0-9-]+T' "\\progress batch"
expect 15 '^Source: +RateStreamV2\[rowsPerSecond=100' "\\progress source"
expect 15 '^Sink: +MemorySink, [0-9]+ rows written$' "\\progress sink"

# ---- \tail: new rows appear until Ctrl-C -------------------------------------------------------
fresh
type_line '\tail trickle'
expect 15 '^ value *$' "\\tail header"
rows() { pane | grep -Ec '^ +[0-9]+$'; }
wait_for 15 sh -c "[ \$(tmux -L '$SOCK' capture-pane -p -J -S -2000 -t cli | grep -Ec '^ +[0-9]+\$') -ge 2 ]" \
    || fail "\\tail showed no rows"
first=$(rows)
wait_for 15 sh -c "[ \$(tmux -L '$SOCK' capture-pane -p -J -S -2000 -t cli | grep -Ec '^ +[0-9]+\$') -gt $first ]" \
    || fail "\\tail showed no new rows after $first"
TM send-keys -t cli C-c
expect 15 '^\([0-9]+ rows?\)$' "\\tail footer after Ctrl-C"
shown=$(rows)
footer=$(pane | sed -n 's/^(\([0-9]*\) rows\{0,1\})$/\1/p' | tail -n 1)
[ "$footer" = "$shown" ] || fail "\\tail footer says $footer rows, $shown were shown"
[ "$(pane | grep -E '^ +[0-9]+$' | sort -u | wc -l)" -eq "$shown" ] || fail "\\tail printed a row twice"
expect 15 "$PROMPT\$" "prompt after \\tail"

# ---- Ctrl-C cancels a running AWAIT QUERY ---------------------------------------------------------
# A file source with one row and a 120-second pg_sleep per row: the batch
# that reads it outlasts the test however slowly the machine types (an
# 8-second one could end before AWAIT was typed under load, and AWAIT then
# returned at once); AWAIT QUERY waits for it, and stopping the daemon
# cancels the sleep.
mkdir -p "$T/in"
echo '{"a": 1}' >"$T/in/one.json"
sql -q -c "CREATE STREAM files (a INT) USING file OPTIONS (path '$T/in', format 'json')" \
    -c "CREATE QUERY sleepy AS SELECT a, pg_sleep(120) AS z FROM files" || fail "sleepy query setup"
fresh
y0=$(cursor_y)
type_line "AWAIT QUERY sleepy TIMEOUT '60 seconds';"
wait_for 10 sh -c "[ \$(tmux -L '$SOCK' display-message -p -t cli '#{cursor_y}') -gt $y0 ]" \
    || fail "AWAIT line was not submitted"
start=$SECONDS
deadline=$((SECONDS + 6))
TM send-keys -t cli C-c
until wait_pane 1 '^(\^C)?Cancel request sent$'; do
    [ $SECONDS -ge $deadline ] && break
    TM send-keys -t cli C-c # the first one may have come before the statement left
done
expect 2 '^(\^C)?Cancel request sent$' "cancel request on Ctrl-C"
expect 10 '^ERROR:  canceling statement due to user request$' "AWAIT cancelled"
[ $((SECONDS - start)) -lt 7 ] || fail "cancel took $((SECONDS - start)) s"
pane | grep -Eq '^AWAIT QUERY$' && fail "AWAIT completed instead of being cancelled"
expect 10 "$PROMPT\$" "prompt after the cancel"
type_line "SELECT 'still alive' AS status;"
expect 15 '^ still alive$' "CLI alive after the cancel"

# ---- Ctrl-C drops a half-typed statement ------------------------------------------------------
fresh
TM send-keys -t cli -l -- "SELECT 'never sent"
wait_pane 10 "SELECT 'never sent$" || fail "partial line not shown"
TM send-keys -t cli C-c
type_line "SELECT 'fresh start' AS f;"
expect 15 '^ fresh start$' "statement after Ctrl-C at the prompt"
pane | grep -q 'never sent.*fresh start\|syntax error' && fail "the abandoned text reached the server"

# ---- \q: exit 0 and the history ------------------------------------------------------------------
type_line '\q'
wait_for 15 test -s "$T/rc" || fail "sluice did not exit after \\q"
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || fail "exit status after \\q: $(cat "$T/rc" 2>/dev/null)"
hist="$T/home/.sluice_history"
if [ -f "$hist" ]; then
    grep -q 'dq' "$hist" || fail "history lacks \\dq"
    grep -q 'answer,\\012' "$hist" || fail "history lacks the multi-line SELECT as one entry"
    grep -q 'never' "$hist" && fail "history kept the abandoned line"
else
    fail "no history file at $hist"
fi

stop_daemon || fail "daemon did not stop cleanly"
if [ $fails -eq 0 ]; then echo "cli_interactive: ok"; else echo "cli_interactive: $fails failure(s)"; fi
[ $fails -eq 0 ]
