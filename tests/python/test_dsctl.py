"""dsctl, the example CLI, run as a program on the sample cluster (examples/cluster).

The binary is found through, in order: $DSCTL; bin/dsctl next to the library
$DAEMONSET_LIB points into (BUILD/lib/libdaemonset.so.1 -> BUILD/bin/dsctl);
$BUILD/bin/dsctl; build/bin/dsctl. Paths are relative to the repository root.
"""

import json
import os
import subprocess
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "examples", "cluster")
SCENARIOS = os.path.join(ROOT, "examples", "scenarios")
NOW = "2026-12-02T15:00:00Z"


def _find_dsctl():
    if os.environ.get("DSCTL"):
        return os.path.join(ROOT, os.environ["DSCTL"])
    candidates = []
    lib = os.environ.get("DAEMONSET_LIB")
    if lib:
        candidates.append(os.path.join(os.path.dirname(os.path.abspath(lib)), os.pardir, "bin", "dsctl"))
    candidates.append(os.path.join(ROOT, os.environ.get("BUILD", "build"), "bin", "dsctl"))
    candidates.append(os.path.join(ROOT, "build", "bin", "dsctl"))
    for c in candidates:
        if os.access(c, os.X_OK):
            return os.path.normpath(c)
    return os.path.normpath(candidates[0])


DSCTL = _find_dsctl()


def setUpModule():
    if not os.access(DSCTL, os.X_OK):
        raise RuntimeError("dsctl not found at %s: build it (make examples) or set DSCTL" % DSCTL)


def run(*args, cluster=True, stdin=None):
    """Run dsctl; returns (exit code, stdout, stderr)."""
    argv = [DSCTL, "--color=never", "--now", NOW]
    if cluster:
        argv += ["-f", CLUSTER]
    argv += list(args)
    env = dict(os.environ, NO_COLOR="1")
    env.pop("COLUMNS", None)  # tables and notes wrap at COLUMNS: the tests compare unwrapped lines
    p = subprocess.run(argv, input=stdin if stdin is not None else "", capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=60)
    return p.returncode, p.stdout, p.stderr


def run_json(testcase, *args, code=0, **kw):
    rc, out, err = run("-o", "json", *args, **kw)
    testcase.assertEqual(rc, code, err)
    return json.loads(out)


class TempFiles:
    """Write named manifests into a temporary directory."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def cleanup(self):
        self.dir.cleanup()


AGENT = """\
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent, namespace: default}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          restartPolicy: RESTART
          containers: [{name: agent, image: "busybox:1.37"}]
    """

BAD = """\
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: bad, namespace: default}
    spec:
      selector: {matchLabels: {a: b}}
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}
      template:
        metadata: {labels: {a: c}}
        spec:
          restartPolicy: Never
          containers: [{name: x, image: ""}]
    """


# ---- the commands that were there before: a smoke test of each ----------------------------


class TestExistingCommands(unittest.TestCase):
    def test_version(self):
        rc, out, err = run("version", cluster=False)
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"^dsctl \d+\.\d+\.\d+ \(libdaemonset \d+\.\d+\.\d+\)\n$")
        v = run_json(self, "version", cluster=False)
        self.assertEqual(set(v), {"dsctl", "libdaemonset"})

    def test_get(self):
        rc, out, err = run("get")
        self.assertEqual(rc, 0, err)
        self.assertIn("Loaded 6 nodes, 9 pods, 3 DaemonSets, 2 ControllerRevisions, 1 PodDisruptionBudgets", out)
        self.assertRegex(out, r"kube-system +fluentd-logging +4 +3 +3 +2 +3\n")
        self.assertIn("Nodes: cp-1, gpu-1, worker-1, worker-2, worker-3, worker-4\n", out)
        # with -o, get prints the objects (a List), not the summary
        s = run_json(self, "get")
        self.assertEqual((s["kind"], s["apiVersion"]), ("List", "v1"))
        self.assertEqual(sorted(o["metadata"]["name"] for o in s["items"] if o["kind"] == "Node"),
                         ["cp-1", "gpu-1", "worker-1", "worker-2", "worker-3", "worker-4"])
        self.assertEqual(sorted(o["metadata"]["name"] for o in s["items"] if o["kind"] == "DaemonSet"),
                         ["fluentd-logging", "node-exporter", "nvidia-device-plugin"])

    def test_explain(self):
        rc, out, err = run("explain", "fluentd-logging")
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"worker-4 +create +yes/keep")
        self.assertRegex(out, r"cp-1 +not-placed +no/keep +- +node\(s\) had untolerated taint "
                              r"\{node-role.kubernetes.io/control-plane: \}")
        doc = run_json(self, "explain", "kube-system/fluentd-logging", "gpu-1")
        self.assertEqual([r["node"] for r in doc["rows"]], ["gpu-1"])
        self.assertFalse(doc["rows"][0]["shouldRun"])
        rc, out, err = run("explain", "fluentd-logging", "nope")
        self.assertEqual(rc, 1)
        self.assertIn('nodes "nope" not found', err)

    def test_plan(self):
        rc, out, err = run("plan", "fluentd-logging")
        self.assertEqual(rc, 0, err)
        self.assertIn("One sync of DaemonSet kube-system/fluentd-logging", out)
        self.assertRegex(out, r"worker-4 +missing +0")
        doc = run_json(self, "plan", "fluentd-logging")
        self.assertEqual(doc["status"]["desiredNumberScheduled"], 4)

    def test_status(self):
        rc, out, err = run("status", "kube-system/fluentd-logging")
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"kube-system +fluentd-logging +4 +3 +3 +2 +3 +0\n")
        st = run_json(self, "status", "fluentd-logging")
        self.assertEqual((st["desiredNumberScheduled"], st["updatedNumberScheduled"], st["numberMisscheduled"]),
                         (4, 2, 0))

    def test_pod(self):
        rc, out, err = run("pod", "fluentd-logging", "worker-4")
        self.assertEqual(rc, 0, err)
        self.assertIn("generateName: fluentd-logging-\n", out)
        self.assertIn("controller-revision-hash: 7c9d8b6f54\n", out)
        pod = run_json(self, "pod", "fluentd-logging", "worker-4")
        self.assertEqual(pod["kind"], "Pod")
        self.assertIn("worker-4", json.dumps(pod["spec"]["affinity"]))

    def test_history(self):
        rc, out, err = run("history", "fluentd-logging")
        self.assertEqual(rc, 0, err)
        self.assertIn("current revision 2 (fluentd-logging-7c9d8b6f54)", out)
        self.assertRegex(out, r"1 +fluentd-logging-5b8f9c7d46 +5b8f9c7d46 +1\n")
        doc = run_json(self, "history", "fluentd-logging")
        self.assertEqual(doc["current"]["revision"], 2)

    def test_rollback(self):
        rc, out, err = run("rollback", "fluentd-logging")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, "daemonset.apps/fluentd-logging rolled back\n")
        rc, out, err = run("rollback", "fluentd-logging", "--to-revision", "9")
        self.assertEqual(rc, 1)
        self.assertEqual(err, "error: unable to find specified revision 9 in history\n")

    def test_fit(self):
        files = TempFiles()
        self.addCleanup(files.cleanup)
        pod = files.write("pod.yaml", """\
            apiVersion: v1
            kind: Pod
            metadata: {name: big, namespace: default}
            spec:
              containers: [{name: c, image: busybox, resources: {requests: {cpu: "3"}}}]
            """)
        rc, out, err = run("fit", pod, "worker-4")
        self.assertEqual(rc, 0, err)
        self.assertIn("does not fit on worker-4", out)
        self.assertIn("NodeResourcesFit: Insufficient cpu", out)
        self.assertEqual(run("fit", pod, "worker-1")[1], "fits on worker-1\n")
        doc = run_json(self, "fit", pod, "worker-4")
        self.assertFalse(doc["fits"])
        res = [r for r in doc["reasons"] if r["plugin"] == "NodeResourcesFit"][0]["resource"]
        self.assertEqual((res["requested"], res["allocatable"]), (3000, 2000))

    def test_audit(self):
        rc, out, err = run("audit", "fluentd-logging")
        self.assertEqual(rc, 3, err)  # the default level, restricted, is not met
        self.assertIn('meets Pod Security Standard "privileged"; requested "restricted" fails', out)
        rc, out, err = run("--set", "podSecurityLevel=privileged", "audit")
        self.assertEqual(rc, 0, err)
        docs = run_json(self, "audit", code=3)
        self.assertEqual(len(docs), 3)
        self.assertTrue(all(not d["requested"]["allowed"] for d in docs))

    def test_rollout(self):
        rc, out, err = run("rollout", "fluentd-logging")
        self.assertEqual(rc, 0, err)
        self.assertIn("Rollout of kube-system/fluentd-logging: complete", out)
        doc = run_json(self, "rollout", "fluentd-logging")
        self.assertEqual(doc["result"], "complete")
        self.assertLessEqual(doc["maxUnavailableSeen"], doc["maxUnavailable"])
        # -o wide adds each node's update time, in update order
        rc, out, err = run("-o", "wide", "rollout", "fluentd-logging")
        self.assertEqual(rc, 0, err)
        rows = out[out.index("NODE"):].split("\n\n")[0].splitlines()[1:]
        self.assertEqual([r.split()[0] for r in rows], ["worker-1", "worker-3", "worker-4", "worker-2"])
        self.assertEqual(dict(r.split() for r in rows), doc["nodeUpdatedAt"])
        self.assertNotIn("UPDATED AT", run("rollout", "fluentd-logging")[1])

    def test_test(self):
        rc, out, err = run("test", SCENARIOS, cluster=False)
        self.assertEqual(rc, 0, out + err)
        self.assertTrue(out.endswith("7 passed, 0 failed\n"), out)
        doc = run_json(self, "test", SCENARIOS, cluster=False)
        self.assertEqual((doc["passed"], doc["failed"]), (7, 0))

    def test_usage_errors(self):
        for args, message in [(("plan",), "plan needs DAEMONSET"),
                              (("explain",), "explain needs DAEMONSET [NODE]"),
                              (("pod", "fluentd-logging"), "pod needs DAEMONSET NODE"),
                              (("frobnicate",), 'unknown command "frobnicate"'),
                              (("-o", "xml", "get"),
                               'unable to match a printer suitable for the output format "xml", allowed formats are: '),
                              (("--now", "yesterday", "get"), "bad --now")]:
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual(rc, 2, (out, err))
                self.assertIn(message, err)
                self.assertEqual(out, "")

    def test_help(self):
        rc, out, err = run("--help", cluster=False)
        self.assertEqual(rc, 0)
        for name in ("validate", "defaults", "cordon", "uncordon", "drain", "upgrade"):
            self.assertRegex(out, r"\n  %s +\S" % name)
        rc, out, err = run("drain", "--help", cluster=False)
        self.assertEqual(rc, 0)
        self.assertIn("--ignore-daemonsets", out)


# ---- validate and defaults -----------------------------------------------------------------------


class TestValidate(unittest.TestCase):
    def setUp(self):
        self.files = TempFiles()
        self.addCleanup(self.files.cleanup)

    def test_sample_daemonsets_are_valid(self):
        rc, out, err = run("validate", os.path.join(CLUSTER, "daemonsets.yaml"), cluster=False)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, "daemonset.apps/fluentd-logging valid\ndaemonset.apps/nvidia-device-plugin valid\n"
                              "daemonset.apps/node-exporter valid\n3 valid, 0 invalid\n")

    def test_invalid_as_kubectl_prints_it(self):
        path = self.files.write("bad.yaml", BAD)
        rc, out, err = run("validate", path, cluster=False)
        self.assertEqual(rc, 3, err)
        # several causes: the header line ends with ": " and each cause is a "* " line (MultilineError)
        self.assertEqual(out.splitlines(), [
            'The DaemonSet "bad" is invalid: ',
            '* spec.template.metadata.labels: Invalid value: {"a":"c"}: `selector` does not match template `labels`',
            "* spec.template.spec.containers[0].image: Required value",
            '* spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
            "* spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
        ])

    def test_one_error_on_one_line(self):
        path = self.files.write("agent.yaml", AGENT.replace("RESTART", "Never"))
        rc, out, err = run("validate", path, cluster=False)
        self.assertEqual(rc, 3, err)
        self.assertEqual(out, 'The DaemonSet "agent" is invalid: spec.template.spec.restartPolicy: Unsupported value: '
                              '"Never": supported values: "Always"\n')

    def test_json(self):
        bad = self.files.write("bad.yaml", BAD)
        good = self.files.write("agent.yaml", AGENT.replace("RESTART", "Always"))
        docs = run_json(self, "validate", bad, good, code=3, cluster=False)
        self.assertEqual([(d["name"], d["valid"]) for d in docs], [("bad", False), ("agent", True)])
        self.assertEqual(docs[0]["source"], bad)
        self.assertTrue(docs[0]["message"].startswith('DaemonSet.apps "bad" is invalid: ['))
        fields = [(e["field"], e["type"]) for e in docs[0]["errors"]]
        self.assertIn(("spec.template.spec.restartPolicy", "NotSupported"), fields)
        self.assertEqual(docs[1]["errors"], [])

    def test_as_is_skips_the_defaults(self):
        path = self.files.write("agent.yaml", AGENT.replace("RESTART", "Always"))
        self.assertEqual(run("validate", path, cluster=False)[0], 0)
        rc, out, err = run("validate", "--as-is", path, cluster=False)
        self.assertEqual(rc, 3, err)
        self.assertIn("* spec.template.spec.containers[0].imagePullPolicy: Required value\n", out)
        self.assertIn("* spec.template.spec.dnsPolicy: Required value\n", out)

    def _stored(self):
        """The agent as the API server stores it: defaulted, with a resourceVersion."""
        rc, out, err = run("-o", "json", "defaults", self.files.write("a.yaml", AGENT.replace("RESTART", "Always")),
                           cluster=False)
        self.assertEqual(rc, 0, err)
        obj = json.loads(out)
        obj["metadata"]["resourceVersion"] = "42"
        return self.files.write("stored.json", json.dumps(obj))

    def test_update(self):
        stored = self._stored()
        newimg = self.files.write("img.yaml", AGENT.replace("RESTART", "Always").replace("1.37", "1.38"))
        rc, out, err = run("validate", "--old", stored, newimg, cluster=False)
        self.assertEqual((rc, out), (0, "daemonset.apps/agent valid (update)\n"), err)
        newsel = self.files.write("sel.yaml", AGENT.replace("RESTART", "Always").replace("app: agent}", "app: x}"))
        rc, out, err = run("validate", "--old=" + stored, newsel, cluster=False)
        self.assertEqual(rc, 3, err)
        self.assertEqual(out, 'The DaemonSet "agent" is invalid: spec.selector: Invalid value: '
                              '{"matchLabels":{"app":"x"}}: field is immutable\n')

    def test_status_update(self):
        stored = self._stored()
        with open(stored) as f:
            obj = json.load(f)
        obj["status"] = {"numberReady": -1}
        new = self.files.write("status.json", json.dumps(obj))
        rc, out, err = run("validate", "--status", "--old", stored, new, cluster=False)
        self.assertEqual(rc, 3, err)
        self.assertEqual(out, 'The DaemonSet "agent" is invalid: status.numberReady: Invalid value: -1: '
                              'must be greater than or equal to 0\n')
        # without --status the status of a PUT is the stored one: nothing to report
        self.assertEqual(run("validate", "--old", stored, new, cluster=False)[0], 0)

    def test_streams_lists_and_stdin(self):
        stream = self.files.write("stream.yaml", "---\n" + textwrap.dedent(AGENT.replace("RESTART", "Always"))
                                  + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n---\n# end\n")
        rc, out, err = run("validate", stream, cluster=False)
        self.assertEqual((rc, out), (0, "daemonset.apps/agent valid\n"), err)
        self.assertEqual(err, "skipped 1 object(s) of other kinds (ConfigMap 1)\n")
        # a JSON List, as `kubectl get ds -o json` prints it
        rc, out, err = run("-o", "json", "defaults", os.path.join(CLUSTER, "daemonsets.yaml"), cluster=False)
        self.assertEqual(json.loads(out)["kind"], "List")
        lst = self.files.write("list.json", out)
        docs = run_json(self, "validate", lst, cluster=False)
        self.assertEqual([(d["document"], d.get("item"), d["valid"]) for d in docs],
                         [(1, 0, True), (1, 1, True), (1, 2, True)])
        # a YAML List, as `kubectl get ds -o yaml` prints it, on standard input
        rc, out, err = run("-o", "yaml", "defaults", os.path.join(CLUSTER, "daemonsets.yaml"), cluster=False)
        self.assertEqual(rc, 0, err)
        items = ["- " + "\n  ".join(d.strip("\n").splitlines()) for d in out.split("---\n")]
        yaml_list = "apiVersion: v1\nkind: List\nitems:\n" + "\n".join(items) + "\n"
        rc, out2, err = run("validate", cluster=False, stdin=yaml_list)
        self.assertEqual((rc, out2.splitlines()[-1]), (0, "3 valid, 0 invalid"), err)
        # -f and standard input
        self.assertEqual(run("-f", stream, "validate", cluster=False)[0], 0)
        rc, out, err = run("validate", cluster=False, stdin=textwrap.dedent(BAD))
        self.assertEqual(rc, 3)
        self.assertTrue(out.startswith('The DaemonSet "bad" is invalid: \n'))

    def test_input_errors(self):
        wrong = self.files.write("wrong.yaml", "kind: DaemonSet\nmetadata: {name: w}\n"
                                               "spec: {template: {spec: {containers: 3}}}\n")
        rc, out, err = run("validate", wrong, cluster=False)
        self.assertEqual(rc, 1)
        self.assertIn("wrong.yaml: line 3, column 26: spec.template.spec.containers: expected array, got number", err)
        # a syntax error: the line is the file's, not the document's
        syn = self.files.write("syn.yaml", "kind: DaemonSet\nmetadata: {name: ok}\n---\nkind: DaemonSet\nx: [\n")
        rc, out, err = run("validate", syn, cluster=False)
        self.assertEqual(rc, 1)
        self.assertIn("syn.yaml: line 6, column 1: did not find expected node content", err)
        # a YAML List of other kinds: its items are taken apart and skipped
        rc, out, err = run("validate", os.path.join(CLUSTER, "nodes.yaml"), cluster=False)
        self.assertEqual(rc, 1)
        self.assertIn("skipped 6 object(s) of other kinds (Node 6)", err)
        self.assertIn("no DaemonSet in the input (6 object(s) of other kinds)", err)
        # an item of a List that cannot be read is named by its document and its index
        mixed = self.files.write("mixed.json", json.dumps({"apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}},
            {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "x"},
             "spec": {"template": {"spec": {"containers": 3}}}}]}))
        rc, out, err = run("validate", mixed, cluster=False)
        self.assertEqual(rc, 1)
        self.assertIn("skipped 1 object(s) of other kinds (ConfigMap 1)", err)
        self.assertIn("mixed.json (document 1, items[1]): spec.template.spec.containers: expected array, got number",
                      err)
        rc, out, err = run("validate", os.path.join(self.files.dir.name, "missing.yaml"), cluster=False)
        self.assertEqual(rc, 1)
        self.assertIn("missing.yaml: No such file or directory", err)

    def test_usage(self):
        path = self.files.write("agent.yaml", AGENT.replace("RESTART", "Always"))
        for args, message in [(("--status", path), "--subresource=status validates an update"),
                              (("--subresource=status", path), "--subresource=status validates an update"),
                              (("--subresource=scale", path), "a DaemonSet's only subresource is status"),
                              (("--old",), "flag needs an argument: --old"),
                              (("--frob", path), "unknown flag: --frob"),
                              (("--old", os.path.join(CLUSTER, "daemonsets.yaml"), path), "--old compares one")]:
            with self.subTest(args=args):
                rc, out, err = run("validate", *args, cluster=False)
                self.assertEqual(rc, 2, (out, err))
                self.assertIn(message, err)


class TestDefaults(unittest.TestCase):
    def setUp(self):
        self.files = TempFiles()
        self.addCleanup(self.files.cleanup)

    def test_yaml_by_default(self):
        path = self.files.write("a.yaml", AGENT.replace("RESTART", "Always").replace('"busybox:1.37"', "busybox"))
        rc, out, err = run("defaults", path, cluster=False)
        self.assertEqual(rc, 0, err)
        for line in ["  revisionHistoryLimit: 10\n", "      maxUnavailable: 1\n", "      maxSurge: 0\n",
                     "    type: RollingUpdate\n", "        imagePullPolicy: Always\n",  # no tag: latest
                     "      terminationGracePeriodSeconds: 30\n", "      dnsPolicy: ClusterFirst\n"]:
            self.assertIn(line, out)
        obj = run_json(self, "defaults", path, cluster=False)
        self.assertEqual(obj["spec"]["template"]["spec"]["schedulerName"], "default-scheduler")

    def test_several(self):
        src = os.path.join(CLUSTER, "daemonsets.yaml")
        rc, out, err = run("defaults", src, cluster=False)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.count("\n---\n"), 2)
        lst = run_json(self, "defaults", src, cluster=False)
        self.assertEqual([i["metadata"]["name"] for i in lst["items"]],
                         ["fluentd-logging", "nvidia-device-plugin", "node-exporter"])

    def test_errors(self):
        rc, out, err = run("defaults", os.path.join(CLUSTER, "pdbs.yaml"), cluster=False)
        self.assertEqual(rc, 1)
        self.assertIn("pdbs.yaml: skipped: a PodDisruptionBudget, not a DaemonSet", err)
        self.assertIn("error: no DaemonSet in the input", err)
        rc, out, err = run("defaults", "--x", cluster=False)
        self.assertEqual(rc, 2)
        self.assertIn("unknown flag: --x", err)


# ---- cordon, uncordon, drain, upgrade ------------------------------------------------------------


class TestCordon(unittest.TestCase):
    def test_cordon(self):
        rc, out, err = run("cordon", "worker-1")
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("node/worker-1 cordoned\n"), out)
        self.assertIn('PATCH {"spec":{"unschedulable":true}}', out)
        self.assertIn("the node lifecycle controller adds the taint node.kubernetes.io/unschedulable:NoSchedule", out)
        self.assertRegex(out, r"kube-system +fluentd-logging +fluentd-logging-x7k2p +keeps\n")
        self.assertRegex(out, r"monitoring +node-exporter +- +creates\n")
        doc = run_json(self, "cordon", "node/worker-1")
        self.assertEqual(doc["patch"], {"spec": {"unschedulable": True}})
        self.assertEqual({d["name"]: d["effect"] for d in doc["daemonSets"]},
                         {"fluentd-logging": "keeps", "node-exporter": "creates"})

    def test_already_cordoned_and_uncordon(self):
        rc, out, err = run("cordon", "worker-3")
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("node/worker-3 already cordoned\n"), out)
        self.assertIn("PATCH none", out)
        rc, out, err = run("uncordon", "worker-3")
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("node/worker-3 uncordoned\n"), out)
        self.assertIn('PATCH {"spec":{"unschedulable":null}}', out)
        self.assertIn("removes the taint", out)
        self.assertEqual(run("uncordon", "worker-1")[1].splitlines()[0], "node/worker-1 already uncordoned")
        rc, out, err = run("-o", "yaml", "uncordon", "worker-3")
        self.assertIn("operation: uncordon\n", out)

    def test_errors(self):
        rc, out, err = run("cordon", "nope")
        self.assertEqual((rc, err), (1, 'error: nodes "nope" not found\n'))
        rc, out, err = run("uncordon", "worker-1", "b")  # kubectl checks every node before it changes one
        self.assertEqual((rc, out, err), (1, "", 'error: nodes "b" not found\n'))
        for args in [("cordon",), ("cordon", "--force", "worker-1"), ("cordon", "worker-1", "-l", "a=b")]:
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual(rc, 2, err)
                self.assertIn("See 'dsctl %s --help'" % args[0], err)


class TestDrain(unittest.TestCase):
    def drain(self, *args, code):
        rc, out, err = run("drain", *args)
        self.assertEqual(rc, code, out + err)
        doc = run_json(self, "drain", *args, code=code)
        # the transcript printed is the library's, both streams, each line once
        lines = out.split("\n\nVerdict:")[0].splitlines()[1:]
        lines = [l for l in lines if not l.startswith("(kubectl repeats")]
        self.assertEqual(sorted(lines), sorted(doc["transcript"]["stdout"] + doc["transcript"]["stderr"]))
        return out, doc

    def test_daemonset_pod_blocks_without_ignore_daemonsets(self):
        out, doc = self.drain("worker-1", code=1)  # kubectl's exit code
        self.assertEqual(doc["verdict"], "failed")
        self.assertEqual(doc["transcript"]["exitCode"], 1)
        self.assertTrue(out.startswith("# kubectl drain worker-1\nnode/worker-1 cordoned\n"), out)
        self.assertIn('error: unable to drain node "worker-1" due to error: cannot delete DaemonSet-managed Pods '
                      '(use --ignore-daemonsets to ignore): kube-system/fluentd-logging-x7k2p, continuing command...',
                      out)
        self.assertIn("There are pending nodes to be drained:\n worker-1\n", out)
        self.assertIn("Verdict: failed (kubectl exits 1)", out)
        self.assertRegex(out, r"kube-system/fluentd-logging-x7k2p +Error +error +DaemonSet-managed Pods")
        # nothing is evicted when a pod fails the filters
        self.assertNotIn("evicting pod", out)
        self.assertEqual(doc["removed"], [])

    def test_with_ignore_daemonsets_the_pdb_blocks(self):
        out, doc = self.drain("worker-1", "--ignore-daemonsets", code=3)
        self.assertEqual(doc["verdict"], "blocked")
        self.assertIsNone(doc["transcript"]["exitCode"])
        self.assertEqual([(b["name"], b["pdb"]) for b in doc["blocked"]], [("web-6f7d9c8b5-fghij", "web")])
        self.assertIn("node/worker-1 cordoned\n"
                      "Warning: ignoring DaemonSet-managed Pods: kube-system/fluentd-logging-x7k2p\n"
                      "evicting pod shop/web-6f7d9c8b5-fghij\n"
                      'error when evicting pods/"web-6f7d9c8b5-fghij" -n "shop" (will retry after 5s): '
                      "Cannot evict pod as it would violate the pod's disruption budget.\n", out)
        self.assertIn("Verdict: blocked (kubectl does not exit", out)
        self.assertIn("The disruption budget web needs 2 healthy pods and has 2 currently", out)
        self.assertIn("kube-system/fluentd-logging loses 1 pod(s) on node worker-1 when the node reboots", out)

    def test_drained(self):
        out, doc = self.drain("gpu-1", "--ignore-daemonsets", code=0)
        self.assertEqual(doc["verdict"], "drained")
        # the warning comes before the last line, as kubectl writes them
        self.assertIn("node/gpu-1 cordoned\nWarning: ignoring DaemonSet-managed Pods: "
                      "kube-system/nvidia-device-plugin-h2k9c\nnode/gpu-1 drained\n", out)
        out, doc = self.drain("cp-1", code=0)  # the mirror pod is skipped silently
        self.assertRegex(out, r"kube-system/kube-apiserver-cp-1 +Skip +skip")
        self.assertEqual(doc["pods"][0]["filter"], "mirror")

    def test_force_and_emptydir(self):
        out, doc = self.drain("worker-2", "--ignore-daemonsets", code=1)
        self.assertIn("cannot delete Pods that declare no controller (use --force to override): default/debug-shell",
                      out)
        self.assertIn("cannot delete Pods with local storage (use --delete-emptydir-data to override): shop/cache-0",
                      out)
        out, doc = self.drain("worker-2", "--ignore-daemonsets", "--force", "--delete-emptydir-data",
                              "--grace-period=10", code=3)
        self.assertTrue(out.startswith("# kubectl drain worker-2 --force --ignore-daemonsets --delete-emptydir-data "
                                       "--grace-period=10\n"), out)
        self.assertEqual(doc["deleteOptions"], {"gracePeriodSeconds": 10})
        self.assertIn("pod/debug-shell evicted\n", out)
        self.assertIn("pod/cache-0 evicted\n", out)
        self.assertEqual(sorted(doc["removed"]), ["default/debug-shell", "shop/cache-0"])
        self.assertEqual(doc["verdict"], "blocked")  # the web pod's budget allows no disruption

    def test_disable_eviction_and_pod_selector(self):
        out, doc = self.drain("worker-2", "--disable-eviction", "--pod-selector", "app=web", code=0)
        self.assertEqual(doc["method"], "delete")
        self.assertEqual(doc["removed"], ["shop/web-6f7d9c8b5-abcde"])
        self.assertIn("pod/web-6f7d9c8b5-abcde deleted\nnode/worker-2 drained\n", out)
        self.assertIn("--disable-eviction --pod-selector=app=web", out)
        # boolean flags take =false as cobra does
        doc = run_json(self, "drain", "worker-1", "--ignore-daemonsets=false", code=1)
        self.assertFalse(doc["options"]["ignoreDaemonSets"])

    def test_errors(self):
        rc, out, err = run("drain", "nope")
        self.assertEqual((rc, err), (1, 'error: nodes "nope" not found\n'))
        rc, out, err = run("drain", "worker-2", "--pod-selector", "app in (")
        self.assertEqual(rc, 2)
        self.assertTrue(err.startswith("error: --pod-selector=<pod_selector> must be a valid label selector"), err)
        for args, message in [((), "USAGE: drain NODE..."),
                              (("worker-1", "--grace-period", "x"), '"--grace-period" flag'),
                              (("worker-1", "--grace-period"), "flag needs an argument: --grace-period"),
                              (("worker-1", "--force=maybe"),
                               'invalid argument "maybe" for "--force" flag: strconv.ParseBool: parsing "maybe"'),
                              (("worker-1", "--timeout=5s"), "unknown flag: --timeout"),
                              (("worker-1", "--ignore-daemon"), "unknown flag: --ignore-daemon")]:
            with self.subTest(args=args):
                rc, out, err = run("drain", *args)
                self.assertEqual(rc, 2, (out, err))
                self.assertIn(message, err)


class TestUpgrade(unittest.TestCase):
    def test_whole_cluster(self):
        rc, out, err = run("upgrade", "--ignore-daemonsets", "--batch-size", "2")
        self.assertEqual(rc, 3, err)
        self.assertIn("Upgrade of 6 node(s) in 4 batch(es) of up to 2", out)
        self.assertRegex(out, r"\n1 +gpu-1,worker-1 +blocked +0 +1 +2 +2\n")
        self.assertRegex(out, r"\n2 +worker-2,worker-3 +failed +")
        self.assertRegex(out, r"\n4 +cp-1 +drained +")
        self.assertIn("Batch 4 (cp-1, control plane): drained", out)
        self.assertIn("warning DaemonSet kube-system/fluentd-logging: 1 available pod(s) on this batch's nodes go "
                      "down together at reboot", out)
        self.assertIn("blocked shop/web-6f7d9c8b5-fghij on worker-1: PodDisruptionBudget web", out)
        self.assertIn("Not safe as planned", out)
        doc = run_json(self, "upgrade", "--ignore-daemonsets", "--batch-size=2", code=3)
        self.assertEqual(doc["nodes"][-1], "cp-1")  # control plane last
        self.assertEqual([b["nodes"] for b in doc["batches"]],
                         [["gpu-1", "worker-1"], ["worker-2", "worker-3"], ["worker-4"], ["cp-1"]])
        self.assertFalse(doc["summary"]["ok"])

    def test_safe_nodes(self):
        rc, out, err = run("upgrade", "worker-4", "cp-1", "--ignore-daemonsets")
        self.assertEqual(rc, 0, err)
        self.assertIn("Safe as planned", out)
        doc = run_json(self, "upgrade", "-l", "accelerator=nvidia", "--ignore-daemonsets")
        self.assertEqual(doc["nodes"], ["gpu-1"])
        self.assertEqual(doc["selector"], "accelerator=nvidia")
        self.assertEqual(doc["batches"][0]["ignoredDaemonPods"][0]["name"], "nvidia-device-plugin-h2k9c")

    def test_errors(self):
        rc, out, err = run("upgrade", "nope")
        self.assertEqual((rc, err), (1, 'error: nodes "nope" not found\n'))
        for args, message in [(("worker-1", "-l", "a=b"), "cannot specify both a node name and a --selector option"),
                              (("--batch-size", "0"), 'invalid argument "0" for "--batch-size" flag'),
                              (("--selector",), "flag needs an argument: --selector"),
                              (("-l",), "flag needs an argument: 'l' in -l"),
                              (("--selector", "a in ("), "unable to parse requirement")]:
            with self.subTest(args=args):
                rc, out, err = run("upgrade", *args)
                self.assertEqual(rc, 2, (out, err))
                self.assertIn(message, err)


if __name__ == "__main__":
    unittest.main()
