"""Every decision that needs no snapshot, as a plain function: documents in
(JSON or YAML text, or dicts), answers out. A test of a scheduling decision
is an import, a call and an assert:

    >>> from daemonset import pure
    >>> pure.node_selector_matches(
    ...     {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}]},
    ...     {"metadata": {"name": "n1", "labels": {"gpu": "a100"}}})
    True
    >>> pure.selector_matches({"matchLabels": {"app": "web"}}, {"app": "db"})
    False
    >>> pure.template_hash({"spec": {"containers": [{"name": "c", "image": "busybox"}]}}) != ""
    True

The functions of the other modules that take no Cluster are gathered here
too (values, daemon.template_hash, validate, audit), under the same names.

Adding a function of the ABI
----------------------------
A new pure C function is one declaration and one documented function in the
section below (or in a module of its family, re-exported here). `declare()`
(daemonset/_native.py) builds the ctypes binding from the argument kinds:
TEXT (a document, passed as text and size), CSTR (a name or other
NUL-terminated string), INT, INT64, UINT, OPTIONS (None, a dict or an
Options), and the result: out=JSON (char **json_out, parsed), out=BOOL
(int *out), out=INT or out=None. The ds_error comes last and becomes the
exception of its code. For example, for

    int ds_toleration_tolerates_taint(const char *toleration, size_t toleration_size,
                                      const char *taint, size_t taint_size,
                                      const ds_options *opts, int *out, ds_error *err);

write

    _tolerates_taint = declare("ds_toleration_tolerates_taint", TEXT, TEXT, OPTIONS, out=BOOL)

    def tolerates_taint(toleration: Document, taint: Document, options: OptionsArg = None) -> bool:
        \"\"\"core/v1 Toleration.ToleratesTaint ... (ds_toleration_tolerates_taint(3)).\"\"\"
        return _tolerates_taint(toleration, taint, options)

and add its name to __all__ and a test in tests/python. When the loaded
library predates the function, calling it raises daemonset.Unsupported
instead of failing at import, so the module keeps working with an older
libdaemonset.so.1.
"""

from __future__ import annotations

from typing import List, cast

from ._native import declare, Document, TEXT, CSTR, INT, INT64, UINT, OPTIONS, JSON, BOOL  # noqa: F401
from .core import OptionsArg  # noqa: F401
from .values import (  # noqa: F401
    Quantity, parse_quantity, compare_quantities, add_quantities, scaled_value,
    validate_label_key, validate_label_value, validate_dns1123_subdomain, validate_dns1123_label,
    selector_matches, selector_string, node_selector_matches,
)
from .daemon import template_hash  # noqa: F401
from .validate import defaults, validate, validate_update  # noqa: F401
from .audit import audit, pod_security_evaluate  # noqa: F401
from .controller import parse_objects  # noqa: F401

__all__: List[str] = [
    "parse_quantity", "compare_quantities", "add_quantities", "scaled_value",
    "validate_label_key", "validate_label_value", "validate_dns1123_subdomain", "validate_dns1123_label",
    "selector_matches", "selector_string", "node_selector_matches",
    "template_hash", "defaults", "validate", "validate_update", "audit", "pod_security_evaluate",
    "parse_objects",
]

# ---- functions of the pure layer (issue 20: tolerations, node affinity, NodeShouldRunDaemonPod,
# NewPod, rolling-update planning) go here, one declare() and one function each, as shown above.

# ---- upstream's decisions, one function each (include/daemonset/upstream.h) ---------------------
# Their documents are decoded as Go decodes them into the upstream function's types: a field of the
# wrong JSON type raises TypeMismatch with its path, an unparsable quantity or time InvalidValue;
# null is the zero value, unknown fields are ignored. The objects they return (a Pod, a PodSpec, an
# Affinity, a Taint) are printed as encoding/json prints the Go struct (daemonset(7), UPSTREAM FUNCTIONS).

import ctypes as _ct  # noqa: E402
import json as _json  # noqa: E402
from typing import Any, Dict, Optional, Sequence, Tuple, Union  # noqa: E402

from ._native import lib as _lib, call as _call, take_json as _take_json, document as _doc, encode as _enc  # noqa: E402
from ._native import OBJECT  # noqa: E402
from .errors import DaemonSetError  # noqa: E402
from .core import options_arg as _opts  # noqa: E402
from .objects import Object, ObjectArray, TYPES  # noqa: E402,F401
from .objects import as_array as _array, as_object as _obj, any_object as _any_obj  # noqa: E402
from .objects import should_run_results as _results, verdict_pairs as _pairs  # noqa: E402

# The effect filter of find_untolerated_taint as bits: a taint is considered when its effect is listed
# (0: every taint; OTHER_EFFECT: "" and every effect the API does not know). A list of effect strings
# says more (see find_untolerated_taint).
NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE, OTHER_EFFECT = 0x1, 0x2, 0x4, 0x8

_tolerates_taint = declare("ds_toleration_tolerates_taint", TEXT, TEXT, OPTIONS, out=BOOL)
_required_affinity2 = declare("ds_pod_required_node_affinity_match2", TEXT, TEXT, OPTIONS, out=BOOL)
_new_pod = declare("ds_daemonset_new_pod", TEXT, CSTR, CSTR, OPTIONS)
_add_tolerations2 = declare("ds_podspec_add_daemon_tolerations2", TEXT, OPTIONS)
_replace_affinity2 = declare("ds_affinity_replace_node_name2", TEXT, CSTR, OPTIONS)
_rolling_update = declare("ds_daemonset_rolling_update", TEXT, TEXT, CSTR, INT64, OPTIONS)
_scheduler_filter = declare("ds_scheduler_filter", TEXT, TEXT, TEXT, OPTIONS)
_select_victims = declare("ds_preemption_select_victims", TEXT, TEXT, TEXT, OPTIONS)
# the same on parsed objects (daemonset.objects)
_tolerates_taint_obj = declare("ds_toleration_tolerates_taint_obj", OBJECT, OBJECT, OPTIONS, out=BOOL)
_required_affinity_obj = declare("ds_pod_required_node_affinity_match_obj", OBJECT, OBJECT, OPTIONS, out=BOOL)
_new_pod_obj = declare("ds_daemonset_new_pod_obj", OBJECT, CSTR, CSTR, OPTIONS)
_add_tolerations_obj = declare("ds_podspec_add_daemon_tolerations_obj", OBJECT, OPTIONS)
_replace_affinity_obj = declare("ds_affinity_replace_node_name_obj", OBJECT, CSTR, OPTIONS)
_rolling_update_obj = declare("ds_daemonset_rolling_update_obj", OBJECT, OBJECT, CSTR, INT64, OPTIONS)
_scheduler_filter_obj = declare("ds_scheduler_filter_obj", OBJECT, OBJECT, OBJECT, OPTIONS)
_select_victims_obj = declare("ds_preemption_select_victims_obj", OBJECT, OBJECT, OBJECT, OPTIONS)

# The fast path of tolerates_taint on two objects: one ctypes call, no ds_error (a failure calls again
# through the declared function, which raises).
_TT = getattr(_lib, "ds_toleration_tolerates_taint_obj", None)
if _TT is not None:
    _TT.argtypes = [_ct.c_void_p, _ct.c_void_p, _ct.c_void_p, _ct.POINTER(_ct.c_int), _ct.c_void_p]
    _TT.restype = _ct.c_int


class _TaintFilter(_ct.Structure):
    """ds_taint_filter."""
    _fields_ = [("size", _ct.c_size_t), ("effects", _ct.POINTER(_ct.c_char_p)), ("count", _ct.c_size_t)]


_EFFECT_BITS = ((NO_SCHEDULE, "NoSchedule"), (PREFER_NO_SCHEDULE, "PreferNoSchedule"), (NO_EXECUTE, "NoExecute"))

#: What an effect filter takes: None or 0 (every taint), bits (NO_SCHEDULE | ...), or the effects as
#: strings ([] keeps no taint; "" is a taint without an effect; an unknown one is compared exactly).
Effects = Optional[Union[int, Sequence[str]]]


def _filter(effects: Effects, objects: bool) -> Optional[_TaintFilter]:
    """The ds_taint_filter of effects (None: a nil filter)."""
    if effects is None or (isinstance(effects, int) and effects == 0):
        return None
    if isinstance(effects, int):
        if effects & OTHER_EFFECT or effects & ~0xF:
            raise ValueError("OTHER_EFFECT and unknown bits have no filter of strings: list the effects")
        effects = [name for bit, name in _EFFECT_BITS if effects & bit]
    if isinstance(effects, (str, bytes)):
        raise TypeError("effects: expected a list of effect strings, not one string")
    names = [_enc(e) for e in effects]
    f = _TaintFilter()
    f.size = _ct.sizeof(_TaintFilter)
    arr = (_ct.c_char_p * max(len(names), 1))(*names)
    f.effects = _ct.cast(arr, _ct.POINTER(_ct.c_char_p))
    f.count = len(names)
    setattr(f, "_keep", arr)  # the strings live as long as the filter
    return f


def _bits_on_text(bits: int, taints: Any) -> List[str]:
    """The effect strings of bits for taints given as a document: OTHER_EFFECT is "" and each effect
    of a taint that the API does not know (what the superseded ds_taints_find_untolerated read the bit
    as), which needs the taints as JSON (a list, or JSON text; not YAML text)."""
    if bits & ~0xF:
        # the superseded function's answer to such bits, which its successor has no argument for
        raise DaemonSetError(-2, "", "unknown effect bits 0x%x" % bits)
    names = [name for bit, name in _EFFECT_BITS if bits & bit]
    if not bits & OTHER_EFFECT:
        return names
    doc: Any = taints
    if isinstance(taints, (str, bytes, bytearray)):
        try:
            doc = _json.loads(taints)
        except ValueError:
            raise ValueError("OTHER_EFFECT on taints that are not JSON: list the effects") from None
    known = {name for _, name in _EFFECT_BITS}
    names.append("")
    for t in doc if isinstance(doc, list) else []:
        e = t.get("effect") if isinstance(t, dict) else None
        if isinstance(e, str) and e and e not in known and e not in names:
            names.append(e)
    return names


def _text(d: Any) -> Tuple[Optional[bytes], int]:
    data = _doc(d)
    return data, 0 if data is None else len(data)


def tolerates_taint(toleration: Any, taint: Any, options: OptionsArg = None) -> bool:
    """core/v1 Toleration.ToleratesTaint (ds_toleration_tolerates_taint(3)):
    any toleration and taint, as upstream evaluates them. Lt and Gt follow the
    TaintTolerationComparisonOperators gate of options["featureGates"]. Each
    may be a document or an Object parsed once (then nothing is parsed again).

        >>> tolerates_taint({"operator": "In", "key": "a"}, {"key": "a", "effect": "NoSchedule"})
        False
        >>> tolerates_taint({"operator": "Exists", "effect": "noschedule"}, {"key": "k", "effect": "noschedule"})
        True
    """
    if _TT is not None and options is None and type(toleration) is Object and type(taint) is Object:
        out = _ct.c_int()
        if _TT(toleration._ptr, taint._ptr, None, _ct.byref(out), None) == 0:
            return out.value != 0
    if _any_obj(toleration, taint):
        return bool(_tolerates_taint_obj(_obj(toleration, "Toleration", options), _obj(taint, "Taint", options),
                                         options))
    return bool(_tolerates_taint(toleration, taint, options))


def find_untolerated_taint(taints: Any, tolerations: Any, effects: Effects = 0,
                           options: OptionsArg = None) -> Optional[Dict[str, Any]]:
    """FindMatchingUntoleratedTaint (ds_taints_find_untolerated2(3)): the
    first taint of the list that the filter keeps and no toleration
    tolerates; None when there is none. effects: 0 or None for every taint
    (upstream's nil filter), bits (NO_SCHEDULE | NO_EXECUTE ...), or a list of
    effect strings ([] keeps none, "" keeps the taints without an effect).
    OTHER_EFFECT (every effect the API does not know, and "") needs the taints
    as a list or JSON text: it is passed on as the effects they have.
    taints may be an Object of a []Taint, a Taint or a Node; tolerations of a
    []Toleration, a Toleration, a Pod or a DaemonSet.

        >>> find_untolerated_taint([{"key": "a", "effect": "NoSchedule"}], [{"key": "a", "operator": "Exists"}])
        >>> find_untolerated_taint([{"key": "b", "effect": "NoExecute"}], [], NO_EXECUTE)
        {'effect': 'NoExecute', 'key': 'b'}
        >>> find_untolerated_taint([{"key": "b", "effect": "Weird"}], [], ["Weird"])["effect"]
        'Weird'
    """
    out = _ct.c_void_p()
    o = _opts(options)
    if _any_obj(taints, tolerations):
        fn = _lib.ds_taints_find_untolerated_obj
        fn.argtypes = [_ct.c_void_p, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p, _ct.POINTER(_ct.c_int),
                       _ct.POINTER(_ct.c_void_p), _ct.c_void_p]
        f = _filter(effects, True)
        _call(fn, _obj(taints, "[]Taint", options), _obj(tolerations, "[]Toleration", options),
              _ct.byref(f) if f is not None else None, o, None, _ct.byref(out))
        return cast("Optional[Dict[str, Any]]", _take_json(out.value))
    if isinstance(effects, int) and effects:
        effects = _bits_on_text(effects, taints)
    t, tn = _text(taints)
    l, ln = _text(tolerations)
    text_fn = getattr(_lib, "ds_taints_find_untolerated2", None)
    if text_fn is None:  # a library before 1.2: Unsupported, as for every function it lacks
        from .core import version
        raise DaemonSetError(-9, "", "ds_taints_find_untolerated2 is not in the loaded libdaemonset %s; it needs "
                             "1.2" % version())
    text_fn.argtypes = [_ct.c_char_p, _ct.c_size_t, _ct.c_char_p, _ct.c_size_t, _ct.c_void_p, _ct.c_void_p,
                        _ct.POINTER(_ct.c_int), _ct.POINTER(_ct.c_void_p), _ct.c_void_p]
    f = _filter(effects, False)
    _call(text_fn, t, tn, l, ln, _ct.byref(f) if f is not None else None, o, None, _ct.byref(out))
    return cast("Optional[Dict[str, Any]]", _take_json(out.value))


def required_node_affinity_match(pod: Any, node: Any, options: OptionsArg = None) -> bool:
    """GetRequiredNodeAffinity(pod).Match(node)
    (ds_pod_required_node_affinity_match2(3)): spec.nodeSelector and the
    required node affinity of a Pod (or a PodTemplateSpec or PodSpec) against a
    Node, documents or Objects. Terms that do not parse raise InvalidValue when
    no term matched, as Match returns its error beside false.

        >>> required_node_affinity_match({"spec": {"nodeSelector": {"disk": "ssd"}}},
        ...                              {"metadata": {"labels": {"disk": "ssd"}}})
        True
    """
    if _any_obj(pod, node):
        return bool(_required_affinity_obj(_obj(pod, "Pod", options), _obj(node, "Node", options), options))
    return bool(_required_affinity2(pod, node, options))


def node_should_run(daemonset: Any, node: Any, options: OptionsArg = None) -> Dict[str, Any]:
    """NodeShouldRunDaemonPod (ds_daemonset_node_should_run(3)):
    {"node", "shouldRun", "shouldContinueRunning", "reasons"} for any
    DaemonSet and Node (documents or Objects), a Node without a name included.

        >>> ds = {"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}}
        >>> node_should_run(ds, {"spec": {"taints": [{"key": "x", "effect": "NoExecute"}]}})["shouldContinueRunning"]
        False
    """
    out = _ct.c_void_p()
    o = _opts(options)
    if _any_obj(daemonset, node):
        fn = _lib.ds_daemonset_node_should_run_obj
        fn.argtypes = [_ct.c_void_p, _ct.c_void_p, _ct.c_void_p, _ct.POINTER(_ct.c_int), _ct.POINTER(_ct.c_int),
                       _ct.POINTER(_ct.c_void_p), _ct.c_void_p]
        _call(fn, _obj(daemonset, "DaemonSet", options), _obj(node, "Node", options), o, None, None,
              _ct.byref(out))
        return cast("Dict[str, Any]", _take_json(out.value))
    d, dn = _text(daemonset)
    n, nn = _text(node)
    fn = _lib.ds_daemonset_node_should_run
    fn.argtypes = [_ct.c_char_p, _ct.c_size_t, _ct.c_char_p, _ct.c_size_t, _ct.c_void_p, _ct.POINTER(_ct.c_int),
                   _ct.POINTER(_ct.c_int), _ct.POINTER(_ct.c_void_p), _ct.c_void_p]
    _call(fn, d, dn, n, nn, o, None, None, _ct.byref(out))
    return cast("Dict[str, Any]", _take_json(out.value))


def new_pod(daemonset: Any, node_name: str, revision_hash: Optional[str] = None,
            options: OptionsArg = None) -> Dict[str, Any]:
    """The Pod the DaemonSet controller creates for node_name
    (ds_daemonset_new_pod(3)): CreatePodTemplate, the metadata.name pin
    (ReplaceDaemonSetPodNodeNameNodeAffinity) and GetPodFromTemplate.
    revision_hash None: the template's hash; "": no hash label. Printed as Go
    prints the Pod: an empty omitempty field is left out, a struct is not.
    daemonset: a document or an Object.

        >>> ds = {"metadata": {"name": "agent", "namespace": "kube-system", "uid": "u"},
        ...       "spec": {"template": {"metadata": {"labels": {"app": "agent"}},
        ...                             "spec": {"containers": [{"name": "c", "image": "i"}]}}}}
        >>> new_pod(ds, "node-1", "abc")["metadata"]["labels"]["controller-revision-hash"]
        'abc'
        >>> new_pod({**ds, "spec": {"template": {**ds["spec"]["template"], "spec": {"hostNetwork": False}}}},
        ...         "node-1", "abc")["spec"].get("hostNetwork")
    """
    if isinstance(daemonset, Object):
        return cast("Dict[str, Any]", _new_pod_obj(daemonset, node_name, revision_hash, options))
    return cast("Dict[str, Any]", _new_pod(daemonset, node_name, revision_hash, options))


def add_daemon_tolerations(podspec: Any, options: OptionsArg = None) -> Dict[str, Any]:
    """AddOrUpdateDaemonPodTolerations (ds_podspec_add_daemon_tolerations2(3)):
    the PodSpec with the DaemonSet controller's default tolerations merged in;
    a matching toleration is replaced and loses its tolerationSeconds, as upstream does.
    podspec: a document (a Pod, a PodTemplateSpec or a PodSpec) or a Pod Object.

        >>> spec = {"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
        ...                          "effect": "NoExecute", "tolerationSeconds": 300}]}
        >>> add_daemon_tolerations(spec)["tolerations"][0]
        {'effect': 'NoExecute', 'key': 'node.kubernetes.io/not-ready', 'operator': 'Exists'}
    """
    if isinstance(podspec, Object):
        return cast("Dict[str, Any]", _add_tolerations_obj(podspec, options))
    return cast("Dict[str, Any]", _add_tolerations2(podspec, options))


def replace_node_name_affinity(affinity: Any, node_name: str, options: OptionsArg = None) -> Dict[str, Any]:
    """ReplaceDaemonSetPodNodeNameNodeAffinity (ds_affinity_replace_node_name2(3)):
    the Affinity with its required node affinity replaced by the
    metadata.name pin to node_name (None: a nil Affinity; or an Affinity Object)."""
    if isinstance(affinity, Object):
        return cast("Dict[str, Any]", _replace_affinity_obj(affinity, node_name, options))
    return cast("Dict[str, Any]", _replace_affinity2(affinity, node_name, options))


def rolling_update(daemonset: Any, objects: Any, revision_hash: Optional[str] = None, now: int = 0,
                   options: OptionsArg = None) -> Dict[str, Any]:
    """rollingUpdate alone (ds_daemonset_rolling_update(3)): for the
    DaemonSet, nodes and pods given (objects: a list, List or stream; or a
    DaemonSet Object and a List Object), the old pods it deletes and the
    surge pods it creates now. now: milliseconds since the epoch."""
    if _any_obj(daemonset, objects):
        return cast("Dict[str, Any]", _rolling_update_obj(
            _obj(daemonset, "DaemonSet", options), None if objects is None else _obj(objects, "List", options),
            revision_hash, now, options))
    return cast("Dict[str, Any]", _rolling_update(daemonset, objects, revision_hash, now, options))


def scheduler_filter(pod: Any, node: Any, objects: Any = None, options: OptionsArg = None) -> Dict[str, Any]:
    """The scheduler's filters for pod on node with its pods
    (ds_scheduler_filter(3)): {"fits", "reasons": [{"plugin", "code",
    "message", ...}], "priority", "preemption", ...}; code is
    "Unschedulable" or "UnschedulableAndUnresolvable". Documents, or a Pod, a
    Node and a List Object."""
    if _any_obj(pod, node, objects):
        return cast("Dict[str, Any]", _scheduler_filter_obj(
            _obj(pod, "Pod", options), _obj(node, "Node", options),
            None if objects is None else _obj(objects, "List", options), options))
    return cast("Dict[str, Any]", _scheduler_filter(pod, node, objects, options))


def select_victims(pod: Any, node: Any, objects: Any = None, options: OptionsArg = None) -> Dict[str, Any]:
    """DefaultPreemption's SelectVictimsOnNode (ds_preemption_select_victims(3)):
    {"possible", "victims": [{"namespace", "name"}], "pdbViolations", "message"}."""
    if _any_obj(pod, node, objects):
        return cast("Dict[str, Any]", _select_victims_obj(
            _obj(pod, "Pod", options), _obj(node, "Node", options),
            None if objects is None else _obj(objects, "List", options), options))
    return cast("Dict[str, Any]", _select_victims(pod, node, objects, options))


# ---- batches: one object against many, one call (ds_daemonset_node_should_run_nodes(3)) ---------

Objects = Union[ObjectArray, Sequence[Object]]


def _batch_fn(name: str, argtypes: Sequence[Any]) -> Any:
    fn = getattr(_lib, name, None)
    if fn is None:
        from .objects import _unsupported
        _unsupported()
    assert fn is not None
    fn.argtypes = list(argtypes)
    fn.restype = _ct.c_int
    return fn


def node_should_run_nodes(daemonset: Object, nodes: Objects,
                          options: OptionsArg = None) -> List[Tuple[bool, bool]]:
    """NodeShouldRunDaemonPod of one DaemonSet for each node
    (ds_daemonset_node_should_run_nodes(3)): [(shouldRun,
    shouldContinueRunning)], one per node, in one call. nodes: Node Objects, or
    an ObjectArray of them (made once, for calls on the same nodes)."""
    arr = _array(nodes)
    n = len(arr)
    res = _results(n)
    fn = _batch_fn("ds_daemonset_node_should_run_nodes",
                   [_ct.c_void_p, _ct.c_void_p, _ct.c_size_t, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p])
    _call(fn, daemonset, arr._array, n, _opts(options), res)
    return _pairs(res, n)


def node_should_run_daemonsets(daemonsets: Objects, node: Object,
                               options: OptionsArg = None) -> List[Tuple[bool, bool]]:
    """The same for each DaemonSet on one node (ds_daemonset_node_should_run_daemonsets(3))."""
    arr = _array(daemonsets)
    n = len(arr)
    res = _results(n)
    fn = _batch_fn("ds_daemonset_node_should_run_daemonsets",
                   [_ct.c_void_p, _ct.c_size_t, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p])
    _call(fn, arr._array, n, node, _opts(options), res)
    return _pairs(res, n)


def required_node_affinity_match_nodes(pod: Object, nodes: Objects, options: OptionsArg = None) -> List[bool]:
    """GetRequiredNodeAffinity(pod).Match for each node
    (ds_pod_required_node_affinity_match_nodes(3)); terms that do not parse
    raise InvalidValue when some node matched none."""
    arr = _array(nodes)
    n = len(arr)
    out = (_ct.c_int * max(n, 1))()
    fn = _batch_fn("ds_pod_required_node_affinity_match_nodes",
                   [_ct.c_void_p, _ct.c_void_p, _ct.c_size_t, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p])
    _call(fn, pod, arr._array, n, _opts(options), out)
    return [v != 0 for v in out[:n]]


def find_untolerated_taint_nodes(nodes: Objects, tolerations: Object, effects: Effects = None,
                                 options: OptionsArg = None) -> List[Optional[int]]:
    """FindMatchingUntoleratedTaint for the taints of each node
    (ds_taints_find_untolerated_nodes(3)): for each, the index of the first
    untolerated taint the filter keeps (see find_untolerated_taint), or None."""
    arr = _array(nodes)
    n = len(arr)
    found = (_ct.c_int * max(n, 1))()
    index = (_ct.c_int * max(n, 1))()
    f = _filter(effects, True)
    fn = _batch_fn("ds_taints_find_untolerated_nodes",
                   [_ct.c_void_p, _ct.c_size_t, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p, _ct.c_void_p,
                    _ct.c_void_p, _ct.c_void_p])
    _call(fn, arr._array, n, tolerations, _ct.byref(f) if f is not None else None, _opts(options), found, index)
    return [index[i] if found[i] else None for i in range(n)]


__all__ += ["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE", "OTHER_EFFECT", "tolerates_taint",
            "find_untolerated_taint", "required_node_affinity_match", "node_should_run", "new_pod",
            "add_daemon_tolerations", "replace_node_name_affinity", "rolling_update", "scheduler_filter",
            "select_victims", "Object", "ObjectArray", "node_should_run_nodes", "node_should_run_daemonsets",
            "required_node_affinity_match_nodes", "find_untolerated_taint_nodes"]
