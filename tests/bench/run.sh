#!/bin/sh
# make bench: build the benchmark against the optimised static library and run it.
# BENCH_SIZES=1000,5000 overrides the cluster sizes (default 1000,5000,20000,100000);
# BENCH_PURE_ONLY=1 measures the pure functions only (tests/bench/pure.c and pure.py).
set -eu
BUILD=${BUILD:-build/bench}
sizes=${BENCH_SIZES:-1000,5000,20000,100000}
only=
[ -n "${BENCH_PURE_ONLY:-}" ] && only=-P
cc -std=c11 -O2 -g -Iinclude $(pkg-config --cflags jansson) tests/bench/bench.c tests/bench/gen.c tests/bench/pure.c \
	"$BUILD/lib/libdaemonset.a" $(pkg-config --libs jansson yaml-0.1) -lpthread -lm -o "$BUILD/bench"
"$BUILD/bench" -j -s "$sizes" -I "$BUILD/pure_inputs.json" $only > "$BUILD/bench.out"
# the JSON document comes first, the tables after it
sed -n '/^{/,/^}/p' "$BUILD/bench.out" > "$BUILD/bench.json"
sed '/^{/,/^}/d' "$BUILD/bench.out"
# the pure functions from Python, on the same objects, against the C figures
if command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
	DAEMONSET_LIB="$(pwd)/$BUILD/lib/libdaemonset.so.1" PYTHONPATH="$(pwd)/examples/python" \
		"${PYTHON:-python3}" tests/bench/pure.py "$BUILD/pure_inputs.json" "$BUILD/bench.json"
fi
echo "(JSON: $BUILD/bench.json, $BUILD/bench_python.json)"
