"""libdaemonset for Python: Kubernetes DaemonSet semantics, through ctypes.

Standard library only. `pip install ./examples/python` (or `make install`)
installs it; the shared library is then found without any environment
variable (the loader path, pkg-config, the Python prefix, the path recorded
by make install; DAEMONSET_LIB overrides them: see daemonset._native).

    >>> import daemonset
    >>> daemonset.__version__
    '1.2.0'
    >>> with daemonset.Cluster.from_file("examples/cluster") as c:
    ...     daemonset.placement.should_run(c, "kube-system/fluentd-logging", "cp-1")
    (False, True)

Modules: core (options, times), errors (one exception per error code),
values (quantities, selectors), cluster (snapshots), placement, daemon (the
pod for a node, template hash, history, rollback), plan (one sync, status,
rollout simulation), validate, ops (cordon, drain, upgrade), audit,
scenario (offline scenario tests), controller (the driver, leases), watchloop
(a host of the library's list-watch loop over HTTP) and pure
(every function that needs no snapshot). Functions that share a module's
name are reached through the module (daemonset.plan.plan), so the module
stays importable.

Conventions: documents are JSON or YAML text or dicts; options are a dict
({"burstReplicas": 50}) or an Options; a DaemonSet is named by namespace and
name or by one "namespace/name"; times are RFC 3339 text or milliseconds;
errors raise a subclass of DaemonSetError (NotFound, InvalidValue, ...).
"""

from __future__ import annotations

__version__ = "1.2.0"

# Every name is re-exported explicitly ("X as X", or a module's __all__ through *), as mypy --strict
# and other type checkers require of a typed package (no implicit re-export).
from .errors import *  # noqa: F401,F403
from .errors import DaemonSetError as DaemonSetError
from .core import *  # noqa: F401,F403
from ._native import library_path as library_path, Document as Document
from . import core as core, errors as errors, values as values
from . import audit as audit
from . import cluster as cluster, placement as placement, plan as plan
from . import controller as controller
from . import watchloop as watchloop
from . import daemon as daemon, scenario as scenario
from . import ops as ops
from . import validate as validate
from . import pure as pure
from .cluster import Cluster as Cluster
from .values import *  # noqa: F401,F403

__all__ = ["__version__", "Cluster", "Document", "library_path"] + errors.__all__ + core.__all__ + values.__all__
