"""Writes tests/dumps/kubectl-get-o-yaml.yaml (run from the repository root after make): examples/cluster as `kubectl get -A -o yaml` prints it
(one List, managedFields, resourceVersions, uids, generation, last-applied annotations, empty
resourceVersion on the List, full pod and node status). Run once; the output is committed."""
import json, os, re, sys
sys.path.insert(0, "examples/python")
os.environ.setdefault("DAEMONSET_LIB", "build/lib/libdaemonset.so")
from daemonset import controller

objs = []
for name in sorted(os.listdir("examples/cluster")):
    objs += controller.parse_objects(open(os.path.join("examples/cluster", name)).read())

def managed(kind, api):
    return [{"apiVersion": api, "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}, "f:spec": {}},
             "manager": "kubectl-client-side-apply" if kind == "DaemonSet" else "kubelet",
             "operation": "Update", "time": "2026-11-30T08:00:00Z"},
            {"apiVersion": api, "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}},
             "manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
             "time": "2026-11-30T08:00:01Z"}]

rv = 4000
for i, o in enumerate(objs):
    m = o.setdefault("metadata", {})
    rv += 7
    m.setdefault("uid", "%08x-0000-4000-8000-%012x" % (0x1000 + i, i))
    m["resourceVersion"] = str(rv)
    m.setdefault("creationTimestamp", "2026-11-30T08:00:00Z")
    m["managedFields"] = managed(o["kind"], o["apiVersion"])
    if o["kind"] == "DaemonSet":
        m.setdefault("generation", 2)
        ann = m.setdefault("annotations", {})
        ann["deprecated.daemonset.template.generation"] = str(m["generation"])
        ann["kubectl.kubernetes.io/last-applied-configuration"] = json.dumps(
            {"apiVersion": o["apiVersion"], "kind": o["kind"],
             "metadata": {"name": m["name"], "namespace": m.get("namespace", "")}}, separators=(",", ":")) + "\n"
    if o["kind"] == "Node":
        st = o.setdefault("status", {})
        st.setdefault("addresses", [{"type": "InternalIP", "address": "10.0.0.%d" % (i + 1)},
                                    {"type": "Hostname", "address": m["name"]}])
        st.setdefault("daemonEndpoints", {"kubeletEndpoint": {"Port": 10250}})
        st.setdefault("nodeInfo", {"architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.24",
                                   "kernelVersion": "6.1.0-28-amd64", "kubeletVersion": "v1.34.2",
                                   "operatingSystem": "linux", "osImage": "Debian GNU/Linux 12 (bookworm)"})
        st.setdefault("images", [{"names": ["registry.k8s.io/pause@sha256:%064x" % i, "registry.k8s.io/pause:3.10"],
                                  "sizeBytes": 320368}])
    if o["kind"] == "Pod":
        o.setdefault("spec", {}).setdefault("terminationGracePeriodSeconds", 30)
        o["spec"].setdefault("schedulerName", "default-scheduler")
        o["spec"].setdefault("enableServiceLinks", True)
        st = o.setdefault("status", {})
        st.setdefault("hostIP", "10.0.0.1")
        st.setdefault("qosClass", "Burstable")

doc = {"apiVersion": "v1", "items": objs, "kind": "List", "metadata": {"resourceVersion": ""}}

plain = re.compile(r"^[A-Za-z_./][A-Za-z0-9_./-]*$")
special = re.compile(r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$")

def scalar(v):
    if v is None: return "null"
    if v is True: return "true"
    if v is False: return "false"
    if isinstance(v, (int, float)): return json.dumps(v)
    if plain.match(v) and not special.match(v): return v
    return json.dumps(v)

def emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        for k in sorted(v):
            x = v[k]
            key = scalar(k)
            if isinstance(x, dict) and x:
                out.append("%s%s:" % (pad, key)); emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append("%s%s:" % (pad, key)); emit(x, ind, out)
            else:
                out.append("%s%s: %s" % (pad, key, "{}" if x == {} else "[]" if x == [] else scalar(x)))
    else:
        for x in v:
            if isinstance(x, dict) and x:
                sub = []; emit(x, ind + 1, sub)
                out.append("%s- %s" % (pad, sub[0].lstrip())); out.extend(sub[1:])
            elif isinstance(x, list) and x:
                sub = []; emit(x, ind + 1, sub)
                out.append("%s- %s" % (pad, sub[0].lstrip())); out.extend(sub[1:])
            else:
                out.append("%s- %s" % (pad, "{}" if x == {} else "[]" if x == [] else scalar(x)))

out = []
emit(doc, 0, out)
open("tests/dumps/kubectl-get-o-yaml.yaml", "w").write("\n".join(out) + "\n")
print(len(objs), "objects,", len(out), "lines")
