"""Loading libdaemonset with ctypes, and the conventions every wrapper follows.

Finding the library
-------------------
No environment variable is needed. The candidates, in order (the first
that loads wins; library_path() says which one did):

1. ``DAEMONSET_LIB``, the path of a libdaemonset.so: an explicit override
   always wins, so that a test run or a user can pin one build even when an
   older copy is installed system-wide (if it came later, an installed
   library would silently shadow the one asked for by name); for the same
   reason, when it cannot be loaded, that is the error: no other candidate
   is tried;
2. the copy a wheel carries (``daemonset/_lib/libdaemonset.so.1``: `pip
   install ./examples/python` builds the library and puts it there), which
   is the library this package was built with;
3. the library directory recorded when ``make install`` installed this
   package (``daemonset/_config.py``, also written by
   ``pip install -C libdir=DIR``): the library installed with the package;
4. the dynamic loader's path: ``libdaemonset.so.1`` through dlopen
   (LD_LIBRARY_PATH, /etc/ld.so.cache, /lib, /usr/lib), then
   ``ctypes.util.find_library("daemonset")`` when it names SONAME 1;
5. ``pkg-config --variable=libdir daemonset`` (``$PKG_CONFIG`` if set):
   finds a library installed under /usr/local before ldconfig has run, or
   under any prefix on PKG_CONFIG_PATH;
6. ``<sys.prefix>/lib``: a library installed into the running Python
   environment (``make install PREFIX=$VIRTUAL_ENV``, or a conda env);
7. ``build/lib`` of the source checkout this file sits in, when it does.

When none loads, OSError lists every candidate and why it failed.

Conventions
-----------
* functions that return 0 or a negative code take a ds_error as last
  argument; `call()` turns a failure into the DaemonSetError subclass of
  the code (daemonset.errors);
* strings the library allocates come back as c_void_p and are copied and
  released with ds_free() by `take_string()` (never c_char_p, which leaks);
* documents go in as text with a size: `document()` accepts str, bytes, or
  a dict/list serialised as JSON;
* `declare()` binds a C function from a short signature, so a new ABI
  function is one line plus a documented Python function (see pure.py).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union

from .errors import ERROR_CODES, DaemonSetError, Unsupported

__all__ = ["DaemonSetError", "lib", "call", "take_string", "take_json", "encode", "document", "ERROR_CODES",
           "library_path", "library_candidates", "declare", "namespaced", "split_key"]

SONAME = "libdaemonset.so.1"

#: A JSON or YAML document: text (str or bytes), or a dict or list serialised as JSON.
Document = Union[str, bytes, Mapping[str, Any], Sequence[Any]]


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


def _recorded_libdir() -> Optional[str]:
    try:
        from . import _config  # type: ignore[attr-defined]  # written at install; absent in a checkout
    except ImportError:
        return None
    return getattr(_config, "LIBDIR", None) or None


def _pkg_config_libdir(environ: Mapping[str, str]) -> Tuple[Optional[str], str]:
    """(libdir or None, what happened)."""
    tool = environ.get("PKG_CONFIG") or "pkg-config"
    exe = shutil.which(tool, path=environ.get("PATH"))
    if not exe:
        return None, "%s not found" % tool
    try:
        out = subprocess.run([exe, "--variable=libdir", "daemonset"], capture_output=True, text=True,
                             timeout=10, env=dict(environ))
    except (OSError, subprocess.SubprocessError) as e:
        return None, "%s failed: %s" % (tool, e)
    libdir = out.stdout.strip()
    if out.returncode != 0 or not libdir:
        return None, "%s --variable=libdir daemonset: no daemonset.pc on its path" % tool
    return libdir, ""


def library_candidates(environ: Optional[Mapping[str, str]] = None, recorded: Optional[str] = "auto",
                       prefix: Optional[str] = None, here: Optional[str] = None) -> Iterator[Tuple[str, str]]:
    """The places the library is looked for, in order, as (how, path) pairs;
    a place that gives no path yields (how, "") so that the failure message
    can name it. The arguments replace the process's environment, the
    recorded libdir, sys.prefix and this file's directory (for tests)."""
    env = os.environ if environ is None else environ
    explicit = env.get("DAEMONSET_LIB")
    yield ("DAEMONSET_LIB", explicit) if explicit else ("DAEMONSET_LIB (not set)", "")
    here = os.path.dirname(os.path.abspath(__file__)) if here is None else here
    bundled = os.path.join(here, "_lib", SONAME)
    if os.path.isfile(bundled):
        yield "bundled in the package", bundled
    else:
        yield "bundled in the package (none: not installed from a wheel that carries it)", ""
    libdir = _recorded_libdir() if recorded == "auto" else recorded
    if libdir:
        yield "recorded at install", os.path.join(libdir, SONAME)
    else:
        yield "recorded at install (none: not installed by make install or pip install -C libdir=DIR)", ""
    yield "loader path", SONAME
    found = ctypes.util.find_library("daemonset")
    # find_library may name another SONAME (a later ABI this module was not written for)
    if found and (found == SONAME or found.endswith("/" + SONAME)):
        yield "ctypes.util.find_library", found
    pc_libdir, why = _pkg_config_libdir(env)
    yield ("pkg-config" if pc_libdir else "pkg-config (" + why + ")"), (
        os.path.join(pc_libdir, SONAME) if pc_libdir else "")
    yield "sys.prefix", os.path.join(sys.prefix if prefix is None else prefix, "lib", SONAME)
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    # only from a source checkout: elsewhere ../../.. is an unrelated directory
    if os.path.isfile(os.path.join(root, "include", "daemonset", "common.h")):
        yield "source checkout", os.path.join(root, "build", "lib", SONAME)


def _load(candidates: Iterator[Tuple[str, str]]) -> Tuple[ctypes.CDLL, str, str]:
    errors: List[str] = []
    for how, path in candidates:
        if not path:
            errors.append(how)
            continue
        try:
            return ctypes.CDLL(path), path, how
        except OSError as e:
            if how == "DAEMONSET_LIB":
                # asked for by name: loading another library instead would hide the mistake
                raise OSError("DAEMONSET_LIB=%s cannot be loaded: %s" % (path, e)) from None
            errors.append("%s: %s" % (how, e))
    raise OSError("libdaemonset (%s) not found; tried, in order:\n  %s\n"
                  "Install it (make install), or set DAEMONSET_LIB to the path of libdaemonset.so.1."
                  % (SONAME, "\n  ".join(errors)))


lib, _lib_path, _lib_how = _load(library_candidates())


def library_path() -> Tuple[str, str]:
    """(path or name the library was loaded from, how it was found), e.g.
    ("/usr/local/lib/libdaemonset.so.1", "pkg-config"). The loader path gives
    the bare name "libdaemonset.so.1"."""
    return _lib_path, _lib_how


lib.ds_free.argtypes = [ctypes.c_void_p]
lib.ds_free.restype = None
lib.ds_strerror.argtypes = [ctypes.c_int]
lib.ds_strerror.restype = ctypes.c_char_p
lib.ds_error_clear.argtypes = [ctypes.c_void_p]
lib.ds_error_clear.restype = None


def encode(text: Optional[Union[str, bytes]]) -> Optional[bytes]:
    """A C string argument (a name, a selector, an option): str (as UTF-8) or
    bytes; None stays None. ValueError for an embedded NUL: C reads a string
    up to its first NUL, so "node-1\\x00-evil" would silently be "node-1".

    >>> encode("worker-1")
    b'worker-1'
    >>> encode("node-1\\x00-evil")
    Traceback (most recent call last):
    ...
    ValueError: embedded null character in 'node-1\\x00-evil': a C string ends at its first NUL
    """
    if text is None:
        return None
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if b"\0" in data:
        raise ValueError("embedded null character in %r: a C string ends at its first NUL" % (text,))
    return data


def document(data: Optional[Document]) -> Optional[bytes]:
    """A document argument as bytes: str and bytes as they are (JSON or YAML),
    a dict or list (any Mapping or non-text Sequence) serialised as JSON. None stays None.
    (Passed with its size: a NUL in it is the parser's to refuse, not cut.)"""
    if data is None or isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8")
    if isinstance(data, bytearray):
        return bytes(data)
    if isinstance(data, Mapping):
        data = dict(data)
    elif isinstance(data, Sequence):
        data = list(data)
    else:
        raise TypeError("expected JSON or YAML text, a dict or a list, not %s" % type(data).__name__)
    return json.dumps(data).encode("utf-8")


def call(fn: Callable[..., int], *args: Any) -> int:
    """Call fn(*args, &err); raise the DaemonSetError subclass of the code
    when it returns < 0. Returns the (non-negative) return value."""
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


def take_string(ptr: Optional[int]) -> Optional[str]:
    """Copy a library-allocated C string and release it with ds_free."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.ds_free(ptr)


def take_json(ptr: Optional[int]) -> Any:
    """take_string, then json.loads."""
    text = take_string(ptr)
    return None if text is None else json.loads(text)


# ---- "ns/name" ---------------------------------------------------------------------------------

F = TypeVar("F", bound=Callable[..., Any])


def split_key(key: str) -> Tuple[str, str]:
    """"kube-system/fluentd" -> ("kube-system", "fluentd"); ValueError unless
    both parts are non-empty and there is exactly one slash.

    >>> split_key("kube-system/fluentd-logging")
    ('kube-system', 'fluentd-logging')
    """
    ns, sep, name = key.partition("/")
    if not sep or not ns or not name or "/" in name:
        raise ValueError("expected NAMESPACE/NAME, got %r" % (key,))
    return ns, name


# kubectl's names for the DaemonSet resource, which "ds/NAME" may start with (as dsctl takes them)
_DS_TYPES = ("ds", "daemonset", "daemonsets", "daemonset.apps", "daemonsets.apps")

lib.ds_cluster_daemonset_at.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p),
                                        ctypes.POINTER(ctypes.c_char_p), ctypes.c_void_p]
lib.ds_cluster_daemonset_at.restype = ctypes.c_int


def _namespaces_of(snapshot: Any, name: str) -> List[str]:
    """The namespaces in which the snapshot (a Cluster or its ctypes handle) has a DaemonSet named name."""
    h = getattr(snapshot, "_h", None)
    handle = h() if callable(h) else snapshot
    found: List[str] = []
    ns, nm = ctypes.c_char_p(), ctypes.c_char_p()
    i = 0
    while lib.ds_cluster_daemonset_at(handle, i, ctypes.byref(ns), ctypes.byref(nm), None) == 0:
        if (nm.value or b"").decode("utf-8") == name:
            found.append((ns.value or b"").decode("utf-8"))
        i += 1
    return found


def resolve_name(snapshot: Any, name: str) -> Tuple[str, str]:
    """A DaemonSet named without its namespace, found as dsctl finds it: the
    one namespace of the snapshot that has a DaemonSet of that name.
    NotFound (kubectl's daemonsets.apps "NAME" not found) when none has;
    InvalidArgument naming the namespaces when several have. snapshot is a
    Cluster or a ctypes handle of one."""
    found = _namespaces_of(snapshot, name)
    if len(found) == 1:
        return found[0], name
    if not found:
        raise DaemonSetError(-7, "", 'daemonsets.apps "%s" not found' % name)
    raise DaemonSetError(-2, "", 'daemonset "%s" exists in %d namespaces (%s): name it as "NAMESPACE/NAME"'
                         % (name, len(found), ", ".join(found)))


def namespaced(index: int) -> Callable[[F], F]:
    """Let a function that takes (snapshot, ..., namespace, name, ...) be
    called with one argument in their place, as dsctl takes a DaemonSet:
    "namespace/name" is split in two; "ds/name" (kubectl's daemonset,
    daemonsets.apps, ...) or a bare name, with no name argument after it, is
    looked up in the snapshot (the first argument): the namespace that has
    a DaemonSet of that name (resolve_name). Every later positional argument
    moves one place on. Namespaces cannot contain a slash, so the
    two-argument form is never misread."""
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            if len(args) > index and isinstance(args[index], str):
                key = args[index]
                typed, sep, rest = key.partition("/")
                if sep and typed in _DS_TYPES and rest and "/" not in rest:
                    args = args[:index] + resolve_name(args[0], rest) + args[index + 1:]
                elif "/" in key:
                    args = args[:index] + split_key(key) + args[index + 1:]
                elif key and "name" not in kwargs and hasattr(args[0], "_h"):
                    after = args[index + 1] if len(args) > index + 1 else None
                    if after is None:  # (snapshot, "name"): no name argument
                        args = args[:index] + resolve_name(args[0], key) + args[index + 2:]
                    elif not (isinstance(after, str) and key in _namespaces_of(args[0], after)) \
                            and _namespaces_of(args[0], key):
                        # (snapshot, "name", node, ...): not a namespace and a name, but a name the snapshot has
                        args = args[:index] + resolve_name(args[0], key) + args[index + 1:]
            return fn(*args, **kwargs)
        return inner  # type: ignore[return-value]
    return wrap


def required(value: Any, what: str) -> Any:
    """value, or TypeError when it is None (a parameter that is optional only
    so that the "namespace/name" form type-checks)."""
    if value is None:
        raise TypeError("missing argument: %s" % what)
    return value


# ---- declaring C functions ------------------------------------------------------------------------
# declare(name, *kinds, out=...) binds ds_<name> from a short signature. Argument kinds:
#   TEXT     a document: passed as (const char *text, size_t size) from str, bytes, dict or list
#   CSTR     a NUL-terminated string (names, selectors, quantities); None passes NULL
#   INT      an int argument (C int); INT64 a 64-bit one; UINT an unsigned flags word
#   OPTIONS  a const ds_options * from None, an Options or a dict (see core.Options)
#   OBJECT   a const ds_object * from an objects.Object (None passes NULL)
# Results (the outputs come after the arguments and before the ds_error, as the ABI orders them):
#   out=JSON the char **json_out, returned parsed; out=BOOL an int *out, returned as bool;
#   out=INT an int *out; out=None nothing but the return code.

TEXT, CSTR, INT, INT64, UINT, OPTIONS, OBJECT = "text", "cstr", "int", "int64", "uint", "options", "object"
JSON, BOOL = "json", "bool"

_CTYPES: Dict[str, List[Any]] = {CSTR: [ctypes.c_char_p], INT: [ctypes.c_int], INT64: [ctypes.c_int64], UINT: [ctypes.c_uint],
           TEXT: [ctypes.c_char_p, ctypes.c_size_t], OPTIONS: [ctypes.c_void_p], OBJECT: [ctypes.c_void_p]}
_OUT_CTYPES: Dict[Optional[str], List[Any]] = {JSON: [ctypes.POINTER(ctypes.c_void_p)], BOOL: [ctypes.POINTER(ctypes.c_int)],
               INT: [ctypes.POINTER(ctypes.c_int)], None: []}


def _missing(name: str) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        from .core import version  # late: core imports this module
        raise Unsupported(-9, "", "%s is not in the loaded libdaemonset %s (%s); it needs a newer library"
                          % (name, version(), _lib_path))
    fail.__name__ = name
    return fail


def declare(name: str, *kinds: str, out: Optional[str] = JSON) -> Callable[..., Any]:
    """A Python callable for the C function `name` taking arguments of the
    given kinds, then the output `out`, then a ds_error. Its Python
    arguments are one per kind (TEXT takes one document, not two); it raises
    the DaemonSetError subclass of a failure and returns the output. A
    function the loaded library does not export (an older library) becomes
    one that raises Unsupported when called, so importing never fails."""
    try:
        fn = getattr(lib, name)
    except AttributeError:
        return _missing(name)
    argtypes: List[Any] = []
    for k in kinds:
        argtypes += _CTYPES[k]
    fn.argtypes = argtypes + _OUT_CTYPES[out] + [ctypes.c_void_p]
    fn.restype = ctypes.c_int

    def invoke(*args: Any) -> Any:
        if len(args) != len(kinds):
            raise TypeError("%s takes %d arguments, got %d" % (name, len(kinds), len(args)))
        from .core import options_arg  # late: core imports this module
        cargs: List[Any] = []
        keep: List[Any] = []  # objects that must outlive the call (converted options)
        for k, a in zip(kinds, args):
            if k == TEXT:
                data = document(a)
                cargs += [data, 0 if data is None else len(data)]
            elif k == CSTR:
                cargs.append(encode(a))
            elif k == OPTIONS:
                o = options_arg(a)
                keep.append(o)
                cargs.append(o)
            else:
                cargs.append(a)
        if out == JSON:
            ptr = ctypes.c_void_p()
            call(fn, *cargs, ctypes.byref(ptr))
            return take_json(ptr.value)
        if out in (BOOL, INT):
            value = ctypes.c_int()
            call(fn, *cargs, ctypes.byref(value))
            return bool(value.value) if out == BOOL else value.value
        return call(fn, *cargs)

    invoke.__name__ = name
    return invoke
