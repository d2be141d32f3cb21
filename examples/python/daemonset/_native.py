"""Loading libdaemonset with ctypes, and the conventions every wrapper follows.

The library is found through, in order: the DAEMONSET_LIB environment
variable (a path to the .so), the build tree this file sits in
(build/lib/libdaemonset.so.1), and the system's library path.

Conventions:
  * functions that return 0 or a negative code take a ds_error as last
    argument; `call()` turns a failure into DaemonSetError;
  * strings the library allocates come back as c_void_p and are copied and
    released with ds_free() by `take_string()` (never c_char_p, which leaks).
"""

import ctypes
import ctypes.util
import json
import os

__all__ = ["DaemonSetError", "lib", "call", "take_string", "take_json", "encode", "ERROR_CODES"]

ERROR_CODES = {
    0: "DS_OK", -1: "DS_ENOMEM", -2: "DS_EARG", -3: "DS_ESYNTAX", -4: "DS_ETYPE",
    -5: "DS_EVALUE", -6: "DS_EMISSING", -7: "DS_ENOTFOUND", -8: "DS_ELIMIT",
    -9: "DS_EUNSUPPORTED", -10: "DS_EINVALID", -11: "DS_EIO", -12: "DS_ECONFLICT",
    -13: "DS_ETRANSPORT", -14: "DS_ESTATE",
}


class _Error(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_int),
        ("line", ctypes.c_int),
        ("column", ctypes.c_int),
        ("reserved", ctypes.c_int),
        ("source", ctypes.c_char * 128),
        ("path", ctypes.c_char * 256),
        ("message", ctypes.c_char * 320),
    ]


class DaemonSetError(Exception):
    """A libdaemonset error: code (negative int), name ("DS_EVALUE"), path
    (JSON path of the offending field), message, line, column and source."""

    def __init__(self, code, path="", message="", line=0, column=0, source=""):
        self.code = code
        self.name = ERROR_CODES.get(code, "DS_UNKNOWN")
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        where = ""
        if source:
            where += source + ": "
        if line:
            where += "line %d, column %d: " % (line, column)
        if path:
            where += path + ": "
        super().__init__("%s%s (%s)" % (where, message, self.name))


def _candidates():
    env = os.environ.get("DAEMONSET_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "..", "build", "lib", "libdaemonset.so.1")
    found = ctypes.util.find_library("daemonset")
    if found:
        yield found
    yield "libdaemonset.so.1"


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise OSError("libdaemonset not found (set DAEMONSET_LIB): " + "; ".join(errors))


lib = _load()
lib.ds_free.argtypes = [ctypes.c_void_p]
lib.ds_free.restype = None
lib.ds_strerror.argtypes = [ctypes.c_int]
lib.ds_strerror.restype = ctypes.c_char_p
lib.ds_error_clear.argtypes = [ctypes.c_void_p]
lib.ds_error_clear.restype = None


def encode(text):
    """str or bytes to bytes (UTF-8)."""
    if text is None:
        return None
    return text if isinstance(text, bytes) else text.encode("utf-8")


def call(fn, *args):
    """Call fn(*args, &err); raise DaemonSetError when it returns < 0.
    Returns the (non-negative) return value."""
    err = _Error()
    rc = fn(*args, ctypes.byref(err))
    if rc < 0:
        raise DaemonSetError(
            err.code or rc,
            err.path.decode("utf-8", "replace"),
            err.message.decode("utf-8", "replace") or lib.ds_strerror(rc).decode(),
            err.line,
            err.column,
            err.source.decode("utf-8", "replace"),
        )
    return rc


def take_string(ptr):
    """Copy a library-allocated C string and release it with ds_free."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.ds_free(ptr)


def take_json(ptr):
    """take_string, then json.loads."""
    text = take_string(ptr)
    return None if text is None else json.loads(text)
