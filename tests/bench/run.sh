#!/bin/sh
# make bench: build the benchmark against the optimised static library and run it.
# BENCH_SIZES=1000,5000 overrides the cluster sizes (default 1000,5000,20000,100000).
set -eu
BUILD=${BUILD:-build/bench}
sizes=${BENCH_SIZES:-1000,5000,20000,100000}
cc -std=c11 -O2 -g -Iinclude $(pkg-config --cflags jansson) tests/bench/bench.c tests/bench/gen.c "$BUILD/lib/libdaemonset.a" \
	$(pkg-config --libs jansson yaml-0.1) -lpthread -lm -o "$BUILD/bench"
"$BUILD/bench" -j -s "$sizes" > "$BUILD/bench.out"
# the JSON document comes first, the tables after it
sed -n '/^{/,/^}/p' "$BUILD/bench.out" > "$BUILD/bench.json"
sed '/^{/,/^}/d' "$BUILD/bench.out"
echo "(JSON: $BUILD/bench.json)"
