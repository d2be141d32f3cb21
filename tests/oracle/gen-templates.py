#!/usr/bin/env python3
r"""Write the pod templates of the template-hash vectors, one JSON line each: {"name", "template",
"collisionCount"}. Deterministic (a fixed seed): tests/oracle/run.sh hashes them with upstream's ComputeHash.

Usage: tests/oracle/gen-templates.py [COUNT] > templates.jsonl

Each template is a realistic DaemonSet pod template (log shippers, node exporters, CNI agents, CSI node
plugins) with the variations that change or must not change the Go value: quantity spellings ("0.1",
"100m", 1, 0.5, "1000m", "1Gi", "1024Mi", "1e3", "1Pi", values past int64), empty against absent
against null (labels, tolerations, env values, resources, securityContext {}), pointers to empty structs
(emptyDir {}, securityContext {}), int-or-string ports (8080, "8080", "http"), fields that only newer
releases have (the older types drop them), managedFields (FieldsV1 bytes), and collision counts nil, 0
and n.

SPDX-License-Identifier: Apache-2.0
"""
import json
import random
import sys

QUANTITIES_CPU = ["100m", "0.1", "1", 1, 0.5, "1000m", "250m", "2", "1.5", "0", 0, "1e3", "1E3", "10n", "1u",
                  "0.0000000001", "+5", "010", "1.", "12345678901234567890", "1500m", "3k", "1M", "-1"]
QUANTITIES_MEM = ["128Mi", "1Gi", "1024Mi", "8Gi", "512Ki", "1G", "100M", "64Mi", "1Ti", "1Pi", "1Ei", "8Ei",
                  "16Ei", "0.5Gi", "1.5Gi", "2e9", "1000000k", "123456789", "7Ki", 1073741824, "200Mi"]
IMAGES = ["fluent/fluent-bit:2.1.8", "quay.io/prometheus/node-exporter:v1.6.1", "calico/node:v3.26.1",
          "registry.k8s.io/kube-proxy:v1.28.2", "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.8.0",
          "docker.io/weaveworks/weave-kube:2.8.1", "datadog/agent:7.47.0"]


def maybe(r, p=0.5):
    return r.random() < p


def quantity_map(r):
    m = {}
    if maybe(r, 0.8):
        m["cpu"] = r.choice(QUANTITIES_CPU)
    if maybe(r, 0.8):
        m["memory"] = r.choice(QUANTITIES_MEM)
    if maybe(r, 0.15):
        m["ephemeral-storage"] = r.choice(QUANTITIES_MEM)
    if maybe(r, 0.05):
        m["nvidia.com/gpu"] = r.choice([1, "1", "2"])
    return m


def resources(r):
    k = r.randrange(6)
    if k == 0:
        return None  # absent
    if k == 1:
        return {}
    res = {}
    if maybe(r, 0.7):
        res["requests"] = quantity_map(r) if maybe(r, 0.9) else {}
    if maybe(r, 0.6):
        res["limits"] = quantity_map(r) if maybe(r, 0.9) else None
    if maybe(r, 0.05):
        res["claims"] = [{"name": "gpu"}]
    return res


def port_value(r):
    return r.choice([8080, "8080", "http", 9100, "metrics", 0])


def probe(r):
    p = {}
    h = r.randrange(4)
    if h == 0:
        p["httpGet"] = {"path": r.choice(["/healthz", "/", ""]), "port": port_value(r)}
        if maybe(r, 0.3):
            p["httpGet"]["scheme"] = r.choice(["HTTP", "HTTPS"])
        if maybe(r, 0.2):
            p["httpGet"]["httpHeaders"] = r.choice([[], [{"name": "X-Probe", "value": ""}]])
    elif h == 1:
        p["tcpSocket"] = {"port": port_value(r)}
    elif h == 2:
        p["exec"] = {"command": r.choice([["cat", "/tmp/healthy"], [], ["sh", "-c", "true"]])}
    else:
        p["grpc"] = {"port": r.choice([9090, 0])}
        if maybe(r):
            p["grpc"]["service"] = r.choice(["", "liveness"])
    for k in ("initialDelaySeconds", "periodSeconds", "timeoutSeconds", "failureThreshold", "successThreshold"):
        if maybe(r, 0.3):
            p[k] = r.choice([0, 1, 5, 10, 30])
    if maybe(r, 0.1):
        p["terminationGracePeriodSeconds"] = r.choice([0, 30])
    return p


def env(r):
    out = []
    for i in range(r.randrange(5)):
        e = {"name": "VAR_%d" % i}
        k = r.randrange(6)
        if k == 0:
            e["value"] = ""
        elif k == 1:
            e["value"] = None
        elif k == 2:
            e["value"] = r.choice(["info", "0", "true", "a b:c", "ünïcødé"])
        elif k == 3:
            e["valueFrom"] = {"fieldRef": {"fieldPath": "spec.nodeName"}}
            if maybe(r):
                e["valueFrom"]["fieldRef"]["apiVersion"] = "v1"
        elif k == 4:
            e["valueFrom"] = {"resourceFieldRef": {"resource": "limits.memory"}}
            if maybe(r):
                e["valueFrom"]["resourceFieldRef"]["divisor"] = r.choice(["1Mi", "0", 1, "1"])
        # k == 5: the name alone
        out.append(e)
    return out


def security_context(r):
    k = r.randrange(5)
    if k == 0:
        return None
    if k == 1:
        return {}
    sc = {}
    if maybe(r):
        sc["privileged"] = r.choice([True, False])
    if maybe(r):
        sc["capabilities"] = r.choice([{}, {"add": ["NET_ADMIN", "SYS_TIME"]}, {"drop": ["ALL"]}, {"add": []}])
    if maybe(r, 0.3):
        sc["runAsUser"] = r.choice([0, 65534])
    if maybe(r, 0.3):
        sc["readOnlyRootFilesystem"] = True
    if maybe(r, 0.2):
        sc["seccompProfile"] = {"type": "RuntimeDefault"}
    if maybe(r, 0.1):
        sc["seLinuxOptions"] = {}
    return sc


def container(r, i, init=False):
    c = {"name": "c%d" % i, "image": r.choice(IMAGES)}
    if maybe(r, 0.4):
        c["args"] = r.choice([["--v=2"], [], ["--path.rootfs=/host"], None])
    if maybe(r, 0.2):
        c["command"] = ["/bin/sh", "-c"]
    rs = resources(r)
    if rs is not None:
        c["resources"] = rs
    e = env(r)
    if e or maybe(r, 0.2):
        c["env"] = e
    if maybe(r, 0.4):
        c["ports"] = [{"containerPort": r.choice([9100, 8080, 53]), "name": "metrics"}]
        if maybe(r):
            c["ports"][0]["protocol"] = r.choice(["TCP", "UDP"])
        if maybe(r, 0.3):
            c["ports"][0]["hostPort"] = c["ports"][0]["containerPort"]
    if not init:
        if maybe(r, 0.4):
            c["livenessProbe"] = probe(r)
        if maybe(r, 0.3):
            c["readinessProbe"] = probe(r)
        if maybe(r, 0.1):
            c["startupProbe"] = probe(r)
        if maybe(r, 0.1):
            c["lifecycle"] = r.choice([{}, {"preStop": {"exec": {"command": ["sleep", "5"]}}},
                                       {"postStart": {"httpGet": {"port": "http"}}}])
    sc = security_context(r)
    if sc is not None:
        c["securityContext"] = sc
    if maybe(r, 0.5):
        c["volumeMounts"] = [{"name": "varlog", "mountPath": "/var/log"}]
        if maybe(r, 0.3):
            c["volumeMounts"][0]["readOnly"] = True
        if maybe(r, 0.2):
            c["volumeMounts"][0]["mountPropagation"] = "HostToContainer"
    if maybe(r, 0.3):
        c["imagePullPolicy"] = r.choice(["IfNotPresent", "Always"])
    if maybe(r, 0.3):
        c["terminationMessagePath"] = "/dev/termination-log"
        c["terminationMessagePolicy"] = "File"
    if maybe(r, 0.1):
        c["resizePolicy"] = [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]  # 1.27+
    if init and maybe(r, 0.3):
        c["restartPolicy"] = "Always"  # sidecar, 1.28+
    return c


def volumes(r):
    out = []
    for i in range(r.randrange(4)):
        v = {"name": "v%d" % i}
        k = r.randrange(7)
        if k == 0:
            v["hostPath"] = {"path": "/var/log"}
            if maybe(r):
                v["hostPath"]["type"] = r.choice(["", "Directory", "DirectoryOrCreate"])
        elif k == 1:
            v["emptyDir"] = r.choice([{}, {"medium": "Memory"}, {"sizeLimit": r.choice(QUANTITIES_MEM)}])
        elif k == 2:
            v["configMap"] = {"name": "cfg"}
            if maybe(r):
                v["configMap"]["defaultMode"] = r.choice([420, 256])
            if maybe(r, 0.3):
                v["configMap"]["items"] = [{"key": "a", "path": "a"}]
        elif k == 3:
            v["secret"] = {"secretName": "s"}
            if maybe(r):
                v["secret"]["optional"] = r.choice([True, False])
        elif k == 4:
            v["projected"] = {"sources": [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3607}},
                                          {"downwardAPI": {"items": [{"path": "ns", "fieldRef": {
                                              "fieldPath": "metadata.namespace"}}]}}]}
        elif k == 5:
            v["downwardAPI"] = {"items": [{"path": "limits", "resourceFieldRef": {
                "containerName": "c0", "resource": "limits.cpu", "divisor": r.choice(["1m", "1", 1])}}]}
        else:
            v["csi"] = {"driver": "secrets-store.csi.k8s.io", "readOnly": True,
                        "volumeAttributes": r.choice([{}, {"secretProviderClass": "x"}])}
        out.append(v)
    return out


def tolerations(r):
    k = r.randrange(5)
    if k == 0:
        return "absent"
    if k == 1:
        return None
    if k == 2:
        return []
    if k == 3:
        return [{"operator": "Exists"}]
    return [{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
             "tolerationSeconds": r.choice([0, 300])}]


def affinity(r):
    k = r.randrange(4)
    if k == 0:
        return {}
    if k == 1:
        return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]}]}]}}}
    if k == 2:
        return {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchFields": [{"key": "metadata.name", "operator": "NotIn",
                                                          "values": ["n1"]}]}}]}}
    return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "x"}}, "topologyKey": "kubernetes.io/hostname"}]}}


def metadata(r, app):
    m = {}
    k = r.randrange(4)
    if k == 0:
        m["labels"] = {"app": app}
    elif k == 1:
        m["labels"] = {"app": app, "app.kubernetes.io/name": app, "tier": "node", "Z": "", "a": "ä"}
    elif k == 2:
        m["labels"] = {}
    if maybe(r, 0.4):
        m["annotations"] = r.choice([{}, {"prometheus.io/scrape": "true"},
                                     {"kubectl.kubernetes.io/restartedAt": "2024-01-01T00:00:00Z", "b": "", "a": "1"}])
    if maybe(r, 0.3):
        m["creationTimestamp"] = None
    if maybe(r, 0.05):
        m["name"] = app
    if maybe(r, 0.05):
        m["finalizers"] = []
    if maybe(r, 0.04):
        m["managedFields"] = [{"manager": "kubectl", "operation": "Update", "apiVersion": "apps/v1",
                               "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}}}]
    if maybe(r, 0.03):
        m["ownerReferences"] = [{"apiVersion": "v1", "kind": "X", "name": "o", "uid": "u-1", "controller": True}]
    return m


def template(r, i):
    app = r.choice(["fluent-bit", "node-exporter", "calico-node", "kube-proxy", "csi-node", "weave-net"])
    t = {}
    k = r.randrange(8)
    if k > 0:
        t["metadata"] = metadata(r, app)
    spec = {"containers": [container(r, j) for j in range(1 + (r.random() < 0.3))]}
    if maybe(r, 0.2):
        spec["initContainers"] = [container(r, 9, init=True)]
    vs = volumes(r)
    if vs or maybe(r, 0.1):
        spec["volumes"] = vs
    tl = tolerations(r)
    if tl != "absent":
        spec["tolerations"] = tl
    if maybe(r, 0.3):
        spec["nodeSelector"] = r.choice([{}, {"kubernetes.io/os": "linux"}, None])
    if maybe(r, 0.3):
        spec["affinity"] = affinity(r)
    if maybe(r, 0.3):
        spec["securityContext"] = r.choice([{}, {"runAsNonRoot": True}, {"fsGroup": 2000, "sysctls": []},
                                            {"seccompProfile": {"type": "RuntimeDefault"}}])
    for key, vals in (("hostNetwork", [True, False]), ("hostPID", [True]), ("dnsPolicy", ["ClusterFirstWithHostNet"]),
                      ("priorityClassName", ["system-node-critical", ""]),
                      ("serviceAccountName", ["agent"]), ("terminationGracePeriodSeconds", [30, 0, 10]),
                      ("restartPolicy", ["Always"]), ("schedulerName", ["default-scheduler"]),
                      ("automountServiceAccountToken", [False, True]), ("enableServiceLinks", [False]),
                      ("hostUsers", [False]), ("os", [{"name": "linux"}]),
                      ("imagePullSecrets", [[], [{"name": "regcred"}], [{}]]),
                      ("overhead", [{}, {"cpu": "250m"}]),
                      ("schedulingGates", [[{"name": "g"}]]),
                      ("readinessGates", [[{"conditionType": "x"}]]),
                      ("dnsConfig", [{}, {"options": [{"name": "ndots", "value": "2"}, {"name": "edns0"}]}]),
                      ("hostAliases", [[{"ip": "127.0.0.1", "hostnames": ["foo"]}]]),
                      ("topologySpreadConstraints", [[{"maxSkew": 1, "topologyKey": "zone",
                                                       "whenUnsatisfiable": "DoNotSchedule"}]]),
                      ("preemptionPolicy", ["Never"]), ("shareProcessNamespace", [True]),
                      ("setHostnameAsFQDN", [False]), ("hostname", ["h"]), ("runtimeClassName", ["gvisor"])):
        if maybe(r, 0.15):
            spec[key] = r.choice(vals)
    if maybe(r, 0.05):
        spec["resources"] = {"limits": {"cpu": "1"}}  # pod-level resources, 1.32+
    if maybe(r, 0.03):
        spec["unknownField"] = {"x": 1}  # ignored by every release's decoder
    t["spec"] = spec
    cc = r.choice([None, None, None, 0, 1, 2, 7, 2147483647])
    return {"name": "t%03d-%s" % (i, app), "template": t, "collisionCount": cc}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    r = random.Random(31)
    out = [template(r, i) for i in range(n)]
    # hand-picked edge cases
    out.append({"name": "zero-template", "template": {}, "collisionCount": None})
    out.append({"name": "zero-template-cc0", "template": {}, "collisionCount": 0})
    out.append({"name": "null-members", "template": {"metadata": None, "spec": {"containers": None,
                "volumes": None, "tolerations": None, "nodeSelector": None}}, "collisionCount": None})
    out.append({"name": "empty-members", "template": {"metadata": {"labels": {}, "annotations": {}},
                "spec": {"containers": [], "volumes": [], "tolerations": [], "nodeSelector": {}}},
                "collisionCount": None})
    for q in QUANTITIES_CPU + QUANTITIES_MEM + ["1Ki", "7Mi", "1023Ki", "0.001", "1m", "999999999999999999",
                                                  "9223372036854775807", "9223372036854775808", "1.5e3", "1e-3",
                                                  "1e-9", "1e-10", "100e2", "0.1Ki", "5Ei", "123456789012345678901k"]:
        out.append({"name": "quantity-%s" % json.dumps(q), "collisionCount": None, "template": {"spec": {
            "containers": [{"name": "c", "resources": {"requests": {"cpu": q}}}]}}})
    for p in [80, "80", "http", 0, "", 65535]:
        out.append({"name": "port-%s" % json.dumps(p), "collisionCount": None, "template": {"spec": {
            "containers": [{"name": "c", "livenessProbe": {"tcpSocket": {"port": p}}}]}}})
    # a template as the API server serves it (kubectl get ds -o yaml): every default written out; the
    # unit tests load a DaemonSet with it and pods labelled with these hashes, without ControllerRevisions
    out.append({"name": "served-fluentd", "collisionCount": None, "template": {
        "metadata": {"creationTimestamp": None, "labels": {"name": "fluentd"}},
        "spec": {
            "containers": [{
                "name": "fluentd", "image": "quay.io/fluentd_elasticsearch/fluentd:v2.5.2",
                "imagePullPolicy": "IfNotPresent",
                "resources": {"limits": {"memory": "200Mi"}, "requests": {"cpu": "100m", "memory": "200Mi"}},
                "livenessProbe": {"httpGet": {"path": "/healthz", "port": 24231, "scheme": "HTTP"},
                                  "failureThreshold": 3, "periodSeconds": 10, "successThreshold": 1,
                                  "timeoutSeconds": 1},
                "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                "volumeMounts": [{"mountPath": "/var/log", "name": "varlog"}]}],
            "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "securityContext": {}, "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane",
                             "operator": "Exists"}],
            "volumes": [{"hostPath": {"path": "/var/log", "type": ""}, "name": "varlog"}]}}})
    for line in out:
        sys.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
