"""How the Python package names things: a DaemonSet as dsctl takes it (namespace/name, the two arguments,
ds/name, the name alone), and C strings that refuse an embedded NUL instead of being cut at it."""

import os
import unittest

import daemonset
from daemonset import daemon, placement, plan

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SAMPLE = os.path.join(ROOT, "examples", "cluster")
NOW = "2026-12-02T15:00:00Z"


class DaemonSetNames(unittest.TestCase):
    def setUp(self):
        self.c = daemonset.Cluster.from_file(SAMPLE)
        self.addCleanup(self.c.close)

    def test_every_spelling_names_the_same_daemonset(self):
        want = placement.explain(self.c, "kube-system", "nvidia-device-plugin")
        for args in (("kube-system/nvidia-device-plugin",), ("nvidia-device-plugin",), ("ds/nvidia-device-plugin",),
                     ("daemonsets.apps/nvidia-device-plugin",)):
            with self.subTest(args=args):
                self.assertEqual(placement.explain(self.c, *args), want)

    def test_a_bare_name_before_other_arguments(self):
        """(snapshot, name, node): the name is looked up, the node stays the node."""
        self.assertEqual(placement.should_run(self.c, "fluentd-logging", "cp-1"), (False, True))
        self.assertEqual(placement.should_run(self.c, "fluentd-logging", "worker-4"), (True, True))
        self.assertEqual([cr["node"] for cr in plan.plan(self.c, "fluentd-logging", NOW).creates], ["worker-4"])
        pod = daemon.pod(self.c, "fluentd-logging", "worker-4")
        self.assertEqual(pod["metadata"]["namespace"], "kube-system")

    def test_a_namespace_and_name_pair_wins_over_a_bare_name(self):
        """A DaemonSet named like a namespace: (namespace, name) is read as the pair when the pair exists."""
        with daemonset.Cluster.from_file(SAMPLE) as c:
            c.load({"apiVersion": "apps/v1", "kind": "DaemonSet",
                    "metadata": {"name": "monitoring", "namespace": "default", "uid": "u-1"},
                    "spec": {"selector": {"matchLabels": {"a": "b"}},
                             "template": {"metadata": {"labels": {"a": "b"}},
                                          "spec": {"containers": [{"name": "c", "image": "i"}]}}}})
            self.assertEqual(placement.explain(c, "monitoring", "node-exporter")["daemonSet"],
                             {"name": "node-exporter", "namespace": "monitoring"})
            self.assertEqual(placement.explain(c, "monitoring")["daemonSet"],
                             {"name": "monitoring", "namespace": "default"})

    def test_unknown_and_ambiguous_names(self):
        with self.assertRaises(daemonset.NotFound) as cm:
            placement.explain(self.c, "fluentd-loging")
        self.assertEqual(cm.exception.message, 'daemonsets.apps "fluentd-loging" not found')
        with daemonset.Cluster.from_file(SAMPLE) as c:
            c.load({"apiVersion": "apps/v1", "kind": "DaemonSet",
                    "metadata": {"name": "fluentd-logging", "namespace": "logging", "uid": "u-2"},
                    "spec": {"selector": {"matchLabels": {"a": "b"}},
                             "template": {"metadata": {"labels": {"a": "b"}},
                                          "spec": {"containers": [{"name": "c", "image": "i"}]}}}})
            with self.assertRaises(daemonset.InvalidArgument) as cm:
                placement.explain(c, "fluentd-logging")
            self.assertIn('exists in 2 namespaces (kube-system, logging): name it as "NAMESPACE/NAME"',
                          cm.exception.message)
            self.assertEqual(placement.explain(c, "logging/fluentd-logging")["daemonSet"]["namespace"], "logging")


class EmbeddedNul(unittest.TestCase):
    def test_c_strings_refuse_a_nul(self):
        """The issue: new_pod(ds, "node-1\\x00-evil") pinned node-1. Every C string argument refuses it."""
        with daemonset.Cluster.from_file(SAMPLE) as c:
            cases = [
                lambda: daemon.pod(c, "kube-system/fluentd-logging", "worker-1\x00-evil"),
                lambda: placement.should_run(c, "kube-system/fluentd-logging", "cp-1\x00x"),
                lambda: placement.explain(c, "kube-system", "fluentd-logging\x00x"),
                lambda: c.get("Node", None, "worker-1\x00x"),
                lambda: daemonset.pure.new_pod(
                    {"metadata": {"name": "d", "namespace": "n"},
                     "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}]}}}},
                    "node-1\x00-evil"),
                lambda: daemonset.Options().set("kubernetesVersion", "1.34\x00"),
            ]
            for i, call in enumerate(cases):
                with self.subTest(case=i):
                    with self.assertRaises(ValueError) as cm:
                        call()
                    self.assertIn("embedded null character", str(cm.exception))
            # without the NUL, the same calls work
            self.assertEqual(daemon.pod(c, "kube-system/fluentd-logging", "worker-1")["kind"], "Pod")

    def test_documents_keep_their_bytes(self):
        """A document goes with its size: a NUL in it reaches the parser, which refuses it (not cut)."""
        with daemonset.Cluster.from_file(SAMPLE) as c:
            with self.assertRaises(daemonset.DaemonSetError):
                c.load('{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}}\x00{"kind": "x"}')


if __name__ == "__main__":
    unittest.main()
