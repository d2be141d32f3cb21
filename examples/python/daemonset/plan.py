"""One sync of the DaemonSet controller planned as data, status, and a
whole rollout simulated (ds_daemonset_plan(3), ds_plan_create_at(3),
ds_daemonset_status(3), ds_daemonset_rollout(3)).

    >>> from daemonset import Cluster, plan as planner
    >>> with Cluster.from_file("examples/cluster") as c:
    ...     p = planner.plan(c, "kube-system/fluentd-logging", "2026-12-02T15:00:00Z", {"burstReplicas": 50})
    ...     [(create["node"], create["reason"]) for create in p.creates]     # POST create["pod"]
    ...     p2 = planner.plan(c, "kube-system", "fluentd-logging", "2026-12-02T15:00:30Z", backoff=p.backoff)
    ...     sim = planner.simulate(c, "kube-system/fluentd-logging", "2026-12-02T15:00:00Z")
    ...     sim["result"], sim["durationSeconds"]
    [('worker-4', 'missing')]
    ('complete', 25.0)

now and start are RFC 3339 text or milliseconds since the epoch. A Plan holds plain
Python data: the library's ds_plan is read completely and freed at once.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union, cast, overload

from ._native import lib, call, take_json, take_string, encode, namespaced, required
from .cluster import Cluster
from .core import OptionsArg, Time, options_arg as _opts, time_arg

#: The failed-pod backoff state a Plan hands to the next plan(): a dict or its JSON text.
Backoff = Optional[Union[str, bytes, Mapping[str, Any]]]

__all__ = ["Plan", "plan", "status", "simulate"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p
_H = ctypes.c_void_p


# The size-versioned structs. Their strings belong to the plan (borrowed,
# never freed by the caller), so c_char_p is right here: ctypes copies them
# on access, which happens before the plan is freed.
class _PlanCreate(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("node", ctypes.c_char_p),
        ("reason", ctypes.c_char_p),
        ("batch", ctypes.c_size_t),
    ]


class _PlanDelete(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("namespace", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("uid", ctypes.c_char_p),
        ("node", ctypes.c_char_p),
        ("reason", ctypes.c_char_p),
    ]


class _PlanEvent(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("type", ctypes.c_char_p),
        ("reason", ctypes.c_char_p),
        ("message", ctypes.c_char_p),
    ]


class _Status(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("desired_number_scheduled", ctypes.c_int32),
        ("current_number_scheduled", ctypes.c_int32),
        ("number_misscheduled", ctypes.c_int32),
        ("number_ready", ctypes.c_int32),
        ("updated_number_scheduled", ctypes.c_int32),
        ("number_available", ctypes.c_int32),
        ("number_unavailable", ctypes.c_int32),
        ("observed_generation", ctypes.c_int64),
        ("collision_count", ctypes.c_int32),
    ]


lib.ds_daemonset_plan.argtypes = [_H, _P, _P, ctypes.c_int64, ctypes.c_void_p, _P, ctypes.c_size_t,
                                  ctypes.POINTER(ctypes.c_void_p), _ERR]
lib.ds_daemonset_plan.restype = ctypes.c_int
lib.ds_plan_free.argtypes = [ctypes.c_void_p]
lib.ds_plan_free.restype = None
lib.ds_plan_to_json.argtypes = [ctypes.c_void_p, _OUT, _ERR]
lib.ds_plan_to_json.restype = ctypes.c_int
lib.ds_plan_create_count.argtypes = [ctypes.c_void_p]
lib.ds_plan_create_count.restype = ctypes.c_size_t
lib.ds_plan_create_at.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(_PlanCreate), _ERR]
lib.ds_plan_create_at.restype = ctypes.c_int
lib.ds_plan_create_pod.argtypes = [ctypes.c_void_p, ctypes.c_size_t, _OUT, _ERR]
lib.ds_plan_create_pod.restype = ctypes.c_int
lib.ds_plan_delete_count.argtypes = [ctypes.c_void_p]
lib.ds_plan_delete_count.restype = ctypes.c_size_t
lib.ds_plan_delete_at.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(_PlanDelete), _ERR]
lib.ds_plan_delete_at.restype = ctypes.c_int
lib.ds_plan_event_count.argtypes = [ctypes.c_void_p]
lib.ds_plan_event_count.restype = ctypes.c_size_t
lib.ds_plan_event_at.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(_PlanEvent), _ERR]
lib.ds_plan_event_at.restype = ctypes.c_int
lib.ds_plan_status.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Status), ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_plan_status.restype = ctypes.c_int
lib.ds_plan_requeue_after.argtypes = [ctypes.c_void_p]
lib.ds_plan_requeue_after.restype = ctypes.c_int64
lib.ds_plan_backoff.argtypes = [ctypes.c_void_p, _OUT, _ERR]
lib.ds_plan_backoff.restype = ctypes.c_int
lib.ds_daemonset_status.argtypes = [_H, _P, _P, ctypes.c_int64, ctypes.c_void_p, ctypes.POINTER(_Status), _ERR]
lib.ds_daemonset_status.restype = ctypes.c_int
lib.ds_daemonset_rollout.argtypes = [_H, _P, _P, ctypes.c_int64, ctypes.c_void_p, _OUT, _ERR]
lib.ds_daemonset_rollout.restype = ctypes.c_int

_STATUS_KEYS = [
    ("desired_number_scheduled", "desiredNumberScheduled"),
    ("current_number_scheduled", "currentNumberScheduled"),
    ("number_misscheduled", "numberMisscheduled"),
    ("number_ready", "numberReady"),
    ("updated_number_scheduled", "updatedNumberScheduled"),
    ("number_available", "numberAvailable"),
    ("number_unavailable", "numberUnavailable"),
    ("observed_generation", "observedGeneration"),
]


def _time(now: Any, what: str = "now") -> int:
    """RFC 3339 text or integer milliseconds since the epoch."""
    return time_arg(now, what)


def _backoff_text(backoff: Backoff) -> Tuple[Optional[bytes], int]:
    """The backoff state as ds_daemonset_plan takes it, text and size: None is (NULL, 0), no state
    (ds_plan_sync read NULL so too); text has no NUL (encode refuses one), so it is what
    ds_plan_sync read as a C string."""
    if backoff is None or isinstance(backoff, (str, bytes)):
        text = encode(backoff)
    else:
        text = encode(json.dumps(dict(backoff)))
    return text, 0 if text is None else len(text)


def _status_dict(st: _Status) -> Dict[str, int]:
    """A ds_status as the DaemonSet's .status keys (collisionCount only when set)."""
    d = {key: getattr(st, field) for field, key in _STATUS_KEYS}
    if st.collision_count >= 0:
        d["collisionCount"] = st.collision_count
    return d


class Plan:
    """What one sync does, read from a ds_plan:
      creates        [{"node", "reason", "batch", "pod"}] within burstReplicas
      deletes        [{"namespace", "name", "uid", "node", "reason"}]
      status         the DaemonSet .status counters (dict, camelCase keys)
      status_changed whether the controller would write the status
      requeue_after  milliseconds until the next sync, or None
      backoff        the failed-pod backoff state to pass to the next plan()
      events         [{"type", "reason", "message"}]
      to_dict()      the whole plan (ds_plan_to_json), a fresh dict each call
    """

    creates: List[Dict[str, Any]]
    deletes: List[Dict[str, Any]]
    events: List[Dict[str, str]]
    status: Dict[str, int]
    status_changed: bool
    requeue_after: Optional[int]
    backoff: Any
    skipped: Any
    hash: Optional[str]

    def __init__(self, handle: int) -> None:
        h = ctypes.c_void_p(handle)
        self.creates = []
        for i in range(lib.ds_plan_create_count(h)):
            c = _PlanCreate(size=ctypes.sizeof(_PlanCreate))
            call(lib.ds_plan_create_at, h, i, ctypes.byref(c))
            pod = ctypes.c_void_p()
            call(lib.ds_plan_create_pod, h, i, ctypes.byref(pod))
            self.creates.append({"node": c.node.decode(), "reason": c.reason.decode(), "batch": c.batch,
                                 "pod": take_json(pod.value)})
        self.deletes = []
        for i in range(lib.ds_plan_delete_count(h)):
            d = _PlanDelete(size=ctypes.sizeof(_PlanDelete))
            call(lib.ds_plan_delete_at, h, i, ctypes.byref(d))
            self.deletes.append({"namespace": d.namespace.decode(), "name": d.name.decode(), "uid": d.uid.decode(),
                                 "node": d.node.decode(), "reason": d.reason.decode()})
        self.events = []
        for i in range(lib.ds_plan_event_count(h)):
            e = _PlanEvent(size=ctypes.sizeof(_PlanEvent))
            call(lib.ds_plan_event_at, h, i, ctypes.byref(e))
            self.events.append({"type": e.type.decode(), "reason": e.reason.decode(), "message": e.message.decode()})
        st = _Status(size=ctypes.sizeof(_Status))
        changed = ctypes.c_int()
        call(lib.ds_plan_status, h, ctypes.byref(st), ctypes.byref(changed))
        self.status = _status_dict(st)
        self.status_changed = bool(changed.value)
        ms = lib.ds_plan_requeue_after(h)
        self.requeue_after = None if ms < 0 else ms
        out = ctypes.c_void_p()
        call(lib.ds_plan_backoff, h, ctypes.byref(out))
        self.backoff = take_json(out.value)
        out = ctypes.c_void_p()
        call(lib.ds_plan_to_json, h, ctypes.byref(out))
        self._json = take_string(out.value) or "{}"
        doc = json.loads(self._json)
        self.skipped = doc.get("skipped")
        self.hash = doc.get("hash")

    def to_dict(self) -> Dict[str, Any]:
        """The whole plan as ds_plan_to_json(3) writes it."""
        return cast("Dict[str, Any]", json.loads(self._json))

    def __repr__(self) -> str:
        return "<Plan creates=%d deletes=%d requeue_after=%r>" % (
            len(self.creates), len(self.deletes), self.requeue_after)


@overload
def plan(cluster: Cluster, key: str, /, now: Time, options: OptionsArg = None, backoff: Backoff = None) -> Plan: ...
@overload  # noqa: E302
def plan(cluster: Cluster, namespace: Optional[str], name: str, now: Time, options: OptionsArg = None,
         backoff: Backoff = None) -> Plan: ...


@namespaced(1)  # type: ignore[misc]
def plan(cluster: Cluster, namespace: Optional[str], name: Any = None, now: Optional[Time] = None,
         options: OptionsArg = None, backoff: Backoff = None) -> Plan:
    """Plan one sync of DaemonSet namespace/name at now (RFC 3339 text or
    milliseconds). options: a dict or daemonset.Options (burstReplicas,
    slowStartInitialBatchSize, backoffInitial, backoffMax, kubernetesVersion,
    featureGates, and the opt-in rollout controls paused, partition,
    rolloutNodeSelector, updateOrder). backoff: the .backoff of the previous
    Plan (dict or JSON text), or None. Returns a Plan."""
    handle = ctypes.c_void_p()
    call(lib.ds_daemonset_plan, cluster._h(), encode(namespace), encode(required(name, "name")),
         _time(required(now, "now")), _opts(options), *_backoff_text(backoff), ctypes.byref(handle))
    try:
        return Plan(handle.value or 0)
    finally:
        lib.ds_plan_free(handle)


@overload
def status(cluster: Cluster, key: str, /, now: Time, options: OptionsArg = None) -> Dict[str, int]: ...
@overload  # noqa: E302
def status(cluster: Cluster, namespace: Optional[str], name: str, now: Time,
           options: OptionsArg = None) -> Dict[str, int]: ...


@namespaced(1)  # type: ignore[misc]
def status(cluster: Cluster, namespace: Optional[str], name: Any = None, now: Optional[Time] = None,
           options: OptionsArg = None) -> Dict[str, int]:
    """The DaemonSet's status counters at now, without planning the rest of
    the sync: a dict with the .status keys (collisionCount only when set)."""
    st = _Status(size=ctypes.sizeof(_Status))
    call(lib.ds_daemonset_status, cluster._h(), encode(namespace), encode(required(name, "name")),
         _time(required(now, "now")), _opts(options), ctypes.byref(st))
    return _status_dict(st)


@overload
def simulate(cluster: Cluster, key: str, /, start: Time, options: OptionsArg = None) -> Dict[str, Any]: ...
@overload  # noqa: E302
def simulate(cluster: Cluster, namespace: Optional[str], name: str, start: Time,
             options: OptionsArg = None) -> Dict[str, Any]: ...


@namespaced(1)  # type: ignore[misc]
def simulate(cluster: Cluster, namespace: Optional[str], name: Any = None, start: Optional[Time] = None,
             options: OptionsArg = None) -> Dict[str, Any]:
    """Simulate the whole rollout of DaemonSet namespace/name from start (RFC
    3339 text or milliseconds) on a private copy of the snapshot, which is not
    changed. options: a dict or daemonset.Options with the plan() options and
    the lifecycle model's simReadyAfter, simTerminateAfter, simFailNodes,
    simStep and simMaxTime. Returns a dict: {"result": "complete"|"stalled"|
    "paused"|"timeout", "durationSeconds", "waves": [{"at", "creates",
    "deletes"}], "nodeUpdatedAt", "maxUnavailable", "maxUnavailableSeen",
    "maxSurge", "maxSurgeSeen", "budgetExceeded", "stall"?, "timeline", ...}
    (ds_daemonset_rollout(3)). A rollout that does not complete is a result,
    not an error."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_rollout, cluster._h(), encode(namespace), encode(required(name, "name")),
         _time(required(start, "start"), "start"), _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))
