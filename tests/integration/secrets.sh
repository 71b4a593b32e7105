#!/usr/bin/env bash
# Secret options: a literal kafka.sasl.password is never shown (SHOW
# STREAMS, DESCRIBE, EXPLAIN, SHOW PROGRESS, the HTTP API, /metrics, the UI,
# pg_catalog and information_schema, the daemon log); catalog.db, tables.db
# and checkpoint files are 0600 and their directories 0700; 'env:NAME' and
# 'file:/path' references are resolved when the stream or query starts (a
# Kafka stream reading from the mock cluster whose bootstrap servers come
# from the environment), the catalog keeps the reference only, and a missing
# variable or file is an error at CREATE (42704, 58P01) and at start (FAILED).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/integration/kafka_lib.sh
work=$(mktemp -d /tmp/sluice-secrets-XXXXXX)
MOCK_DIR=$work
trap 'kill -9 ${SL_PID:-} 2>/dev/null; stop_mock; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -n 30 "$work/log"; exit 1; }
ok() { echo "ok   $*"; }
# never SURFACE TEXT : the literal secret and the file's secret are absent from TEXT.
never() {
    case "$2" in *hunter2*|*filesecret77*) fail "$1 shows a secret: $(echo "$2" | grep -E 'hunter2|filesecret77' | head -n 3)";; esac
    ok "$1: no secret"
}

start_mock "$work" -t ev:1 -t out:1 || fail "mock"
produce_json ev 0 1 20
printf 'filesecret77\n' >"$work/pw"
export SECRETS_BOOT=$BOOT
old_umask=$(umask); umask 000
start_daemon "$work" || fail "daemon did not start"
umask "$old_umask"
sql -c "SELECT 1" >/dev/null || fail "daemon not answering"

# ---- 1. references resolved at start: bootstrap servers from env:, password from file:
sql <<SQL || fail "create streams and queries"
CREATE STREAM ev (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' 'env:SECRETS_BOOT', subscribe 'ev', startingOffsets 'earliest',
   'kafka.sasl.password' 'file:$work/pw');
CREATE STREAM lit (id INT, name STRING) USING kafka OPTIONS
  ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', startingOffsets 'earliest',
   'kafka.sasl.password' 'hunter2', 'kafka.sasl.username' 'alice');
CREATE STREAM idle (id INT) USING kafka OPTIONS ('kafka.bootstrap.servers' 'nowhere:1',
   subscribe 'ev', 'KAFKA.ssl.key.pem' 'hunter2', 'kafka.ssl.keystore.password' 'hunter2',
   "kafka.sasl.password" 'hunter2');
CREATE QUERY q_ev AS SELECT id, name FROM ev;
CREATE QUERY q_lit SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out',
  'kafka.sasl.password' 'hunter2') AS SELECT CAST(id AS STRING) AS value FROM lit;
AWAIT QUERY q_ev TIMEOUT '30 seconds';
AWAIT QUERY q_lit TIMEOUT '30 seconds';
SQL
got=$(sql -c "SELECT count(*), sum(id) FROM q_ev")
[ "$got" = "20|210" ] || fail "env: bootstrap servers: rows $got"
ok "env:/file: references resolved: 20 rows read through env:SECRETS_BOOT"
got=$(consume out | sort -n | paste -sd, -)
[ "$got" = "$(seq 1 20 | paste -sd, -)" ] || fail "kafka sink output: $got"
ok "query with a literal secret sink option wrote its 20 rows"

# ---- 2. every surface, redacted
out=$(sql -c "SHOW STREAMS"); never "SHOW STREAMS" "$out"
echo "$out" | grep -q "'kafka.sasl.password' '\*\*\*\*\*\*\*\*'\|kafka.sasl.password '\*\*\*\*\*\*\*\*'" ||
    fail "SHOW STREAMS does not show the redaction: $out"
echo "$out" | grep -q "kafka.sasl.username 'alice'" || fail "SHOW STREAMS hides a non-secret: $out"
echo "$out" | grep -q "file:$work/pw" || fail "SHOW STREAMS does not show the reference: $out"
out=$(sql -c "DESCRIBE idle"); never "DESCRIBE stream" "$out"
[ "$(echo "$out" | grep -c '^Option|.*|\*\*\*\*\*\*\*\*$')" = 3 ] || fail "DESCRIBE: $out"
out=$(sql -c "DESCRIBE q_lit"); never "DESCRIBE query" "$out"
echo "$out" | grep -q "^Sink option|kafka.sasl.password|\*\*\*\*\*\*\*\*" || fail "DESCRIBE sink option: $out"
echo "$out" | grep -q "'kafka.sasl.password' '\*\*\*\*\*\*\*\*') AS SELECT" || fail "DESCRIBE definition: $out"
out=$(sql -c "EXPLAIN SELECT id FROM lit"); never "EXPLAIN" "$out"
out=$(sql -c "EXPLAIN CREATE QUERY q_x SINK kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', topic 'out', 'kafka.sasl.password' 'hunter2') AS SELECT CAST(id AS STRING) AS value FROM lit")
never "EXPLAIN CREATE QUERY" "$out"
out=$(sql -c "SHOW PROGRESS q_lit"); never "SHOW PROGRESS" "$out"
echo "$out" | grep -q '"sources"' || fail "SHOW PROGRESS empty: $out"
out=$(sql -c "SHOW QUERIES"); never "SHOW QUERIES" "$out"
H="http://127.0.0.1:$SL_HTTP_PORT"
out=$(curl -sf "$H/api/v1/queries/q_lit") || fail "GET /api/v1/queries/q_lit"
never "HTTP query document" "$out"
echo "$out" | grep -q "kafka.sasl.password' '\*\*\*\*\*\*\*\*'" || fail "HTTP definition not redacted: $out"
for p in /api/v1/queries /api/v1/queries/q_lit/progress /api/v1/queries/q_lit/recentProgress /metrics / /healthz; do
    out=$(curl -s "$H$p") || fail "GET $p"
    never "HTTP $p" "$out"
done
for rel in "pg_class" "pg_views" "pg_matviews" "information_schema.views" "information_schema.tables"; do
    out=$(sql -c "SELECT * FROM $rel"); never "$rel" "$out"
done
out=$(sql -c "SELECT pg_get_viewdef(oid) FROM pg_class WHERE relname IN ('q_lit', 'lit', 'ev')")
never "pg_get_viewdef" "$out"
echo "$out" | grep -q "'\*\*\*\*\*\*\*\*'" || fail "pg_get_viewdef shows no redaction: $out"

# ---- 3. reference errors at CREATE
out=$(sql -v VERBOSITY=verbose -c "CREATE STREAM e1 (id INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', 'kafka.sasl.password' 'env:SECRETS_UNSET_VAR')" 2>&1)
echo "$out" | grep -q "42704" && echo "$out" | grep -q "SECRETS_UNSET_VAR" || fail "unset env: reference: $out"
ok "unset env: reference at CREATE: 42704 naming it"
out=$(sql -v VERBOSITY=verbose -c "CREATE STREAM e2 (id INT) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', 'kafka.sasl.password' 'file:$work/missing')" 2>&1)
echo "$out" | grep -q "58P01" && echo "$out" | grep -q "file:$work/missing" || fail "missing file: reference: $out"
ok "missing file: reference at CREATE: 58P01 naming it"

# ---- 4. reference error at start: the file disappears before the query starts
printf 'x\n' >"$work/pw2"
sql -c "CREATE STREAM later (id INT, name STRING) USING kafka OPTIONS ('kafka.bootstrap.servers' '$BOOT', subscribe 'ev', startingOffsets 'earliest', 'kafka.ssl.key.password' 'file:$work/pw2')" ||
    fail "create stream later"
rm -f "$work/pw2"
sql -c "CREATE QUERY q_later AS SELECT id FROM later" >/dev/null 2>&1
wait_for 30 status_is q_later FAILED || fail "q_later: $(sql -c 'SHOW QUERIES')"
err=$(sql -c "SHOW QUERIES" | awk -F'|' '$1 == "q_later" { print $8 }')
case "$err" in *"file:$work/pw2"*) ok "missing file at start: q_later FAILED: $err";; *) fail "q_later error: $err";; esac

# ---- 5. the log, the catalog and file modes
never "daemon log" "$(cat "$work/log")"
cat "$work/data"/catalog.db* | strings | grep -q filesecret77 && fail "catalog.db holds the resolved file secret"
cat "$work/data"/catalog.db* | strings | grep -q "file:$work/pw" || fail "catalog.db lacks the reference"
ok "catalog.db holds the reference, not the resolved value"
for f in catalog.db tables.db; do
    [ -e "$work/data/$f" ] || continue
    m=$(stat -c %a "$work/data/$f"); [ "$m" = 600 ] || fail "$f mode $m"
done
ok "catalog.db and tables.db are 0600 (daemon started with umask 000)"
ckpt=$(sql -c "DESCRIBE q_ev" | awk -F'|' '$1 == "Checkpoint" { print $2 }')
[ -d "$ckpt" ] || fail "checkpoint of q_ev: $ckpt"
bad=$(find "$ckpt" -type f ! -perm 600 | head -n 3)
[ -z "$bad" ] || fail "checkpoint files not 0600: $bad $(stat -c '%a %n' $bad)"
bad=$(find "$ckpt" -type d ! -perm 700 | head -n 3)
[ -z "$bad" ] || fail "checkpoint directories not 0700: $bad"
ok "checkpoint files 0600 ($(find "$ckpt" -type f | wc -l) files), directories 0700"

stop_daemon || fail "daemon did not stop cleanly"
never "daemon log at exit" "$(cat "$work/log")"
echo "secrets: all passed"
