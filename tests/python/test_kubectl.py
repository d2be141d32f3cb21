"""The real kubectl against the fake API server of tests/support (build/tests/support/fakeapiserver:
fakeapi.h behind HTTP, the same fake the C suites use), with libdaemonset's controller doing the
DaemonSet work (examples/controller/dsrun --url): kubectl get, apply, rollout status completing
when dsrun completes the rollout, rollout undo, drain printing what `dsctl drain` predicted for the
same cluster (and a drain a PodDisruptionBudget blocks), and the kubectl-ds plugin. kubectl finds
the server through a kubeconfig, as it finds any cluster. Skipped, saying so, where kubectl is not
installed. The fake's clock is the real one here (dsrun reads the real clock too), with short
grace periods so that the drains finish in a second or two."""

import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.path.join(ROOT, "build")
KUBECTL = shutil.which("kubectl")
FAKEAPISERVER = os.environ.get("FAKEAPISERVER") or os.path.join(BUILD, "tests", "support", "fakeapiserver")
DSRUN = os.environ.get("DSRUN") or os.path.join(BUILD, "examples", "controller", "dsrun")
DSCTL = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(DSRUN)))), "bin", "dsctl")
NOW = "2026-12-02T15:00:00Z"

NODES = """
apiVersion: v1
kind: Node
metadata:
  name: cp-1
  labels: {kubernetes.io/hostname: cp-1, node-role.kubernetes.io/control-plane: ""}
spec: {taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]}
status:
  conditions: [{type: Ready, status: "True"}]
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  nodeInfo: {kubeletVersion: v1.35.0}
---
apiVersion: v1
kind: Node
metadata: {name: worker-1, labels: {kubernetes.io/hostname: worker-1}}
status:
  conditions: [{type: Ready, status: "True"}]
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  nodeInfo: {kubeletVersion: v1.35.0}
---
apiVersion: v1
kind: Node
metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2}}
status:
  conditions: [{type: Ready, status: "True"}]
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  nodeInfo: {kubeletVersion: v1.35.0}
"""

DAEMONSET = """
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: agent, image: "agent:%s"}]
"""

# A pod of a Deployment's ReplicaSet on worker-2 (its owner is of a kind the fake does not serve:
# the garbage collector leaves it be, as it leaves any owner it cannot look up).
WEB_POD = """
apiVersion: v1
kind: Pod
metadata:
  name: web-7d4b9c-x2x9z
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d4b9c,
                     uid: 0b7d4b9c-0000-4000-8000-000000000001, controller: true}]
spec:
  nodeName: worker-2
  terminationGracePeriodSeconds: 1
  containers: [{name: web, image: "nginx:1.27"}]
"""

PDB = """
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
"""


def usable():
    if not KUBECTL:
        return "kubectl is not installed (these tests drive the real kubectl against the fake API server)"
    for path, what in ((FAKEAPISERVER, "fakeapiserver"), (DSRUN, "dsrun"), (DSCTL, "dsctl")):
        if not os.path.exists(path):
            return "%s is not built (%s): run make" % (what, path)
    out = subprocess.run([DSRUN, "--url", "http://127.0.0.1:9", "--timeout", "0"], capture_output=True, text=True)
    if "built without libcurl" in out.stderr:
        return "dsrun was built without libcurl"
    return None


class Cluster:
    """A fakeapiserver on a free port with objects loaded, a kubeconfig that points kubectl at it,
    and the environment for kubectl, its plugins (examples/dsctl/kubectl-ds) and dsctl."""

    def __init__(self, *manifests):
        self.dir = tempfile.mkdtemp(prefix="kubectl-fake-")
        files = []
        for i, text in enumerate(manifests):
            path = os.path.join(self.dir, "objects-%d.yaml" % i)
            with open(path, "w") as f:
                f.write(text)
            files.append(path)
        self.log = os.path.join(self.dir, "requests.log")
        self.proc = subprocess.Popen([FAKEAPISERVER, "--ready-after", "200", "--log", self.log] + files,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("serving on "):
            self.stop()
            raise RuntimeError("fakeapiserver did not start: %r %s" % (line, self.proc.stderr.read()))
        self.url = line.split()[-1]
        self.kubeconfig = os.path.join(self.dir, "kubeconfig")
        with open(self.kubeconfig, "w") as f:
            f.write("apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster: {server: %s}\n"
                    "users:\n- name: fake\n  user: {}\ncontexts:\n- name: fake\n  context: {cluster: fake, "
                    "user: fake}\ncurrent-context: fake\n" % self.url)
        self.env = dict(os.environ, KUBECONFIG=self.kubeconfig, DSCTL=DSCTL, KUBECTL=KUBECTL,
                        HOME=self.dir, PATH=os.path.join(ROOT, "examples", "dsctl") + os.pathsep + os.environ["PATH"])

    def kubectl(self, *args, check=True, timeout=60):
        p = subprocess.run([KUBECTL] + list(args), capture_output=True, text=True, env=self.env, timeout=timeout)
        if check and p.returncode != 0:
            raise AssertionError("kubectl %s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
        return p

    def apply(self, text):
        path = os.path.join(self.dir, "apply.yaml")
        with open(path, "w") as f:
            f.write(text)
        return self.kubectl("apply", "-f", path).stdout

    def controller(self):
        """dsrun over HTTP, in the background: it runs every DaemonSet to its goal, then exits."""
        return subprocess.Popen([DSRUN, "--url", self.url, "--timeout", "60"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=self.env)

    def converge(self):
        p = self.controller()
        out, err = p.communicate(timeout=90)
        if p.returncode != 0 or "converged" not in out:
            raise AssertionError("dsrun did not converge: %s%s" % (out, err))

    def json(self, *args):
        return json.loads(self.kubectl(*(list(args) + ["-o", "json"])).stdout)

    def pods(self, selector):
        return self.json("get", "pods", "-l", selector)["items"]

    def dump(self):
        path = os.path.join(self.dir, "dump.json")
        with open(path, "w") as f:
            f.write(self.kubectl("get", "nodes,pods,daemonsets.apps,controllerrevisions.apps,"
                                 "poddisruptionbudgets.policy,priorityclasses.scheduling.k8s.io",
                                 "--all-namespaces", "-o", "json").stdout)
        return path

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class KubectlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        why = usable()
        if why:
            raise unittest.SkipTest(why)

    def setUp(self):
        self.cluster = Cluster(NODES)
        self.addCleanup(self.cluster.stop)

    def images(self):
        return sorted((p["spec"]["nodeName"], p["spec"]["containers"][0]["image"]) for p in self.cluster.pods("app=agent")
                      if not p["metadata"].get("deletionTimestamp"))

    def rollout(self):
        """kubectl rollout status while dsrun works: it must end when dsrun ends the rollout."""
        ctrl = self.cluster.controller()
        status = self.cluster.kubectl("rollout", "status", "ds/agent", "--timeout=60s")
        out, err = ctrl.communicate(timeout=90)
        self.assertEqual(ctrl.returncode, 0, out + err)
        self.assertIn("converged", out)
        self.assertEqual(status.stdout.strip().splitlines()[-1], 'daemon set "agent" successfully rolled out')
        return status.stdout

    def test_get(self):
        c = self.cluster
        out = c.kubectl("get", "nodes").stdout.splitlines()
        self.assertEqual(out[0].split(), ["NAME", "STATUS", "ROLES", "AGE", "VERSION"])
        rows = [line.split() for line in out[1:]]
        self.assertEqual([r[0] for r in rows], ["cp-1", "worker-1", "worker-2"])
        self.assertEqual([r[1] for r in rows], ["Ready"] * 3)
        self.assertEqual([r[2] for r in rows], ["control-plane", "<none>", "<none>"])
        self.assertEqual([r[4] for r in rows], ["v1.35.0"] * 3)
        self.assertEqual(c.kubectl("get", "nodes", "-o", "name").stdout.split(),
                         ["node/cp-1", "node/worker-1", "node/worker-2"])
        self.assertEqual(c.kubectl("get", "node", "worker-1", "-o", "jsonpath={.status.allocatable.cpu}").stdout, "4")
        self.assertEqual(c.kubectl("get", "ns", "-o", "name").stdout.split(),
                         ["namespace/default", "namespace/kube-node-lease", "namespace/kube-public",
                          "namespace/kube-system"])
        missing = c.kubectl("get", "node", "nope", check=False)
        self.assertNotEqual(missing.returncode, 0)
        self.assertIn('Error from server (NotFound): nodes "nope" not found', missing.stderr)

    def test_apply_rollout_status_and_undo(self):
        c = self.cluster
        self.assertEqual(c.apply(DAEMONSET % "v1").strip(), "daemonset.apps/agent created")
        self.rollout()
        # one pod on each worker, none on the tainted control plane
        self.assertEqual(self.images(), [("worker-1", "agent:v1"), ("worker-2", "agent:v1")])
        row = c.kubectl("get", "ds", "agent").stdout.splitlines()
        self.assertEqual(row[0].split(), ["NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE",
                                          "SELECTOR", "AGE"])
        self.assertEqual(row[1].split()[:7], ["agent", "2", "2", "2", "2", "2", "<none>"])
        # a new image: rollout status waits for dsrun's rolling update (maxUnavailable 1) and ends with it
        self.assertEqual(c.apply(DAEMONSET % "v2").strip(), "daemonset.apps/agent configured")
        out = self.rollout()
        self.assertIn('Waiting for daemon set "agent" rollout to finish', out)
        self.assertEqual(self.images(), [("worker-1", "agent:v2"), ("worker-2", "agent:v2")])
        history = c.kubectl("rollout", "history", "ds/agent").stdout.split()
        self.assertEqual(history[:4], ["daemonset.apps/agent", "REVISION", "CHANGE-CAUSE", "1"])
        # kubectl rollout undo: back to the previous ControllerRevision's template
        self.assertEqual(c.kubectl("rollout", "undo", "ds/agent").stdout.strip(), "daemonset.apps/agent rolled back")
        self.assertEqual(c.kubectl("get", "ds", "agent", "-o", "jsonpath={.spec.template.spec.containers[0].image}")
                         .stdout, "agent:v1")
        self.rollout()
        self.assertEqual(self.images(), [("worker-1", "agent:v1"), ("worker-2", "agent:v1")])
        revisions = sorted(r["revision"] for r in c.json("get", "controllerrevisions")["items"])
        self.assertEqual(revisions, [2, 3])  # the rolled-back-to revision is renumbered

    def drain_lines(self, node, extra=()):
        """What dsctl drain predicts kubectl prints for node on the cluster as kubectl reads it."""
        out = subprocess.run([DSCTL, "-f", self.cluster.dump(), "drain", node, "--ignore-daemonsets"] + list(extra),
                             capture_output=True, text=True, env=self.cluster.env)
        lines = out.stdout.split("\n\n")[0].splitlines()
        self.assertEqual(lines[0], "# kubectl drain %s --ignore-daemonsets" % node)
        return out.returncode, [line for line in lines[1:] if not line.startswith("(kubectl ")]

    def test_drain_as_dsctl_predicts(self):
        c = self.cluster
        c.apply(DAEMONSET % "v1")
        c.apply(WEB_POD)
        c.converge()
        rc, predicted = self.drain_lines("worker-2")
        self.assertEqual(rc, 0)
        drain = c.kubectl("drain", "worker-2", "--ignore-daemonsets", "--timeout=60s", check=False)
        self.assertEqual(drain.returncode, 0, drain.stdout + drain.stderr)
        # kubectl writes the warnings on stderr and evicts concurrently: the same lines, the cordon
        # first and "drained" last
        got = (drain.stdout + drain.stderr).splitlines()
        self.assertEqual(sorted(got), sorted(predicted))
        self.assertEqual(got[0], predicted[0])
        self.assertIn("Warning: ignoring DaemonSet-managed Pods: default/", "\n".join(got))
        self.assertEqual(drain.stdout.splitlines()[-1], "node/worker-2 drained")
        node = c.json("get", "node", "worker-2")
        self.assertTrue(node["spec"].get("unschedulable"))
        self.assertEqual(c.pods("app=web"), [])
        # the DaemonSet's pod stays (it tolerates node.kubernetes.io/unschedulable)
        self.assertEqual([p["spec"]["nodeName"] for p in c.pods("app=agent")].count("worker-2"), 1)
        self.assertEqual(c.kubectl("uncordon", "worker-2").stdout.strip(), "node/worker-2 uncordoned")

    def test_drain_blocked_by_a_disruption_budget(self):
        c = self.cluster
        c.apply(DAEMONSET % "v1")
        c.apply(WEB_POD)
        c.apply(PDB)
        c.converge()
        time.sleep(0.2)  # the disruption controller's status
        rc, predicted = self.drain_lines("worker-2")
        self.assertEqual(rc, 3)  # blocked: kubectl would not exit
        drain = c.kubectl("drain", "worker-2", "--ignore-daemonsets", "--timeout=2s", check=False)
        self.assertNotEqual(drain.returncode, 0)
        got = (drain.stdout + drain.stderr).splitlines()
        for line in predicted:  # every line dsctl predicted, the refused eviction included
            self.assertIn(line, got)
        self.assertIn('error when evicting pods/"web-7d4b9c-x2x9z" -n "default" (will retry after 5s): Cannot evict '
                      "pod as it would violate the pod's disruption budget.", got)
        self.assertEqual(len(c.pods("app=web")), 1)

    def test_kubectl_ds_plugin(self):
        c = self.cluster
        c.apply(DAEMONSET % "v1")
        c.converge()
        # kubectl runs kubectl-ds from PATH; it reads the cluster with kubectl and hands it to dsctl
        plugin = c.kubectl("ds", "--now", NOW, "explain", "default/agent")
        direct = subprocess.run([DSCTL, "--now", NOW, "-f", c.dump(), "explain", "default/agent"],
                                capture_output=True, text=True, env=c.env)
        self.assertEqual(plugin.stdout, direct.stdout)
        self.assertIn("worker-1", plugin.stdout)
        self.assertIn("cp-1", plugin.stdout)
        listed = c.kubectl("plugin", "list", check=False)
        self.assertIn("kubectl-ds", listed.stdout + listed.stderr)
        # its own connection flags go to kubectl: a server that is not there
        bad = c.kubectl("ds", "--server", "http://127.0.0.1:9", "explain", "default/agent", check=False)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("kubectl-ds: kubectl could not read the cluster", bad.stderr)


if __name__ == "__main__":
    unittest.main()
