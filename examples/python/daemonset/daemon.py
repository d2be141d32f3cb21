"""The pod the controller creates for a node, the template hash, revision
history and rollback (ds_daemon_pod(3), ds_template_hash(3),
ds_daemon_history(3), ds_daemon_rollback(3), ds_daemon_pod_updated(3)).
Every function only reads the snapshot.

    from daemonset.cluster import Cluster
    from daemonset import daemon
    with Cluster.from_file("examples/cluster") as c:
        pod = daemon.pod(c, "kube-system", "fluentd-logging", "worker-4")
        daemon.history(c, "kube-system", "fluentd-logging")["hash"]     # "7c9d8b6f54"
        daemon.rollback(c, "kube-system", "fluentd-logging")["message"]
        daemon.pod_updated(c, "kube-system", "fluentd-logging", "fluentd-logging-x7k2p")  # True
"""

import ctypes
import json

from ._native import lib, call, take_json, encode
from .core import options_arg as _opts

__all__ = ["pod", "history", "rollback", "pod_updated", "template_hash"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p
_H = ctypes.c_void_p

# ds_template_hash writes at most 15 characters and the NUL ("out needs 16 bytes").
_HASH_SIZE = 16

lib.ds_daemon_pod.argtypes = [_H, _P, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemon_pod.restype = ctypes.c_int
lib.ds_template_hash.argtypes = [_P, ctypes.c_size_t, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t, _ERR]
lib.ds_template_hash.restype = ctypes.c_int
lib.ds_daemon_history.argtypes = [_H, _P, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemon_history.restype = ctypes.c_int
lib.ds_daemon_rollback.argtypes = [_H, _P, _P, ctypes.c_int64, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemon_rollback.restype = ctypes.c_int
lib.ds_daemon_pod_updated.argtypes = [_H, _P, _P, _P, ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_daemon_pod_updated.restype = ctypes.c_int


def _cluster(cluster):
    return cluster._h()


def _int(value, what, bits):
    """An int that fits a C intN_t: ctypes would silently wrap a larger one."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an integer, not %s" % (what, type(value).__name__))
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise OverflowError("%s %d does not fit in int%d_t" % (what, value, bits))
    return value


def pod(cluster, namespace, name, node, options=None):
    """The Pod the controller creates for node, as it would POST it (a dict):
    generateName "<name>-", the template's labels plus controller-revision-hash
    and pod-template-generation, the controller owner reference, the default
    tolerations, and the matchFields metadata.name pin to node. The node need
    not be in the snapshot."""
    out = ctypes.c_void_p()
    call(lib.ds_daemon_pod, _cluster(cluster), encode(namespace), encode(name), encode(node), _opts(options),
         ctypes.byref(out))
    return take_json(out.value)


def template_hash(template, collision_count=None):
    """The hash of a pod template (a PodTemplateSpec as JSON or YAML text, or
    a dict) with the DaemonSet's status.collisionCount (None when not set), as
    text such as "7c9d8b6f54". Deterministic; ours, not upstream's Go hash."""
    if isinstance(template, dict):
        template = json.dumps(template)
    data = encode(template)
    count = -1 if collision_count is None else _int(collision_count, "collision_count", 32)
    buf = ctypes.create_string_buffer(_HASH_SIZE)
    call(lib.ds_template_hash, data, 0 if data is None else len(data), count, buf, _HASH_SIZE)
    return buf.value.decode()


def history(cluster, namespace, name, options=None):
    """The revision history as the controller sees it: {"hash", "current":
    {"name", "revision", "exists"}, "revisions": [{"revision", "name", "hash",
    "current"}], "podsByHash", "wouldDelete", "duplicates",
    "revisionHistoryLimit"}."""
    out = ctypes.c_void_p()
    call(lib.ds_daemon_history, _cluster(cluster), encode(namespace), encode(name), _opts(options),
         ctypes.byref(out))
    return take_json(out.value)


def rollback(cluster, namespace, name, to_revision=0, options=None):
    """kubectl rollout undo: restore the template of revision to_revision (0:
    the previous one). Returns {"message", "toRevision", "skipped", "patch",
    "daemonSet"}; raises DaemonSetError DS_ENOTFOUND for a revision not in the
    history and DS_ESTATE when there is no previous revision."""
    out = ctypes.c_void_p()
    call(lib.ds_daemon_rollback, _cluster(cluster), encode(namespace), encode(name),
         _int(to_revision, "to_revision", 64), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def pod_updated(cluster, namespace, name, pod_name):
    """Whether the snapshot's pod pod_name (in namespace) runs the DaemonSet's
    current revision (IsPodUpdated), as a bool."""
    updated = ctypes.c_int()
    call(lib.ds_daemon_pod_updated, _cluster(cluster), encode(namespace), encode(name), encode(pod_name),
         ctypes.byref(updated))
    return bool(updated.value)
