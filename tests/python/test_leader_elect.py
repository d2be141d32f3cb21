"""dsrun --leader-elect: client-go's leader election (tools/leaderelection with a LeaseLock, as
kube-controller-manager runs it) around the host program of examples/controller. Against the
stand-in API server (tests/python/apiserver.py) in real time, with short durations where waiting
kube-controller-manager's 15s/10s/2s would make a slow test; and against the in-memory cluster,
whose virtual time makes the lease-duration boundary exact."""

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest

import apiserver
from test_http_transport import ROOT, GoalCheck, dsrun_path, has_http, sample_objects

NS, NAME = "kube-system", "dsrun"  # the default Lease
LEASE_PATH = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/dsrun"
FAST = ["--lease-duration", "3s", "--renew-deadline", "2s", "--retry-period", "500ms"]
UUID4 = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"


def micro_time(t=None):
    t = time.time() if t is None else t
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%06dZ" % int((t % 1) * 1e6)


def lease(holder, duration, transitions=0):
    now = micro_time()
    return {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": NAME, "namespace": NS},
            "spec": {"holderIdentity": holder, "leaseDurationSeconds": duration, "acquireTime": now,
                     "renewTime": now, "leaseTransitions": transitions}}


class LeaseStore(apiserver.Store):
    """The stand-in, keeping every Lease written (method, when, the Lease stored) in order."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.lease_writes = []

    def create(self, res, ns, obj):
        out = super().create(res, ns, obj)
        if res == "leases":
            with self.cond:
                self.lease_writes.append(("POST", time.time(), out))
        return out

    def update(self, res, ns, name, obj, status_only):
        out = super().update(res, ns, name, obj, status_only)
        if res == "leases":
            with self.cond:
                self.lease_writes.append(("PUT", time.time(), out))
        return out

    def writes_by(self, holder):
        with self.cond:
            return [w for w in self.lease_writes if w[2]["spec"].get("holderIdentity") == holder]

    def renew_as(self, holder):
        """Another replica's renewal: the stored Lease with a new renewTime."""
        with self.cond:
            cur = self.get("leases", NS, NAME)
            cur["spec"]["holderIdentity"] = holder
            cur["spec"]["renewTime"] = micro_time()
            return self.update("leases", NS, NAME, cur, False)


def reconciled(store):
    """Requests of the controller proper: lists, watches and writes of what it reconciles."""
    return [(m, p) for (m, p) in store.requests if "/leases" not in p]


@unittest.skipUnless(dsrun_path() and has_http(dsrun_path()), "dsrun is not built, or built without libcurl")
class LeaderElectHttpTest(GoalCheck, unittest.TestCase):
    def setUp(self):
        self.server, self.proc = None, None

    def tearDown(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()
        if self.server:
            self.server.stop()

    def serve(self, objects=(), **kw):
        store = LeaseStore(**kw)
        store.load(sample_objects() + list(objects))
        self.server = apiserver.serve(store)
        return store

    def start(self, *args):
        self.proc = subprocess.Popen([dsrun_path(), "--url", self.server.url, "--leader-elect"] + list(args),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        return self.proc

    def finish(self, timeout):
        out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, out, err

    def wait_until(self, what, timeout):
        end = time.time() + timeout
        while time.time() < end:
            if what():
                return True
            time.sleep(0.05)
        return False

    def test_creates_the_lease_and_converges(self):
        """No Lease yet: it is created, held by hostname_UUID for 15 s, before the controller lists
        anything; the DaemonSets reach their goal as without the flag; on exit the Lease is given up."""
        store = self.serve(ready_after=0.3)
        self.start("--timeout", "90")
        code, out, err = self.finish(120)
        self.assertEqual(code, 0, out + err)
        self.assertTrue(out.rstrip().endswith("converged"), out + err)
        self.assertIn("successfully acquired lease kube-system/dsrun", err)
        self.check_goal(store)
        writes = store.lease_writes
        method, _, first = writes[0]
        spec = first["spec"]
        self.assertEqual(method, "POST")
        self.assertEqual((first["metadata"]["namespace"], first["metadata"]["name"]), (NS, NAME))
        self.assertRegex(spec["holderIdentity"], "^" + re.escape(socket.gethostname()) + "_" + UUID4 + "$")
        self.assertEqual((spec["leaseDurationSeconds"], spec["leaseTransitions"]), (15, 0))
        self.assertEqual(spec["acquireTime"], spec["renewTime"])
        # acquired before the first list
        first_lease = store.requests.index(("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases"))
        self.assertLess(first_lease, store.requests.index(reconciled(store)[0]))
        for method, _, held in writes[1:-1]:  # renewals, if the run lasted long enough
            self.assertEqual(method, "PUT")
            self.assertEqual(held["spec"]["holderIdentity"], spec["holderIdentity"])
            self.assertEqual(held["spec"]["acquireTime"], spec["acquireTime"])
        # released (tryRelease): no holder, a one-second lease, the same transitions
        method, _, last = writes[-1]
        self.assertEqual(method, "PUT")
        self.assertEqual(last["spec"]["holderIdentity"], "")
        self.assertEqual((last["spec"]["leaseDurationSeconds"], last["spec"]["leaseTransitions"]), (1, 0))
        self.assertEqual(store.get("leases", NS, NAME)["spec"], last["spec"])

    def test_follows_a_held_lease(self):
        """Another replica holds a fresh Lease (kube-controller-manager's durations): dsrun lists nothing,
        creates nothing, writes no Lease, and keeps asking every retry period (2 s)."""
        store = self.serve([lease("other-replica", 15)], ready_after=0.3)
        pods = sorted(store.objects["pods"])
        self.start("--identity", "replica-b", "--timeout", "90")
        time.sleep(5)
        self.assertIsNone(self.proc.poll(), "dsrun stopped while following")
        self.assertEqual(reconciled(store), [])
        self.assertEqual(sorted(store.objects["pods"]), pods)
        self.assertEqual(store.lease_writes, [])
        self.assertEqual(store.get("leases", NS, NAME)["spec"]["holderIdentity"], "other-replica")
        gets = [p for (m, p) in store.requests if m == "GET" and p == LEASE_PATH]
        self.assertIn(len(gets), (2, 3))  # at 0, then every 2 s plus up to 2.4 s at random (JitterUntil)
        self.proc.kill()
        _, err = self.proc.communicate()
        self.assertIn("the lease kube-system/dsrun is held by other-replica", err)
        self.assertNotIn("successfully acquired", err)

    def test_takes_over_when_the_holder_stops_renewing(self):
        """While the holder renews, dsrun waits; once it stops, dsrun takes the Lease over a lease
        duration after it last saw it change (never earlier), counts the transition, and converges."""
        store = self.serve([lease("other-replica", 3, transitions=4)], ready_after=0.3)
        self.start("--identity", "replica-b", "--timeout", "90", *FAST)
        stop = threading.Event()

        def holder():
            while not stop.wait(0.4):
                store.renew_as("other-replica")
        t = threading.Thread(target=holder)
        t.start()
        try:
            time.sleep(4)
            self.assertEqual(reconciled(store), [])
            self.assertEqual(store.writes_by("replica-b"), [])
        finally:
            stop.set()
            t.join()
        last_renewal = store.writes_by("other-replica")[-1][1]
        code, out, err = self.finish(90)
        self.assertEqual(code, 0, out + err)
        self.check_goal(store)
        method, when, took = store.writes_by("replica-b")[0]
        self.assertEqual(method, "PUT")
        self.assertGreaterEqual(when - last_renewal, 3.0 - 0.05)  # the lease duration, by dsrun's own look
        self.assertLess(when - last_renewal, 3.0 + 3.0)  # and within a few retry periods after it
        self.assertEqual((took["spec"]["leaseTransitions"], took["spec"]["leaseDurationSeconds"]), (5, 3))
        self.assertEqual(store.get("leases", NS, NAME)["spec"]["holderIdentity"], "")  # released on exit

    def test_renews_then_stops_when_renewal_fails(self):
        """Renewed every retry period while it reconciles; when renewals fail for the renew deadline,
        "leaderelection lost" and a non-zero exit, as kube-controller-manager does."""
        store = self.serve(ready_after=600)  # pods never become ready: dsrun would run to its timeout
        self.start("--identity", "replica-a", "--timeout", "60", *FAST)
        self.assertTrue(self.wait_until(lambda: store.writes_by("replica-a"), 10))
        time.sleep(3)  # longer than the renew deadline
        self.assertIsNone(self.proc.poll(), "dsrun stopped although it renewed")
        held = store.writes_by("replica-a")
        self.assertGreaterEqual(len(held), 4)  # created, then renewed every 0.5 s
        self.assertEqual({w[2]["spec"]["acquireTime"] for w in held}, {held[0][2]["spec"]["acquireTime"]})
        self.assertEqual([w[2]["spec"]["renewTime"] for w in held], sorted(w[2]["spec"]["renewTime"] for w in held))
        self.assertTrue(any(m == "POST" and p.endswith("/pods") for (m, p) in store.requests))  # reconciling
        apiserver.inject(store, "PUT", LEASE_PATH, 500, -1)
        failing = time.time()
        code, out, err = self.finish(15)
        stopped = time.time()
        self.assertNotEqual(code, 0)
        self.assertIn("leaderelection lost", err)
        self.assertIn("Failed to update lock", err)
        self.assertNotIn("converged", out)
        self.assertGreaterEqual(stopped - failing, 2.0 - 0.5 - 0.05)  # the last renewal was at most 0.5 s before
        self.assertLess(stopped - failing, 8)

    def test_stops_when_another_replica_holds_the_lease(self):
        """Someone else wrote the Lease: the next renewal sees it held by another, valid; dsrun stops
        leading at once and leaves that Lease alone."""
        store = self.serve(ready_after=600)
        self.start("--identity", "replica-a", "--timeout", "60")
        self.assertTrue(self.wait_until(lambda: store.writes_by("replica-a"), 10))
        store.renew_as("intruder")
        taken = time.time()
        code, out, err = self.finish(15)
        self.assertNotEqual(code, 0)
        self.assertLess(time.time() - taken, 2 + 3)  # the next renewal, 2 s after the last
        self.assertIn("the lease kube-system/dsrun is held by intruder", err)
        self.assertIn("leaderelection lost", err)
        self.assertEqual(store.lease_writes[-1][2]["spec"]["holderIdentity"], "intruder")  # not released over it


@unittest.skipUnless(dsrun_path(), "examples/controller/dsrun is not built (make examples)")
class LeaderElectInMemoryTest(unittest.TestCase):
    """The in-memory cluster, virtual time from 2026-12-02T15:00:00Z: exact boundaries."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dsrun-lease-")
        folder = os.path.join(ROOT, "examples", "cluster")
        for name in os.listdir(folder):
            shutil.copy(os.path.join(folder, name), self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_dsrun(self, *args):
        out = subprocess.run([dsrun_path(), "--cluster", self.dir] + list(args), capture_output=True, text=True,
                             timeout=60, cwd=ROOT)
        return out.returncode, out.stdout, out.stderr

    def test_same_goal_with_and_without(self):
        code, plain, _ = self.run_dsrun()
        self.assertEqual(code, 0)
        code, out, err = self.run_dsrun("--leader-elect")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, plain)
        self.assertIn("successfully acquired lease kube-system/dsrun", err)
        self.assertIn("released lease kube-system/dsrun", err)

    def test_takes_over_a_lease_duration_after_the_first_look(self):
        """A Lease held by another replica, not renewed: valid for its leaseDurationSeconds (15) from
        the time dsrun first saw it (its renewTime does not count). Tried every 2 s plus up to 1.2 times
        that at random (client-go's JitterFactor): still held at 15 s, taken by 15 + 4.4 s."""
        with open(os.path.join(self.dir, "lease.json"), "w") as f:
            doc = lease("other-replica", 15)
            doc["spec"]["renewTime"] = "2020-01-01T00:00:00.000000Z"  # long ago: ignored
            json.dump(doc, f)
        for seed in ("1", "2", "3"):
            code, out, err = self.run_dsrun("--leader-elect", "--timeout", "15", "--option", "seed=" + seed)
            self.assertEqual(code, 1)
            self.assertIn("the lease kube-system/dsrun is held by other-replica", err)
            self.assertIn("timed out waiting for leader lease kube-system/dsrun", err)
            self.assertNotIn("successfully acquired", err)
            self.assertEqual(out, "")  # nothing listed, nothing reconciled
            code, out, err = self.run_dsrun("--leader-elect", "--timeout", "20", "--option", "seed=" + seed)
            self.assertIn("successfully acquired lease kube-system/dsrun", err)
        code, out, err = self.run_dsrun("--leader-elect", "--timeout", "120")
        self.assertEqual(code, 0, err)
        self.assertTrue(out.rstrip().endswith("converged"), out)

    def test_bad_flags(self):
        for args in (["--lease-duration", "soon"], ["--retry-period", "0s"], ["--lease-name", ""]):
            code, _, err = self.run_dsrun("--leader-elect", *args)
            self.assertEqual(code, 2, args)
            self.assertIn(args[0], err)
        code, _, err = self.run_dsrun("--leader-elect", "--lease-duration", "10s")  # not above the renew deadline
        self.assertEqual(code, 1)
        self.assertIn("leaseDuration must be greater than renewDeadline", err)
        code, _, err = self.run_dsrun("--leader-elect", "--retry-period", "9s")
        self.assertEqual(code, 1)
        self.assertIn("renewDeadline must be greater than retryPeriod*JitterFactor", err)


if __name__ == "__main__":
    unittest.main()
