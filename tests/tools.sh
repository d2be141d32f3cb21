#!/bin/sh
# The tools of one reliability target, installed when missing (the build dependencies are
# `make deps`; these are only needed by the targets named here).
#
#   sh tests/tools.sh fuzz | tsan | valgrind | lint
#
# fuzz and tsan need clang and its compiler-rt (libFuzzer, ASan, UBSan, TSan runtimes; Debian
# packages clang and libclang-rt-MAJOR-dev, MAJOR the clang's own); valgrind needs valgrind, lint
# cppcheck.
# (abi-check installs abigail-tools in tests/abi/check.sh.) Each is probed by using it, not by
# asking the package manager, so another distribution's clang serves as well. As root with apt-get
# the missing packages are installed; otherwise the exact command is printed and the status is 1.
# SPDX-License-Identifier: Apache-2.0

set -u
CC=${CC:-clang}
case "$CC" in cc | gcc*) CC=clang ;; esac # make's default CC; these targets want clang

# the sanitizer flags a target's probe program is linked with
case "${1:-}" in
fuzz) flags="-fsanitize=fuzzer,address,undefined" ;;
tsan) flags="-fsanitize=thread" ;;
valgrind | lint) flags="" ;;
*)
	echo "usage: sh tests/tools.sh fuzz | tsan | valgrind | lint"
	exit 2
	;;
esac

# works: the target's toolchain builds (and for valgrind: runs) a trivial program
works() {
	if [ "$1" = valgrind ] || [ "$1" = lint ]; then
		tool=valgrind
		[ "$1" = lint ] && tool=cppcheck
		command -v $tool >/dev/null 2>&1 && $tool --version >/dev/null 2>&1
		return
	fi
	command -v "$CC" >/dev/null 2>&1 || return 1
	probe=$(mktemp -d) || return 1
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; return (int)(n & 0); }\n' >"$probe/p.c"
	[ "$1" = tsan ] && echo 'int main(void) { return LLVMFuzzerTestOneInput(0, 0); }' >>"$probe/p.c"
	# shellcheck disable=SC2086
	"$CC" $flags "$probe/p.c" -o "$probe/p" >/dev/null 2>&1
	rc=$?
	rm -rf "$probe"
	return $rc
}

works "$1" && exit 0

if [ "$1" = valgrind ]; then
	pkgs="valgrind"
elif [ "$1" = lint ]; then
	pkgs="cppcheck"
else
	# the runtime package follows the compiler's major version (Debian 12: clang 14)
	major=$("$CC" --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
	if [ -z "$major" ] && command -v apt-cache >/dev/null 2>&1; then
		major=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1)
	fi
	pkgs="clang libclang-rt-${major:-14}-dev"
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "$1: installing $pkgs"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null || {
		echo "$1: FAILED: apt-get install $pkgs failed"
		exit 1
	}
	works "$1" && exit 0
	echo "$1: FAILED: $pkgs installed, but the toolchain still does not build a $1 program"
	exit 1
fi
echo "$1: missing tools. Install them with:"
echo "  sudo apt-get install -y $pkgs"
exit 1
