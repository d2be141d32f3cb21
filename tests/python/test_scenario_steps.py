"""Scenario steps (daemonset-scenario(5)): setImage and a merge patch edit the loaded cluster before the
checks, as ds_daemonset_set_image(3) and ds_daemonset_update(3) store an update; their errors are the
scenario's, with the step's path."""

import os
import textwrap
import unittest

from daemonset import scenario

HERE = os.path.dirname(os.path.abspath(__file__))
CLUSTER = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "cluster"))


def run(text):
    return scenario.run(textwrap.dedent(text).replace("CLUSTER", CLUSTER))["scenarios"][0]


class Steps(unittest.TestCase):
    def test_set_image_makes_every_pod_old(self):
        s = run("""
            load: CLUSTER
            now: 2026-12-02T15:00:00Z
            steps:
            - setImage: kube-system/fluentd-logging
              image: fluent/fluentd:v1.18
            checks:
            - status: kube-system/fluentd-logging
              updatedNumberScheduled: 0
            - pod: kube-system/fluentd-logging
              node: worker-1
              labels: {pod-template-generation: "3"}
            - plan: kube-system/fluentd-logging
              creates: [worker-4]
        """)
        self.assertTrue(s["passed"], s)
        # the same checks without the step: the sample cluster has 2 updated pods
        s = run("""
            load: CLUSTER
            now: 2026-12-02T15:00:00Z
            checks:
            - status: kube-system/fluentd-logging
              updatedNumberScheduled: 0
        """)
        self.assertFalse(s["passed"])

    def test_patch_changes_the_strategy_and_the_rollout(self):
        base = """
            load: CLUSTER
            now: 2026-12-02T15:00:00Z
            steps:
            - setImage: kube-system/fluentd-logging
              container: "*"
              image: fluent/fluentd:v1.18
            %s
            checks:
            - rollout: kube-system/fluentd-logging
              result: complete
              maxSurgeSeen: {max: 0}
        """
        self.assertTrue(run(base % "")["passed"])  # the default strategy never surges
        surge = run(base % """- patch: kube-system/fluentd-logging
              merge: {spec: {updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}}}""")
        self.assertFalse(surge["passed"])
        self.assertIn("maxSurgeSeen: 1, want at most 0", surge["checks"][0]["failures"][0])

    def test_a_merge_patch_deletes_with_null(self):
        s = run("""
            load: CLUSTER
            now: 2026-12-02T15:00:00Z
            steps:
            - patch: kube-system/nvidia-device-plugin
              merge: {spec: {template: {spec: {nodeSelector: null}}}}
            checks:
            - status: kube-system/nvidia-device-plugin
              desiredNumberScheduled: 1
        """)
        # without the selector the plugin still tolerates only gpu-1's taint... and the others' absence of
        # taints: every untainted node qualifies
        self.assertFalse(s["passed"], s)
        self.assertRegex(s["checks"][0]["failures"][0], r"desiredNumberScheduled: [2-9]")

    def test_errors_name_the_step(self):
        cases = [
            ("- setImage: kube-system/nope\n  image: x",
             'editing the cluster: steps[0]: daemonsets.apps "nope" not found'),
            ("- setImage: kube-system/fluentd-logging\n  container: nope\n  image: x",
             'editing the cluster: steps[0]: unable to find container named "nope"'),
            ("- patch: kube-system/fluentd-logging\n  merge: {spec: {selector: {matchLabels: {name: other}}}}",
             "spec.selector: Invalid value: {\"matchLabels\":{\"name\":\"other\"}}: field is immutable"),
            ("- setImage: kube-system/fluentd-logging\n  imag: x",
             "steps[0].imag: unknown field of a setImage step (expected container or image)"),
            ("- setImage: kube-system/fluentd-logging",
             "steps[0]: a setImage step needs image: the image to set (as kubectl set image)"),
            ("- patch: kube-system/fluentd-logging\n  merge: [1]",
             "steps[0].merge: expected a mapping (a JSON merge patch), got a list"),
            ("- {}", "steps[0]: expected setImage or patch naming its DaemonSet"),
        ]
        for steps, want in cases:
            with self.subTest(steps=steps):
                s = run("load: CLUSTER\nnow: 2026-12-02T15:00:00Z\nsteps:\n%s\nchecks:\n"
                        "- status: kube-system/fluentd-logging\n" % steps)
                self.assertFalse(s["passed"])
                self.assertIn(want, s["error"])
                self.assertEqual(s["checks"], [])


if __name__ == "__main__":
    unittest.main()
