"""Security audit: Pod Security Standards and DaemonSet risk findings (ds_object_audit(3), ds_pod_security_evaluate(3)).

    >>> from daemonset import audit
    >>> pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
    ...        "spec": {"hostNetwork": True, "containers": [{"name": "c", "image": "busybox"}]}}
    >>> r = audit.pod_security_evaluate(pod, "baseline")
    >>> r["allowed"], r["violations"][0]["check"]
    (False, 'hostNamespaces')
"""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

import ctypes

from ._native import lib, call, take_json, encode, declare, namespaced, required, Document, TEXT, CSTR, OPTIONS
from .cluster import Cluster
from .core import OptionsArg, options_arg

__all__ = ["audit", "daemonset_audit", "audit_sarif", "pod_security_evaluate"]

_audit = declare("ds_object_audit", TEXT, OPTIONS)
_pod_security_evaluate = declare("ds_pod_security_evaluate", TEXT, CSTR, CSTR, OPTIONS)
_audit_sarif = declare("ds_audit_sarif", TEXT, OPTIONS)

lib.ds_daemonset_audit.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p,
                                   ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_daemonset_audit.restype = ctypes.c_int


def audit(text: Document, options: OptionsArg = None) -> Dict[str, Any]:
    """Audit one object (JSON or YAML text, or a dict): a DaemonSet, another
    workload, a CronJob or a Pod. Returns the report as a dict: podSecurity,
    level, requested, findings (id, severity, path, message, remediation),
    summary. options: a dict or daemonset.Options (podSecurityLevel,
    podSecurityVersion, ...)."""
    return cast("Dict[str, Any]", _audit(text, options))


@namespaced(1)
def daemonset_audit(cluster: Cluster, namespace: Optional[str], name: Optional[str] = None,
                    options: OptionsArg = None) -> Dict[str, Any]:
    """The audit of a DaemonSet of a snapshot (a daemonset.Cluster), named by
    namespace and name or by "namespace/name": the report of audit(), and in
    placement.nodes / placement.summary the nodes that should run its pods
    ("runs on 3 of 40 nodes, including 0 control-plane nodes")."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_audit, cluster._h(), encode(namespace), encode(required(name, "name")),
         options_arg(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def audit_sarif(reports: Any, options: OptionsArg = None) -> Dict[str, Any]:
    """SARIF 2.1.0 (a dict) for one report or a list of reports; a report's
    "file" member names its manifest."""
    return cast("Dict[str, Any]", _audit_sarif(reports, options))


def pod_security_evaluate(text: Document, level: Optional[str] = None, version: Optional[str] = None,
                          options: OptionsArg = None) -> Dict[str, Any]:
    """Evaluate the Pod Security Standards for one object at level
    ("privileged", "baseline", "restricted") and version ("latest", "v1.N");
    None takes the options' values (restricted, latest). Returns a dict with
    allowed, violations, warning, and error (Pods) or pods (templates)."""
    return cast("Dict[str, Any]", _pod_security_evaluate(text, level, version, options))
