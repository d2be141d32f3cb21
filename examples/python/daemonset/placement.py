"""Placement and the scheduler's view over a Cluster (ds_should_run(3),
ds_explain(3), ds_fit(3)). Every function only reads the snapshot.

    from daemonset.cluster import Cluster
    from daemonset import placement
    with Cluster.from_file("examples/cluster") as c:
        placement.should_run(c, "kube-system", "fluentd-logging", "cp-1")  # (False, True)
"""

import ctypes
import json

from ._native import lib, call, take_json, encode
from .core import options_arg as _opts

__all__ = ["should_run", "should_run_json", "explain", "fit"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p
_H = ctypes.c_void_p

lib.ds_should_run.argtypes = [_H, _P, _P, _P, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int),
                              ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_should_run.restype = ctypes.c_int
lib.ds_should_run_json.argtypes = [_H, _P, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_should_run_json.restype = ctypes.c_int
lib.ds_explain.argtypes = [_H, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_explain.restype = ctypes.c_int
lib.ds_fit.argtypes = [_H, _P, ctypes.c_size_t, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_fit.restype = ctypes.c_int


def _cluster(cluster):
    return cluster._h()


def should_run(cluster, namespace, name, node, options=None):
    """NodeShouldRunDaemonPod for DaemonSet namespace/name on node:
    (shouldRun, shouldContinueRunning) as two bools. An untolerated NoSchedule
    taint gives (False, True), an untolerated NoExecute taint (False, False)."""
    run, cont = ctypes.c_int(), ctypes.c_int()
    call(lib.ds_should_run, _cluster(cluster), encode(namespace), encode(name), encode(node), _opts(options),
         ctypes.byref(run), ctypes.byref(cont))
    return bool(run.value), bool(cont.value)


def should_run_json(cluster, namespace, name, node, options=None):
    """The same with the reasons: {"node", "shouldRun",
    "shouldContinueRunning", "reasons": [{"plugin", "message", "detail",
    "field", ...}]}."""
    out = ctypes.c_void_p()
    call(lib.ds_should_run_json, _cluster(cluster), encode(namespace), encode(name), encode(node), _opts(options),
         ctypes.byref(out))
    return take_json(out.value)


def explain(cluster, namespace, name, options=None):
    """A DaemonSet over every node, in node-name order: {"daemonSet", "nodes",
    "summary", "rows": [{"node", "status", "shouldRun", "preferredScore", ...}],
    "warning"?}."""
    out = ctypes.c_void_p()
    call(lib.ds_explain, _cluster(cluster), encode(namespace), encode(name), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def fit(cluster, pod, node, options=None):
    """The scheduler's filters for a Pod (JSON or YAML text, or a dict) on a
    node of the snapshot, and preemption when it does not fit: {"node",
    "fits", "priority", "reasons", "preferredScore", "preferredScoreError"?,
    "preemption"?, "warning"?}."""
    if isinstance(pod, dict):
        pod = json.dumps(pod)
    data = encode(pod)
    out = ctypes.c_void_p()
    call(lib.ds_fit, _cluster(cluster), data, len(data), encode(node), _opts(options), ctypes.byref(out))
    return take_json(out.value)
