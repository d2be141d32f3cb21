"""The libcurl transport and the host program examples/controller/dsrun, end to end
against the stand-in API server (tests/python/apiserver.py): no kube-apiserver
runs here. The sample cluster is served, dsrun runs every DaemonSet to its goal,
restarts fluentd-logging (a rolling update) and waits for that too; the server's
final state is then checked."""

import json
import os
import subprocess
import unittest
import urllib.error
import urllib.request

import apiserver
import daemonset.controller as controller

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def dsrun_path():
    path = os.environ.get("DSRUN")
    if not path and os.environ.get("DAEMONSET_LIB"):
        path = os.path.join(os.path.dirname(os.environ["DAEMONSET_LIB"]), "..", "examples", "controller", "dsrun")
    return path if path and os.path.exists(path) else None


def sample_objects():
    objs = []
    folder = os.path.join(ROOT, "examples", "cluster")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            objs += controller.parse_objects(f.read())
    return objs


def has_http(path):
    out = subprocess.run([path, "--url", "http://127.0.0.1:9", "--timeout", "0"], capture_output=True, text=True)
    return "built without libcurl" not in out.stderr


def request(method, url, body=None, content_type="application/json"):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class StandInTest(unittest.TestCase):
    """The stand-in follows the API's paths, codes and bodies (what the transport relies on)."""

    def setUp(self):
        self.store = apiserver.Store(ready_after=0.1)
        self.server = apiserver.serve(self.store)
        self.url = self.server.url

    def tearDown(self):
        self.server.stop()

    def test_codes_and_bodies(self):
        code, st = request("GET", self.url + "/api/v1/namespaces/default/pods/nope")
        self.assertEqual(code, 404)
        self.assertEqual((st["kind"], st["reason"], st["message"]), ("Status", "NotFound", 'pods "nope" not found'))
        pod = {"metadata": {"generateName": "web-", "labels": {"app": "web"}}, "spec": {"nodeName": "n1"}}
        code, created = request("POST", self.url + "/api/v1/namespaces/default/pods", pod)
        self.assertEqual(code, 201)
        name = created["metadata"]["name"]
        self.assertRegex(name, r"^web-[bcdfghjklmnpqrstvwxz2456789]{5}$")
        self.assertTrue(created["metadata"]["uid"])
        self.assertEqual(created["kind"], "Pod")
        code, st = request("POST", self.url + "/api/v1/namespaces/default/pods", {"metadata": {"name": name}})
        self.assertEqual((code, st["reason"]), (409, "AlreadyExists"))
        opts = {"kind": "DeleteOptions", "apiVersion": "v1", "preconditions": {"uid": "someone-else"}}
        code, st = request("DELETE", self.url + "/api/v1/namespaces/default/pods/" + name, opts)
        self.assertEqual((code, st["reason"]), (409, "Conflict"))
        self.assertIn("Precondition failed: UID in precondition: someone-else", st["message"])
        code, lst = request("GET", self.url + "/api/v1/pods?labelSelector=app%3Dweb")
        self.assertEqual((code, lst["kind"], len(lst["items"])), (200, "PodList", 1))
        # the watch: from the list's resourceVersion, newline-delimited events, chunked
        rv = lst["metadata"]["resourceVersion"]
        request("DELETE", self.url + "/api/v1/namespaces/default/pods/" + name,
                dict(opts, preconditions={"uid": created["metadata"]["uid"]}))
        with urllib.request.urlopen(self.url + "/api/v1/pods?watch=1&timeoutSeconds=1&resourceVersion=" + rv,
                                    timeout=10) as r:
            self.assertEqual(r.headers.get("Transfer-Encoding"), "chunked")
            lines = [json.loads(x) for x in r.read().splitlines() if x.strip()]
        self.assertEqual([e["type"] for e in lines], ["DELETED"])
        with urllib.request.urlopen(self.url + "/api/v1/pods?watch=1&timeoutSeconds=1&resourceVersion=1",
                                    timeout=10) as r:
            gone = json.loads(r.read().splitlines()[0])
        self.assertEqual((gone["type"], gone["object"]["code"]), ("ERROR", 410))
        # the status subresource: optimistic concurrency
        self.store.load([{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "d", "namespace": "a"},
                          "spec": {"template": {}}}])
        code, ds = request("GET", self.url + "/apis/apps/v1/namespaces/a/daemonsets/d")
        ds["status"] = {"numberReady": 1}
        stale = json.loads(json.dumps(ds))
        code, _ = request("PUT", self.url + "/apis/apps/v1/namespaces/a/daemonsets/d/status", ds)
        self.assertEqual(code, 200)
        code, st = request("PUT", self.url + "/apis/apps/v1/namespaces/a/daemonsets/d/status", stale)
        self.assertEqual((code, st["reason"]), (409, "Conflict"))
        code, patched = request("PATCH", self.url + "/apis/apps/v1/namespaces/a/daemonsets/d",
                                {"spec": {"template": {"metadata": {"labels": {"x": "y"}}}}},
                                "application/merge-patch+json")
        self.assertEqual((code, patched["metadata"]["generation"]), (200, 2))
        self.assertEqual(patched["metadata"]["annotations"]["deprecated.daemonset.template.generation"], "2")


@unittest.skipUnless(dsrun_path(), "examples/controller/dsrun is not built (make examples)")
class HostProgramTest(unittest.TestCase):
    def run_dsrun(self, *args, timeout=120):
        out = subprocess.run([dsrun_path()] + list(args), capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        return out.returncode, out.stdout + out.stderr

    def test_in_memory(self):
        code, out = self.run_dsrun("--restart", "kube-system/fluentd-logging")
        self.assertEqual(code, 0, out)
        self.assertIn("restart kube-system/fluentd-logging: patched", out)
        self.assertIn("kube-system/fluentd-logging: desired 4, updated 4, available 4", out)
        self.assertTrue(out.rstrip().endswith("converged"), out)

    def check_goal(self, store):
        """Every DaemonSet: one running pod of its current revision per node it wants, never two at once."""
        for ds in store.list("daemonsets", None)["items"]:
            meta, st = ds["metadata"], ds["status"]
            self.assertEqual(st["observedGeneration"], meta["generation"], meta["name"])
            want = st["desiredNumberScheduled"]
            self.assertEqual((st["updatedNumberScheduled"], st["numberAvailable"]), (want, want), meta["name"])
            revs = [r for r in store.list("controllerrevisions", meta["namespace"])["items"]
                    if apiserver.controller_uid(r) == meta["uid"]]
            current = max(revs, key=lambda r: r["revision"])["metadata"]["labels"]["controller-revision-hash"]
            pods = [p for p in store.list("pods", meta["namespace"])["items"]
                    if apiserver.controller_uid(p) == meta["uid"]]
            nodes = [p["spec"].get("nodeName") for p in pods]
            self.assertEqual(len(nodes), want, meta["name"])
            self.assertEqual(len(set(nodes)), len(nodes), meta["name"])
            for p in pods:
                self.assertEqual(p["metadata"]["labels"]["controller-revision-hash"], current, p["metadata"]["name"])
                self.assertEqual(p["status"]["phase"], "Running")
            self.assertLessEqual(store.max_pods_on_a_node(meta["uid"]), 1, meta["name"])

    @unittest.skipUnless(dsrun_path() and has_http(dsrun_path()), "dsrun was built without libcurl")
    def test_against_the_stand_in(self):
        store = apiserver.Store(ready_after=0.3, grace=0.5)
        store.load(sample_objects())
        server = apiserver.serve(store)
        try:
            code, out = self.run_dsrun("--url", server.url, "--restart", "kube-system/fluentd-logging",
                                       "--timeout", "90")
        finally:
            server.stop()
        self.assertEqual(code, 0, out)
        self.assertIn("restart kube-system/fluentd-logging: patched", out)
        self.check_goal(store)
        fluentd = store.get("daemonsets", "kube-system", "fluentd-logging")
        self.assertEqual(fluentd["metadata"]["generation"], 3)  # the sample's 2, then the restart
        methods = {m for (m, _) in store.requests}
        self.assertTrue({"GET", "POST", "PUT", "DELETE"} <= methods, methods)
        # the watches asked for what the lists saw, and deletes carried the uid precondition
        self.assertTrue(any("watch=1" in p and "resourceVersion=" in p for (_, p) in store.requests))
        reasons = {e["reason"] for e in store.list("events", None)["items"]}
        self.assertTrue({"SuccessfulCreate", "SuccessfulDelete"} <= reasons, reasons)

    @unittest.skipUnless(dsrun_path() and has_http(dsrun_path()), "dsrun was built without libcurl")
    def test_server_errors(self):
        """500s on creates, a 409 on a status write, a watch cut off: the driver still gets there."""
        store = apiserver.Store(ready_after=0.2, watch_timeout=1.0)
        store.load(sample_objects())
        apiserver.inject(store, "POST", "/pods", 500, 3)
        apiserver.inject(store, "PUT", "/status", 409, 1)
        apiserver.inject(store, "DELETE", "/pods/", 503, 1)
        server = apiserver.serve(store)
        try:
            code, out = self.run_dsrun("--url", server.url, "--restart", "kube-system/fluentd-logging",
                                       "--timeout", "90")
        finally:
            server.stop()
        self.assertEqual(code, 0, out)
        self.assertEqual([f[3] for f in store.faults], [0, 0, 0])  # every fault was met
        self.assertGreater(store.watches, 4)  # the watches ended and were started again
        self.check_goal(store)

    @unittest.skipUnless(dsrun_path() and has_http(dsrun_path()), "dsrun was built without libcurl")
    def test_unreachable(self):
        code, out = self.run_dsrun("--url", "http://127.0.0.1:9", "--timeout", "5")
        self.assertNotEqual(code, 0)
        self.assertIn("list", out)


if __name__ == "__main__":
    unittest.main()
