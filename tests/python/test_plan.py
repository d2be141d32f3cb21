"""ctypes tests for the sync planner: ds_daemonset_plan and its accessors
(creates, pods, deletes, status, requeue, backoff, JSON), ds_daemonset_status,
burst and slow start, the size-versioned structs, errors, and the rollout
simulation ds_daemonset_rollout."""

import ctypes
import json
import os
import unittest

import daemonset.cluster as cluster
import daemonset.placement as placement
import daemonset.plan as planner
from daemonset import DaemonSetError, Options, parse_time
from daemonset._native import lib, call

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "examples", "cluster")
NODES = os.path.join(SAMPLE, "nodes.yaml")
DAEMONSETS = os.path.join(SAMPLE, "daemonsets.yaml")
NOW = "2026-12-02T15:00:00Z"
FLUENTD_UID = "3f1a2b3c-0002-4000-8000-000000000001"


def fluentd_pod(name, node, revision_hash, generation, phase="Running", ready=True):
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": name, "namespace": "kube-system", "uid": "uid-" + name,
                        "creationTimestamp": "2026-11-05T12:01:00Z",
                        "labels": {"name": "fluentd", "controller-revision-hash": revision_hash,
                                   "pod-template-generation": generation},
                        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "fluentd-logging",
                                             "uid": FLUENTD_UID, "controller": True}]},
           "spec": {"nodeName": node, "containers": [{"name": "fluentd", "image": "fluent/fluentd"}]},
           "status": {"phase": phase}}
    if ready:
        pod["status"]["conditions"] = [{"type": "Ready", "status": "True",
                                        "lastTransitionTime": "2026-11-05T12:02:00Z"}]
    return pod


def base_cluster():
    """The sample's nodes and DaemonSets, without its pods (so the tests do not
    depend on how the sample's rollout is staged)."""
    c = cluster.Cluster.from_file(NODES)
    c.load_file(DAEMONSETS)
    return c


class SampleTest(unittest.TestCase):
    def test_sample(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            p = planner.plan(c, "kube-system", "fluentd-logging", NOW)
            d = p.to_dict()
            self.assertEqual(d["daemonSet"], {"namespace": "kube-system", "name": "fluentd-logging",
                                              "uid": FLUENTD_UID})
            self.assertEqual(d["now"], NOW)
            # creates go exactly to the nodes that should run a pod and have none
            rows = placement.explain(c, "kube-system", "fluentd-logging")["rows"]
            want = [r["node"] for r in rows if r["shouldRun"] and not r["pods"]]
            self.assertEqual([x["node"] for x in p.creates], want)
            self.assertEqual([x["node"] for x in d["creates"]], want)
            for x in p.creates:
                self.assertEqual(x["reason"], "missing")
                pod = x["pod"]
                self.assertEqual(pod["metadata"]["generateName"], "fluentd-logging-")
                self.assertEqual(pod["metadata"]["labels"]["controller-revision-hash"], p.hash)
                required = pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                self.assertEqual(required, {"nodeSelectorTerms": [{"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": [x["node"]]}]}]})
                self.assertNotIn("nodeName", pod["spec"])
            self.assertEqual(d["history"]["hash"], p.hash)
            # the status is the one ds_status_compute gives
            self.assertEqual(p.status, planner.status(c, "kube-system", "fluentd-logging", NOW))
            self.assertEqual(d["status"], p.status)
            self.assertEqual(d["statusChanged"], p.status_changed)
            self.assertEqual(p.backoff, {"entries": []})
            # deterministic: the same inputs give the same plan
            self.assertEqual(planner.plan(c, "kube-system", "fluentd-logging", parse_time(NOW)).to_dict(), d)


class SyncTest(unittest.TestCase):
    def test_first_sync(self):
        with base_cluster() as c:
            p = planner.plan(c, "kube-system", "fluentd-logging", NOW)
            self.assertEqual([(x["node"], x["reason"], x["batch"]) for x in p.creates],
                             [("worker-1", "missing", 0), ("worker-2", "missing", 1), ("worker-3", "missing", 1),
                              ("worker-4", "missing", 2)])
            d = p.to_dict()
            self.assertEqual(d["createBatches"], [1, 2, 1])
            self.assertEqual(d["deletes"], [])
            self.assertEqual(p.deletes, [])
            # no ControllerRevision yet: the sync creates the current one
            rev = d["history"]["create"]
            self.assertEqual(rev["kind"], "ControllerRevision")
            self.assertEqual(rev["metadata"]["name"], "fluentd-logging-" + p.hash)
            self.assertEqual(rev["revision"], 1)
            self.assertEqual(rev["data"]["spec"]["template"]["$patch"], "replace")
            self.assertEqual(d["history"]["current"], rev["metadata"]["name"])
            self.assertEqual(d["rollingUpdate"], {"ran": False})  # manage had work to do
            self.assertEqual(p.status["desiredNumberScheduled"], 4)
            self.assertEqual(p.status["currentNumberScheduled"], 0)
            self.assertEqual(p.status["numberUnavailable"], 4)
            self.assertNotIn("collisionCount", p.status)
            self.assertTrue(p.status_changed)
            self.assertIsNone(p.requeue_after)
            self.assertEqual(p.events, [])
            tolerations = p.creates[0]["pod"]["spec"]["tolerations"]
            self.assertEqual([(t["key"], t["effect"]) for t in tolerations], [
                ("node.kubernetes.io/not-ready", "NoExecute"), ("node.kubernetes.io/unreachable", "NoExecute"),
                ("node.kubernetes.io/disk-pressure", "NoSchedule"),
                ("node.kubernetes.io/memory-pressure", "NoSchedule"),
                ("node.kubernetes.io/pid-pressure", "NoSchedule"), ("node.kubernetes.io/unschedulable", "NoSchedule")])

    def test_failed_pod_backoff_round_trip(self):
        with base_cluster() as c:
            first = planner.plan(c, "kube-system", "fluentd-logging", NOW)
            h = first.hash
            c.load(first.to_dict()["history"]["create"])  # the revision now exists
            c.load({"kind": "List", "items": [
                fluentd_pod("f-1", "worker-1", h, "2"), fluentd_pod("f-2", "worker-2", "oldhash", "1"),
                fluentd_pod("f-3", "worker-3", h, "2", phase="Failed", ready=False),
                fluentd_pod("f-4", "worker-4", h, "2")]})
            # sync 1: the failed pod is deleted and its node enters backoff
            p1 = planner.plan(c, "kube-system", "fluentd-logging", NOW)
            self.assertEqual(p1.creates, [])
            self.assertEqual(p1.deletes, [{"namespace": "kube-system", "name": "f-3", "uid": "uid-f-3",
                                           "node": "worker-3", "reason": "failed"}])
            self.assertEqual(p1.events, [{
                "type": "Warning", "reason": "FailedDaemonPod",
                "message": "Found failed daemon pod kube-system/f-3 on node worker-3, will try to kill it"}])
            self.assertEqual(p1.backoff, {"entries": [{"key": FLUENTD_UID + "/2/worker-3", "delay": "1000ms",
                                                       "lastUpdate": NOW}]})
            self.assertNotIn("create", p1.to_dict()["history"])  # the revision is current
            self.assertEqual(p1.to_dict()["history"]["current"], "fluentd-logging-" + h)
            # sync 2, half a second later, the pod still there: in backoff, requeue after the delay;
            # manage had nothing to do, so the rolling update runs (the failed pod is unavailable)
            p2 = planner.plan(c, "kube-system", "fluentd-logging", "2026-12-02T15:00:00.500Z", backoff=p1.backoff)
            self.assertEqual((p2.creates, p2.deletes, p2.events), ([], [], []))
            self.assertEqual(p2.requeue_after, 1000)
            self.assertEqual(p2.to_dict()["rollingUpdate"], {"ran": True, "maxUnavailable": 1, "maxSurge": 0,
                                                             "desired": 4, "unavailable": 1})
            self.assertEqual(p2.backoff, p1.backoff)
            # sync 3, after the delay: deleted again, the delay doubles (JSON text works as well as a dict)
            p3 = planner.plan(c, "kube-system", "fluentd-logging", "2026-12-02T15:00:02Z",
                              backoff=json.dumps(p2.backoff))
            self.assertEqual([x["reason"] for x in p3.deletes], ["failed"])
            self.assertEqual(p3.backoff["entries"][0]["delay"], "2000ms")
            # without the state the controller starts over
            self.assertEqual(planner.plan(c, "kube-system", "fluentd-logging", "2026-12-02T15:00:00.500Z")
                             .backoff["entries"][0]["delay"], "1000ms")
            # once the failed pod is gone and replaced, the rolling update replaces the old pod on worker-2
            c.remove("Pod", "kube-system", "f-3")
            c.load(fluentd_pod("f-3b", "worker-3", h, "2"))
            p4 = planner.plan(c, "kube-system", "fluentd-logging", "2026-12-02T15:10:00Z", backoff=p3.backoff)
            self.assertEqual([(x["name"], x["reason"]) for x in p4.deletes], [("f-2", "update")])
            self.assertEqual(p4.status["updatedNumberScheduled"], 3)

    def test_burst_and_slow_start(self):
        with base_cluster() as c:
            p = planner.plan(c, "monitoring", "node-exporter", NOW, Options(burstReplicas=3))
            self.assertEqual([x["node"] for x in p.creates], ["cp-1", "gpu-1", "worker-1"])
            d = p.to_dict()
            self.assertEqual(d["deferred"], {"creates": 3, "deletes": 0})
            self.assertEqual(d["createBatches"], [1, 2])
            p = planner.plan(c, "monitoring", "node-exporter", NOW, Options(slowStartInitialBatchSize=4))
            self.assertEqual([x["batch"] for x in p.creates], [0, 0, 0, 0, 1, 1])
            self.assertEqual(p.to_dict()["createBatches"], [4, 2])
            self.assertNotIn("deferred", p.to_dict())

    def test_skipped(self):
        with base_cluster() as c:
            c.load("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: all, namespace: kube-system, uid: u9}\n"
                   "spec:\n  selector: {}\n  template:\n    metadata: {labels: {app: q}}\n"
                   "    spec: {containers: [{name: c, image: i}]}\n")
            p = planner.plan(c, "kube-system", "all", NOW)
            self.assertEqual(p.skipped, "SelectingAll")
            self.assertEqual(p.events, [{"type": "Warning", "reason": "SelectingAll", "message":
                                         "This daemon set is selecting all pods. A non-empty selector is required."}])
            self.assertEqual((p.creates, p.deletes, p.status_changed), ([], [], False))
            self.assertEqual(set(p.to_dict()), {"daemonSet", "now", "skipped", "events"})

    def test_errors(self):
        with base_cluster() as c:
            with self.assertRaises(DaemonSetError) as cm:
                planner.plan(c, "kube-system", "nope", NOW)
            self.assertEqual((cm.exception.name, cm.exception.message),
                             ("DS_ENOTFOUND", 'daemonsets.apps "nope" not found'))
            bad = {"entries": [{"key": "k", "delay": "soon", "lastUpdate": NOW}]}
            with self.assertRaises(DaemonSetError) as cm:
                planner.plan(c, "kube-system", "fluentd-logging", NOW, backoff=bad)
            self.assertEqual((cm.exception.name, cm.exception.path, cm.exception.message),
                             ("DS_EVALUE", "backoff.entries[0].delay", "expected a duration such as 2s"))
            with self.assertRaises(DaemonSetError) as cm:
                planner.plan(c, "kube-system", "fluentd-logging", NOW, backoff="{entries")
            self.assertEqual(cm.exception.name, "DS_ESYNTAX")
            with self.assertRaises(DaemonSetError) as cm:
                planner.plan(c, "kube-system", "fluentd-logging", "2026-02-30T00:00:00Z")
            self.assertEqual(cm.exception.name, "DS_EVALUE")
            with self.assertRaises(TypeError):
                planner.plan(c, "kube-system", "fluentd-logging", 1.5)
            with self.assertRaises(DaemonSetError) as cm:
                planner.status(c, "monitoring", "nope", NOW)
            self.assertEqual(cm.exception.name, "DS_ENOTFOUND")


class StructTest(unittest.TestCase):
    """The size-versioned structs through the raw ABI."""

    def test_sizes(self):
        with base_cluster() as c:
            h = ctypes.c_void_p()
            call(lib.ds_daemonset_plan, c._h(), b"kube-system", b"fluentd-logging", parse_time(NOW), None, None, 0,
                 ctypes.byref(h))
            try:
                self.assertEqual(lib.ds_plan_create_count(h), 4)
                self.assertEqual(lib.ds_plan_delete_count(h), 0)
                # a caller built against an older, shorter ds_plan_create: reason and batch are not written
                old = planner._PlanCreate(size=planner._PlanCreate.reason.offset)
                call(lib.ds_plan_create_at, h, 3, ctypes.byref(old))
                self.assertEqual((old.node, old.reason, old.batch), (b"worker-4", None, 0))
                full = planner._PlanCreate(size=ctypes.sizeof(planner._PlanCreate))
                call(lib.ds_plan_create_at, h, 3, ctypes.byref(full))
                self.assertEqual((full.node, full.reason, full.batch), (b"worker-4", b"missing", 2))
                with self.assertRaises(DaemonSetError) as cm:
                    call(lib.ds_plan_create_at, h, 0, ctypes.byref(planner._PlanCreate()))  # size 0
                self.assertEqual(cm.exception.message, "out must not be NULL; set out->size")
                with self.assertRaises(DaemonSetError) as cm:
                    call(lib.ds_plan_create_at, h, 4, ctypes.byref(full))
                self.assertEqual((cm.exception.name, cm.exception.message), ("DS_EARG", "create 4 out of range (4)"))
                with self.assertRaises(DaemonSetError) as cm:
                    call(lib.ds_plan_delete_at, h, 0, ctypes.byref(planner._PlanDelete(size=48)))
                self.assertEqual(cm.exception.message, "delete 0 out of range (0)")
                st = planner._Status(size=planner._Status.collision_count.offset, collision_count=77)
                changed = ctypes.c_int(-1)
                call(lib.ds_plan_status, h, ctypes.byref(st), ctypes.byref(changed))
                self.assertEqual((st.desired_number_scheduled, st.collision_count, changed.value), (4, 77, 1))
                self.assertEqual(lib.ds_plan_requeue_after(h), -1)
            finally:
                lib.ds_plan_free(h)
            self.assertEqual(lib.ds_plan_requeue_after(None), -1)
            self.assertEqual(lib.ds_plan_create_count(None), 0)

    def test_events(self):
        """ds_plan_event_count and ds_plan_event_at: the events of to_json, also for a skipped plan."""
        with base_cluster() as c:
            c.load("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: all, namespace: kube-system, uid: u9}\n"
                   "spec:\n  selector: {}\n  template:\n    metadata: {labels: {app: q}}\n"
                   "    spec: {containers: [{name: c, image: i}]}\n")
            h = ctypes.c_void_p()
            call(lib.ds_daemonset_plan, c._h(), b"kube-system", b"all", parse_time(NOW), None, None, 0,
                 ctypes.byref(h))
            try:
                self.assertEqual(lib.ds_plan_event_count(h), 1)
                e = planner._PlanEvent(size=ctypes.sizeof(planner._PlanEvent))
                call(lib.ds_plan_event_at, h, 0, ctypes.byref(e))
                self.assertEqual((e.type, e.reason, e.message), (
                    b"Warning", b"SelectingAll",
                    b"This daemon set is selecting all pods. A non-empty selector is required."))
                with self.assertRaises(DaemonSetError) as cm:
                    call(lib.ds_plan_event_at, h, 1, ctypes.byref(e))
                self.assertEqual((cm.exception.name, cm.exception.message), ("DS_EARG", "event 1 out of range (1)"))
                with self.assertRaises(DaemonSetError) as cm:
                    call(lib.ds_plan_event_at, h, 0, ctypes.byref(planner._PlanEvent()))  # size 0
                self.assertEqual(cm.exception.message, "out must not be NULL; set out->size")
            finally:
                lib.ds_plan_free(h)
            self.assertEqual(lib.ds_plan_event_count(None), 0)
            # Plan.events comes from the accessors and agrees with the JSON
            first = planner.plan(c, "kube-system", "fluentd-logging", NOW)
            self.assertEqual(first.events, [])
            c.load(first.to_dict()["history"]["create"])
            c.load(fluentd_pod("f-3", "worker-3", first.hash, "2", phase="Failed", ready=False))
            p = planner.plan(c, "kube-system", "fluentd-logging", NOW)
            self.assertEqual(p.events, [{
                "type": "Warning", "reason": "FailedDaemonPod",
                "message": "Found failed daemon pod kube-system/f-3 on node worker-3, will try to kill it"}])
            self.assertEqual(p.events, p.to_dict()["events"])


class SimulateTest(unittest.TestCase):
    """ds_rollout_simulate on the sample: fluentd-logging is half way through
    its update to revision 2 (worker-2 old, worker-4 without a pod)."""

    def test_sample_rollout(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            before = planner.plan(c, "kube-system", "fluentd-logging", NOW).to_dict()
            r = planner.simulate(c, "kube-system", "fluentd-logging", NOW)
            self.assertEqual(r["result"], "complete")
            self.assertNotIn("stall", r)
            self.assertEqual(r["daemonSet"], {"namespace": "kube-system", "name": "fluentd-logging"})
            self.assertEqual((r["start"], r["end"], r["durationSeconds"]),
                             (NOW, "2026-12-02T15:00:25Z", 25))
            self.assertEqual((r["desired"], r["updated"], r["creates"], r["deletes"]), (4, 4, 2, 1))
            # worker-4 first; worker-2's old pod goes once that pod is available, then is replaced
            self.assertEqual(r["waves"], [
                {"at": NOW, "creates": ["worker-4"], "deletes": []},
                {"at": "2026-12-02T15:00:10Z", "creates": [], "deletes": ["fluentd-logging-q8m4n"]},
                {"at": "2026-12-02T15:00:15Z", "creates": ["worker-2"], "deletes": []}])
            self.assertEqual(r["nodeUpdatedAt"], {"worker-1": NOW, "worker-2": "2026-12-02T15:00:25Z",
                                                  "worker-3": NOW, "worker-4": "2026-12-02T15:00:10Z"})
            # the budget (maxUnavailable 1, maxSurge 0) is respected at every sample
            self.assertEqual((r["maxUnavailable"], r["maxSurge"]), (1, 0))
            self.assertEqual((r["maxUnavailableSeen"], r["maxSurgeSeen"], r["budgetExceeded"]), (1, 0, False))
            self.assertTrue(r["timeline"])
            for sample in r["timeline"]:
                self.assertLessEqual(sample["unavailable"], 1, sample)
                self.assertEqual(sample["surge"], 0, sample)
            self.assertEqual(r["timeline"][-1]["updated"], 4)
            # the snapshot is not changed, and the start may be given in milliseconds
            self.assertEqual(planner.plan(c, "kube-system", "fluentd-logging", NOW).to_dict(), before)
            self.assertEqual(planner.simulate(c, "kube-system", "fluentd-logging", parse_time(NOW)), r)

    def test_options(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            # worker-4's new pod never becomes Ready: it holds the maxUnavailable budget
            r = planner.simulate(c, "kube-system", "fluentd-logging", NOW, Options(simFailNodes="worker-4"))
            self.assertEqual((r["result"], r["durationSeconds"], r["updated"]), ("stalled", 0, 2))
            self.assertEqual(r["stall"], {"reason": "new pods never become Ready, and they hold the "
                                                    "maxUnavailable budget (1): no other old pod is deleted "
                                                    "until one of them is available", "nodes": ["worker-4"]})
            self.assertEqual(r["waves"], [{"at": NOW, "creates": ["worker-4"], "deletes": []}])
            self.assertFalse(r["budgetExceeded"])
            # slower pods: 30 s to Ready, then worker-2's old pod goes (5 s) and its new one is Ready 30 s later
            r = planner.simulate(c, "kube-system", "fluentd-logging", NOW, Options(simReadyAfter="30s"))
            self.assertEqual((r["result"], r["durationSeconds"]), ("complete", 65))
            r = planner.simulate(c, "kube-system", "fluentd-logging", NOW, Options(paused=True))
            self.assertEqual(r["result"], "paused")

    def test_errors(self):
        with cluster.Cluster.from_file(SAMPLE) as c:
            with self.assertRaises(DaemonSetError) as cm:
                planner.simulate(c, "kube-system", "nope", NOW)
            self.assertEqual((cm.exception.name, cm.exception.message),
                             ("DS_ENOTFOUND", 'daemonsets.apps "nope" not found'))
            with self.assertRaises(DaemonSetError) as cm:
                planner.simulate(c, "kube-system", "fluentd-logging", -10 ** 15)
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EVALUE", "start"))
            self.assertTrue(cm.exception.message.startswith(
                "expected a start time between 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z"))
            with self.assertRaises(DaemonSetError) as cm:
                planner.simulate(c, "kube-system", "fluentd-logging", NOW, Options(rolloutNodeSelector="a in ("))
            self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EVALUE", "rolloutNodeSelector"))
            with self.assertRaises(DaemonSetError) as cm:
                planner.simulate(c, "kube-system", "fluentd-logging", "yesterday")
            self.assertEqual(cm.exception.name, "DS_EVALUE")
            with self.assertRaises(TypeError):
                planner.simulate(c, "kube-system", "fluentd-logging", 1.5)


if __name__ == "__main__":
    unittest.main()
