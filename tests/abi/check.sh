#!/bin/sh
# The ABI baseline of libdaemonset.so.1 (libabigail).
#
#   BUILD=build sh tests/abi/check.sh dump    write tests/abi/libdaemonset.abi from $BUILD/lib/libdaemonset.so
#   BUILD=build sh tests/abi/check.sh check   compare $BUILD/lib/libdaemonset.so with every baseline
#
# tests/abi/libdaemonset.abi is the ABI as of the last deliberate change (new symbols are in it on
# purpose); tests/abi/libdaemonset-MAJOR.MINOR.abi keep the released ones (1.0), so that each check
# also shows that a program built against an older release still links and runs.
#
# `make abi-dump` and `make abi-check` build the library (default CFLAGS have -g: the comparison
# needs DWARF) and call this script. Only the public ABI counts: the layout of the opaque handles
# (every `typedef struct ds_x ds_x;` of include/, e.g. ds_cluster, ds_plan) is private and
# excluded by a suppression generated from the headers ($BUILD/abi-opaque.abignore).
#
# check runs abidiff twice: once for the report it prints, once with --no-added-syms for the
# verdict, and fails when that verdict's exit status has any of these bits (abidiff(1),
# "RETURN VALUES"):
#   1 ABIDIFF_ERROR                   abidiff itself failed (e.g. no debug information)
#   2 ABIDIFF_USAGE_ERROR             bad invocation
#   4 ABIDIFF_ABI_CHANGE              any change but added functions: libabigail sets only this
#                                     bit for type changes, even a member changing type or a
#                                     public struct growing, so it cannot tell them apart
#   8 ABIDIFF_ABI_INCOMPATIBLE_CHANGE a function or variable removed
# Added functions and variables alone pass (the report lists them). Growing a size-versioned
# struct at its end is compatible but still fails, on purpose: regenerate the baseline
# (make abi-dump) in the same commit, after reading the report. It also checks the SONAME
# (libdaemonset.so.MAJOR, MAJOR from include/daemonset/common.h) and that every exported
# symbol is a ds_* name of a DAEMONSET_* version node.
#
# abidw/abidiff come from the Debian package abigail-tools: as root the script installs it when
# missing (as `make deps` does for the build dependencies); otherwise it prints the command.
# Exit status: 0 compatible, 1 incompatible or a check failed, 2 missing tool, library or baseline.
# SPDX-License-Identifier: Apache-2.0

set -u
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
MODE=${1:-check}
LIB="$BUILD/lib/libdaemonset.so"
BASELINE=tests/abi/libdaemonset.abi
REPORT="$BUILD/abi-report.txt"

sh tests/tools.sh abi || exit 2

if [ ! -e "$LIB" ]; then
	echo "abi: $LIB not found (make BUILD=$BUILD lib)"
	exit 2
fi

# ---- checks that need no baseline ----------------------------------------------------------------
major=$(sed -n 's/^#define DS_VERSION_MAJOR //p' include/daemonset/common.h)
soname=$(readelf -d "$LIB" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
bad=0
if [ "$soname" != "libdaemonset.so.$major" ]; then
	echo "abi: SONAME is '$soname', want libdaemonset.so.$major"
	bad=1
fi
# Exported (defined, dynamic) symbols: name@@VERSION. Every one must be ds_* in a DAEMONSET_ node.
others=$(nm -D --defined-only "$LIB" | awk '{print $3}' | grep -v '^DAEMONSET_' |
	grep -v -E '^ds_[A-Za-z0-9_]+@@?DAEMONSET_[0-9.]+$' || true)
if [ -n "$others" ]; then
	echo "abi: exported symbols outside ds_*@DAEMONSET_*:"
	echo "$others" | head -n 20 | sed 's/^/abi:   /'
	bad=1
fi
nsyms=$(nm -D --defined-only "$LIB" | awk '{print $3}' | grep -c '^ds_')

case "$MODE" in
dump)
	[ "$bad" -eq 0 ] || {
		echo "abi: FAILED: not writing a baseline from a library that fails the checks above"
		exit 1
	}
	abidw --no-corpus-path --headers-dir include --drop-private-types --out-file "$BASELINE.tmp" "$LIB" || {
		rm -f "$BASELINE.tmp"
		echo "abi: FAILED: abidw (is the library built with -g?)"
		exit 1
	}
	mv "$BASELINE.tmp" "$BASELINE"
	nbase=$(grep -c "<elf-symbol name='ds_" "$BASELINE")
	echo "abi: wrote $BASELINE from $LIB ($soname, $nsyms exported symbols, $nbase of them in the baseline)"
	exit 0
	;;
check) ;;
*)
	echo "usage: BUILD=build sh tests/abi/check.sh dump|check"
	exit 2
	;;
esac

if [ ! -f "$BASELINE" ]; then
	echo "abi: no baseline $BASELINE (make abi-dump writes it)"
	exit 2
fi
# The opaque handles, from the headers: their layout is the library's business.
SUPP="$BUILD/abi-opaque.abignore"
opaque=$(grep -ho 'typedef struct ds_[A-Za-z0-9_]* ds_[A-Za-z0-9_]*;' include/daemonset.h include/daemonset/*.h |
	awk '{ sub(";", "", $4); if ($3 == $4) print $3 }' | sort -u | tr '\n' '|' | sed 's/|$//')
printf '[suppress_type]\n  label = opaque handles (typedef struct ds_x ds_x; in include/)\n  name_regexp = ^(%s)$\n' \
	"$opaque" >"$SUPP"
ABIDIFF="abidiff --headers-dir2 include --drop-private-types --fail-no-debug-info --suppressions $SUPP"
for base in tests/abi/libdaemonset-*.abi "$BASELINE"; do
	[ -f "$base" ] || continue
	$ABIDIFF "$base" "$LIB" >"$REPORT" 2>&1
	full=$?
	$ABIDIFF --no-added-syms "$base" "$LIB" >"$REPORT.verdict" 2>&1
	rc=$?
	if [ -s "$REPORT" ]; then
		sed "s#^#abi: $(basename "$base"): #" "$REPORT"
	fi
	if [ "$rc" -ne 0 ]; then
		why=""
		[ $((rc & 1)) -ne 0 ] && why="$why error"
		[ $((rc & 2)) -ne 0 ] && why="$why usage-error"
		[ $((rc & 4)) -ne 0 ] && why="$why change"
		[ $((rc & 8)) -ne 0 ] && why="$why incompatible-change"
		echo "abi: FAILED: abidiff --no-added-syms exit $rc ($why ) against $base; report in $REPORT"
		[ "$rc" -eq 4 ] &&
			echo "abi: (if the change is deliberate and compatible, e.g. a size-versioned struct grown at its end: make abi-dump and commit the baseline with it)"
		exit 1
	fi
	if [ "$full" -ne 0 ]; then
		echo "abi: compatible: only additions since $base (abidiff exit $full, see above); $soname, $nsyms exported symbols"
	else
		echo "abi: no change against $base; $soname, $nsyms exported symbols"
	fi
done
if [ "$bad" -ne 0 ]; then
	echo "abi: FAILED: see above"
	exit 1
fi
exit 0
