#!/usr/bin/env bash
# The Nexmark queries sluice can express (bench/nexmark/q*.sql) over the
# built-in nexmark source: each query runs TRIGGER AVAILABLE NOW into SINK
# noop over EVENTS events, in a daemon of its own (so VmHWM is that query's
# peak RSS). Figures are the daemon's: CPU = utime + stime from
# /proc/PID/stat from before CREATE QUERY to the end of AWAIT QUERY, peak RSS
# = VmHWM from /proc/PID/status at the end. Three rounds, the queries
# alternating within each round; prints every run, then per query the median
# and range of the three.
#
# The streams generate EPS events per second of event time (default 10 M,
# the rate of nexmark-flink's default workload suite), starting when the
# query starts; an AVAILABLE NOW run takes what is available when it starts,
# so the script runs the query once at creation (a few events), waits until
# all EVENTS are available, then runs it again with START QUERY: the figures
# cover both runs, so every event is counted once.
# Usage: bench/nexmark/run.sh [EVENTS] [QUERIES]   (e.g. 10000000 "q5 q7";
# BIN=bin by default; ROUNDS=3; SLUICED_OPTS passes daemon options, QUERY_OPTIONS
# query options, e.g. "'sluice.stateStore.maxMemory' '8g'" for q7 at 10 M
# events, whose join keeps every bid of the open window)
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
events=${1:-1000000}
queries=${2:-"q0 q1 q2 q3 q5 q7 q8"}
rounds=${ROUNDS:-3}
eps=${EPS:-10000000}
hz=$(getconf CLK_TCK)
work=$(mktemp -d /tmp/sluice-bench-nexmark-XXXXXX)
trap 'kill -9 ${SL_PID:-} 2>/dev/null; rm -rf "$work"' EXIT
q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SL_PORT" -U sluice -d sluice "$@"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$SL_PID/stat"; }
peak_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$SL_PID/status"; }

# streams: the three nexmark tables, one consistent site.
streams() {
    local t
    for t in person auction bid; do
        q -c "CREATE STREAM $t USING nexmark OPTIONS (table '$t', eventsPerSecond '$eps', maxEvents '$events')" ||
            return 1
    done
}

# run_one QUERY: prints "query events cpu_s mev_per_cpu_s peak_mb".
run_one() {
    local name=$1 sql c0 c1
    sql=$(grep -v '^--' "bench/nexmark/$name.sql")
    rm -rf "$work/d"
    start_daemon "$work/d" ${SLUICED_OPTS:-} >/dev/null || return 1
    streams || return 1
    c0=$(cpu_ticks)
    local opts=""
    [ -n "${QUERY_OPTIONS:-}" ] && opts="OPTIONS ($QUERY_OPTIONS)"
    q -c "CREATE QUERY $name SINK noop TRIGGER AVAILABLE NOW $opts AS $sql" || return 1
    q -c "AWAIT QUERY $name TIMEOUT '10 minutes'" || return 1
    # every event is available once EVENTS / EPS seconds of event time passed
    sleep "$(awk -v n="$events" -v r="$eps" 'BEGIN { printf "%.3f", n / r + 0.2 }')"
    q -c "START QUERY $name" -c "AWAIT QUERY $name TIMEOUT '10 minutes'" || return 1
    c1=$(cpu_ticks)
    local peak; peak=$(peak_kb)
    stop_daemon >/dev/null
    awk -v n="$name" -v e="$events" -v t=$((c1 - c0)) -v hz="$hz" -v p="$peak" 'BEGIN {
        s = t / hz; printf "%s %d %.2f %.3f %.0f\n", n, e, s, (s > 0 ? e / s / 1e6 : 0), p / 1024 }'
}

printf '%-4s %10s %8s %12s %8s\n' query events cpu_s 'Mev/cpu_s' peak_MB
for ((r = 0; r < rounds; r++)); do
    for name in $queries; do
        line=$(run_one "$name") || { echo "$name: failed (log: $work/d/log)"; tail -5 "$work/d/log"; exit 1; }
        echo "$line" >>"$work/runs"
        echo "$line" | awk '{ printf "%-4s %10d %8.2f %12.3f %8d\n", $1, $2, $3, $4, $5 }'
    done
done
echo "median [min - max] of $rounds runs, $events events, eventsPerSecond $eps"
for name in $queries; do
    awk -v n="$name" '$1 == n { c[++k] = $3; m[k] = $4; p[k] = $5 }
    function med(a, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
            if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((k + 1) / 2)] }
    END { lo_m = m[1]; hi_m = m[1]; for (i = 1; i <= k; i++) { if (m[i] < lo_m) lo_m = m[i]; if (m[i] > hi_m) hi_m = m[i] }
          lo_p = p[1]; hi_p = p[1]; for (i = 1; i <= k; i++) { if (p[i] < lo_p) lo_p = p[i]; if (p[i] > hi_p) hi_p = p[i] }
          printf "%-4s cpu %.2f s  %.3f [%.3f - %.3f] M events/cpu-s  peak RSS %d [%d - %d] MB\n",
                 n, med(c, k), med(m, k), lo_m, hi_m, med(p, k), lo_p, hi_p }' "$work/runs"
done
