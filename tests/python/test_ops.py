"""ctypes tests for cordon, drain and upgrade planning: ds_cordon, ds_drain, ds_upgrade, errors."""

import ctypes
import json
import unittest

import daemonset.ops as ops
from daemonset import DaemonSetError, Options
from daemonset._native import lib, call

# The snapshot through fresh prototypes (not lib's attributes, which the
# cluster module owns).
_new = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)(
    ("ds_cluster_new", lib))
_load = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                         ctypes.c_void_p)(("ds_cluster_load", lib))
_free = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(("ds_cluster_free", lib))


class Snapshot:
    def __init__(self, objects):
        handle = ctypes.c_void_p()
        call(_new, None, ctypes.byref(handle))
        self._as_parameter_ = handle
        data = json.dumps({"apiVersion": "v1", "kind": "List", "items": objects}).encode()
        call(_load, handle, data, len(data), None)

    def close(self):
        if self._as_parameter_ is not None:
            _free(self._as_parameter_)
            self._as_parameter_ = None

    def __del__(self):
        self.close()


def node(name, labels=None, unschedulable=False):
    n = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels or {}}}
    if unschedulable:
        n["spec"] = {"unschedulable": True}
    return n


def pod(name, node_name, owner=None, ns="default", labels=None):
    md = {"name": name, "namespace": ns, "labels": labels or {}}
    if owner:
        md["ownerReferences"] = [{"apiVersion": owner[0], "kind": owner[1], "name": owner[2],
                                  "uid": "uid-" + owner[2], "controller": True}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": md,
            "spec": {"nodeName": node_name, "containers": [{"name": "c", "image": "i"}]},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}


DS = {"apiVersion": "apps/v1", "kind": "DaemonSet",
      "metadata": {"name": "proxy", "namespace": "kube-system", "uid": "uid-proxy"},
      "spec": {"selector": {"matchLabels": {"app": "proxy"}},
               "template": {"metadata": {"labels": {"app": "proxy"}},
                            "spec": {"containers": [{"name": "c", "image": "i"}]}}}}

OBJECTS = [node("w1"), node("w2", unschedulable=True), node("cp", {"node-role.kubernetes.io/control-plane": ""}), DS,
           pod("proxy-w1", "w1", ("apps/v1", "DaemonSet", "proxy"), "kube-system", {"app": "proxy"}),
           pod("web-1", "w1", ("apps/v1", "ReplicaSet", "web"), labels={"app": "web"}),
           pod("naked", "w2"),
           {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web", "namespace": "default"},
            "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}},
            "status": {"disruptionsAllowed": 0, "currentHealthy": 1, "desiredHealthy": 1, "expectedPods": 1}}]


class OpsTest(unittest.TestCase):
    def setUp(self):
        self.c = Snapshot(OBJECTS)

    def tearDown(self):
        self.c.close()

    def test_cordon(self):
        r = ops.cordon(self.c, "w1")
        self.assertEqual(r["patch"], {"spec": {"unschedulable": True}})
        self.assertEqual(r["stdout"], ["node/w1 cordoned"])
        self.assertEqual(r["taint"]["action"], "add")
        self.assertEqual([(d["name"], d["effect"]) for d in r["daemonSets"]], [("proxy", "keeps")])
        r = ops.cordon(self.c, "node/w2")
        self.assertIsNone(r["patch"])
        self.assertEqual(r["stdout"], ["node/w2 already cordoned"])
        self.assertEqual(r["daemonSets"][0]["effect"], "creates")
        r = ops.uncordon(self.c, "w2")
        self.assertEqual(r["patch"], {"spec": {"unschedulable": None}})
        self.assertEqual(r["stdout"], ["node/w2 uncordoned"])

    def test_drain(self):
        r = ops.drain(self.c, "w1", "2025-01-01T00:00:00Z")
        self.assertEqual(r["verdict"], "failed")
        self.assertEqual(r["errors"],
                         ["cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/proxy-w1"])
        self.assertEqual(r["transcript"]["exitCode"], 1)
        self.assertEqual(r["transcript"]["stderr"][-1],
                         "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/proxy-w1")
        r = ops.drain(self.c, "w1", 0, Options(ignoreDaemonSets=True))
        self.assertEqual(r["verdict"], "blocked")
        self.assertEqual(r["blocked"][0]["message"], "Cannot evict pod as it would violate the pod's disruption budget.")
        self.assertFalse(r["transcript"]["complete"])
        self.assertIsNone(r["transcript"]["exitCode"])
        self.assertEqual(r["daemonSets"][0]["recreatedAfterReboot"], True)
        r = ops.drain(self.c, "w1", 0, Options(ignoreDaemonSets=True, disableEviction=True, gracePeriodSeconds=7))
        self.assertEqual(r["verdict"], "drained")
        self.assertEqual(r["deleteOptions"], {"gracePeriodSeconds": 7})
        self.assertEqual(r["transcript"]["stdout"], ["node/w1 cordoned", "pod/web-1 deleted", "node/w1 drained"])
        self.assertEqual(r["transcript"]["stderr"],
                         ["Warning: ignoring DaemonSet-managed Pods: kube-system/proxy-w1"])

    def test_upgrade(self):
        r = ops.upgrade(self.c, selector="", options=Options(ignoreDaemonSets=True, force=True))
        self.assertEqual(r["nodes"], ["w1", "w2", "cp"])
        self.assertEqual([b["nodes"] for b in r["batches"]], [["w1"], ["w2"], ["cp"]])
        self.assertEqual([b["controlPlane"] for b in r["batches"]], [False, False, True])
        self.assertEqual(r["batches"][0]["blocked"][0]["name"], "web-1")
        self.assertEqual(r["batches"][1]["evictions"][0]["name"], "naked")
        r = ops.upgrade(self.c, ["w2", "w1"], options=Options(batchSize=2, ignoreDaemonSets=True, force=True))
        self.assertEqual([b["nodes"] for b in r["batches"]], [["w1", "w2"]])
        self.assertEqual(r["batches"][0]["uncordonAfter"], ["w1"])

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            ops.drain(self.c, "nope", 0)
        self.assertEqual(cm.exception.name, "DS_ENOTFOUND")
        self.assertEqual(cm.exception.path, "node")
        with self.assertRaises(DaemonSetError) as cm:
            ops.drain(self.c, "w1", 0, Options(podSelector="app in (web"))
        self.assertEqual(cm.exception.name, "DS_EVALUE")
        self.assertEqual(cm.exception.path, "podSelector")
        self.assertTrue(cm.exception.message.startswith("--pod-selector=<pod_selector> must be a valid label selector"))
        with self.assertRaises(DaemonSetError) as cm:
            ops.upgrade(self.c, ["w1"], selector="x=y")
        self.assertEqual(cm.exception.name, "DS_EARG")
        with self.assertRaises(DaemonSetError) as cm:
            ops.cordon(self.c, "pod/w1")
        self.assertEqual(cm.exception.name, "DS_EARG")


if __name__ == "__main__":
    unittest.main()
