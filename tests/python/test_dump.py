"""A cluster dump as `kubectl get -A -o yaml` prints it (tests/dumps/kubectl-get-o-yaml.yaml: the
sample cluster in one List, with managedFields, resourceVersions, uids, last-applied annotations,
full node and pod status and the List's empty resourceVersion) decides exactly as the trimmed
sample in examples/cluster does: what kubectl adds is noise to every rule."""

import os
import subprocess
import unittest

from daemonset import Options, cluster, ops, placement, plan

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DUMP = os.path.join(ROOT, "tests", "dumps", "kubectl-get-o-yaml.yaml")
SAMPLE = os.path.join(ROOT, "examples", "cluster")
NOW = "2026-12-02T15:00:00Z"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
DAEMONSETS = [("kube-system", "fluentd-logging"), ("kube-system", "nvidia-device-plugin"),
              ("monitoring", "node-exporter")]


class DumpTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dump = cluster.Cluster.from_file(DUMP)
        cls.sample = cluster.Cluster.from_file(SAMPLE)

    @classmethod
    def tearDownClass(cls):
        cls.dump.close()
        cls.sample.close()

    def test_the_dump_is_kubectl_shaped(self):
        with open(DUMP) as f:
            text = f.read()
        for marker in ("kind: List", "managedFields:", "fieldsType: FieldsV1", 'resourceVersion: ""', LAST_APPLIED,
                       "nodeInfo:"):
            self.assertIn(marker, text)
        self.assertEqual(self.dump.summary(), self.sample.summary())

    def test_same_decisions(self):
        revisions = 0
        for ns, name in DAEMONSETS:
            with self.subTest(daemonset=name):
                self.assertEqual(placement.explain(self.dump, ns, name), placement.explain(self.sample, ns, name))
                self.assertEqual(plan.status(self.dump, ns, name, NOW), plan.status(self.sample, ns, name, NOW))
                a = plan.plan(self.dump, ns, name, NOW).to_dict()
                b = plan.plan(self.sample, ns, name, NOW).to_dict()
                # a new ControllerRevision carries the DaemonSet's annotations (snapshot, update.go),
                # kubectl's last-applied one included; nothing else differs
                created = a.get("history", {}).get("create")
                if created:
                    annotations = created["metadata"]["annotations"]
                    self.assertIn(LAST_APPLIED, annotations)
                    del annotations[LAST_APPLIED]
                    revisions += 1
                self.assertEqual(a, b)
        self.assertGreater(revisions, 0)  # the annotation case is exercised

    def test_same_operations(self):
        opts = Options(ignoreDaemonSets=True)
        for node in ("worker-1", "cp-1"):
            with self.subTest(node=node):
                self.assertEqual(ops.drain(self.dump, node, NOW, opts), ops.drain(self.sample, node, NOW, opts))
                self.assertEqual(ops.cordon(self.dump, node), ops.cordon(self.sample, node))

    def test_dsctl_reads_it_from_stdin(self):
        dsctl = os.path.join(os.path.dirname(os.environ["DAEMONSET_LIB"]), "..", "bin", "dsctl")
        if not os.path.exists(dsctl):
            self.skipTest("dsctl is not built")
        with open(DUMP, "rb") as f:
            out = subprocess.run([dsctl, "-f", "-", "--now", NOW, "explain", "fluentd-logging"], stdin=f,
                                 capture_output=True, timeout=60)
        ref = subprocess.run([dsctl, "-f", SAMPLE, "--now", NOW, "explain", "fluentd-logging"], capture_output=True,
                             timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout, ref.stdout)


if __name__ == "__main__":
    unittest.main()
