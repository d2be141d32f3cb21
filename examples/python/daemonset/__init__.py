"""libdaemonset for Python: Kubernetes DaemonSet semantics, through ctypes.

Standard library only. The shared library is found through DAEMONSET_LIB,
the build tree, or the system (see _native.py).

Modules: core (options, times, errors), values (quantities, selectors),
cluster (snapshots), placement, daemon (the pod for a node, template hash,
history, rollback), plan (one sync, status, rollout simulation), validate,
ops (cordon, drain, upgrade), audit, scenario (offline scenario tests) and
controller (the driver, leases). Functions that share a module's name are
reached through the module (daemonset.plan.plan), so the module stays
importable.
"""

from ._native import DaemonSetError
from .core import *  # noqa: F401,F403
from . import audit  # noqa: F401
from . import cluster, placement, plan  # noqa: F401
from . import controller  # noqa: F401
from . import daemon, scenario  # noqa: F401
from . import ops  # noqa: F401
from . import validate  # noqa: F401
from .cluster import Cluster  # noqa: F401
from .values import *  # noqa: F401,F403

__all__ = ["DaemonSetError", "Cluster"] + core.__all__ + values.__all__  # noqa: F405
