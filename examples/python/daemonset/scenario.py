"""Offline scenario tests of DaemonSet decisions (ds_scenario_run(3),
daemonset-scenario(5)): YAML or JSON documents, each a cluster, a time and
checks of what the library decides for it.

    >>> from daemonset import scenario
    >>> r = scenario.run_file("examples/scenarios")
    >>> r["failed"], r["passed"] > 0
    (0, True)
    >>> for s in r["scenarios"]:
    ...     for check in s["checks"]:
    ...         for failure in check["failures"]:
    ...             print(s["name"], check["check"], failure)

A scenario that fails, or cannot run, is part of the result; DaemonSetError
is raised only for bad arguments, an unreadable path, text that is neither
JSON nor YAML (run(): DS_ESYNTAX with .line and .column) or beyond the
loading limits (run(): DS_ELIMIT).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, Optional, Union, cast

from ._native import lib, call, take_json, encode, document, Document
from .core import OptionsArg, options_arg as _opts

PathLike = Union[str, bytes, "os.PathLike[str]"]

__all__ = ["run", "run_file"]

_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p
_P = ctypes.c_char_p

lib.ds_scenario_run.argtypes = [_P, ctypes.c_size_t, _P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_scenario_run.restype = ctypes.c_int
lib.ds_scenario_run_file.argtypes = [_P, ctypes.c_void_p, _OUT, _ERR]
lib.ds_scenario_run_file.restype = ctypes.c_int


def _path(path: Optional[PathLike]) -> Optional[bytes]:
    return None if path is None else encode(os.fsdecode(path))


def run(text: Document, base_dir: Optional[PathLike] = None, options: OptionsArg = None) -> Dict[str, Any]:
    """Run the scenarios in text (YAML or JSON: str, bytes, or a dict or list
    serialised as JSON). Relative load paths are read relative to base_dir,
    or to the working directory when it is None. options: a dict or daemonset.Options
    applied under every scenario's own options (and the loading limits for
    text). Returns {"passed": N, "failed": N, "scenarios": [{"name", "file",
    "passed", "error"?, "checks": [{"check", "name"?, "passed",
    "failures"}]}]}."""
    data = document(text)
    out = ctypes.c_void_p()
    call(lib.ds_scenario_run, data, 0 if data is None else len(data), _path(base_dir), _opts(options),
         ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))


def run_file(path: PathLike, options: OptionsArg = None) -> Dict[str, Any]:
    """The same for a file, or for every *.yaml, *.yml and *.json file of a
    directory (by name, not recursively); relative load paths are read
    relative to each file's directory. A file that is not JSON or YAML is one
    failed scenario named after it. Raises daemonset.ReadError (DS_EIO) when
    path cannot be read."""
    out = ctypes.c_void_p()
    call(lib.ds_scenario_run_file, _path(path), _opts(options), ctypes.byref(out))
    return cast("Dict[str, Any]", take_json(out.value))
