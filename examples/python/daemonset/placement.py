"""Placement and the scheduler's view over a Cluster (ds_daemonset_should_run(3),
ds_daemonset_explain(3), ds_pod_fit(3)). Every function only reads the snapshot.

A DaemonSet is named by namespace and name, or by one "namespace/name":

    >>> from daemonset import Cluster, placement
    >>> with Cluster.from_file("examples/cluster") as c:
    ...     placement.should_run(c, "kube-system", "fluentd-logging", "cp-1")
    ...     placement.should_run(c, "kube-system/fluentd-logging", "worker-1")
    ...     placement.explain(c, "kube-system/fluentd-logging")["rows"][0]["status"]
    (False, True)
    (True, True)
    'not-placed'
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional, Tuple, cast, overload

from ._native import lib, call, take_json, encode, document, Document, namespaced, required
from .cluster import Cluster
from .core import OptionsArg, options_arg as _opts

__all__ = ["should_run", "should_run_json", "explain", "fit"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p
_H = ctypes.c_void_p

# ds_daemonset_should_run gives the verdict, the JSON or both (each output may be NULL): should_run()
# asks for the two ints and should_run_json() for the JSON, as the 1.0 names did.
lib.ds_daemonset_should_run.argtypes = [_H, _P, _P, _P, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int),
                                        ctypes.POINTER(ctypes.c_int), _OUT, _ERR]
lib.ds_daemonset_should_run.restype = ctypes.c_int
lib.ds_daemonset_explain.argtypes = [_H, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemonset_explain.restype = ctypes.c_int
lib.ds_pod_fit.argtypes = [_H, _P, ctypes.c_size_t, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_pod_fit.restype = ctypes.c_int


def _cluster(cluster: Cluster) -> ctypes.c_void_p:
    return cluster._h()


@overload
def should_run(cluster: Cluster, key: str, /, node: str, options: OptionsArg = None) -> Tuple[bool, bool]: ...
@overload  # noqa: E302
def should_run(cluster: Cluster, namespace: Optional[str], name: str, node: str,
               options: OptionsArg = None) -> Tuple[bool, bool]: ...


@namespaced(1)  # type: ignore[misc]
def should_run(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None, node: Optional[str] = None,
               options: OptionsArg = None) -> Tuple[bool, bool]:
    """NodeShouldRunDaemonPod for DaemonSet namespace/name on node:
    (shouldRun, shouldContinueRunning) as two bools. An untolerated NoSchedule
    taint gives (False, True), an untolerated NoExecute taint (False, False)."""
    run, cont = ctypes.c_int(), ctypes.c_int()
    call(lib.ds_daemonset_should_run, _cluster(cluster), encode(namespace), encode(required(name, "name")),
         encode(required(node, "node")), _opts(options), ctypes.byref(run), ctypes.byref(cont), None)
    return bool(run.value), bool(cont.value)


@overload
def should_run_json(cluster: Cluster, key: str, /, node: str, options: OptionsArg = None) -> Dict[str, Any]: ...
@overload  # noqa: E302
def should_run_json(cluster: Cluster, namespace: Optional[str], name: str, node: str,
                    options: OptionsArg = None) -> Dict[str, Any]: ...


@namespaced(1)  # type: ignore[misc]
def should_run_json(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None,
                    node: Optional[str] = None, options: OptionsArg = None) -> Dict[str, Any]:
    """should_run() with the reasons: {"node", "shouldRun",
    "shouldContinueRunning", "reasons": [{"plugin", "message", "detail",
    "field", ...}]}."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_should_run, _cluster(cluster), encode(namespace), encode(required(name, "name")),
         encode(required(node, "node")), _opts(options), None, None, ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


@overload
def explain(cluster: Cluster, key: str, /, options: OptionsArg = None) -> Dict[str, Any]: ...
@overload  # noqa: E302
def explain(cluster: Cluster, namespace: Optional[str], name: str, options: OptionsArg = None) -> Dict[str, Any]: ...


@namespaced(1)  # type: ignore[misc]
def explain(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None,
            options: OptionsArg = None) -> Dict[str, Any]:
    """A DaemonSet over every node, in node-name order: {"daemonSet", "nodes",
    "summary", "rows": [{"node", "status", "shouldRun", "preferredScore", ...}],
    "warning"?}."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_explain, _cluster(cluster), encode(namespace), encode(required(name, "name")), _opts(options),
         ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def fit(cluster: Cluster, pod: Document, node: str, options: OptionsArg = None) -> Dict[str, Any]:
    """The scheduler's filters for a Pod (JSON or YAML text, or a dict) on a
    node of the snapshot, and preemption when it does not fit: {"node",
    "fits", "priority", "reasons", "preferredScore", "preferredScoreError"?,
    "preemption"?, "warning"?}."""
    data = document(pod)
    out = ctypes.c_void_p()
    call(lib.ds_pod_fit, _cluster(cluster), data, 0 if data is None else len(data), encode(node), _opts(options),
         ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))
