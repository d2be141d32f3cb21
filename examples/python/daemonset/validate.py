"""The API server's defaults and validation for DaemonSets (ds_daemonset_validate(3), ds_daemonset_defaults(3)),
and strict field validation of manifests (ds_manifest_check_fields(3)).

Documents are JSON or YAML text, or a dict:

    >>> from daemonset import validate
    >>> ds = {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "x", "namespace": "default"},
    ...       "spec": {"selector": {"matchLabels": {"app": "x"}},
    ...                "template": {"metadata": {"labels": {"app": "y"}},
    ...                             "spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}
    >>> r = validate.validate(ds)
    >>> r["valid"], r["errors"][0]["field"]
    (False, 'spec.template.metadata.labels')
    >>> validate.defaults(ds)["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"]
    1
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Tuple, cast

from ._native import declare, Document, TEXT, UINT, OPTIONS, call, document as _document, lib as _lib
from .core import OptionsArg

__all__ = ["defaults", "validate", "validate_update", "check_fields", "locate", "VALIDATE_AS_IS", "VALIDATE_STATUS"]

VALIDATE_AS_IS = 1
VALIDATE_STATUS = 2

_defaults = declare("ds_daemonset_defaults", TEXT, OPTIONS)
_validate = declare("ds_daemonset_validate", TEXT, UINT, OPTIONS)
_validate_update = declare("ds_daemonset_validate_update", TEXT, TEXT, UINT, OPTIONS)
_check_fields = declare("ds_manifest_check_fields", TEXT, OPTIONS)


def defaults(text: Document, options: OptionsArg = None) -> Dict[str, Any]:
    """The DaemonSet (JSON or YAML text, or a dict) with the API server's
    defaults applied, as a dict."""
    return cast("Dict[str, Any]", _defaults(text, options))


def validate(text: Document, as_is: bool = False, options: OptionsArg = None) -> Dict[str, Any]:
    """Validate the creation of a DaemonSet (JSON or YAML text, or a dict) as
    the API server would. Returns {"valid", "errors": [{"field", "type",
    "reason", "value", "detail", "message"}], "message"}. as_is: skip
    defaulting and the registry's preparation (upstream's ValidateDaemonSet
    alone). Input the API server could not decode raises DaemonSetError
    (ParseError, TypeMismatch, ...)."""
    return cast("Dict[str, Any]", _validate(text, VALIDATE_AS_IS if as_is else 0, options))


def validate_update(text: Document, old_text: Document, as_is: bool = False, status: bool = False,
                    options: OptionsArg = None) -> Dict[str, Any]:
    """Validate an update from old_text to text (status=True: a write to
    the status subresource). Same result as validate()."""
    flags = (VALIDATE_AS_IS if as_is else 0) | (VALIDATE_STATUS if status else 0)
    return cast("Dict[str, Any]", _validate_update(text, old_text, flags, options))


def check_fields(text: Document, options: OptionsArg = None) -> Dict[str, Any]:
    """Unknown and duplicate fields of every object in text (JSON or YAML, any
    number of documents, or a dict), as the API server's strict decoder
    reports them. Returns {"fieldValidation", "schema", "errors", "warnings",
    "objects"}: the findings ({"document", "kind", "name", "type", "path",
    "field", "message", "suggestion", "line", "column"}) are errors with the
    option fieldValidation Strict (the default), warnings with Warn, none with
    Ignore."""
    return cast("Dict[str, Any]", _check_fields(text, options))


def locate(text: Document, document: int, path: str) -> Tuple[int, int, bool]:
    """Where the field at path ("spec.template.spec.containers[0].image";
    "items[2]." first for an item of a List) is written in document
    `document` (1-based, every document of a YAML stream counted) of text
    (ds_manifest_locate(3)): (line, column, exact); exact is False when the
    field is absent and the place is that of the nearest enclosing field.
    A missing document raises NotFound.

        >>> locate("---\\n# only comments\\n---\\nkind: DaemonSet\\nspec: {minReadySeconds: 5}\\n", 2,
        ...        "spec.minReadySeconds")
        (5, 8, True)
    """
    data = _document(text)
    line, column, exact = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    fn = _lib.ds_manifest_locate
    fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                   ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.c_void_p]
    fn.restype = ctypes.c_int
    call(fn, data, len(data or b""), document, path.encode(), ctypes.byref(line), ctypes.byref(column),
         ctypes.byref(exact))
    return line.value, column.value, bool(exact.value)
