#!/usr/bin/env bash
# Differential test: the same queries (tests/differential/queries.sql, SQL on
# which PostgreSQL and Spark SQL agree) run on a PostgreSQL 15 server started
# here, as a non-root user, and on sluiced, over the same tables filled by
# the same statements (schema.sql, data.awk). Each query's output through
# `psql -X -A -t -F '|'` must be identical on both; the differing queries
# are printed with both outputs and the test exits 1. It ends with
# "N queries, N identical".
#
#   DIFF_PG_PORT=p / DIFF_SL_PORT=p   use servers already running (tables
#                                     loaded) instead of starting them
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
src=tests/differential
work=$(mktemp -d /tmp/sluice-diff-XXXXXX)
chmod 755 "$work"   # the PostgreSQL user reaches its data directory inside
pg_port=${DIFF_PG_PORT:-}; pg_user=postgres; pg_started=""
sl_port=${DIFF_SL_PORT:-}
export PGTZ=UTC

fail() { echo "FAIL: $*"; exit 1; }

# as_pg CMD... : runs a PostgreSQL server program as the unprivileged user
# that owns the data directory (PostgreSQL refuses to run as root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u "$pg_os_user" -- "$@"; else "$@"; fi
}

cleanup() {
    [ -n "$pg_started" ] && as_pg "$PGBIN/pg_ctl" -D "$work/pg/data" -m immediate stop >/dev/null 2>&1
    [ -z "${DIFF_SL_PORT:-}" ] && stop_daemon >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM   # the EXIT trap stops both servers

# port_free PORT : nothing listens on 127.0.0.1:PORT and no socket file is there.
port_free() {
    [ ! -e "/tmp/.s.PGSQL.$1" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# start_pg : initdb in $work/pg/data and start PostgreSQL on a free port
# (a few tries, in case another process takes the port first).
start_pg() {
    pg_os_user=$(id -un)
    if [ "$(id -u)" = 0 ]; then
        pg_os_user=postgres
        id postgres >/dev/null 2>&1 || pg_os_user=nobody
    fi
    [ -x "$PGBIN/initdb" ] || fail "no PostgreSQL server in $PGBIN (Debian package postgresql)"
    mkdir -p "$work/pg" && chown "$pg_os_user" "$work/pg" && chmod 700 "$work/pg"
    local ctype=C.UTF-8  # lower()/upper() of non-ASCII letters; collation stays C (byte order)
    locale -a 2>/dev/null | grep -qix 'c.utf-\?8' || ctype=C
    as_pg "$PGBIN/initdb" -D "$work/pg/data" -U postgres -A trust -E UTF8 --locale=C --lc-ctype=$ctype \
        --no-sync >"$work/pg/initdb.log" 2>&1 || { cat "$work/pg/initdb.log"; fail "initdb"; }
    local try
    for try in 1 2 3 4 5; do
        pg_port=$((20000 + (RANDOM * 7 + try) % 40000))
        port_free "$pg_port" || continue
        if as_pg "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w -t 60 -o \
            "-p $pg_port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c TimeZone=UTC" \
            start >/dev/null 2>&1; then
            pg_started=1
            return 0
        fi
    done
    cat "$work/pg/log"
    fail "PostgreSQL did not start"
}

pg_psql() { psql -X -h 127.0.0.1 -p "$pg_port" -U "$pg_user" -d postgres "$@"; }
sl_psql() { psql -X -h 127.0.0.1 -p "$sl_port" -U sluice -d sluice "$@"; }

# load NAME PSQL-FUNCTION : the schema and the rows, stopping at the first error.
load() {
    { cat "$src/schema.sql"; awk -f "$src/data.awk"; } | "$2" -q -v ON_ERROR_STOP=1 >"$work/load.$1" 2>&1 ||
        { cat "$work/load.$1"; fail "loading the tables into $1"; }
}

# ---- servers and tables ----------------------------------------------------------

if [ -z "$pg_port" ]; then start_pg; load postgresql pg_psql; fi
if [ -z "$sl_port" ]; then
    start_daemon "$work/sl" || fail "sluiced did not start"
    sl_port=$SL_PORT
    load sluice sl_psql
fi

# ---- the queries -----------------------------------------------------------------

# One script for both servers: each query preceded by a marker line, so the
# output splits into one block per query (psql flushes its output before it
# prints an error, so errors land in their query's block).
awk '
    /^[ \t]*(--|$)/ && q == "" { next }
    { q = q (q == "" ? "" : "\n") $0 }
    /;[ \t]*$/ { printf "\\echo @@@ %d\n%s\n", ++n, q; q = "" }
    END { if (q != "") { print "unterminated query at the end of queries.sql" > "/dev/stderr"; exit 1 } }
' "$src/queries.sql" >"$work/run.sql" || fail "reading queries.sql"

pg_psql -A -t -F '|' -f "$work/run.sql" >"$work/out.postgresql" 2>&1
sl_psql -A -t -F '|' -f "$work/run.sql" >"$work/out.sluice" 2>&1

# Compares the blocks query by query. A query fails when the outputs
# differ, when either side reports an error, or when it returns more than
# one row without an ORDER BY (its order would be an accident).
awk -v min=200 '
    FILENAME == ARGV[1] && /^\\echo @@@ / { n = $3; next }
    FILENAME == ARGV[1] { query[n] = query[n] (query[n] == "" ? "" : "\n") $0; total = n; next }
    /^@@@ [0-9]+$/ { k = $2; next }
    FILENAME == ARGV[2] { pg[k] = pg[k] $0 "\n"; pgrows[k]++; next }
    { sl[k] = sl[k] $0 "\n" }
    function failed(out) { return out ~ /(^|\n)psql:[^\n]*(ERROR|FATAL|connection to server was lost)/ }
    function report(i, why) {   # both outputs for the first 10 failures, then one line each
        if (++nfail <= 10) printf "FAIL query %d (%s):\n%s\n-- postgresql:\n%s-- sluice:\n%s\n", i, why, query[i], pg[i], sl[i]
        else printf "FAIL query %d (%s)\n", i, why
    }
    END {
        same = 0
        for (i = 1; i <= total; i++) {
            if (failed(pg[i]) || failed(sl[i])) report(i, "error")
            else if (pg[i] != sl[i]) report(i, "outputs differ")
            else if (pgrows[i] > 1 && toupper(query[i]) !~ /ORDER BY/) report(i, "several rows without ORDER BY")
            else same++
        }
        printf "%d queries, %d identical\n", total, same
        if (total < min) printf "FAIL: only %d queries (at least %d expected)\n", total, min
        exit !(same == total && total >= min)
    }
' "$work/run.sql" "$work/out.postgresql" "$work/out.sluice" && exit 0
[ -n "${SL_LOG:-}" ] && { echo "-- sluiced log (last lines):"; tail -n 20 "$SL_LOG"; }
exit 1
