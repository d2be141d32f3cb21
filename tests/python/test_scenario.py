"""ctypes tests for offline scenario tests: ds_scenario_run and
ds_scenario_run_file on examples/scenarios and inline scenarios, passing,
failing, scenarios that cannot run, options, and errors."""

import os
import shutil
import tempfile
import unittest

import daemonset.scenario as scenario
from daemonset import DaemonSetError, Options

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "scenarios"))
SAMPLE = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "cluster"))

# ds_scenario_run(3)'s example: the rollout takes 25 s, so the second check fails.
TOO_SLOW = """\
name: worker-4 gets its pod, then worker-2 is replaced
load: ../cluster
now: 2026-12-02T15:00:00Z
checks:
- plan: kube-system/fluentd-logging
  creates: [worker-4]
- rollout: kube-system/fluentd-logging
  name: quick
  result: complete
  durationSeconds: {max: 20}
"""


class RunFileTest(unittest.TestCase):
    def test_examples(self):
        r = scenario.run_file(SCENARIOS)
        self.assertEqual((r["passed"], r["failed"]), (7, 0))
        files = sorted(f for f in os.listdir(SCENARIOS) if f.endswith((".yaml", ".yml", ".json")))
        self.assertEqual([os.path.basename(s["file"]) for s in r["scenarios"]], files)  # in name order
        self.assertEqual(r["scenarios"][1]["name"], "control-plane nodes need an explicit toleration")
        for s in r["scenarios"]:
            self.assertTrue(s["passed"], s)
            self.assertNotIn("error", s)
            self.assertTrue(s["checks"])
            for check in s["checks"]:
                self.assertEqual((check["passed"], check["failures"]), (True, []))
        rolling = r["scenarios"][3]
        self.assertEqual(rolling["name"], "a rolling update with maxUnavailable 1")
        self.assertEqual([c["check"] for c in rolling["checks"]][:2],
                         ["plan kube-system/fluentd-logging", "rollout kube-system/fluentd-logging"])

    def test_one_file(self):
        path = os.path.join(SCENARIOS, "04-rolling-update.yaml")
        r = scenario.run_file(path)
        self.assertEqual((r["passed"], r["failed"]), (1, 0))
        self.assertEqual(r["scenarios"][0]["file"], path)

    def test_directory_with_bad_files(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "a.yaml"), "w") as f:
            f.write("name: x\nchecks: [1,\n  2\n\nnow: x\n")  # not YAML: one failed scenario named after it
        with open(os.path.join(d, "b.yml"), "w") as f:
            f.write(TOO_SLOW.replace("../cluster", SAMPLE))
        with open(os.path.join(d, "c.txt"), "w") as f:
            f.write("not a scenario")  # not read
        with open(os.path.join(d, ".d.yaml"), "w") as f:
            f.write("hidden: [")  # not read
        r = scenario.run_file(d)
        self.assertEqual((r["passed"], r["failed"]), (0, 2))
        bad, slow = r["scenarios"]
        self.assertEqual((bad["name"], bad["file"], bad["passed"], bad["checks"]),
                         (os.path.join(d, "a.yaml"), os.path.join(d, "a.yaml"), False, []))
        self.assertEqual(bad["error"],
                         "line 5, column 4: did not find expected ',' or ']' while parsing a flow sequence")
        self.assertEqual(slow["file"], os.path.join(d, "b.yml"))
        self.assertEqual(slow["checks"][1]["failures"], ["quick: durationSeconds: 25, want at most 20"])

    def test_errors(self):
        missing = os.path.join(SCENARIOS, "no-such-file.yaml")
        with self.assertRaises(DaemonSetError) as cm:
            scenario.run_file(missing)
        self.assertEqual((cm.exception.name, cm.exception.path, cm.exception.message),
                         ("DS_EIO", "", "cannot open %s: No such file or directory" % missing))


class RunTest(unittest.TestCase):
    def test_failing(self):
        r = scenario.run(TOO_SLOW, base_dir=SCENARIOS)
        self.assertEqual((r["passed"], r["failed"]), (0, 1))
        s = r["scenarios"][0]
        self.assertEqual((s["name"], s["file"], s["passed"]), ("worker-4 gets its pod, then worker-2 is replaced",
                                                               "", False))
        self.assertNotIn("error", s)
        self.assertEqual(s["checks"], [
            {"check": "plan kube-system/fluentd-logging", "passed": True, "failures": []},
            {"check": "rollout kube-system/fluentd-logging", "name": "quick", "passed": False,
             "failures": ["quick: durationSeconds: 25, want at most 20"]}])

    def test_base_dir_defaults_to_the_working_directory(self):
        cwd = os.getcwd()
        self.addCleanup(os.chdir, cwd)
        os.chdir(SCENARIOS)
        r = scenario.run(TOO_SLOW)
        self.assertEqual((r["passed"], r["failed"]), (0, 1))
        self.assertEqual(r["scenarios"][0]["checks"][1]["failures"], ["quick: durationSeconds: 25, want at most 20"])

    def test_options_reach_the_checks(self):
        # pods Ready after 1 s instead of the default: the same rollout fits in 20 s
        r = scenario.run(TOO_SLOW, SCENARIOS, Options(simReadyAfter="1s"))
        self.assertEqual((r["passed"], r["failed"]), (1, 0))

    def test_dict_and_bytes(self):
        doc = {"name": "as a dict", "load": "../cluster", "now": "2026-12-02T15:00:00Z",
               "checks": [{"plan": "kube-system/fluentd-logging", "creates": ["worker-4"], "deletes": []}]}
        r = scenario.run(doc, SCENARIOS)
        self.assertEqual((r["passed"], r["failed"], r["scenarios"][0]["name"]), (1, 0, "as a dict"))
        r = scenario.run(TOO_SLOW.encode(), SCENARIOS)
        self.assertEqual(r["failed"], 1)

    def test_scenarios_that_cannot_run(self):
        text = ("name: typo\nobjcts: []\nnow: 2026-12-02T15:00:00Z\nchecks: []\n---\n"
                "now: 2026-12-02T15:00:00Z\nload: ../cluster\nchecks:\n- explain: kube-system/nope\n")
        r = scenario.run(text, HERE)  # tests/python/../cluster is not there
        self.assertEqual((r["passed"], r["failed"]), (0, 2))
        typo, unnamed = r["scenarios"]
        self.assertEqual((typo["name"], typo["checks"]), ("typo", []))
        self.assertEqual(typo["error"], "objcts: unknown field (expected name, load, objects, steps, now, options or checks)")
        self.assertEqual(unnamed["name"], "scenario#2")
        self.assertEqual(unnamed["error"], "loading the cluster: cannot open %s/../cluster: No such file or directory"
                         % HERE)
        # with the base directory the cluster loads; the check's own error is its failure
        r = scenario.run(text, SCENARIOS)
        unnamed = r["scenarios"][1]
        self.assertNotIn("error", unnamed)
        self.assertEqual(unnamed["checks"], [{"check": "explain kube-system/nope", "passed": False, "failures": [
            'DS_ENOTFOUND: object not found: daemonsets.apps "nope" not found']}])

    def test_empty(self):
        self.assertEqual(scenario.run(""), {"passed": 0, "failed": 0, "scenarios": []})

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            scenario.run("a: [1,\nb: 2\n")
        e = cm.exception
        self.assertEqual((e.name, e.path, e.line, e.column), ("DS_ESYNTAX", "", 3, 1))
        self.assertEqual(e.message, "did not find expected ',' or ']' while parsing a flow sequence")
        with self.assertRaises(DaemonSetError) as cm:
            scenario.run(TOO_SLOW, SCENARIOS, Options(maxDocumentBytes=50))
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_ELIMIT", "input of %d bytes is larger than the limit of 50 bytes: set the option "
                          "maxDocumentBytes to %d or more to read it" % (len(TOO_SLOW), len(TOO_SLOW))))


if __name__ == "__main__":
    unittest.main()
