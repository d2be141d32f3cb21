"""Cordon, drain and upgrade planning (ds_cordon(3), ds_drain(3), ds_upgrade(3)).

Each function takes a snapshot (a ds_cluster: any object with _as_parameter_,
or a ctypes pointer) and returns the plan as a dict; nothing is changed.
"""

import ctypes

from ._native import lib, call, take_json, encode
from .core import parse_time, options_arg as _opts

__all__ = ["cordon", "uncordon", "drain", "upgrade"]

lib.ds_cordon.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p,
                          ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_cordon.restype = ctypes.c_int
lib.ds_drain.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_void_p,
                         ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_drain.restype = ctypes.c_int
lib.ds_upgrade.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p,
                           ctypes.c_int64, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_upgrade.restype = ctypes.c_int


def _now(now):
    """Milliseconds since the epoch, from an int or RFC 3339 text."""
    if isinstance(now, (str, bytes)):
        return parse_time(now)
    return int(now)


def cordon(cluster, node, desired=True, options=None):
    """`kubectl cordon NODE` (desired=False: uncordon) planned: the patch,
    kubectl's line, the taint the node lifecycle controller adds or removes,
    and what each DaemonSet does on the node afterwards."""
    out = ctypes.c_void_p()
    call(lib.ds_cordon, cluster, encode(node), 1 if desired else 0, _opts(options), ctypes.byref(out))
    return take_json(out.value)


def uncordon(cluster, node, options=None):
    """`kubectl uncordon NODE` planned (cordon with desired=False)."""
    return cordon(cluster, node, False, options)


def drain(cluster, node, now, options=None):
    """`kubectl drain NODE` planned at now (ms since the epoch or RFC 3339):
    pods with kubectl's statuses and texts, evictions against the
    PodDisruptionBudgets, the transcript and exit code, the verdict, and the
    DaemonSets that lose pods when the node reboots. options: a
    daemonset.Options (force, ignoreDaemonSets, deleteEmptyDirData, ...)."""
    out = ctypes.c_void_p()
    call(lib.ds_drain, cluster, encode(node), _now(now), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def upgrade(cluster, nodes=None, selector=None, now=0, options=None):
    """A cluster upgrade planned at now: the nodes named (a list) or those
    matching the label selector ("" for every node), drained in batches of
    the option batchSize, with budget warnings per batch."""
    names = [encode(n) for n in (nodes or [])]
    arr = (ctypes.c_char_p * len(names))(*names) if names else None
    out = ctypes.c_void_p()
    call(lib.ds_upgrade, cluster, arr, len(names), encode(selector), _now(now), _opts(options), ctypes.byref(out))
    return take_json(out.value)
