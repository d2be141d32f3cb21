#!/bin/sh
# make bench: build the benchmark against the optimised static library and run it.
# BENCH_SIZES=1000,5000 overrides the cluster sizes (default 1000,5000,20000,100000);
# BENCH_TOPOLOGY=10000:5 overrides the whole-profile explain's NODES:PODS_PER_NODE (default 10000:5,20000:5);
# BENCH_PURE_ONLY=1 measures the pure functions only (tests/bench/pure.c and pure.py);
# BENCH_INGEST_ONLY=1 runs the ingest section only (tests/bench/ingest.c), BENCH_INGEST_SIZES=1000,10000
# overrides its dump sizes (default 1000,10000,50000), BENCH_INGEST=0 leaves it out.
set -eu
BUILD=${BUILD:-build/bench}
sizes=${BENCH_SIZES:-1000,5000,20000,100000}
topology=${BENCH_TOPOLOGY:-10000:5,20000:5}
only=
[ -n "${BENCH_PURE_ONLY:-}" ] && only=-P
JCFLAGS=$(pkg-config --cflags jansson yaml-0.1)
JLIBS=$(pkg-config --libs jansson yaml-0.1)

if [ -z "${BENCH_INGEST_ONLY:-}" ]; then
	cc -std=c11 -O2 -g -Iinclude $JCFLAGS tests/bench/bench.c tests/bench/gen.c tests/bench/pure.c \
		"$BUILD/lib/libdaemonset.a" $JLIBS -lpthread -lm -o "$BUILD/bench"
	"$BUILD/bench" -j -s "$sizes" -T "$topology" -I "$BUILD/pure_inputs.json" $only > "$BUILD/bench.out"
	# the JSON document comes first, the tables after it
	sed -n '/^{/,/^}/p' "$BUILD/bench.out" > "$BUILD/bench.json"
	sed '/^{/,/^}/d' "$BUILD/bench.out"
	# the pure functions from Python, on the same objects, against the C figures
	if command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
		DAEMONSET_LIB="$(pwd)/$BUILD/lib/libdaemonset.so.1" PYTHONPATH="$(pwd)/examples/python" \
			"${PYTHON:-python3}" tests/bench/pure.py "$BUILD/pure_inputs.json" "$BUILD/bench.json"
	fi
	echo "(JSON: $BUILD/bench.json, $BUILD/bench_python.json)"
fi
[ -n "${BENCH_PURE_ONLY:-}" ] || [ "${BENCH_INGEST:-1}" = 0 ] && exit 0

# ---- ingest: whole dumps, each measurement in a process of its own (tests/bench/ingest.c) ----------
I="$BUILD/ingest"
mkdir -p "$I"
probe() { # probe OUT LIBRARY INCLUDE: the probe linked against one build of the library
	cc -std=c11 -O2 -g -I"$3" $JCFLAGS tests/bench/ingest_probe.c "$2" $JLIBS -lpthread -lm -o "$1"
}
probe "$I/ingest_probe" "$BUILD/lib/libdaemonset.a" include
cc -std=c11 -O2 -g $JCFLAGS tests/bench/ingest.c tests/bench/gen.c $JLIBS -o "$I/ingest"

# "today": the library as it was before issue 34's ingest work (the parent of 3094cc6, which began it),
# built from this repository's history. Without that commit (a tarball, a shallow clone) the column
# stays empty and the figures stand in for it: 70-81 MB/s on JSON dumps.
BASE=${BENCH_INGEST_BASE:-1833114}
if [ ! -f "$I/base/build/lib/libdaemonset.a" ]; then
	if git cat-file -e "$BASE^{commit}" 2>/dev/null; then
		echo "ingest: building the baseline library (commit $BASE)..." >&2
		rm -rf "$I/base" && mkdir -p "$I/base/src"
		git archive "$BASE" | tar -x -C "$I/base/src"
		make --no-print-directory -C "$I/base/src" BUILD="$(pwd)/$I/base/build" CFLAGS="-O2 -g" WERROR=0 \
			-j2 "$(pwd)/$I/base/build/lib/libdaemonset.a" >"$I/base/build.log" 2>&1 ||
			echo "ingest: the baseline did not build ($I/base/build.log): TODAY is the issue's 70-81 MB/s" >&2
	else
		echo "ingest: commit $BASE is not in this clone: TODAY is the issue's 70-81 MB/s (not measured)" >&2
	fi
fi
rm -f "$I/ingest_probe_base"
if [ -f "$I/base/build/lib/libdaemonset.a" ]; then
	probe "$I/ingest_probe_base" "$I/base/build/lib/libdaemonset.a" "$I/base/src/include"
fi

# the SIMDJSON=1 build (the fast front end) and simdjson's bare parse, when simdjson is installed
# (sh tests/tools.sh simdjson); without it those columns stay empty
rm -f "$I/ingest_probe_simd"
if pkg-config --exists simdjson 2>/dev/null && command -v c++ >/dev/null 2>&1; then
	make --no-print-directory SIMDJSON=1 BUILD="$BUILD-simd" CFLAGS="-O2 -g" -j2 lib >/dev/null
	c++ -std=c++17 -O2 -g -c tests/bench/ingest_simd.cpp $(pkg-config --cflags simdjson) -o "$I/ingest_simd.o"
	cc -std=c11 -O2 -g -DBENCH_SIMDJSON -Iinclude $JCFLAGS tests/bench/ingest_probe.c "$I/ingest_simd.o" \
		"$BUILD-simd/lib/libdaemonset.a" $JLIBS $(pkg-config --libs simdjson) -lstdc++ -lpthread -lm \
		-o "$I/ingest_probe_simd"
fi

nproc_=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
echo "ingest: $nproc_ online CPUs; $(uptime | sed 's/.*load average/load average/')" >&2
"$I/ingest" -b "$I" -j -s "${BENCH_INGEST_SIZES:-1000,10000,50000}" > "$I/ingest.out"
sed -n '/^{/,/^}/p' "$I/ingest.out" > "$BUILD/bench_ingest.json"
sed '/^{/,/^}/d' "$I/ingest.out"
echo "($nproc_ online CPUs, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?');"
echo " JSON: $BUILD/bench_ingest.json; dumps in $I/dumps)"
