#!/usr/bin/env bash
# The format check: every C source and header git tracks must be as
# clang-format leaves it under the committed .clang-format. Prints each file
# that is not (with the first lines of what clang-format would change) and
# exits 1 when there is one; `make format` rewrites them.
set -u
cd "$(dirname "$0")/../.."
command -v clang-format >/dev/null || { echo "FAIL: clang-format is not installed (make deps)"; exit 1; }
bad=0
while IFS= read -r f; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
        echo "FAIL: $f is not formatted (make format); clang-format would change:"
        clang-format --style=file "$f" | diff -u "$f" - | sed -n '3,12p'
        bad=1
    fi
done < <(git ls-files '*.c' '*.h')
[ $bad -eq 0 ] && echo "ok   every tracked .c and .h file is formatted"
exit $bad
