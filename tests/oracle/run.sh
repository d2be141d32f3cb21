#!/bin/sh
# Regenerate tests/vectors/templatehash/vectors.json: upstream's template hash (controller.ComputeHash
# over the real k8s.io/api types, tests/oracle/main.go) of the templates tests/oracle/gen-templates.py
# writes, for each Kubernetes minor Debian's Go 1.19 builds (k8s.io/api and apimachinery v0.25-v0.29,
# unmodified, in GOPATH mode with the Debian -dev packages of their dependencies).
#
#   K8S_API_GIT=DIR K8S_APIMACHINERY_GIT=DIR make oracle
#
# DIR: git directories of kubernetes/api and kubernetes/apimachinery that have the tags v0.25.0 to
# v0.29.0 (a clone's .git). The sources are unpacked under build/oracle, never into the tree. Before
# hashing, the Go facts tests/gen-gotypes.py reads from the same tags are compared with what reflect
# says of the built types: they must be equal. Without Go, its libraries (sh tests/tools.sh oracle
# installs them) or the sources, the script says what is missing and exits 0: make check does not
# need it, it reads the committed vectors.
# SPDX-License-Identifier: Apache-2.0
set -eu
MINORS=${ORACLE_MINORS:-"25 26 27 28 29"}
OUT=${ORACLE_OUT:-build/oracle}
VECTORS=tests/vectors/templatehash/vectors.json
PYTHON=${PYTHON:-python3}

skip() {
	echo "oracle: skipped: $*"
	exit 0
}
command -v go >/dev/null 2>&1 || skip "no go (sh tests/tools.sh oracle installs Debian's golang-go and the Go libraries)"
sh tests/tools.sh oracle --check >/dev/null 2>&1 || skip "Go libraries missing: sh tests/tools.sh oracle"
[ -n "${K8S_API_GIT:-}" ] && [ -n "${K8S_APIMACHINERY_GIT:-}" ] ||
	skip "set K8S_API_GIT and K8S_APIMACHINERY_GIT to git directories of kubernetes/api and kubernetes/apimachinery"
for m in $MINORS; do
	git --git-dir "$K8S_API_GIT" rev-parse -q --verify "v0.$m.0^{commit}" >/dev/null &&
		git --git-dir "$K8S_APIMACHINERY_GIT" rev-parse -q --verify "v0.$m.0^{commit}" >/dev/null ||
		skip "tag v0.$m.0 missing in $K8S_API_GIT or $K8S_APIMACHINERY_GIT"
done

mkdir -p "$OUT"
"$PYTHON" tests/oracle/gen-templates.py >"$OUT/templates.jsonl"
for m in $MINORS; do
	gp="$OUT/0.$m"
	if [ ! -d "$gp/src/k8s.io/api" ]; then
		rm -rf "$gp"
		mkdir -p "$gp/src/k8s.io/api" "$gp/src/k8s.io/apimachinery"
		git --git-dir "$K8S_API_GIT" archive "v0.$m.0" | tar -x -C "$gp/src/k8s.io/api"
		git --git-dir "$K8S_APIMACHINERY_GIT" archive "v0.$m.0" | tar -x -C "$gp/src/k8s.io/apimachinery"
	fi
	mkdir -p "$gp/src/oracle"
	cp tests/oracle/main.go "$gp/src/oracle/main.go"
	echo "oracle: building against k8s.io/api v0.$m.0"
	(cd "$gp" && GO111MODULE=off GOPATH="$PWD:/usr/share/gocode" GOFLAGS= go build -o oracle oracle)
	"$gp/oracle" facts >"$OUT/facts-go-$m.json"
	"$PYTHON" tests/gen-gotypes.py --api-git "$K8S_API_GIT" --apimachinery-git "$K8S_APIMACHINERY_GIT" \
		--minors "$m" --json >"$OUT/facts-src-$m.json"
	cmp -s "$OUT/facts-go-$m.json" "$OUT/facts-src-$m.json" || {
		echo "oracle: FAILED: the Go facts of v0.$m.0 read from source differ from reflect's:" \
			"diff $OUT/facts-src-$m.json $OUT/facts-go-$m.json"
		exit 1
	}
	"$gp/oracle" hash <"$OUT/templates.jsonl" >"$OUT/hashes-$m.jsonl"
done
"$PYTHON" tests/oracle/assemble.py "$OUT" "$K8S_API_GIT" "$K8S_APIMACHINERY_GIT" "$(go version)" $MINORS >"$VECTORS.tmp"
mv "$VECTORS.tmp" "$VECTORS"
echo "oracle: wrote $VECTORS"
