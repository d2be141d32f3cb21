"""ctypes tests for placement: ds_should_run, ds_should_run_json, ds_explain
and ds_fit on the sample cluster, with upstream's verdicts and messages."""

import os
import textwrap
import unittest

import daemonset.cluster as cluster
import daemonset.placement as placement
from daemonset import DaemonSetError, Options

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "examples", "cluster")
NODES = os.path.join(SAMPLE, "nodes.yaml")
DAEMONSETS = os.path.join(SAMPLE, "daemonsets.yaml")

UNTOLERATED = "node(s) had untolerated taint(s)"
AFFINITY = "node(s) didn't match Pod's node affinity/selector"

# DaemonSets over a few nodes, one per rule of NodeShouldRunDaemonPod.
RULES = textwrap.dedent("""\
    kind: NodeList
    items:
    - metadata: {name: plain, labels: {disk: ssd}}
    - metadata: {name: noschedule}
      spec: {taints: [{key: dedicated, value: db, effect: NoSchedule}]}
    - metadata: {name: noexecute}
      spec: {taints: [{key: dedicated, value: db, effect: PreferNoSchedule}, {key: evict, effect: NoExecute}]}
    - metadata: {name: both}
      spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}, {key: evict, effect: NoExecute}]}
    - metadata: {name: notready}
      spec:
        taints:
        - {key: node.kubernetes.io/not-ready, effect: NoExecute}
        - {key: node.kubernetes.io/not-ready, effect: NoSchedule}
    - metadata: {name: netunavailable}
      spec: {taints: [{key: node.kubernetes.io/network-unavailable, effect: NoSchedule}]}
    - metadata: {name: cordoned}
      spec:
        unschedulable: true
        taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}]
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: plain, namespace: d, uid: u1}
    spec:
      selector: {matchLabels: {app: z}}
      template:
        metadata: {labels: {app: z}}
        spec: {containers: [{name: c, image: i}]}
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: hostnet, namespace: d, uid: u2}
    spec:
      selector: {matchLabels: {app: h}}
      template:
        metadata: {labels: {app: h}}
        spec: {hostNetwork: true, containers: [{name: c, image: i}]}
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: selector, namespace: d, uid: u3}
    spec:
      selector: {matchLabels: {app: s}}
      template:
        metadata: {labels: {app: s}}
        spec: {nodeSelector: {disk: hdd}, containers: [{name: c, image: i}]}
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: nodename, namespace: d, uid: u4}
    spec:
      selector: {matchLabels: {app: nn}}
      template:
        metadata: {labels: {app: nn}}
        spec: {nodeName: plain, containers: [{name: c, image: i}]}
    """)


class ShouldRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = cluster.Cluster()
        cls.c.load(RULES)

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def verdict(self, ds, node):
        return placement.should_run(self.c, "d", ds, node)

    def test_table(self):
        table = {
            # node: (plain, hostnet)
            "plain": ((True, True), (True, True)),
            "noschedule": ((False, True), (False, True)),  # NoSchedule stops new pods, keeps old ones
            "noexecute": ((False, False), (False, False)),  # NoExecute evicts; PreferNoSchedule never counts
            "notready": ((False, True), (False, True)),  # not-ready:NoExecute is tolerated, :NoSchedule is not
            "netunavailable": ((False, True), (True, True)),  # tolerated by hostNetwork pods only
            "cordoned": ((True, True), (True, True)),  # the default unschedulable toleration
        }
        for node, (plain, hostnet) in table.items():
            self.assertEqual(self.verdict("plain", node), plain, node)
            self.assertEqual(self.verdict("hostnet", node), hostnet, node)
        self.assertEqual(self.verdict("selector", "plain"), (False, False))
        self.assertEqual(self.verdict("nodename", "plain"), (True, True))
        self.assertEqual(self.verdict("nodename", "cordoned"), (False, False))

    def test_reasons(self):
        r = placement.should_run_json(self.c, "d", "plain", "noexecute")
        self.assertEqual((r["node"], r["shouldRun"], r["shouldContinueRunning"]), ("noexecute", False, False))
        self.assertEqual(r["reasons"], [{
            "plugin": "TaintToleration", "message": UNTOLERATED,
            "detail": "node(s) had untolerated taint {evict: } (effect NoExecute)",
            "field": "spec.template.spec.tolerations", "nodeField": "spec.taints[1]",
            "taint": {"key": "evict", "effect": "NoExecute"}}])
        # the first untolerated taint decides shouldRun; the NoExecute one that evicts is named too
        r = placement.should_run_json(self.c, "d", "plain", "both")
        self.assertEqual((r["shouldRun"], r["shouldContinueRunning"]), (False, False))
        self.assertEqual([(x["nodeField"], x["taint"]["effect"]) for x in r["reasons"]],
                         [("spec.taints[0]", "NoSchedule"), ("spec.taints[1]", "NoExecute")])
        self.assertEqual(r["reasons"][0]["detail"], "node(s) had untolerated taint {dedicated: infra} (effect NoSchedule)")
        self.assertEqual(r["reasons"][1]["detail"],
                         "node(s) had untolerated taint {evict: } (effect NoExecute: running pods are evicted)")
        r = placement.should_run_json(self.c, "d", "plain", "notready")
        self.assertEqual(r["reasons"][0]["nodeField"], "spec.taints[1]")
        self.assertTrue(r["reasons"][0]["detail"].endswith("(effect NoSchedule: existing pods may stay, no new ones)"))
        r = placement.should_run_json(self.c, "d", "selector", "plain")
        self.assertEqual(r["reasons"], [{"plugin": "NodeAffinity", "message": AFFINITY,
                                         "detail": 'label disk is "ssd", nodeSelector wants "hdd"',
                                         "field": "spec.template.spec.nodeSelector"}])
        r = placement.should_run_json(self.c, "d", "nodename", "cordoned")
        self.assertEqual(r["reasons"][0]["plugin"], "NodeName")
        self.assertEqual(r["reasons"][0]["message"], "node(s) didn't match the requested node name")
        self.assertEqual(placement.should_run_json(self.c, "d", "plain", "plain")["reasons"], [])

    def test_sample(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            self.assertEqual(placement.should_run(c, "kube-system", "fluentd-logging", "cp-1"), (False, True))
            self.assertEqual(placement.should_run(c, "kube-system", "fluentd-logging", "worker-3"), (True, True))
            self.assertEqual(placement.should_run(c, "kube-system", "nvidia-device-plugin", "gpu-1"), (True, True))
            self.assertEqual(placement.should_run(c, "kube-system", "nvidia-device-plugin", "worker-1"), (False, False))
            r = placement.should_run_json(c, "kube-system", "nvidia-device-plugin", "worker-1")
            self.assertEqual(r["reasons"][0]["detail"],
                             "node has no label accelerator (nodeSelector wants accelerator=nvidia)")

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            placement.should_run(self.c, "d", "nope", "plain")
        self.assertEqual(cm.exception.name, "DS_ENOTFOUND")
        self.assertEqual(cm.exception.message, 'daemonsets.apps "nope" not found')
        with self.assertRaises(DaemonSetError) as cm:
            placement.should_run_json(self.c, "d", "plain", "nope")
        self.assertEqual((cm.exception.name, cm.exception.message), ("DS_ENOTFOUND", 'nodes "nope" not found'))
        with self.assertRaises(DaemonSetError) as cm:
            placement.should_run(self.c, None, "plain", "plain")  # DaemonSets are namespaced
        self.assertEqual(cm.exception.name, "DS_ENOTFOUND")


class ExplainTest(unittest.TestCase):
    def test_sample(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            r = placement.explain(c, "kube-system", "fluentd-logging")
            self.assertEqual(r["daemonSet"], {"namespace": "kube-system", "name": "fluentd-logging"})
            self.assertEqual(r["nodes"], 6)
            self.assertEqual([row["node"] for row in r["rows"]], c.summary()["nodeNames"])
            rows = {row["node"]: row for row in r["rows"]}
            self.assertEqual(rows["cp-1"]["status"], "not-placed" if not rows["cp-1"]["pods"] else "kept")
            self.assertEqual(rows["cp-1"]["reasons"][0]["taint"], {"key": "node-role.kubernetes.io/control-plane",
                                                                   "effect": "NoSchedule"})
            self.assertEqual(rows["gpu-1"]["reasons"][0]["nodeField"], "spec.taints[0]")
            counts = {}
            for row in r["rows"]:
                counts[row["status"]] = counts.get(row["status"], 0) + 1
            self.assertEqual(r["summary"], counts)

    def test_statuses(self):
        with cluster.Cluster.from_file(NODES) as c:
            c.load_file(DAEMONSETS)
            owner = "{apiVersion: apps/v1, kind: DaemonSet, name: fluentd-logging, " \
                    "uid: 3f1a2b3c-0002-4000-8000-000000000001, controller: true}"
            ready = "conditions: [{type: Ready, status: 'True', lastTransitionTime: '2026-12-01T00:00:00Z'}]"

            def pod(name, where, phase="Running"):
                return ("---\nkind: Pod\nmetadata:\n  name: %s\n  namespace: kube-system\n  uid: u-%s\n"
                        "  labels: {name: fluentd}\n  ownerReferences: [%s]\n"
                        "spec:\n  %s\n  containers: [{name: f, image: i}]\nstatus: {phase: %s%s}\n"
                        % (name, name, owner, where, phase, ", " + ready if phase == "Running" else ""))
            pin = ("affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                   "{nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [worker-2]}]}]}}}")
            c.load(pod("f-placed", "nodeName: worker-1") + pod("f-pending", pin, phase="Pending")
                   + pod("f-kept", "nodeName: cp-1") + pod("f-evict", "nodeName: worker-3"))
            # worker-3 gets an untolerated NoExecute taint; worker-4 is full
            c.apply_events({"type": "MODIFIED", "object": {"kind": "Node", "apiVersion": "v1",
                            "metadata": {"name": "worker-3"},
                            "spec": {"taints": [{"key": "maintenance", "effect": "NoExecute"}]},
                            "status": {"allocatable": {"cpu": "8", "memory": "31Gi", "pods": "110"}}}})
            c.load("kind: Pod\nmetadata: {name: hog, namespace: default, uid: u-hog}\n"
                   "spec:\n  nodeName: worker-4\n  priority: -10\n"
                   "  containers: [{name: a, resources: {requests: {memory: 2900Mi}}}]\nstatus: {phase: Running}\n")
            r = placement.explain(c, "kube-system", "fluentd-logging")
            rows = {row["node"]: row for row in r["rows"]}
            self.assertEqual({n: rows[n]["status"] for n in rows}, {
                "cp-1": "kept", "gpu-1": "not-placed", "worker-1": "placed", "worker-2": "pending",
                "worker-3": "evict", "worker-4": "needs-preemption"})
            self.assertEqual(rows["worker-2"]["pods"], [{"name": "f-pending", "phase": "Pending", "ready": False,
                                                         "bound": False}])
            w4 = rows["worker-4"]
            self.assertEqual(w4["scheduler"][0]["message"], "Insufficient memory")
            self.assertEqual(w4["scheduler"][0]["resource"], {"requested": 200 << 20, "free": (3 << 30) - (2900 << 20),
                                                              "used": 2900 << 20, "allocatable": 3 << 30})
            self.assertEqual(w4["preemption"], {"possible": True, "priority": 0, "pdbViolations": 0,
                                                "victims": [{"namespace": "default", "name": "hog", "priority": -10}]})
            # without a lower-priority victim the node is unschedulable
            c.load("kind: Pod\nmetadata: {name: hog, namespace: default, uid: u-hog}\n"
                   "spec:\n  nodeName: worker-4\n  priority: 10\n"
                   "  containers: [{name: a, resources: {requests: {memory: 2900Mi}}}]\nstatus: {phase: Running}\n")
            rows = placement.explain(c, "kube-system", "fluentd-logging")["rows"]
            w4 = {row["node"]: row for row in rows}["worker-4"]
            self.assertEqual(w4["status"], "unschedulable")
            self.assertEqual(w4["preemption"], {"possible": False, "priority": 0,
                                                "message": "No preemption victims found for incoming pod"})
            self.assertEqual(r["summary"], {"kept": 1, "not-placed": 1, "placed": 1, "pending": 1, "evict": 1,
                                            "needs-preemption": 1})

    def test_errors(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            with self.assertRaises(DaemonSetError) as cm:
                placement.explain(c, "default", "fluentd-logging")
            self.assertEqual(cm.exception.name, "DS_ENOTFOUND")
            self.assertEqual(cm.exception.message, 'daemonsets.apps "fluentd-logging" not found')


class FitTest(unittest.TestCase):
    NOT_HELPFUL = {"possible": False, "victims": [], "pdbViolations": 0,
                   "message": "Preemption is not helpful for scheduling"}
    REQUESTS = "spec.containers[*].resources.requests"

    def test_fit(self):
        with cluster.Cluster.from_file(NODES) as c:
            pod = {"kind": "Pod", "metadata": {"name": "big", "namespace": "default"},
                   "spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "9", "memory": "1Gi"}}}]}}
            r = placement.fit(c, pod, "worker-1")
            self.assertEqual((r["node"], r["fits"], r["priority"]), ("worker-1", False, 0))
            self.assertEqual(r["reasons"], [{"plugin": "NodeResourcesFit", "code": "UnschedulableAndUnresolvable", "message": "Insufficient cpu",
                                             "field": self.REQUESTS,
                                             "resource": {"requested": 9000, "free": 8000, "used": 0,
                                                          "allocatable": 8000}}])
            # more than the whole node: UnschedulableAndUnresolvable, so Preempt does not try the node
            self.assertEqual(r["preemption"], self.NOT_HELPFUL)
            pod["spec"]["preemptionPolicy"] = "Never"  # PodEligibleToPreemptOthers comes first
            self.assertEqual(placement.fit(c, pod, "worker-1")["preemption"]["message"],
                             "not eligible due to preemptionPolicy=Never.")
            r = placement.fit(c, "kind: Pod\nmetadata: {name: small}\nspec: {containers: [{name: a}]}\n", "worker-4")
            self.assertEqual(r["reasons"], [{"plugin": "TaintToleration", "code": "UnschedulableAndUnresolvable", "message": UNTOLERATED,
                                             "field": "spec.tolerations", "nodeField": "spec.taints[0]"}])
            self.assertEqual(r["preemption"], self.NOT_HELPFUL)
            r = placement.fit(c, "kind: Pod\nmetadata: {name: small}\n"
                                 "spec: {tolerations: [{operator: Exists}], containers: [{name: a}]}\n", "worker-4")
            self.assertTrue(r["fits"])
            self.assertNotIn("preemption", r)

    def test_fit_fields(self):
        """Each reason names the pod's field to change (and the node's that decided it)."""
        with cluster.Cluster.from_file(NODES) as c:
            r = placement.fit(c, "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a}]}\n", "worker-3")
            self.assertEqual(r["reasons"], [
                {"plugin": "NodeUnschedulable", "code": "UnschedulableAndUnresolvable", "message": "node(s) were unschedulable",
                 "field": "spec.tolerations", "nodeField": "spec.unschedulable"},
                {"plugin": "TaintToleration", "code": "UnschedulableAndUnresolvable", "message": UNTOLERATED,
                 "field": "spec.tolerations", "nodeField": "spec.taints[0]"}])
            r = placement.fit(c, "kind: Pod\nmetadata: {name: p}\n"
                                 "spec: {nodeSelector: {disk: hdd}, containers: [{name: a}]}\n", "worker-1")
            self.assertEqual(r["reasons"], [{"plugin": "NodeAffinity", "code": "UnschedulableAndUnresolvable", "message": AFFINITY,
                                             "field": "spec.nodeSelector"}])
            r = placement.fit(c, textwrap.dedent("""\
                kind: Pod
                metadata: {name: p}
                spec:
                  containers: [{name: a}]
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: In, values: [hdd]}]}]
                """), "worker-1")
            self.assertEqual(r["reasons"], [{"plugin": "NodeAffinity", "code": "UnschedulableAndUnresolvable", "message": AFFINITY, "field":
                                             "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"}])
            c.load("kind: Pod\nmetadata: {name: web, namespace: default}\n"
                   "spec: {nodeName: worker-1, containers: [{name: a, ports: [{containerPort: 80, hostPort: 80}]}]}\n")
            r = placement.fit(c, "kind: Pod\nmetadata: {name: p}\n"
                                 "spec: {containers: [{name: a, ports: [{containerPort: 8080, hostPort: 80}]}]}\n",
                              "worker-1")
            self.assertEqual(r["reasons"], [{"plugin": "NodePorts", "code": "Unschedulable", "field": "spec.containers[*].ports",
                                             "message": "node(s) didn't have free ports for the requested pod ports"}])
            # a port conflict is Unschedulable: preemption is tried (web has the same priority: no victims)
            self.assertEqual(r["preemption"]["message"], "No preemption victims found for incoming pod")

    def test_fit_sidecars(self):
        """PodRequests (component-helpers): sidecars (restartPolicy: Always) add to the containers."""
        with cluster.Cluster.from_file(NODES) as c:
            pod = textwrap.dedent("""\
                kind: Pod
                metadata: {name: p}
                spec:
                  initContainers: [{name: proxy, restartPolicy: Always, resources: {requests: {cpu: "4"}}}]
                  containers: [{name: a, resources: {requests: {cpu: "5"}}}]
                """)
            r = placement.fit(c, pod, "worker-1")
            self.assertEqual(r["reasons"], [{"plugin": "NodeResourcesFit", "code": "UnschedulableAndUnresolvable", "message": "Insufficient cpu",
                                             "field": self.REQUESTS,
                                             "resource": {"requested": 9000, "free": 8000, "used": 0,
                                                          "allocatable": 8000}}])
            # a plain init container only needs the max of the two
            self.assertTrue(placement.fit(c, pod.replace("restartPolicy: Always, ", ""), "worker-1")["fits"])

    def test_preemption(self):
        with cluster.Cluster.from_file(NODES) as c:
            c.load("kind: Pod\nmetadata: {name: hog, namespace: default}\n"
                   "spec: {nodeName: worker-1, priority: -5,\n"
                   "       containers: [{name: a, resources: {requests: {cpu: '7'}}}]}\n"
                   "status: {phase: Running}\n")
            pod = "kind: Pod\nmetadata: {name: agent, namespace: kube-system}\n" \
                  "spec: {priority: 100, containers: [{name: a, resources: {requests: {cpu: '2'}}}]}\n"
            r = placement.fit(c, pod, "worker-1")
            self.assertFalse(r["fits"])
            self.assertEqual(r["preemption"], {"possible": True, "pdbViolations": 0,
                                               "victims": [{"namespace": "default", "name": "hog"}]})
            # the same pod checked in place: a snapshot pod with its name does not count against the node
            r = placement.fit(c, "kind: Pod\nmetadata: {name: hog, namespace: default}\n"
                                 "spec: {containers: [{name: a, resources: {requests: {cpu: '7'}}}]}\n", "worker-1")
            self.assertTrue(r["fits"])
            r = placement.fit(c, pod.replace("priority: 100", "priorityClassName: nope"), "worker-1")
            self.assertEqual(r["warning"], "no PriorityClass with name nope was found")

    def test_errors(self):
        with cluster.Cluster.from_file(NODES) as c:
            with self.assertRaises(DaemonSetError) as cm:
                placement.fit(c, "kind: Pod\nmetadata: {name: p}\nspec:\n  containers: "
                                 "[{name: a, ports: [{containerPort: 80, hostPort: 'x'}]}]\n", "worker-1")
            self.assertEqual((cm.exception.name, cm.exception.path),
                             ("DS_ETYPE", "spec.containers[0].ports[0].hostPort"))
            with self.assertRaises(DaemonSetError) as cm:
                placement.fit(c, "a: 1\n---\nb: 2\n", "worker-1")
            self.assertEqual((cm.exception.name, cm.exception.message),
                             ("DS_EARG", "expected one document, got several"))
            with self.assertRaises(DaemonSetError) as cm:
                placement.fit(c, "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a}]}\n", "nope")
            self.assertEqual(cm.exception.name, "DS_ENOTFOUND")


class FitErrorsTest(unittest.TestCase):
    """Errors that come before the pod's strings are read: safe with the defect too."""

    def test_errors(self):
        with cluster.Cluster.from_file(NODES) as c:
            with self.assertRaises(DaemonSetError) as cm:
                placement.fit(c, "[1]", "worker-1")
            self.assertEqual((cm.exception.name, cm.exception.message),
                             ("DS_ETYPE", "expected a Pod object, got array"))
            with self.assertRaises(DaemonSetError) as cm:
                placement.fit(c, "", "worker-1")
            self.assertEqual((cm.exception.name, cm.exception.message), ("DS_EMISSING", "the input holds no document"))
            with self.assertRaises(DaemonSetError) as cm:
                placement.fit(c, "kind: Pod\nmetadata: {name: p}\n", "nope", Options(maxDocumentBytes=1 << 20))
            self.assertEqual((cm.exception.name, cm.exception.message), ("DS_ENOTFOUND", 'nodes "nope" not found'))


if __name__ == "__main__":
    unittest.main()
