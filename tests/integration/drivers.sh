#!/usr/bin/env bash
# The real drivers against one daemon (tests/drivers/: psycopg2, psycopg 3,
# SQLAlchemy, pgjdbc, node-postgres, pgbench, psql): each program connects
# with its client's defaults, checks values, parameters, introspection,
# transactions and cursors, printing one ok/FAIL line per check, and
# disconnects its own way (close, pool end, idle timeout, process exit
# without close, kill -9 mid-query). After each one the daemon must answer a
# new connection with the same pid.
#
# DRIVERS_TARGET=postgres runs the same programs against a PostgreSQL 15
# server started in a temp dir (the programs' self-check: what they assert
# is what PostgreSQL answers; run it as root, initdb runs as user postgres
# through runuser). DRIVERS_ONLY="psycopg2 jdbc" runs a subset.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
D=tests/drivers
TARGET=${DRIVERS_TARGET:-sluice}
PY=/usr/bin/python3

T=$(mktemp -d)
chmod 755 "$T"
PG_DATA=""
cleanup() {
    if [ -n "$PG_DATA" ]; then runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$PG_DATA" -m fast stop >/dev/null 2>&1; fi
    stop_daemon >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

failures=(); counts=()
fail() { echo "FAIL drivers/$1"; failures+=("$1"); }
pass() { echo "ok   drivers/$1"; }

# start_postgres: a PostgreSQL 15 server in $T/pg on a free loopback port,
# with the role and database the programs use (sluice/sluice).
start_postgres() {
    local bin=/usr/lib/postgresql/15/bin
    PG_DATA=$T/pg
    mkdir "$PG_DATA" && chown postgres "$PG_DATA"
    runuser -u postgres -- "$bin/initdb" -D "$PG_DATA" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$T/initdb.log" 2>&1 \
        || { cat "$T/initdb.log"; return 1; }
    SL_PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    runuser -u postgres -- "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/log" -w \
        -o "-p $SL_PORT -k $PG_DATA -c listen_addresses=127.0.0.1" start >/dev/null || { cat "$PG_DATA/log"; return 1; }
    SERVER_PID=$(head -n 1 "$PG_DATA/postmaster.pid")
    psql -X -q -h 127.0.0.1 -p "$SL_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE sluice SUPERUSER LOGIN" -c "CREATE DATABASE sluice OWNER sluice"
}

# fixtures: the tables, the stream and the query result every program reads.
fixtures() {
    sql -f "$D/fixtures.sql" || return 1
    if [ "$TARGET" = postgres ]; then
        sql -f "$D/fixtures_postgres.sql"
    else
        mkdir -p "$T/orders" && cp "$D/orders.json" "$T/orders/.o.json" && mv "$T/orders/.o.json" "$T/orders/o.json"
        sql -v orders_dir="$T/orders" -f "$D/fixtures_sluice.sql" >/dev/null
    fi
}

# survives NAME: the server still answers a new connection (within 30 s),
# from the same process; if not, the suite ends there.
survives() {
    local got
    got=$(timeout 30 psql -X -q -A -t -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice -c "SELECT 40 + 2" 2>&1)
    if [ "$got" = 42 ] && kill -0 "$SERVER_PID" 2>/dev/null; then pass "$1: server still serving, pid $SERVER_PID"; return; fi
    fail "$1: server still serving (answer: '$got'; pid $SERVER_PID alive: $(kill -0 "$SERVER_PID" 2>/dev/null && echo yes || echo no))"
    [ "$TARGET" = sluice ] && tail -n 30 "$SL_LOG"
    echo "drivers ($TARGET): the server stopped serving after $1; the programs after it are not run"
    exit 1
}

# program NAME COMMAND...: runs one driver program (its ok/FAIL lines go to
# the log), then checks the server survived it.
program() {
    local name=$1; shift
    case " ${DRIVERS_ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    echo "== $name"
    local rc=0
    timeout 180 "$@" >"$T/out" 2>&1 || rc=$?
    cat "$T/out"
    local oks fails
    oks=$(grep -c '^ok ' "$T/out"); fails=$(grep -c '^FAIL ' "$T/out")
    counts+=("$(printf '%-13s %4d ok %4d FAIL  exit %d' "$name" "$oks" "$fails" $rc)")
    [ $rc -eq 0 ] && pass "$name: every check" || fail "$name: exit status $rc"
    survives "$name"
}

# java_classes: the pgjdbc program compiled against Debian's driver jar.
java_classes() {
    mkdir -p "$T/java" && javac -d "$T/java" -cp /usr/share/java/postgresql.jar "$D/java/JdbcTest.java"
}

# node_modules: npm ci once, as `make deps` does.
node_ready() {
    [ -d "$D/node/node_modules/pg" ] || (cd "$D/node" && npm ci --no-audit --no-fund >/dev/null)
}

if [ "$TARGET" = postgres ]; then
    start_postgres || exit 1
else
    start_daemon "$T" -c authentication=trust || exit 1
    SERVER_PID=$SL_PID
fi
export PGHOST=127.0.0.1 PGPORT=$SL_PORT PGUSER=sluice PGDATABASE=sluice TZ=UTC DRIVERS_TARGET=$TARGET
unset PGOPTIONS PGTZ PGDATESTYLE PGCLIENTENCODING PGAPPNAME
fixtures || { echo "drivers: fixtures failed"; exit 1; }

program psycopg2 $PY "$D/python/psycopg2_test.py"
program psycopg2-exit $PY "$D/python/psycopg2_test.py" exit-without-close
program psycopg $PY "$D/python/psycopg_test.py"
program psycopg-exit $PY "$D/python/psycopg_test.py" exit-without-close
program sqlalchemy $PY "$D/python/sqlalchemy_test.py"
program kill-9 bash "$D/kill_mid_query.sh" </dev/null
if java_classes; then
    program jdbc java -Duser.timezone=UTC -cp "/usr/share/java/postgresql.jar:$T/java" JdbcTest
    program jdbc-exit java -Duser.timezone=UTC -cp "/usr/share/java/postgresql.jar:$T/java" JdbcTest exit-without-close
else
    fail "jdbc: javac"
fi
if node_ready; then
    program node node "$D/node/pg_test.js"
    program node-exit node "$D/node/pg_test.js" exit-without-close
else
    fail "node: npm ci"
fi
program pgbench bash "$D/pgbench/pgbench_test.sh"
program psql bash "$D/psql/psql_test.sh"

# the end: the server stops cleanly (sluiced exits 0; a crash at any time
# before, e.g. when the killed client's statement ended, fails here too)
if [ "$TARGET" = postgres ]; then
    kill -0 "$SERVER_PID" 2>/dev/null && pass "server alive at the end" || fail "server alive at the end"
elif stop_daemon; then pass "sluiced stopped cleanly, exit status 0"
else fail "sluiced stopped cleanly"; tail -n 30 "$SL_LOG"; fi

echo
echo "== drivers ($TARGET): checks per program"
printf '%s\n' "${counts[@]}"
if [ ${#failures[@]} -eq 0 ]; then echo "drivers ($TARGET): ok"; exit 0; fi
echo "drivers ($TARGET): ${#failures[@]} failed: ${failures[*]}"
exit 1
