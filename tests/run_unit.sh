#!/usr/bin/env bash
# Runs unit test binaries given as arguments; each prints "N passed, N failed".
status=0
for t in "$@"; do
    echo "== $(basename "$t")"
    timeout 600 "$t" || status=1
done
exit $status
