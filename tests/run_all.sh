#!/usr/bin/env bash
# make test: unit tests, the SQL regression suite, then every integration
# script in tests/integration/ (each exits 0 on success). Integration scripts
# run two at a time (JOBS=n to change), each with its own daemon, ports and
# temp dirs; a script whose text contains the line "# sluice-test: exclusive"
# (timing measurements) runs alone afterwards. Each script's output goes to
# tests/results/integration/<name>.log and is printed when it ends. Prints a
# summary and fails if any part failed.
#
# INTEGRATION="a b c" runs only those integration scripts (names without
# .sh), as the sanitizer runs of .ci/run do; UNIT_JOBS=n runs n unit test
# binaries at a time. In a sanitizer build (make
# TSAN=1 / SANITIZE=1 test) every report of every process — daemons killed
# by a test included — is written to tests/results/sanitizer/, and any
# report there fails the run (TSan's suppressions: tests/tsan.supp).
set -u
cd "$(dirname "$0")/.."
export BIN="${BIN:-bin}" O="${O:-build/obj}"
jobs=${JOBS:-2}
logs=tests/results/integration
reports=$PWD/tests/results/sanitizer
mkdir -p "$logs" "$reports"
rm -f "$reports"/*
export TSAN_OPTIONS="${TSAN_OPTIONS:-suppressions=$PWD/tests/tsan.supp log_path=$reports/tsan second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-log_path=$reports/asan}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-log_path=$reports/ubsan print_stacktrace=1}"
summary=(); status=0

run_part() {
    local name=$1; shift
    local start=$SECONDS
    if "$@"; then summary+=("ok   $name ($((SECONDS - start)) s)")
    else summary+=("FAIL $name ($((SECONDS - start)) s)"); status=1; fi
}

# start_script SCRIPT: runs one integration script in the background.
start_script() {
    local name; name=$(basename "$1" .sh)
    (
        start=$SECONDS
        if timeout 600 bash "$1" >"$logs/$name.log" 2>&1; then verdict=ok; else verdict=FAIL; fi
        echo "$verdict" >"$logs/$name.status"
        echo "$((SECONDS - start))" >>"$logs/$name.status"
    ) &
}

# finish_script NAME: prints a finished script's output and records its verdict.
finish_script() {
    echo "== integration $1"
    cat "$logs/$1.log"
    local verdict secs
    { read -r verdict; read -r secs; } <"$logs/$1.status"
    if [ "$verdict" = ok ]; then summary+=("ok   integration $1 ($secs s)")
    else summary+=("FAIL integration $1 ($secs s)"); status=1; fi
}

# the unit test binaries, UNIT_JOBS at a time (default 1; the sanitizer runs
# of .ci/run use 2), each one's output printed whole
run_units() {
    local ujobs=${UNIT_JOBS:-1} dir=tests/results/unit
    [ "$ujobs" -gt 1 ] || { tests/run_unit.sh "$O"/tests/test_*; return; }
    mkdir -p "$dir"; rm -f "$dir"/*
    printf '%s\n' "$O"/tests/test_* | xargs -P "$ujobs" -I{} sh -c \
        'tests/run_unit.sh "$1" >"$2/${1##*/}.log" 2>&1 || touch "$2/${1##*/}.failed"' _ {} "$dir"
    cat "$dir"/*.log
    ! ls "$dir"/*.failed >/dev/null 2>&1
}
run_part layers tests/checks/layers.sh
run_part format tests/checks/format.sh
run_part unit run_units
# every fuzz corpus through its target (tests/fuzz/README.md)
replay_corpora() {
    local t rc=0
    for t in "$O"/fuzz/fuzz_*; do "$t" "tests/fuzz/corpus/${t##*/fuzz_}" || rc=1; done
    return $rc
}
run_part "fuzz corpora" replay_corpora
run_part sql tests/run_sql.sh

# selected NAME: true when INTEGRATION is unset or lists NAME.
selected() {
    [ -z "${INTEGRATION+x}" ] && return 0
    case " $INTEGRATION " in *" $1 "*) return 0 ;; esac
    return 1
}

for name in ${INTEGRATION:-}; do
    [ -f "tests/integration/$name.sh" ] || { echo "INTEGRATION: no tests/integration/$name.sh"; exit 2; }
done
shared=(); alone=()
for t in tests/integration/*.sh; do
    case "$t" in *_lib.sh) continue ;; esac   # helpers sourced by the tests
    selected "$(basename "$t" .sh)" || continue
    if grep -q '^# sluice-test: exclusive' "$t"; then alone+=("$t"); else shared+=("$t"); fi
done
rm -f "$logs"/*.status
pending=()
for t in "${shared[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    start_script "$t"
    pending+=("$(basename "$t" .sh)")
done
wait
for name in "${pending[@]}"; do finish_script "$name"; done
for t in "${alone[@]}"; do
    start_script "$t"
    wait
    finish_script "$(basename "$t" .sh)"
done

# sanitizer_reports: fails when a sanitizer wrote a report (printing each).
sanitizer_reports() {
    local f rc=0
    for f in "$reports"/*; do
        [ -e "$f" ] || continue
        echo "== $f"; cat "$f"; rc=1
    done
    return $rc
}
run_part "sanitizer reports" sanitizer_reports

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
