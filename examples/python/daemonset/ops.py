"""Cordon, drain and upgrade planning (ds_node_cordon(3), ds_node_drain(3), ds_cluster_upgrade(3)).

Each function takes a snapshot (a Cluster, or any object with
_as_parameter_, or a ctypes pointer) and returns the plan as a dict;
nothing is changed.

    >>> from daemonset import Cluster, ops
    >>> with Cluster.from_file("examples/cluster") as c:
    ...     ops.drain(c, "worker-1", "2026-12-02T15:00:00Z")["verdict"]
    ...     ops.drain(c, "worker-1", "2026-12-02T15:00:00Z", {"ignoreDaemonSets": True})["verdict"]
    'failed'
    'blocked'
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional, Sequence, cast

from ._native import lib, call, take_json, encode
from .core import OptionsArg, Time, parse_time, options_arg as _opts

__all__ = ["cordon", "uncordon", "drain", "upgrade"]

lib.ds_node_cordon.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p,
                               ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_node_cordon.restype = ctypes.c_int
lib.ds_node_drain.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_void_p,
                              ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_node_drain.restype = ctypes.c_int
lib.ds_cluster_upgrade.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p,
                                   ctypes.c_int64, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_cluster_upgrade.restype = ctypes.c_int


def _now(now: Time) -> int:
    """Milliseconds since the epoch, from an int or RFC 3339 text."""
    if isinstance(now, (str, bytes)):
        return parse_time(now)
    return int(now)


def _cluster(cluster: Any) -> Any:
    """The snapshot argument: a Cluster (ValueError when closed) or anything ctypes takes."""
    h = getattr(cluster, "_h", None)
    return h() if callable(h) else cluster


def cordon(cluster: Any, node: str, desired: bool = True, options: OptionsArg = None) -> Dict[str, Any]:
    """`kubectl cordon NODE` (desired=False: uncordon) planned: the patch,
    kubectl's line, the taint the node lifecycle controller adds or removes,
    and what each DaemonSet does on the node afterwards."""
    out = ctypes.c_void_p()
    call(lib.ds_node_cordon, _cluster(cluster), encode(node), 1 if desired else 0, _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def uncordon(cluster: Any, node: str, options: OptionsArg = None) -> Dict[str, Any]:
    """`kubectl uncordon NODE` planned (cordon with desired=False)."""
    return cordon(cluster, node, False, options)


def drain(cluster: Any, node: str, now: Time, options: OptionsArg = None) -> Dict[str, Any]:
    """`kubectl drain NODE` planned at now (ms since the epoch or RFC 3339):
    pods with kubectl's statuses and texts, evictions against the
    PodDisruptionBudgets, the transcript and exit code, the verdict, and the
    DaemonSets that lose pods when the node reboots. options: a dict or a
    daemonset.Options (force, ignoreDaemonSets, deleteEmptyDirData, ...)."""
    out = ctypes.c_void_p()
    call(lib.ds_node_drain, _cluster(cluster), encode(node), _now(now), _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def upgrade(cluster: Any, nodes: Optional[Sequence[str]] = None, selector: Optional[str] = None, now: Time = 0,
            options: OptionsArg = None) -> Dict[str, Any]:
    """A cluster upgrade planned at now: the nodes named (a list) or those
    matching the label selector ("" for every node), drained in batches of
    the option batchSize, with budget warnings per batch."""
    names = [encode(n) for n in (nodes or [])]
    arr = (ctypes.c_char_p * len(names))(*names) if names else None
    out = ctypes.c_void_p()
    call(lib.ds_cluster_upgrade, _cluster(cluster), arr, len(names), encode(selector), _now(now), _opts(options),
         ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))
