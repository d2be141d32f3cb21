"""The API server's defaults and validation for DaemonSets (ds_daemonset_validate(3), ds_daemonset_defaults(3)),
and strict field validation of manifests (ds_manifest_check_fields(3))."""

import ctypes

from ._native import lib, call, take_json, encode
from .core import options_arg as _opts

__all__ = ["defaults", "validate", "validate_update", "check_fields", "VALIDATE_AS_IS", "VALIDATE_STATUS"]

VALIDATE_AS_IS = 1
VALIDATE_STATUS = 2

lib.ds_daemonset_defaults.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                                      ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_daemonset_defaults.restype = ctypes.c_int
lib.ds_daemonset_validate.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_void_p,
                                      ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_daemonset_validate.restype = ctypes.c_int
lib.ds_daemonset_validate_update.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                             ctypes.c_uint, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                             ctypes.c_void_p]
lib.ds_daemonset_validate_update.restype = ctypes.c_int
lib.ds_manifest_check_fields.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                                         ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_manifest_check_fields.restype = ctypes.c_int


def defaults(text, options=None):
    """The DaemonSet (JSON or YAML text) with the API server's defaults
    applied, as a dict."""
    data = encode(text)
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_defaults, data, len(data), _opts(options), ctypes.byref(out))
    return take_json(out.value)


def validate(text, as_is=False, options=None):
    """Validate the creation of a DaemonSet as the API server would.
    Returns {"valid", "errors": [{"field", "type", "reason", "value",
    "detail", "message"}], "message"}. as_is: skip defaulting and the
    registry's preparation (upstream's ValidateDaemonSet alone). Input the
    API server could not decode raises DaemonSetError."""
    data = encode(text)
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_validate, data, len(data), VALIDATE_AS_IS if as_is else 0, _opts(options),
         ctypes.byref(out))
    return take_json(out.value)


def validate_update(text, old_text, as_is=False, status=False, options=None):
    """Validate an update from old_text to text (status=True: a write to
    the status subresource). Same result as validate()."""
    data, old = encode(text), encode(old_text)
    flags = (VALIDATE_AS_IS if as_is else 0) | (VALIDATE_STATUS if status else 0)
    out = ctypes.c_void_p()
    call(lib.ds_daemonset_validate_update, data, len(data), old, len(old), flags, _opts(options),
         ctypes.byref(out))
    return take_json(out.value)


def check_fields(text, options=None):
    """Unknown and duplicate fields of every object in text (JSON or YAML, any
    number of documents), as the API server's strict decoder reports them.
    Returns {"fieldValidation", "schema", "errors", "warnings", "objects"}: the
    findings ({"document", "kind", "name", "type", "path", "field", "message",
    "suggestion", "line", "column"}) are errors with the option fieldValidation
    Strict (the default), warnings with Warn, none with Ignore."""
    data = encode(text)
    out = ctypes.c_void_p()
    call(lib.ds_manifest_check_fields, data, len(data), _opts(options), ctypes.byref(out))
    return take_json(out.value)
