"""Versions, options and time (ds_version(3), ds_options(3), ds_time_parse(3)).

Options are accepted everywhere as a plain dict, converted through
ds_options_set_all(3) (all or nothing), or as an Options object that can be
reused across calls:

    >>> from daemonset import Options
    >>> o = Options({"burstReplicas": 50, "featureGates": {"SidecarContainers": False}})
    >>> o.get("burstReplicas")
    '50'
    >>> "SidecarContainers=false" in o.get("featureGates")
    True
    >>> Options(force=True, gracePeriodSeconds=30).get("gracePeriodSeconds")
    '30'
"""

from __future__ import annotations

import ctypes
import json
import math
from typing import Any, Mapping, Optional, Union, cast

from ._native import lib, call, take_string, encode

__all__ = ["version", "version_number", "Options", "OptionsArg", "Time", "parse_time", "format_time"]

#: A time: RFC 3339 text ("2026-12-02T15:00:00Z") or integer milliseconds since the epoch.
Time = Union[str, int]

lib.ds_version.restype = ctypes.c_char_p
lib.ds_version.argtypes = []
lib.ds_version_number.restype = ctypes.c_int
lib.ds_version_number.argtypes = []
lib.ds_options_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_options_create.restype = ctypes.c_int
lib.ds_options_free.argtypes = [ctypes.c_void_p]
lib.ds_options_free.restype = None
lib.ds_options_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
lib.ds_options_set.restype = ctypes.c_int
lib.ds_options_set_all.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
lib.ds_options_set_all.restype = ctypes.c_int
lib.ds_options_get.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_options_get.restype = ctypes.c_int
lib.ds_time_parse.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
lib.ds_time_parse.restype = ctypes.c_int
lib.ds_time_format.argtypes = [ctypes.c_int64, ctypes.c_char_p, ctypes.c_size_t]
lib.ds_time_format.restype = ctypes.c_int


def version() -> str:
    """The loaded library's version, "MAJOR.MINOR.PATCH" (daemonset.__version__
    is the package's; a newer library of the same SONAME may be loaded)."""
    return cast("str", lib.ds_version().decode())


def version_number() -> int:
    """The library's version as 0xMMmmpp."""
    return cast("int", lib.ds_version_number())


def _option_value(name: str, value: Any) -> Any:
    """A value as ds_options_set_all takes it: str, int and bool as they are;
    featureGates given as a mapping becomes "Name=true,..."; a float becomes
    its text (the library reads "1.35", not the JSON number)."""
    if name == "featureGates" and isinstance(value, Mapping):
        parts = []
        for gate, on in value.items():
            if not isinstance(on, bool):
                raise TypeError("featureGates.%s must be True or False, not %r" % (gate, on))
            parts.append("%s=%s" % (gate, "true" if on else "false"))
        return ",".join(parts)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    return value


class Options:
    """ds_options: the named settings of every operation (ds_options(3) lists them).

    Options({"burstReplicas": 50}), Options(force=True, gracePeriodSeconds=30),
    or both; .set(name, value) and .update(mapping) add to it. Every function
    that takes options also takes the dict directly. Usable in a with block,
    which frees it at the end (it is also freed when garbage-collected).
    """

    def __init__(self, settings: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        handle = ctypes.c_void_p()
        # its only failure is DS_ENOMEM (out is never NULL here): MemoryError, as before
        if lib.ds_options_create(ctypes.byref(handle), None) < 0:
            raise MemoryError("ds_options_create")
        self._as_parameter_: Optional[ctypes.c_void_p] = handle
        if settings:
            self.update(settings)
        if kwargs:
            self.update(kwargs)

    def _h(self) -> ctypes.c_void_p:
        if self._as_parameter_ is None:
            raise ValueError("the options are closed")
        return self._as_parameter_

    def set(self, name: str, value: Any) -> "Options":
        """Set one option from a value or its text (True, 50, "30s", {"Gate": True} for featureGates)."""
        value = _option_value(name, value)
        if isinstance(value, bool):
            value = "true" if value else "false"
        call(lib.ds_options_set, self._h(), encode(name), encode(str(value)))
        return self

    def update(self, settings: Mapping[str, Any]) -> "Options":
        """Set every option of a mapping at once, all or nothing (ds_options_set_all(3)):
        an unknown name raises InvalidArgument and leaves the options as they were."""
        if not isinstance(settings, Mapping):
            raise TypeError("options must be a mapping of names to values, not %s" % type(settings).__name__)
        doc = {str(k): _option_value(str(k), v) for k, v in settings.items()}
        text = json.dumps(doc).encode("utf-8")  # JSON escapes control characters: no NUL inside
        call(lib.ds_options_set_all, self._h(), text, len(text))
        return self

    def get(self, name: str) -> Optional[str]:
        """The current value of an option as text."""
        out = ctypes.c_void_p()
        call(lib.ds_options_get, self._h(), encode(name), ctypes.byref(out))
        return take_string(out.value)

    def close(self) -> None:
        """Free the options (idempotent)."""
        h = getattr(self, "_as_parameter_", None)
        if h is not None:
            self._as_parameter_ = None
            lib.ds_options_free(h)

    def __enter__(self) -> "Options":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


#: What an options parameter takes: None (the library's defaults), an Options, or a dict.
OptionsArg = Optional[Union[Options, Mapping[str, Any]]]


def options_arg(options: OptionsArg) -> Optional[Options]:
    """The ds_options argument of a call: None, the Options given, or a new
    Options made from a mapping. Pass the result itself to the C function
    (ctypes reads its _as_parameter_), so that it stays alive during the call."""
    if options is None or isinstance(options, Options):
        if options is not None:
            options._h()
        return options
    if isinstance(options, Mapping):
        return Options(options)
    raise TypeError("options must be None, a dict or a daemonset.Options, not %s" % type(options).__name__)


def parse_time(text: Union[str, bytes]) -> int:
    """RFC 3339 text to milliseconds since the epoch.

    >>> parse_time("2026-12-02T15:00:00Z")
    1796223600000
    """
    out = ctypes.c_int64()
    call(lib.ds_time_parse, encode(text), ctypes.byref(out))
    return out.value


def format_time(ms: int) -> str:
    """Milliseconds since the epoch to RFC 3339 text (UTC).

    >>> format_time(1796223600000)
    '2026-12-02T15:00:00Z'
    """
    buf = ctypes.create_string_buffer(32)
    lib.ds_time_format(ms, buf, 32)
    return buf.value.decode()


def time_arg(now: Any, what: str = "now") -> int:
    """RFC 3339 text or integer milliseconds since the epoch, as milliseconds."""
    if isinstance(now, bool):
        raise TypeError("%s must be RFC 3339 text or milliseconds, not bool" % what)
    if isinstance(now, int):
        return now
    if isinstance(now, (str, bytes)):
        return parse_time(now)
    raise TypeError("%s must be RFC 3339 text or milliseconds, not %s" % (what, type(now).__name__))
