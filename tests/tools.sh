#!/bin/sh
# What a make target needs, installed when missing: the one place that calls apt-get.
#
#   sh tests/tools.sh build [--check] | fuzz | tsan | valgrind | lint | abi | browser | shells | typing | oracle |
#                     simdjson
#
#   build     the build dependencies of `make`, `make check` and `make demo`: a C compiler, make,
#             pkg-config, jansson, libyaml, Check, python3 with venv, libcurl (the example
#             controller's HTTP transport) and the openssl command (certificates for its HTTPS
#             tests). With --check nothing is installed: the command to run is printed (plain
#             `make` does this).
#   fuzz/tsan clang and its compiler-rt (libFuzzer, ASan, UBSan, TSan runtimes; Debian packages
#             clang and libclang-rt-MAJOR-dev, MAJOR the clang's own)
#   valgrind  valgrind;  lint  cppcheck, clang-format (the style is clang-format 14's), nm and a C++
#             compiler (the headers compile as C++11);
#   abi       abidw and abidiff (abigail-tools)
#   browser   a headless Chromium for the SVG tests (Debian package chromium)
#   shells    zsh and tmux: dsctl's zsh completion script is checked with zsh, its tables in a tmux pane
#   typing    mypy (Debian package mypy): the Python package and its quick start under mypy --strict
#   oracle    Go and the Go libraries k8s.io/api and apimachinery v0.25-v0.29 import, as Debian packages
#             them (GOPATH mode, /usr/share/gocode): `make oracle` builds upstream's template hash with
#             them (tests/oracle/run.sh). Not needed by make check, which reads the vectors it wrote.
#   simdjson  the fast JSON front end of `make SIMDJSON=1`: a C++17 compiler and simdjson (Debian
#             packages g++ and libsimdjson-dev, 3.0.1 in Debian 12)
#
# Each tool is probed by using it, not by asking the package manager, so another distribution's
# packages serve as well. As root with apt-get the missing packages are installed; otherwise the
# exact command is printed and the status is 1.
# SPDX-License-Identifier: Apache-2.0

set -u
CC_CLANG=${CC:-clang}
case "$CC_CLANG" in cc | gcc*) CC_CLANG=clang ;; esac # make's default CC; fuzz and tsan want clang
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
PYTHON=${PYTHON:-python3}
what=${1:-}
check_only=0
[ "${2:-}" = --check ] && check_only=1

have() { command -v "$1" >/dev/null 2>&1; }

# clang_works FLAGS: clang builds a trivial program with these sanitizers
clang_works() {
	have "$CC_CLANG" || return 1
	probe=$(mktemp -d) || return 1
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; return (int)(n & 0); }\n' >"$probe/p.c"
	[ "$what" = tsan ] && echo 'int main(void) { return LLVMFuzzerTestOneInput(0, 0); }' >>"$probe/p.c"
	# shellcheck disable=SC2086
	"$CC_CLANG" $1 "$probe/p.c" -o "$probe/p" >/dev/null 2>&1
	rc=$?
	rm -rf "$probe"
	return $rc
}

# the clang packages, the runtime following the compiler's major version (Debian 12: clang 14)
clang_pkgs() {
	major=$("$CC_CLANG" --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
	if [ -z "$major" ] && have apt-cache; then
		major=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1)
	fi
	echo "clang libclang-rt-${major:-14}-dev"
}

# missing: the Debian packages of `what` whose tools are not there (empty: all there)
missing() {
	case "$what" in
	build)
		m=""
		have cc || have gcc || m="$m gcc"
		have make || m="$m make"
		have "$PKG_CONFIG" || m="$m pkg-config"
		have "$PYTHON" || m="$m python3"
		# ensurepip: the Python package's tests install it into a fresh venv
		have "$PYTHON" && ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1 && m="$m python3-venv"
		have openssl || m="$m openssl"
		if have "$PKG_CONFIG"; then
			"$PKG_CONFIG" --exists jansson || m="$m libjansson-dev"
			"$PKG_CONFIG" --exists yaml-0.1 || m="$m libyaml-dev"
			"$PKG_CONFIG" --exists check || m="$m check"
			"$PKG_CONFIG" --exists libcurl || m="$m libcurl4-openssl-dev"
		else
			m="$m libjansson-dev libyaml-dev check libcurl4-openssl-dev"
		fi
		echo "$m"
		;;
	fuzz) clang_works "-fsanitize=fuzzer,address,undefined" || clang_pkgs ;;
	tsan) clang_works "-fsanitize=thread" || clang_pkgs ;;
	valgrind) { have valgrind && valgrind --version >/dev/null 2>&1; } || echo valgrind ;;
	lint)
		m=""
		{ have cppcheck && cppcheck --version >/dev/null 2>&1; } || m="$m cppcheck"
		{ have clang-format && clang-format --version >/dev/null 2>&1; } || m="$m clang-format"
		have nm || m="$m binutils"
		have c++ || m="$m g++"
		echo "$m"
		;;
	abi) { have abidw && have abidiff; } || echo abigail-tools ;;
	browser) { have chromium && chromium --version >/dev/null 2>&1; } || echo chromium ;;
	shells)
		m=""
		have zsh || m="$m zsh"
		have tmux || m="$m tmux"
		echo "$m"
		;;
	oracle)
		m=""
		have go || m="$m golang-go"
		# a package each, probed by its source directory under Debian's GOPATH
		for dp in github.com/davecgh/go-spew:golang-github-davecgh-go-spew-dev \
			gopkg.in/inf.v0:golang-gopkg-inf.v0-dev \
			github.com/google/gofuzz:golang-github-google-gofuzz-dev \
			github.com/gogo/protobuf:golang-github-gogo-protobuf-dev \
			golang.org/x/net:golang-golang-x-net-dev \
			k8s.io/klog:golang-k8s-klog-dev \
			k8s.io/utils:golang-k8s-utils-dev \
			sigs.k8s.io/json:golang-k8s-sigs-json-dev \
			sigs.k8s.io/structured-merge-diff:golang-k8s-sigs-structured-merge-diff-dev; do
			[ -d "/usr/share/gocode/src/${dp%%:*}" ] || m="$m ${dp#*:}"
		done
		echo "$m"
		;;
	typing) { have mypy && mypy --version >/dev/null 2>&1; } || echo mypy ;;
	simdjson)
		m=""
		have c++ || m="$m g++"
		"$PKG_CONFIG" --exists simdjson 2>/dev/null || m="$m libsimdjson-dev"
		echo "$m"
		;;
	*)
		echo "usage: sh tests/tools.sh build [--check] | fuzz | tsan | valgrind | lint | abi | browser | shells | typing | oracle | simdjson" >&2
		exit 2
		;;
	esac
}

pkgs=$(missing)
[ -z "$(echo "$pkgs" | tr -d ' ')" ] && exit 0
pkgs=$(echo "$pkgs" | sed 's/^ *//')

if [ "$check_only" = 0 ] && [ "$(id -u)" = 0 ] && have apt-get; then
	echo "$what: installing $pkgs"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null || {
		echo "$what: FAILED: apt-get install $pkgs failed"
		exit 1
	}
	left=$(missing)
	[ -z "$(echo "$left" | tr -d ' ')" ] && exit 0
	echo "$what: FAILED: $pkgs installed, but still missing:$left"
	exit 1
fi
if [ "$what" = build ]; then
	echo "missing build dependencies. Install them with:"
else
	echo "$what: missing tools. Install them with:"
fi
echo "  sudo apt-get install -y $pkgs"
[ "$what" = build ] && [ "$check_only" = 1 ] && echo "(or run 'make check' as root)"
exit 1
