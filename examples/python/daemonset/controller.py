"""The controller driver with a transport written in Python, and leader
election on a Lease (ds_controller_new(3), ds_transport(3), ds_lease_try_acquire_or_renew(3)).

A transport is any object with these methods; each returns the response body
(a dict, or None when there is none) or raises TransportError(result, message)
(this module's TransportError, a subclass of daemonset.TransportError):

    list(resource, namespace, selector)        -> a List
    get(resource, namespace, name)             -> the object
    create(resource, namespace, body)          -> the created object
    delete(resource, namespace, name, uid)     -> anything
    update_status(resource, namespace, name, body)
    patch(resource, namespace, name, patch_type, body)
    record_event(namespace, body)

resource is "nodes", "pods", "daemonsets", "controllerrevisions" or "events";
namespace is None for cluster-scoped resources and lists across namespaces.

    from daemonset import controller
    with controller.Controller(my_transport) as c:
        c.resync(now)
        c.apply_events(watch_lines, now)
        results, wait_ms = c.run(now)
        c.sync("kube-system/fluentd-logging", now)    # or c.sync("kube-system", "fluentd-logging", now)

Times are RFC 3339 text or milliseconds since the epoch. The library copies
every body a callback hands over (ds_reply_append2), so Python owns its own
strings and the library its own: nothing crosses the boundary to be freed.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast, overload

from ._native import lib, call, take_json, take_string, encode, document, Document, namespaced, required
from . import errors
from .core import OptionsArg, Time, options_arg, time_arg

__all__ = ["Controller", "TransportError", "LeaseConfig", "lease_decide", "lease_release", "lease_is_leader",
           "parse_objects", "OK", "NOT_FOUND", "CONFLICT", "ALREADY_EXISTS", "INVALID", "TRANSIENT", "FATAL"]

# ds_transport_result
OK, NOT_FOUND, CONFLICT, ALREADY_EXISTS, INVALID, TRANSIENT, FATAL = range(7)

_P = ctypes.c_char_p
_V = ctypes.c_void_p
_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p

_LIST = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _P, _V)
_GET = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _P, _V)
_CREATE = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _P, _V)
_REMOVE = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _P, _P, _V)
_UPDATE_STATUS = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _P, _P, _V)
_PATCH = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _P, _P, _P, _V)
_EVENT = ctypes.CFUNCTYPE(ctypes.c_int, _V, _P, _P, _V)


class _Transport(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("user_data", _V),
        ("list", _LIST),
        ("get", _GET),
        ("create", _CREATE),
        ("remove", _REMOVE),
        ("update_status", _UPDATE_STATUS),
        ("patch", _PATCH),
        ("record_event", _EVENT),
    ]


class _Config(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("namespace_", _P),
        ("retry_base_ms", ctypes.c_int64),
        ("retry_max_ms", ctypes.c_int64),
        ("component", _P),
    ]


class _SyncResult(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("found", ctypes.c_int),
        ("expectations_satisfied", ctypes.c_int),
        ("creates", ctypes.c_int),
        ("deletes", ctypes.c_int),
        ("failed_calls", ctypes.c_int),
        ("status_written", ctypes.c_int),
        ("requeue_after_ms", ctypes.c_int64),
    ]


class LeaseConfig(ctypes.Structure):
    """ds_lease_config: LeaseConfig("replica-1", "kube-system", "my-controller", 15000, 10000)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("identity", _P),
        ("namespace_", _P),
        ("name", _P),
        ("lease_duration_ms", ctypes.c_int64),
        ("renew_deadline_ms", ctypes.c_int64),
    ]

    def __init__(self, identity: str, namespace: str, name: str, lease_duration_ms: int = 15000,
                 renew_deadline_ms: int = 10000) -> None:
        super().__init__(ctypes.sizeof(LeaseConfig), encode(identity), encode(namespace), encode(name),
                         lease_duration_ms, renew_deadline_ms)


lib.ds_reply_append2.argtypes = [_V, _P, ctypes.c_size_t, _ERR]
lib.ds_reply_append2.restype = ctypes.c_int
lib.ds_reply_set_message2.argtypes = [_V, _P, _ERR]
lib.ds_reply_set_message2.restype = ctypes.c_int
lib.ds_controller_new.argtypes = [ctypes.POINTER(_Transport), _V, ctypes.POINTER(_Config), _OUT, _ERR]
lib.ds_controller_new.restype = ctypes.c_int
lib.ds_controller_free.argtypes = [_V]
lib.ds_controller_free.restype = None
lib.ds_controller_resync.argtypes = [_V, ctypes.c_int64, _OUT, _ERR]
lib.ds_controller_resync.restype = ctypes.c_int
lib.ds_controller_apply_events.argtypes = [_V, _P, ctypes.c_size_t, ctypes.c_int64,
                                           ctypes.POINTER(ctypes.c_size_t), _OUT, _ERR]
lib.ds_controller_apply_events.restype = ctypes.c_int
lib.ds_controller_sync.argtypes = [_V, _P, _P, ctypes.c_int64, ctypes.POINTER(_SyncResult), _OUT, _ERR]
lib.ds_controller_sync.restype = ctypes.c_int
lib.ds_controller_enqueue.argtypes = [_V, _P, _P, ctypes.c_int64, ctypes.c_int64, _ERR]
lib.ds_controller_enqueue.restype = ctypes.c_int
lib.ds_controller_next.argtypes = [_V, ctypes.c_int64, _OUT, ctypes.POINTER(ctypes.c_int64), _ERR]
lib.ds_controller_next.restype = ctypes.c_int
lib.ds_controller_run.argtypes = [_V, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64), _OUT, _ERR]
lib.ds_controller_run.restype = ctypes.c_int
lib.ds_controller_expectations.argtypes = [_V, _P, _P, ctypes.c_int64, _OUT, _ERR]
lib.ds_controller_expectations.restype = ctypes.c_int
lib.ds_controller_cluster.argtypes = [_V]
lib.ds_controller_cluster.restype = _V
lib.ds_cluster_get.argtypes = [_V, _P, _P, _P, _OUT, _ERR]
lib.ds_cluster_get.restype = ctypes.c_int
lib.ds_objects_parse.argtypes = [_P, ctypes.c_size_t, _V, _OUT, _ERR]
lib.ds_objects_parse.restype = ctypes.c_int
lib.ds_controller_set_lease.argtypes = [_V, ctypes.c_void_p, _ERR]
lib.ds_controller_set_lease.restype = ctypes.c_int
lib.ds_lease_try_acquire_or_renew.argtypes = [ctypes.POINTER(LeaseConfig), _P, ctypes.c_size_t, _P, ctypes.c_size_t,
                                              ctypes.c_int64, _OUT, _ERR]
lib.ds_lease_try_acquire_or_renew.restype = ctypes.c_int
lib.ds_lease_try_release.argtypes = [ctypes.POINTER(LeaseConfig), _P, ctypes.c_size_t, _P, ctypes.c_size_t,
                                     ctypes.c_int64, _OUT, _ERR]
lib.ds_lease_try_release.restype = ctypes.c_int
lib.ds_lease_leading.argtypes = [ctypes.POINTER(LeaseConfig), _P, ctypes.c_size_t, ctypes.c_int64,
                                 ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_lease_leading.restype = ctypes.c_int


class TransportError(errors.TransportError):
    """A failed API call, raised by a transport method: result is one of
    NOT_FOUND ... FATAL, message the Status message. A subclass of
    daemonset.TransportError (DS_ETRANSPORT), so one handler catches both."""

    def __init__(self, result: int, message: str = "") -> None:
        super().__init__(errors.TransportError.CODE, "", message)
        self.result = result
        self.args = (message,)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (TransportError, (self.result, self.message))


def _time(now: Any) -> int:
    return time_arg(now)


def _text(value: Any) -> Optional[bytes]:
    """A JSON value as bytes for the library (str and bytes pass as they are)."""
    if value is None or isinstance(value, (str, bytes)):
        return encode(value)
    return json.dumps(value).encode("utf-8")


def _dec(b: Optional[bytes]) -> Optional[str]:
    return None if b is None else b.decode("utf-8")


def _answer(reply: Any, fn: Any, *args: Any) -> int:
    """Run a transport method and hand its answer to the library."""
    try:
        body = fn(*args)
    except TransportError as e:
        lib.ds_reply_set_message2(reply, encode(e.message or ""), None)
        return e.result
    except Exception as e:  # a bug in the transport is a failed call, never a crash
        lib.ds_reply_set_message2(reply, encode("%s: %s" % (type(e).__name__, e)), None)
        return FATAL
    if body is not None:
        data = _text(body) or b""
        if lib.ds_reply_append2(reply, data, len(data), None) < 0:
            lib.ds_reply_set_message2(reply, b"the reply is larger than maxDocumentBytes", None)
            return FATAL
    return OK


class Controller:
    """ds_controller over a Python transport (see the module documentation).
    options: a dict or daemonset.Options, read at every sync; lease: a
    LeaseConfig to lead before listing, for the list-watch loop
    (daemonset.watchloop; the option leaseRetryPeriod is its retry period).
    Close it with close() or a with block."""

    def __init__(self, transport: Any, options: OptionsArg = None, namespace: Optional[str] = None,
                 retry_base_ms: int = 0, retry_max_ms: int = 0, component: Optional[str] = None,
                 lease: Optional[LeaseConfig] = None) -> None:
        self._transport = transport
        # kept alive: the driver reads it at every sync (a dict is converted once, here)
        self._options = options_arg(options)
        t = transport
        # the callbacks stay referenced as long as the controller lives
        self._callbacks = [
            _LIST(lambda ud, r, ns, sel, rep: _answer(rep, t.list, _dec(r), _dec(ns), _dec(sel))),
            _GET(lambda ud, r, ns, n, rep: _answer(rep, t.get, _dec(r), _dec(ns), _dec(n))),
            _CREATE(lambda ud, r, ns, b, rep: _answer(rep, t.create, _dec(r), _dec(ns), json.loads(b))),
            _REMOVE(lambda ud, r, ns, n, uid, rep: _answer(rep, t.delete, _dec(r), _dec(ns), _dec(n), _dec(uid))),
            _UPDATE_STATUS(lambda ud, r, ns, n, b, rep: _answer(rep, t.update_status, _dec(r), _dec(ns), _dec(n),
                                                                json.loads(b))),
            _PATCH(lambda ud, r, ns, n, ty, b, rep: _answer(rep, t.patch, _dec(r), _dec(ns), _dec(n), _dec(ty),
                                                            json.loads(b))),
            _EVENT(lambda ud, ns, b, rep: _answer(rep, t.record_event, _dec(ns), json.loads(b))),
        ]
        self._table = _Transport(ctypes.sizeof(_Transport), None, *self._callbacks)
        self._ns = encode(namespace)
        self._component = encode(component)
        cfg = _Config(ctypes.sizeof(_Config), self._ns, retry_base_ms, retry_max_ms, self._component)
        handle = ctypes.c_void_p()
        call(lib.ds_controller_new, ctypes.byref(self._table), self._options, ctypes.byref(cfg),
             ctypes.byref(handle))
        self._as_parameter_: Optional[ctypes.c_void_p] = handle
        if lease is not None:  # leader election in the loop (option leaseRetryPeriod: its retry period)
            try:
                call(lib.ds_controller_set_lease, self, ctypes.byref(lease))
            except BaseException:
                self.close()
                raise

    def close(self) -> None:
        """Free the driver (idempotent)."""
        if getattr(self, "_as_parameter_", None) is not None:
            lib.ds_controller_free(self._as_parameter_)
            self._as_parameter_ = None

    def __enter__(self) -> "Controller":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def resync(self, now: Time) -> Dict[str, Any]:
        """List everything through the transport: {"resourceVersions", "counts", "queued"}."""
        out = ctypes.c_void_p()
        call(lib.ds_controller_resync, self, _time(now), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    def apply_events(self, events: Union[str, bytes, List[Mapping[str, Any]]], now: Time) -> Dict[str, Any]:
        """Watch events: newline-delimited text, or a list of {"type", "object"} dicts."""
        if isinstance(events, list):
            events = "\n".join(json.dumps(e) for e in events)
        data = encode(events) or b""
        out = ctypes.c_void_p()
        count = ctypes.c_size_t()
        call(lib.ds_controller_apply_events, self, data, len(data), _time(now), ctypes.byref(count),
             ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    @overload
    def sync(self, key: str, /, now: Time) -> Dict[str, Any]: ...
    @overload  # noqa: E301
    def sync(self, namespace: Optional[str], name: str, now: Time) -> Dict[str, Any]: ...

    @namespaced(1)  # type: ignore[misc]
    def sync(self, namespace: Optional[str], name: Any = None, now: Optional[Time] = None) -> Dict[str, Any]:
        """One sync of a DaemonSet ("namespace/name", or namespace and name);
        the result document (see ds_controller_sync(3))."""
        out = ctypes.c_void_p()
        res = _SyncResult(ctypes.sizeof(_SyncResult))
        call(lib.ds_controller_sync, self, encode(namespace), encode(required(name, "name")),
             _time(required(now, "now")), ctypes.byref(res), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    @overload
    def enqueue(self, key: str, /, now: Time, after_ms: int = 0) -> None: ...
    @overload  # noqa: E301
    def enqueue(self, namespace: Optional[str], name: str, now: Time, after_ms: int = 0) -> None: ...

    @namespaced(1)  # type: ignore[misc]
    def enqueue(self, namespace: Optional[str], name: Any = None, now: Optional[Time] = None,
                after_ms: int = 0) -> None:
        """Queue a DaemonSet for a sync after_ms after now."""
        call(lib.ds_controller_enqueue, self, encode(namespace), encode(required(name, "name")),
             _time(required(now, "now")), after_ms)

    def next(self, now: Time) -> Tuple[Optional[str], int]:
        """(key or None, wait_ms): the next DaemonSet due, taken off the queue."""
        key = ctypes.c_void_p()
        wait = ctypes.c_int64()
        rc = call(lib.ds_controller_next, self, _time(now), ctypes.byref(key), ctypes.byref(wait))
        return (take_string(key.value) if rc == 1 else None), wait.value

    def run(self, now: Time) -> Tuple[Any, int]:
        """Sync what is due: (results, wait_ms); wait_ms is -1 when nothing is queued."""
        out = ctypes.c_void_p()
        wait = ctypes.c_int64()
        call(lib.ds_controller_run, self, _time(now), ctypes.byref(wait), ctypes.byref(out))
        return take_json(out.value), wait.value

    @overload
    def expectations(self, key: str, /, now: Time) -> Dict[str, Any]: ...
    @overload  # noqa: E301
    def expectations(self, namespace: Optional[str], name: str, now: Time) -> Dict[str, Any]: ...

    @namespaced(1)  # type: ignore[misc]
    def expectations(self, namespace: Optional[str], name: Any = None,
                     now: Optional[Time] = None) -> Dict[str, Any]:
        """The creations and deletions the driver still expects to observe for a DaemonSet."""
        out = ctypes.c_void_p()
        call(lib.ds_controller_expectations, self, encode(namespace), encode(required(name, "name")),
             _time(required(now, "now")), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    def summary(self) -> Dict[str, Any]:
        """The driver's snapshot in brief (ds_cluster_summary(3)): counts, node names, DaemonSets."""
        from . import cluster  # noqa: F401 - declares ds_cluster_summary
        out = ctypes.c_void_p()
        call(lib.ds_cluster_summary, lib.ds_controller_cluster(self), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    def get(self, kind: str, namespace: Optional[str], name: Optional[str] = None) -> Optional[Dict[str, Any]]:
        """An object of the driver's snapshot (ds_cluster_get(3)), named as in
        Cluster.get(), or None."""
        from .cluster import _object_key
        ns, nm = _object_key(namespace, name)
        out = ctypes.c_void_p()
        try:
            call(lib.ds_cluster_get, lib.ds_controller_cluster(self), encode(kind), encode(ns),
                 encode(nm), ctypes.byref(out))
        except errors.DaemonSetError:
            return None
        return cast("Optional[Dict[str, Any]]", take_json(out.value))


def parse_objects(text: Document) -> List[Dict[str, Any]]:
    """Manifests (JSON or YAML text, Lists, streams; or a dict) as a
    list of objects with kind and apiVersion. A Python list of objects is read
    as a v1 List of them."""
    if isinstance(text, (list, tuple)):
        text = {"apiVersion": "v1", "kind": "List", "items": list(text)}
    data = document(text)
    out = ctypes.c_void_p()
    call(lib.ds_objects_parse, data, 0 if data is None else len(data), None, ctypes.byref(out))
    return cast("List[Dict[str, Any]]", take_json(out.value))


LeaseDoc = Optional[Union[str, bytes, Mapping[str, Any]]]


def _sized(value: LeaseDoc) -> Tuple[Optional[bytes], int]:
    """_text(value) and its size, as the lease functions take a document: None is (NULL, 0), as the
    1.0 names read a NULL string (there is no NUL inside: encode refuses one, JSON escapes it)."""
    text = _text(value)
    return text, 0 if text is None else len(text)


def _lease(fn: Any, cfg: LeaseConfig, lease: LeaseDoc, state: LeaseDoc, now: Time) -> Dict[str, Any]:
    out = ctypes.c_void_p()
    call(fn, ctypes.byref(cfg), *_sized(lease), *_sized(state), _time(now), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def lease_decide(cfg: LeaseConfig, lease: LeaseDoc, state: LeaseDoc, now: Time) -> Dict[str, Any]:
    """client-go's tryAcquireOrRenew: lease is the Lease (dict or JSON) as read, None when it
    does not exist; state the "state" of the previous decision (None at first)."""
    return _lease(lib.ds_lease_try_acquire_or_renew, cfg, lease, state, now)


def lease_release(cfg: LeaseConfig, lease: LeaseDoc, state: LeaseDoc, now: Time) -> Dict[str, Any]:
    """client-go's tryRelease: the Lease to write to give it up, if we hold it."""
    return _lease(lib.ds_lease_try_release, cfg, lease, state, now)


def lease_is_leader(cfg: LeaseConfig, state: LeaseDoc, now: Time) -> bool:
    """Whether the decision state says we hold the Lease at now."""
    leader = ctypes.c_int()
    call(lib.ds_lease_leading, ctypes.byref(cfg), *_sized(state), _time(now), ctypes.byref(leader))
    return bool(leader.value)
