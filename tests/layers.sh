#!/bin/sh
# The layering of lib/ (lib/README.md): a file of lib/LAYER may include headers of its own layer and
# of the layers below it, never above. Of the public headers, core may include only
# daemonset/common.h, and only api and scenario the umbrella daemonset.h.
# Exit status 0 when every include points down, 1 otherwise (each offending line is printed).
# SPDX-License-Identifier: Apache-2.0

set -u
cd "$(dirname "$0")/.." || exit 2
ORDER="core model apiserver sched daemon pss ops controller api scenario"

rank() {
	i=0
	for l in $ORDER; do
		[ "$l" = "$1" ] && {
			echo $i
			return
		}
		i=$((i + 1))
	done
	echo -1
}

bad=0
for dir in lib/*/; do
	layer=$(basename "$dir")
	r=$(rank "$layer")
	if [ "$r" -lt 0 ]; then
		echo "layers: lib/$layer is not a known layer (add it to ORDER in tests/layers.sh and lib/README.md)"
		bad=1
		continue
	fi
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] || continue
		# every quoted include with its line number
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
			inc=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
			case "$inc" in
			daemonset.h)
				[ "$layer" = api ] || [ "$layer" = scenario ] ||
					echo "$f:${line%%:*}: includes the umbrella header daemonset.h (only api and scenario may)"
				;;
			daemonset/common.h) ;;
			daemonset/jansson.h)
				[ "$layer" = api ] || [ "$layer" = scenario ] ||
					echo "$f:${line%%:*}: includes daemonset/jansson.h (only api and scenario may)"
				;;
			daemonset/*)
				[ "$layer" != core ] || echo "$f:${line%%:*}: core includes $inc (core may include only daemonset/common.h)"
				;;
			*/*)
				to=${inc%%/*}
				t=$(rank "$to")
				if [ "$t" -lt 0 ]; then
					echo "$f:${line%%:*}: includes $inc from an unknown folder"
				elif [ "$t" -gt "$r" ]; then
					echo "$f:${line%%:*}: $layer includes $inc, a header of $to, which is above it"
				fi
				;;
			*) echo "$f:${line%%:*}: includes \"$inc\" without its layer folder" ;;
			esac
		done
	done
done >"${TMPDIR:-/tmp}/layers.$$"
if [ -s "${TMPDIR:-/tmp}/layers.$$" ]; then
	cat "${TMPDIR:-/tmp}/layers.$$"
	bad=1
fi
rm -f "${TMPDIR:-/tmp}/layers.$$"
[ "$bad" = 0 ] && echo "layers: every include of lib/ points down ($ORDER)"
exit $bad
