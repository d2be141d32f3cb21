#!/usr/bin/env python3
"""Regenerate the seed corpora tests/fuzz/corpus/<target>/ from the samples
already in the repository (examples/cluster, tests/vectors). Python 3
standard library only; run from anywhere: python3 tests/fuzz/make-corpus.py

Seeds are valid inputs (or, for the parsers, the vectors' own invalid rows),
each a small file; libFuzzer mutates from there. The script is
deterministic: the same tree gives the same files. It replaces the seed
directories entirely (never touch build/fuzz/corpus, the fuzzers' own).
SPDX-License-Identifier: Apache-2.0
"""
import json
import os
import shutil
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
MAX_SEED = 24 * 1024  # keep every seed below the targets' -max_len


def rd(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def vec(path):
    with open(os.path.join(ROOT, "tests", "vectors", path), encoding="utf-8") as f:
        return json.load(f)


def dump(v):
    return json.dumps(v, separators=(",", ":"), sort_keys=False).encode()


def lst(items):
    return dump({"apiVersion": "v1", "kind": "List", "items": items})


class Corpus:
    def __init__(self, target):
        self.dir = os.path.join(OUT, target)
        self.seen = set()
        self.n = 0
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)

    def add(self, name, data):
        if isinstance(data, str):
            data = data.encode()
        if len(data) > MAX_SEED or data in self.seen:
            return
        self.seen.add(data)
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:48]
        with open(os.path.join(self.dir, "%03d-%s" % (self.n, safe)), "wb") as f:
            f.write(data)
        self.n += 1


def every(seq, k):
    """Every k-th element: a spread over a long table, stable across runs."""
    return [x for i, x in enumerate(seq) if i % k == 0]


def cluster_cases():
    """(name, [objects]) snapshots from the controller, update and should-run vectors."""
    out = []
    for path, k in (("upstream/daemon_controller.json", 4), ("upstream/daemon_update.json", 1)):
        for c in every([c for c in vec(path)["cases"] if "daemonset" in c and "nodes" in c], k):
            objs = [c["daemonset"]] + c.get("otherDaemonSets", []) + c["nodes"] + c.get("pods", [])
            out.append((c["name"], objs))
    for c in every(vec("upstream/should_run.json")["cases"], 2):
        ds = json.loads(json.dumps(c["daemonset"]))
        ds.setdefault("metadata", {}).setdefault("name", "ds")
        ds["metadata"].setdefault("namespace", "default")
        out.append((c["name"], [ds, c["node"]]))
    return out


def drain_cases():
    out = []
    for c in vec("ops/drain.json")["cases"]:
        out.append((c["name"], c["objects"]))
    for c in vec("ops/upgrade.json")["cases"]:
        out.append((c["name"], c["objects"]))
    for c in vec("upstream/drain.json")["cases"]:
        objs = ([c["node"]] if "node" in c else []) + c.get("pods", []) + c.get("daemonsets", [])
        out.append((c["name"], objs))
    return out


EXAMPLE_YAML = ["examples/cluster/%s.yaml" % n for n in ("nodes", "daemonsets", "pods", "pdbs")]


def example_stream():
    """examples/cluster as one multi-document YAML stream (JSON is a YAML flow document)."""
    parts = [rd(p).rstrip(b"\n") for p in EXAMPLE_YAML]
    parts.append(rd("examples/cluster/controllerrevisions.json").rstrip(b"\n"))
    return b"\n---\n".join(parts) + b"\n"


def yaml_documents(path):
    """The documents of a YAML stream split on '---' lines (no parsing)."""
    docs, cur = [], []
    for line in rd(path).decode().splitlines(keepends=True):
        if line.rstrip() == "---":
            docs.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    docs.append("".join(cur))
    return [d for d in docs if d.strip() and any(not l.startswith("#") and l.strip() for l in d.splitlines())]


def main():
    # ---- ingest: JSON
    c = Corpus("fuzz_load_json")
    c.add("controllerrevisions", rd("examples/cluster/controllerrevisions.json"))
    for name, objs in every(cluster_cases(), 3) + every(drain_cases(), 4):
        c.add(name, lst(objs))
    name, objs = cluster_cases()[0]
    c.add("concatenated", b"\n".join(dump(o) for o in objs))
    c.add("nodelist", dump({"apiVersion": "v1", "kind": "NodeList", "items": [o for o in objs if o.get("kind") == "Node"]}))
    c.add("single-object", dump(objs[0]))

    # ---- ingest: YAML
    c = Corpus("fuzz_load_yaml")
    for p in EXAMPLE_YAML:
        c.add(os.path.basename(p), rd(p))
    c.add("example-stream", example_stream())
    for p in sorted(os.listdir(os.path.join(ROOT, "tests", "vectors", "audit"))):
        c.add(p, rd("tests/vectors/audit/" + p))
    for d in yaml_documents("examples/cluster/daemonsets.yaml"):
        c.add("daemonset-doc", d)

    # ---- watch events
    c = Corpus("fuzz_events")
    types = ("ADDED", "MODIFIED", "DELETED")
    for i, (name, objs) in enumerate(every(cluster_cases(), 4) + every(drain_cases(), 6)):
        ev = [dump({"type": types[(i + j) % 3] if j else "ADDED", "object": o}) for j, o in enumerate(objs)]
        c.add(name, b"\n".join(ev))
    c.add("bookmark", dump({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1",
                                                            "metadata": {"resourceVersion": "12746"}}}))
    c.add("error", dump({"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                                                      "message": "too old resource version", "reason": "Expired",
                                                      "code": 410}}))
    c.add("delete-base", dump({"type": "DELETED", "object": {"apiVersion": "v1", "kind": "Node",
                                                              "metadata": {"name": "base-node"}}}))

    # ---- quantities
    c = Corpus("fuzz_quantity")
    q = vec("values/quantity_parse.json")
    for sec in ("parse", "parse_invalid", "parse_limits", "canonical", "string", "emit"):
        for r in q[sec]["rows"]:
            if isinstance(r.get("in"), str):
                c.add(sec, r["in"])
    a = vec("values/quantity_arith.json")
    for sec in ("cmp", "cmp_int64_and_dec", "add", "sub", "add_limits"):
        for r in a[sec]["rows"]:
            c.add(sec, "%s|%s" % (r["a"], r["b"]))

    # ---- selectors: string syntax, then NUL and a label set
    c = Corpus("fuzz_selector_string")
    s = vec("values/selector.json")
    for sec in ("parse", "parse_errors"):
        for r in s[sec]["rows"]:
            c.add(sec, r["in"])
    for r in s["matches"]["rows"]:
        c.add("matches", r["selector"].encode() + b"\0" + dump(r["labels"]))
    for r in every(s["requirements"]["rows"], 2):
        if isinstance(r.get("in"), str):
            c.add("requirements", r["in"])

    # ---- selectors: JSON LabelSelector, then NUL and a label set
    c = Corpus("fuzz_selector_json")
    ls = vec("values/label_selector.json")
    for r in ls["selectors"]["rows"]:
        if isinstance(r["selector"], dict):
            c.add("selectors", dump(r["selector"]))
    for r in ls["matches"]["rows"]:
        if isinstance(r["selector"], dict):
            c.add("matches", dump(r["selector"]) + b"\0" + dump(r["labels"]))

    # ---- planning on a snapshot
    c = Corpus("fuzz_plan")
    c.add("example-stream", example_stream())
    for name, objs in cluster_cases():
        c.add(name, lst(objs))

    # ---- drain, cordon, upgrade
    c = Corpus("fuzz_drain")
    c.add("example-stream", example_stream())
    for name, objs in drain_cases():
        c.add(name, lst(objs))

    # ---- audit: Pods, DaemonSets, other workloads
    c = Corpus("fuzz_audit")
    for p in sorted(os.listdir(os.path.join(ROOT, "tests", "vectors", "audit"))):
        c.add(p, rd("tests/vectors/audit/" + p))
    for d in yaml_documents("examples/cluster/daemonsets.yaml"):
        c.add("daemonset-doc", d)
    for p in sorted(os.listdir(os.path.join(ROOT, "tests", "vectors", "pss"))):
        if p.startswith("fixtures_"):
            for f in every(vec("pss/" + p)["fixtures"], 3):
                c.add(p[9:-5] + "-" + f["name"], dump(f["pod"]))

    # ---- fields: manifests, some with the typos and repeats strict field validation reports
    c = Corpus("fuzz_fields")
    for p in sorted(os.listdir(os.path.join(ROOT, "tests", "vectors", "audit"))):
        c.add(p, rd("tests/vectors/audit/" + p))
    docs = yaml_documents("examples/cluster/daemonsets.yaml")
    for d in docs:
        c.add("daemonset-doc", d)
    for old, new in (("image:", "imagee:"), ("containers:", "containers: []\n      containers:"),
                     ("spec:", "Spec:"), ("metadata:", "metadata: {}\nmetadata:")):
        if docs and old in docs[0]:
            c.add("daemonset-typo", docs[0].replace(old, new, 1))

    # ---- fit: a Pod on the sample cluster's nodes
    c = Corpus("fuzz_fit")
    for r in vec("upstream/scheduler_fit.json")["cases"]:
        c.add(r["name"], dump(r["pod"]))
    for r in vec("upstream/preemption.json")["cases"]:
        if isinstance(r.get("preemptor"), dict):
            c.add(r["name"], dump(r["preemptor"]))
    for d in yaml_documents("tests/vectors/audit/node-exporter-pod.yaml") + yaml_documents(
            "tests/vectors/audit/calico-node-pod.yaml"):
        c.add("pod-doc", d)

    total = 0
    for t in sorted(os.listdir(OUT)):
        files = os.listdir(os.path.join(OUT, t))
        size = sum(os.path.getsize(os.path.join(OUT, t, f)) for f in files)
        total += size
        print("%-22s %4d seeds %8d bytes" % (t, len(files), size))
    print("total %d bytes" % total)


if __name__ == "__main__":
    sys.exit(main())
