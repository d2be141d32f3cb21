#!/bin/sh
# Build the libFuzzer targets (tests/fuzz/fuzz_*.c) and run each for a bounded time.
#
#   sh tests/fuzz/run.sh                  build, then run every target for FUZZ_SECONDS
#   sh tests/fuzz/run.sh build            build only
#   sh tests/fuzz/run.sh run [TARGET...]  run the named targets (default: all), building first
#   sh tests/fuzz/run.sh repro TARGET FILE...  run a target once on the given inputs (no fuzzing)
#
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60; CI uses at least 30)
#   FUZZ_JOBS     targets run at the same time (default 1; 2 on a 2-core machine)
#   FUZZ_BUILD    build and work directory (default build/fuzz)
#   FUZZ_ARGS     extra libFuzzer flags for every run (e.g. "-jobs=1 -seed=1")
#   CC            a clang with libFuzzer (default clang)
#
# The library is compiled from lib/*/*.c here with -fsanitize=fuzzer-no-link,address,undefined
# (no other build directory is reused); each target links it with -fsanitize=fuzzer,address,undefined.
# Each target fuzzes into $FUZZ_BUILD/corpus/TARGET, seeded read-only from tests/fuzz/corpus/TARGET
# and tests/vectors/regress/TARGET (the minimised inputs of past findings, see test_regress_fuzz.c);
# crashes, leaks, timeouts and out-of-memory inputs land in $FUZZ_BUILD/artifacts/TARGET/, full logs in
# $FUZZ_BUILD/logs/TARGET.log. The script installs nothing. Exit status: 0 when every target ran clean,
# 1 when one found something, 2 when the build failed or the toolchain is missing.
# SPDX-License-Identifier: Apache-2.0

set -u
cd "$(dirname "$0")/../.." || exit 2

CC=${CC:-clang}
case "$CC" in cc | gcc*) CC=clang ;; esac # make's default CC is not a libFuzzer compiler
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_ARGS=${FUZZ_ARGS:-}
B=${FUZZ_BUILD:-build/fuzz}
MODE=${1:-all}
[ $# -gt 0 ] && shift

# Per target: the dictionaries (tests/fuzz/dict/*.dict, concatenated) and -max_len.
target_dicts() {
	case "$1" in
	fuzz_load_json | fuzz_events | fuzz_node_event | fuzz_jsonfront | fuzz_jsonfast) echo "json k8s" ;;
	fuzz_load_yaml) echo "yaml k8s" ;;
	fuzz_quantity) echo "quantity" ;;
	fuzz_selector_string) echo "selector" ;;
	fuzz_selector_json) echo "selector json" ;;
	*) echo "json yaml k8s" ;;
	esac
}
target_max_len() {
	case "$1" in
	fuzz_quantity) echo 128 ;;
	fuzz_selector_*) echo 1024 ;;
	fuzz_fit | fuzz_plan) echo 16384 ;;
	*) echo 32768 ;;
	esac
}

die_build() {
	echo "fuzz: $*"
	echo "fuzz: FAILED (build)"
	exit 2
}

command -v "$CC" >/dev/null 2>&1 ||
	die_build "$CC not found; libFuzzer needs clang and its runtime: apt-get install -y clang libclang-rt-14-dev (or set CC)"
command -v pkg-config >/dev/null 2>&1 || die_build "pkg-config not found (make deps installs it)"
PKG_CFLAGS=$(pkg-config --cflags jansson yaml-0.1) || die_build "jansson or libyaml development files missing (make deps)"
PKG_LIBS=$(pkg-config --libs jansson yaml-0.1)
# With simdjson installed (sh tests/tools.sh simdjson) the library is built with its front end
# (SIMDJSON=1), so that fuzz_jsonfront compares the two and every ingest target goes through it;
# FUZZ_SIMDJSON=0 builds the default front end alone.
SIMD=0
if [ "${FUZZ_SIMDJSON:-1}" = 1 ] && pkg-config --exists simdjson 2>/dev/null; then
	SIMD=1
	PKG_CFLAGS="$PKG_CFLAGS $(pkg-config --cflags simdjson) -DDSI_SIMDJSON"
	PKG_LIBS="$PKG_LIBS $(pkg-config --libs simdjson) -lstdc++"
fi
# the targets are C; with the C++ front end they link through clang++, which brings UBSan's C++
# runtime (the vptr checks of the front end's objects)
LINK=$CC
[ "$SIMD" = 1 ] && LINK="$CC++"

# The language and warning flags are the Makefile's own (make print-STD, print-WARN, print-SAN_FLAGS).
STD=$(make -s --no-print-directory print-STD) || die_build "make print-STD failed"
WARN=$(make -s --no-print-directory print-WARN)
SAN=$(make -s --no-print-directory print-SAN_FLAGS)
# The targets use a few POSIX/C11 things only; same warnings, and the internal headers for the
# quantity round trip.
CFLAGS_TARGET="$STD $WARN -g -O1 $SAN -Iinclude -Ilib -Itests/fuzz $PKG_CFLAGS"

mkdir -p "$B/obj" "$B/dict" "$B/logs" || exit 2
# Stack traces for UBSan reports too (ASan prints them anyway).
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export UBSAN_OPTIONS

# A toolchain check with a clear message rather than a wall of linker errors.
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
	>"$B/probe.c"
"$CC" -fsanitize=fuzzer,address,undefined "$B/probe.c" -o "$B/probe" >"$B/probe.log" 2>&1 ||
	die_build "$CC cannot build a libFuzzer program (see $B/probe.log); Debian: apt-get install -y clang libclang-rt-14-dev"

# ---- build -----------------------------------------------------------------------------------
build() {
	# the Makefile's own rule for the static archive, in a build directory of its own
	make -s --no-print-directory -j2 BUILD="$B" CC="$CC" CXX="$CC++" SIMDJSON=$SIMD CFLAGS="-g -O1" \
		EXTRA_CFLAGS="$SAN -fsanitize=fuzzer-no-link" "$B/lib/libdaemonset.a" ||
		die_build "the library does not compile with $CC and the sanitizers"
	for src in tests/fuzz/fuzz_*.c; do
		t=$(basename "$src" .c)
		# shellcheck disable=SC2086
		$CC $CFLAGS_TARGET -fsanitize=fuzzer -c "$src" -o "$B/obj/$t.o" &&
			$LINK -g $SAN -fsanitize=fuzzer "$B/obj/$t.o" "$B/lib/libdaemonset.a" $PKG_LIBS -lpthread -lm \
				-o "$B/$t" || die_build "$t does not build"
		: >"$B/dict/$t.dict"
		for d in $(target_dicts "$t"); do cat "tests/fuzz/dict/$d.dict" >>"$B/dict/$t.dict"; done
	done
	echo "fuzz: built $(set -- tests/fuzz/fuzz_*.c; echo $#) targets in $B with $CC$([ $SIMD = 1 ] && echo ', the simdjson front end in')"
}

# ---- run -----------------------------------------------------------------------------------
# One target for FUZZ_SECONDS; prints its summary line; returns 0 clean, 1 finding.
run_one() {
	t=$1
	log="$B/logs/$t.log"
	mkdir -p "$B/corpus/$t" "$B/artifacts/$t"
	# seeds (read-only): the samples, then every past finding (tests/vectors/regress/TARGET)
	seeds=""
	for d in "tests/fuzz/corpus/$t" "tests/vectors/regress/$t"; do
		[ -d "$d" ] && seeds="$seeds $d"
	done
	# shellcheck disable=SC2086
	"$B/$t" -max_total_time="$FUZZ_SECONDS" -max_len="$(target_max_len "$t")" -timeout=30 \
		-rss_limit_mb=3072 -malloc_limit_mb=2048 -print_final_stats=1 -dict="$B/dict/$t.dict" \
		-artifact_prefix="$B/artifacts/$t/" $FUZZ_ARGS "$B/corpus/$t" $seeds >"$log" 2>&1
	rc=$?
	done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
	runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$log" | tail -n 1)
	cov=$(echo "$done_line" | sed -n 's/.*\(cov: [0-9]*\).*\(ft: [0-9]*\).*\(corp: [^ ]*\).*\(exec\/s: [0-9]*\).*\(rss: [^ ]*\).*/\1 \2 \3 \4 \5/p')
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		echo "fuzz: $t: $runs, $cov: clean"
		return 0
	fi
	last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1 | sed 's/^#\([0-9]*\).*/\1/')
	echo "fuzz: $t: FAILED (exit $rc) after ${runs:-${last:-0} runs}; log $log"
	grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|invariant failed|^SUMMARY:|Test unit written to|ALARM|out-of-memory' "$log" |
		head -n 8 | sed 's/^/fuzz:   /'
	return 1
}

targets_all() {
	for src in tests/fuzz/fuzz_*.c; do basename "$src" .c; done
}

run_targets() {
	total=0
	bad=0
	running=0
	pids=""
	for t in "$@"; do
		[ -x "$B/$t" ] || {
			echo "fuzz: no target $t (targets: $(targets_all | tr '\n' ' '))"
			return 2
		}
	done
	for t in "$@"; do
		total=$((total + 1))
		if [ "$FUZZ_JOBS" -le 1 ]; then
			run_one "$t" || bad=$((bad + 1))
			continue
		fi
		(run_one "$t" >"$B/logs/$t.summary") &
		pids="$pids $!:$t"
		running=$((running + 1))
		if [ "$running" -ge "$FUZZ_JOBS" ]; then
			for pt in $pids; do
				wait "${pt%%:*}" || bad=$((bad + 1))
				cat "$B/logs/${pt#*:}.summary"
			done
			pids=""
			running=0
		fi
	done
	for pt in $pids; do
		wait "${pt%%:*}" || bad=$((bad + 1))
		cat "$B/logs/${pt#*:}.summary"
	done
	if [ "$bad" -eq 0 ]; then
		echo "fuzz: $total targets, ${FUZZ_SECONDS} s each: all clean"
		return 0
	fi
	echo "fuzz: $bad of $total targets FAILED (${FUZZ_SECONDS} s each); reproduce with: sh tests/fuzz/run.sh repro TARGET FILE"
	return 1
}

case "$MODE" in
build)
	build
	;;
all)
	build
	# shellcheck disable=SC2046
	run_targets $(targets_all)
	;;
run)
	build
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2046
		set -- $(targets_all)
	fi
	run_targets "$@"
	;;
repro)
	[ $# -ge 2 ] || {
		echo "usage: sh tests/fuzz/run.sh repro TARGET FILE..."
		exit 2
	}
	build >/dev/null
	t=$1
	shift
	"$B/$t" -runs=1 "$@"
	;;
*)
	echo "usage: sh tests/fuzz/run.sh [build | run [TARGET...] | repro TARGET FILE...]"
	exit 2
	;;
esac
