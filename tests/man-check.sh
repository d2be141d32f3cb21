#!/bin/sh
# Documentation and export checks:
#  - the shared library exports only ds_* symbols;
#  - every exported symbol has man/man3/<symbol>.3 (a page or a .so link to its family page);
#  - every page renders with groff -ww without a warning.
set -u
BUILD=${BUILD:-build}
lib="$BUILD/lib/libdaemonset.so"
status=0
syms=$(nm -D --defined-only "$lib" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u)
[ -n "$syms" ] || { echo "man-check: no symbols in $lib"; exit 1; }
for s in $syms; do
	case "$s" in
	ds_*) ;;
	*) echo "man-check: exported symbol outside the ds_ namespace: $s"; status=1 ;;
	esac
	if [ ! -f "man/man3/$s.3" ]; then
		echo "man-check: $s has no man page (man/man3/$s.3)"
		status=1
	fi
done
pages=0
for p in man/man1/*.1 man/man3/*.3 man/man5/*.5 man/man7/*.7; do
	[ -f "$p" ] || continue
	pages=$((pages + 1))
	out=$(cd man && groff -ww -man -Tutf8 -z "${p#man/}" 2>&1)
	if [ -n "$out" ]; then
		echo "man-check: $p: $out"
		status=1
	fi
done
n=$(echo "$syms" | wc -l)
if [ $status -eq 0 ]; then
	echo "man-check: $n exported symbols, all ds_*, all documented; $pages pages render without warnings"
fi
exit $status
