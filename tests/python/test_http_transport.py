"""The libcurl transport and the host program examples/controller/dsrun, end to end
against the stand-in API server (tests/python/apiserver.py): no kube-apiserver
runs here. The sample cluster is served, dsrun runs every DaemonSet to its goal,
restarts fluentd-logging (a rolling update) and waits for that too; the server's
final state is then checked. InClusterTest does the same over HTTPS with the
service account's token and CA (dsrun --in-cluster), certificates made with the
openssl command."""

import json
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
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


class GoalCheck:
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


@unittest.skipUnless(dsrun_path(), "examples/controller/dsrun is not built (make examples)")
class HostProgramTest(GoalCheck, unittest.TestCase):
    def run_dsrun(self, *args, timeout=120):
        out = subprocess.run([dsrun_path()] + list(args), capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        return out.returncode, out.stdout + out.stderr

    def test_in_memory(self):
        code, out = self.run_dsrun("--restart", "kube-system/fluentd-logging")
        self.assertEqual(code, 0, out)
        self.assertIn("restart kube-system/fluentd-logging: patched", out)
        self.assertIn("kube-system/fluentd-logging: desired 4, updated 4, available 4", out)
        self.assertTrue(out.rstrip().endswith("converged"), out)

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
        self.assertTrue(any("watch=true" in p and "resourceVersion=" in p for (_, p) in store.requests))
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


def openssl(*args, cwd):
    subprocess.run(["openssl"] + list(args), cwd=cwd, check=True, capture_output=True, timeout=30)


def make_certificates(folder):
    """ca.crt, and server.crt/server.key signed by it for 127.0.0.1 and ::1 (IP SANs); other-ca.crt
    signed nothing. EC keys: quick to make."""
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for ca in ("ca", "other-ca"):
        openssl("req", "-x509", *key, "-keyout", ca + ".key", "-out", ca + ".crt", "-days", "2",
                "-subj", "/CN=%s" % ca, "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=folder)
    openssl("req", "-new", *key, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=kube-apiserver",
            cwd=folder)
    with open(os.path.join(folder, "server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\n"
                "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-set_serial", "2",
            "-days", "2", "-extfile", "server.ext", "-out", "server.crt", cwd=folder)


def has_ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@unittest.skipUnless(dsrun_path() and has_http(dsrun_path()), "dsrun is not built, or built without libcurl")
@unittest.skipUnless(shutil.which("openssl"), "the openssl command is not installed: no certificates to test with")
class InClusterTest(GoalCheck, unittest.TestCase):
    """dsrun --in-cluster: HTTPS to $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, the service account's
    CA and bearer token, from the directory DSRUN_SERVICEACCOUNT_DIR names instead of
    /var/run/secrets/kubernetes.io/serviceaccount."""

    TOKEN = "eyJhbGciOiJSUzI1NiJ9.the-service-account.signature"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dsrun-in-cluster-")
        make_certificates(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()

    def cert(self, name):
        return os.path.join(self.tmp, name)

    def sa_dir(self, token=TOKEN + "\n", ca="ca.crt"):
        """A service-account directory: token (None: none) and ca.crt (a copy of ca; None: none)."""
        d = tempfile.mkdtemp(dir=self.tmp)
        if token is not None:
            with open(os.path.join(d, "token"), "w") as f:
                f.write(token)
        if ca:
            shutil.copy(self.cert(ca), os.path.join(d, "ca.crt"))
        return d

    def serve(self, tokens=(TOKEN,), host="127.0.0.1", objects=True, **kw):
        store = apiserver.Store(**kw)
        if objects:
            store.load(sample_objects())
        server = apiserver.serve(store, host=host, certfile=self.cert("server.crt"), keyfile=self.cert("server.key"),
                                 tokens=set(tokens))
        self.servers.append(server)
        return store, server

    def env(self, server, sa, host="127.0.0.1"):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("KUBERNETES_") and k != "DSRUN_SERVICEACCOUNT_DIR"}
        env.update(KUBERNETES_SERVICE_HOST=host, KUBERNETES_SERVICE_PORT=str(server.port if server else 443),
                   DSRUN_SERVICEACCOUNT_DIR=sa)
        return env

    def run_dsrun(self, env, *args, timeout=60):
        start = time.monotonic()
        out = subprocess.run([dsrun_path(), "--in-cluster"] + list(args), capture_output=True, text=True,
                             timeout=timeout, cwd=ROOT, env=env)
        return out.returncode, out.stdout + out.stderr, time.monotonic() - start

    def test_stand_in_authentication(self):
        """The stand-in as kube-apiserver: HTTPS with this certificate, 401 and its Status body without the
        token."""
        store, server = self.serve(objects=False)
        ctx = ssl.create_default_context(cafile=self.cert("ca.crt"))

        def get(auth):
            req = urllib.request.Request(server.url + "/api/v1/nodes", headers={"Authorization": auth} if auth else {})
            try:
                with urllib.request.urlopen(req, timeout=10, context=ctx) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())

        unauthorized = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                        "message": "Unauthorized", "reason": "Unauthorized", "code": 401}
        self.assertEqual(get(None), (401, unauthorized))
        self.assertEqual(get("Bearer nope"), (401, unauthorized))
        self.assertEqual(get("Basic " + self.TOKEN), (401, unauthorized))
        code, nodes = get("Bearer " + self.TOKEN)
        self.assertEqual((code, nodes["kind"]), (200, "NodeList"))
        self.assertEqual(store.authorizations, [None, "Bearer nope", "Basic " + self.TOKEN, "Bearer " + self.TOKEN])
        self.assertEqual(store.unauthorized, 3)
        with self.assertRaises(urllib.error.URLError):  # a CA that did not sign it
            urllib.request.urlopen(server.url + "/api/v1/nodes", timeout=10,
                                   context=ssl.create_default_context(cafile=self.cert("other-ca.crt")))

    def test_reaches_the_goal(self):
        store, server = self.serve(ready_after=0.3, grace=0.5)
        self.assertTrue(server.url.startswith("https://127.0.0.1:"))
        code, out, _ = self.run_dsrun(self.env(server, self.sa_dir()), "--restart", "kube-system/fluentd-logging",
                                      "--timeout", "60")
        self.assertEqual(code, 0, out)
        self.assertIn("restart kube-system/fluentd-logging: patched", out)
        self.check_goal(store)
        self.assertEqual(store.get("daemonsets", "kube-system", "fluentd-logging")["metadata"]["generation"], 3)
        methods = {m for (m, _) in store.requests}
        self.assertTrue({"GET", "POST", "PUT", "DELETE", "PATCH"} <= methods, methods)
        # every request, watches and the restart's patch included, carried the token (trimmed of its newline)
        self.assertTrue(any("watch=true" in p for (_, p) in store.requests))
        self.assertEqual(set(store.authorizations), {"Bearer " + self.TOKEN})
        self.assertEqual(len(store.authorizations), len(store.requests))
        self.assertEqual(store.unauthorized, 0)
        self.assertNotIn(self.TOKEN, out)  # the bearer token is never printed

    @unittest.skipUnless(has_ipv6_loopback(), "no IPv6 loopback here")
    def test_ipv6_host(self):
        """KUBERNETES_SERVICE_HOST=::1 becomes https://[::1]:PORT (the certificate's IP SAN ::1). Nothing
        to converge: dsrun lists, watches, and stops at --timeout."""
        store, server = self.serve(host="::1", objects=False)
        self.assertTrue(server.url.startswith("https://[::1]:"))
        code, out, _ = self.run_dsrun(self.env(server, self.sa_dir(), host="::1"), "--timeout", "1", timeout=20)
        self.assertEqual(code, 1, out)
        self.assertEqual(out.strip(), "not converged")
        self.assertTrue({"/api/v1/nodes", "/apis/apps/v1/daemonsets"} <= {p.split("?")[0] for (_, p) in store.requests},
                        store.requests)
        self.assertTrue(any("watch=true" in p for (_, p) in store.requests))
        self.assertEqual(set(store.authorizations), {"Bearer " + self.TOKEN})

    def test_wrong_token(self):
        """kube-apiserver answers 401: dsrun says why, and lists again only as the back-off allows (as
        client-go's reflector does: a rotated token may be accepted later), until --timeout."""
        store, server = self.serve(tokens={"the-right-one"})
        code, out, took = self.run_dsrun(self.env(server, self.sa_dir(token="a-wrong-one")), "--timeout", "8")
        self.assertNotEqual(code, 0, out)
        self.assertIn("failed to list nodes: Unauthorized; listing again in ", out)
        self.assertGreater(store.unauthorized, 0)
        self.assertIn("Bearer a-wrong-one", store.authorizations)
        self.assertEqual(store.unauthorized, len(store.requests))  # nothing got through
        # the shared back-off (0.8 s doubled at each failure, plus up to as much again): 8 s hold at most
        # the four first lists and 0.8 + 1.6 + 3.2 + 6.4 s of retries
        self.assertLessEqual(len(store.requests), 4 + 4, store.requests)
        self.assertNotIn("a-wrong-one", out)  # the token is never printed

    def test_untrusted_certificate(self):
        """A ca.crt that did not sign the server's certificate: a TLS error, and no request (no token) sent."""
        store, server = self.serve()
        code, out, _ = self.run_dsrun(self.env(server, self.sa_dir(ca="other-ca.crt")), "--timeout", "5")
        self.assertNotEqual(code, 0, out)
        self.assertRegex(out, r"SSL|certificate")
        self.assertIn("list", out)
        self.assertEqual(store.requests, [])

    def test_missing_ca(self):
        """No ca.crt: client-go's warning, then the system's CAs, which do not know this server."""
        store, server = self.serve()
        code, out, _ = self.run_dsrun(self.env(server, self.sa_dir(ca=None)), "--timeout", "5")
        self.assertNotEqual(code, 0, out)
        self.assertIn("Expected to load root CA config from ", out)
        self.assertIn("ca.crt", out)
        self.assertEqual(store.requests, [])

    def test_not_in_a_cluster(self):
        for host in (None, ""):
            env = self.env(None, self.sa_dir())
            if host is None:
                del env["KUBERNETES_SERVICE_HOST"]
            else:
                env["KUBERNETES_SERVICE_HOST"] = host
            code, out, _ = self.run_dsrun(env, "--timeout", "5", timeout=10)
            self.assertEqual(code, 1, out)
            self.assertEqual(out.strip(), "dsrun: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST "
                             "and KUBERNETES_SERVICE_PORT must be defined")

    def test_token_file_problems(self):
        """No token, an empty one, a directory in its place: an error naming the file, no request sent."""
        store, server = self.serve()
        cases = [(None, 'failed to read token file "%s/token": No such file or directory'),
                 (" \n\t\n", 'read empty token from file "%s/token"'),
                 ("abc\r\nX-Injected: 1\n", 'invalid token in file "%s/token"')]
        for token, message in cases:
            sa = self.sa_dir(token=token)
            code, out, _ = self.run_dsrun(self.env(server, sa), "--timeout", "5", timeout=10)
            self.assertEqual(code, 1, out)
            self.assertIn(message % sa, out)
        sa = self.sa_dir(token=None)
        os.mkdir(os.path.join(sa, "token"))
        code, out, _ = self.run_dsrun(self.env(server, sa), "--timeout", "5", timeout=10)
        self.assertEqual(code, 1, out)
        self.assertIn('failed to read token file "%s/token": Is a directory' % sa, out)
        self.assertEqual(store.requests, [])

    def test_token_rotation(self):
        """The kubelet replaces the token while dsrun runs; once the server has seen the new one it accepts
        only that: dsrun (which reads the file before every request) never meets a 401. Then the file
        goes: dsrun keeps the last token it read (client-go's cachingTokenSource)."""
        store, server = self.serve(ready_after=0.3)
        sa = self.sa_dir()
        new = "eyJhbGciOiJSUzI1NiJ9.rotated.signature"
        proc = subprocess.Popen([dsrun_path(), "--in-cluster", "--timeout", "60"], cwd=ROOT, env=self.env(server, sa),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            def wait_for(pred, what):
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline and proc.poll() is None:
                    with store.cond:
                        if pred():
                            return
                    time.sleep(0.01)
                self.fail("dsrun %s: %s" % ("ended" if proc.poll() is not None else "timed out", what))

            wait_for(lambda: store.requests, "no first request")
            tmp = os.path.join(sa, "token.new")
            with open(tmp, "w") as f:
                f.write(new)
            with store.cond:
                server.tokens.add(new)
            os.replace(tmp, os.path.join(sa, "token"))  # atomically, as the kubelet does
            wait_for(lambda: "Bearer " + new in store.authorizations, "the new token never came")
            with store.cond:
                server.tokens = {new}
                switched = len(store.requests)
            os.remove(os.path.join(sa, "token"))
            with store.cond:
                removed = len(store.requests)
            out, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        self.assertEqual(proc.returncode, 0, out)
        self.check_goal(store)
        self.assertEqual(store.unauthorized, 0)
        self.assertGreater(len(store.requests), removed, "no request after the token file went")
        self.assertEqual(set(store.authorizations[switched:]), {"Bearer " + new})


if __name__ == "__main__":
    unittest.main()
