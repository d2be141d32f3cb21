"""Go's encoding/json semantics of the pure functions through daemonset.pure: each input is
decoded as upstream's Go function receives it (a wrong JSON type is TypeMismatch with the
field's path, null is the zero value or nil, unknown fields are ignored, IntOrString and
Quantity take both their forms, integers refuse fractions and values out of range), and the
Go structs they return are printed as encoding/json prints them (omitempty, pointers, structs).
Standard library only."""

import copy
import unittest

from daemonset import pure, InvalidValue, TypeMismatch

DS = {"apiVersion": "apps/v1", "kind": "DaemonSet",
      "metadata": {"name": "agent", "namespace": "kube-system", "uid": "u-1"},
      "spec": {"selector": {"matchLabels": {"app": "agent"}},
               "template": {"metadata": {"labels": {"app": "agent"}},
                            "spec": {"containers": [{"name": "c", "image": "i"}]}}}}
NODE = {"metadata": {"name": "n1", "labels": {"disk": "ssd"}},
        "status": {"allocatable": {"pods": "110", "cpu": "2", "memory": "1Gi"}}}
POD = {"metadata": {"name": "p", "namespace": "default"}, "spec": {"containers": [{"name": "c"}]}}


def with_template_spec(**fields):
    ds = copy.deepcopy(DS)
    ds["spec"]["template"]["spec"].update(fields)
    return ds


class DecodeTest(unittest.TestCase):
    def assert_type_error(self, call, path, source, message=None):
        with self.assertRaises(TypeMismatch) as cm:
            call()
        self.assertEqual(cm.exception.path, path)
        self.assertEqual(cm.exception.source, source)
        if message:
            self.assertIn(message, str(cm.exception))

    def test_issue_example_container_name_number(self):
        # json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name
        ds = {"metadata": {"name": "a"}, "spec": {"template": {"spec": {"containers": [{"name": 5, "image": "i"}]}}}}
        self.assert_type_error(lambda: pure.new_pod(ds, "n1", "h"), "spec.template.spec.containers[0].name",
                               "daemonset", "expected string, got number")

    def test_wrong_type_at_depth_in_each_input(self):
        self.assert_type_error(lambda: pure.tolerates_taint({"tolerationSeconds": "300"}, {"key": "k"}),
                               "tolerationSeconds", "toleration")
        self.assert_type_error(lambda: pure.tolerates_taint({}, {"key": "k", "timeAdded": 5}), "timeAdded", "taint")
        self.assert_type_error(lambda: pure.find_untolerated_taint([{"key": "a"}, {"key": ["b"]}], []),
                               "[1].key", "taints")
        self.assert_type_error(lambda: pure.find_untolerated_taint([], [{"operator": 1}]), "[0].operator",
                               "tolerations")
        self.assert_type_error(lambda: pure.required_node_affinity_match({"spec": {"nodeSelector": {"a": 1}}}, NODE),
                               "spec.nodeSelector.a", "pod")
        self.assert_type_error(lambda: pure.required_node_affinity_match(POD, {"metadata": {"labels": []}}),
                               "metadata.labels", "node", "expected object, got array")
        self.assert_type_error(lambda: pure.node_should_run(with_template_spec(nodeName=7), NODE),
                               "spec.template.spec.nodeName", "daemonset")
        self.assert_type_error(lambda: pure.add_daemon_tolerations({"spec": {"tolerations": [{"key": True}]}}),
                               "spec.tolerations[0].key", "podspec")
        self.assert_type_error(lambda: pure.replace_node_name_affinity({"nodeAffinity": []}, "n"), "nodeAffinity",
                               "affinity")
        self.assert_type_error(lambda: pure.rolling_update(DS, [NODE, {"kind": "Node", "spec": {"unschedulable": 1}}]),
                               "[1].spec.unschedulable", "objects")
        self.assert_type_error(lambda: pure.scheduler_filter({"spec": {"priority": "high"}}, NODE), "spec.priority",
                               "pod")
        self.assert_type_error(lambda: pure.select_victims(POD, {"metadata": {"name": 1}}), "metadata.name", "node")

    def test_null_is_accepted(self):
        # "unmarshaling a JSON null into any other Go type has no effect on the value and produces no error"
        pod = pure.new_pod(with_template_spec(hostNetwork=None, affinity=None, tolerations=[None],
                                              nodeSelector={"a": None}), "n1", "h")
        self.assertNotIn("hostNetwork", pod["spec"])
        self.assertEqual(pod["spec"]["nodeSelector"], {"a": ""})
        self.assertIn({}, pod["spec"]["tolerations"])  # a zero Toleration, kept (it matches no default)
        self.assertTrue(pure.tolerates_taint({"key": None, "operator": "Exists"}, {"key": "k", "value": None}))
        self.assertIsNone(pure.find_untolerated_taint([None], [{"operator": "Exists"}]))

    def test_unknown_fields_are_ignored_and_not_printed(self):
        ds = with_template_spec(notAField=[1, 2])
        ds["spec"]["template"]["spec"]["containers"][0]["Image"] = 5  # case-sensitive: unknown, not a type error
        pod = pure.new_pod(ds, "n1", "h")
        self.assertNotIn("notAField", pod["spec"])
        self.assertEqual(pod["spec"]["containers"], [{"name": "c", "image": "i"}])

    def test_int_or_string_and_quantity(self):
        for mu in ("50%", 1):
            ds = copy.deepcopy(DS)
            ds["spec"]["updateStrategy"] = {"rollingUpdate": {"maxUnavailable": mu}}
            self.assertIn("creates", pure.rolling_update(ds, [NODE]))
        # any string decodes; rollingUpdate's GetScaledValueFromIntOrPercent then refuses it
        ds = copy.deepcopy(DS)
        ds["spec"]["updateStrategy"] = {"rollingUpdate": {"maxUnavailable": "anything"}}
        with self.assertRaises(InvalidValue):
            pure.rolling_update(ds, [NODE])
        for bad in (1.5, True, 3000000000):
            ds = copy.deepcopy(DS)
            ds["spec"]["updateStrategy"] = {"rollingUpdate": {"maxUnavailable": bad}}
            self.assert_type_error(lambda: pure.rolling_update(ds, [NODE]),
                                   "spec.updateStrategy.rollingUpdate.maxUnavailable", "daemonset")
        pod = {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": 0.5, "memory": "64Mi"}}}]}}
        self.assertTrue(pure.scheduler_filter(pod, NODE)["fits"])
        bad = {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "lots"}}}]}}
        with self.assertRaises(InvalidValue) as cm:
            pure.scheduler_filter(bad, NODE)
        self.assertEqual(cm.exception.path, "spec.containers[0].resources.requests.cpu")
        self.assert_type_error(lambda: pure.scheduler_filter(
            {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": True}}}]}}, NODE),
            "spec.containers[0].resources.requests.cpu", "pod")

    def test_integers(self):
        # strconv.ParseInt of the literal: a fraction, even .0, and an int32 overflow are type errors
        for v in (1.5, 2.0, 2147483648):
            self.assert_type_error(
                lambda: pure.add_daemon_tolerations({"containers": [{"name": "c", "ports": [{"containerPort": v}]}]}),
                "containers[0].ports[0].containerPort", "podspec")
        spec = pure.add_daemon_tolerations({"terminationGracePeriodSeconds": 4294967296})
        self.assertEqual(spec["terminationGracePeriodSeconds"], 4294967296)  # an int64


class EncodeTest(unittest.TestCase):
    def test_issue_example_preferred_terms(self):
        aff = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchExpressions": []}}, {"weight": 2, "preference": {}}]}}
        pod = pure.new_pod(with_template_spec(affinity=aff), "n1", "h")
        self.assertEqual(pod["spec"]["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"],
                         [{"weight": 1, "preference": {}}, {"weight": 2, "preference": {}}])
        out = pure.replace_node_name_affinity(aff, "n1")
        self.assertEqual(out["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"][0],
                         {"weight": 1, "preference": {}})

    def test_omitempty_pointers_and_values(self):
        spec = pure.add_daemon_tolerations({"hostNetwork": False, "terminationGracePeriodSeconds": 0,
                                            "automountServiceAccountToken": False, "dnsPolicy": "",
                                            "nodeSelector": {}, "containers": []})
        self.assertNotIn("hostNetwork", spec)          # bool, omitempty: false goes
        self.assertNotIn("dnsPolicy", spec)            # string, omitempty: "" goes
        self.assertNotIn("nodeSelector", spec)         # map, omitempty: empty goes
        self.assertEqual(spec["terminationGracePeriodSeconds"], 0)      # *int64: kept
        self.assertIs(spec["automountServiceAccountToken"], False)      # *bool: kept
        self.assertEqual(spec["containers"], [])       # []Container `json:"containers"`: no omitempty
        pod = pure.new_pod(with_template_spec(containers=[{"name": "c", "image": "",
                                                           "resources": {"limits": {"cpu": "1000m"}}}]), "n1", "h")
        self.assertEqual(pod["spec"]["containers"], [{"name": "c", "resources": {"limits": {"cpu": "1"}}}])

    def test_taint_printed_as_go(self):
        self.assertEqual(pure.find_untolerated_taint([{"key": "k", "value": "", "effect": "", "timeAdded": None}], []),
                         {"key": "k", "effect": ""})


if __name__ == "__main__":
    unittest.main()
