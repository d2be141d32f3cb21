"""Parsed objects from Python (daemonset.objects, through daemonset.pure): documents parsed once into
Objects, every pure function on Objects giving the answer it gives on the documents, the batches
giving the single calls' answers, the effect filter's cases, and objects shared by threads."""

import json
import threading
import unittest

from daemonset import pure, Cluster, InvalidArgument, InvalidValue, TypeMismatch

DS = {"apiVersion": "apps/v1", "kind": "DaemonSet",
      "metadata": {"name": "agent", "namespace": "kube-system", "uid": "u-1"},
      "spec": {"selector": {"matchLabels": {"app": "agent"}},
               "template": {"metadata": {"labels": {"app": "agent"}},
                            "spec": {"nodeSelector": {"disk": "ssd"},
                                     "tolerations": [{"key": "dedicated", "operator": "Exists",
                                                      "effect": "NoSchedule"}],
                                     "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                                         "nodeSelectorTerms": [{"matchExpressions": [
                                             {"key": "zone", "operator": "NotIn", "values": ["edge"]}]}]}}},
                                     "containers": [{"name": "c", "image": "i",
                                                     "resources": {"requests": {"cpu": "100m"}}}]}}}}


def node(name, labels=None, taints=None):
    n = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels or {}},
         "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "10"}}}
    if taints:
        n["spec"] = {"taints": taints}
    return n


NODES = [node("n1", {"disk": "ssd", "zone": "a"}),
         node("n2", {"disk": "hdd"}),
         node("n3", {"disk": "ssd", "zone": "edge"}),
         node("n4", {"disk": "ssd"}, [{"key": "dedicated", "value": "x", "effect": "NoSchedule"},
                                      {"key": "gone", "effect": "NoExecute", "timeAdded": "2026-01-02T03:04:05Z"}]),
         node("n5", {"disk": "ssd"}, [{"key": "other", "effect": "NoSchedule"}])]


class ObjectTest(unittest.TestCase):
    def test_types_and_errors(self):
        self.assertEqual(pure.Object(DS).type, "DaemonSet")
        self.assertEqual(pure.Object(json.dumps(NODES[0])).type, "Node")
        self.assertEqual(pure.Object([{"key": "a", "effect": "NoSchedule"}], "[]Taint").type, "[]Taint")
        self.assertEqual(pure.Object(DS["spec"]["template"], "Pod").type, "Pod")
        self.assertEqual(pure.Object(NODES, "List").type, "List")
        self.assertEqual(pure.Object(None, "Affinity").type, "Affinity")
        with self.assertRaises(TypeMismatch) as cm:
            pure.Object({"key": 5}, "Toleration")
        self.assertEqual((cm.exception.path, cm.exception.source), ("key", "toleration"))
        with self.assertRaises(InvalidArgument):
            pure.Object({}, "Pod!")
        with self.assertRaises(InvalidArgument):  # an object of another type than the function's
            pure.tolerates_taint(pure.Object(NODES[0]), pure.Object({"key": "a"}, "Taint"))

    def test_every_function_on_objects(self):
        d = pure.Object(DS)
        tmpl = DS["spec"]["template"]
        pod = pure.new_pod(DS, "n1", "h")
        for n in NODES:
            o = pure.Object(n)
            self.assertEqual(pure.node_should_run(d, o), pure.node_should_run(DS, n))
            self.assertEqual(pure.required_node_affinity_match(pure.Object(tmpl, "Pod"), o),
                             pure.required_node_affinity_match(tmpl, n))
            taints = n.get("spec", {}).get("taints", [])
            for effects in (0, pure.NO_SCHEDULE | pure.NO_EXECUTE, ["NoExecute"], []):
                want = pure.find_untolerated_taint(taints, tmpl["spec"]["tolerations"], effects)
                self.assertEqual(pure.find_untolerated_taint(o, d, effects), want)
                self.assertEqual(pure.find_untolerated_taint(pure.Object(taints, "[]Taint"), d, effects), want)
            objs = [p for p in [pure.new_pod(DS, "x", "h")]]
            self.assertEqual(pure.scheduler_filter(pure.Object(pod, "Pod"), o, pure.Object(objs, "List")),
                             pure.scheduler_filter(pod, n, objs))
        self.assertEqual(pure.new_pod(d, "n1", "h"), pod)
        self.assertEqual(pure.add_daemon_tolerations(pure.Object(tmpl, "Pod")), pure.add_daemon_tolerations(tmpl))
        aff = tmpl["spec"]["affinity"]
        self.assertEqual(pure.replace_node_name_affinity(pure.Object(aff, "Affinity"), "n1"),
                         pure.replace_node_name_affinity(aff, "n1"))
        objects = NODES + [pod]
        self.assertEqual(pure.rolling_update(d, pure.Object(objects, "List"), "h", 0),
                         pure.rolling_update(DS, objects, "h", 0))
        # an object is parsed once and reused: the same answers again
        self.assertEqual(pure.new_pod(d, "n1", "h"), pod)

    def test_the_filter_says_every_case(self):
        taints = [{"key": "a", "effect": ""}, {"key": "b", "effect": "Weird"}, {"key": "c", "effect": "NoSchedule"}]
        t = pure.Object(taints, "[]Taint")
        none = pure.Object([], "[]Toleration")
        self.assertEqual(pure.find_untolerated_taint(t, none)["key"], "a")  # nil: every taint
        self.assertEqual(pure.find_untolerated_taint(t, none, None)["key"], "a")
        self.assertIsNone(pure.find_untolerated_taint(t, none, []))  # empty: none
        self.assertEqual(pure.find_untolerated_taint(t, none, ["Weird"])["key"], "b")  # one unknown effect
        self.assertIsNone(pure.find_untolerated_taint(t, none, ["weird"]))  # compared exactly
        self.assertEqual(pure.find_untolerated_taint(t, none, [""])["key"], "a")
        self.assertEqual(pure.find_untolerated_taint(taints, [], ["Weird"])["key"], "b")  # on text too
        self.assertIsNone(pure.find_untolerated_taint(taints, [], []))
        with self.assertRaises(ValueError):  # "every unknown effect" has no list of strings
            pure.find_untolerated_taint(t, none, pure.OTHER_EFFECT)
        n4 = pure.Object(NODES[3])
        self.assertEqual(pure.find_untolerated_taint(n4, none, ["NoExecute"]),
                         {"key": "gone", "effect": "NoExecute", "timeAdded": "2026-01-02T03:04:05Z"})

    def test_batches_give_the_single_answers(self):
        d = pure.Object(DS)
        nodes = pure.ObjectArray([pure.Object(n) for n in NODES])
        want = [(v["shouldRun"], v["shouldContinueRunning"]) for v in (pure.node_should_run(DS, n) for n in NODES)]
        self.assertEqual(pure.node_should_run_nodes(d, nodes), want)
        self.assertEqual(pure.node_should_run_nodes(d, list(nodes.objects)), want)  # a list, converted
        self.assertIn((True, True), want)
        self.assertIn((False, False), want)
        for i, n in enumerate(nodes.objects):
            self.assertEqual(pure.node_should_run_daemonsets([d, d], n), [want[i], want[i]])
        tmpl = pure.Object(DS["spec"]["template"], "Pod")
        self.assertEqual(pure.required_node_affinity_match_nodes(tmpl, nodes),
                         [pure.required_node_affinity_match(DS["spec"]["template"], n) for n in NODES])
        self.assertEqual(pure.find_untolerated_taint_nodes(nodes, d, ["NoSchedule", "NoExecute"]),
                         [None, None, None, 1, 0])
        self.assertEqual(pure.node_should_run_nodes(d, []), [])
        with self.assertRaises(InvalidArgument):
            pure.node_should_run_nodes(d, [pure.Object(NODES[0]), d])

    def test_objects_of_a_cluster(self):
        c = Cluster()
        c.load(json.dumps({"kind": "List", "apiVersion": "v1", "items": [DS] + NODES}))
        d = pure.Object.from_cluster(c, "DaemonSet", "kube-system", "agent")
        n = pure.Object.from_cluster(c, "Node", None, "n1")
        want = pure.node_should_run(DS, NODES[0])
        c.close()  # the objects are copies
        self.assertEqual(pure.node_should_run(d, n), want)

    def test_objects_shared_by_threads(self):
        d = pure.Object(DS)
        nodes = pure.ObjectArray([pure.Object(n) for n in NODES])
        want = pure.node_should_run_nodes(d, nodes)
        bad = []

        def work():
            for _ in range(200):
                if pure.node_should_run_nodes(d, nodes) != want:
                    bad.append(1)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(bad, [])

    def test_terms_that_do_not_parse(self):
        pod = {"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "Gt", "values": ["x"]}]}]}}}}}
        with self.assertRaises(InvalidValue):
            pure.required_node_affinity_match(pure.Object(pod, "Pod"), pure.Object(NODES[0]))
        with self.assertRaises(InvalidValue):
            pure.required_node_affinity_match_nodes(pure.Object(pod, "Pod"), [pure.Object(NODES[0])])


if __name__ == "__main__":
    unittest.main()
