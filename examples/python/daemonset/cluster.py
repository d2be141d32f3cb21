"""The snapshot: a Cluster holds Nodes, Pods, DaemonSets, ControllerRevisions,
PodDisruptionBudgets, PriorityClasses and the identity of every other object
(ds_cluster_new(3), ds_cluster_load(3), ds_cluster_count(3)).

    with Cluster() as c:
        c.load_file("examples/cluster")
        print(c.summary()["nodeNames"])

Loading and events mutate the snapshot; every other call only reads it.
Reads are safe from several threads at once; a mutation needs the caller's
exclusion (a lock around load/load_file/apply_events/remove).
"""

import ctypes
import json
import os

from ._native import lib, call, take_json, encode
from .core import options_arg as _opts

__all__ = ["Cluster"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p
_H = ctypes.c_void_p  # ds_cluster *

lib.ds_cluster_new.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), _ERR]
lib.ds_cluster_new.restype = ctypes.c_int
lib.ds_cluster_free.argtypes = [_H]
lib.ds_cluster_free.restype = None
lib.ds_cluster_copy.argtypes = [_H, ctypes.POINTER(ctypes.c_void_p), _ERR]
lib.ds_cluster_copy.restype = ctypes.c_int
lib.ds_cluster_load.argtypes = [_H, _P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), _ERR]
lib.ds_cluster_load.restype = ctypes.c_int
lib.ds_cluster_load_file.argtypes = [_H, _P, ctypes.POINTER(ctypes.c_size_t), _ERR]
lib.ds_cluster_load_file.restype = ctypes.c_int
lib.ds_cluster_apply_events.argtypes = [_H, _P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), _ERR]
lib.ds_cluster_apply_events.restype = ctypes.c_int
lib.ds_cluster_remove.argtypes = [_H, _P, _P, _P, _ERR]
lib.ds_cluster_remove.restype = ctypes.c_int
lib.ds_cluster_count.argtypes = [_H, _P]
lib.ds_cluster_count.restype = ctypes.c_size_t
lib.ds_cluster_summary.argtypes = [_H, _OUT, _ERR]
lib.ds_cluster_summary.restype = ctypes.c_int
lib.ds_cluster_get.argtypes = [_H, _P, _P, _P, _OUT, _ERR]
lib.ds_cluster_get.restype = ctypes.c_int
# ds_cluster_load_json takes a jansson json_t *, which Python cannot make:
# load() accepts a dict or list instead and serialises it.


def _text(data):
    """str, bytes, or a dict/list (serialised as JSON) to bytes."""
    if isinstance(data, (dict, list)):
        data = json.dumps(data)
    return encode(data)


class Cluster:
    """A ds_cluster. Cluster(options=None) is an empty snapshot; options (a
    daemonset.Options) sets limits, featureGates and legacyDaemonSets for
    everything loaded into it. Close it with close() or a with block."""

    def __init__(self, options=None, _handle=None):
        if _handle is None:
            handle = ctypes.c_void_p()
            call(lib.ds_cluster_new, _opts(options), ctypes.byref(handle))
            _handle = handle.value
        self._as_parameter_ = ctypes.c_void_p(_handle)

    @classmethod
    def from_file(cls, path, options=None):
        """A new snapshot loaded from a file or a directory of manifests."""
        c = cls(options)
        try:
            c.load_file(path)
        except BaseException:
            c.close()
            raise
        return c

    def _h(self):
        if self._as_parameter_ is None:
            raise ValueError("the cluster is closed")
        return self._as_parameter_

    def load(self, data):
        """Add or replace objects from JSON or YAML text (str or bytes), or a
        dict/list (one object or a List). All or nothing. Returns the number
        of objects loaded."""
        text = _text(data)
        n = ctypes.c_size_t()
        call(lib.ds_cluster_load, self._h(), text, len(text), ctypes.byref(n))
        return n.value

    def load_file(self, path):
        """Load a file, or every *.json, *.yaml and *.yml file of a directory
        (sorted by name), as one all-or-nothing batch. On error the exception's
        source names the file. Returns the number of objects loaded."""
        n = ctypes.c_size_t()
        call(lib.ds_cluster_load_file, self._h(), encode(os.fspath(path)), ctypes.byref(n))
        return n.value

    def apply_events(self, data):
        """Apply watch events ({"type": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR,
        "object": {...}}), one or several concatenated; a dict or a list of
        dicts is accepted too. All or nothing; an ERROR event raises
        DaemonSetError with name DS_ETRANSPORT. Returns the number of events
        applied (BOOKMARKs not counted)."""
        if isinstance(data, list):
            data = "\n".join(json.dumps(e) for e in data)
        text = _text(data)
        n = ctypes.c_size_t()
        call(lib.ds_cluster_apply_events, self._h(), text, len(text), ctypes.byref(n))
        return n.value

    def remove(self, kind, namespace, name):
        """Remove one object: kind "Node", "Pod", "DaemonSet",
        "ControllerRevision", "PodDisruptionBudget", "PriorityClass" or
        "group/Kind"; namespace None for cluster-scoped kinds."""
        call(lib.ds_cluster_remove, self._h(), encode(kind), encode(namespace), encode(name))

    def count(self, kind):
        """Number of objects of a kind ("Node", ..., or "Other"); 0 for an
        unknown kind."""
        return lib.ds_cluster_count(self._h(), encode(kind))

    def summary(self):
        """{"nodes", "pods", "daemonSetCount", "controllerRevisions",
        "podDisruptionBudgets", "priorityClasses", "other", "nodeNames",
        "daemonSets"}."""
        out = ctypes.c_void_p()
        call(lib.ds_cluster_summary, self._h(), ctypes.byref(out))
        return take_json(out.value)

    def get(self, kind, namespace, name):
        """The stored object of a DaemonSet, ControllerRevision or
        PodDisruptionBudget, or the library's view of a Node or Pod, as a dict."""
        out = ctypes.c_void_p()
        call(lib.ds_cluster_get, self._h(), encode(kind), encode(namespace), encode(name), ctypes.byref(out))
        return take_json(out.value)

    def copy(self):
        """An independent copy (for what-if planning)."""
        out = ctypes.c_void_p()
        call(lib.ds_cluster_copy, self._h(), ctypes.byref(out))
        return Cluster(_handle=out.value)

    def close(self):
        """Free the snapshot (idempotent)."""
        h = getattr(self, "_as_parameter_", None)
        if h is not None:
            self._as_parameter_ = None
            lib.ds_cluster_free(h)

    @property
    def closed(self):
        return self._as_parameter_ is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        self.close()

    def __repr__(self):
        if self._as_parameter_ is None:
            return "<Cluster closed>"
        return "<Cluster nodes=%d pods=%d daemonSets=%d>" % (
            self.count("Node"), self.count("Pod"), self.count("DaemonSet"))
