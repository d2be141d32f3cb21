#!/usr/bin/env python3
"""Join tests/oracle/run.sh's outputs into tests/vectors/templatehash/vectors.json.

Usage: assemble.py OUT API_GIT APIMACHINERY_GIT GO_VERSION MINOR...

SPDX-License-Identifier: Apache-2.0
"""
import json
import subprocess
import sys


def commit(gitdir, tag):
    return subprocess.run(["git", "--git-dir", gitdir, "rev-parse", tag + "^{commit}"], check=True,
                          stdout=subprocess.PIPE).stdout.decode().strip()


def main():
    out, api, machinery, go_version = sys.argv[1:5]
    minors = sys.argv[5:]
    with open(out + "/templates.jsonl", encoding="utf-8") as f:
        cases = [json.loads(line) for line in f]
    for m in minors:
        with open("%s/hashes-%s.jsonl" % (out, m), encoding="utf-8") as f:
            hashes = [json.loads(line) for line in f]
        if len(hashes) != len(cases):
            sys.exit("assemble: %s lines for 1.%s, %d templates" % (len(hashes), m, len(cases)))
        for c, h in zip(cases, hashes):
            if "error" in h:
                sys.exit("assemble: 1.%s refuses %s: %s" % (m, c["name"], h["error"]))
            c.setdefault("hash", {})["1." + m] = h["hash"]
    doc = {
        "about": "Upstream's template hash (controller.ComputeHash: FNV-32a over go-spew's %#v print, then the "
                 "collision count, then rand.SafeEncodeString) of each template decoded as the API server "
                 "decodes it (sigs.k8s.io/json) and passed through protobuf (storage, informer), computed by "
                 "tests/oracle/main.go built against the real k8s.io/api types. Regenerate with make oracle.",
        "oracle": {"go": go_version, "releases": {
            "1." + m: {"k8s.io/api": "v0.%s.0 %s" % (m, commit(api, "v0.%s.0" % m)),
                       "k8s.io/apimachinery": "v0.%s.0 %s" % (m, commit(machinery, "v0.%s.0" % m))}
            for m in minors}},
        "cases": cases,
    }
    # one case a line: the file stays readable and diffs stay small
    text = json.dumps({k: v for k, v in doc.items() if k != "cases"}, ensure_ascii=False, indent=1)
    lines = [json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cases]
    sys.stdout.write(text[:-2] + ',\n "cases": [\n' + ",\n".join(lines) + "\n ]\n}\n")


if __name__ == "__main__":
    main()
