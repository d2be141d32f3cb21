#!/bin/sh
# Run every Check suite; each prints Check's own summary line. Exit non-zero if any failed.
failed=0
total=0
for t in "$@"; do
	total=$((total + 1))
	if ! "$t"; then
		echo "FAILED: $t"
		failed=$((failed + 1))
	fi
done
echo "unit test suites: $total run, $failed failed"
[ "$failed" -eq 0 ]
