"""Security audit: Pod Security Standards and DaemonSet risk findings (ds_audit(3))."""

import ctypes

from ._native import lib, call, take_json, encode
from .core import options_arg as _opts

__all__ = ["audit", "daemonset_audit", "audit_sarif", "pod_security_evaluate"]

lib.ds_audit.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                         ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_audit.restype = ctypes.c_int
lib.ds_pod_security_evaluate.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p,
                                         ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_pod_security_evaluate.restype = ctypes.c_int
lib.ds_daemonset_audit.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p,
                                   ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_daemonset_audit.restype = ctypes.c_int
lib.ds_audit_sarif.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                               ctypes.c_void_p]
lib.ds_audit_sarif.restype = ctypes.c_int


def audit(text, options=None):
    """Audit one object (JSON or YAML text): a DaemonSet, another workload,
    a CronJob or a Pod. Returns the report as a dict: podSecurity, level,
    requested, findings (id, severity, path, message, remediation), summary.
    options: a daemonset.Options (podSecurityLevel, podSecurityVersion, ...)."""
    data = encode(text)
    out = ctypes.c_void_p()
    call(lib.ds_audit, data, len(data), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def daemonset_audit(cluster, namespace, name, options=None):
    """The audit of a DaemonSet of a snapshot (a daemonset.cluster.Cluster):
    the report of audit(), and in placement.nodes / placement.summary the
    nodes that should run its pods ("runs on 3 of 40 nodes, including 0
    control-plane nodes")."""
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_audit, cluster._h(), encode(namespace), encode(name), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def audit_sarif(reports, options=None):
    """SARIF 2.1.0 (a dict) for one report or a list of reports; a report's
    "file" member names its manifest."""
    import json
    data = encode(json.dumps(reports))
    out = ctypes.c_void_p()
    call(lib.ds_audit_sarif, data, len(data), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def pod_security_evaluate(text, level=None, version=None, options=None):
    """Evaluate the Pod Security Standards for one object at level
    ("privileged", "baseline", "restricted") and version ("latest", "v1.N");
    None takes the options' values (restricted, latest). Returns a dict with
    allowed, violations, warning, and error (Pods) or pods (templates)."""
    data = encode(text)
    out = ctypes.c_void_p()
    call(lib.ds_pod_security_evaluate, data, len(data), encode(level), encode(version), _opts(options),
         ctypes.byref(out))
    return take_json(out.value)
