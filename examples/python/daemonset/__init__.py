"""libdaemonset for Python: Kubernetes DaemonSet semantics, through ctypes.

Standard library only. The shared library is found through DAEMONSET_LIB,
the build tree, or the system (see _native.py).
"""

from ._native import DaemonSetError
from .core import *  # noqa: F401,F403
from . import audit  # noqa: F401
from .values import *  # noqa: F401,F403

__all__ = ["DaemonSetError"] + core.__all__ + values.__all__  # noqa: F405
