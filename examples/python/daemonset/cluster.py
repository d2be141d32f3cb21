"""The snapshot: a Cluster holds Nodes, Pods, DaemonSets, ControllerRevisions,
PodDisruptionBudgets, PriorityClasses and the identity of every other object
(ds_cluster_new(3), ds_cluster_load(3), ds_cluster_count(3)).

    >>> from daemonset import Cluster
    >>> with Cluster() as c:
    ...     c.load_file("examples/cluster")
    ...     c.summary()["nodeNames"][:3]
    ...     c.get("DaemonSet", "kube-system/fluentd-logging")["spec"]["updateStrategy"]["type"]
    ...     c.get("Node", "worker-1")["name"]
    21
    ['cp-1', 'gpu-1', 'worker-1']
    'RollingUpdate'
    'worker-1'

Loading and events mutate the snapshot; every other call only reads it.
Reads are safe from several threads at once; a mutation needs the caller's
exclusion (a lock around load/load_file/apply_events/remove).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union, cast

from ._native import lib, call, take_json, encode, document, Document, split_key
from .core import OptionsArg, options_arg as _opts

PathLike = Union[str, bytes, "os.PathLike[str]"]

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


def _text(data: Document) -> bytes:
    """str, bytes, or a dict (serialised as JSON) to bytes; a list of objects
    becomes a v1 List of them."""
    if isinstance(data, (list, tuple)):
        data = {"apiVersion": "v1", "kind": "List", "items": list(data)}
    text = document(data)
    if text is None:
        raise TypeError("expected JSON or YAML text, a dict or a list, not None")
    return text


def _object_key(namespace: Optional[str], name: Optional[str]) -> Tuple[Optional[str], str]:
    """(namespace, name) from the forms get() and remove() take."""
    if name is None:
        if namespace is None:
            raise TypeError("missing argument: name")
        if "/" in namespace:
            return split_key(namespace)
        return None, namespace
    return namespace, name


class Cluster:
    """A ds_cluster. Cluster(options=None) is an empty snapshot; options (a
    dict or a daemonset.Options) sets limits, featureGates and
    legacyDaemonSets for everything loaded into it. Close it with close() or
    a with block (a closed Cluster raises ValueError when used)."""

    def __init__(self, options: OptionsArg = None, _handle: Optional[int] = None) -> None:
        if _handle is None:
            handle = ctypes.c_void_p()
            call(lib.ds_cluster_new, _opts(options), ctypes.byref(handle))
            _handle = handle.value
        self._as_parameter_: Optional[ctypes.c_void_p] = ctypes.c_void_p(_handle)

    @classmethod
    def from_file(cls, path: PathLike, options: OptionsArg = None) -> "Cluster":
        """A new snapshot loaded from a file or a directory of manifests."""
        c = cls(options)
        try:
            c.load_file(path)
        except BaseException:
            c.close()
            raise
        return c

    def _h(self) -> ctypes.c_void_p:
        if self._as_parameter_ is None:
            raise ValueError("the cluster is closed")
        return self._as_parameter_

    def load(self, data: Document) -> int:
        """Add or replace objects from JSON or YAML text (str or bytes), a
        dict (one object or a List) or a list of objects. All or nothing.
        Returns the number of objects loaded.

        >>> with Cluster() as c:
        ...     c.load({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}})
        ...     c.load("apiVersion: v1\\nkind: Node\\nmetadata: {name: n2}\\n")
        ...     c.count("Node")
        1
        1
        2
        """
        text = _text(data)
        n = ctypes.c_size_t()
        call(lib.ds_cluster_load, self._h(), text, len(text), ctypes.byref(n))
        return n.value

    def load_file(self, path: PathLike) -> int:
        """Load a file, or every *.json, *.yaml and *.yml file of a directory
        (sorted by name), as one all-or-nothing batch. On error the exception's
        source names the file. Returns the number of objects loaded."""
        n = ctypes.c_size_t()
        call(lib.ds_cluster_load_file, self._h(), encode(os.fsdecode(path)), ctypes.byref(n))
        return n.value

    def apply_events(self, data: Union[Document, List[Mapping[str, Any]]]) -> int:
        """Apply watch events ({"type": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR,
        "object": {...}}), one or several concatenated; a dict or a list of
        dicts is accepted too. All or nothing; an ERROR event raises
        daemonset.TransportError (DS_ETRANSPORT). Returns the number of events
        applied (BOOKMARKs not counted)."""
        if isinstance(data, list):
            data = "\n".join(_text(e).decode("utf-8") for e in data)
        text = _text(data)
        n = ctypes.c_size_t()
        call(lib.ds_cluster_apply_events, self._h(), text, len(text), ctypes.byref(n))
        return n.value

    def remove(self, kind: str, namespace: Optional[str], name: Optional[str] = None) -> None:
        """Remove one object: kind "Node", "Pod", "DaemonSet",
        "ControllerRevision", "PodDisruptionBudget", "PriorityClass" or
        "group/Kind". The object is named as in get()."""
        ns, nm = _object_key(namespace, name)
        call(lib.ds_cluster_remove, self._h(), encode(kind), encode(ns), encode(nm))

    def count(self, kind: str) -> int:
        """Number of objects of a kind ("Node", ..., or "Other"); 0 for an
        unknown kind."""
        return cast("int", lib.ds_cluster_count(self._h(), encode(kind)))

    def summary(self) -> Dict[str, Any]:
        """{"nodes", "pods", "daemonSetCount", "controllerRevisions",
        "podDisruptionBudgets", "priorityClasses", "other", "nodeNames",
        "daemonSets"}."""
        out = ctypes.c_void_p()
        call(lib.ds_cluster_summary, self._h(), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    def get(self, kind: str, namespace: Optional[str], name: Optional[str] = None) -> Dict[str, Any]:
        """The stored object of a DaemonSet, ControllerRevision or
        PodDisruptionBudget, or the library's view of a Node or Pod, as a dict.
        The object is named by (namespace, name), by "namespace/name", or for
        a cluster-scoped kind by its name alone (or None, name). Raises
        daemonset.NotFound when it is not in the snapshot."""
        ns, nm = _object_key(namespace, name)
        out = ctypes.c_void_p()
        call(lib.ds_cluster_get, self._h(), encode(kind), encode(ns), encode(nm), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    def copy(self) -> "Cluster":
        """An independent copy (for what-if planning)."""
        out = ctypes.c_void_p()
        call(lib.ds_cluster_copy, self._h(), ctypes.byref(out))
        return Cluster(_handle=out.value)

    def close(self) -> None:
        """Free the snapshot (idempotent)."""
        h = getattr(self, "_as_parameter_", None)
        if h is not None:
            self._as_parameter_ = None
            lib.ds_cluster_free(h)

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return self._as_parameter_ is None

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._as_parameter_ is None:
            return "<Cluster closed>"
        return "<Cluster nodes=%d pods=%d daemonSets=%d>" % (
            self.count("Node"), self.count("Pod"), self.count("DaemonSet"))
