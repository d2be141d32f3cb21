"""Security audit: Pod Security Standards and DaemonSet risk findings (ds_audit(3), ds_pod_security_evaluate(3)).

    >>> from daemonset import audit
    >>> pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
    ...        "spec": {"hostNetwork": True, "containers": [{"name": "c", "image": "busybox"}]}}
    >>> r = audit.pod_security_evaluate(pod, "baseline")
    >>> r["allowed"], r["violations"][0]["check"]
    (False, 'hostNamespaces')
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ._native import declare, Document, TEXT, CSTR, OPTIONS
from .core import OptionsArg

__all__ = ["audit", "pod_security_evaluate"]

_audit = declare("ds_audit", TEXT, OPTIONS)
_pod_security_evaluate = declare("ds_pod_security_evaluate", TEXT, CSTR, CSTR, OPTIONS)


def audit(text: Document, options: OptionsArg = None) -> Dict[str, Any]:
    """Audit one object (JSON or YAML text, or a dict): a DaemonSet, another
    workload, a CronJob or a Pod. Returns the report as a dict: podSecurity,
    level, requested, findings (id, severity, path, message, remediation),
    summary. options: a dict or daemonset.Options (podSecurityLevel,
    podSecurityVersion, ...)."""
    return _audit(text, options)


def pod_security_evaluate(text: Document, level: Optional[str] = None, version: Optional[str] = None,
                          options: OptionsArg = None) -> Dict[str, Any]:
    """Evaluate the Pod Security Standards for one object at level
    ("privileged", "baseline", "restricted") and version ("latest", "v1.N");
    None takes the options' values (restricted, latest). Returns a dict with
    allowed, violations, warning, and error (Pods) or pods (templates)."""
    return _pod_security_evaluate(text, level, version, options)
