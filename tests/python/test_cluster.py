"""ctypes tests for the snapshot: ds_cluster_new/free/copy/load/load_file/
apply_events/remove/count/summary/get, with the sample cluster and errors."""

import json
import os
import shutil
import tempfile
import unittest

import daemonset.cluster as cluster
from daemonset import DaemonSetError, Options

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "examples", "cluster")
NODES = os.path.join(SAMPLE, "nodes.yaml")
NODE_NAMES = ["cp-1", "gpu-1", "worker-1", "worker-2", "worker-3", "worker-4"]


def node(name, **labels):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}}


class LoadTest(unittest.TestCase):
    def test_sample_directory(self):
        with cluster.Cluster() as c:
            n = c.load_file(SAMPLE)
            s = c.summary()
            self.assertEqual(s["nodeNames"], NODE_NAMES)
            self.assertEqual(s["nodes"], 6)
            self.assertIn({"namespace": "kube-system", "name": "fluentd-logging"}, s["daemonSets"])
            self.assertIn({"namespace": "monitoring", "name": "node-exporter"}, s["daemonSets"])
            # the load count is every object of every file, and the summary adds up to it
            total = sum(s[k] for k in ("nodes", "pods", "daemonSetCount", "controllerRevisions",
                                       "podDisruptionBudgets", "priorityClasses", "persistentVolumeClaims",
                                       "persistentVolumes", "storageClasses", "csiNodes", "other"))
            self.assertEqual(n, total)
            for kind, key in (("Node", "nodes"), ("Pod", "pods"), ("DaemonSet", "daemonSetCount"),
                              ("ControllerRevision", "controllerRevisions"),
                              ("PodDisruptionBudget", "podDisruptionBudgets"),
                              ("PriorityClass", "priorityClasses"),
                              ("PersistentVolumeClaim", "persistentVolumeClaims"),
                              ("PersistentVolume", "persistentVolumes"), ("StorageClass", "storageClasses"),
                              ("CSINode", "csiNodes"), ("Other", "other")):
                self.assertEqual(c.count(kind), s[key], kind)
            self.assertEqual(c.count("Deployment"), 0)
            self.assertEqual(c.count("apps/Deployment"), 0)

    def test_list_stream_and_replace(self):
        with cluster.Cluster() as c:
            self.assertEqual(c.load_file(NODES), 6)
            # a NodeList's items take their kind from the list; a YAML stream with empty documents
            text = ("---\n# nothing here\n---\nkind: NodeList\napiVersion: v1\nitems:\n"
                    "- metadata: {name: extra-1, labels: {disk: ssd}}\n"
                    "- metadata: {name: worker-1, labels: {replaced: 'true'}}\n---\n")
            self.assertEqual(c.load(text), 2)
            self.assertEqual(c.count("Node"), 7)
            self.assertEqual(c.get("Node", None, "worker-1")["labels"], {"replaced": "true"})
            # concatenated JSON values, and a dict
            self.assertEqual(c.load(json.dumps(node("j1")) + "\n" + json.dumps(node("j2"))), 2)
            self.assertEqual(c.load(node("j3", a="b")), 1)
            self.assertEqual(c.summary()["nodeNames"][:4], ["cp-1", "extra-1", "gpu-1", "j1"])
            self.assertEqual(c.load(""), 0)

    def test_yaml_1_1(self):
        with cluster.Cluster() as c:
            # yes is a boolean in YAML 1.1, as Kubernetes reads it; 1_000 an integer
            c.load("kind: Node\nmetadata: {name: node-a}\nspec: {unschedulable: yes}\n"
                   "status: {allocatable: {pods: 1_000, cpu: '2'}}\n")
            view = c.get("Node", "", "node-a")
            self.assertIs(view["unschedulable"], True)
            self.assertEqual(view["allocatable"]["pods"], 1000)
            self.assertEqual(view["allocatable"]["milliCPU"], 2000)
            # the Norway problem: an unquoted NO is false, not a string
            with self.assertRaises(DaemonSetError) as cm:
                c.load("kind: Node\nmetadata:\n  name: m\n  labels: {country: NO}\n")
            e = cm.exception
            self.assertEqual((e.name, e.path, e.message), ("DS_ETYPE", "metadata.labels.country",
                                                           "expected string, got boolean"))
            self.assertEqual((e.source, e.line, e.column), ("document 1", 4, 12))  # at the key "country"
            self.assertEqual(c.count("Node"), 1)

    def test_all_or_nothing(self):
        with cluster.Cluster() as c:
            c.load_file(NODES)
            bad = "kind: Node\nmetadata: {name: fresh}\n---\nkind: Pod\nmetadata: {name: p, namespace: d}\n" \
                  "spec:\n  containers: [{name: a, resources: {requests: {cpu: 1x}}}]\n"
            with self.assertRaises(DaemonSetError) as cm:
                c.load(bad)
            e = cm.exception
            self.assertEqual(e.code, -5)
            self.assertEqual(e.name, "DS_EVALUE")
            self.assertEqual(e.path, "spec.containers[0].resources.requests.cpu")
            self.assertEqual((e.source, e.line, e.column), ("document 2", 7, 49))  # at the key "cpu"
            self.assertIn("quantities must match the regular expression", e.message)
            self.assertEqual(c.count("Node"), 6)
            self.assertEqual(c.count("Pod"), 0)

    def test_errors(self):
        with cluster.Cluster() as c:
            with self.assertRaises(DaemonSetError) as cm:
                c.load('{"kind":"List","items":[{"metadata":{"name":"a"}}]}')
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EMISSING", "items[0].kind"))
            with self.assertRaises(DaemonSetError) as cm:
                c.load("[1, 2]")
            self.assertEqual(cm.exception.name, "DS_ETYPE")
            self.assertEqual(cm.exception.message, "expected a Kubernetes object, got array")
            with self.assertRaises(DaemonSetError) as cm:
                c.load('{"kind": "Node", "metadata": {"name": "a"}')
            self.assertEqual(cm.exception.name, "DS_ESYNTAX")
            self.assertEqual(cm.exception.line, 1)
            with self.assertRaises(DaemonSetError) as cm:
                c.load("kind: Node\nmetadata: {name: a, name: b}\n")
            self.assertEqual(cm.exception.name, "DS_ESYNTAX")
            self.assertEqual(cm.exception.message, 'key "name" already set in map')
            self.assertEqual((cm.exception.line, cm.exception.column), (2, 27))
            with self.assertRaises(DaemonSetError) as cm:
                c.load("kind: DaemonSet\napiVersion: extensions/v1beta1\nmetadata: {name: x, namespace: y}\n")
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EUNSUPPORTED", "apiVersion"))
            with self.assertRaises(DaemonSetError) as cm:
                c.load_file(os.path.join(SAMPLE, "does-not-exist.yaml"))
            self.assertEqual(cm.exception.name, "DS_EIO")
            self.assertEqual(c.count("Node"), 0)

    def test_load_file_names_the_file(self):
        d = tempfile.mkdtemp()
        try:
            shutil.copy(NODES, os.path.join(d, "a.yaml"))
            with open(os.path.join(d, "b.yml"), "w") as f:
                f.write("kind: Node\nmetadata: {name: n2}\n---\nkind: Node\nmetadata:\n  name: n3\n  labels: {x: 1}\n")
            with open(os.path.join(d, "notes.txt"), "w") as f:
                f.write("not a manifest")
            with cluster.Cluster() as c:
                with self.assertRaises(DaemonSetError) as cm:
                    c.load_file(d)
                e = cm.exception
                self.assertEqual(e.source, os.path.join(d, "b.yml") + ": document 2")
                self.assertEqual((e.line, e.column), (7, 12))  # the key "x" of the labels
                self.assertEqual((e.name, e.path), ("DS_ETYPE", "metadata.labels.x"))
                self.assertEqual(c.count("Node"), 0)  # a.yaml was not kept either
                os.remove(os.path.join(d, "b.yml"))
                self.assertEqual(c.load_file(d), 6)  # notes.txt is not read
        finally:
            shutil.rmtree(d)

    def test_limits(self):
        with cluster.Cluster(Options(maxObjects=2)) as c:
            with self.assertRaises(DaemonSetError) as cm:
                c.load("kind: NodeList\nitems: [{metadata: {name: a}}, {metadata: {name: b}}, {metadata: {name: c}}]\n")
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_ELIMIT", "items[2]"))
        with cluster.Cluster(Options(maxDocumentBytes=100)) as c:
            with self.assertRaises(DaemonSetError) as cm:
                c.load_file(NODES)
            self.assertEqual(cm.exception.name, "DS_ELIMIT")
            self.assertTrue(cm.exception.source.endswith("nodes.yaml"))


class EventsTest(unittest.TestCase):
    def test_events(self):
        with cluster.Cluster.from_file(NODES) as c:
            events = [
                {"type": "ADDED", "object": node("new-1")},
                {"type": "BOOKMARK", "object": {"kind": "Node", "metadata": {"resourceVersion": "12"}}},
                {"type": "MODIFIED", "object": node("worker-1", tier="edge")},
                {"type": "DELETED", "object": node("worker-4")},
                {"type": "DELETED", "object": node("never-there")},
            ]
            self.assertEqual(c.apply_events(events), 4)  # the BOOKMARK is not counted
            names = c.summary()["nodeNames"]
            self.assertIn("new-1", names)
            self.assertNotIn("worker-4", names)
            self.assertEqual(c.get("Node", None, "worker-1")["labels"], {"tier": "edge"})
            # a watch stream as text
            self.assertEqual(c.apply_events('{"type":"DELETED","object":%s}\n{"type":"ADDED","object":%s}'
                                            % (json.dumps(node("new-1")), json.dumps(node("new-2")))), 2)
            self.assertEqual(c.count("Node"), 6)

    def test_event_errors(self):
        with cluster.Cluster.from_file(NODES) as c:
            with self.assertRaises(DaemonSetError) as cm:
                c.apply_events([{"type": "ADDED", "object": node("x")}, {"type": "UPDATED", "object": node("y")}])
            e = cm.exception
            self.assertEqual((e.name, e.path, e.source), ("DS_EVALUE", "type", "JSON value 2"))
            self.assertEqual(e.message,
                             'unsupported value "UPDATED": expected ADDED, MODIFIED, DELETED, BOOKMARK or ERROR')
            self.assertNotIn("x", c.summary()["nodeNames"])  # all or nothing
            with self.assertRaises(DaemonSetError) as cm:
                c.apply_events({"type": "ERROR", "object": {"kind": "Status", "code": 410,
                                                            "message": "too old resource version: 1 (5)"}})
            self.assertEqual(cm.exception.name, "DS_ETRANSPORT")
            self.assertEqual(cm.exception.code, -13)
            self.assertEqual(cm.exception.message,
                             "the watch ended with an error: too old resource version: 1 (5) (relist)")
            with self.assertRaises(DaemonSetError) as cm:
                c.apply_events({"type": "ADDED"})
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EMISSING", "object"))
            with self.assertRaises(DaemonSetError) as cm:
                c.apply_events({"type": "ADDED",
                                "object": {"kind": "Node", "metadata": {"name": "q", "labels": {"a": 1}}}})
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_ETYPE", "object.metadata.labels.a"))


class ObjectsTest(unittest.TestCase):
    def test_remove_copy_get(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            pods = c.count("Pod")
            c.load("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop, uid: d1}\n")
            self.assertEqual(c.count("Other"), 1)
            with c.copy() as w:
                w.remove("Node", None, "worker-4")
                w.remove("apps/Deployment", "shop", "web")
                self.assertEqual(w.count("Node"), 5)
                self.assertEqual(w.count("Other"), 0)
                self.assertEqual(c.count("Node"), 6)  # the original is independent
                self.assertEqual(c.count("Other"), 1)
                self.assertEqual(w.count("Pod"), pods)
            ds = c.get("DaemonSet", "kube-system", "fluentd-logging")
            self.assertEqual(ds["kind"], "DaemonSet")
            self.assertEqual(ds["spec"]["selector"], {"matchLabels": {"name": "fluentd"}})
            n = c.get("Node", None, "gpu-1")
            self.assertEqual(n["taints"], [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}])
            self.assertEqual(n["allocatable"]["scalar"], {"nvidia.com/gpu": 4})
            self.assertEqual(n["allocatable"]["memory"], 62 << 30)

    def test_pod_view(self):
        with cluster.Cluster.from_file(NODES) as c:
            c.load("kind: Pod\nmetadata:\n  name: p\n  namespace: d\n  labels: {app: x}\n"
                   "  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: u1, controller: true}]\n"
                   "spec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
                   "        nodeSelectorTerms:\n"
                   "        - matchFields: [{key: metadata.name, operator: In, values: [worker-2]}]\n"
                   "  containers: [{name: a, resources: {requests: {cpu: 250m, memory: 64Mi}}}]\n"
                   "status: {phase: Pending}\n")
            p = c.get("Pod", "d", "p")
            self.assertEqual(p["targetNode"], "worker-2")
            self.assertNotIn("nodeName", p)
            self.assertEqual(p["phase"], "Pending")
            self.assertIs(p["ready"], False)
            self.assertEqual(p["controller"], {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "ds", "uid": "u1"})
            self.assertEqual(p["requests"]["milliCPU"], 250)
            self.assertEqual(p["requests"]["memory"], 64 << 20)

    def test_object_errors(self):
        with cluster.Cluster.from_file(NODES) as c:
            with self.assertRaises(DaemonSetError) as cm:
                c.remove("Node", None, "nope")
            self.assertEqual((cm.exception.name, cm.exception.message), ("DS_ENOTFOUND", "Node nope not found"))
            with self.assertRaises(DaemonSetError) as cm:
                c.remove("Node", "kube-system", "worker-1")  # nodes have no namespace
            self.assertEqual(cm.exception.name, "DS_ENOTFOUND")
            with self.assertRaises(DaemonSetError) as cm:
                c.remove("Deployment", "default", "web")
            self.assertEqual(cm.exception.name, "DS_EARG")
            self.assertTrue(cm.exception.message.startswith('unknown kind "Deployment": expected Node, Pod'))
            with self.assertRaises(DaemonSetError) as cm:
                c.get("DaemonSet", "kube-system", "nope")
            self.assertEqual((cm.exception.name, cm.exception.message), ("DS_ENOTFOUND", "DaemonSet nope not found"))
            c.load("kind: PriorityClass\napiVersion: scheduling.k8s.io/v1\nmetadata: {name: low}\nvalue: -5\n")
            self.assertEqual(c.count("PriorityClass"), 1)
            with self.assertRaises(DaemonSetError) as cm:
                c.get("PriorityClass", None, "low")
            self.assertEqual((cm.exception.name, cm.exception.message),
                             ("DS_EARG", "PriorityClass objects are not kept in full"))

    def test_close(self):
        c = cluster.Cluster()
        c.close()
        c.close()
        self.assertTrue(c.closed)
        with self.assertRaises(ValueError):
            c.count("Node")


if __name__ == "__main__":
    unittest.main()
