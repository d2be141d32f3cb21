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

from .errors import *  # noqa: F401,F403
from .errors import DaemonSetError  # noqa: F401
from .core import *  # noqa: F401,F403
from ._native import library_path, Document  # noqa: F401
from . import core, errors, values  # noqa: F401
from . import audit  # noqa: F401
from . import cluster, placement, plan  # noqa: F401
from . import controller  # noqa: F401
from . import watchloop  # noqa: F401
from . import daemon, scenario  # noqa: F401
from . import ops  # noqa: F401
from . import validate  # noqa: F401
from . import pure  # noqa: F401
from .cluster import Cluster  # noqa: F401
from .values import *  # noqa: F401,F403

__all__ = ["__version__", "Cluster", "Document", "library_path"] + errors.__all__ + core.__all__ + values.__all__
