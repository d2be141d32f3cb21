#!/bin/sh
# Compile lib/*/*.c with $CC and $CFLAGS into OBJDIR (two at a time; only what is stale: an object
# missing, or older than its source or than any header of include/ and lib/) and archive them as
# ARCHIVE. tests/fuzz/run.sh and tests/tsan/run.sh build the library with their own sanitizers
# through it.
#
#   CC=clang CFLAGS="..." sh tests/lib-archive.sh OBJDIR ARCHIVE
#
# Exit status: 0, or 1 when a file does not compile (its errors are printed) or ar fails.
# SPDX-License-Identifier: Apache-2.0

set -u
cd "$(dirname "$0")/.." || exit 1
OBJDIR=$1
ARCHIVE=$2

stale() { # OBJ SRC
	[ ! -f "$1" ] || [ -n "$(find "$2" -newer "$1" 2>/dev/null)" ] ||
		[ -n "$(find include lib -name '*.h' -newer "$1" 2>/dev/null | head -n 1)" ]
}

compile() { # SRC OBJ
	mkdir -p "$(dirname "$2")"
	# shellcheck disable=SC2086
	$CC $CFLAGS -c "$1" -o "$2" 2>"$2.log" || {
		cat "$2.log"
		return 1
	}
	rm -f "$2.log"
}

pids=""
n=0
failed=0
objs=""
for src in lib/*/*.c; do
	obj="$OBJDIR/${src%.c}.o"
	objs="$objs $obj"
	stale "$obj" "$src" || continue
	compile "$src" "$obj" &
	pids="$pids $!"
	n=$((n + 1))
	if [ "$n" -ge 2 ]; then
		for p in $pids; do wait "$p" || failed=1; done
		pids=""
		n=0
	fi
done
for p in $pids; do wait "$p" || failed=1; done
[ "$failed" -eq 0 ] || exit 1
rm -f "$ARCHIVE"
# shellcheck disable=SC2086
ar rcs "$ARCHIVE" $objs
