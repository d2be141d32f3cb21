"""ctypes tests for DaemonSet defaults and validation: ds_daemonset_defaults, ds_daemonset_validate,
ds_daemonset_validate_update, and errors."""

import json
import unittest

import daemonset.validate as validate
from daemonset import DaemonSetError, Options

DS = """apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent, namespace: kube-system, resourceVersion: "5"}
spec:
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      containers:
      - name: agent
        image: example.com/agent:1.2
        resources: {requests: {cpu: 0.1, memory: 64Mi}}
"""


def with_changes(text, **changes):
    """The defaulted DaemonSet with some spec members replaced, as JSON text."""
    obj = validate.defaults(text)
    for key, value in changes.items():
        obj["spec"][key] = value
    return json.dumps(obj)


class DefaultsTest(unittest.TestCase):
    def test_defaults(self):
        d = validate.defaults(DS)
        self.assertEqual(d["spec"]["updateStrategy"],
                         {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})
        self.assertEqual(d["spec"]["revisionHistoryLimit"], 10)
        spec = d["spec"]["template"]["spec"]
        self.assertEqual((spec["dnsPolicy"], spec["restartPolicy"], spec["schedulerName"],
                          spec["terminationGracePeriodSeconds"], spec["securityContext"]),
                         ("ClusterFirst", "Always", "default-scheduler", 30, {}))
        c = spec["containers"][0]
        self.assertEqual(c["imagePullPolicy"], "IfNotPresent")
        self.assertEqual(c["resources"]["requests"], {"cpu": "100m", "memory": "64Mi"})
        self.assertEqual(c["terminationMessagePath"], "/dev/termination-log")

    def test_on_delete(self):
        d = validate.defaults("kind: DaemonSet\nspec: {updateStrategy: {type: OnDelete}}\n")
        self.assertEqual(d["spec"]["updateStrategy"], {"type": "OnDelete"})


class ValidateTest(unittest.TestCase):
    def test_valid(self):
        r = validate.validate(DS)
        self.assertEqual(r, {"valid": True, "errors": [], "message": None})

    def test_invalid_create(self):
        bad = DS.replace("app: node-agent}}\n  template", "app: other}}\n  template")
        bad = bad.replace("image: example.com/agent:1.2", "image: example.com/agent:1.2\n        ports: [{containerPort: 0}]")
        r = validate.validate(bad)
        self.assertFalse(r["valid"])
        self.assertEqual([(e["field"], e["type"], e["reason"]) for e in r["errors"]], [
            ("spec.template.metadata.labels", "Invalid", "FieldValueInvalid"),
            ("spec.template.spec.containers[0].ports[0].containerPort", "Required", "FieldValueRequired"),
        ])
        self.assertEqual(r["errors"][0]["value"], {"app": "node-agent"})
        self.assertEqual(r["message"],
                         'DaemonSet.apps "node-agent" is invalid: [spec.template.metadata.labels: Invalid value: '
                         '{"app":"node-agent"}: `selector` does not match template `labels`, '
                         "spec.template.spec.containers[0].ports[0].containerPort: Required value]")

    def test_rolling_update_rules(self):
        r = validate.validate(with_changes(DS, updateStrategy={
            "type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "10%", "maxSurge": 1}}))
        self.assertEqual([e["message"] for e in r["errors"]], [
            "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"])
        r = validate.validate(with_changes(DS, updateStrategy={
            "type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}))
        self.assertEqual([e["message"] for e in r["errors"]], [
            "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"])

    def test_as_is(self):
        # without the API server's defaults, the missing fields are reported
        r = validate.validate(DS, as_is=True)
        fields = [e["field"] for e in r["errors"]]
        self.assertIn("spec.template.spec.terminationGracePeriodSeconds", fields)
        self.assertEqual(r["errors"][-1]["message"],
                         'spec.updateStrategy: Unsupported value: {"Type":"","RollingUpdate":null}: '
                         'supported values: "RollingUpdate", "OnDelete"')

    def test_update(self):
        changed = DS.replace("app: node-agent}}\n  template", "app: node-agent, tier: node}}\n  template")
        changed = changed.replace("labels: {app: node-agent}}\n    spec", "labels: {app: node-agent, tier: node}}\n    spec")
        r = validate.validate_update(changed, DS)
        self.assertEqual([e["message"] for e in r["errors"]],
                         ['spec.selector: Invalid value: {"matchLabels":{"app":"node-agent","tier":"node"}}: '
                          "field is immutable"])
        # as given (no defaults, no registry): the selector change passes, the missing defaults do not
        r = validate.validate_update(changed, DS, as_is=True)
        self.assertNotIn("spec.selector", [e["field"] for e in r["errors"]])
        self.assertIn("spec.template.spec.dnsPolicy", [e["field"] for e in r["errors"]])
        self.assertTrue(validate.validate_update(DS.replace("1.2", "1.3"), DS)["valid"])

    def test_status_update(self):
        old = DS + "status: {collisionCount: 3}\n"
        new = DS + "status: {collisionCount: 2, numberReady: -1}\n"
        r = validate.validate_update(new, old, status=True)
        self.assertEqual([e["message"] for e in r["errors"]], [
            "status.numberReady: Invalid value: -1: must be greater than or equal to 0",
            "status.collisionCount: Invalid value: 2: cannot be decremented"])

    def test_options(self):
        tol = DS.replace("      containers:", "      tolerations: [{key: k, operator: Gt, value: '3'}]\n      containers:")
        self.assertFalse(validate.validate(tol)["valid"])
        o = Options(featureGates="TaintTolerationComparisonOperators=true")
        self.assertTrue(validate.validate(tol, options=o)["valid"])

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            validate.validate("kind: DaemonSet\nspec: {template: {spec: {containers: [{name: a, ports: 8080}]}}}\n")
        self.assertEqual(cm.exception.name, "DS_ETYPE")
        self.assertEqual(cm.exception.path, "spec.template.spec.containers[0].ports")
        with self.assertRaises(DaemonSetError) as cm:
            validate.defaults("kind: Deployment\n")
        self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EUNSUPPORTED", "kind"))
        with self.assertRaises(DaemonSetError) as cm:
            validate.validate_update(DS, "{")
        self.assertEqual((cm.exception.name, cm.exception.path), ("DS_ESYNTAX", "(old)"))
        with self.assertRaises(DaemonSetError) as cm:
            validate.validate("")
        self.assertEqual(cm.exception.name, "DS_EMISSING")


if __name__ == "__main__":
    unittest.main()
