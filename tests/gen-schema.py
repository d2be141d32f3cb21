#!/usr/bin/env python3
r"""Generate lib/apiserver/schema_data.c: the field facts of the published Kubernetes OpenAPI schema, with
the Go facts of each field (omitempty, omitzero, pointer, slice, map) from the struct tags of the Go types.

Usage: tests/gen-schema.py [--source TEXT] [--go-api DIR --go-apimachinery DIR [--go-source TEXT]]
                           SPEC.json... > lib/apiserver/schema_data.c

Each SPEC is an OpenAPI document as kubernetes/kubernetes publishes it: the v2 api/openapi-spec/swagger.json
("definitions") or v3 documents such as api/openapi-spec/v3/apis__apps__v1_openapi.json and
api__v1_openapi.json ("components"/"schemas"); several are merged. From the kinds in ROOTS, every type
reachable through properties, items and additionalProperties is kept, with each field's name and type:
an object of a named type, an array or a map of a type, a scalar (string, integer, number, boolean with
its format), IntOrString, Quantity, or anything (RawExtension, FieldsV1, x-kubernetes-preserve-unknown-fields).
Descriptions, defaults and validation keywords are dropped. The upstream JSON is not kept in the tree:
download it and run this script again to follow a new release (the source and its sha256 are recorded in
the output).

The OpenAPI schema does not say how Go serializes a field, so with --go-api (a copy of k8s.io/api, the
kubernetes/api repository) and --go-apimachinery (k8s.io/apimachinery) of the same release, the struct
of every object type (io.k8s.api.core.v1.PodSpec: core/v1 PodSpec; io.k8s.apimachinery.pkg.apis.meta.v1.X:
pkg/apis/meta/v1 X) is read from the package's Go files, and each field gets its json tag's omitempty and
omitzero and the kind of its Go type (a value, a struct, a pointer, a slice, a map; for slices and maps
whether the elements are pointers): lib/apiserver/goencode.c serializes as encoding/json does with them.
Every field of the schema must have its Go field (the script fails otherwise); --go-source (the release,
recorded in the output) says which tag was read.

The tables in the tree were made with (python, k8s-api and k8s-apimachinery: clones of
kubernetes-client/python, kubernetes/api and kubernetes/apimachinery):

  git -C python show ac0ee5091f0b801911c906558030e2624a26bdf8:kubernetes/swagger.json.unprocessed >swagger.json
  mkdir api apimachinery
  git -C k8s-api archive v0.36.0 core/v1 apps/v1 batch/v1 policy/v1 rbac/v1 scheduling/v1 storage/v1 |
      tar -x -C api
  git -C k8s-apimachinery archive v0.36.0 pkg/apis/meta/v1 | tar -x -C apimachinery
  tests/gen-schema.py \
      --source "kubernetes release-1.36 api/openapi-spec/swagger.json, as kubernetes-client/python vendors it (kubernetes/swagger.json.unprocessed at commit ac0ee5091f0b801911c906558030e2624a26bdf8, 2026-05-05)" \
      --go-api api --go-apimachinery apimachinery \
      --go-source "Go struct tags of k8s.io/api v0.36.0 (kubernetes/api commit 545bb975fe6653239af42324065cf72272186404) and k8s.io/apimachinery v0.36.0 (kubernetes/apimachinery commit debe1eba03a0c4134fd07a8f7586c44bb94ec7b0)" \
      swagger.json >lib/apiserver/schema_data.c
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import hashlib
import json
import os
import re
import sys

# The kinds the strict field check knows: what DaemonSet manifests and cluster dumps contain, and the
# other workloads with a pod template.
ROOTS = [
    ("apps", "v1", "DaemonSet"),
    ("apps", "v1", "DaemonSetList"),
    ("apps", "v1", "Deployment"),
    ("apps", "v1", "ReplicaSet"),
    ("apps", "v1", "StatefulSet"),
    ("apps", "v1", "ControllerRevision"),
    ("", "v1", "Pod"),
    ("", "v1", "PodTemplate"),
    ("", "v1", "ReplicationController"),
    ("", "v1", "Node"),
    ("", "v1", "Namespace"),
    ("", "v1", "ServiceAccount"),
    ("", "v1", "ConfigMap"),
    ("", "v1", "Secret"),
    ("", "v1", "Service"),
    ("batch", "v1", "Job"),
    ("batch", "v1", "CronJob"),
    ("policy", "v1", "PodDisruptionBudget"),
    ("rbac.authorization.k8s.io", "v1", "ClusterRole"),
    ("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"),
    ("rbac.authorization.k8s.io", "v1", "Role"),
    ("rbac.authorization.k8s.io", "v1", "RoleBinding"),
    ("scheduling.k8s.io", "v1", "PriorityClass"),
    ("storage.k8s.io", "v1", "CSIDriver"),
]

# Scalar and composite kinds, as lib/apiserver/schema.h numbers them.
KINDS = ["ANY", "STRING", "INTEGER", "NUMBER", "BOOLEAN", "INT_OR_STRING", "QUANTITY", "OBJECT", "ARRAY", "MAP"]
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"


def fail(msg):
    sys.stderr.write("gen-schema: %s\n" % msg)
    sys.exit(1)


def load(paths):
    defs = {}
    for p in paths:
        with open(p, "rb") as f:
            doc = json.loads(f.read())
        part = doc.get("definitions") or doc.get("components", {}).get("schemas")
        if not isinstance(part, dict):
            fail("%s: neither definitions (OpenAPI v2) nor components.schemas (v3)" % p)
        for name, schema in part.items():
            defs.setdefault(name, schema)
    return defs


def ref_name(schema):
    """The named type a schema refers to: $ref (v2), or allOf with one $ref (v3)."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and "$ref" in all_of[0]:
        return all_of[0]["$ref"].rsplit("/", 1)[-1]
    return None


class Table:
    def __init__(self, defs):
        self.defs = defs
        self.types = []  # (kind, a, b, name) with a, b as emitted
        self.index = {}  # key -> type id
        self.fields = []  # (name, type id) per object, filled after all types exist
        self.pending = []  # named object types whose fields are still to be laid out

    def add(self, key, entry):
        if key not in self.index:
            self.index[key] = len(self.types)
            self.types.append(entry)
        return self.index[key]

    def scalar(self, kind, fmt=""):
        return self.add(("scalar", kind, fmt), [kind, 0, 0, fmt])

    def of_schema(self, schema, where):
        name = ref_name(schema)
        if name:
            return self.named(name)
        if schema.get("x-kubernetes-preserve-unknown-fields"):
            return self.scalar("ANY")
        t = schema.get("type")
        if t == "array":
            elem = self.of_schema(schema.get("items", {}), where + "[]")
            return self.add(("array", elem), ["ARRAY", elem, 0, ""])
        if t == "object" or (t is None and ("properties" in schema or "additionalProperties" in schema)):
            if "properties" in schema:
                fail("%s: an inline object with properties (not a named type)" % where)
            ap = schema.get("additionalProperties")
            if isinstance(ap, dict):
                elem = self.of_schema(ap, where + "{}")
                return self.add(("map", elem), ["MAP", elem, 0, ""])
            return self.scalar("ANY")
        if t == "string":
            if schema.get("format") == "int-or-string":
                return self.scalar("INT_OR_STRING")
            return self.scalar("STRING", schema.get("format", ""))
        if t == "integer":
            return self.scalar("INTEGER", schema.get("format", ""))
        if t == "number":
            return self.scalar("NUMBER", schema.get("format", ""))
        if t == "boolean":
            return self.scalar("BOOLEAN")
        if t is None:
            return self.scalar("ANY")
        fail("%s: unknown type %r" % (where, t))

    def named(self, name):
        if ("named", name) in self.index:
            return self.index[("named", name)]
        schema = self.defs.get(name)
        if schema is None:
            fail("no definition of %s" % name)
        if name == QUANTITY:
            return self.add(("named", name), ["QUANTITY", 0, 0, ""])
        if "properties" in schema:
            tid = self.add(("named", name), ["OBJECT", 0, 0, name])
            self.pending.append((tid, name))
            return tid
        # a named scalar (Time, IntOrString), map, or a type without properties (RawExtension, FieldsV1)
        tid = self.of_schema(schema, name)
        self.index[("named", name)] = tid
        return tid

    def build(self):
        roots = []
        by_gvk = {}
        for name, schema in self.defs.items():
            for g in schema.get("x-kubernetes-group-version-kind", []):
                by_gvk[(g.get("group", ""), g["version"], g["kind"])] = name
        self.scalar("ANY")  # type 0
        for gvk in ROOTS:
            if gvk not in by_gvk:
                fail("no schema for %s/%s %s" % gvk)
            roots.append((gvk, self.named(by_gvk[gvk])))
        while self.pending:
            tid, name = self.pending.pop(0)
            props = self.defs[name]["properties"]
            resolved = [(f, self.of_schema(props[f], name + "." + f)) for f in sorted(props, key=lambda s: s.encode())]
            self.types[tid][1] = len(self.fields)
            self.types[tid][2] = len(resolved)
            self.fields.extend(resolved)
        if len(self.types) >= 65535 or len(self.fields) >= 65535:
            fail("too many types or fields for 16-bit indexes")
        return roots


# ---- Go facts: the json tags and the Go kind of each field ------------------------------------------------

# Field flags and Go kinds, as lib/apiserver/schema.h numbers them.
FLAG_OMITEMPTY = 0x01
FLAG_OMITZERO = 0x02
FLAG_ELEM_NIL = 0x04  # a slice or map of pointers
GO_KINDS = ["VALUE", "STRUCT", "POINTER", "SLICE", "MAP", "INTERFACE"]
GO_SHIFT = 4

BUILTIN = {"string", "bool", "byte", "rune", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
           "uint32", "uint64", "uintptr", "float32", "float64"}
# Types of packages the script does not read, with their Go kind: structs with their own MarshalJSON
# (IntOrString, Quantity, RawExtension, Time, ...) and named strings.
FOREIGN = {
    ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString"): "STRUCT",
    ("k8s.io/apimachinery/pkg/api/resource", "Quantity"): "STRUCT",
    ("k8s.io/apimachinery/pkg/runtime", "RawExtension"): "STRUCT",
    ("k8s.io/apimachinery/pkg/types", "UID"): "VALUE",
    ("k8s.io/apimachinery/pkg/types", "NodeName"): "VALUE",
    # meta/v1 types defined outside types.go
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time"): "STRUCT",
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "MicroTime"): "STRUCT",
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration"): "STRUCT",
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "FieldsV1"): "STRUCT",
}

FIELD_RE = re.compile(r"^(?:(\w+)\s+)?([^\s`].*?)\s*(?:`([^`]*)`)?\s*$")
TAG_RE = re.compile(r'json:"([^"]*)"')


class GoPackage:
    def __init__(self, path, directory):
        self.path = path
        self.types = {}  # name -> ("struct", [(go name or None, type expr, tag)]) or ("named", type expr)
        self.imports = {}  # alias -> import path
        if not os.path.isdir(directory):
            fail("%s: no directory %s" % (path, directory))
        names = sorted(f for f in os.listdir(directory) if f.endswith(".go") and not f.endswith("_test.go"))
        # the hand-written files: the generated ones declare no API types
        names = [f for f in names if not (f.startswith("zz_generated") or f.startswith("generated.")
                                          or f.endswith("_generated.go"))]
        if "types.go" not in names:
            fail("%s: no types.go in %s" % (path, directory))
        for f in names:
            with open(os.path.join(directory, f), encoding="utf-8") as fh:
                self.parse(fh.read())

    def parse(self, text):
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        lines = [re.sub(r"^\s*//.*$", "", ln).rstrip() for ln in text.split("\n")]
        i = 0
        in_import = False
        while i < len(lines):
            ln = lines[i]
            i += 1
            if ln.startswith("import ("):
                in_import = True
                continue
            if in_import:
                if ln.startswith(")"):
                    in_import = False
                    continue
                m = re.match(r'^\s*(\w+\s+)?"([^"]+)"', ln)
                if m:
                    path = m.group(2)
                    self.imports[(m.group(1) or path.rsplit("/", 1)[-1]).strip()] = path
                continue
            m = re.match(r'^import\s+(\w+\s+)?"([^"]+)"', ln)
            if m:
                self.imports[(m.group(1) or m.group(2).rsplit("/", 1)[-1]).strip()] = m.group(2)
                continue
            m = re.match(r"^type (\w+) struct \{\s*$", ln)
            if m:
                fields = []
                while i < len(lines) and lines[i] != "}":
                    f = lines[i].strip()
                    i += 1
                    if not f:
                        continue
                    fm = FIELD_RE.match(f)
                    if not fm:
                        fail("Go struct %s.%s: cannot read the field %r" % (self.path, m.group(1), f))
                    fields.append((fm.group(1), fm.group(2), fm.group(3) or ""))
                # build-tag variants of one struct (FieldsV1): the first wins
                self.types.setdefault(m.group(1), ("struct", fields))
                continue
            m = re.match(r"^type (\w+) =?\s*(\S.*?)\s*$", ln)
            if m and not m.group(2).startswith(("struct", "interface")):
                self.types.setdefault(m.group(1), ("named", m.group(2)))


class GoTypes:
    """The Go packages of the API types, read on demand from the two source trees."""

    def __init__(self, api_dir, apimachinery_dir):
        self.roots = {"k8s.io/api/": api_dir, "k8s.io/apimachinery/": apimachinery_dir}
        self.packages = {}

    def package(self, path):
        if path not in self.packages:
            for prefix, d in self.roots.items():
                if path.startswith(prefix):
                    self.packages[path] = GoPackage(path, os.path.join(d, path[len(prefix):]))
                    break
            else:
                fail("no source tree for the Go package %s" % path)
        return self.packages[path]

    @staticmethod
    def of_openapi(name):
        """io.k8s.api.core.v1.PodSpec -> (k8s.io/api/core/v1, PodSpec)."""
        for prefix, path in (("io.k8s.api.", "k8s.io/api/"), ("io.k8s.apimachinery.pkg.", "k8s.io/apimachinery/pkg/")):
            if name.startswith(prefix):
                pkg, _, typ = name[len(prefix):].rpartition(".")
                return path + pkg.replace(".", "/"), typ
        fail("%s: not a type of k8s.io/api or k8s.io/apimachinery" % name)

    def resolve(self, pkg, expr):
        """The package and name a type expression names: (path, name), or (None, builtin)."""
        if "." in expr:
            alias, name = expr.split(".", 1)
            if alias not in pkg.imports:
                fail("%s: %s: no import %s" % (pkg.path, expr, alias))
            return pkg.imports[alias], name
        if expr in BUILTIN:
            return None, expr
        return pkg.path, expr

    def kind(self, pkg, expr, seen=0):
        """The Go kind of a type expression, and for slices and maps whether their elements are pointers."""
        if seen > 20:
            fail("%s: %s: named types loop" % (pkg.path, expr))
        if expr.startswith("*"):
            return "POINTER", False
        if expr.startswith("[]"):
            return "SLICE", expr[2:].startswith("*")
        if expr.startswith("map["):
            depth, j = 0, 3
            while True:  # the value type follows the key type's closing bracket
                depth += {"[": 1, "]": -1}.get(expr[j], 0)
                j += 1
                if depth == 0:
                    break
            return "MAP", expr[j:].startswith("*")
        if expr in ("any", "interface{}"):
            return "INTERFACE", False
        path, name = self.resolve(pkg, expr)
        if path is None:
            return "VALUE", False
        if (path, name) in FOREIGN:
            return FOREIGN[(path, name)], False
        target = self.package(path)
        t = target.types.get(name)
        if t is None:
            fail("%s: no Go type %s" % (path, name))
        if t[0] == "struct":
            return "STRUCT", False
        return self.kind(target, t[1], seen + 1)

    def fields(self, path, name, seen=0):
        """The json fields of a struct, embedded structs inlined: {json name: flags}."""
        if seen > 20:
            fail("%s.%s: embedding loop" % (path, name))
        pkg = self.package(path)
        t = pkg.types.get(name)
        if t is None or t[0] != "struct":
            fail("%s: no Go struct %s" % (path, name))
        out = {}
        for go_name, expr, tag in t[1]:
            m = TAG_RE.search(tag)
            opts = (m.group(1) if m else "").split(",")
            json_name = opts[0]
            if json_name == "-" and len(opts) == 1:
                continue
            if go_name is None and not json_name:
                # an embedded struct without a json name: encoding/json promotes its fields
                ipath, iname = self.resolve(pkg, expr.lstrip("*"))
                for k, v in self.fields(ipath, iname, seen + 1).items():
                    out.setdefault(k, v)
                continue
            if not json_name:
                json_name = go_name if go_name else expr.lstrip("*").rsplit(".", 1)[-1]
            kind, elem_nil = self.kind(pkg, expr)
            flags = GO_KINDS.index(kind) << GO_SHIFT
            flags |= FLAG_OMITEMPTY if "omitempty" in opts[1:] else 0
            flags |= FLAG_OMITZERO if "omitzero" in opts[1:] else 0
            flags |= FLAG_ELEM_NIL if elem_nil else 0
            out[json_name] = flags
        return out


def go_flags(go, table):
    """The flags of every field of the table, in its order."""
    flags = [0] * len(table.fields)
    for t in table.types:
        kind, first, n, name = t
        if kind != "OBJECT":
            continue
        fields = go.fields(*GoTypes.of_openapi(name))
        for i in range(first, first + n):
            fname = table.fields[i][0]
            if fname not in fields:
                fail("%s.%s: no field with that json name in the Go struct" % (name, fname))
            flags[i] = fields[fname]
    return flags


def flags_text(f):
    parts = ["DSI_GO_" + GO_KINDS[f >> GO_SHIFT]]
    if f & FLAG_OMITEMPTY:
        parts.append("DSI_SF_OMITEMPTY")
    if f & FLAG_OMITZERO:
        parts.append("DSI_SF_OMITZERO")
    if f & FLAG_ELEM_NIL:
        parts.append("DSI_SF_ELEM_NIL")
    return " | ".join(parts)


def c_string(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            fail("non-ASCII name %r" % s)
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", default="", help="where the specs came from (recorded in the output)")
    ap.add_argument("--go-api", help="a copy of k8s.io/api (kubernetes/api) of the schema's release")
    ap.add_argument("--go-apimachinery", help="a copy of k8s.io/apimachinery of the same release")
    ap.add_argument("--go-source", default="", help="which release the Go types are (recorded in the output)")
    ap.add_argument("specs", nargs="+")
    args = ap.parse_args()
    defs = load(args.specs)
    table = Table(defs)
    roots = table.build()
    if bool(args.go_api) != bool(args.go_apimachinery):
        fail("--go-api and --go-apimachinery go together")
    flags = go_flags(GoTypes(args.go_api, args.go_apimachinery), table) if args.go_api else None

    # one pool of NUL-terminated names; offset 0 is ""
    pool, offsets = [""], {"": 0}
    size = 1

    def intern(s):
        nonlocal size
        if s not in offsets:
            offsets[s] = size
            pool.append(s)
            size += len(s) + 1
        return offsets[s]

    for name, _ in table.fields:
        intern(name)
    for t in table.types:
        intern(t[3])
    for (group, version, kind), _ in roots:
        intern(group + "/" + version if group else version)
        intern(kind)

    sums = []
    for p in args.specs:
        with open(p, "rb") as f:
            sums.append("%s sha256:%s" % (p.rsplit("/", 1)[-1], hashlib.sha256(f.read()).hexdigest()))
    source = "; ".join(filter(None, [args.source] + sums + [args.go_source if flags else ""]))

    w = sys.stdout.write
    w("/* clang-format off */ /* generated: the generator's layout is kept */\n")
    w("/*\n * Generated by tests/gen-schema.py: do not edit. Field names, types and Go facts of the Kubernetes API\n")
    w(" * types a manifest can hold, from the published OpenAPI schema:\n")
    for part in source.split("; "):
        w(" *   %s\n" % part)
    w(" * %d types, %d fields, %d kinds.\n */\n" % (len(table.types), len(table.fields), len(roots)))
    w('#include "apiserver/schema.h"\n\n')
    w('const char dsi_schema_source[] = "%s";\n\n' % c_string(source))
    w("const char dsi_schema_names[] =\n")
    line = '\t"\\0'  # offset 0: the empty name
    for s in pool[1:]:
        piece = c_string(s) + "\\0"
        if len(line) + len(piece) > 110:
            w(line + '"\n')
            line = '\t"'
        line += piece
    w(line + '";\n\n')
    w("const dsi_schema_type dsi_schema_types[] = {\n")
    for i, (kind, a, b, name) in enumerate(table.types):
        if kind == "OBJECT":
            w("\t{DSI_SK_OBJECT, 0, %d, %d, %d}, /* %d %s */\n" % (a, b, offsets[name], i, name))
        elif kind in ("ARRAY", "MAP"):
            w("\t{DSI_SK_%s, %d, 0, 0, 0}, /* %d */\n" % (kind, a, i))
        else:
            w("\t{DSI_SK_%s, 0, 0, 0, %d}, /* %d%s */\n" % (kind, offsets[name], i, " " + name if name else ""))
    w("};\nconst size_t dsi_schema_ntypes = sizeof(dsi_schema_types) / sizeof(dsi_schema_types[0]);\n\n")
    w("const dsi_schema_field dsi_schema_fields[] = {\n")
    for i, (name, tid) in enumerate(table.fields):
        f = flags_text(flags[i]) if flags else "DSI_SF_UNKNOWN"
        w("\t{%d, %d, %s}, /* %s */\n" % (offsets[name], tid, f, name))
    w("};\nconst size_t dsi_schema_nfields = sizeof(dsi_schema_fields) / sizeof(dsi_schema_fields[0]);\n\n")
    w("const dsi_schema_root dsi_schema_roots[] = {\n")
    for (group, version, kind), tid in roots:
        av = group + "/" + version if group else version
        w("\t{%d, %d, %d}, /* %s %s */\n" % (offsets[av], offsets[kind], tid, av, kind))
    w("};\nconst size_t dsi_schema_nroots = sizeof(dsi_schema_roots) / sizeof(dsi_schema_roots[0]);\n")


if __name__ == "__main__":
    main()
