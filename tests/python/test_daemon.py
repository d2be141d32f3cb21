"""ctypes tests for the pod the controller creates, the template hash,
revision history, rollback and IsPodUpdated: ds_daemon_pod,
ds_template_hash, ds_daemon_history, ds_daemon_rollback and
ds_daemon_pod_updated on the sample cluster."""

import json
import os
import unittest

import daemonset.cluster as cluster
import daemonset.daemon as daemon
import daemonset.plan as planner
from daemonset import DaemonSetError

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "examples", "cluster")
NOW = "2026-12-02T15:00:00Z"
FLUENTD_UID = "3f1a2b3c-0002-4000-8000-000000000001"
CURRENT = "7c9d8b6f54"  # revision 2, fluent/fluentd:v1.17
OLD = "5b8f9c7d46"  # revision 1, fluent/fluentd:v1.16

# The controller's default DaemonSet tolerations, in the order it adds them.
DEFAULT_TOLERATIONS = [
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
    {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
]


def pin(node):
    return {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}]}


def revision_template(c, revision):
    """The pod template of the sample's ControllerRevision number revision, as the snapshot holds it (in the
    canonical form the API server serves, whatever the file's spelling)."""
    with open(os.path.join(SAMPLE, "controllerrevisions.json")) as f:
        items = json.load(f)["items"]
    for item in items:
        if item["metadata"]["ownerReferences"][0]["name"] == "fluentd-logging" and item["revision"] == revision:
            held = c.get("ControllerRevision", item["metadata"]["namespace"], item["metadata"]["name"])
            template = dict(held["data"]["spec"]["template"])
            del template["$patch"]
            return template
    raise KeyError(revision)


class SampleCase(unittest.TestCase):
    def setUp(self):
        self.c = cluster.Cluster.from_file(SAMPLE)

    def tearDown(self):
        self.c.close()


class PodTest(SampleCase):
    def test_pod_for_worker_4(self):
        pod = daemon.pod(self.c, "kube-system", "fluentd-logging", "worker-4")
        self.assertEqual((pod["apiVersion"], pod["kind"]), ("v1", "Pod"))
        meta = pod["metadata"]
        self.assertEqual(meta["generateName"], "fluentd-logging-")
        self.assertEqual(meta["namespace"], "kube-system")
        self.assertNotIn("name", meta)
        self.assertEqual(meta["labels"], {"name": "fluentd", "controller-revision-hash": CURRENT,
                                          "pod-template-generation": "2"})
        self.assertEqual(meta["ownerReferences"], [{
            "apiVersion": "apps/v1", "kind": "DaemonSet", "name": "fluentd-logging", "uid": FLUENTD_UID,
            "controller": True, "blockOwnerDeletion": True}])
        spec = pod["spec"]
        self.assertEqual(spec["affinity"], {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                                             pin("worker-4")}})
        self.assertEqual(spec["tolerations"], DEFAULT_TOLERATIONS)
        self.assertNotIn("nodeName", spec)  # the scheduler binds it
        self.assertEqual([c["image"] for c in spec["containers"]], ["fluent/fluentd:v1.17"])
        # exactly what a sync POSTs for the node
        create = [x for x in planner.plan(self.c, "kube-system", "fluentd-logging", NOW).creates
                  if x["node"] == "worker-4"]
        self.assertEqual(len(create), 1)
        self.assertEqual(create[0]["pod"], pod)

    def test_node_need_not_exist(self):
        pod = daemon.pod(self.c, "kube-system", "fluentd-logging", "not-a-node")
        self.assertEqual(pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"],
                         pin("not-a-node"))

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            daemon.pod(self.c, "kube-system", "nope", "worker-1")
        self.assertEqual((cm.exception.name, cm.exception.path, cm.exception.message),
                         ("DS_ENOTFOUND", "", 'daemonsets.apps "nope" not found'))
        with self.assertRaises(DaemonSetError) as cm:
            daemon.pod(self.c, "kube-system", "fluentd-logging", "")
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_EARG", "node must not be NULL or empty"))


class HistoryTest(SampleCase):
    def test_history(self):
        h = daemon.history(self.c, "kube-system", "fluentd-logging")
        self.assertEqual(h["hash"], CURRENT)
        self.assertEqual(h["current"], {"name": "fluentd-logging-" + CURRENT, "revision": 2, "exists": True})
        self.assertEqual(h["revisions"], [
            {"revision": 1, "name": "fluentd-logging-" + OLD, "hash": OLD, "current": False},
            {"revision": 2, "name": "fluentd-logging-" + CURRENT, "hash": CURRENT, "current": True}])
        # worker-1 and worker-3 run revision 2, worker-2 revision 1
        self.assertEqual(h["podsByHash"], {OLD: 1, CURRENT: 2})
        self.assertEqual((h["wouldDelete"], h["duplicates"], h["revisionHistoryLimit"]), ([], [], 10))

    def test_no_revision_yet(self):
        # node-exporter has no ControllerRevision in the sample: the next sync creates revision 1
        h = daemon.history(self.c, "monitoring", "node-exporter")
        self.assertEqual(h["revisions"], [])
        self.assertEqual(h["current"], {"name": "node-exporter-" + h["hash"], "revision": 1, "exists": False})
        self.assertEqual(h["hash"], planner.plan(self.c, "monitoring", "node-exporter", NOW).hash)

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            daemon.history(self.c, "default", "fluentd-logging")
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_ENOTFOUND", 'daemonsets.apps "fluentd-logging" not found'))


class RollbackTest(SampleCase):
    def test_rollback_to_revision_1(self):
        r = daemon.rollback(self.c, "kube-system", "fluentd-logging", 1)
        self.assertEqual(r["message"], "daemonset.apps/fluentd-logging rolled back")
        self.assertEqual((r["toRevision"], r["skipped"]), (1, False))
        old = revision_template(self.c, 1)
        self.assertEqual(old["spec"]["containers"][0]["image"], "fluent/fluentd:v1.16")
        # the patch kubectl sends is the revision's data; the DaemonSet gets the old template back
        self.assertEqual(r["patch"]["spec"]["template"]["$patch"], "replace")
        self.assertEqual(r["patch"]["spec"]["template"]["spec"], old["spec"])
        ds = r["daemonSet"]
        self.assertEqual(ds["metadata"]["name"], "fluentd-logging")
        self.assertEqual(ds["spec"]["template"]["spec"]["containers"][0]["image"], "fluent/fluentd:v1.16")
        self.assertEqual(ds["spec"]["template"]["spec"], old["spec"])
        # the snapshot is not changed
        self.assertEqual(daemon.history(self.c, "kube-system", "fluentd-logging")["hash"], CURRENT)

    def test_previous_is_the_default(self):
        self.assertEqual(daemon.rollback(self.c, "kube-system", "fluentd-logging"),
                         daemon.rollback(self.c, "kube-system", "fluentd-logging", 1))

    def test_skipped(self):
        r = daemon.rollback(self.c, "kube-system", "fluentd-logging", 2)
        self.assertEqual(r["message"], "daemonset.apps/fluentd-logging skipped rollback "
                                       "(current template already matches revision 2)")
        self.assertTrue(r["skipped"])

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            daemon.rollback(self.c, "kube-system", "fluentd-logging", 5)
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_ENOTFOUND", "unable to find specified revision 5 in history"))
        with self.assertRaises(DaemonSetError) as cm:
            daemon.rollback(self.c, "monitoring", "node-exporter")
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_ESTATE", "no last revision to roll back to"))
        with self.assertRaises(TypeError):
            daemon.rollback(self.c, "kube-system", "fluentd-logging", "1")
        with self.assertRaises(TypeError):
            daemon.rollback(self.c, "kube-system", "fluentd-logging", True)
        with self.assertRaises(OverflowError):
            daemon.rollback(self.c, "kube-system", "fluentd-logging", 2 ** 64 + 1)  # not revision 1


class PodUpdatedTest(SampleCase):
    def test_pods(self):
        # examples/cluster/pods.yaml: x7k2p on worker-1 and t5w9z on worker-3 run revision 2,
        # q8m4n on worker-2 still runs revision 1
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-x7k2p"), True)
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-t5w9z"), True)
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-q8m4n"), False)

    def test_after_rollback(self):
        # once the template is rolled back to revision 1, worker-2's pod runs the current revision
        ds = daemon.rollback(self.c, "kube-system", "fluentd-logging", 1)["daemonSet"]
        self.c.load(ds)
        self.assertEqual(daemon.history(self.c, "kube-system", "fluentd-logging")["hash"], OLD)
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-q8m4n"), True)
        # IsPodUpdated also accepts a pod whose pod-template-generation label equals the DaemonSet's
        # template generation, which the rolled-back object still carries ("2")
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-x7k2p"), True)
        # the API server bumps it with the template change (3): then only the hash counts
        ds["metadata"]["annotations"]["deprecated.daemonset.template.generation"] = "3"
        ds["metadata"]["generation"] = 3
        self.c.load(ds)
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-x7k2p"), False)
        self.assertIs(daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "fluentd-logging-q8m4n"), True)

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "nope")
        self.assertEqual((cm.exception.name, cm.exception.message), ("DS_ENOTFOUND", 'pods "nope" not found'))
        with self.assertRaises(DaemonSetError) as cm:
            daemon.pod_updated(self.c, "kube-system", "nope", "fluentd-logging-x7k2p")
        self.assertEqual(cm.exception.name, "DS_ENOTFOUND")
        with self.assertRaises(DaemonSetError) as cm:
            daemon.pod_updated(self.c, "kube-system", "fluentd-logging", "")
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_EARG", "pod_name is empty: expected a pod name"))


class TemplateHashTest(unittest.TestCase):
    TEMPLATE = {"metadata": {"labels": {"app": "agent"}},
                "spec": {"containers": [{"name": "agent", "image": "agent:1"}]}}

    def test_deterministic(self):
        h = daemon.template_hash(self.TEMPLATE)
        self.assertRegex(h, r"^[bcdfghjklmnpqrstvwxz2456789]{1,10}$")  # upstream's safe alphabet
        self.assertEqual(daemon.template_hash(self.TEMPLATE), h)
        # keys in another order, and YAML, are the same template
        self.assertEqual(daemon.template_hash(json.dumps(self.TEMPLATE, sort_keys=True)), h)
        self.assertEqual(daemon.template_hash(
            "spec:\n  containers: [{image: 'agent:1', name: agent}]\nmetadata:\n  labels: {app: agent}\n"), h)
        self.assertEqual(daemon.template_hash(json.dumps(self.TEMPLATE).encode()), h)

    def test_changes(self):
        h = daemon.template_hash(self.TEMPLATE)
        other = json.loads(json.dumps(self.TEMPLATE))
        other["spec"]["containers"][0]["image"] = "agent:2"
        self.assertNotEqual(daemon.template_hash(other), h)
        # collisionCount is part of the hash; None (not set) is not 0
        c0 = daemon.template_hash(self.TEMPLATE, 0)
        c1 = daemon.template_hash(self.TEMPLATE, 1)
        self.assertEqual(len({h, c0, c1}), 3)
        self.assertEqual(daemon.template_hash(self.TEMPLATE, 1), c1)
        self.assertEqual(daemon.template_hash(self.TEMPLATE, None), h)

    def test_sample_current_hash(self):
        # the sample's DaemonSet template is revision 2's data, and the matching revision's label
        # is what pods get; a DaemonSet without revisions is labelled with our hash
        with cluster.Cluster.from_file(SAMPLE) as c:
            ds = c.get("DaemonSet", "monitoring", "node-exporter")
            self.assertEqual(daemon.template_hash(ds["spec"]["template"]),
                             daemon.history(c, "monitoring", "node-exporter")["hash"])

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            daemon.template_hash("{bad")
        self.assertEqual((cm.exception.name, cm.exception.line, cm.exception.column), ("DS_ESYNTAX", 1, 4))
        # the type name is read before the parsed value is released
        with self.assertRaises(DaemonSetError) as cm:
            daemon.template_hash("[1, 2]")
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_ETYPE", "expected a PodTemplateSpec object, got array"))
        with self.assertRaises(DaemonSetError) as cm:
            daemon.template_hash("42")
        self.assertEqual(cm.exception.message, "expected a PodTemplateSpec object, got number")
        # status.collisionCount is never negative: -1 is the only stand-in for "not set"
        with self.assertRaises(DaemonSetError) as cm:
            daemon.template_hash(self.TEMPLATE, -5)
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_EARG", "collision_count is -5: expected -1 (not set) or a non-negative count"))
        self.assertNotEqual(daemon.template_hash(self.TEMPLATE, 2 ** 31 - 1), daemon.template_hash(self.TEMPLATE))
        with self.assertRaises(OverflowError):
            daemon.template_hash(self.TEMPLATE, 2 ** 31)  # would wrap to -2147483648 in ctypes
        with self.assertRaises(DaemonSetError) as cm:
            daemon.template_hash("")
        self.assertEqual((cm.exception.name, cm.exception.message), ("DS_EMISSING", "the input holds no document"))
        with self.assertRaises(TypeError):
            daemon.template_hash(self.TEMPLATE, "1")


if __name__ == "__main__":
    unittest.main()
