"""The pure functions of the ABI as plain Python functions (daemonset.pure): a test of a
scheduling decision is an import, a call and an assert. Each function once, with the
malformed-but-evaluable inputs upstream's functions answer (issue 20)."""

import json
import unittest

from daemonset import pure, InvalidArgument, InvalidValue, TypeMismatch

DS = {"metadata": {"name": "agent", "namespace": "kube-system", "uid": "u-1"},
      "spec": {"selector": {"matchLabels": {"app": "agent"}},
               "template": {"metadata": {"labels": {"app": "agent"}},
                            "spec": {"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                                                      "effect": "NoExecute", "tolerationSeconds": 300}],
                                     "containers": [{"name": "c", "image": "i"}]}}}}


class PureTest(unittest.TestCase):
    def test_tolerates_taint(self):
        self.assertFalse(pure.tolerates_taint({"key": "a", "operator": "In"}, {"key": "a", "effect": "NoSchedule"}))
        self.assertTrue(pure.tolerates_taint({"operator": "Exists", "effect": "noschedule"},
                                             {"key": "k", "effect": "noschedule"}))
        self.assertFalse(pure.tolerates_taint({"operator": "Exists", "effect": "noschedule"},
                                              {"key": "k", "effect": "NoSchedule"}))
        self.assertTrue(pure.tolerates_taint({"operator": "Exists"}, {"key": "", "effect": ""}))
        gt = {"key": "k", "operator": "Gt", "value": "5"}
        self.assertFalse(pure.tolerates_taint(gt, {"key": "k", "value": "7", "effect": "NoSchedule"}))
        self.assertTrue(pure.tolerates_taint(gt, {"key": "k", "value": "7", "effect": "NoSchedule"},
                                             {"featureGates": "TaintTolerationComparisonOperators=true"}))
        with self.assertRaises(TypeMismatch) as cm:
            pure.tolerates_taint({"effect": 5}, {})
        self.assertEqual(cm.exception.path, "effect")

    def test_find_untolerated_taint(self):
        taints = [{"key": "p", "effect": "PreferNoSchedule"}, {"key": "b", "effect": "weird"},
                  {"key": "c", "effect": "NoSchedule"}]
        self.assertEqual(pure.find_untolerated_taint(taints, []), {"key": "p", "effect": "PreferNoSchedule"})
        self.assertEqual(pure.find_untolerated_taint(taints, [], pure.NO_SCHEDULE | pure.NO_EXECUTE),
                         {"key": "c", "effect": "NoSchedule"})
        self.assertEqual(pure.find_untolerated_taint(taints, [], pure.OTHER_EFFECT), {"key": "b", "effect": "weird"})
        # the bits go to ds_taints_find_untolerated2 as effect strings: OTHER_EFFECT as "" and the
        # unknown effects of the taints, which JSON text says too
        self.assertEqual(pure.find_untolerated_taint(json.dumps(taints), [], pure.OTHER_EFFECT),
                         {"key": "b", "effect": "weird"})
        self.assertEqual(pure.find_untolerated_taint([{"key": "e"}] + taints, [], pure.OTHER_EFFECT),
                         {"key": "e", "effect": ""})
        self.assertIsNone(pure.find_untolerated_taint(taints[:1], [], pure.OTHER_EFFECT | pure.NO_SCHEDULE))
        with self.assertRaises(ValueError):  # YAML text: its effects are not read here
            pure.find_untolerated_taint("- {key: b, effect: weird}\n", [], pure.OTHER_EFFECT)
        with self.assertRaises(InvalidArgument) as cm:  # the superseded function's answer to such bits
            pure.find_untolerated_taint(taints, [], 0x10)
        self.assertIn("unknown effect bits 0x10", str(cm.exception))
        self.assertIsNone(pure.find_untolerated_taint(taints, [{"operator": "Exists"}]))

    def test_required_node_affinity_match(self):
        pod = {"spec": {"nodeSelector": {"disk": "ssd"}}}
        self.assertTrue(pure.required_node_affinity_match(pod, {"metadata": {"labels": {"disk": "ssd"}}}))
        self.assertFalse(pure.required_node_affinity_match(pod, {"metadata": {}}))
        bad = {"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "a", "operator": "Bogus"}]}]}}}}}
        with self.assertRaises(InvalidValue):
            pure.required_node_affinity_match(bad, {"metadata": {"name": "n"}})

    def test_node_should_run(self):
        # a Node without a name, a taint without a key: upstream answers
        r = pure.node_should_run(DS, {"spec": {"taints": [{"effect": "NoSchedule"}]}})
        self.assertEqual((r["node"], r["shouldRun"], r["shouldContinueRunning"]), ("", False, True))
        r = pure.node_should_run(DS, {"metadata": {"name": "n1"}})
        self.assertTrue(r["shouldRun"])

    def test_new_pod_and_tolerations(self):
        pod = pure.new_pod(DS, "", "abc")
        terms = pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        self.assertEqual(terms["nodeSelectorTerms"][0]["matchFields"][0]["values"], [""])
        self.assertEqual(pod["metadata"]["labels"]["controller-revision-hash"], "abc")
        # the template's not-ready toleration is replaced by the default and loses its tolerationSeconds
        self.assertNotIn("tolerationSeconds", pod["spec"]["tolerations"][0])
        self.assertNotIn("controller-revision-hash", pure.new_pod(DS, "n", "")["metadata"]["labels"])
        spec = pure.add_daemon_tolerations({"hostNetwork": True, "tolerations": [{"key": "x", "operator": "In"}]})
        keys = [t.get("key") for t in spec["tolerations"]]
        self.assertEqual(keys[0], "x")
        self.assertIn("node.kubernetes.io/network-unavailable", keys)

    def test_replace_node_name_affinity(self):
        self.assertEqual(pure.replace_node_name_affinity(None, "n1"),
                         {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                             {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]}}})
        kept = pure.replace_node_name_affinity({"podAffinity": {}, "nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {}}]}}, "n2")
        self.assertEqual(kept["podAffinity"], {})
        self.assertEqual(kept["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"][0]["weight"], 1)

    def test_scheduler_and_preemption(self):
        node = {"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
        low = [{"metadata": {"name": "low", "namespace": "d"},
                "spec": {"priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "800m"}}}]}}]
        pod = {"metadata": {"name": "agent"},
               "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}}
        r = pure.scheduler_filter(pod, node, low)
        self.assertEqual([(x["plugin"], x["code"]) for x in r["reasons"]], [("NodeResourcesFit", "Unschedulable")])
        v = pure.select_victims(pod, node, low)
        self.assertEqual((v["possible"], v["victims"]), (True, [{"namespace": "d", "name": "low"}]))
        gpu = {"metadata": {"name": "g"}, "spec": {"containers": [{"name": "c", "resources": {
            "requests": {"example.com/gpu": "1"}}}]}}
        self.assertFalse(pure.scheduler_filter(gpu, node)["fits"])
        self.assertTrue(pure.scheduler_filter(gpu, node, None, {"ignoredResourceGroups": "example.com"})["fits"])

    def test_node_status_is_the_first_failing_plugins(self):
        """RunFilterPlugins stops at the first failing plugin: its code is the node's, and decides whether
        preemption is tried (UnschedulableAndUnresolvable: "Preemption is not helpful")."""
        node = {"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
        holder = [{"kind": "Pod", "metadata": {"name": "q", "namespace": "d"},
                   "spec": {"nodeName": "n", "priority": 0,
                            "containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 80}]}]}}]
        big = {"metadata": {"name": "p", "namespace": "d"},
               "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}},
                                                          "ports": [{"containerPort": 80, "hostPort": 80}]}]}}
        r = pure.scheduler_filter(big, node, holder)
        self.assertEqual([(x["plugin"], x["code"]) for x in r["reasons"]],
                         [("NodePorts", "Unschedulable"), ("NodeResourcesFit", "UnschedulableAndUnresolvable")])
        # NodePorts failed first: the victims are looked for; without them cpu still does not fit
        self.assertEqual((r["preemption"]["possible"], r["preemption"]["message"]), (False, "Insufficient cpu"))
        alone = pure.scheduler_filter(big, node)
        self.assertEqual(alone["preemption"]["message"], "Preemption is not helpful for scheduling")

    def test_rolling_update(self):
        ds = dict(DS, spec=dict(DS["spec"], updateStrategy={"type": "RollingUpdate",
                                                            "rollingUpdate": {"maxUnavailable": 1}}))
        pods = [{"kind": "Node", "metadata": {"name": "n%d" % i}} for i in range(3)]
        for i in range(3):
            pods.append({"metadata": {"name": "agent-%d" % i, "namespace": "kube-system",
                                      "labels": {"app": "agent", "controller-revision-hash": "old"},
                                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet",
                                                           "name": "agent", "uid": "u-1", "controller": True}]},
                         "spec": {"nodeName": "n%d" % i},
                         "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}})
        r = pure.rolling_update(ds, pods, "new")
        self.assertEqual((r["hash"], r["maxUnavailable"]), ("new", 1))
        self.assertEqual([d["name"] for d in r["deletes"]], ["agent-0"])


if __name__ == "__main__":
    unittest.main()
