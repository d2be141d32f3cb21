"""dsctl driven by the command lines a kubectl user types first.

Each case is a command line as kubectl's documentation writes it (the kubectl reference's `get`,
`rollout`, `drain`, `cordon` and `set image` examples and its quick reference), run on the sample
cluster, with what it must print or the error (and the suggestion) it must give. The first group is
every case of issue #29; the second, lines from kubectl's own docs.
"""

import json
import os
import re
import shlex
import subprocess
import tempfile
import unittest

from test_dsctl import CLUSTER, DSCTL, NOW, ROOT, setUpModule  # noqa: F401


def dsctl(*args, stdin="", env=None, cluster=True):
    argv = [DSCTL, "--color=never", "--now", NOW] + (["-f", CLUSTER] if cluster else []) + list(args)
    full = dict(os.environ, NO_COLOR="1", **(env or {}))
    if "COLUMNS" not in (env or {}):
        full.pop("COLUMNS", None)
    p = subprocess.run(argv, input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, env=full)
    return p.returncode, p.stdout, p.stderr


def suggestion(err):
    """The words under cobra's "Did you mean this?"."""
    m = re.search(r"\nDid you mean this\?\n((?:\t.*\n)+)", err)
    return [line.strip() for line in m.group(1).splitlines()] if m else []


# (command line, exit status, [regexes stdout must match], [regexes stderr must match], suggestions)
ISSUE_CASES = [
    ("get ds", 0, [r"(?m)^NAMESPACE +NAME +DESIRED +CURRENT +READY +UP-TO-DATE +AVAILABLE +NODE SELECTOR +AGE$",
                   r"(?m)^kube-system +fluentd-logging +4 +3 +3 +2 +3 +<none> +27d$"], [], None),
    ("get daemonsets", 0, [r"(?m)^monitoring +node-exporter +6 +0 +0 +0 +0 +<none> +26d$"], [], None),
    ("get nodes", 0, [r"(?m)^NAME +STATUS +ROLES +AGE +VERSION$", r"(?m)^cp-1 +Ready +control-plane +31d",
                      r"(?m)^worker-3 +Ready,SchedulingDisabled +<none> +31d"], [], None),
    ("get ds/fluentd-logging", 0, [r"(?m)^kube-system +fluentd-logging +4 "], [], None),
    ("get pods -l name=fluentd", 0, [r"fluentd-logging-q8m4n", r"fluentd-logging-x7k2p"], [], None),
    ("get pods -A", 0, [r"(?m)^shop +web-6f7d9c8b5-abcde +0/1 +Running +0 +12d$"], [], None),
    ("get ds -o 'jsonpath={.items[*].metadata.name}'", 0,
     [r"^fluentd-logging nvidia-device-plugin node-exporter$"], [], None),
    ("rollout status ds/fluentd-logging", 3,
     [r'^Waiting for daemon set "fluentd-logging" rollout to finish: 2 out of 4 new pods have been updated\.\.\.\n$'],
     [r"cannot wait for the rollout;\n'dsctl rollout kube-system/fluentd-logging' simulates the rest\n"], None),
    ("explian fluentd-logging", 2, [], [r'^error: unknown command "explian" for "dsctl"\n'], ["explain"]),
    ("explain fluentd-logging --stauts=create", 2, [], [r"unknown flag: --stauts"], ["--status"]),
    ("explain fluentd-loging", 1, [], [r'^error: daemonsets.apps "fluentd-loging" not found\n'],
     ["kube-system/fluentd-logging"]),
    ("pod fluentd-logging worker-9", 1, [], [r'^error: nodes "worker-9" not found\n'],
     ["worker-1", "worker-2", "worker-3", "worker-4"]),
    ("get -o jsonpath-file=/nonexistent", 1, [], [r"^error: cannot open /nonexistent: No such file or directory\n$"],
     None),
    ("get -o custom-columns-file=/tmp", 1, [], [r"^error: cannot read /tmp: it is a directory\n$"], None),
]

KUBECTL_DOC_CASES = [
    # kubectl get (kubectl reference and quick reference)
    ("get pods -o wide", 0, [r"(?m)^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE +IP +NODE +NOMINATED NODE "
                             r"+READINESS GATES$", r"fluentd-logging-x7k2p +0/1 +Running +0 +29h +\S+ +worker-1"],
     [], None),
    ("get po -n kube-system", 0, [r"(?m)^NAME +READY +STATUS +RESTARTS +AGE$", r"(?m)^kube-apiserver-cp-1 "],
     [], None),
    ("get ds -n kube-system fluentd-logging", 0, [r"(?m)^NAME +DESIRED .*\nfluentd-logging +4 +3 +3 +2 +3 "], [],
     None),
    ("get daemonsets.apps", 0, [r"nvidia-device-plugin +1 +1 +1 +1 +1 +accelerator=nvidia"], [], None),
    ("get no", 0, [r"(?m)^gpu-1 +Ready +<none> +29d"], [], None),
    ("get nodes --show-labels", 0, [r"(?m)^cp-1 .*kubernetes.io/hostname=cp-1,kubernetes.io/os=linux,"
                                    r"node-role.kubernetes.io/control-plane=,topology"], [], None),
    ("get nodes -l node-role.kubernetes.io/control-plane", 0, [r"^NAME .*\ncp-1 +Ready +control-plane"], [],
     None),
    ("get node --selector='!node-role.kubernetes.io/control-plane' -o name", 0,
     [r"^node/gpu-1\nnode/worker-1\nnode/worker-2\nnode/worker-3\nnode/worker-4\n$"], [], None),
    ("get pods --field-selector=status.phase=Running -n shop -o name", 0,
     [r"^pod/cache-0\npod/web-6f7d9c8b5-abcde\npod/web-6f7d9c8b5-fghij\n$"], [], None),
    ("get pods --field-selector=status.phase!=Running", 0, [], [r"^No resources found\n$"], None),
    ("get pods --field-selector spec.nodeName=worker-1 -o name", 0,
     [r"^pod/fluentd-logging-x7k2p\npod/web-6f7d9c8b5-fghij\n$"], [], None),
    ("get nodes --field-selector spec.unschedulable=true -o name", 0, [r"^node/worker-3\n$"], [], None),
    ("get pods --field-selector=spec.nodname=worker-1", 1, [],
     [r"field label not supported: spec.nodname"], ["spec.nodeName"]),
    ("get pods -o name -n monitoring", 0, [r"^$"], [r"^No resources found in monitoring namespace\.\n$"], None),
    ("get ds,po -n kube-system -o name", 0,
     [r"^daemonset.apps/fluentd-logging\ndaemonset.apps/nvidia-device-plugin\npod/fluentd-logging-q8m4n\n"], [],
     None),
    ("get ds,no", 0, [r"(?m)^kube-system +daemonset.apps/fluentd-logging ", r"(?m)^node/cp-1 +Ready"], [], None),
    ("get nodes -o 'jsonpath={.items[*].metadata.name}'", 0,
     [r"^cp-1 gpu-1 worker-1 worker-2 worker-3 worker-4$"], [], None),
    ("get pods -n kube-system -o 'jsonpath={range .items[*]}{.metadata.name}{\"\\t\"}{.spec.nodeName}{\"\\n\"}{end}'",
     0, [r"(?m)^fluentd-logging-q8m4n\tworker-2$", r"(?m)^kube-apiserver-cp-1\tcp-1$"], [], None),
    ("get pod -n shop cache-0 -o jsonpath={.metadata.name}", 0, [r"^cache-0$"], [], None),
    ("get ds -o 'custom-columns=NAME:.metadata.name,IMAGE:.spec.template.spec.containers[*].image'", 0,
     [r"(?m)^NAME +IMAGE$", r"(?m)^fluentd-logging +fluent/fluentd:v1.17$"], [], None),
    ("get nodes --no-headers -o wide", 0, [r"^cp-1 +Ready +control-plane +31d +<none> +<none> +<unknown>"], [],
     None),
    ("get controllerrevisions", 0,
     [r"(?m)^kube-system +fluentd-logging-5b8f9c7d46 +daemonset.apps/fluentd-logging +1 +27d$"], [], None),
    ("get pdb -A", 0, [r"(?m)^shop +web +2 +N/A +0 +<unknown>$"], [], None),
    ("get deployments", 1, [], [r'the server doesn\'t have a resource type "deployments"'], None),
    ("get daemonset fluentd-logging -A", 2, [], [r"a resource cannot be retrieved by name across all namespaces"],
     None),
    ("get ds ds/fluentd-logging", 2, [], [r"there is no need to specify a resource type as a separate argument"],
     None),
    ("get pods cache-1 -n shop", 1, [], [r'^error: pods "cache-1" not found\n'], ["shop/cache-0"]),
    ("get nodes wroker-1", 1, [], [r'^error: nodes "wroker-1" not found\n'], ["worker-1"]),
    ("get --no-header ds", 2, [], [r"unknown flag: --no-header"], ["--no-headers"]),
    ("get ds --summary", 2, [], [r"unknown flag: --summary"], ["dsctl explain --summary"]),
    # kubectl rollout
    ("rollout history daemonset/fluentd-logging", 0,
     [r"^daemonset.apps/fluentd-logging \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n$"], [], None),
    ("rollout history ds/fluentd-logging --revision=1", 0,
     [r"^daemonset.apps/fluentd-logging with revision #1\nPod Template:\n", r"image: fluent/fluentd:v1.16"], [], None),
    ("rollout history ds/fluentd-logging --revision=7", 1, [], [r"unable to find the specified revision"], None),
    ("rollout undo daemonset/fluentd-logging --to-revision=1", 0, [r"^daemonset.apps/fluentd-logging rolled back\n$"],
     [], None),
    ("rollout status daemonset fluentd-logging --watch=false", 0,
     [r"^Waiting for daemon set \"fluentd-logging\" rollout to finish"], [], None),
    ("rollout status ds/nvidia-device-plugin -n kube-system", 0,
     [r'^daemon set "nvidia-device-plugin" successfully rolled out\n$'], [], None),
    ("rollout stauts ds/fluentd-logging", 2, [], [r'unknown rollout subcommand "stauts"'], ["status"]),
    ("rollout restart ds/fluentd-logging", 2, [], [r"rollout restart changes a DaemonSet in a cluster"], None),
    # kubectl drain, cordon, set image, describe
    ("drain worker-1 --ignore-daemonsets", 3, [r"^# kubectl drain worker-1 --ignore-daemonsets\n"
                                              r"node/worker-1 cordoned\n"], [], None),
    ("cordon worker-1", 0, [r"^node/worker-1 cordoned\n"], [], None),
    ("uncordon worker-3", 0, [r"^node/worker-3 uncordoned\n"], [], None),
    ("cordon wroker-1", 1, [], [r'^error: nodes "wroker-1" not found\n'], ["worker-1"]),
    ("set image ds/fluentd-logging fluentd=fluent/fluentd:v1.18 -n kube-system", 0,
     [r"^daemonset.apps/fluentd-logging image updated\n$"], [], None),
    ("describe ds fluentd-logging", 2, [], [r'unknown command "describe" for "dsctl"'], ["explain"]),
    ("explain ds fluentd-logging worker-4", 0, [r"(?m)^worker-4 +create +yes/keep"], [], None),
]


class KubectlHabits(unittest.TestCase):
    def check(self, cases):
        for line, code, outs, errs, suggested in cases:
            with self.subTest(line=line):
                args = shlex.split(line)
                rc, out, err = dsctl(*args)
                self.assertEqual(rc, code, (out, err))
                for pat in outs:
                    self.assertRegex(out, pat)
                for pat in errs:
                    self.assertRegex(err, pat)
                if suggested is not None:
                    self.assertEqual(suggestion(err), suggested, err)
                elif code:
                    self.assertNotIn("Did you mean", err)

    def test_the_issues_cases(self):
        self.check(ISSUE_CASES)

    def test_kubectl_documentation(self):
        self.assertGreaterEqual(len(KUBECTL_DOC_CASES), 30)
        self.check(KUBECTL_DOC_CASES)

    def test_get_yaml_is_a_list_that_reloads(self):
        """get -o yaml prints the objects, which load again into the same snapshot."""
        for args in (("get", "-o", "yaml"), ("get", "ds,no,po,controllerrevisions,pdb", "-o", "yaml")):
            with self.subTest(args=args):
                rc, out, err = dsctl(*args)
                self.assertEqual(rc, 0, err)
                self.assertTrue(out.startswith("apiVersion: v1\nitems:\n"), out[:80])
                self.assertIn("\nkind: List\nmetadata:\n  resourceVersion: \"\"\n", out)
                rc2, again, err2 = dsctl("-o", "json", "get", cluster=False, stdin=out)
                rc1, first, err1 = dsctl("-o", "json", "get")
                self.assertEqual((rc1, rc2), (0, 0), err1 + err2)
                key = lambda o: (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])  # noqa: E731
                self.assertEqual(sorted(json.loads(again)["items"], key=key), sorted(json.loads(first)["items"], key=key))
                rc, summary, err = dsctl("get", cluster=False, stdin=out)
                self.assertIn("Loaded 6 nodes, 9 pods, 3 DaemonSets, 2 ControllerRevisions, 1 PodDisruptionBudgets",
                              summary)
        rc, out, err = dsctl("get", "ds/fluentd-logging", "-o", "json")
        self.assertEqual(json.loads(out)["kind"], "DaemonSet")  # one named object: itself, as kubectl prints it

    def test_stdin_is_read_only_up_to_the_limit(self):
        """An endless pipe stops being read at maxDocumentBytes (it used to be read whole first)."""
        p = subprocess.Popen("yes 'kind: x' | %s --set maxDocumentBytes=1000000 get" % DSCTL, shell=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertIn("error: standard input is larger than the limit of 1000000 bytes", err)

    def test_empty_inputs_are_errors(self):
        rc, out, err = dsctl("get", cluster=False, stdin="")
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("error: no objects in standard input", err)
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = dsctl("test", "/dev/null", cluster=False)
            self.assertEqual(rc, 1)
            self.assertIn("error: /dev/null: no scenarios", err)
            rc, out, err = dsctl("test", d, cluster=False)
            self.assertEqual(rc, 1, (out, err))
            bad = os.path.join(d, "bad.yaml")
            with open(bad, "w") as f:
                f.write("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: [\n")
            rc, out, err = dsctl("defaults", bad, cluster=False)
            self.assertEqual(rc, 1)
            self.assertRegex(err, r"^error: cannot read the input: %s: line 4, column 1: " % re.escape(bad))

    def test_manifest_marker(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "agent.yaml")
            with open(path, "w") as f:
                f.write("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n"
                        "  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n"
                        "    spec: {containers: [{name: a, image: a}]}\n")
            rc, out, err = dsctl("-f", path, "get", cluster=False)
            self.assertEqual(rc, 0, err)
            self.assertRegex(out, r"(?m)^default +agent +0 +0 +0 +0 +0 +\(manifest\)$")
            self.assertIn("\n(manifest): read from a file, not from an API server", out)
            rc, out, err = dsctl("get", "ds")  # a dump's objects carry no marker
            self.assertNotIn("(manifest)", out)

    def test_sarif_points_at_the_daemonset_that_was_loaded(self):
        """Two files of a directory hold the same DaemonSet: the later one replaces the earlier when loaded (as
        in the snapshot), and the SARIF results point at it, with its lines."""
        ds = ("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\n  namespace: default\nspec:\n"
              "  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n"
              "      hostNetwork: true\n      containers:\n      - name: a\n        image: a:1\n")
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "a.yaml"), "w") as f:
                f.write(ds)
            with open(os.path.join(d, "b.yaml"), "w") as f:
                f.write("# the same DaemonSet, moved down by these lines\n#\n#\n" + ds)
            rc, out, err = dsctl("-f", d, "audit", "-o", "sarif", cluster=False)
            self.assertEqual(rc, 3, err)
            results = json.loads(out)["runs"][0]["results"]
            host = [r for r in results if r["ruleId"] == "hostNetwork"]
            self.assertEqual(len(host), 1)
            loc = host[0]["locations"][0]["physicalLocation"]
            self.assertTrue(loc["artifactLocation"]["uri"].endswith("b.yaml"), loc)
            self.assertEqual(loc["region"]["startLine"], 14)  # hostNetwork in b.yaml (line 11 in a.yaml)
            for r in results:
                for l in r.get("locations", []):
                    self.assertTrue(l["physicalLocation"]["artifactLocation"]["uri"].endswith("b.yaml"), l)

    def test_kubectl_ds_without_kubectl(self):
        plugin = os.path.join(ROOT, "examples", "dsctl", "kubectl-ds")
        env = dict(os.environ, KUBECTL="/nonexistent/kubectl", DSCTL=DSCTL)
        p = subprocess.run(["sh", plugin, "explain", "fluentd-logging"], capture_output=True, text=True, env=env,
                           timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertIn("kubectl-ds: /nonexistent/kubectl not found: the plugin reads the live cluster with kubectl",
                      p.stderr)
        self.assertIn("dsctl -f dump.yaml explain fluentd-logging", p.stderr)
        self.assertNotRegex(p.stderr, r"(?m)^(sh|/bin/sh|.*kubectl-ds): \d+: ")
        env = dict(os.environ, KUBECTL="/nonexistent/kubectl", DSCTL="/nonexistent/dsctl")
        p = subprocess.run(["sh", plugin, "version"], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertIn("kubectl-ds: dsctl not found", p.stderr)

    def test_a_node_without_allocatable_gets_a_hint(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "hand.yaml")
            with open(path, "w") as f:
                f.write("apiVersion: v1\nkind: Node\nmetadata: {name: hand-1}\n---\napiVersion: apps/v1\n"
                        "kind: DaemonSet\nmetadata: {name: agent, namespace: default}\nspec:\n"
                        "  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n"
                        "    spec: {containers: [{name: a, image: a}]}\n")
            for args in (("explain", "agent"), ("explain", "agent", "--summary"), ("explain", "agent", "hand-1")):
                rc, out, err = dsctl("-f", path, *args, cluster=False)
                self.assertEqual(rc, 0, err)
                self.assertIn("Too many pods", out)
                self.assertIn("note: hand-1 declares no allocatable pods (status.allocatable.pods is missing or 0)",
                              out)
            rc, out, err = dsctl("explain", "fluentd-logging")  # real nodes: no such note
            self.assertNotIn("allocatable", out)


if __name__ == "__main__":
    unittest.main()
