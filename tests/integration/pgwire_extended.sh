#!/usr/bin/env bash
# The extended query protocol through libpq (tests/tools/pg_extended):
# parameters and NULLs, prepared statements and their description, pipeline
# error recovery at Sync, Describe+Execute running a statement once, the
# ways a driver leaves (a parameterized last statement, PQfinish without
# reading, pipelines left mid-way, during a long statement, after a cancel,
# during AWAIT QUERY; the daemon must answer after each); and an Execute
# with a row limit answered with PortalSuspended (pg_hostile row-limit).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
start_daemon "$T" -c authentication=trust || exit 1
status=0
"$O/tools/pg_extended" "host=127.0.0.1 port=$SL_PORT user=sluice dbname=sluice" || status=1
"$O/tools/pg_hostile" 127.0.0.1 "$SL_PORT" row-limit || status=1
stop_daemon || status=1
[ $status -eq 0 ] && echo "pgwire_extended: ok"
exit $status
