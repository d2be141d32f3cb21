"""The controller driver from Python: a transport written in Python over the
stand-in API server's store (no HTTP), leader election, manifests to JSON."""

import json
import os
import unittest

import apiserver
import daemonset.controller as controller
from daemonset import DaemonSetError

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
T0 = 1796137200000  # 2026-12-01T15:00:00Z


def sample_objects():
    objs = []
    folder = os.path.join(ROOT, "examples", "cluster")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            objs += controller.parse_objects(f.read())
    return objs


class StoreTransport:
    """The ds_transport callbacks over apiserver.Store, called in process."""

    CODES = {404: controller.NOT_FOUND, 422: controller.INVALID}

    def __init__(self, store):
        self.store = store
        self.calls = []

    def _do(self, op, fn, *args):
        self.calls.append(op)
        try:
            return fn(*args)
        except apiserver.ApiError as e:
            if e.code == 409:
                result = controller.ALREADY_EXISTS if e.reason == "AlreadyExists" else controller.CONFLICT
            else:
                result = self.CODES.get(e.code, controller.TRANSIENT if e.code >= 500 else controller.FATAL)
            raise controller.TransportError(result, e.message)

    def list(self, resource, namespace, selector):
        return self._do("list", self.store.list, resource, namespace, selector)

    def get(self, resource, namespace, name):
        return self._do("get", self.store.get, resource, namespace, name)

    def create(self, resource, namespace, body):
        return self._do("create", self.store.create, resource, namespace, body)

    def delete(self, resource, namespace, name, uid):
        return self._do("delete", self.store.delete, resource, namespace, name,
                        {"preconditions": {"uid": uid}} if uid else None)

    def update_status(self, resource, namespace, name, body):
        return self._do("updateStatus", self.store.update, resource, namespace, name, body, True)

    def patch(self, resource, namespace, name, patch_type, body):
        return self._do("patch", self.store.patch, resource, namespace, name, body, patch_type)

    def record_event(self, namespace, body):
        return self._do("recordEvent", self.store.create, "events", namespace, body)


class DriverTest(unittest.TestCase):
    def setUp(self):
        self.store = apiserver.Store(ready_after=0)
        self.store.load(sample_objects())
        self.transport = StoreTransport(self.store)
        self.ctrl = controller.Controller(self.transport)
        self.seen = self.store.rv

    def tearDown(self):
        self.ctrl.close()

    def feed(self, now):
        """The store's watch events since the last look, into the driver."""
        events = [e for (v, r, e) in self.store.history if v > self.seen]
        self.seen = self.store.rv
        if events:
            return self.ctrl.apply_events(events, now)
        return None

    def test_run_to_completion(self):
        listed = self.ctrl.resync(T0)
        self.assertEqual(listed["counts"]["nodes"], 6)
        self.assertEqual(sorted(listed["queued"]),
                         ["kube-system/fluentd-logging", "kube-system/nvidia-device-plugin",
                          "monitoring/node-exporter"])
        now = T0
        for _ in range(60):
            self.ctrl.run(now)
            self.feed(now)
            now += 1000
            self.store.tick()  # the kubelet (ready at once) and the scheduler
            self.feed(now)
        ds = self.store.get("daemonsets", "kube-system", "fluentd-logging")
        st = ds["status"]
        self.assertEqual(st["observedGeneration"], ds["metadata"]["generation"])
        self.assertEqual(st["desiredNumberScheduled"], 4)
        self.assertEqual(st["updatedNumberScheduled"], 4)
        self.assertEqual(st["numberAvailable"], 4)
        pods = [p for p in self.store.list("pods", "kube-system")["items"]
                if apiserver.controller_uid(p) == ds["metadata"]["uid"]]
        self.assertEqual(sorted(p["spec"]["nodeName"] for p in pods), ["worker-1", "worker-2", "worker-3", "worker-4"])
        self.assertEqual(self.store.max_pods_on_a_node(ds["metadata"]["uid"]), 1)
        events = [e["reason"] for e in self.store.list("events", None)["items"]]
        self.assertIn("SuccessfulCreate", events)
        self.assertIn("SuccessfulDelete", events)  # worker-2's old pod
        # the controller holds the DaemonSet as the API server serves it: Go leaves out the status's
        # omitempty counters at 0 (numberUnavailable), which the stand-in keeps as written
        held = self.ctrl.get("DaemonSet", "kube-system", "fluentd-logging")["status"]
        self.assertEqual(held, {k: v for k, v in st.items() if v != 0 or k in held})
        self.assertEqual(held.get("numberUnavailable", 0), st.get("numberUnavailable", 0))

    def test_lagging_cache(self):
        self.ctrl.resync(T0)
        first = self.ctrl.sync("kube-system", "fluentd-logging", T0)
        self.assertEqual(len(first["created"]), 1)  # worker-4
        again = self.ctrl.sync("kube-system", "fluentd-logging", T0 + 10)
        self.assertFalse(again["expectationsSatisfied"])
        self.assertEqual(again["created"], [])
        exp = self.ctrl.expectations("kube-system", "fluentd-logging", T0 + 10)
        self.assertEqual(exp["add"], 1)
        self.feed(T0 + 20)
        self.assertTrue(self.ctrl.expectations("kube-system", "fluentd-logging", T0 + 20)["satisfied"])

    def test_transport_errors_reach_the_result(self):
        self.ctrl.resync(T0)

        def refuse(*args):
            raise controller.TransportError(controller.FATAL, "pods is forbidden")
        self.transport.create = refuse
        res = self.ctrl.sync("kube-system", "fluentd-logging", T0)
        self.assertEqual(res["error"], "pods is forbidden")
        self.assertEqual(res["requeueAfterMs"], 5)
        while self.ctrl.next(T0)[0]:  # the other two DaemonSets, queued by the list
            pass
        key, wait = self.ctrl.next(T0)
        self.assertEqual((key, wait), (None, 5))
        self.assertEqual(self.ctrl.next(T0 + 5)[0], "kube-system/fluentd-logging")

        def broken(*args):
            raise ZeroDivisionError("oops")
        self.transport.create = broken
        res = self.ctrl.sync("kube-system", "fluentd-logging", T0 + 5)
        self.assertIn("ZeroDivisionError: oops", res["error"])

    def test_bad_arguments(self):
        with self.assertRaises(DaemonSetError) as cm:
            self.ctrl.apply_events("{", T0)
        self.assertEqual(cm.exception.name, "DS_ESYNTAX")
        with self.assertRaises(DaemonSetError) as cm:
            self.ctrl.sync("kube-system", "", T0)
        self.assertEqual(cm.exception.name, "DS_EARG")
        self.assertIsNone(self.ctrl.get("DaemonSet", "x", "y"))


class LeaseTest(unittest.TestCase):
    def test_acquire_follow_take_over(self):
        a = controller.LeaseConfig("a", "kube-system", "dsctl", 15000, 10000)
        b = controller.LeaseConfig("b", "kube-system", "dsctl", 15000, 10000)
        d = controller.lease_decide(a, None, None, T0)
        self.assertEqual((d["decision"], d["write"]), ("acquire", "create"))
        self.assertTrue(controller.lease_is_leader(a, d["state"], T0 + 9999))
        self.assertFalse(controller.lease_is_leader(a, d["state"], T0 + 10000))
        lease = d["lease"]
        lease["metadata"]["resourceVersion"] = "7"
        f = controller.lease_decide(b, lease, None, T0 + 100)
        self.assertEqual(f["decision"], "follow")
        self.assertEqual(f["holder"], "a")
        t = controller.lease_decide(b, lease, f["state"], T0 + 100 + 15000)
        self.assertEqual((t["decision"], t["write"]), ("acquire", "update"))
        self.assertEqual(t["lease"]["spec"]["leaseTransitions"], 1)
        self.assertEqual(t["lease"]["metadata"]["resourceVersion"], "7")
        r = controller.lease_release(b, t["lease"], t["state"], T0 + 20000)
        self.assertEqual(r["lease"]["spec"]["holderIdentity"], "")

    def test_errors(self):
        bad = controller.LeaseConfig("", "ns", "n")
        with self.assertRaises(DaemonSetError) as cm:
            controller.lease_decide(bad, None, None, T0)
        self.assertEqual(cm.exception.message, "Lock identity is empty")
        ok = controller.LeaseConfig("a", "ns", "n")
        with self.assertRaises(DaemonSetError) as cm:
            controller.lease_decide(ok, {"spec": {"renewTime": 3}}, None, T0)
        self.assertEqual(cm.exception.path, "lease.spec.renewTime")


class ObjectsTest(unittest.TestCase):
    def test_parse(self):
        objs = controller.parse_objects("kind: NodeList\napiVersion: v1\nitems:\n- metadata: {name: a}\n")
        self.assertEqual(objs, [{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "a"}}])
        self.assertEqual(len(sample_objects()), 2 + 3 + 6 + 1 + 9)  # file order: revisions, DaemonSets, ...
        with self.assertRaises(DaemonSetError):
            controller.parse_objects("[1]")
        self.assertEqual(json.loads(json.dumps(sample_objects()[0]))["kind"], "ControllerRevision")


if __name__ == "__main__":
    unittest.main()
