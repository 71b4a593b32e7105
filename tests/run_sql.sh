#!/usr/bin/env bash
# pg_regress-style SQL suite: for each tests/sql/NAME.sql, starts a fresh
# daemon, runs the file through `psql -X -a -q`, and diffs the output with
# tests/expected/NAME.out. `tests/run_sql.sh NAME...` runs only those.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
mkdir -p tests/results
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in tests/sql/*.sql; do names+=("$(basename "$f" .sql)"); done
fi
failed=0; passed=0
for name in "${names[@]}"; do
    work=$(mktemp -d /tmp/sluice-sql-XXXXXX)
    if ! start_daemon "$work"; then
        echo "FAIL $name (daemon did not start)"; failed=$((failed + 1)); continue
    fi
    # Scripts write input files under :testdir (in SQL) = $TESTDIR (in \! shell
    # commands, which psql does not interpolate) and find fixtures under :srcdir.
    mkdir -p "$work/files"
    PGTZ=UTC TESTDIR="$work/files" timeout 300 psql -X -a -q -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice \
        -v testdir="$work/files" -v srcdir="$PWD/tests" \
        -f "tests/sql/$name.sql" >"tests/results/$name.out" 2>&1
    stop_daemon >>"tests/results/$name.out" 2>&1
    if diff -u "tests/expected/$name.out" "tests/results/$name.out" >"tests/results/$name.diff"; then
        echo "ok   $name"; passed=$((passed + 1)); rm -rf "$work"
    else
        echo "FAIL $name (see tests/results/$name.diff, daemon log $work/log)"
        head -n 40 "tests/results/$name.diff"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
