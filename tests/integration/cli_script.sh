#!/usr/bin/env bash
# The sluice CLI in scripts (-c, -f, stdin): output identical to psql's for
# the same statements in every output mode, psql's exit statuses (1 for a
# failed -c, 3 for -f under ON_ERROR_STOP, 2 without a connection), -A -t,
# \i and \ir, variables, the streaming commands in script form (\dq, \d,
# \progress, \watch c=N, \tail until SIGINT), libpq's environment, passwords
# from PGPASSWORD and ~/.pgpass, and no history file when not interactive.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
export HOME=$T/home
mkdir -p "$HOME"
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGPASSWORD PGSERVICE PGSSLMODE PSQLRC SLUICERC
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
# check NAME EXPECTED ACTUAL
check() { [ "$2" = "$3" ] || fail "$1: expected [$2], got [$3]"; }
# contains NAME FILE TEXT
contains() { grep -qF -- "$3" "$2" || { fail "$1: no [$3] in $2:"; sed 's/^/    /' "$2"; }; }
lacks() { ! grep -qF -- "$3" "$2" || fail "$1: unexpected [$3] in $2"; }

start_daemon "$T/d1" -c authentication=trust || exit 1
CONN=(-h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice)
S() { "$BIN/sluice" -X "${CONN[@]}" "$@"; }
P() { psql -X "${CONN[@]}" "$@"; }

# ---- fixtures: a deterministic table, a stream and a memory-sink query -----------------
P -q -v ON_ERROR_STOP=1 >/dev/null <<'EOF' || { echo "fixture setup failed"; exit 1; }
CREATE TABLE people (id INT, name STRING, score DOUBLE, born DATE, big BIGINT, price DECIMAL(10,2));
INSERT INTO people VALUES (1, 'Ada', 9.5, DATE '1815-12-10', 10000000000, 12.50),
  (2, 'Bob
Smith', NULL, NULL, -3, 0.99), (3, 'Zoë 日本', 7.25, DATE '2000-01-01', 0, NULL),
  (4, E'tab\there', 0.5, NULL, 42, 1.00);
CREATE STREAM s USING rate OPTIONS (rowsPerSecond '100');
CREATE QUERY q AS SELECT value FROM s;
EOF
wait_for 20 sh -c "[ \"\$(psql -X -q -A -t ${CONN[*]} -c 'SELECT count(*) > 0 FROM q')\" = t ]" \
    || fail "query q produced no rows"

# ---- SHOW QUERIES: aligned table with header and footer -------------------------------
S -c 'SHOW QUERIES' >"$T/out" 2>"$T/err"; check "SHOW QUERIES status" 0 $?
head -n 1 "$T/out" | grep -Eq '^ name \| +id +\| status \| batch \| input_rows_per_second \| processed_rows_per_second \| watermark \| last_error $' \
    || fail "SHOW QUERIES header: $(head -n 1 "$T/out")"
sed -n 2p "$T/out" | grep -Eq '^-+(\+-+){7}$' || fail "SHOW QUERIES rule: $(sed -n 2p "$T/out")"
grep -Eq '^ q +\| [0-9a-f-]{36} \| ACTIVE \| +[0-9]+ \|' "$T/out" || fail "SHOW QUERIES row"
check "SHOW QUERIES footer" "(1 row)" "$(tail -n 2 "$T/out" | head -n 1)"
check "SHOW QUERIES blank last line" "" "$(tail -n 1 "$T/out")"

# ---- a failing -c exits 1 with psql's error layout -------------------------------------
S -c 'SELEC 1' >"$T/out" 2>"$T/err"; check "failing -c status" 1 $?
check "failing -c stderr" $'ERROR:  syntax error at or near "SELEC"\nLINE 1: SELEC 1\n        ^' "$(cat "$T/err")"
check "failing -c stdout" "" "$(cat "$T/out")"
S -c 'SELECT 1' -c 'SELEC' -c 'SELECT 2' >"$T/out" 2>&1; check "-c list: last one decides" 0 $?
S -v ON_ERROR_STOP=1 -c 'SELECT 1' -c 'SELEC' -c 'SELECT 2 AS never' >"$T/out" 2>&1
check "-c list with ON_ERROR_STOP" 1 $?
lacks "-c list stops" "$T/out" "never"
S -c '\nosuch' >"$T/out" 2>"$T/err"; check "unknown backslash command status" 1 $?
check "unknown backslash command message" 'invalid command \nosuch' "$(cat "$T/err")"

# ---- -f with and without ON_ERROR_STOP -----------------------------------------------
cat >"$T/errs.sql" <<'EOF'
SELECT 'before' AS a;
SELECT *
  FROM nosuch;
SELECT 'after' AS a;
EOF
S -f "$T/errs.sql" >"$T/out" 2>"$T/err"; check "-f without ON_ERROR_STOP" 0 $?
contains "-f continues" "$T/out" "after"
contains "-f error locus" "$T/err" "sluice:$T/errs.sql:3: ERROR:  relation \"nosuch\" does not exist"
contains "-f error LINE 2" "$T/err" "LINE 2:   FROM nosuch;"
S -v ON_ERROR_STOP=1 -f "$T/errs.sql" >"$T/out" 2>"$T/err"; check "-f with ON_ERROR_STOP" 3 $?
contains "-f ran the first statement" "$T/out" "before"
lacks "-f stopped at the first error" "$T/out" "after"
S -f "$T/missing.sql" >"$T/out" 2>"$T/err"; check "-f missing file" 1 $?
check "-f missing file message" "sluice: error: $T/missing.sql: No such file or directory" "$(cat "$T/err")"
printf 'SELECT 1 AS one;\nSELEC;\nSELECT 2 AS two;\n' | S -v ON_ERROR_STOP=1 >"$T/out" 2>"$T/err"
check "stdin with ON_ERROR_STOP" 3 $?
lacks "stdin stopped" "$T/out" "two"
check "stdin error is terse" 'ERROR:  syntax error at or near "SELEC"' "$(head -n 1 "$T/err")"

# ---- -A -t and the other flags -------------------------------------------------------
check "-A -t" "1|x" "$(S -A -t -c "SELECT 1 AS a, 'x' AS b")"
check "-A" $'a|b\n1|x\n(1 row)' "$(S -A -c "SELECT 1 AS a, 'x' AS b")"
check "-A -F" "1,x" "$(S -A -t -F , -c "SELECT 1 AS a, 'x' AS b")"
S -t -c "SELECT 1 AS a, 'x' AS b" >"$T/out"
check "-t aligned (row, then a blank line)" $' 1 | x$\n$' "$(cat -A "$T/out")"
check "-q hides command tags" "" "$(S -q -c 'DROP QUERY IF EXISTS nothing_here' 2>/dev/null)"
check "command tag" "DROP QUERY" "$(S -c 'DROP QUERY IF EXISTS nothing_here' 2>/dev/null)"
check "NOTICE on stderr" 'NOTICE:  query "nothing_here" does not exist, skipping' \
    "$(S -c 'DROP QUERY IF EXISTS nothing_here' 2>&1 >/dev/null)"
check "-v interpolation" "7|it's" "$(S -A -t -v n=7 -v s="it's" -f - <<<'SELECT :n AS n, :'"'"'s'"'"' AS s;')"
check "-o file" "" "$(S -o "$T/o.txt" -A -t -c 'SELECT 5')"
check "-o file contents" "5" "$(cat "$T/o.txt")"
check "-x" $'-[ RECORD 1 ]\na | 1\nb | x' "$(S -x -c "SELECT 1 AS a, 'x' AS b")"

# ---- \i, \ir and variables -----------------------------------------------------------
mkdir -p "$T/sub"
printf "SELECT 'inner' AS w;\n\\\\ir leaf.sql\n" >"$T/sub/inner.sql"
printf "SELECT 'leaf' AS w;\n" >"$T/sub/leaf.sql"
printf "\\\\set who world\n\\\\echo hello :who\n\\\\i %s\nSELECT 'outer' AS w;\n" "$T/sub/inner.sql" >"$T/outer.sql"
check "\\i and \\ir" $'hello world\ninner\nleaf\nouter' "$(S -A -t -f "$T/outer.sql")"
printf "\\\\i %s/nope.sql\nSELECT 'after' AS w;\n" "$T" >"$T/bad_include.sql"
S -v ON_ERROR_STOP=1 -A -t -f "$T/bad_include.sql" >"$T/out" 2>"$T/err"
check "\\i of a missing file stops the script" 3 $?
contains "\\i missing message" "$T/err" "sluice:$T/bad_include.sql:1: error: $T/nope.sql: No such file or directory"

# ---- output equal to psql's -------------------------------------------------------------
cat >"$T/compare.sql" <<'EOF'
SELECT * FROM people ORDER BY id;
SELECT id, name FROM people WHERE id > 100;
SELECT count(*) AS n, sum(score) AS total, min(name) AS first FROM people;
SELECT 1 AS a, 'abc' AS "Mixed Case", 2.5 AS d, NULL AS n, true AS b;
SELECT 'x;y' AS "semi;colon", $$dollar ; quoted$$ AS d; -- comment ; here
SELECT 'multi
line' AS "two
lines", 12345 AS n;
SHOW STREAMS;
SHOW TABLES;
DESCRIBE people;
DESCRIBE s;
SELECT count(*) AS negative FROM q WHERE value < 0;
/* a block comment; with a semicolon */ SELECT 'after comment' AS c;
SELECT 1; SELECT 2 AS second;
SELEC 'syntax';
SELECT *
  FROM missing_relation;
DROP QUERY IF EXISTS nothing_here;
\pset null '(null)'
SELECT name, score FROM people ORDER BY id;
\x
SELECT * FROM people ORDER BY id;
SELECT 1 AS one WHERE false;
\x off
SELECT 2 AS b, 'gx' AS how \gx
\g |cat -n
\conninfo
\echo done :DBNAME
EOF
for mode in "" "-A" "-t" "-A -t" "-x" "-x -A" "-q" "-t -x" "--csv" "-A -F ;"; do
    # shellcheck disable=SC2086
    P $mode -f "$T/compare.sql" >"$T/psql.out" 2>&1; echo "exit $?" >>"$T/psql.out"
    # shellcheck disable=SC2086
    S $mode -f "$T/compare.sql" >"$T/sluice.out" 2>&1; echo "exit $?" >>"$T/sluice.out"
    sed -i 's/^psql:/sluice:/' "$T/psql.out"
    diff -u "$T/psql.out" "$T/sluice.out" >"$T/diff" || { fail "differs from psql with [$mode]"; cat "$T/diff"; }
done
for q in "SELECT * FROM people ORDER BY id" "SHOW STREAMS" "SELEC 1"; do
    P -c "$q" >"$T/psql.out" 2>&1; echo "exit $?" >>"$T/psql.out"
    S -c "$q" >"$T/sluice.out" 2>&1; echo "exit $?" >>"$T/sluice.out"
    diff -u "$T/psql.out" "$T/sluice.out" >"$T/diff" || { fail "-c '$q' differs from psql"; cat "$T/diff"; }
done

# ---- \o, \timing, \? ---------------------------------------------------------------------
printf "\\o %s\nSELECT 'to file' AS w;\n\\o\nSELECT 'to stdout' AS w;\n" "$T/o2.txt" >"$T/o.sql"
check "\o stdout part" "to stdout" "$(S -A -t -f "$T/o.sql")"
check "\o file part" "to file" "$(cat "$T/o2.txt")"
S -c '\timing on' -c 'SELECT 1 AS t' >"$T/out" 2>&1
contains "\timing message" "$T/out" "Timing is on."
grep -Eq '^Time: [0-9]+\.[0-9]{3} ms$' "$T/out" || fail "\timing line: $(cat "$T/out")"
S -c '\?' >"$T/out" 2>&1
for cmd in '\q' '\?' '\g' '\watch' '\echo' '\i FILE' '\o' '\dq' '\ds' '\dt' '\d[+] [NAME]' \
    '\progress QUERY' '\tail QUERY' '\x' '\timing' '\conninfo' '\set' '\unset' '\pset'; do
    grep -qF -- "  $cmd" "$T/out" || fail "\\? does not list $cmd"
done

# ---- streaming commands in scripts -----------------------------------------------------
S -c '\dq' >"$T/out" 2>&1; check "\\dq status" 0 $?
contains "\\dq title" "$T/out" "List of queries"
grep -Eq '^ Name \| Status \| Batch \| Input rows/s \| Processed rows/s \| Watermark \| Last error $' "$T/out" \
    || fail "\\dq header: $(sed -n 2p "$T/out")"
grep -Eq '^ q +\| ACTIVE \| +[0-9]+ \| +[0-9.]+ \| +[0-9.]+ \|' "$T/out" || fail "\\dq row"
S -c '\dq nomatch*' >"$T/out" 2>&1
check "\\dq pattern without match" 'Did not find any query named "nomatch*".' "$(cat "$T/out")"
S -c '\d s' >"$T/out" 2>&1
contains "\\d title" "$T/out" 'Stream "s"'
contains "\\d columns" "$T/out" " value     | BIGINT"
contains "\\d options" "$T/out" "rowsPerSecond = 100"
S -c '\d nosuch' >"$T/out" 2>&1; check "\\d missing status" 1 $?
check "\\d missing message" 'Did not find any relation named "nosuch".' "$(cat "$T/out")"
S -c '\progress q' >"$T/out" 2>&1; check "\\progress status" 0 $?
grep -Eq '^Query q \(id [0-9a-f-]{36}, run [0-9a-f-]{36}\)$' "$T/out" || fail "\\progress head: $(head -n 1 "$T/out")"
grep -Eq '^Batch: +[0-9]+ at [0-9]{4}-[0-9]{2}-[0-9]{2}T' "$T/out" || fail "\\progress batch line"
grep -Eq '^Input: +[0-9]+ rows, [0-9.]+ rows/s in, [0-9.]+ rows/s processed$' "$T/out" || fail "\\progress input line"
# the last progress may be an idle trigger (no new rows yet: only latestOffset ran)
phase=walCommit; grep -Eq '^Input: +0 rows' "$T/out" && phase=latestOffset
grep -Eq "^Duration: +[0-9]+ ms \\(.*$phase [0-9]+" "$T/out" || fail "\\progress durations: $(grep Duration "$T/out")"
contains "\\progress source" "$T/out" "Source:      RateStreamV2[rowsPerSecond=100"
# batch 0 starts from no offset (Spark's startOffset null); every later batch from a number
start='[0-9]+'; grep -Eq '^Batch: +0 at ' "$T/out" && start=null
grep -Eq "^ +offsets $start -> [0-9]+ \\(latest [0-9]+\\)" "$T/out" || fail "\\progress offsets: $(grep offsets "$T/out")"
grep -Eq '^Sink: +MemorySink, [0-9]+ rows written$' "$T/out" || fail "\\progress sink"
# a stateful query with a watermark: state operator and watermark lines
P -q -c "CREATE QUERY w AS SELECT window.start AS ws, count(*) AS c FROM s WATERMARK timestamp DELAY OF INTERVAL '1 second' GROUP BY window(timestamp, '1 second')" \
    || fail "windowed query"
wait_for 20 sh -c "psql -X -A -t ${CONN[*]} -c 'SHOW PROGRESS w' | grep -q '\"watermark\":\"2'" \
    || fail "query w reported no watermark"
S -c '\progress w' >"$T/out" 2>&1; check "\\progress w status" 0 $?
grep -Eq '^Watermark: +[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$' "$T/out" || fail "\\progress watermark: $(cat "$T/out")"
grep -Eq '^State: +stateStoreSave: [0-9]+ rows \([0-9]+ updated, [0-9]+ removed, [0-9]+ dropped by watermark\), [0-9]+ (bytes|kB|MB) memory, [0-9]+ store instances$' "$T/out" \
    || fail "\\progress state line: $(cat "$T/out")"
printf 'SELECT 42 AS answer \\watch 0.1 c=3\n' >"$T/watch.sql"
S -f "$T/watch.sql" >"$T/out" 2>&1; check "\\watch c=3 status" 0 $?
check "\\watch ran three times" 3 "$(grep -c '(every 0.1s)' "$T/out")"
check "\\watch results" 3 "$(grep -c '^     42$' "$T/out")"
# \tail until SIGINT: rows printed under one header, the footer counts them
timeout --preserve-status -s INT 3 "$BIN/sluice" -X "${CONN[@]}" -c '\tail q 0.2' >"$T/out" 2>"$T/err"
check "\\tail stopped by SIGINT" 0 $?
check "\\tail header once" 1 "$(grep -c '^ value $' "$T/out")"
rows=$(grep -cE '^ +[0-9]+$' "$T/out")
[ "$rows" -gt 100 ] || fail "\\tail printed only $rows rows"
check "\\tail footer counts the rows" "($rows rows)" "$(grep -E '^\([0-9]+ rows\)$' "$T/out")"
check "\\tail rows are distinct" "$rows" "$(grep -E '^ +[0-9]+$' "$T/out" | sort -u | wc -l)"

# ---- no history file outside interactive use ---------------------------------------------
[ ! -e "$HOME/.sluice_history" ] || fail "a script wrote ~/.sluice_history"

# ---- environment and connection failures -------------------------------------------------
check "PGHOST/PGPORT/PGUSER/PGDATABASE" "sluice|sluice|$SL_PORT" \
    "$(PGHOST=127.0.0.1 PGPORT=$SL_PORT PGUSER=sluice PGDATABASE=sluice "$BIN/sluice" -X -A -t -c '\echo :DBNAME|:USER|:PORT')"
check "connection string as -d" "$SL_PORT" \
    "$("$BIN/sluice" -X -A -t -d "host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice" -c '\echo :PORT')"
printf '[svc]\nhost=127.0.0.1\nport=%s\nuser=sluice\ndbname=sluice\n' "$SL_PORT" >"$T/services.conf"
check "PGSERVICE from PGSERVICEFILE" "$SL_PORT" \
    "$(PGSERVICEFILE=$T/services.conf PGSERVICE=svc "$BIN/sluice" -X -A -t -c '\echo :PORT')"
check "service= in -d" "$SL_PORT" \
    "$(PGSERVICEFILE=$T/services.conf "$BIN/sluice" -X -A -t -d service=svc -c '\echo :PORT')"
PGSSLMODE=require "$BIN/sluice" -X "${CONN[@]}" -c 'SELECT 1' >"$T/out" 2>"$T/err"
check "PGSSLMODE=require against a plaintext server" 2 $?
contains "PGSSLMODE message" "$T/err" "server does not support SSL, but SSL was required"
"$BIN/sluice" -X -h 127.0.0.1 -p 1 -c 'SELECT 1' >"$T/out" 2>"$T/err"; check "refused connection" 2 $?
contains "refused connection message" "$T/err" 'sluice: error: connection to server at "127.0.0.1", port 1 failed'
stop_daemon || fail "daemon did not stop cleanly"

# ---- passwords: PGPASSWORD, ~/.pgpass, -w without one ----------------------------------------
printf 'alice:s3cret pass\n' >"$T/users"
start_daemon "$T/d2" -c authentication=scram-sha-256 -c "password_file=$T/users" || exit 1
AL=(-X -h 127.0.0.1 -p "$SL_PORT" -U alice -d sluice -A -t)
check "PGPASSWORD" "1" "$(PGPASSWORD='s3cret pass' "$BIN/sluice" "${AL[@]}" -c 'SELECT 1')"
printf '127.0.0.1:%s:*:alice:s3cret pass\n' "$SL_PORT" >"$HOME/.pgpass"; chmod 600 "$HOME/.pgpass"
check "~/.pgpass" "2" "$("$BIN/sluice" "${AL[@]}" -c 'SELECT 2')"
rm "$HOME/.pgpass"
"$BIN/sluice" "${AL[@]}" -w -c 'SELECT 3' >"$T/out" 2>"$T/err" </dev/null; check "-w without password" 2 $?
contains "-w message" "$T/err" "no password supplied"
PGPASSWORD=wrong "$BIN/sluice" "${AL[@]}" -c 'SELECT 4' >"$T/out" 2>"$T/err"; check "wrong password" 2 $?
stop_daemon || fail "second daemon did not stop cleanly"

if [ $fails -eq 0 ]; then echo "cli_script: ok"; else echo "cli_script: $fails failure(s)"; fi
[ $fails -eq 0 ]
