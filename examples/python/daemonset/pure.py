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
from typing import Any, Dict, Optional, Tuple  # noqa: E402

from ._native import lib as _lib, call as _call, take_json as _take_json, document as _doc, encode as _enc  # noqa: E402
from .core import options_arg as _opts  # noqa: E402

# The effect filter of find_untolerated_taint: a taint is considered when its effect is listed.
NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE, OTHER_EFFECT = 0x1, 0x2, 0x4, 0x8

_tolerates_taint = declare("ds_toleration_tolerates_taint", TEXT, TEXT, OPTIONS, out=BOOL)
_required_affinity = declare("ds_pod_required_node_affinity_match", TEXT, TEXT, out=BOOL)
_new_pod = declare("ds_daemonset_new_pod", TEXT, CSTR, CSTR, OPTIONS)
_add_tolerations = declare("ds_podspec_add_daemon_tolerations", TEXT)
_replace_affinity = declare("ds_affinity_replace_node_name", TEXT, CSTR)
_rolling_update = declare("ds_daemonset_rolling_update", TEXT, TEXT, CSTR, INT64, OPTIONS)
_scheduler_filter = declare("ds_scheduler_filter", TEXT, TEXT, TEXT, OPTIONS)
_select_victims = declare("ds_preemption_select_victims", TEXT, TEXT, TEXT, OPTIONS)


def _text(d: Any) -> Tuple[Optional[bytes], int]:
    data = _doc(d)
    return data, 0 if data is None else len(data)


def tolerates_taint(toleration: Document, taint: Document, options: OptionsArg = None) -> bool:
    """core/v1 Toleration.ToleratesTaint (ds_toleration_tolerates_taint(3)):
    any toleration and taint, as upstream evaluates them. Lt and Gt follow the
    TaintTolerationComparisonOperators gate of options["featureGates"].

        >>> tolerates_taint({"operator": "In", "key": "a"}, {"key": "a", "effect": "NoSchedule"})
        False
        >>> tolerates_taint({"operator": "Exists", "effect": "noschedule"}, {"key": "k", "effect": "noschedule"})
        True
    """
    return bool(_tolerates_taint(toleration, taint, options))


def find_untolerated_taint(taints: Document, tolerations: Document, effects: int = 0,
                           options: OptionsArg = None) -> Optional[Dict[str, Any]]:
    """FindMatchingUntoleratedTaint (ds_taints_find_untolerated(3)): the first
    taint of the list that the filter keeps (effects: NO_SCHEDULE | NO_EXECUTE
    ..., 0 for every taint) and no toleration tolerates; None when there is none.

        >>> find_untolerated_taint([{"key": "a", "effect": "NoSchedule"}], [{"key": "a", "operator": "Exists"}])
        >>> find_untolerated_taint([{"key": "b", "effect": "NoExecute"}], [], NO_EXECUTE)
        {'effect': 'NoExecute', 'key': 'b'}
    """
    t, tn = _text(taints)
    l, ln = _text(tolerations)
    out = _ct.c_void_p()
    fn = _lib.ds_taints_find_untolerated
    fn.argtypes = [_ct.c_char_p, _ct.c_size_t, _ct.c_char_p, _ct.c_size_t, _ct.c_uint, _ct.c_void_p,
                   _ct.POINTER(_ct.c_int), _ct.POINTER(_ct.c_void_p), _ct.c_void_p]
    o = _opts(options)
    _call(fn, t, tn, l, ln, effects, o, None, _ct.byref(out))
    return cast("Optional[Dict[str, Any]]", _take_json(out.value))


def required_node_affinity_match(pod: Document, node: Document) -> bool:
    """GetRequiredNodeAffinity(pod).Match(node)
    (ds_pod_required_node_affinity_match(3)): spec.nodeSelector and the
    required node affinity of a Pod (or a PodTemplateSpec or PodSpec) against a
    Node. Terms that do not parse raise InvalidValue when no term matched, as
    Match returns its error beside false.

        >>> required_node_affinity_match({"spec": {"nodeSelector": {"disk": "ssd"}}},
        ...                              {"metadata": {"labels": {"disk": "ssd"}}})
        True
    """
    return bool(_required_affinity(pod, node))


def node_should_run(daemonset: Document, node: Document, options: OptionsArg = None) -> Dict[str, Any]:
    """NodeShouldRunDaemonPod (ds_daemonset_node_should_run(3)):
    {"node", "shouldRun", "shouldContinueRunning", "reasons"} for any
    DaemonSet and Node, a Node without a name included.

        >>> ds = {"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}}
        >>> node_should_run(ds, {"spec": {"taints": [{"key": "x", "effect": "NoExecute"}]}})["shouldContinueRunning"]
        False
    """
    d, dn = _text(daemonset)
    n, nn = _text(node)
    out = _ct.c_void_p()
    fn = _lib.ds_daemonset_node_should_run
    fn.argtypes = [_ct.c_char_p, _ct.c_size_t, _ct.c_char_p, _ct.c_size_t, _ct.c_void_p, _ct.POINTER(_ct.c_int),
                   _ct.POINTER(_ct.c_int), _ct.POINTER(_ct.c_void_p), _ct.c_void_p]
    o = _opts(options)
    _call(fn, d, dn, n, nn, o, None, None, _ct.byref(out))
    return cast("Dict[str, Any]", _take_json(out.value))


def new_pod(daemonset: Document, node_name: str, revision_hash: Optional[str] = None,
            options: OptionsArg = None) -> Dict[str, Any]:
    """The Pod the DaemonSet controller creates for node_name
    (ds_daemonset_new_pod(3)): CreatePodTemplate, the metadata.name pin
    (ReplaceDaemonSetPodNodeNameNodeAffinity) and GetPodFromTemplate.
    revision_hash None: the template's hash; "": no hash label. Printed as Go
    prints the Pod: an empty omitempty field is left out, a struct is not.

        >>> ds = {"metadata": {"name": "agent", "namespace": "kube-system", "uid": "u"},
        ...       "spec": {"template": {"metadata": {"labels": {"app": "agent"}},
        ...                             "spec": {"containers": [{"name": "c", "image": "i"}]}}}}
        >>> new_pod(ds, "node-1", "abc")["metadata"]["labels"]["controller-revision-hash"]
        'abc'
        >>> new_pod({**ds, "spec": {"template": {**ds["spec"]["template"], "spec": {"hostNetwork": False}}}},
        ...         "node-1", "abc")["spec"].get("hostNetwork")
    """
    return cast("Dict[str, Any]", _new_pod(daemonset, node_name, revision_hash, options))


def add_daemon_tolerations(podspec: Document) -> Dict[str, Any]:
    """AddOrUpdateDaemonPodTolerations (ds_podspec_add_daemon_tolerations(3)):
    the PodSpec with the DaemonSet controller's default tolerations merged in;
    a matching toleration is replaced and loses its tolerationSeconds, as upstream does.

        >>> spec = {"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
        ...                          "effect": "NoExecute", "tolerationSeconds": 300}]}
        >>> add_daemon_tolerations(spec)["tolerations"][0]
        {'effect': 'NoExecute', 'key': 'node.kubernetes.io/not-ready', 'operator': 'Exists'}
    """
    return cast("Dict[str, Any]", _add_tolerations(podspec))


def replace_node_name_affinity(affinity: Optional[Document], node_name: str) -> Dict[str, Any]:
    """ReplaceDaemonSetPodNodeNameNodeAffinity (ds_affinity_replace_node_name(3)):
    the Affinity with its required node affinity replaced by the
    metadata.name pin to node_name (None: a nil Affinity)."""
    return cast("Dict[str, Any]", _replace_affinity(affinity, node_name))


def rolling_update(daemonset: Document, objects: Document, revision_hash: Optional[str] = None, now: int = 0,
                   options: OptionsArg = None) -> Dict[str, Any]:
    """rollingUpdate alone (ds_daemonset_rolling_update(3)): for the
    DaemonSet, nodes and pods given (objects: a list, List or stream), the old
    pods it deletes and the surge pods it creates now. now: milliseconds since
    the epoch."""
    return cast("Dict[str, Any]", _rolling_update(daemonset, objects, revision_hash, now, options))


def scheduler_filter(pod: Document, node: Document, objects: Optional[Document] = None,
                     options: OptionsArg = None) -> Dict[str, Any]:
    """The scheduler's filters for pod on node with its pods
    (ds_scheduler_filter(3)): {"fits", "reasons": [{"plugin", "code",
    "message", ...}], "priority", "preemption", ...}; code is
    "Unschedulable" or "UnschedulableAndUnresolvable"."""
    return cast("Dict[str, Any]", _scheduler_filter(pod, node, objects, options))


def select_victims(pod: Document, node: Document, objects: Optional[Document] = None,
                   options: OptionsArg = None) -> Dict[str, Any]:
    """DefaultPreemption's SelectVictimsOnNode (ds_preemption_select_victims(3)):
    {"possible", "victims": [{"namespace", "name"}], "pdbViolations", "message"}."""
    return cast("Dict[str, Any]", _select_victims(pod, node, objects, options))


__all__ += ["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE", "OTHER_EFFECT", "tolerates_taint",
            "find_untolerated_taint", "required_node_affinity_match", "node_should_run", "new_pod",
            "add_daemon_tolerations", "replace_node_name_affinity", "rolling_update", "scheduler_filter",
            "select_victims"]
