"""The exceptions: one class per ds_error_code, all under DaemonSetError.

Every failing call raises the subclass for its code, so a caller can catch
exactly what it expects and still reach the library's report:

    >>> import daemonset
    >>> try:
    ...     daemonset.parse_quantity("12 apples")
    ... except daemonset.InvalidValue as e:
    ...     print(e.name, e.code)
    DS_EVALUE -5
    >>> issubclass(daemonset.NotFound, daemonset.DaemonSetError)
    True

Attributes of every instance: code (the negative int), name ("DS_EVALUE"),
path (JSON path of the offending field, "" when not about a field),
message, line and column (1-based, for syntax errors, else 0) and source
(the file, "" when not known).

Where a built-in exception means the same thing, the class derives from it
too, so generic handlers keep working: ParseError, TypeMismatch,
InvalidValue, MissingField, InvalidArgument and InvalidObject are
ValueErrors (as json.JSONDecodeError is), NotFound is a LookupError,
OutOfMemory a MemoryError and ReadError an OSError. No class shadows a
built-in name: ParseError, not SyntaxError; ReadError, not IOError.
"""

from __future__ import annotations

from typing import Dict, Type

__all__ = [
    "ERROR_CODES", "DaemonSetError", "OutOfMemory", "InvalidArgument", "ParseError", "TypeMismatch",
    "InvalidValue", "MissingField", "NotFound", "LimitExceeded", "Unsupported", "InvalidObject", "ReadError",
    "Conflict", "TransportError", "StateError", "error_class",
]

#: ds_error_code values and their names (include/daemonset/common.h).
ERROR_CODES: Dict[int, str] = {
    0: "DS_OK", -1: "DS_ENOMEM", -2: "DS_EARG", -3: "DS_ESYNTAX", -4: "DS_ETYPE",
    -5: "DS_EVALUE", -6: "DS_EMISSING", -7: "DS_ENOTFOUND", -8: "DS_ELIMIT",
    -9: "DS_EUNSUPPORTED", -10: "DS_EINVALID", -11: "DS_EIO", -12: "DS_ECONFLICT",
    -13: "DS_ETRANSPORT", -14: "DS_ESTATE",
}


class DaemonSetError(Exception):
    """A libdaemonset error: code (negative int), name ("DS_EVALUE"), path
    (JSON path of the offending field), message, line, column and source.

    DaemonSetError(code, ...) builds the subclass for code, so code that
    raises the base class by code still raises the specific class:

    >>> type(DaemonSetError(-7, message="Node x not found")).__name__
    'NotFound'
    """

    #: the ds_error_code a subclass stands for (0 for the base class)
    CODE = 0

    def __new__(cls, code: int = 0, *args: object, **kwargs: object) -> "DaemonSetError":
        if cls is DaemonSetError:
            cls = _BY_CODE.get(code, DaemonSetError)
        # OSError has its own instance layout and constructor; MemoryError's refuses subclasses
        return (OSError.__new__ if issubclass(cls, OSError) else Exception.__new__)(cls)

    def __init__(self, code: int, path: str = "", message: str = "", line: int = 0, column: int = 0,
                 source: str = "") -> None:
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
        # Exception.__init__ directly: the OSError and LookupError mixins must not
        # reinterpret the arguments (OSError would read two of them as errno and text).
        Exception.__init__(self, "%s%s (%s)" % (where, message, self.name))

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # pickling (multiprocessing) rebuilds from the fields, not from args
        return (DaemonSetError, (self.code, self.path, self.message, self.line, self.column, self.source))


class OutOfMemory(DaemonSetError, MemoryError):
    """DS_ENOMEM: the library ran out of memory."""
    CODE = -1


class InvalidArgument(DaemonSetError, ValueError):
    """DS_EARG: an argument is invalid (an unknown option name, an unknown kind, NULL where text was needed)."""
    CODE = -2


class ParseError(DaemonSetError, ValueError):
    """DS_ESYNTAX: JSON or YAML text is malformed; .line and .column say where."""
    CODE = -3


class TypeMismatch(DaemonSetError, ValueError):
    """DS_ETYPE: a field of a document has the wrong JSON type; .path names it."""
    CODE = -4


class InvalidValue(DaemonSetError, ValueError):
    """DS_EVALUE: a field or argument has a value that is not allowed."""
    CODE = -5


class MissingField(DaemonSetError, ValueError):
    """DS_EMISSING: a required field is absent; .path names it."""
    CODE = -6


class NotFound(DaemonSetError, LookupError):
    """DS_ENOTFOUND: the named object (DaemonSet, Node, revision, ...) is not in the snapshot."""
    CODE = -7


class LimitExceeded(DaemonSetError):
    """DS_ELIMIT: a limit was exceeded (document size, depth, YAML aliases, object count)."""
    CODE = -8


class Unsupported(DaemonSetError):
    """DS_EUNSUPPORTED: a kind or apiVersion the library does not handle, or
    (raised by this module) a function the loaded library is too old to have."""
    CODE = -9


class InvalidObject(DaemonSetError, ValueError):
    """DS_EINVALID: validation found the object invalid."""
    CODE = -10


class ReadError(DaemonSetError, OSError):
    """DS_EIO: a file could not be read; .source names it."""
    CODE = -11


class Conflict(DaemonSetError):
    """DS_ECONFLICT: the object changed under a write (HTTP 409)."""
    CODE = -12


class TransportError(DaemonSetError):
    """DS_ETRANSPORT: a transport call failed (an ERROR watch event, a callback
    that failed). daemonset.controller.TransportError, which a Python transport
    raises, is a subclass."""
    CODE = -13


class StateError(DaemonSetError):
    """DS_ESTATE: the call is not valid in the object's state (no previous revision to roll back to, ...)."""
    CODE = -14


_BY_CODE: Dict[int, Type[DaemonSetError]] = {
    c.CODE: c for c in (OutOfMemory, InvalidArgument, ParseError, TypeMismatch, InvalidValue, MissingField, NotFound,
                        LimitExceeded, Unsupported, InvalidObject, ReadError, Conflict, TransportError, StateError)
}


def error_class(code: int) -> Type[DaemonSetError]:
    """The exception class for a ds_error_code (DaemonSetError for an unknown code).

    >>> error_class(-7).__name__
    'NotFound'
    """
    return _BY_CODE.get(code, DaemonSetError)
