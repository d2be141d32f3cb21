"""The list-watch loop (ds_controller_step(3)) over real HTTP, against the stand-in API server
(tests/python/apiserver.py) on loopback: dsrun, the libcurl host of examples/controller, under
what a network and a server do to it - every watch answered 500 for a while, resets, silence, a
1 GB reply, a malformed watch line, redirects, TLS it cannot verify - and the Python host of
daemonset.watchloop through the same loop.

DS_FAULTS_FULL=1 (make faults) runs the long forms: a 60-second storm of 500s."""

import json
import os
import re
import subprocess
import tempfile
import shutil
import threading
import time
import unittest

import apiserver
import daemonset.controller as controller
from daemonset import watchloop
from test_http_transport import ROOT, GoalCheck, dsrun_path, has_http, make_certificates, sample_objects

FULL = os.environ.get("DS_FAULTS_FULL") == "1"
# a shorter back-off where the test is about what happens, not how long it waits
FAST = ("--option", "reflectorBackoffInitial=100ms", "--option", "reflectorBackoffMax=1s")
HTTP = dsrun_path() and has_http(dsrun_path())


def peak_rss_kib(pid):
    """VmHWM of a live process (kB), 0 once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@unittest.skipUnless(HTTP, "dsrun is not built, or built without libcurl")
class DsrunLoopTest(GoalCheck, unittest.TestCase):
    def setUp(self):
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()

    def serve(self, objects=True, **kw):
        store = apiserver.Store(**kw)
        if objects:
            store.load(sample_objects())
        server = apiserver.serve(store)
        self.servers.append(server)
        return store, server

    def dsrun(self, server, *args, timeout=120):
        start = time.monotonic()
        out = subprocess.run([dsrun_path(), "--url", server.url] + list(args), capture_output=True, text=True,
                             timeout=timeout, cwd=ROOT)
        return out.returncode, out.stdout, out.stderr, time.monotonic() - start

    def test_bookmarks_chunks_resets_silence_and_a_bad_line(self):
        """One run through much of what a real server and network do: chunked lists, watches with
        bookmarks, a list cut by a reset, a watch that answers and then stays silent, a malformed
        watch line; dsrun reaches the goal, restarts fluentd-logging, and reaches it again."""
        store, server = self.serve(ready_after=0.2, grace=0.3)
        store.bookmark_every = 0.5
        store.chunked_lists = True
        apiserver.inject_mode(store, "GET", "/api/v1/pods?resourceVersion=0", "reset")
        apiserver.inject_mode(store, "GET", "/apis/apps/v1/daemonsets?allowWatchBookmarks", "silent")
        apiserver.inject_mode(store, "GET", "/api/v1/pods?allowWatchBookmarks", "malformed", after=1)
        code, out, err, _ = self.dsrun(server, "--restart", "kube-system/fluentd-logging", "--timeout", "60",
                                       "--option", "watchIdleTimeout=1s", *FAST)
        self.assertEqual(code, 0, out + err)
        self.check_goal(store)
        self.assertIn("restart kube-system/fluentd-logging: patched", out)
        self.assertEqual(store.get("daemonsets", "kube-system", "fluentd-logging")["metadata"]["generation"], 3)
        paths = [p for (_, p) in store.requests]
        watches = [p for p in paths if "watch=true" in p]
        for p in watches:  # client-go's query: bookmarks allowed, timeoutSeconds in [5m, 10m)
            q = dict(x.split("=", 1) for x in p.split("?", 1)[1].split("&"))
            self.assertEqual(q["allowWatchBookmarks"], "true")
            self.assertTrue(300 <= int(q["timeoutSeconds"]) < 600, p)
        self.assertGreater(store.bookmarks, 0)
        self.assertIn("failed to list pods: ", err)  # the reset
        self.assertIn("watch of daemonsets sent nothing for 1.000s (watchIdleTimeout): closing it", err)
        offset = store.malformed_offsets[0]
        self.assertRegex(err, "malformed watch event at byte offset %d of the watch on pods: not JSON" % offset)
        self.assertGreater(len([p for p in paths if p.startswith("/api/v1/pods?resourceVersion=")]), 1)

    def test_watch_storm(self):
        """Every watch answered 500 for a while (60 s with DS_FAULTS_FULL=1, else 10 s): the
        requests come no faster than the shared back-off lets them (0.8 s doubling to 30 s, plus
        up to as much again). With DS_FAULTS_FULL=1 the server then heals and the controller
        converges (the back-off may first make it wait up to a minute)."""
        storm = 60 if FULL else 8
        store, server = self.serve(ready_after=0.2)
        apiserver.inject(store, "GET", "watch=true", 500, -1)
        proc = subprocess.Popen([dsrun_path(), "--url", server.url, "--timeout", str(storm + 90)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(storm)
            with store.cond:
                during = list(store.requests)
                store.faults = []
            if not FULL:
                proc.terminate()
            out, err = proc.communicate(timeout=storm + 120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        if FULL:
            self.assertEqual(proc.returncode, 0, out + err)
            self.check_goal(store)
        gets = [p for (m, p) in during if m == "GET"]
        watches = [p for p in gets if "watch=true" in p]
        # lists are GETs of the four collections; a GET of one object (the controller reads a
        # ControllerRevision whose create said AlreadyExists) is neither, and no back-off spaces it
        collections = ("/nodes", "/pods", "/daemonsets", "/controllerrevisions")
        lists = [p for p in gets if "watch=true" not in p and p.split("?")[0].endswith(collections)]
        print("\n  watch storm: %d s of 500s: %d watch and %d list requests, %.2f requests/s (before: 7,499 "
              "reconnects in 12 s)" % (storm, len(watches), len(lists), len(gets) / storm))
        # each failure is a step of one back-off shared by the four resources: with four waiting at
        # once, no more fit in the storm than steps whose waits (0.8, 1.6, 3.2, ... s, at most 30)
        # add up to four times its length
        steps, t, base = 0, 0.0, 0.8
        while t < 4 * storm:
            steps += 1
            t += base
            base = min(base * 2, 30)
        # on failure, dsrun's log says when each failure happened and how long its step waited
        self.assertLessEqual(len(watches), steps + 4, "%s\n%s" % (watches, err))
        self.assertLessEqual(len(lists), steps + 4, "%s\n%s" % (lists, err))
        self.assertGreater(len(watches), 4)
        self.assertIn("watch of pods failed: injected fault 500; listing again in ", err)

    def test_huge_reply(self):
        """A 1 GB list reply: refused as it streams in at maxDocumentBytes (32 MiB here); dsrun's
        resident memory stays under twice that, and the reply is never read whole."""
        store, server = self.serve(ready_after=0.2)
        limit = 32 << 20
        apiserver.inject_mode(store, "GET", "/api/v1/nodes?resourceVersion", "huge", -1, size=1 << 30)
        proc = subprocess.Popen([dsrun_path(), "--url", server.url, "--timeout", "3", "--option",
                                 "maxDocumentBytes=%d" % limit, *FAST], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, peak_rss_kib(proc.pid))
            time.sleep(0.02)
        out, err = proc.communicate()
        self.assertIn("failed to list nodes: the reply is larger than maxDocumentBytes (%d bytes)" % limit, err)
        print("\n  1 GB reply: refused at %d MiB; dsrun's peak RSS %.1f MiB; %d attempts, at most %.1f MiB sent "
              "each" % (limit >> 20, peak / 1024, len(store.huge_sent), max(store.huge_sent) / (1 << 20)))
        self.assertGreater(peak, 0)
        self.assertLess(peak * 1024, 2 * limit)
        self.assertTrue(store.huge_sent and max(store.huge_sent) < (1 << 30) // 4, store.huge_sent)

    def test_redirect_not_followed(self):
        """A 302 is an answer: dsrun does not follow it (the other server sees nothing)."""
        other_store, other = self.serve()
        store, server = self.serve(ready_after=0.2)
        apiserver.inject_mode(store, "GET", "/api/v1/nodes?resourceVersion", "redirect", 1, to=other.url)
        code, out, err, _ = self.dsrun(server, "--timeout", "30", *FAST)
        self.assertEqual(code, 0, out + err)
        self.assertIn("failed to list nodes: the server answered HTTP 302", err)
        self.assertEqual(other_store.requests, [])

    def test_tls_verified_by_default(self):
        """https:// with a certificate no trusted CA signed: the TLS error, and no request sent."""
        tmp = tempfile.mkdtemp(prefix="dsrun-tls-")
        try:
            make_certificates(tmp)
            store = apiserver.Store()
            server = apiserver.serve(store, certfile=os.path.join(tmp, "server.crt"),
                                     keyfile=os.path.join(tmp, "server.key"))
            self.servers.append(server)
            code, out, err, _ = self.dsrun(server, "--timeout", "2")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self.assertNotEqual(code, 0)
        self.assertRegex(err, r"failed to list nodes: .*(SSL|certificate)")
        self.assertEqual(store.requests, [])


class PythonHostTest(GoalCheck, unittest.TestCase):
    """daemonset.watchloop: the same loop hosted by Python's http.client and threads."""

    def setUp(self):
        self.store = apiserver.Store(ready_after=0.2, grace=0.3)
        self.store.load(sample_objects())
        self.store.bookmark_every = 0.5
        self.store.chunked_lists = True
        self.server = apiserver.serve(self.store)
        self.lines = []

    def tearDown(self):
        self.server.stop()

    def log(self, level, message):
        self.lines.append((level, message))

    def test_converges_through_faults(self):
        """Converges, restarts fluentd-logging and converges again, through a 500 on a list, a
        reset list, a malformed watch line (logged with its resource and offset), a 410 and a
        short storm of 500s on watches."""
        apiserver.inject(self.store, "GET", "/apis/apps/v1/daemonsets?resourceVersion", 500, 1)
        apiserver.inject_mode(self.store, "GET", "/api/v1/nodes?resourceVersion=0", "reset")
        apiserver.inject_mode(self.store, "GET", "/api/v1/pods?allowWatchBookmarks", "malformed", after=1)
        apiserver.inject(self.store, "GET", "/apis/apps/v1/controllerrevisions?allowWatchBookmarks", 500, 3)
        restarted = []

        def goal():
            if not loop.converged():
                return False
            if restarted:
                ds = loop.controller.get("DaemonSet", "kube-system", "fluentd-logging")
                return ds["metadata"]["generation"] == 3
            self.store.patch("daemonsets", "kube-system", "fluentd-logging",
                             {"spec": {"template": {"metadata": {"annotations": {"restarted": "now"}}}}},
                             "application/merge-patch+json")
            restarted.append(True)
            return False

        with watchloop.WatchLoop(self.server.url, options={"seed": "3", "reflectorBackoffInitial": "100ms",
                                                           "reflectorBackoffMax": "1s"}, log=self.log) as loop:
            done = loop.run(stop=goal, timeout=60)
            status = loop.status()
        self.assertTrue(done, self.lines)
        self.check_goal(self.store)
        text = "\n".join(m for (_, m) in self.lines)
        self.assertIn("failed to list daemonsets: injected fault 500; listing again in 0.", text)
        self.assertIn("failed to list nodes: ", text)
        self.assertRegex(text, "malformed watch event at byte offset %d of the watch on pods: not JSON"
                         % self.store.malformed_offsets[0])
        self.assertIn("watch of controllerrevisions failed: injected fault 500", text)
        self.assertTrue(status["stopped"])
        for r in ("nodes", "pods", "daemonsets", "controllerrevisions"):
            self.assertTrue(status["resources"][r]["synced"], status)

    def test_leader_election(self):
        """The Lease first, then the lists; given up when the loop stops."""
        lease = controller.LeaseConfig("python-host", "kube-system", "watchloop", 15000, 10000)
        with watchloop.WatchLoop(self.server.url, options={"leaseRetryPeriod": "2s"}, lease=lease,
                                 log=self.log) as loop:
            done = loop.run(stop=loop.converged, timeout=60)
        self.assertTrue(done, self.lines)
        first_lease = self.store.requests.index(("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases"))
        first_list = next(i for i, (m, p) in enumerate(self.store.requests) if "/leases" not in p)
        self.assertLess(first_lease, first_list)
        self.assertEqual(self.store.get("leases", "kube-system", "watchloop")["spec"]["holderIdentity"], "")
        messages = [m for (_, m) in self.lines]
        self.assertIn("successfully acquired lease kube-system/watchloop", messages)
        self.assertIn("released lease kube-system/watchloop", messages)


if __name__ == "__main__":
    unittest.main()
