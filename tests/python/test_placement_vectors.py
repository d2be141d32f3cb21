"""Upstream's TestNodeShouldRunDaemonPod rows (tests/vectors/upstream/should_run.json)
through the public ABI from Python: ds_cluster_new, ds_cluster_load and
ds_should_run called with ctypes prototypes declared here (on a handle of
their own, so they cannot clash with the daemonset package's)."""

import ctypes
import json
import os
import unittest

from daemonset import _native
from daemonset._native import DaemonSetError

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "vectors", "upstream", "should_run.json")

_lib = ctypes.CDLL(_native.lib._name)
_H = ctypes.c_void_p
_ERR = ctypes.c_void_p
_lib.ds_cluster_new.argtypes = [ctypes.c_void_p, ctypes.POINTER(_H), _ERR]
_lib.ds_cluster_new.restype = ctypes.c_int
_lib.ds_cluster_free.argtypes = [_H]
_lib.ds_cluster_free.restype = None
_lib.ds_cluster_load.argtypes = [_H, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), _ERR]
_lib.ds_cluster_load.restype = ctypes.c_int
_lib.ds_should_run.argtypes = [_H, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p,
                               ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), _ERR]
_lib.ds_should_run.restype = ctypes.c_int

# One row per outcome and per rule: placed, nodeName, nodeSelector, node
# affinity, unschedulable node, untolerated NoSchedule / NoExecute taints,
# a tolerated taint, the default not-ready toleration.
ROWS = [
    "[0] ShouldRunDaemonPod",
    "[2] ErrPodNotMatchHostName",
    "[3] ErrPodNotFitsHostPorts",
    "[6] ErrNodeSelectorNotMatch",
    "[8] ErrPodAffinityNotMatch",
    "[10] ShouldRunDaemonPodOnUnschedulableNode",
    "derived: TestTaintedNodeDaemonDoesNotLaunchIntolerantPod + TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod",
    "derived: TestNoExecuteTaintedDoesEvicitRunningIntolerantPod",
    "derived: TestTaintedNodeDaemonLaunchesToleratePod",
    "derived: TestNotReadyNodeDaemonLaunchesPod",
]


def _with_meta(obj, name, namespace=None):
    """A copy of obj whose metadata has a name (and namespace) when it lacks one:
    upstream's fixtures leave out what a snapshot needs."""
    obj = json.loads(json.dumps(obj))
    meta = obj.setdefault("metadata", {})
    if not meta.get("name"):
        meta["name"] = name
    if namespace is not None and not meta.get("namespace"):
        meta["namespace"] = namespace
    return obj


class Snapshot:
    def __init__(self):
        self.h = _H()
        _native.call(_lib.ds_cluster_new, None, ctypes.byref(self.h))

    def load(self, objects):
        text = json.dumps({"apiVersion": "v1", "kind": "List", "items": objects}).encode()
        n = ctypes.c_size_t()
        _native.call(_lib.ds_cluster_load, self.h, text, len(text), ctypes.byref(n))
        return n.value

    def should_run(self, namespace, name, node):
        run, cont = ctypes.c_int(-1), ctypes.c_int(-1)
        _native.call(_lib.ds_should_run, self.h, namespace.encode(), name.encode(), node.encode(), None,
                     ctypes.byref(run), ctypes.byref(cont))
        return run.value, cont.value

    def close(self):
        if self.h:
            _lib.ds_cluster_free(self.h)
            self.h = _H()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ShouldRunVectorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(VECTORS) as f:
            cls.cases = {c["name"]: c for c in json.load(f)["cases"]}

    def test_rows_exist(self):
        missing = [r for r in ROWS if r not in self.cases]
        self.assertEqual(missing, [])

    def test_should_run_rows(self):
        for row in ROWS:
            case = self.cases[row]
            with self.subTest(row=row), Snapshot() as snap:
                ds = _with_meta(case["daemonset"], "ds", "default")
                node = _with_meta(case["node"], "node")
                pods = [_with_meta(p, "pod-%d" % i, "default") for i, p in enumerate(case.get("pods", []))]
                self.assertEqual(snap.load([ds, node] + pods), 2 + len(pods))
                got = snap.should_run(ds["metadata"]["namespace"], ds["metadata"]["name"], node["metadata"]["name"])
                want = case["expect"]
                self.assertEqual(got, (int(want["shouldRun"]), int(want["shouldContinueRunning"])))

    def test_outcomes_covered(self):
        outcomes = {(self.cases[r]["expect"]["shouldRun"], self.cases[r]["expect"]["shouldContinueRunning"])
                    for r in ROWS}
        self.assertEqual(outcomes, {(True, True), (False, False), (False, True)})

    def test_unknown_node_is_an_error(self):
        case = self.cases[ROWS[0]]
        with Snapshot() as snap:
            snap.load([_with_meta(case["daemonset"], "ds", "default"), _with_meta(case["node"], "node")])
            with self.assertRaises(DaemonSetError) as cm:
                snap.should_run("default", "ds", "no-such-node")
            self.assertEqual(cm.exception.name, "DS_ENOTFOUND")


if __name__ == "__main__":
    unittest.main()
