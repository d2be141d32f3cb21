"""ctypes tests for the security audit: ds_audit, ds_pod_security_evaluate, errors."""

import os
import unittest

import daemonset.audit as audit
from daemonset import DaemonSetError, Options

HERE = os.path.dirname(os.path.abspath(__file__))
VEC = os.path.join(HERE, "..", "vectors", "audit")


def read(name):
    with open(os.path.join(VEC, name), encoding="utf-8") as f:
        return f.read()


class AuditTest(unittest.TestCase):
    def test_fluentd_report(self):
        r = audit.audit(read("fluentd-daemonset.yaml"))
        self.assertEqual(r["kind"], "DaemonSet")
        self.assertEqual(r["name"], "fluentd-elasticsearch")
        self.assertEqual(r["level"], "privileged")
        self.assertEqual(r["summary"]["high"], 2)
        self.assertEqual(r["summary"]["total"], len(r["findings"]))
        ids = [(f["id"], f["severity"], f["path"]) for f in r["findings"]]
        self.assertEqual(ids[0], ("hostPath", "high", "spec.template.spec.volumes[0].hostPath.path"))
        self.assertIn(("controlPlane", "info", "spec.template.spec.tolerations"), ids)
        order = ["critical", "high", "medium", "low", "info"]
        self.assertEqual([f["severity"] for f in r["findings"]],
                         sorted((f["severity"] for f in r["findings"]), key=order.index))
        base = r["podSecurity"]["baseline"]
        self.assertFalse(base["allowed"])
        self.assertEqual(base["violations"], [{"check": "hostPathVolumes", "reason": "hostPath volumes",
                                               "detail": "volumes \"varlog\", \"varlibdockercontainers\""}])
        self.assertTrue(r["requested"]["warning"].startswith("would violate PodSecurity \"restricted:latest\": "))

    def test_options(self):
        o = Options(podSecurityLevel="baseline", kubernetesVersion="1.37")
        r = audit.audit(read("fluentd-daemonset.yaml"), o)
        self.assertEqual(r["requested"]["level"], "baseline")
        self.assertEqual(r["podSecurity"]["effectiveVersion"], "v1.37")
        self.assertEqual(r["requested"]["warning"],
                         "would violate PodSecurity \"baseline:latest\": hostPath volumes "
                         "(volumes \"varlog\", \"varlibdockercontainers\")")

    def test_pod_security_evaluate(self):
        r = audit.pod_security_evaluate(read("node-exporter-pod.yaml"), "baseline", "latest")
        self.assertFalse(r["allowed"])
        self.assertEqual(r["error"],
                         "pods \"node-exporter-7xk2p\" is forbidden: violates PodSecurity \"baseline:latest\": "
                         "host namespaces (hostNetwork=true, hostPID=true), hostPath volumes "
                         "(volumes \"proc\", \"sys\", \"root\"), hostPort (container \"node-exporter\" uses "
                         "hostPort 9100)")
        r = audit.pod_security_evaluate(read("node-exporter-daemonset.yaml"), "baseline")
        self.assertNotIn("hostPort", r["warning"])
        self.assertIn("hostPort (container \"node-exporter\" uses hostPort 9100)", r["pods"]["error"])
        r = audit.pod_security_evaluate("kind: Pod\nmetadata: {name: ok}\nspec:\n  containers: [{name: a}]\n",
                                        "baseline", "v1.0")
        self.assertTrue(r["allowed"])
        self.assertEqual(r["violations"], [])
        self.assertNotIn("warning", r)

    def test_errors(self):
        bad = ("kind: DaemonSet\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n"
               "      - name: b\n        securityContext: {privileged: 'yes'}\n")
        with self.assertRaises(DaemonSetError) as cm:
            audit.audit(bad)
        self.assertEqual(cm.exception.name, "DS_ETYPE")
        self.assertEqual(cm.exception.path, "spec.template.spec.containers[1].securityContext.privileged")
        with self.assertRaises(DaemonSetError) as cm:
            audit.pod_security_evaluate(read("fluentd-daemonset.yaml"), "baseline", "v1.05")
        self.assertEqual(cm.exception.name, "DS_EVALUE")
        self.assertEqual(cm.exception.path, "podSecurityVersion")
        with self.assertRaises(DaemonSetError) as cm:
            audit.audit("")
        self.assertEqual(cm.exception.name, "DS_EMISSING")
        with self.assertRaises(DaemonSetError) as cm:
            audit.audit("[1, 2]")
        self.assertEqual(cm.exception.name, "DS_ETYPE")


if __name__ == "__main__":
    unittest.main()
