#!/usr/bin/env bash
# The catalog as PostgreSQL tools read it: psql 15's \d, \d name (a static
# table, a stream, a query table), \dt, \dv, \dm, \l, \dn, \df, \du and
# tab completion (in tmux); pgjdbc's DatabaseMetaData; SQLAlchemy 1.4's
# inspector over psycopg2; psycopg 3's TypeInfo and psycopg2's connect-time
# queries. Helpers in tests/integration/pg_catalog/.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
SOCK=sluice-pgcat-$$
trap 'tmux -L "$SOCK" kill-server >/dev/null 2>&1; stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust || exit 1
status=0
fail() { echo "FAIL $*"; status=1; }

mkdir -p "$T/in" && printf 'id,v\n1,10\n' > "$T/in/a.csv"
sql -c "CREATE TABLE cat_t (id INT, name STRING, price DECIMAL(10,2), at TIMESTAMP, ok BOOLEAN)" \
    -c "CREATE STREAM cat_s (id INT, v BIGINT) USING file OPTIONS (path '$T/in', format 'csv', header 'true')" \
    -c "CREATE QUERY cat_q TRIGGER AVAILABLE NOW AS SELECT v AS value FROM cat_s" \
    -c "AWAIT QUERY cat_q" >/dev/null || fail "setup"

# meta NAME COMMAND LINE... : psql's output of COMMAND has no error and every LINE.
meta() {
    local name=$1 cmd=$2; shift 2
    local out; out=$(psql -X -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "$cmd" 2>&1)
    if grep -q "ERROR" <<<"$out"; then fail "$name: $(grep ERROR <<<"$out" | head -1)"; return; fi
    for line in "$@"; do
        grep -qF -- "$line" <<<"$out" || { fail "$name: no line '$line' in:"; echo "$out"; return; }
    done
    echo "ok   psql $name"
}
meta '\d' '\d' "public | cat_q | materialized view | sluice" "public | cat_s | view              | sluice" \
    "public | cat_t | table             | sluice"
meta '\dt' '\dt' "public | cat_t | table | sluice" "(1 row)"
meta '\dv' '\dv' "public | cat_s | view | sluice" "(1 row)"
meta '\dm' '\dm' "public | cat_q | materialized view | sluice" "(1 row)"
meta '\d table' '\d cat_t' 'Table "public.cat_t"' " id     | integer                     |" \
    " price  | numeric(10,2)               |" " at     | timestamp without time zone |"
meta '\d stream' '\d cat_s' 'View "public.cat_s"' " id     | integer |" " v      | bigint  |"
meta '\d query table' '\d cat_q' 'Materialized view "public.cat_q"' " value  | bigint |"
meta '\d+ table' '\d+ cat_t' " name   | text                        |           |          |         | extended |"
meta '\d+ stream' '\d+ cat_s' 'View definition:' "CREATE STREAM cat_s (id INT, v BIGINT) USING file"
meta '\d catalog relation' '\d pg_catalog.pg_type' 'Table "pg_catalog.pg_type"' " typname "
meta '\l' '\l' " sluice | sluice | UTF8     | C       | C     |"
meta '\dn' '\dn' " public | sluice" "(1 row)"
meta '\df' '\df' "(0 rows)"
meta '\dfS lower' '\dfS lower' " pg_catalog | lower | text             | string"
meta '\du' '\du' " sluice    | Superuser"

# tab completion: psql's own completion queries, at a terminal
tmux -L "$SOCK" new-session -d -s psql -x 160 -y 40 \
    "psql -X -h 127.0.0.1 -p $SL_PORT -U sluice -d sluice" || fail "tmux"
wait_for 15 sh -c "tmux -L '$SOCK' capture-pane -p -t psql | grep -q 'sluice=#'" || fail "psql prompt"
complete() { # complete TYPED EXPECTED : TYPED<Tab> completes the prompt line to EXPECTED
    tmux -L "$SOCK" send-keys -t psql C-u "$1" Tab
    if wait_for 10 sh -c "tmux -L '$SOCK' capture-pane -p -t psql | grep -qxF -- 'sluice=# $2'"; then
        echo "ok   tab completion '$1' -> '$2'"
    else
        fail "tab completion '$1':"; tmux -L "$SOCK" capture-pane -p -t psql
    fi
}
sql -c "CREATE TABLE completion_target (x INT)" >/dev/null || fail "setup"
complete "SELECT * FROM completion_t" "SELECT * FROM completion_target"
complete "SELECT * FROM pg_catalog.pg_cl" "SELECT * FROM pg_catalog.pg_class"
complete "SELECT * FROM information_schema.colu" "SELECT * FROM information_schema.columns"
complete "\\d completion_t" "\\d completion_target"
# an ambiguous prefix: a second Tab lists the candidates (a table, a stream, a query table)
tmux -L "$SOCK" send-keys -t psql C-u "SELECT * FROM cat_" Tab Tab
if wait_for 10 sh -c "tmux -L '$SOCK' capture-pane -p -t psql | grep -qE 'cat_q +cat_s +cat_t'"; then
    echo "ok   tab completion lists cat_q cat_s cat_t"
else
    fail "tab completion list:"; tmux -L "$SOCK" capture-pane -p -t psql
fi
tmux -L "$SOCK" kill-server

/usr/bin/python3 tests/integration/pg_catalog/sqlalchemy_inspect.py "$SL_PORT" || fail "SQLAlchemy"
/usr/bin/python3 tests/integration/pg_catalog/psycopg_types.py "$SL_PORT" || fail "psycopg"

J=$T/java && mkdir -p "$J"
if javac -d "$J" -cp /usr/share/java/postgresql.jar tests/integration/pg_catalog/CatalogMeta.java; then
    java -cp "/usr/share/java/postgresql.jar:$J" CatalogMeta "$SL_PORT" || fail "pgjdbc DatabaseMetaData"
else
    fail "javac CatalogMeta"
fi

# the daemon still serves
[ "$(sql -c 'SELECT count(*) FROM cat_t')" = 0 ] || fail "daemon no longer answers"
stop_daemon || status=1
[ $status -eq 0 ] && echo "pg_catalog: ok"
exit $status
