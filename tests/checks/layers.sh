#!/usr/bin/env bash
# The layer check: every `#include "folder/..."` in the product folders must
# point at the same folder or at a folder below it in the order written in
# docs/internals.md (the fenced block that follows the line "Layers, bottom
# first:"; one folder per line, `# ...` comments allowed). A folder of the
# product that the order does not name is an error too, so a new folder has
# to be placed before it can be used. Prints each offending include as
# file:line and exits 1 when there is one.
set -u
cd "$(dirname "$0")/../.."
doc=docs/internals.md
mapfile -t order < <(awk '/^Layers, bottom first:/ { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { sub(/#.*/, ""); gsub(/[ \t]/, ""); if ($0 != "") print }' "$doc")
[ ${#order[@]} -gt 1 ] || { echo "FAIL: no layer order found in $doc"; exit 1; }

declare -A rank
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done

bad=0
for dir in */; do
    dir=${dir%/}
    ls "$dir"/*.[chy] >/dev/null 2>&1 || continue
    case $dir in tests|bench|build|bin) continue ;; esac
    if [ -z "${rank[$dir]+x}" ]; then
        echo "FAIL: folder $dir/ has C files but no place in the layer order of $doc"; bad=1; continue
    fi
    while IFS=: read -r file line target; do
        [ "$target" = "$dir" ] && continue
        if [ -z "${rank[$target]+x}" ]; then
            echo "$file:$line: includes $target/, which is not in the layer order"; bad=1
        elif [ "${rank[$target]}" -ge "${rank[$dir]}" ]; then
            echo "$file:$line: $dir/ includes $target/, which is not below it"; bad=1
        fi
    done < <(grep -nHoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$dir"/*.[chy] 2>/dev/null \
             | sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]+"/:/; s/\/$//')
done
[ $bad = 0 ] && echo "layers: ${order[*]} (bottom first): no include against the order"
exit $bad
