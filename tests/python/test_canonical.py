"""dsctl on the canonical form: `defaults -o yaml` prints what the API server serves, `plan --template` of an
unchanged manifest plans nothing, and history shows every pod of a dump without ControllerRevisions."""

import os
import tempfile
import textwrap
import unittest

from test_dsctl import ROOT, run, setUpModule  # noqa: F401 (setUpModule: dsctl must be built)

VECTORS = os.path.join(ROOT, "tests", "vectors", "canonical")

MANIFEST = textwrap.dedent("""\
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: agent
      namespace: kube-system
      labels: {app: agent}
    spec:
      selector:
        matchLabels: {app: agent}
      template:
        metadata:
          labels: {app: agent}
        spec:
          tolerations: null
          containers:
          - name: agent
            image: example.com/agent:1.0
            env:
            - name: A
              value:
            - name: B
              value: ""
            securityContext: null
            resources:
              requests: {cpu: "0.1", memory: 1024Mi}
          - name: sidecar
            image: example.com/sidecar
            env: []
            ports:
            - containerPort: 8080
    """)

# Written by hand from upstream's encoding rules (k8s.io/api struct tags, as kubectl get -o yaml prints a new
# object of a 1.34 or later API server, without what the registry adds on create): env values "" and null
# and env [] omitempty, so gone; tolerations null and a null securityContext (a pointer) gone; resources a
# struct value, so {} on the sidecar; the template's metadata without creationTimestamp (omitzero since
# 1.34); DaemonSetStatus's four counters without omitempty; the defaults (SetDefaults_DaemonSet,
# SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_ContainerPort); quantities canonical.
SERVED = textwrap.dedent("""\
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      labels:
        app: agent
      name: agent
      namespace: kube-system
    spec:
      revisionHistoryLimit: 10
      selector:
        matchLabels:
          app: agent
      template:
        metadata:
          labels:
            app: agent
        spec:
          containers:
          - env:
            - name: A
            - name: B
            image: example.com/agent:1.0
            imagePullPolicy: IfNotPresent
            name: agent
            resources:
              requests:
                cpu: 100m
                memory: 1Gi
            terminationMessagePath: /dev/termination-log
            terminationMessagePolicy: File
          - image: example.com/sidecar
            imagePullPolicy: Always
            name: sidecar
            ports:
            - containerPort: 8080
              protocol: TCP
            resources: {}
            terminationMessagePath: /dev/termination-log
            terminationMessagePolicy: File
          dnsPolicy: ClusterFirst
          restartPolicy: Always
          schedulerName: default-scheduler
          securityContext: {}
          terminationGracePeriodSeconds: 30
      updateStrategy:
        rollingUpdate:
          maxSurge: 0
          maxUnavailable: 1
        type: RollingUpdate
    status:
      currentNumberScheduled: 0
      desiredNumberScheduled: 0
      numberMisscheduled: 0
      numberReady: 0
    """)


class CanonicalTest(unittest.TestCase):
    def test_defaults_prints_what_the_api_server_serves(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "agent.yaml")
            with open(path, "w") as f:
                f.write(MANIFEST)
            rc, out, err = run("defaults", "-o", "yaml", path, cluster=False)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, SERVED)

    def test_plan_of_an_unchanged_manifest_plans_nothing(self):
        """kube-flannel as published, on a cluster that holds it as the API server stored it (resources: {},
        every default): no new template, no new ControllerRevision, nothing to create or delete."""
        rc, out, err = run("-f", os.path.join(VECTORS, "flannel-cluster.yaml"), "plan", "-n", "kube-flannel",
                           "kube-flannel-ds", "--template", os.path.join(VECTORS, "flannel-manifest.yaml"),
                           cluster=False)
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("updated in the snapshot: generation 1 -> 1\n", out)
        self.assertNotIn("new template", out)
        self.assertIn("(revision hash 747bf8b47)", out)
        self.assertIn("Create: nothing", out)
        self.assertIn("Delete: nothing", out)
        self.assertNotIn("ControllerRevision", out)

    def test_history_without_controller_revisions(self):
        """nvidia-device-plugin has no ControllerRevision in the sample: its pod is in the table, on the
        revision the next sync creates, when its label matches the template's hash."""
        rc, out, err = run("history", "-n", "kube-system", "nvidia-device-plugin")
        self.assertEqual((rc, err), (0, ""))
        row = [line.split() for line in out.splitlines() if "(current, not stored)" in line]
        self.assertEqual(len(row), 1, out)
        self.assertEqual(row[0][-1], "1")


if __name__ == "__main__":
    unittest.main()
