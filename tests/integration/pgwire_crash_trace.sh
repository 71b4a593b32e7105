#!/usr/bin/env bash
# A daemon crash leaves a trace (common/crash.h): the failpoint
# pgwire.query=segv makes sluiced die of SIGSEGV at the first simple Query;
# the log must name the signal and hold a backtrace with at least one frame
# naming a sluice function, and the exit status must be the signal's (139).
# Under AddressSanitizer (SANITIZE=1) ASan's own report replaces ours: the
# test then checks that report instead.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
SLUICE_FAILPOINT=pgwire.query=segv start_daemon "$T" -c authentication=trust || exit 1
status=0
sql -c 'SELECT 1' >/dev/null 2>&1 && { echo "FAIL: the query answered; the failpoint did not fire"; status=1; }
wait_for 20 bash -c "! kill -0 $SL_PID" || { echo "FAIL: sluiced still running"; exit 1; }
wait "$SL_PID"; rc=$?
SL_PID=""
echo "exit status $rc"
sed -n '/failpoint reached/,$p' "$T/log"
if grep -q 'AddressSanitizer' "$T/log"; then
    grep -q 'AddressSanitizer: SEGV\|AddressSanitizer:DEADLYSIGNAL' "$T/log" || { echo "FAIL: no ASan report"; status=1; }
else
    [ "$rc" -eq 139 ] || { echo "FAIL: exit status $rc, want 139 (SIGSEGV)"; status=1; }
    grep -q 'FATAL crash: received signal SIGSEGV (invalid memory reference)' "$T/log" ||
        { echo "FAIL: the log does not name the signal"; status=1; }
    frames=$(sed -n '/FATAL crash: received signal/,/FATAL crash: end of backtrace/p' "$T/log")
    echo "$frames" | grep -q '(failpoint_hit+0x[0-9a-f]*)\|(pgw_conn_process+0x[0-9a-f]*)' ||
        { echo "FAIL: no backtrace frame names a sluice function"; status=1; }
    grep -q 'FATAL crash: end of backtrace; dying of SIGSEGV' "$T/log" ||
        { echo "FAIL: the backtrace has no end line"; status=1; }
fi
[ $status -eq 0 ] && echo "pgwire_crash_trace: ok"
exit $status
