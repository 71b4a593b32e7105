# A PostgreSQL 15 server for the tests that need a real one (the postgres
# sink, the postgres_cdc source, their benches): initdb in a directory of
# the test's, started on a free loopback port with logical replication on,
# no system service. Source it (after tests/lib.sh if the test uses that).
#
#   pg_server_start DIR [SETTING=VALUE...]  initdb DIR/data (once) and start;
#                                  sets PG_PORT, PG_DATA; extra settings
#                                  are passed as -c options
#   pg_server_stop [fast|immediate]  stop it (immediate: as a crash would)
#   pg_server_restart              stop (fast) and start on the same port
#   pg_sql ARGS...                 psql -X as postgres on database postgres
#   PG_URL                         postgresql://postgres@127.0.0.1:PORT/postgres
#
# PostgreSQL refuses to run as root: as root the server programs run as the
# user postgres (Debian's package creates it) through runuser. The caller
# stops the server in its EXIT trap (pg_server_stop is safe to call twice).
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_PORT=""
PG_DATA=""
PG_URL=""
PG_SERVER_SETTINGS=()

pg_as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_port_free() {
    [ ! -e "/tmp/.s.PGSQL.$1" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# pg_server_launch: pg_ctl start on $PG_PORT with the settings; 0 when up.
pg_server_launch() {
    local opts="-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1 -c wal_level=logical"
    opts+=" -c max_replication_slots=16 -c max_wal_senders=16 -c fsync=off -c TimeZone=UTC"
    local s
    for s in "${PG_SERVER_SETTINGS[@]}"; do opts+=" -c $s"; done
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/log" -w -t 60 -o "$opts" start >/dev/null 2>&1
}

pg_server_start() {
    local dir=$1
    shift
    PG_SERVER_SETTINGS=("$@")
    [ -x "$PG_BIN/initdb" ] || { echo "FAIL: no PostgreSQL server in $PG_BIN (make deps)"; return 1; }
    PG_DATA=$dir/data
    if [ ! -d "$PG_DATA" ]; then
        mkdir -p "$PG_DATA" && chmod 755 "$dir" && chmod 700 "$PG_DATA"
        [ "$(id -u)" = 0 ] && chown postgres "$PG_DATA"
        pg_as_owner "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -A trust -E UTF8 --locale=C \
            --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
    fi
    local try
    for try in 1 2 3 4 5 6; do
        PG_PORT=$((20000 + (RANDOM * 7 + try) % 40000))
        pg_port_free "$PG_PORT" || continue
        if pg_server_launch; then
            PG_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
            return 0
        fi
    done
    cat "$PG_DATA/log"
    echo "FAIL: PostgreSQL did not start"
    return 1
}

pg_server_stop() {
    [ -n "$PG_DATA" ] && [ -f "$PG_DATA/postmaster.pid" ] || return 0
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -m "${1:-fast}" -w stop >/dev/null 2>&1
}

pg_server_restart() {
    pg_server_stop fast && pg_server_launch || { cat "$PG_DATA/log"; return 1; }
}

pg_sql() {
    psql -X -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres "$@"
}
