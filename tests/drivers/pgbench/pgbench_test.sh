#!/usr/bin/env bash
# pgbench in each query mode (simple: the values substituted into the text;
# extended: unnamed statements with bound parameters; prepared: statements
# prepared once per connection) with 4 clients on 2 threads, a variable
# from -D and script variables (read.sql), then transactions of bound
# inserts (write.sql) whose rows are counted afterwards. Connection from the
# PG* environment; one ok/FAIL line per check, exit 1 if one failed.
set -uo pipefail
dir=$(dirname "$0")
failed=0
ok() { echo "ok   pgbench/$1"; }
bad() { echo "FAIL pgbench/$1"; failed=$((failed + 1)); }
psql_q() { timeout 30 psql -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"; }

# run NAME SCRIPT MODE: pgbench -c 4 -j 2 -t 50, all 200 transactions done, none failed (pgbench
# not finished within 60 s ends the program).
run() {
    local out rc=0
    out=$(timeout 60 pgbench -n -M "$3" -c 4 -j 2 -t 50 -D x=1 -f "$dir/$2" 2>&1) || rc=$?
    if [ $rc -eq 124 ]; then bad "$1 -M $3: pgbench did not finish within 60 s"; echo "$failed failed"; exit 1; fi
    if [ $rc -eq 0 ] && grep -q '^number of transactions actually processed: 200/200$' <<<"$out" \
        && grep -q '^number of failed transactions: 0 (0.000%)$' <<<"$out"; then
        ok "$1 -M $3: 200 of 200 transactions"
    else
        bad "$1 -M $3: 200 of 200 transactions (exit $rc)"
        grep -v '^progress' <<<"$out" | head -n 20 | sed 's/^/    /'
    fi
}

for mode in simple extended prepared; do
    run read read.sql "$mode"
    psql_q "DELETE FROM tx_pgbench" >/dev/null
    run write write.sql "$mode"
    got=$(psql_q "SELECT count(*), sum(amount), count(DISTINCT id), min(id), max(id) FROM tx_pgbench" 2>&1)
    if [ "$got" = "200|200.00|4|0|3" ]; then ok "write -M $mode: rows inserted"
    else bad "write -M $mode: rows inserted: got '$got', want '200|200.00|4|0|3'"; fi
done
[ $failed -eq 0 ] && echo "all checks passed" || echo "$failed failed"
[ $failed -eq 0 ]
