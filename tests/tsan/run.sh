#!/bin/sh
# Build the library and tests/tsan/tsan_test.c with ThreadSanitizer (clang) and run the test.
#
#   sh tests/tsan/run.sh [tsan_test options: -t THREADS -i ITERATIONS -n NODES]   (default 8, 2, 200)
#
# Environment: CC (default clang), TSAN_BUILD (default build/tsan). The library is compiled from
# lib/*/*.c here with -fsanitize=thread (no other build directory is reused). TSan halts on the
# first report (TSAN_OPTIONS=halt_on_error=1, exit code 66); the test itself exits 1 when a result
# differs between threads. The full output is in $TSAN_BUILD/tsan.log. The script installs nothing.
# Exit status: 0 clean, 1 a race or a differing result, 2 build failure or missing toolchain.
# SPDX-License-Identifier: Apache-2.0

set -u
cd "$(dirname "$0")/../.." || exit 2

CC=${CC:-clang}
case "$CC" in cc | gcc*) CC=clang ;; esac # make's default CC; the script wants clang's TSan
B=${TSAN_BUILD:-build/tsan}

fail_build() {
	echo "tsan: $*"
	echo "tsan: FAILED (build)"
	exit 2
}

command -v "$CC" >/dev/null 2>&1 ||
	fail_build "$CC not found; ThreadSanitizer needs clang and its runtime: apt-get install -y clang libclang-rt-14-dev"
PKG_CFLAGS=$(pkg-config --cflags jansson yaml-0.1) || fail_build "jansson or libyaml development files missing (make deps)"
PKG_LIBS=$(pkg-config --libs jansson yaml-0.1)

# The language and warning flags are the Makefile's own; the archive is built by its own rule.
STD=$(make -s --no-print-directory print-STD) || fail_build "make print-STD failed"
WARN=$(make -s --no-print-directory print-WARN)
TSAN="-fsanitize=thread -fno-omit-frame-pointer"
CFLAGS="$STD $WARN -g -O1 $TSAN -Iinclude -Ilib $PKG_CFLAGS"

make -s --no-print-directory -j2 BUILD="$B" CC="$CC" CFLAGS="-g -O1" EXTRA_CFLAGS="$TSAN" "$B/lib/libdaemonset.a" ||
	fail_build "the library does not compile with $CC -fsanitize=thread"
# shellcheck disable=SC2086
$CC $CFLAGS tests/tsan/tsan_test.c "$B/lib/libdaemonset.a" $PKG_LIBS -lpthread -lm -o "$B/tsan_test" ||
	fail_build "tests/tsan/tsan_test.c does not build"

# second_deadlock_stack and history_size make a report easier to read; halt at the first one.
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}"
export TSAN_OPTIONS
"$B/tsan_test" "$@" >"$B/tsan.log" 2>&1
rc=$?
grep '^tsan:' "$B/tsan.log"
if [ "$rc" -eq 0 ] && ! grep -q 'WARNING: ThreadSanitizer' "$B/tsan.log"; then
	echo "tsan: ThreadSanitizer reported nothing: clean"
	exit 0
fi
if grep -q 'WARNING: ThreadSanitizer' "$B/tsan.log"; then
	grep -E 'WARNING: ThreadSanitizer|^    #[0-3] |SUMMARY: ThreadSanitizer' "$B/tsan.log" | head -n 20 | sed 's/^/tsan:   /'
fi
echo "tsan: FAILED (exit $rc; full output in $B/tsan.log)"
exit 1
