#!/usr/bin/env bash
# psql's meta-commands against the server of the PG* environment: \conninfo,
# the catalog queries of \d, \dt, \dv, \l, \dn, \df, \d NAME for a static
# table, a stream and a query result table, \gdesc, \copy both ways (text
# and CSV), and tab completion in an interactive psql (tmux). One ok/FAIL
# line per check; exit 1 if one failed.
set -uo pipefail
failed=0
ok() { echo "ok   psql/$1"; }
bad() { echo "FAIL psql/$1"; failed=$((failed + 1)); }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TAB=$'\t'

# meta NAME COMMAND: runs COMMAND through psql (unaligned, tuples only); output in $out, stderr in $err.
meta() {
    local rc=0
    out=$(psql -X -A -t -v ON_ERROR_STOP=1 -f - <<<"$2" 2>"$T/err") || rc=$?
    err=$(cat "$T/err")
    if [ $rc -ne 0 ] || grep -q 'ERROR' <<<"$err"; then
        bad "$1: $2 failed (exit $rc): $(head -n 3 <<<"$err")"; return 1
    fi
}

# same NAME GOT WANT
same() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        bad "$1"; diff <(echo "$3") <(echo "$2") | sed 's/^/    /'; fi
}

# has_line NAME TEXT LINE: TEXT holds LINE.
has_line() {
    if grep -qxF -- "$3" <<<"$2"; then ok "$1"; else bad "$1: no line '$3' in: $(tr '\n' ';' <<<"$2")"; fi
}

if meta conninfo '\conninfo'; then
    same "\\conninfo" "$out" "You are connected to database \"$PGDATABASE\" as user \"$PGUSER\" on host \"$PGHOST\" at port \"$PGPORT\"."
fi

if meta d '\d'; then
    names=$(cut -d'|' -f1,2 <<<"$out")
    has_line "\\d lists the static table" "$names" "public|prices"
    has_line "\\d lists the stream" "$names" "public|orders"
    has_line "\\d lists the query result table" "$names" "public|order_totals"
fi
if meta dt '\dt'; then
    has_line "\\dt lists the static table" "$(cut -d'|' -f1-3 <<<"$out")" "public|prices|table"
fi
if meta dv '\dv'; then
    kinds=$(cut -d'|' -f3 <<<"$out" | sort -u | tr -d '\n')
    if [ -z "$out" ] || [ "$kinds" = view ]; then ok "\\dv lists only views"; else bad "\\dv lists only views: $out"; fi
fi
if meta l '\l'; then
    has_line "\\l lists the database, UTF8" "$(awk -F'|' 'NF > 3 { print $1 "|" $3 }' <<<"$out")" "$PGDATABASE|UTF8"
fi
if meta dn '\dn'; then
    has_line "\\dn lists public" "$(cut -d'|' -f1 <<<"$out")" "public"
fi
if meta df '\df'; then
    same "\\df: no user functions" "$out" ""
fi

if meta 'd prices' '\d prices'; then
    same "\\d of a static table" "$(cut -d'|' -f1,2 <<<"$out")" "id|integer
name|text
price|numeric(10,2)
ts|timestamp without time zone
dur|interval
note|text
raw|bytea
flag|boolean
big|bigint
ratio|double precision
day|date"
fi
if meta 'd orders' '\d orders'; then
    same "\\d of a stream" "$(cut -d'|' -f1,2 <<<"$out")" "id|integer
item|text
amount|numeric(8,2)
ts|timestamp without time zone"
fi
if meta 'd order_totals' '\d order_totals'; then
    same "\\d of a query result table" "$(cut -d'|' -f1,2 <<<"$out")" "item|text
n|bigint
total|numeric(18,2)"
fi
if meta gdesc 'SELECT id, price, ts, dur, raw FROM prices \gdesc'; then
    same "\\gdesc" "$out" "id|integer
price|numeric(10,2)
ts|timestamp without time zone
dur|interval
raw|bytea"
fi

prices_text="1${TAB}apple${TAB}12.34${TAB}2024-05-01 12:00:10.5${TAB}1 day 02:03:04${TAB}\\N${TAB}\\\\x6162${TAB}t${TAB}9000000000${TAB}0.5${TAB}2024-05-01
2${TAB}leek${TAB}\\N${TAB}\\N${TAB}\\N${TAB}none${TAB}\\N${TAB}\\N${TAB}\\N${TAB}\\N${TAB}\\N
3${TAB}pear${TAB}-0.05${TAB}1999-12-31 23:59:59.999999${TAB}-03:00:00${TAB}${TAB}\\\\x${TAB}f${TAB}-1${TAB}-2.25${TAB}1999-12-31"
if meta 'copy to file' "\\copy prices TO '$T/prices.txt'"; then
    same "\\copy a table TO a file (text)" "$(sort "$T/prices.txt")" "$prices_text"
    same "\\copy's row count" "$out" "COPY 3"
fi
if meta 'copy query csv' '\copy (SELECT * FROM prices ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)'; then
    same "\\copy a query TO STDOUT (csv, header)" "$out" 'id,name,price,ts,dur,note,raw,flag,big,ratio,day
1,apple,12.34,2024-05-01 12:00:10.5,1 day 02:03:04,,\x6162,t,9000000000,0.5,2024-05-01
2,leek,,,,none,,,,,
3,pear,-0.05,1999-12-31 23:59:59.999999,-03:00:00,"",\x,f,-1,-2.25,1999-12-31'
fi
if meta 'copy result table' '\copy order_totals TO STDOUT'; then
    same "\\copy a query result table TO STDOUT" "$(sort <<<"$out")" "apple${TAB}2${TAB}6.50
leek${TAB}1${TAB}1.20"
fi

printf '1\t7.25\t\\N\t2024-05-01 12:00:10.5\t\\\\x0001ff\n2\t-1234.5\ttab\\there\t\\N\t\\N\n' >"$T/in.txt"
printf 'id,amount,note,ts,raw\n3,0.01,"a, quoted ""note""",1999-12-31 23:59:59.999999,\\x\n4,,,,\n' >"$T/in.csv"
psql -X -q -A -t -c "DELETE FROM tx_psql" >/dev/null 2>&1
if meta 'copy from text' "\\copy tx_psql FROM '$T/in.txt'" && meta 'copy from csv' "\\copy tx_psql FROM '$T/in.csv' WITH (FORMAT csv, HEADER)"; then
    same "\\copy FROM (text, csv) count" "$out" "COPY 2"
    if meta 'copy back' "SELECT id, amount, note IS NULL, note, ts, raw, raw IS NULL FROM tx_psql ORDER BY id"; then
        same "\\copy FROM rows" "$out" "1|7.25|t||2024-05-01 12:00:10.5|\\x0001ff|f
2|-1234.50|f|tab${TAB}here|||t
3|0.01|f|a, quoted \"note\"|1999-12-31 23:59:59.999999|\\x|f
4||t||||t"
    fi
fi

# Tab completion: an interactive psql in a tmux pane completes a table and a
# column name from its catalog queries.
pane_has() { tmux capture-pane -p -t "$session" | grep -qF -- "$1"; }
session=drivers-psql-$$
tmux new-session -d -s "$session" -x 200 -y 50 \
    "env PGHOST=$PGHOST PGPORT=$PGPORT PGUSER=$PGUSER PGDATABASE=$PGDATABASE psql -X"
if wait_pane() { local deadline=$((SECONDS + 10)); until pane_has "$1"; do
        [ $SECONDS -ge $deadline ] && return 1; sleep 0.05; done; }; wait_pane "$PGDATABASE=#"; then
    tmux send-keys -t "$session" 'SELECT * FROM order_t' Tab
    if wait_pane 'SELECT * FROM order_totals'; then ok "tab completion of a table name"
    else bad "tab completion of a table name: $(tmux capture-pane -p -t "$session" | grep -F 'SELECT' | tail -n 1)"; fi
    tmux send-keys -t "$session" C-u 'SELECT * FROM prices WHERE fl' Tab
    if wait_pane 'SELECT * FROM prices WHERE flag'; then ok "tab completion of a column name"
    else bad "tab completion of a column name: $(tmux capture-pane -p -t "$session" | grep -F 'WHERE' | tail -n 1)"; fi
    tmux send-keys -t "$session" C-u '\q' Enter
else
    bad "interactive psql: no prompt: $(tmux capture-pane -p -t "$session" | head -n 5)"
fi
tmux kill-session -t "$session" 2>/dev/null

[ $failed -eq 0 ] && echo "all checks passed" || echo "$failed failed"
[ $failed -eq 0 ]
