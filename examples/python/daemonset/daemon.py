"""The pod the controller creates for a node, the template hash, revision
history and rollback (ds_daemonset_pod(3), ds_template_hash(3),
ds_daemonset_history(3), ds_daemonset_rollback(3), ds_daemonset_pod_updated(3)).
Every function only reads the snapshot.

    >>> from daemonset import Cluster, daemon
    >>> with Cluster.from_file("examples/cluster") as c:
    ...     pod = daemon.pod(c, "kube-system/fluentd-logging", "worker-4")
    ...     pod["metadata"]["generateName"]
    ...     daemon.history(c, "kube-system", "fluentd-logging")["hash"]
    ...     daemon.pod_updated(c, "kube-system/fluentd-logging", "fluentd-logging-x7k2p")
    ...     daemon.rollback(c, "kube-system/fluentd-logging")["message"]
    'fluentd-logging-'
    '7c9d8b6f54'
    True
    'daemonset.apps/fluentd-logging rolled back'
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional, cast, overload

from ._native import lib, call, take_json, encode, document, Document, namespaced, required
from .cluster import Cluster
from .core import OptionsArg, options_arg as _opts

__all__ = ["pod", "history", "rollback", "pod_updated", "template_hash"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p
_H = ctypes.c_void_p

# ds_template_hash writes at most 15 characters and the NUL ("out needs 16 bytes").
_HASH_SIZE = 16

lib.ds_daemonset_pod.argtypes = [_H, _P, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemonset_pod.restype = ctypes.c_int
lib.ds_template_hash.argtypes = [_P, ctypes.c_size_t, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t, _ERR]
lib.ds_template_hash.restype = ctypes.c_int
lib.ds_daemonset_history.argtypes = [_H, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemonset_history.restype = ctypes.c_int
lib.ds_daemonset_rollback.argtypes = [_H, _P, _P, ctypes.c_int64, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemonset_rollback.restype = ctypes.c_int
# ds_daemonset_pod_updated takes options, which the 1.0 name did not: pod_updated() passes NULL (the
# defaults), as ds_daemon_pod_updated did.
lib.ds_daemonset_pod_updated.argtypes = [_H, _P, _P, _P, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_daemonset_pod_updated.restype = ctypes.c_int


def _cluster(cluster: Cluster) -> ctypes.c_void_p:
    return cluster._h()


def _int(value: Any, what: str, bits: int) -> int:
    """An int that fits a C intN_t: ctypes would silently wrap a larger one."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an integer, not %s" % (what, type(value).__name__))
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise OverflowError("%s %d does not fit in int%d_t" % (what, value, bits))
    return value


@overload
def pod(cluster: Cluster, key: str, /, node: str, options: OptionsArg = None) -> Dict[str, Any]: ...
@overload  # noqa: E302
def pod(cluster: Cluster, namespace: Optional[str], name: str, node: str,
        options: OptionsArg = None) -> Dict[str, Any]: ...


@namespaced(1)  # type: ignore[misc]
def pod(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None, node: Optional[str] = None,
        options: OptionsArg = None) -> Dict[str, Any]:
    """The Pod the controller creates for node, as it would POST it (a dict):
    generateName "<name>-", the template's labels plus controller-revision-hash
    and pod-template-generation, the controller owner reference, the default
    tolerations, and the matchFields metadata.name pin to node. The node need
    not be in the snapshot."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_pod, _cluster(cluster), encode(namespace), encode(required(name, "name")),
         encode(required(node, "node")), _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def template_hash(template: Document, collision_count: Optional[int] = None) -> str:
    """The hash of a pod template (a PodTemplateSpec as JSON or YAML text, or
    a dict) with the DaemonSet's status.collisionCount (None when not set), as
    text such as "7c9d8b6f54". Deterministic; ours, not upstream's Go hash."""
    data = document(template)
    count = -1 if collision_count is None else _int(collision_count, "collision_count", 32)
    buf = ctypes.create_string_buffer(_HASH_SIZE)
    call(lib.ds_template_hash, data, 0 if data is None else len(data), count, buf, _HASH_SIZE)
    return buf.value.decode()


@overload
def history(cluster: Cluster, key: str, /, options: OptionsArg = None) -> Dict[str, Any]: ...
@overload  # noqa: E302
def history(cluster: Cluster, namespace: Optional[str], name: str, options: OptionsArg = None) -> Dict[str, Any]: ...


@namespaced(1)  # type: ignore[misc]
def history(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None,
            options: OptionsArg = None) -> Dict[str, Any]:
    """The revision history as the controller sees it: {"hash", "current":
    {"name", "revision", "exists"}, "revisions": [{"revision", "name", "hash",
    "current"}], "podsByHash", "wouldDelete", "duplicates",
    "revisionHistoryLimit"}."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_history, _cluster(cluster), encode(namespace), encode(required(name, "name")),
         _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


@overload
def rollback(cluster: Cluster, key: str, /, to_revision: int = 0, options: OptionsArg = None) -> Dict[str, Any]: ...
@overload  # noqa: E302
def rollback(cluster: Cluster, namespace: Optional[str], name: str, to_revision: int = 0,
             options: OptionsArg = None) -> Dict[str, Any]: ...


@namespaced(1)  # type: ignore[misc]
def rollback(cluster: Cluster, namespace: Optional[str], name: Any = None, to_revision: int = 0,
             options: OptionsArg = None) -> Dict[str, Any]:
    """kubectl rollout undo: restore the template of revision to_revision (0:
    the previous one). Returns {"message", "toRevision", "skipped", "patch",
    "daemonSet"}; raises daemonset.NotFound (DS_ENOTFOUND) for a revision not
    in the history and daemonset.StateError (DS_ESTATE) when there is no
    previous revision."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_rollback, _cluster(cluster), encode(namespace), encode(required(name, "name")),
         _int(to_revision, "to_revision", 64), _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


@overload
def pod_updated(cluster: Cluster, key: str, /, pod_name: str) -> bool: ...
@overload  # noqa: E302
def pod_updated(cluster: Cluster, namespace: Optional[str], name: str, pod_name: str) -> bool: ...


@namespaced(1)  # type: ignore[misc]
def pod_updated(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None,
                pod_name: Optional[str] = None) -> bool:
    """Whether the snapshot's pod pod_name (in the DaemonSet's namespace) runs
    the DaemonSet's current revision (IsPodUpdated), as a bool."""
    updated = ctypes.c_int()
    call(lib.ds_daemonset_pod_updated, _cluster(cluster), encode(namespace), encode(required(name, "name")),
         encode(required(pod_name, "pod_name")), None, ctypes.byref(updated))
    return bool(updated.value)
