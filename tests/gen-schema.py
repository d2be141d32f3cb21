#!/usr/bin/env python3
"""Generate lib/apiserver/schema_data.c: the field facts of the published Kubernetes OpenAPI schema.

Usage: tests/gen-schema.py [--source TEXT] SPEC.json... > lib/apiserver/schema_data.c

Each SPEC is an OpenAPI document as kubernetes/kubernetes publishes it: the v2 api/openapi-spec/swagger.json
("definitions") or v3 documents such as api/openapi-spec/v3/apis__apps__v1_openapi.json and
api__v1_openapi.json ("components"/"schemas"); several are merged. From the kinds in ROOTS, every type
reachable through properties, items and additionalProperties is kept, with each field's name and type:
an object of a named type, an array or a map of a type, a scalar (string, integer, number, boolean with
its format), IntOrString, Quantity, or anything (RawExtension, FieldsV1, x-kubernetes-preserve-unknown-fields).
Descriptions, defaults and validation keywords are dropped. The upstream JSON is not kept in the tree:
download it and run this script again to follow a new release (the source and its sha256 are recorded in
the output).
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import hashlib
import json
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
    ap.add_argument("specs", nargs="+")
    args = ap.parse_args()
    defs = load(args.specs)
    table = Table(defs)
    roots = table.build()

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
    source = "; ".join(filter(None, [args.source] + sums))

    w = sys.stdout.write
    w("/*\n * Generated by tests/gen-schema.py: do not edit. Field names and types of the Kubernetes API\n")
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
    for name, tid in table.fields:
        w("\t{%d, %d}, /* %s */\n" % (offsets[name], tid, name))
    w("};\nconst size_t dsi_schema_nfields = sizeof(dsi_schema_fields) / sizeof(dsi_schema_fields[0]);\n\n")
    w("const dsi_schema_root dsi_schema_roots[] = {\n")
    for (group, version, kind), tid in roots:
        av = group + "/" + version if group else version
        w("\t{%d, %d, %d}, /* %s %s */\n" % (offsets[av], offsets[kind], tid, av, kind))
    w("};\nconst size_t dsi_schema_nroots = sizeof(dsi_schema_roots) / sizeof(dsi_schema_roots[0]);\n")


if __name__ == "__main__":
    main()
