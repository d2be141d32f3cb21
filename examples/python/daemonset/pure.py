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

from typing import List

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
