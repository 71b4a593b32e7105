#!/usr/bin/env bash
# make test: unit tests, the SQL regression suite, then every integration
# script in tests/integration/ (each exits 0 on success). Prints a summary and
# fails if any part failed.
set -u
cd "$(dirname "$0")/.."
export BIN="${BIN:-bin}" O="${O:-build/obj}"
summary=(); status=0

run_part() {
    local name=$1; shift
    local start=$SECONDS
    if "$@"; then summary+=("ok   $name ($((SECONDS - start)) s)")
    else summary+=("FAIL $name ($((SECONDS - start)) s)"); status=1; fi
}

run_part unit tests/run_unit.sh "$O"/tests/test_*
run_part sql tests/run_sql.sh
for t in tests/integration/*.sh; do
    case "$t" in *_lib.sh) continue ;; esac   # helpers sourced by the tests
    echo "== integration $(basename "$t" .sh)"
    run_part "integration $(basename "$t" .sh)" timeout 600 bash "$t"
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
