"""ctypes tests for strict field validation: ds_manifest_check_fields (through daemonset.validate and as a raw
ctypes call), the fieldValidation option and its effect on ds_daemonset_validate."""

import ctypes
import json
import os
import unittest

import daemonset.validate as validate
from daemonset import DaemonSetError, Options
from daemonset._native import lib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# A CSI node plugin as such manifests are published: no namespace, two containers, hostPath volumes,
# a privileged registrar. Line numbers below refer to this text.
CSI_NODE = """\
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: csi-node
  labels:
    app.kubernetes.io/name: csi-node
spec:
  selector:
    matchLabels: {app: csi-node}
  template:
    metadata:
      labels: {app: csi-node}
    spec:
      hostNetwork: true
      priorityClassName: system-node-critical
      tolerations: [{operator: Exists}]
      containers:
      - name: node-driver-registrar
        image: registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.0
        args: ["--csi-address=/csi/csi.sock"]
        securityContext:
          privileged: true
          readOnlyRootFilesystem: true
        volumeMounts:
        - {name: plugin-dir, mountPath: /csi}
        - {name: registration-dir, mountPath: /registration}
      - name: driver
        image: example.com/csi-driver:1.0
        livenessProbe:
          httpGet: {path: /healthz, port: healthz}
        ports: [{name: healthz, containerPort: 9808}]
      volumes:
      - name: plugin-dir
        hostPath: {path: /var/lib/kubelet/plugins/csi.example.com, type: DirectoryOrCreate}
      - name: registration-dir
        hostPath: {path: /var/lib/kubelet/plugins_registry, type: Directory}
"""


def typo(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


class CheckFieldsTest(unittest.TestCase):
    def test_clean_manifest(self):
        r = validate.check_fields(CSI_NODE)
        self.assertEqual((r["errors"], r["warnings"]), ([], []))
        self.assertEqual(r["fieldValidation"], "Strict")
        self.assertIn("sha256:", r["schema"])
        self.assertEqual(r["objects"], [{
            "document": 1, "apiVersion": "apps/v1", "kind": "DaemonSet", "name": "csi-node", "namespace": None,
            "line": 1, "checked": True, "message": None}])

    def test_security_context_typos(self):
        text = typo(CSI_NODE, "readOnlyRootFilesystem", "readOnlyRootFileSystem")
        text = typo(text, "privileged: true", "priviledged: true")
        r = validate.check_fields(text)
        self.assertEqual([(e["path"], e["suggestion"], e["line"], e["column"]) for e in r["errors"]], [
            ("spec.template.spec.containers[0].securityContext.priviledged", "privileged", 22, 11),
            ("spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem", "readOnlyRootFilesystem",
             23, 11)])
        e = r["errors"][1]
        self.assertEqual(e["message"],
                         'unknown field "spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem"')
        self.assertEqual((e["type"], e["field"], e["document"], e["kind"], e["name"]),
                         ("unknown field", "readOnlyRootFileSystem", 1, "DaemonSet", "csi-node"))
        self.assertEqual(r["objects"][0]["message"],
                         'DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: '
                         'unknown field "spec.template.spec.containers[0].securityContext.priviledged", '
                         'unknown field "spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem"')

    def test_pod_spec_typos(self):
        cases = [
            ("hostNetwork: true", "hostnetwork: true", "spec.template.spec.hostnetwork", "hostNetwork", 14),
            ("image: example.com/csi-driver:1.0", "imagee: example.com/csi-driver:1.0",
             "spec.template.spec.containers[1].imagee", "image", 28),
            ("hostPath: {path: /var/lib/kubelet/plugins_registry", "hostpath: {path: /var/lib/kubelet/plugins_registry",
             "spec.template.spec.volumes[1].hostpath", "hostPath", 36),
            ("containerPort: 9808", "port: 9808", "spec.template.spec.containers[1].ports[0].port", None, 31),
        ]
        for old, new, path, suggestion, line in cases:
            r = validate.check_fields(typo(CSI_NODE, old, new))
            self.assertEqual([(e["path"], e["suggestion"], e["line"]) for e in r["errors"]], [(path, suggestion, line)])

    def test_duplicates(self):
        text = typo(CSI_NODE, "        image: example.com/csi-driver:1.0\n",
                    "        image: example.com/csi-driver:1.0\n        image: example.com/csi-driver:1.1\n")
        r = validate.check_fields(text)
        self.assertEqual([(e["type"], e["path"], e["line"], e["column"]) for e in r["errors"]],
                         [("duplicate field", "spec.template.spec.containers[1].image", 29, 9)])
        # JSON, with a repeat in a label map and in the free-form fieldsV1 (which the decoder does not read)
        obj = json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": []}})
        text = obj[:-1] + ', "metadata": {"name": "q", "labels": {"a": "1", "a": "2"}, ' \
                          '"managedFields": [{"fieldsV1": {"f:x": {}, "f:x": {}}}]}}'
        r = validate.check_fields(text)
        self.assertEqual([e["message"] for e in r["errors"]],
                         ['duplicate field "metadata"', 'duplicate field "metadata.labels.a"'])
        self.assertEqual(r["objects"][0]["name"], "q")  # the later value is kept

    def test_stream(self):
        text = "# a Helm-style stream\n---\n" + CSI_NODE + "---\n# comment only\n---\n" + \
               "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: csi-node}\nautomountToken: false\n" + \
               "---\napiVersion: example.com/v1\nkind: CSIThing\nmetadata: {name: x}\nspec: {anything: 1}\n"
        r = validate.check_fields(text)
        # documents are counted as the loader counts them: the comment before the first "---" is no
        # document, the comment-only one after it is (2); an object's line is where its document starts
        self.assertEqual([(e["document"], e["kind"], e["path"], e["line"], e["suggestion"]) for e in r["errors"]],
                         [(3, "ServiceAccount", "automountToken", 45, None)])
        self.assertEqual([(o["document"], o["kind"], o["checked"], o["line"]) for o in r["objects"]],
                         [(1, "DaemonSet", True, 2), (3, "ServiceAccount", True, 41), (4, "CSIThing", False, 46)])

    def test_levels(self):
        text = typo(CSI_NODE, "hostNetwork", "hostNetwerk")
        warn = validate.check_fields(text, options=Options(fieldValidation="Warn"))
        self.assertEqual(warn["errors"], [])
        self.assertEqual([w["message"] for w in warn["warnings"]], ['unknown field "spec.template.spec.hostNetwerk"'])
        self.assertIsNone(warn["objects"][0]["message"])
        ignore = validate.check_fields(text, options=Options(fieldValidation="Ignore"))
        self.assertEqual((ignore["errors"], ignore["warnings"], ignore["fieldValidation"]), ([], [], "Ignore"))
        with self.assertRaises(DaemonSetError) as cm:
            Options(fieldValidation="strict")  # kubectl's spelling is the CLI's to map
        self.assertEqual((cm.exception.name, cm.exception.path), ("DS_EVALUE", "fieldValidation"))
        self.assertIn("Strict, Warn or Ignore", cm.exception.message)
        self.assertEqual(Options().get("fieldValidation"), "Strict")

    def test_validate_follows_the_level(self):
        text = typo(CSI_NODE, "hostNetwork", "hostNetwerk")
        r = validate.validate(text)
        self.assertEqual((r["valid"], r["code"], r["reason"]), (False, 400, "BadRequest"))
        self.assertEqual(r["message"], 'DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding '
                                       'error: unknown field "spec.template.spec.hostNetwerk"')
        self.assertEqual([(e["field"], e["detail"], e["line"]) for e in r["errors"]],
                         [("spec.template.spec.hostNetwerk", 'did you mean "hostNetwork"?', 14)])
        r = validate.validate(text, options=Options(fieldValidation="Warn"))
        self.assertTrue(r["valid"])
        self.assertEqual([w["message"] for w in r["warnings"]], ['unknown field "spec.template.spec.hostNetwerk"'])
        r = validate.validate(text, options=Options(fieldValidation="Ignore"))
        self.assertEqual(r, {"valid": True, "errors": [], "message": None})

    def test_repository_manifests(self):
        for name in ("daemonsets.yaml", "pods.yaml", "nodes.yaml", "pdbs.yaml", "controllerrevisions.json"):
            with open(os.path.join(ROOT, "examples", "cluster", name)) as f:
                r = validate.check_fields(f.read())
            self.assertEqual(r["errors"], [], name)
            self.assertTrue(all(o["checked"] for o in r["objects"]), name)

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            validate.check_fields("apiVersion: v1\nkind: Pod\nspec: [\n")
        self.assertEqual(cm.exception.name, "DS_ESYNTAX")
        self.assertEqual(cm.exception.line, 4)
        with self.assertRaises(DaemonSetError) as cm:
            validate.check_fields("[1, 2]")
        self.assertEqual(cm.exception.name, "DS_ETYPE")

    def test_raw_ctypes_call(self):
        # the C signature as a foreign caller sees it: NULL options, a ds_error of its own
        class Error(ctypes.Structure):
            _fields_ = [("code", ctypes.c_int), ("line", ctypes.c_int), ("column", ctypes.c_int),
                        ("reserved", ctypes.c_int), ("source", ctypes.c_char * 128), ("path", ctypes.c_char * 256),
                        ("message", ctypes.c_char * 320)]

        fn = lib.ds_manifest_check_fields
        data = typo(CSI_NODE, "tolerations", "toleration").encode()
        out, err = ctypes.c_void_p(), Error()
        self.assertEqual(fn(data, len(data), None, ctypes.byref(out), ctypes.byref(err)), 0)
        r = json.loads(ctypes.string_at(out.value))
        lib.ds_free(out)
        self.assertEqual([(e["path"], e["suggestion"]) for e in r["errors"]],
                         [("spec.template.spec.toleration", "tolerations")])
        out = ctypes.c_void_p(1)
        self.assertEqual(fn(b"{", 1, None, ctypes.byref(out), ctypes.byref(err)), -3)  # DS_ESYNTAX
        self.assertIsNone(out.value)
        self.assertEqual((err.code, err.line), (-3, 1))


if __name__ == "__main__":
    unittest.main()
