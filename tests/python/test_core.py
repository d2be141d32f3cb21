"""Python ctypes smoke tests for the core ABI: version, options, time, errors."""

import unittest

import daemonset
from daemonset import DaemonSetError


class CoreTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(daemonset.version(), r"^\d+\.\d+\.\d+$")
        major, minor, patch = (int(x) for x in daemonset.version().split("."))
        self.assertEqual(daemonset.version_number(), (major << 16) | (minor << 8) | patch)

    def test_options(self):
        o = daemonset.Options(force=True, gracePeriodSeconds=30)
        self.assertEqual(o.get("force"), "true")
        self.assertEqual(o.get("gracePeriodSeconds"), "30")
        self.assertEqual(o.get("backoffMax"), "15m0s")
        o.set("backoffMax", "1h30m")
        self.assertEqual(o.get("backoffMax"), "1h30m0s")
        with self.assertRaises(DaemonSetError) as cm:
            o.set("nope", "1")
        self.assertEqual(cm.exception.name, "DS_EARG")
        self.assertEqual(cm.exception.path, "nope")
        with self.assertRaises(DaemonSetError) as cm:
            o.set("burstReplicas", "-3")
        self.assertEqual(cm.exception.name, "DS_EVALUE")
        self.assertIn("expected an integer", cm.exception.message)

    def test_time(self):
        t = daemonset.parse_time("2026-12-02T16:04:05.250+01:00")
        self.assertEqual(daemonset.format_time(t), "2026-12-02T15:04:05.250Z")
        with self.assertRaises(DaemonSetError) as cm:
            daemonset.parse_time("2026-02-30T00:00:00Z")
        self.assertEqual(cm.exception.code, -5)

    def test_error_clear(self):
        import ctypes
        from daemonset import _native
        e = _native._Error(code=-5, line=3, column=4, source=b"f.yaml", path=b"spec.x", message=b"bad")
        _native.lib.ds_error_clear(ctypes.byref(e))
        self.assertEqual((e.code, e.line, e.column, e.source, e.path, e.message), (0, 0, 0, b"", b"", b""))
        _native.lib.ds_error_clear(None)  # allowed: no error to clear


if __name__ == "__main__":
    unittest.main()
