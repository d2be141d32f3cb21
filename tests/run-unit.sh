#!/bin/sh
# Run every Check suite; each prints Check's own summary line, in the order given. Exit non-zero if
# any failed. UNIT_JOBS suites run at once (default: the online CPUs); each one's output is kept
# apart and printed whole when its turn comes, so the log reads as a serial run's.
jobs=${UNIT_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
# Check's default per-test limit is 4 s, which a suite that takes 2 s alone overruns on a loaded
# 2-core machine with another suite beside it (and under ASan): the limit is there to catch a hang,
# so it is 60 s here unless the caller set one. Cases that set their own limit keep it.
CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}
export CK_DEFAULT_TIMEOUT
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
i=0
for t in "$@"; do
	i=$((i + 1))
	printf '%s %s\n' "$i" "$t"
done | xargs -P "$jobs" -n 2 sh -c '"$2" >"$0/$1.out" 2>&1; echo $? >"$0/$1.rc"' "$dir"
failed=0
i=0
for t in "$@"; do
	i=$((i + 1))
	cat "$dir/$i.out" 2>/dev/null
	if [ "$(cat "$dir/$i.rc" 2>/dev/null)" != 0 ]; then
		echo "FAILED: $t"
		failed=$((failed + 1))
	fi
done
echo "unit test suites: $i run, $failed failed"
[ "$failed" -eq 0 ]
