#!/usr/bin/env python3
r"""Generate lib/model/gohash_types.c: the Go type facts of a pod template (k8s.io/api core/v1
PodTemplateSpec and every type it reaches) for each Kubernetes minor, as upstream's template hash needs them.

Usage: tests/gen-gotypes.py --api-git DIR --apimachinery-git DIR [--minors 25-36] > lib/model/gohash_types.c
       tests/gen-gotypes.py --api-git DIR --apimachinery-git DIR --minors 25 --json   (the facts of one minor,
                                                                                     for tests/oracle's check)

The DaemonSet controller names a revision by ComputeHash (pkg/controller/controller_utils.go): FNV-32a over
go-spew's %#v print of the template's Go value. That print has every field of every struct, in declaration
order, with its Go field name and, for values not inside a slice or map, the type's name as reflect prints it
(v1.PodSpec, []v1.Container, *int64, map[string]string, v1.ResourceList). So the facts are, per minor: each
struct's fields (Go name, json name or inline, type), and each type's kind and printed name. Each release adds
fields, so the facts are read from the tagged sources of k8s.io/api and k8s.io/apimachinery (kubernetes/api and
kubernetes/apimachinery, tags v0.<minor>.0): DIR is a git directory of each that has the tags (a clone, or a
mirror); nothing of them is kept in the tree but the facts and the commit ids (recorded in the output).

The Go structs are read with tests/gen-schema.py's reader (GoPackage). A few types have their own JSON and
protobuf decoding and a fixed inside that the C code prints by hand (resource.Quantity, intstr.IntOrString,
meta/v1 Time, FieldsV1): their Go declarations are checked here against what lib/model/gohash.c prints, so a
release that changes them fails loudly instead of hashing wrong. Structs are shared between minors where
their facts are equal (the type graph is hash-consed), which keeps the table small.

The table in the tree was made with (clones of kubernetes/api and kubernetes/apimachinery):

  tests/gen-gotypes.py --api-git k8s-api/.git --apimachinery-git k8s-apimachinery/.git >lib/model/gohash_types.c

SPDX-License-Identifier: Apache-2.0
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("gen_schema", os.path.join(HERE, "gen-schema.py"))
gen_schema = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_schema)
GoPackage = gen_schema.GoPackage  # the one Go struct reader of the tests

API = "k8s.io/api/"
MACHINERY = "k8s.io/apimachinery/"
ROOT = ("k8s.io/api/core/v1", "PodTemplateSpec")

# Go's predeclared types as reflect prints them (byte is uint8, rune int32).
BASIC = {"string": "string", "bool": "bool", "int": "int", "int8": "int8", "int16": "int16", "int32": "int32",
         "int64": "int64", "uint": "uint", "uint8": "uint8", "byte": "uint8", "uint16": "uint16",
         "uint32": "uint32", "uint64": "uint64", "rune": "int32", "float32": "float32", "float64": "float64"}

# Kinds, as lib/model/gohash.h numbers them.
KINDS = ["STRUCT", "PTR", "SLICE", "MAP", "STRING", "BOOL", "INT", "UINT", "FLOAT", "QUANTITY", "INTSTR", "TIME",
         "FIELDSV1"]
SCALAR_KIND = {"string": "STRING", "bool": "BOOL", "float32": "FLOAT", "float64": "FLOAT"}

# Types the C code prints by hand: (package, name) -> (kind, the Go declaration it expects, as
# [(go name or None, type expression)] of the struct).
SPECIAL = {
    ("k8s.io/apimachinery/pkg/api/resource", "Quantity"):
        ("QUANTITY", [("i", "int64Amount"), ("d", "infDecAmount"), ("s", "string"), (None, "Format")]),
    ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString"):
        ("INTSTR", [("Type", "Type"), ("IntVal", "int32"), ("StrVal", "string")]),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time"): ("TIME", [(None, "time.Time")]),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "FieldsV1"): ("FIELDSV1", [("Raw", "[]byte")]),
}
# The insides of the special types, also printed by hand.
SPECIAL_INSIDE = {
    ("k8s.io/apimachinery/pkg/api/resource", "int64Amount"): [("value", "int64"), ("scale", "Scale")],
    ("k8s.io/apimachinery/pkg/api/resource", "infDecAmount"): [(None, "*inf.Dec")],
}
SPECIAL_NAMED = {
    ("k8s.io/apimachinery/pkg/api/resource", "Scale"): "int32",
    ("k8s.io/apimachinery/pkg/api/resource", "Format"): "string",
    ("k8s.io/apimachinery/pkg/util/intstr", "Type"): "int64",
}


def fail(msg):
    sys.stderr.write("gen-gotypes: %s\n" % msg)
    sys.exit(1)


def git(gitdir, *args):
    r = subprocess.run(["git", "--git-dir", gitdir] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        fail("git %s: %s" % (" ".join(args), r.stderr.decode(errors="replace").strip()))
    return r.stdout.decode()


class Source:
    """The Go packages of one release, read from the two git directories at a tag."""

    def __init__(self, api_git, machinery_git, tag):
        self.roots = {API: (api_git, tag), MACHINERY: (machinery_git, tag)}
        self.commits = {p: git(g, "rev-parse", t + "^{commit}").strip() for p, (g, t) in self.roots.items()}
        self.packages = {}
        self.names = {}  # package path -> package clause
        self.aliases = {}  # (path, name) -> type expression of `type name = expr`

    def package(self, path):
        if path in self.packages:
            return self.packages[path]
        for prefix, (g, tag) in self.roots.items():
            if path.startswith(prefix):
                break
        else:
            fail("no source for the Go package %s" % path)
        d = path[len(prefix):]
        files = [f for f in git(g, "ls-tree", "--name-only", tag + ":" + d).split("\n")
                 if f.endswith(".go") and not f.endswith("_test.go") and not f.startswith("zz_generated")
                 and not f.startswith("generated.") and not f.endswith("_generated.go")]
        pkg = GoPackage.__new__(GoPackage)
        pkg.path, pkg.types, pkg.imports = path, {}, {}
        for f in sorted(files):
            text = git(g, "show", "%s:%s/%s" % (tag, d, f))
            m = re.search(r"^package (\w+)", text, re.M)
            if m:
                self.names.setdefault(path, m.group(1))
            for a in re.finditer(r"^type (\w+) = (\S.*?)\s*$", text, re.M):
                self.aliases[(path, a.group(1))] = a.group(2)
            pkg.imports = {}
            pkg.parse(text)
            # the imports are per file: keep them with the types this file declares
            for name, t in list(pkg.types.items()):
                if len(t) == 2:
                    pkg.types[name] = t + (dict(pkg.imports),)
        self.packages[path] = pkg
        return pkg

    def resolve(self, path, imports, expr):
        """(package, name) of a type name in a file of path, or (None, basic) for a predeclared type."""
        if "." in expr:
            alias, name = expr.split(".", 1)
            if alias not in imports:
                fail("%s: %s: no import %s" % (path, expr, alias))
            return imports[alias], name
        if expr in BASIC:
            return None, expr
        return path, expr


class Graph:
    """Types as nodes, hash-consed over every minor: equal facts are one node."""

    def __init__(self):
        self.nodes = []  # (kind, name, a, b, fields)
        self.index = {}

    def add(self, node):
        if node not in self.index:
            self.index[node] = len(self.nodes)
            self.nodes.append(node)
        return self.index[node]


def split_map(expr):
    """map[K]V -> (K, V)"""
    depth, j = 0, 3
    while True:
        depth += {"[": 1, "]": -1}.get(expr[j], 0)
        j += 1
        if depth == 0:
            return expr[4:j - 1], expr[j:]


class Build:
    def __init__(self, src, graph):
        self.src = src
        self.graph = graph
        self.memo = {}
        self.stack = []

    def check_struct(self, path, name, want):
        t = self.src.package(path).types.get(name)
        got = [(g, e) for g, e, _ in t[1]] if t and t[0] == "struct" else t
        if got != want:
            fail("%s.%s is %r in this release, the C code prints %r: update lib/model/gohash.c" % (
                path, name, got, want))

    def expr(self, path, imports, e):
        """The node of a type expression in a file of package path: (index, printed name)."""
        if e.startswith("*"):
            i, n = self.expr(path, imports, e[1:])
            return self.graph.add(("PTR", "*" + n, i, 0, ())), "*" + n
        if e.startswith("[]"):
            i, n = self.expr(path, imports, e[2:])
            return self.graph.add(("SLICE", "[]" + n, i, 0, ())), "[]" + n
        if e.startswith("map["):
            k, v = split_map(e)
            ki, kn = self.expr(path, imports, k)
            vi, vn = self.expr(path, imports, v)
            n = "map[%s]%s" % (kn, vn)
            return self.graph.add(("MAP", n, vi, ki, ())), n  # elem, key: as dsi_gotype
        p, name = self.src.resolve(path, imports, e)
        if p is None:
            b = BASIC[name]
            kind = SCALAR_KIND.get(b) or ("UINT" if b.startswith("uint") else "INT")
            return self.graph.add((kind, b, 0, 0, ())), b
        return self.named(p, name)

    def named(self, path, name):
        key = (path, name)
        if key in self.memo:
            return self.memo[key]
        if key in self.stack:
            fail("%s.%s: the types are recursive" % key)
        if key in self.src.aliases:
            fail("%s.%s: a type alias (prints as its target): not supported yet" % key)
        pkg = self.src.package(path)
        printed = "%s.%s" % (self.src.names[path], name)
        self.stack.append(key)
        if key in SPECIAL:
            kind, want = SPECIAL[key]
            self.check_struct(path, name, want)
            if kind == "QUANTITY":
                for (p, n), w in SPECIAL_INSIDE.items():
                    self.check_struct(p, n, w)
            for (p, n), base in SPECIAL_NAMED.items():
                if p == path:
                    t = self.src.package(p).types.get(n)
                    if t is None or t[0] != "named" or t[1] != base:
                        fail("%s.%s is %r, the C code prints it as %s" % (p, n, t, base))
            node = self.graph.add((kind, printed, 0, 0, ()))
        else:
            t = pkg.types.get(name)
            if t is None:
                fail("%s: no Go type %s" % (path, name))
            if t[0] == "struct":
                fields = []
                for go_name, e, tag in t[1]:
                    m = gen_schema.TAG_RE.search(tag)
                    opts = (m.group(1) if m else "").split(",")
                    jname = opts[0]
                    embedded = go_name is None
                    if embedded:
                        go_name = e.lstrip("*").rsplit(".", 1)[-1]
                    if not go_name[0].isupper():
                        fail("%s.%s: unexported field %s" % (path, name, go_name))
                    fi, _ = self.expr(path, t[2], e)
                    if jname == "-" and len(opts) == 1:
                        jflag = "SKIP"  # never decoded: always the zero value
                    elif embedded and not jname:
                        jflag = "INLINE"
                        if self.graph.nodes[fi][0] != "STRUCT":
                            fail("%s.%s: embedded %s is not a struct" % (path, name, e))
                    else:
                        jflag = jname or go_name
                    fields.append((go_name, jflag, fi))
                node = self.graph.add(("STRUCT", printed, 0, 0, tuple(fields)))
            else:
                ui, _ = self.expr(path, t[2], t[1])
                u = self.graph.nodes[ui]
                if u[0] in ("STRUCT", "QUANTITY", "INTSTR", "TIME", "FIELDSV1"):
                    fail("%s.%s: a named struct type: not supported" % key)
                node = self.graph.add((u[0], printed, u[2], u[3], ()))
        self.stack.pop()
        self.memo[key] = (node, printed)
        return self.memo[key]


def facts_json(graph, root):
    """The facts one minor reaches from root, as tests/oracle/facts.go prints Go's reflect view."""
    out, seen = {}, set()

    def walk(i):
        if i in seen:
            return
        seen.add(i)
        kind, name, a, b, fields = graph.nodes[i]
        if kind == "STRUCT":
            out[name] = [[g, "" if j == "INLINE" else j, graph.nodes[f][1]] for g, j, f in fields]
            for _, _, f in fields:
                walk(f)
        elif kind in ("PTR", "SLICE"):
            walk(a)
        elif kind == "MAP":
            walk(a)
            walk(b)
    walk(root)
    return out


def c_string(s):
    return gen_schema.c_string(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--api-git", required=True, help="git directory of kubernetes/api with the v0.N.0 tags")
    ap.add_argument("--apimachinery-git", required=True, help="git directory of kubernetes/apimachinery")
    ap.add_argument("--minors", default="25-36", help="minors to generate, e.g. 25-36")
    ap.add_argument("--json", action="store_true", help="print the facts of one minor as JSON")
    args = ap.parse_args()
    lo, _, hi = args.minors.partition("-")
    minors = list(range(int(lo), int(hi or lo) + 1))
    graph = Graph()
    roots, commits = [], []
    for m in minors:
        src = Source(args.api_git, args.apimachinery_git, "v0.%d.0" % m)
        root, _ = Build(src, graph).named(*ROOT)
        roots.append((m, root))
        commits.append("v0.%d.0 api %s apimachinery %s" % (m, src.commits[API], src.commits[MACHINERY]))
    if args.json:
        json.dump(facts_json(graph, roots[0][1]), sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return

    pool, offsets = [""], {"": 0}
    size = 1

    def intern(s):
        nonlocal size
        if s not in offsets:
            offsets[s] = size
            pool.append(s)
            size += len(s) + 1
        return offsets[s]

    nfields = 0
    for kind, name, a, b, fields in graph.nodes:
        intern(name)
        for g, j, _ in fields:
            intern(g)
            if j not in ("INLINE", "SKIP"):
                intern(j)
        nfields += len(fields)
    if size >= 65536 or len(graph.nodes) >= 65536 or nfields >= 65536:
        fail("the table outgrew its 16-bit indexes")

    w = sys.stdout.write
    w("/* clang-format off */ /* generated: the generator's layout is kept */\n")
    w("/*\n * Generated by tests/gen-gotypes.py: do not edit. The Go types of a pod template (k8s.io/api core/v1\n")
    w(" * PodTemplateSpec and every type it reaches) per Kubernetes minor, from the tagged sources:\n")
    for c in commits:
        w(" *   %s\n" % c)
    w(" * %d types and %d fields for %d minors (structs equal between minors are shared).\n */\n" % (
        len(graph.nodes), nfields, len(minors)))
    w('#include "model/gohash.h"\n\n')
    w("const char dsi_gotype_names[] =\n")
    line = '\t"\\0'
    for s in pool[1:]:
        piece = c_string(s) + "\\0"
        if len(line) + len(piece) > 110:
            w(line + '"\n')
            line = '\t"'
        line += piece
    w(line + '";\n\n')
    w("const dsi_gofield dsi_gofields[] = {\n")
    first = []
    k = 0
    for i, (kind, name, a, b, fields) in enumerate(graph.nodes):
        first.append(k if fields else 0)
        if not fields:
            continue
        w("\t/* %d: %s, type %d */\n" % (k, name, i))
        row = []
        for g, j, f in fields:
            js = {"INLINE": "DSI_GOF_INLINE", "SKIP": "DSI_GOF_SKIP"}.get(j) or str(offsets[j])
            row.append("{%d, %s, %d}," % (offsets[g], js, f))
        for r in range(0, len(row), 6):
            w("\t" + " ".join(row[r:r + 6]) + "\n")
        k += len(fields)
    w("};\n\n")
    w("const dsi_gotype dsi_gotypes[] = {\n")
    for i, (kind, name, a, b, fields) in enumerate(graph.nodes):
        w("\t{DSI_GK_%s, %d, %d, %d, %d, %d}, /* %d %s */\n" % (
            kind, offsets[name], a, b, first[i], len(fields), i, name))
    w("};\n\n")
    w("const dsi_gotype_root dsi_gotype_roots[] = {\n")
    for m, r in roots:
        w("\t{%d, %d},\n" % (m, r))
    w("};\nconst size_t dsi_gotype_nroots = sizeof(dsi_gotype_roots) / sizeof(dsi_gotype_roots[0]);\n")


if __name__ == "__main__":
    main()
