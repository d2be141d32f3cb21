#!/bin/sh
# Run every unit test binary under valgrind memcheck: zero errors and zero leaks required.
#
#   BUILD=build/valgrind sh tests/valgrind.sh [BINARY...]
#
# Environment: BUILD, VALGRIND (the program), VALGRIND_ARGS (more memcheck options).
# `make valgrind` builds the tests into build/valgrind with -O1 -g and calls this script. Without
# arguments every $BUILD/tests/test_* runs. Check runs in-process (CK_FORK=no) so that valgrind
# sees the tests themselves. Each binary prints one summary line; the full report is in
# $BUILD/valgrind-logs/NAME.log. A leak of any kind but "still reachable" is an error
# (definite, indirect, possible). tests/valgrind.supp, when present, is passed to valgrind.
# The script installs nothing. Exit status: 0 clean, 1 errors, leaks or failed tests, 2 no valgrind
# or no test binaries.
# SPDX-License-Identifier: Apache-2.0

set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build/valgrind}
VALGRIND=${VALGRIND:-valgrind}
VALGRIND_ARGS=${VALGRIND_ARGS:-} # e.g. --track-origins=yes when chasing an uninitialised value
ERROR_EXIT=97 # valgrind's exit status when it found an error (distinct from a test failure's 1)

if ! command -v "$VALGRIND" >/dev/null 2>&1; then
	echo "valgrind: not found. Install it with: sudo apt-get install -y valgrind"
	echo "valgrind: FAILED"
	exit 2
fi

if [ $# -eq 0 ]; then
	set -- "$BUILD"/tests/test_*
	if [ ! -x "$1" ]; then
		echo "valgrind: no test binaries in $BUILD/tests (run: make valgrind)"
		exit 2
	fi
fi

SUPP=""
[ -f tests/valgrind.supp ] && SUPP="--suppressions=tests/valgrind.supp"
LOGS="$BUILD/valgrind-logs"
mkdir -p "$LOGS" || exit 2

CK_FORK=no
export CK_FORK

total=0
bad=0
for t in "$@"; do
	total=$((total + 1))
	name=$(basename "$t")
	log="$LOGS/$name.log"
	out="$LOGS/$name.out"
	# shellcheck disable=SC2086
	"$VALGRIND" --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --num-callers=30 \
		--error-exitcode=$ERROR_EXIT $SUPP $VALGRIND_ARGS --log-file="$log" "$t" >"$out" 2>&1
	rc=$?
	errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -n 1)
	definite=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -n 1)
	indirect=$(sed -n 's/.*indirectly lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -n 1)
	possible=$(sed -n 's/.*possibly lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -n 1)
	checks=$(grep -E '^[0-9]+%: Checks:' "$out" | tail -n 1)
	# no leak summary at all means nothing was allocated at exit: "All heap blocks were freed"
	leaks="definitely ${definite:-0}, indirectly ${indirect:-0}, possibly ${possible:-0} bytes lost"
	line="$name: ${errors:-?} errors, $leaks; ${checks:-no Check summary}"
	if [ "$rc" -eq 0 ] && [ "${errors:-1}" -eq 0 ]; then
		echo "valgrind: $line"
	else
		bad=$((bad + 1))
		why="exit $rc"
		[ "$rc" -eq "$ERROR_EXIT" ] && why="memcheck errors"
		echo "valgrind: $line: FAILED ($why; see $log and $out)"
		grep -E '^==[0-9]+== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|[0-9,]+ bytes in)' "$log" |
			head -n 5 | sed 's/^/valgrind:   /'
	fi
done
if [ "$bad" -eq 0 ]; then
	echo "valgrind: $total binaries, 0 errors, 0 leaks: clean"
	exit 0
fi
echo "valgrind: $bad of $total binaries FAILED"
exit 1
