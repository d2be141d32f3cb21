"""Parsed objects (ds_object(3)): a document parsed once and reused.

Every function of daemonset.pure that takes documents also takes Objects in
their place, and then decides on what the objects hold, without reading any
text again (the _obj functions of <daemonset/object.h>). Parse once, decide
many times:

    >>> from daemonset import pure
    >>> tol = pure.Object({"key": "gpu", "operator": "Exists"}, "Toleration")
    >>> taint = pure.Object({"key": "gpu", "value": "a100", "effect": "NoSchedule"}, "Taint")
    >>> pure.tolerates_taint(tol, taint)
    True

The batches ask one question of many objects in one call (one crossing of
the FFI), the answers in a list:

    >>> ds = pure.Object({"kind": "DaemonSet", "metadata": {"name": "agent"},
    ...                   "spec": {"template": {"spec": {"nodeSelector": {"disk": "ssd"}}}}})
    >>> nodes = pure.ObjectArray([pure.Object({"kind": "Node", "metadata": {"name": n, "labels": labels}})
    ...                           for n, labels in (("n1", {"disk": "ssd"}), ("n2", {}))])
    >>> pure.node_should_run_nodes(ds, nodes)
    [(True, True), (False, False)]

An Object is immutable and may be shared by threads; it is freed with its last
Python reference. Standard library only (ctypes).
"""

from __future__ import annotations

import ctypes
from typing import Any, Iterable, List, NoReturn, Optional, Sequence, Tuple, Union

from ._native import lib, call, document, encode, Document
from .core import OptionsArg, options_arg

__all__ = ["Object", "ObjectArray", "TYPES"]

#: The types ds_object_parse knows (None: the object's kind says, a Node or a DaemonSet).
TYPES = ("Toleration", "Taint", "[]Toleration", "[]Taint", "Node", "Pod", "DaemonSet", "Affinity", "List")

_P = ctypes.c_void_p
_OUT = ctypes.POINTER(ctypes.c_void_p)

try:
    _parse = lib.ds_object_parse
    _parse.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, _P, _OUT, _P]
    _parse.restype = ctypes.c_int
    _get = lib.ds_cluster_get_object
    _get.argtypes = [_P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _OUT, _P]
    _get.restype = ctypes.c_int
    _free = lib.ds_object_free
    _free.argtypes = [_P]
    _free.restype = None
    _type = lib.ds_object_type
    _type.argtypes = [_P]
    _type.restype = ctypes.c_char_p
    HAVE_OBJECTS = True
except AttributeError:  # a library before 1.2
    HAVE_OBJECTS = False


def _unsupported() -> NoReturn:
    from .errors import Unsupported
    from .core import version
    raise Unsupported(-9, "", "parsed objects need libdaemonset 1.2 (loaded: %s)" % version())


class Object:
    """A document parsed once (ds_object_parse(3)) as type: "Toleration",
    "Taint", "[]Toleration", "[]Taint", "Node", "Pod", "DaemonSet",
    "Affinity", "List", or None (its kind says: a Node or a DaemonSet). The
    document is text (JSON or YAML) or a dict/list; options are those it is
    read with (feature gates, limits)."""

    __slots__ = ("_as_parameter_", "_ptr", "type")

    def __init__(self, doc: Document, type: Optional[str] = None, options: OptionsArg = None) -> None:
        if not HAVE_OBJECTS:
            _unsupported()
        data = document(doc)
        o = options_arg(options)
        h = ctypes.c_void_p()
        self._ptr = 0
        call(_parse, encode(type), data, 0 if data is None else len(data), o, ctypes.byref(h))
        self._adopt(h)

    def _adopt(self, h: ctypes.c_void_p) -> None:
        self._as_parameter_ = h
        self._ptr = h.value or 0
        self.type = _type(h).decode()

    @classmethod
    def from_cluster(cls, cluster: Any, kind: str, namespace: Optional[str], name: str) -> "Object":
        """The Node name or the DaemonSet namespace/name of a Cluster, as an
        Object of its own (ds_cluster_get_object(3)): a copy that outlives
        the cluster's changes."""
        if not HAVE_OBJECTS:
            _unsupported()
        self = cls.__new__(cls)
        self._ptr = 0
        h = ctypes.c_void_p()
        call(_get, cluster, encode(kind), encode(namespace), encode(name), ctypes.byref(h))
        self._adopt(h)
        return self

    def __repr__(self) -> str:
        return "<daemonset Object %s>" % self.type

    def __del__(self) -> None:
        p = getattr(self, "_ptr", 0)
        if p:
            self._ptr = 0
            _free(p)


class ObjectArray:
    """A sequence of Objects as the batch functions take it: the C array of
    their handles made once, for calls that pass the same objects again."""

    __slots__ = ("objects", "_array")

    def __init__(self, objects: Iterable[Object]) -> None:
        self.objects: Tuple[Object, ...] = tuple(objects)
        for o in self.objects:
            if not isinstance(o, Object):
                raise TypeError("expected Objects, not %s" % type(o).__name__)
        self._array = (ctypes.c_void_p * len(self.objects))(*[o._ptr for o in self.objects])

    def __len__(self) -> int:
        return len(self.objects)

    def __getitem__(self, i: int) -> Object:
        return self.objects[i]


def as_array(objects: Union[ObjectArray, Sequence[Object]]) -> ObjectArray:
    """objects as an ObjectArray (the same one when it is one)."""
    return objects if isinstance(objects, ObjectArray) else ObjectArray(objects)


def as_object(doc: Any, type: str, options: OptionsArg = None) -> Object:
    """doc itself when it is an Object, else doc parsed as type."""
    return doc if isinstance(doc, Object) else Object(doc, type, options)


def any_object(*docs: Any) -> bool:
    """Whether any of the arguments is an Object (the call then takes the _obj form)."""
    for d in docs:
        if isinstance(d, Object):
            return True
    return False


class ShouldRunResult(ctypes.Structure):
    """ds_should_run_result."""
    _fields_ = [("size", ctypes.c_size_t), ("should_run", ctypes.c_int), ("should_continue_running", ctypes.c_int),
                ("reason", ctypes.c_int), ("taint", ctypes.c_int)]


def should_run_results(n: int) -> Any:
    """An array of n ds_should_run_result, its size set."""
    arr = (ShouldRunResult * n)()
    if n:
        arr[0].size = ctypes.sizeof(ShouldRunResult)
    return arr


def verdict_pairs(arr: Any, n: int) -> List[Tuple[bool, bool]]:
    """[(should_run, should_continue_running)] of a results array, read from its buffer at once."""
    if not n:
        return []
    words = ctypes.sizeof(ShouldRunResult) // ctypes.sizeof(ctypes.c_int)
    ints = memoryview(arr).cast("B").cast("i")
    first = ShouldRunResult.should_run.offset // ctypes.sizeof(ctypes.c_int)
    runs = ints[first::words].tolist()
    conts = ints[first + 1::words].tolist()
    return [(r != 0, c != 0) for r, c in zip(runs, conts)]
