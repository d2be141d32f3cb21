"""The Python package's conventions: an exception class per error code,
options as dicts, "namespace/name", documents as dicts, type hints on every
public function, the docstrings' examples, declare() for new ABI functions,
and how the shared library is found."""

import ctypes
import doctest
import importlib
import inspect
import json
import os
import pickle
import pkgutil
import subprocess
import sys
import tempfile
import typing
import unittest

import daemonset
from daemonset import _native, audit, cluster, controller, daemon, errors, ops, placement, plan, pure
from daemonset import validate, values

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SAMPLE = os.path.join(ROOT, "examples", "cluster")
NOW = "2026-12-02T15:00:00Z"
FLUENTD = ("kube-system", "fluentd-logging")
KEY = "kube-system/fluentd-logging"
LIB = _native.library_path()[0]


def daemonset_doc(name="web", labels=None):
    labels = labels or {"app": name}
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": name, "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": labels},
                                  "spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}


class ErrorClassTest(unittest.TestCase):
    EXPECTED = {
        -1: ("OutOfMemory", MemoryError), -2: ("InvalidArgument", ValueError), -3: ("ParseError", ValueError),
        -4: ("TypeMismatch", ValueError), -5: ("InvalidValue", ValueError), -6: ("MissingField", ValueError),
        -7: ("NotFound", LookupError), -8: ("LimitExceeded", None), -9: ("Unsupported", None),
        -10: ("InvalidObject", ValueError), -11: ("ReadError", OSError), -12: ("Conflict", None),
        -13: ("TransportError", None), -14: ("StateError", None),
    }

    def test_one_class_per_code(self):
        self.assertEqual(sorted(self.EXPECTED), sorted(c for c in errors.ERROR_CODES if c < 0))
        seen = set()
        for code, (name, builtin) in self.EXPECTED.items():
            cls = errors.error_class(code)
            self.assertEqual(cls.__name__, name)
            self.assertIs(getattr(daemonset, name), cls)
            self.assertTrue(issubclass(cls, daemonset.DaemonSetError))
            self.assertEqual(cls.CODE, code)
            if builtin is not None:
                self.assertTrue(issubclass(cls, builtin), name)
            e = daemonset.DaemonSetError(code, "spec.x", "what was wrong")  # the base builds the subclass
            self.assertIs(type(e), cls)
            self.assertEqual((e.code, e.name, e.path, e.message), (code, errors.ERROR_CODES[code], "spec.x",
                                                                   "what was wrong"))
            self.assertEqual(str(e), "spec.x: what was wrong (%s)" % errors.ERROR_CODES[code])
            back = pickle.loads(pickle.dumps(e))
            self.assertIs(type(back), cls)
            self.assertEqual((back.code, back.path, back.message), (code, "spec.x", "what was wrong"))
            seen.add(cls)
        self.assertEqual(len(seen), 14)
        self.assertIs(errors.error_class(-99), daemonset.DaemonSetError)
        self.assertIs(type(daemonset.DaemonSetError(-99)), daemonset.DaemonSetError)

    def test_no_builtin_shadowed(self):
        import builtins
        for name in errors.__all__:
            self.assertFalse(hasattr(builtins, name), name)

    def test_read_error_is_an_oserror_with_the_library_text(self):
        with self.assertRaises(OSError) as cm:
            cluster.Cluster.from_file(os.path.join(ROOT, "no-such-dir"))
        e = cm.exception
        self.assertIsInstance(e, daemonset.ReadError)
        self.assertEqual(e.name, "DS_EIO")
        self.assertIn("no-such-dir", str(e))
        self.assertIsNone(e.errno)

    def test_raised_by_code(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            with self.assertRaises(daemonset.NotFound) as cm:
                c.get("DaemonSet", "kube-system/nope")
            self.assertEqual(cm.exception.message, "DaemonSet nope not found")
            with self.assertRaises(LookupError):
                placement.explain(c, "kube-system/nope")
            with self.assertRaises(daemonset.StateError):
                daemon.rollback(c, "monitoring/node-exporter")
            with self.assertRaises(daemonset.ParseError) as cm:
                c.load("{")
            self.assertEqual((cm.exception.line, cm.exception.column), (1, 1))
            with self.assertRaises(daemonset.TypeMismatch) as cm:
                c.load({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"x": 1}}})
            self.assertEqual(cm.exception.path, "metadata.labels.x")
            with self.assertRaises(daemonset.MissingField):
                c.load({"items": [{"apiVersion": "v1"}], "kind": "List", "apiVersion": "v1"})
            with self.assertRaises(daemonset.Unsupported) as cm:
                c.load({"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "x"}})
            self.assertEqual(cm.exception.path, "apiVersion")
            with self.assertRaises(daemonset.TransportError):
                c.apply_events({"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1", "code": 410}})
        with self.assertRaises(daemonset.InvalidValue):
            daemonset.parse_quantity("12 apples")
        with self.assertRaises(daemonset.InvalidArgument) as cm:
            daemonset.Options({"noSuchOption": 1})
        self.assertEqual(cm.exception.path, "noSuchOption")
        with cluster.Cluster({"maxObjects": 1}) as c:
            with self.assertRaises(daemonset.LimitExceeded):
                c.load([{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n%d" % i}} for i in range(2)])
        with cluster.Cluster() as c:
            c.load(daemonset_doc(labels={"other": "x"}))
            c.load({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}})
            with self.assertRaises(daemonset.InvalidObject) as cm:
                plan.simulate(c, "default/web", NOW)
            self.assertEqual(cm.exception.path, "spec.template.metadata.labels")

    def test_transport_error_of_a_python_transport(self):
        e = controller.TransportError(controller.CONFLICT, "the object has been modified")
        self.assertIsInstance(e, daemonset.TransportError)
        self.assertIsInstance(e, daemonset.DaemonSetError)
        self.assertEqual((e.result, e.message, str(e), e.name), (controller.CONFLICT, "the object has been modified",
                                                                "the object has been modified", "DS_ETRANSPORT"))
        back = pickle.loads(pickle.dumps(e))
        self.assertEqual((type(back), back.result, back.message), (controller.TransportError, controller.CONFLICT,
                                                                   "the object has been modified"))


class NamespacedNameTest(unittest.TestCase):
    def setUp(self):
        self.c = cluster.Cluster.from_file(SAMPLE)

    def tearDown(self):
        self.c.close()

    def test_both_forms_agree(self):
        c = self.c
        pairs = [
            (lambda: placement.should_run(c, *FLUENTD, "cp-1"), lambda: placement.should_run(c, KEY, "cp-1")),
            (lambda: placement.should_run_json(c, *FLUENTD, "gpu-1"),
             lambda: placement.should_run_json(c, KEY, "gpu-1")),
            (lambda: placement.explain(c, *FLUENTD), lambda: placement.explain(c, KEY)),
            (lambda: daemon.pod(c, *FLUENTD, "worker-4"), lambda: daemon.pod(c, KEY, "worker-4")),
            (lambda: daemon.history(c, *FLUENTD), lambda: daemon.history(c, KEY)),
            (lambda: daemon.rollback(c, *FLUENTD, 2), lambda: daemon.rollback(c, KEY, 2)),
            (lambda: daemon.pod_updated(c, *FLUENTD, "fluentd-logging-x7k2p"),
             lambda: daemon.pod_updated(c, KEY, "fluentd-logging-x7k2p")),
            (lambda: plan.plan(c, *FLUENTD, NOW).to_dict(), lambda: plan.plan(c, KEY, NOW).to_dict()),
            (lambda: plan.status(c, *FLUENTD, NOW), lambda: plan.status(c, KEY, NOW)),
            (lambda: plan.simulate(c, *FLUENTD, NOW), lambda: plan.simulate(c, KEY, NOW)),
            (lambda: c.get("DaemonSet", *FLUENTD), lambda: c.get("DaemonSet", KEY)),
            (lambda: c.get("Node", None, "worker-1"), lambda: c.get("Node", "worker-1")),
        ]
        for old, new in pairs:
            self.assertEqual(old(), new())
        self.assertEqual(placement.should_run(c, KEY, "cp-1"), (False, True))
        self.assertEqual(placement.should_run(c, KEY, node="worker-1"), (True, True))

    def test_later_arguments_keep_their_order(self):
        c = self.c
        # options given positionally after "ns/name" (one place earlier than in the old form)
        one = plan.simulate(c, KEY, NOW, {"simReadyAfter": "60s"})
        self.assertEqual(one, plan.simulate(c, *FLUENTD, NOW, {"simReadyAfter": "60s"}))
        self.assertNotEqual(one["durationSeconds"], plan.simulate(c, KEY, NOW)["durationSeconds"])
        self.assertEqual(plan.simulate(c, KEY, NOW, options={"simReadyAfter": "60s"}), one)
        # a keyword later argument with a positional one before it
        first = plan.plan(c, KEY, NOW)
        p = plan.plan(c, KEY, "2026-12-02T15:00:30Z", backoff=first.backoff)
        self.assertEqual(p.to_dict(), plan.plan(c, *FLUENTD, "2026-12-02T15:00:30Z", None, first.backoff).to_dict())
        self.assertEqual(daemon.rollback(c, KEY, to_revision=1), daemon.rollback(c, *FLUENTD, 1))

    def test_remove(self):
        c = self.c.copy()
        try:
            c.remove("DaemonSet", KEY)
            c.remove("Node", "worker-1")
            with self.assertRaises(daemonset.NotFound):
                c.get("DaemonSet", *FLUENTD)
            with self.assertRaises(daemonset.NotFound):
                c.get("Node", None, "worker-1")
            self.assertEqual(self.c.get("Node", "worker-1")["name"], "worker-1")  # the original is untouched
        finally:
            c.close()

    def test_bad_keys(self):
        for bad in ("kube-system/", "/fluentd-logging", "a/b/c"):
            with self.assertRaises(ValueError):
                placement.explain(self.c, bad)
        with self.assertRaises(TypeError):
            placement.should_run(self.c, KEY)  # no node
        with self.assertRaises(TypeError):
            plan.plan(self.c, KEY)  # no time
        with self.assertRaises(TypeError):
            placement.should_run(self.c, "kube-system", "fluentd-logging")  # old form, no node

    def test_split_key(self):
        self.assertEqual(_native.split_key("a/b"), ("a", "b"))

    def test_controller(self):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import apiserver
        from test_controller import StoreTransport, sample_objects, T0
        store = apiserver.Store(ready_after=0)
        store.load(sample_objects())
        with controller.Controller(StoreTransport(store), options={"burstReplicas": 1}) as ctrl:
            ctrl.resync(T0)
            created = ctrl.sync(KEY, T0)["created"]
            self.assertEqual(len(created), 1)
            self.assertEqual(ctrl.expectations(KEY, T0 + 1), ctrl.expectations(*FLUENTD, T0 + 1))
            ctrl.enqueue(KEY, T0, 5000)
            due = []
            while True:
                key, _ = ctrl.next(T0 + 6000)
                if key is None:
                    break
                due.append(key)
            self.assertIn(KEY, due)
            self.assertEqual(ctrl.get("DaemonSet", KEY)["metadata"]["name"], "fluentd-logging")
            self.assertEqual(ctrl.get("Node", "worker-1")["name"], "worker-1")
            self.assertIsNone(ctrl.get("DaemonSet", "kube-system/nope"))


class OptionsDictTest(unittest.TestCase):
    def test_dict_and_object_agree(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            settings = {"simReadyAfter": "45s", "burstReplicas": 2}
            with daemonset.Options(settings) as o:
                self.assertEqual(plan.simulate(c, KEY, NOW, o), plan.simulate(c, KEY, NOW, settings))
            self.assertEqual(daemonset.Options(simReadyAfter="45s", burstReplicas=2).get("burstReplicas"), "2")
            self.assertEqual(ops.drain(c, "worker-1", NOW, {"ignoreDaemonSets": True})["verdict"], "blocked")
            self.assertEqual(ops.drain(c, "worker-1", NOW)["verdict"], "failed")
            self.assertEqual(ops.cordon(c, "worker-1", True, {"force": True}),
                             ops.cordon(c, "worker-1", True, daemonset.Options(force=True)))
            explained = placement.explain(c, KEY, {"featureGates": {"TaintTolerationComparisonOperators": True}})
            self.assertEqual(explained["daemonSet"]["name"], "fluentd-logging")
        ds = json.dumps(daemonset_doc())
        self.assertEqual(audit.audit(ds, {"podSecurityLevel": "baseline"})["requested"]["level"], "baseline")
        self.assertEqual(audit.audit(ds, {"podSecurityLevel": "restricted"})["requested"]["level"], "restricted")
        self.assertEqual(validate.validate(ds, options={"kubernetesVersion": "1.30"}), validate.validate(ds))

    def test_feature_gates_and_values(self):
        o = daemonset.Options({"featureGates": {"SidecarContainers": False, "PodLevelResources": True},
                               "force": True, "gracePeriodSeconds": 30})
        gates = o.get("featureGates").split(",")
        self.assertIn("SidecarContainers=false", gates)
        self.assertIn("PodLevelResources=true", gates)
        self.assertEqual((o.get("force"), o.get("gracePeriodSeconds")), ("true", "30"))
        o.set("featureGates", {"SidecarContainers": True})
        self.assertIn("SidecarContainers=true", o.get("featureGates").split(","))
        with self.assertRaises(TypeError):
            daemonset.Options({"featureGates": {"SidecarContainers": "yes"}})

    def test_all_or_nothing(self):
        o = daemonset.Options({"burstReplicas": 7})
        with self.assertRaises(daemonset.InvalidArgument):
            o.update({"burstReplicas": 9, "bogus": 1})
        self.assertEqual(o.get("burstReplicas"), "7")
        with self.assertRaises(daemonset.InvalidValue):
            o.update({"burstReplicas": 0})
        self.assertEqual(o.get("burstReplicas"), "7")

    def test_wrong_types(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            with self.assertRaises(TypeError):
                placement.explain(c, KEY, ["burstReplicas"])
            with self.assertRaises(TypeError):
                placement.explain(c, KEY, "burstReplicas=1")

    def test_closed_options(self):
        with daemonset.Options() as o:
            pass
        o.close()
        with self.assertRaises(ValueError):
            o.get("force")
        with cluster.Cluster.from_file(SAMPLE) as c:
            with self.assertRaises(ValueError):
                placement.explain(c, KEY, o)


class DocumentTest(unittest.TestCase):
    def test_dicts_and_text_agree(self):
        doc = daemonset_doc()
        text = json.dumps(doc)
        yaml = ("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: web, namespace: default}\n"
                "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
                "    spec: {containers: [{name: c, image: busybox}]}\n")
        self.assertEqual(validate.validate(doc), validate.validate(text))
        self.assertEqual(validate.validate(doc), validate.validate(yaml))
        self.assertTrue(validate.validate(doc)["valid"])
        self.assertEqual(validate.defaults(doc), validate.defaults(yaml.encode()))
        self.assertEqual(validate.validate_update(doc, text), validate.validate_update(yaml, doc))
        self.assertEqual(audit.audit(doc), audit.audit(text))
        self.assertEqual(audit.pod_security_evaluate(doc, "baseline"), audit.pod_security_evaluate(text, "baseline"))
        template = doc["spec"]["template"]
        self.assertEqual(daemon.template_hash(template), daemon.template_hash(json.dumps(template)))
        as_list = {"apiVersion": "v1", "kind": "List", "items": [doc]}
        self.assertEqual(controller.parse_objects([doc]), controller.parse_objects(json.dumps(as_list)))
        self.assertEqual(controller.parse_objects(doc)[0]["metadata"]["name"], "web")
        with self.assertRaises(TypeError):
            validate.validate(42)

    def test_cluster_load_and_events(self):
        with cluster.Cluster() as c:
            self.assertEqual(c.load([doc for doc in [daemonset_doc("a"), daemonset_doc("b")]]), 2)
            self.assertEqual(c.count("DaemonSet"), 2)
            n = c.apply_events([{"type": "DELETED", "object": daemonset_doc("a")},
                                json.dumps({"type": "ADDED", "object": daemonset_doc("c")})])
            self.assertEqual(n, 2)
            self.assertEqual(sorted(d["name"] for d in c.summary()["daemonSets"]), ["b", "c"])


def public_callables():
    """(qualified name, function) of every public function and method of the package."""
    seen = []
    for info in pkgutil.iter_modules(daemonset.__path__):
        mod = importlib.import_module("daemonset." + info.name)
        for name, obj in vars(mod).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            if inspect.isfunction(obj):
                seen.append(("%s.%s" % (mod.__name__, name), obj))
            elif inspect.isclass(obj) and not issubclass(obj, ctypes.Structure):
                for mname, meth in vars(obj).items():
                    if inspect.isfunction(meth) and (not mname.startswith("_") or mname == "__init__"):
                        seen.append(("%s.%s.%s" % (mod.__name__, name, mname), meth))
    return seen


class TypeHintTest(unittest.TestCase):
    def test_every_public_function_is_annotated(self):
        found = public_callables()
        self.assertGreater(len(found), 80)
        for qual, fn in found:
            hints = typing.get_type_hints(fn)  # every annotation resolves
            params = [p for p in inspect.signature(fn).parameters.values()
                      if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            for p in params:
                self.assertIn(p.name, hints, "%s: parameter %s has no annotation" % (qual, p.name))
            self.assertIn("return", hints, "%s has no return annotation" % qual)

    def test_py_typed_is_shipped(self):
        self.assertTrue(os.path.isfile(os.path.join(os.path.dirname(daemonset.__file__), "py.typed")))

    def test_overloads_document_both_forms(self):
        sig = inspect.signature(placement.should_run)
        self.assertEqual(list(sig.parameters), ["cluster", "namespace", "name", "node", "options"])


class MypyTest(unittest.TestCase):
    """The annotations hold together, and both naming forms type-check (when mypy is installed: Debian's mypy)."""

    def test_mypy(self):
        probe = subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True, text=True)
        mypy = [sys.executable, "-m", "mypy"]
        if probe.returncode != 0:
            if not os.path.exists("/usr/bin/mypy"):
                self.skipTest("mypy is not installed")
            mypy = ["/usr/bin/mypy"]
        flags = ["--python-version", "3.8", "--no-incremental", "--cache-dir", os.devnull]
        pkg = os.path.join(ROOT, "examples", "python")
        r = subprocess.run(mypy + flags + ["--disallow-untyped-defs", "--disallow-incomplete-defs",
                                           "--check-untyped-defs", "--warn-unused-ignores", "daemonset"],
                           cwd=pkg, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with tempfile.TemporaryDirectory() as d:
            user = os.path.join(d, "user.py")
            with open(user, "w") as f:
                f.write("from daemonset import Cluster, placement, plan\n"
                        "c = Cluster()\n"
                        "a = placement.should_run(c, 'kube-system/fluentd-logging', 'cp-1')\n"
                        "b = placement.should_run(c, 'kube-system', 'fluentd-logging', 'cp-1', {'force': True})\n"
                        "p = plan.plan(c, 'kube-system/fluentd-logging', 1796223600000, {'burstReplicas': 5})\n"
                        "ok: bool = a[0] and b[1]\n"
                        "bad = placement.should_run(c, 'kube-system/fluentd-logging', 5)\n")
            r = subprocess.run(mypy + flags + [user], cwd=d, capture_output=True, text=True,
                               env=dict(os.environ, MYPYPATH=pkg))
            self.assertEqual([line.split(":")[1] for line in r.stdout.splitlines() if ": error:" in line], ["7"],
                             r.stdout)


class DocstringTest(unittest.TestCase):
    def test_examples_run(self):
        """Every docstring example, from the repository root (they name examples/cluster)."""
        old = os.getcwd()
        os.chdir(ROOT)
        try:
            attempted = 0
            for info in [None] + list(pkgutil.iter_modules(daemonset.__path__)):
                mod = daemonset if info is None else importlib.import_module("daemonset." + info.name)
                result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS, report=True)
                self.assertEqual(result.failed, 0, mod.__name__)
                attempted += result.attempted
            self.assertGreater(attempted, 40)
        finally:
            os.chdir(old)

    def test_every_public_function_has_a_docstring(self):
        for qual, fn in public_callables():
            if fn.__name__ == "__init__":
                continue
            self.assertTrue(inspect.getdoc(fn), qual)


class DeclareTest(unittest.TestCase):
    def test_a_missing_symbol_fails_when_called_not_when_imported(self):
        fn = _native.declare("ds_no_such_function_in_any_version", _native.TEXT, _native.OPTIONS, out=_native.BOOL)
        with self.assertRaises(daemonset.Unsupported) as cm:
            fn({}, None)
        self.assertIn("ds_no_such_function_in_any_version is not in the loaded libdaemonset", str(cm.exception))

    def test_kinds(self):
        selector_matches = _native.declare("ds_selector_matches", _native.CSTR, _native.CSTR, out=_native.BOOL)
        self.assertTrue(selector_matches("app=web", '{"app": "web"}'))
        self.assertFalse(selector_matches("app=web", '{"app": "db"}'))
        with self.assertRaises(TypeError):
            selector_matches("app=web")
        with self.assertRaises(daemonset.InvalidValue):
            selector_matches("app in (", "{}")
        defaults = _native.declare("ds_daemonset_defaults", _native.TEXT, _native.OPTIONS)
        self.assertEqual(defaults(daemonset_doc(), {"kubernetesVersion": "1.30"})["spec"]["revisionHistoryLimit"], 10)

    def test_pure_gathers_the_snapshot_free_functions(self):
        for name in pure.__all__:
            fn = getattr(pure, name)
            if isinstance(fn, int):  # the taint-effect flags of find_untolerated_taint
                continue
            self.assertTrue(callable(fn), name)
            self.assertNotIn("cluster", inspect.signature(fn).parameters, name)
        self.assertIs(pure.node_selector_matches, values.node_selector_matches)


def run_python(code, env, cwd=None):
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd or tempfile.gettempdir(),
                          capture_output=True, text=True, timeout=60)


def bare_env(**extra):
    """The environment without anything that points at the library."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DAEMONSET_LIB", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "PKG_CONFIG", "PYTHONPATH")}
    env.update(extra)
    return env


def system_has_library():
    out = run_python("import ctypes; ctypes.CDLL('libdaemonset.so.1')", bare_env())
    return out.returncode == 0


class DiscoveryTest(unittest.TestCase):
    def candidates(self, **kw):
        return list(_native.library_candidates(**kw))

    def test_order(self):
        env = {"DAEMONSET_LIB": "/x/libdaemonset.so.1", "PATH": os.environ.get("PATH", ""),
               "PKG_CONFIG": "no-such-pkg-config"}
        got = self.candidates(environ=env, recorded="/opt/ds/lib", prefix="/venv", here=os.path.dirname(_native.__file__))
        hows = [h for h, _ in got]
        self.assertEqual(got[0], ("DAEMONSET_LIB", "/x/libdaemonset.so.1"))
        # a checkout's package carries no copy (a wheel does: daemonset/_lib, second)
        self.assertEqual(got[1], ("bundled in the package (none: not installed from a wheel that carries it)", ""))
        self.assertEqual(got[2], ("recorded at install", "/opt/ds/lib/libdaemonset.so.1"))
        self.assertEqual(got[3], ("loader path", "libdaemonset.so.1"))
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "_lib"))
            open(os.path.join(d, "_lib", "libdaemonset.so.1"), "w").close()
            carried = self.candidates(environ={}, recorded="/opt/ds/lib", prefix="/venv", here=d)
            self.assertEqual(carried[1], ("bundled in the package", os.path.join(d, "_lib", "libdaemonset.so.1")))
            self.assertEqual(carried[2][0], "recorded at install")
        self.assertIn(("pkg-config (no-such-pkg-config not found)", ""), got)
        self.assertLess(hows.index("pkg-config (no-such-pkg-config not found)"), hows.index("sys.prefix"))
        self.assertIn(("sys.prefix", "/venv/lib/libdaemonset.so.1"), got)
        self.assertEqual(got[-1], ("source checkout", os.path.join(ROOT, "build", "lib", "libdaemonset.so.1")))

    def test_outside_a_checkout(self):
        got = self.candidates(environ={}, recorded=None, prefix="/venv", here="/usr/lib/python3/dist-packages/daemonset")
        self.assertEqual(got[0], ("DAEMONSET_LIB (not set)", ""))
        self.assertEqual(got[1][1], "")
        self.assertEqual(got[2][1], "")
        self.assertNotIn("source checkout", [h for h, _ in got])

    def test_pkg_config(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "daemonset.pc"), "w") as f:
                f.write("prefix=/opt/ds\nlibdir=${prefix}/lib64\n\nName: daemonset\nDescription: x\nVersion: 1.0.0\n"
                        "Libs: -L${libdir} -ldaemonset\n")
            env = {"PATH": os.environ.get("PATH", ""), "PKG_CONFIG_PATH": d}
            if not any(h == "pkg-config" for h, _ in self.candidates(environ=env, recorded=None)):
                self.skipTest("pkg-config is not installed")
            self.assertIn(("pkg-config", "/opt/ds/lib64/libdaemonset.so.1"),
                          self.candidates(environ=env, recorded=None))

    def test_nothing_found(self):
        with self.assertRaises(OSError) as cm:
            _native._load(iter([("DAEMONSET_LIB (not set)", ""), ("loader path", "/nonexistent/libdaemonset.so.1")]))
        text = str(cm.exception)
        self.assertIn("libdaemonset (libdaemonset.so.1) not found; tried, in order:", text)
        self.assertIn("DAEMONSET_LIB (not set)", text)
        self.assertIn("loader path: /nonexistent/libdaemonset.so.1", text)
        self.assertIn("set DAEMONSET_LIB", text)

    def test_without_environment_from_the_checkout(self):
        if system_has_library():
            self.skipTest("a libdaemonset.so.1 is on the loader path: it would be found first")
        env = bare_env(PYTHONPATH=os.path.join(ROOT, "examples", "python"), PKG_CONFIG="no-such-pkg-config")
        out = run_python("import daemonset; print(daemonset.library_path()[1])", env)
        self.assertEqual((out.returncode, out.stdout.strip()), (0, "source checkout"), out.stderr)

    def test_pkg_config_without_other_variables(self):
        if system_has_library():
            self.skipTest("a libdaemonset.so.1 is on the loader path: it would be found first")
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "daemonset.pc"), "w") as f:
                f.write("libdir=%s\n\nName: daemonset\nDescription: x\nVersion: 1.0.0\nLibs: -ldaemonset\n"
                        % os.path.dirname(LIB))
            env = bare_env(PYTHONPATH=os.path.join(ROOT, "examples", "python"), PKG_CONFIG_PATH=d)
            out = run_python("import daemonset; print(daemonset.library_path()[1])", env)
            if "pkg-config (" in out.stderr:
                self.skipTest("pkg-config is not installed")
            self.assertEqual((out.returncode, out.stdout.strip()), (0, "pkg-config"), out.stderr)

    def test_explicit_override_wins(self):
        env = bare_env(PYTHONPATH=os.path.join(ROOT, "examples", "python"), DAEMONSET_LIB=LIB)
        out = run_python("import daemonset; print(daemonset.library_path())", env)
        self.assertEqual(out.stdout.strip(), repr((LIB, "DAEMONSET_LIB")), out.stderr)
        # a wrong override is the error, not a silent fall-back to the checkout's build
        env["DAEMONSET_LIB"] = "/nonexistent/libdaemonset.so.1"
        out = run_python("import daemonset", env)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("OSError: DAEMONSET_LIB=/nonexistent/libdaemonset.so.1 cannot be loaded", out.stderr)


if __name__ == "__main__":
    unittest.main()
