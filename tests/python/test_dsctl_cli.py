"""dsctl's command line as a kubectl user types it: every flag form and its errors, node selection and
filters, "what if" edits, the audit's CI flags, --validate, shell completion and the kubectl plugin.

Runs the dsctl binary (found as test_dsctl finds it) on examples/cluster.
"""

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import textwrap
import unittest

from test_dsctl import CLUSTER, DSCTL, NOW, ROOT, run, run_json, setUpModule  # noqa: F401

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def raw(*args, stdin="", env=None):
    """dsctl with exactly these arguments (no -f or --now added)."""
    full = dict(os.environ, **(env or {}))
    if "COLUMNS" not in (env or {}):
        full.pop("COLUMNS", None)  # the tests compare unwrapped lines
    p = subprocess.run([DSCTL] + list(args), input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60,
                       env=full)
    return p.returncode, p.stdout, p.stderr


class FlagForms(unittest.TestCase):
    """The same request in every spelling kubectl accepts gives the same output."""

    def test_output_and_namespace_spellings(self):
        want = run_json(self, "explain", "kube-system/fluentd-logging")
        forms = [
            ("-ojson", "explain", "fluentd-logging", "-nkube-system"),
            ("explain", "fluentd-logging", "-o", "json", "-n", "kube-system"),
            ("explain", "--output=json", "--namespace=kube-system", "fluentd-logging"),
            ("--output", "json", "explain", "ds/fluentd-logging", "--namespace", "kube-system"),
            ("explain", "daemonset.apps/fluentd-logging", "-n", "kube-system", "-ojson"),
            ("-n", "kube-system", "-ojson", "explain", "--", "fluentd-logging"),
        ]
        for args in forms:
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual(rc, 0, err)
                self.assertEqual(json.loads(out), want)

    def test_after_double_dash_everything_is_an_argument(self):
        rc, out, err = run("explain", "--", "-weird-name")
        self.assertEqual(rc, 1, err)
        self.assertIn('daemonsets.apps "-weird-name" not found', err)

    def test_node_arguments_take_kubectls_types(self):
        for node in ("worker-4", "node/worker-4", "nodes/worker-4", "no/worker-4"):
            doc = run_json(self, "explain", "fluentd-logging", node)
            self.assertEqual([r["node"] for r in doc["rows"]], ["worker-4"])

    def test_booleans_as_pflag_reads_them(self):
        for value, ignored in (("", True), ("=true", True), ("=1", True), ("=false", False), ("=F", False)):
            with self.subTest(value=value):
                doc = run_json(self, "drain", "worker-3", "--ignore-daemonsets" + value, "--force",
                               "--delete-emptydir-data", code=0 if ignored else 1)
                self.assertEqual(doc["options"]["ignoreDaemonSets"], ignored)

    def test_repeated_flag_last_wins(self):
        doc = run_json(self, "-n", "monitoring", "explain", "fluentd-logging", "-n", "kube-system")
        self.assertEqual(doc["daemonSet"]["namespace"], "kube-system")


class FlagErrors(unittest.TestCase):
    def test_usage_errors_in_kubectls_words(self):
        cases = [
            (("get", "--bogus"), "error: unknown flag: --bogus\nSee 'dsctl get --help' for usage.\n"),
            (("get", "-z"), "error: unknown shorthand flag: 'z' in -z\n"),
            (("get", "--status=create"), "error: unknown flag: --status\n"),
            (("explain", "fluentd-logging", "--sel=x"), "error: unknown flag: --sel\n"),  # no abbreviations
            (("explain", "fluentd-logging", "-n"), "error: flag needs an argument: 'n' in -n\n"),
            (("explain", "fluentd-logging", "--status"), "error: flag needs an argument: --status\n"),
            (("--color=bogus", "get"), 'invalid argument "bogus" for "--color" flag'),
            (("-o", "bogus", "get"), 'unable to match a printer suitable for the output format "bogus"'),
            (("-o", "svg", "get"), 'output format "svg"'),  # svg is explain's and rollout's
            (("-o", "jsonpath=", "get"), "jsonpath format specified but no template given"),
            (("get", "ds", "ds/x"), "there is no need to specify a resource type as a separate argument"),
            (("version", "foo"), 'unexpected argument "foo"'),
            (("explain",), "explain needs DAEMONSET [NODE]"),
            (("frobnicate",), 'unknown command "frobnicate" for "dsctl"'),
            (("--validate=maybe", "get"), 'invalid - validate option "maybe"'),
            (("drain", "worker-1", "--force=maybe"), 'strconv.ParseBool: parsing "maybe": invalid syntax'),
            (("explain", "fluentd-logging", "--status", "running"), 'unknown status "running" for --status'),
            (("rollout", "fluentd-logging", "--strategy", "maxUnavailable"), 'invalid --strategy "maxUnavailable"'),
            (("audit", "--fail-on", "severe"), 'invalid argument "severe" for "--fail-on" flag'),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual(rc, 2, (out, err))
                self.assertIn(message, err)
                self.assertEqual(out, "")

    def test_help_anywhere_is_the_commands_help(self):
        for args in (("explain", "--help"), ("--help", "explain"), ("explain", "-h", "--bogus-after")):
            rc, out, err = raw(*args)
            if "--bogus-after" in args:
                self.assertEqual(rc, 2)  # an unknown flag is an error even beside --help
                continue
            self.assertEqual(rc, 0, err)
            self.assertTrue(out.startswith("Per node: placed or not"), out[:80])

    def test_every_command_documents_its_flags_and_examples(self):
        rc, out, err = raw("--help")
        commands = re.findall(r"^  ([a-z]+) {2,}", out.split("Commands:")[1].split("Global flags")[0], re.M)
        self.assertIn("completion", commands)
        self.assertNotIn("__complete", commands)
        for name in commands:
            with self.subTest(command=name):
                rc, out, err = raw(name, "--help")
                self.assertEqual(rc, 0, err)
                self.assertIn("\nExamples:\n  ", out)
                self.assertIn("\nUsage:\n  dsctl %s" % name, out)
                for flag in re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", out.split("Flags:")[1], re.M) if "Flags:" in out else []:
                    # each listed flag is accepted by the command (not an unknown flag)
                    rc2, _, err2 = raw(name, flag + "=x" if flag != "--help" else flag)
                    self.assertNotIn("unknown flag", err2)


class RandomCommandLines(unittest.TestCase):
    """Any command line gets an exit status of 0 to 3, never a crash (a signal) or a hang."""

    TOKENS = ["explain", "plan", "rollout", "drain", "cordon", "audit", "validate", "set", "image", "get",
              "completion", "__complete", "--", "-", "-o", "-ojson", "-o=yaml", "--output", "jsonpath={.x}",
              "custom-columns=A:.a", "-n", "-nkube-system", "-l", "a=b", "--selector=", "--status", "create,",
              "--summary", "--image", "c=", "=x", "--strategy", "maxSurge=1,type=", "--plot", "--force=",
              "--ignore-daemonsets=2", "-f", "/nonexistent", "fluentd-logging", "ds/", "node/", "worker-1",
              "--set", "burstReplicas=-1", "--now", "x", "--validate", "--color", "-h", "--no-headers=f",
              "-", "\u00e9", "%s", "a" * 300, "--to-revision", "-1", "--fail-on", "--ignore", "bash"]

    def test_random_argv(self):
        import random
        rnd = random.Random(20261204)
        with tempfile.TemporaryDirectory() as d:  # --plot FILE may write anything: not into the tree
            for i in range(250):
                args = [rnd.choice(self.TOKENS) for _ in range(rnd.randint(0, 7))]
                with self.subTest(args=args):
                    p = subprocess.run([DSCTL, "--color=never", "--now", NOW, "-f", CLUSTER] + args, input="",
                                       capture_output=True, text=True, cwd=d, timeout=60)
                    self.assertIn(p.returncode, (0, 1, 2, 3), (args, p.stderr[-500:]))


class HelpExamples(unittest.TestCase):
    """Each example of each command's --help runs (on the sample cluster in place of dump.yaml): no usage error,
    no failure. Examples that write files or read the reader's own files are left out."""

    def test_examples_run(self):
        import shlex
        rc, out, err = raw("--help")
        commands = re.findall(r"^  ([a-z_]+) {2,}", out.split("Commands:")[1].split("Global flags")[0], re.M)
        ran = 0
        for name in commands:
            rc, text, err = raw(name, "--help")
            examples = text.split("\nExamples:\n")[1].split("\nFlags:")[0].split("\nUsage:")[0]
            for line in examples.replace("\\\n", " ").splitlines():
                line = line.strip()
                if not line.startswith("dsctl ") or "|" in line or "<(" in line or ">" in line:
                    continue
                words = shlex.split(line.replace("dump.yaml", CLUSTER))[1:]
                if any(w.endswith((".yaml", ".svg", ".sarif")) or w in ("manifests/", "./chart") for w in words
                       if not w.startswith(CLUSTER)):
                    continue
                with self.subTest(line=line):
                    p = subprocess.run([DSCTL, "--now", NOW] + words, capture_output=True, text=True, cwd=ROOT,
                                       timeout=60)
                    self.assertIn(p.returncode, (0, 3), p.stderr)
                    ran += 1
        self.assertGreater(ran, 15)


class NodeSelection(unittest.TestCase):
    def test_explain_filters_and_summary(self):
        doc = run_json(self, "explain", "fluentd-logging", "-l", "!node-role.kubernetes.io/control-plane",
                       "--status", "not-placed,create")
        self.assertEqual([(r["node"], r["status"]) for r in doc["rows"]], [("gpu-1", "not-placed"),
                                                                           ("worker-4", "create")])
        doc = run_json(self, "explain", "fluentd-logging", "--reason", "nvidia.com/gpu")
        self.assertEqual([r["node"] for r in doc["rows"]], ["gpu-1"])
        s = run_json(self, "explain", "fluentd-logging", "--summary")
        self.assertEqual(s["byStatus"], {"placed": 3, "create": 1, "not-placed": 2})
        self.assertEqual(sum(g["nodes"] for g in s["byReason"]), 3)
        self.assertIn("TaintToleration: untolerated taint nvidia.com/gpu=present:NoSchedule",
                      [g["reason"] for g in s["byReason"]])
        rc, out, err = run("explain", "fluentd-logging", "--summary")
        self.assertEqual(rc, 0, err)
        self.assertIn("STATUS       NODES\nplaced       3\ncreate       1\nnot-placed   2\n", out)
        rc, out, err = run("explain", "fluentd-logging")
        self.assertTrue(out.rstrip().endswith("6 node(s): 3 placed, 1 create, 2 not-placed"), out)

    def test_bad_selector(self):
        rc, out, err = run("explain", "fluentd-logging", "-l", "a in (")
        self.assertEqual(rc, 2)
        self.assertIn('invalid label selector "a in ("', err)

    def test_plan_on_selected_nodes(self):
        doc = run_json(self, "plan", "fluentd-logging", "-l", "kubernetes.io/hostname=worker-1")
        self.assertEqual(doc["creates"], [])  # worker-4 is the only create, not selected
        rc, out, err = run("plan", "fluentd-logging", "-l", "kubernetes.io/hostname=worker-1")
        self.assertIn("Create: nothing on the selected nodes", out)

    def test_cordon_and_drain_several_nodes(self):
        doc = run_json(self, "cordon", "-l", "topology.kubernetes.io/zone=eu-west-1a")
        self.assertEqual(doc["kind"], "List")
        self.assertEqual(sorted(i["node"] for i in doc["items"]), ["cp-1", "gpu-1", "worker-1"])
        # kubectl drain A B: A first; worker-3 drains, worker-2 is then blocked by its budget
        doc = run_json(self, "drain", "worker-3", "worker-2", "--ignore-daemonsets", "--force",
                       "--delete-emptydir-data", code=3)
        self.assertEqual([(i["node"], i["verdict"]) for i in doc["items"]],
                         [("worker-3", "drained"), ("worker-2", "blocked")])
        # blocked first: kubectl retries it forever and never gets to the next node
        rc, out, err = run("drain", "worker-2", "worker-3", "--ignore-daemonsets", "--force",
                           "--delete-emptydir-data")
        self.assertEqual(rc, 3)
        self.assertIn("kubectl never gets to the other nodes:\n worker-3\n", out)
        self.assertNotIn("kubectl drain worker-3", out)
        rc, out, err = run("drain", "-l", "nope=nope")
        self.assertEqual((rc, err), (1, "No resources found\n"))


class Templates(unittest.TestCase):
    """-o jsonpath and custom-columns over each command's JSON result (the engine: test_jsonpath.py)."""

    def test_jsonpath_matches_the_json(self):
        doc = run_json(self, "explain", "fluentd-logging")
        rc, out, err = run("explain", "fluentd-logging", "-o", r'jsonpath={range .rows[*]}{.node}={.status}{"\n"}{end}')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, "".join("%s=%s\n" % (r["node"], r["status"]) for r in doc["rows"]))
        rc, out, err = run("explain", "fluentd-logging", "--status", "not-placed", "-o", "jsonpath={.rows[*].node}")
        self.assertEqual(out, "cp-1 gpu-1")
        with tempfile.TemporaryDirectory() as d:
            tpl = os.path.join(d, "t.txt")
            with open(tpl, "w") as f:
                f.write("{.daemonSet.namespace}/{.daemonSet.name}")
            rc, out, err = run("explain", "fluentd-logging", "-o", "jsonpath-file=" + tpl)
            self.assertEqual((rc, out), (0, "kube-system/fluentd-logging"), err)
            cols = os.path.join(d, "c.txt")
            with open(cols, "w") as f:
                f.write("NAME   DESIRED\n.metadata.name  .status.desiredNumberScheduled\n")
            rc, out, err = run("get", "ds", "-o", "custom-columns-file=" + cols)
            self.assertEqual(rc, 0, err)
            self.assertEqual(out.splitlines()[0].split(), ["NAME", "DESIRED"])
            self.assertEqual([line.split()[0] for line in out.splitlines()[1:]],
                             ["fluentd-logging", "nvidia-device-plugin", "node-exporter"])

    def test_custom_columns_over_the_rows(self):
        rc, out, err = run("explain", "fluentd-logging", "-o", "custom-columns=NODE:.node,STATUS:.status,POD:.pods[*].name")
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0].split(), ["NODE", "STATUS", "POD"])
        self.assertEqual(lines[1].split(), ["cp-1", "not-placed", "<none>"])
        self.assertEqual(lines[3].split(), ["worker-1", "placed", "fluentd-logging-x7k2p"])
        self.assertEqual(len(lines), 7)
        rc, out, err = run("history", "fluentd-logging", "-o", "custom-columns=REV:.revision", "--no-headers")
        self.assertEqual(out.split(), ["1", "2"])
        rc, out, err = run("audit", "-o", "custom-columns=NAME:.name,LEVEL:.level", "--no-headers")
        self.assertEqual(rc, 3)
        self.assertEqual([line.split() for line in out.splitlines()],
                         [["fluentd-logging", "privileged"], ["nvidia-device-plugin", "privileged"],
                          ["node-exporter", "privileged"]])

    def test_template_errors(self):
        rc, out, err = run("get", "-o", "jsonpath={.daemonSets[")
        self.assertEqual(rc, 1)
        self.assertIn("error: ", err)
        rc, out, err = run("get", "-o", "jsonpath={.nope}", "--allow-missing-template-keys=false")
        self.assertEqual((rc, err), (1, "error: nope is not found\n"))
        rc, out, err = run("get", "-o", "jsonpath={.nope}")
        self.assertEqual((rc, out), (0, ""))
        rc, out, err = run("get", "-o", "custom-columns=NAME")
        self.assertEqual(rc, 1)
        self.assertIn("error: ", err)


class Edits(unittest.TestCase):
    def test_set_image(self):
        rc, out, err = run("set", "image", "ds/fluentd-logging", "-n", "kube-system", "fluentd=fluent/fluentd:v1.18")
        self.assertEqual((rc, out), (0, "daemonset.apps/fluentd-logging image updated\n"), err)
        obj = run_json(self, "set", "image", "fluentd-logging", "*=fluent/fluentd:v1.18")
        self.assertEqual(obj["spec"]["template"]["spec"]["containers"][0]["image"], "fluent/fluentd:v1.18")
        self.assertEqual(obj["metadata"]["generation"], 3)  # one update for all pairs, as kubectl's one patch
        self.assertEqual(obj["metadata"]["annotations"]["deprecated.daemonset.template.generation"], "3")
        # the same image: kubectl sends no patch and prints nothing
        rc, out, err = run("set", "image", "fluentd-logging", "fluentd=fluent/fluentd:v1.17")
        self.assertEqual((rc, out, err), (0, "", ""))
        rc, out, err = run("set", "image", "fluentd-logging", "nope=x")
        self.assertEqual((rc, err), (1, 'error: unable to find container named "nope"\n'))
        rc, out, err = run("set", "image", "fluentd-logging", "fluentd")
        self.assertEqual(rc, 2)
        self.assertIn("expected CONTAINER=IMAGE", err)
        rc, out, err = run("set", "env", "fluentd-logging", "A=B")
        self.assertEqual(rc, 2)

    def test_what_if_on_plan_rollout_and_pod(self):
        before = run_json(self, "rollout", "fluentd-logging")
        after = run_json(self, "rollout", "fluentd-logging", "--image", "fluentd=fluent/fluentd:v1.18",
                         "--strategy", "maxUnavailable=2")
        self.assertEqual(after["maxUnavailable"], 2)
        self.assertGreater(after["deletes"], before["deletes"])  # every old pod is replaced
        pod = run_json(self, "pod", "fluentd-logging", "worker-4", "--image", "fluentd=fluent/fluentd:v1.18")
        self.assertEqual(pod["spec"]["containers"][0]["image"], "fluent/fluentd:v1.18")
        self.assertNotEqual(pod["metadata"]["labels"]["controller-revision-hash"], "7c9d8b6f54")
        plan = run_json(self, "plan", "fluentd-logging", "--strategy", "type=OnDelete",
                        "--image", "fluentd=fluent/fluentd:v1.18")
        self.assertFalse(any(d["reason"].startswith("update") for d in plan["deletes"]))
        rc, out, err = run("rollout", "fluentd-logging", "--image", "fluentd=x:1")
        self.assertIn("# daemonset.apps/fluentd-logging updated in the snapshot: generation 2 -> 3, new template",
                      out)
        self.assertIn("Assumptions (--set simReadyAfter=", out)
        self.assertIn("readyAfterSeconds: 10", out)

    def test_template_file(self):
        with tempfile.TemporaryDirectory() as d:
            tpl = os.path.join(d, "tpl.yaml")
            with open(tpl, "w") as f:
                f.write(textwrap.dedent("""\
                    metadata: {labels: {name: fluentd}}
                    spec:
                      containers: [{name: fluentd, image: fluent/fluentd:v2}]
                    """))
            pod = run_json(self, "pod", "fluentd-logging", "worker-4", "--template", tpl)
            self.assertEqual(pod["spec"]["containers"][0]["image"], "fluent/fluentd:v2")
            # a template the API server refuses: its selector no longer matches
            with open(tpl, "w") as f:
                f.write("metadata: {labels: {app: other}}\nspec: {containers: [{name: c, image: i}]}\n")
            rc, out, err = run("plan", "fluentd-logging", "--template", tpl)
            self.assertEqual(rc, 1)
            self.assertIn("`selector` does not match template `labels`", err)


class Audit(unittest.TestCase):
    def test_fail_on_ignore_and_score(self):
        rc, out, err = run("--set", "podSecurityLevel=privileged", "audit", "fluentd-logging", "--fail-on", "critical")
        self.assertEqual(rc, 0, err)
        rc, out, err = run("--set", "podSecurityLevel=privileged", "audit", "fluentd-logging", "--fail-on", "high")
        self.assertEqual(rc, 3)
        self.assertIn("(--fail-on high: fails)", out)
        self.assertRegex(out, r"Score \d+/100: 0 critical, 2 high")
        self.assertIn("Runs on: runs on 4 of 6 nodes", out)
        rc, out, err = run("audit", "fluentd-logging", "--ignore", "hostPath", "--ignore", "minReadySeconds")
        self.assertEqual(len(re.findall(r"\(suppressed\) .*\[hostPath\]", out)), 2, out)
        self.assertIn("(suppressed) minReadySeconds is not set", out)
        rc, out, err = run("audit", "--ignore", "noSuchCheck")
        self.assertEqual(rc, 2)

    def test_sarif_points_at_lines(self):
        # the files as given on the command line (relative to the repository, as code scanning wants them)
        rc, out, err = raw("-f", "examples/cluster", "--now", NOW, "audit", "-o", "sarif")
        self.assertEqual(rc, 3, err)
        log = json.loads(out)
        self.assertEqual(log["version"], "2.1.0")
        results = log["runs"][0]["results"]
        located = [r for r in results if "physicalLocation" in r["locations"][0]]
        self.assertEqual(len(located), len(results))
        with open(os.path.join(CLUSTER, "daemonsets.yaml")) as f:
            lines = f.read().splitlines()
        for r in located:
            loc = r["locations"][0]["physicalLocation"]
            self.assertEqual(loc["artifactLocation"]["uri"], "examples/cluster/daemonsets.yaml")
            if r["ruleId"] == "hostPath":
                self.assertIn("hostPath", lines[loc["region"]["startLine"] - 1])

    def test_unknown_fields_are_findings(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ds.yaml")
            with open(path, "w") as f:
                f.write(textwrap.dedent("""\
                    apiVersion: apps/v1
                    kind: DaemonSet
                    metadata: {name: typo, namespace: default}
                    spec:
                      selector: {matchLabels: {app: t}}
                      template:
                        metadata: {labels: {app: t}}
                        spec:
                          containers:
                          - name: c
                            image: i:1
                            securityContext: {readOnlyRootFileSystem: true}
                    """))
            rc, out, err = raw("--color=never", "-f", path, "audit")
            self.assertIn("spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem", out)
            self.assertIn("(did you mean readOnlyRootFilesystem?)", out)
            rc, out, err = raw("--color=never", "-f", path, "--validate=ignore", "audit")
            self.assertNotIn("readOnlyRootFileSystem", out)
            # --validate=strict on the inputs: the API server's 400, nothing loaded
            rc, out, err = raw("-f", path, "--validate=strict", "get")
            self.assertEqual(rc, 1)
            self.assertIn('Error from server (BadRequest): error when creating "%s": DaemonSet in version "v1" cannot '
                          'be handled as a DaemonSet: strict decoding error: unknown field '
                          '"spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem"' % path, err)
            rc, out, err = raw("-f", path, "--validate=warn", "get")
            self.assertEqual(rc, 0, err)
            self.assertIn('Warning: unknown field "spec.template.spec.containers[0].securityContext.'
                          'readOnlyRootFileSystem"', err)


class Tables(unittest.TestCase):
    def test_colour_does_not_shift_columns(self):
        rc, plain, err = raw("--color=never", "-f", CLUSTER, "--now", NOW, "explain", "fluentd-logging")
        rc, coloured, err = raw("--color=always", "-f", CLUSTER, "--now", NOW, "explain", "fluentd-logging")
        self.assertIn("\x1b[", coloured)
        self.assertEqual(ANSI.sub("", coloured), plain)

    def test_no_headers_and_wide(self):
        rc, out, err = run("explain", "fluentd-logging", "--no-headers")
        self.assertNotIn("NODE", out)
        self.assertIn("worker-4   create", out)
        rc, out, err = run("explain", "fluentd-logging", "-o", "wide")
        self.assertIn("PLUGIN", out.splitlines()[2])
        self.assertIn("TaintToleration", out)

    def test_long_cells_wrap_at_the_terminal_width(self):
        env = {"COLUMNS": "100"}
        rc, out, err = raw("--color=never", "-f", CLUSTER, "--now", NOW, "explain", "fluentd-logging", env=env)
        self.assertEqual(rc, 0, err)
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 100, out)
        # a wrapped reason continues under its column
        table = out.split("\n\n")[1].splitlines()
        start = table[0].index("WHY")
        cont = [line for line in table[1:] if line.startswith(" ")]
        self.assertTrue(cont)
        self.assertTrue(all(len(line) - len(line.lstrip(" ")) == start for line in cont), cont)

    def test_long_lists_are_summarised(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "nodes.yaml")
            with open(path, "w") as f:
                f.write("".join("---\napiVersion: v1\nkind: Node\nmetadata: {name: n%02d}\n" % i for i in range(30)))
            rc, out, err = raw("--color=never", "-f", path, "get")
            self.assertEqual(rc, 0, err)
            self.assertIn("\nNodes: n00, n01, n02, n03, n04, n05, n06, n07, n08, n09, n10, n11 (+18 more)\n", out)
            rc, out, err = raw("--color=never", "-f", path, "get", "-o", "wide")
            self.assertIn(", n29\n", out)


class Completion(unittest.TestCase):
    def complete_bash(self, line):
        script = subprocess.run([DSCTL, "completion", "bash"], capture_output=True, text=True, check=True).stdout
        prog = script + textwrap.dedent("""
            COMP_LINE=%s
            COMP_POINT=${#COMP_LINE}
            read -r -a COMP_WORDS <<<"${COMP_LINE//=/ = }"
            [[ $COMP_LINE =~ [[:space:]]$ ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _dsctl
            printf '%%s\\n' "${COMPREPLY[@]}"
            """) % shlex_quote(line)
        p = subprocess.run(["bash", "-c", prog], capture_output=True, text=True, cwd=ROOT, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        return [x for x in p.stdout.splitlines() if x]

    def test_bash_script_parses(self):
        script = subprocess.run([DSCTL, "completion", "bash"], capture_output=True, text=True, check=True).stdout
        p = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)

    @unittest.skipUnless(shutil.which("zsh"), "zsh is not installed (sh tests/tools.sh shells)")
    def test_zsh_script_parses(self):
        script = subprocess.run([DSCTL, "completion", "zsh"], capture_output=True, text=True, check=True).stdout
        p = subprocess.run(["zsh", "-n"], input=script, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)

    @unittest.skipUnless(shutil.which("zsh"), "zsh is not installed (sh tests/tools.sh shells)")
    def test_zsh_completes(self):
        """_dsctl run with zsh's completion builtins stood in for: what it hands to compadd, or _files."""
        script = subprocess.run([DSCTL, "completion", "zsh"], capture_output=True, text=True, check=True).stdout

        def complete(*words):
            prog = ("compdef() { : }\n" + script +
                    "\ncompadd() { local i=${@[(i)--]}; print -l -- \"${@[i+1,-1]}\" }\n"
                    "_files() { print FILES }\n"
                    "words=(%s); CURRENT=%d; _dsctl\n" % (" ".join(shlex_quote(w) for w in words), len(words)))
            p = subprocess.run(["zsh", "-f", "-c", prog], capture_output=True, text=True, cwd=ROOT, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            return sorted(p.stdout.split())

        self.assertEqual(complete(DSCTL, "-f", "examples/cluster", "explain", "flu"), ["fluentd-logging"])
        self.assertEqual(complete(DSCTL, "-f", "examples/cluster", "explain", "x", "--output=j"),
                         ["--output=json", "--output=jsonpath-file=", "--output=jsonpath="])
        self.assertEqual(complete(DSCTL, "validate", ""), ["FILES"])

    def test_bash_completes_commands_flags_and_names(self):
        d = DSCTL + " -f examples/cluster "
        self.assertEqual(self.complete_bash(DSCTL + " ex"), ["explain"])
        self.assertEqual(self.complete_bash(d + "explain flu"), ["fluentd-logging"])
        self.assertEqual(self.complete_bash(d + "explain kube-system/n"), ["kube-system/nvidia-device-plugin"])
        self.assertEqual(self.complete_bash(d + "explain fluentd-logging w"),
                         ["worker-1", "worker-2", "worker-3", "worker-4"])
        self.assertEqual(self.complete_bash(d + "drain --ignore-d"), ["--ignore-daemonsets"])
        self.assertEqual(self.complete_bash(d + "explain x --output=j"), ["json", "jsonpath=", "jsonpath-file="])
        self.assertEqual(self.complete_bash(d + "explain x -o s"), ["svg"])
        self.assertEqual(self.complete_bash(d + "-n "), ["kube-system", "monitoring"])
        self.assertEqual(self.complete_bash(d + "set image fluentd-logging f"), ["fluentd="])
        self.assertEqual(self.complete_bash(d + "explain x --status=not"), ["not-evaluated", "not-placed"])
        self.assertEqual(self.complete_bash(DSCTL + " completion "), ["bash", "zsh"])

    def test_complete_protocol(self):
        rc, out, err = raw("__complete", "--", "-f", "examples/cluster", "-n", "monitoring", "plan", "")
        self.assertEqual((rc, out), (0, "node-exporter\n"), err)


def shlex_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


class KubectlPlugin(unittest.TestCase):
    """kubectl ds ...: kubectl-ds reads the cluster through kubectl (a fake one here)."""

    def test_plugin_reads_the_cluster_through_kubectl(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "cluster.json"), "w") as f:
                f.write(cluster_list())
            kubectl = os.path.join(d, "kubectl")
            with open(kubectl, "w") as f:
                f.write('#!/bin/sh\necho "$@" > "%s/args"\ncat "%s/cluster.json"\n' % (d, d))
            os.chmod(kubectl, stat.S_IRWXU)
            bindir = os.path.join(d, "bin")
            os.mkdir(bindir)
            os.symlink(DSCTL, os.path.join(bindir, "dsctl"))
            env = dict(os.environ, PATH=d + os.pathsep + bindir + os.pathsep + os.environ["PATH"])
            env.pop("DSCTL", None)  # the plugin's own override: here dsctl is found on the PATH
            plugin = os.path.join(ROOT, "examples", "dsctl", "kubectl-ds")
            p = subprocess.run([plugin, "--context", "prod", "--now", NOW, "explain", "fluentd-logging", "-o", "json"],
                               capture_output=True, text=True, env=env, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(json.loads(p.stdout)["daemonSet"]["namespace"], "kube-system")
            with open(os.path.join(d, "args")) as f:
                args = f.read().split()
            self.assertEqual(args[0], "--context=prod")
            self.assertIn("get", args)
            self.assertIn("--all-namespaces", args)
            self.assertIn("daemonsets.apps", args[2])
            # dsctl's exit status comes through; a failing kubectl stops it
            p = subprocess.run([plugin, "explain", "nope"], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 1)
            with open(kubectl, "w") as f:
                f.write("#!/bin/sh\necho 'The connection to the server was refused' >&2\nexit 1\n")
            p = subprocess.run([plugin, "get"], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 1)
            self.assertIn("kubectl could not read the cluster", p.stderr)


def cluster_list():
    """The sample cluster's objects as one v1 List in JSON, as `kubectl get ... -o json` prints it."""
    items = []
    # dsctl has no "dump as JSON" command: convert the YAML files with the library's parser via Python
    import daemonset  # noqa: F401  (the ctypes module, on PYTHONPATH in make python-tests)
    from daemonset import _native
    parse = _native.declare("ds_objects_parse", _native.TEXT, _native.OPTIONS)
    for name in sorted(os.listdir(CLUSTER)):
        with open(os.path.join(CLUSTER, name)) as f:
            items.extend(parse(f.read(), None))
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items})


if __name__ == "__main__":
    unittest.main()
