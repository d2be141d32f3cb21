"""Python ctypes tests for the value types: quantities, IntOrString, validation, selectors."""

import ctypes
import unittest

import daemonset.values as values
from daemonset import DaemonSetError


class QuantityTest(unittest.TestCase):
    def test_parse(self):
        q = values.parse_quantity("1.5Gi")
        self.assertEqual(q.canonical, "1536Mi")
        self.assertEqual(q.value, 1610612736)
        self.assertEqual(q.milli_value, 1610612736000)
        self.assertEqual(q.format, "BinarySI")
        self.assertEqual(q.sign, 1)
        self.assertFalse(q.verbatim)
        q = values.parse_quantity("100m")
        self.assertEqual((q.canonical, q.value, q.milli_value, q.verbatim), ("100m", 1, 100, True))
        self.assertEqual(values.parse_quantity("-5n")[1:3], (-1, -1))
        self.assertEqual(values.parse_quantity("1.G").canonical, "1G")
        self.assertTrue(values.parse_quantity("1.G").verbatim)
        self.assertEqual(values.parse_quantity("1e3").format, "DecimalExponent")

    def test_overflow_is_reported(self):
        q = values.parse_quantity("12E")
        self.assertIsNone(q.value)
        self.assertIsNone(q.milli_value)
        q = values.parse_quantity("9Ei")
        self.assertEqual(q.value, 2**63 - 1)
        self.assertIsNone(q.milli_value)

    def test_parse_error(self):
        with self.assertRaises(DaemonSetError) as cm:
            values.parse_quantity("1K")
        e = cm.exception
        self.assertEqual((e.code, e.name, e.path), (-5, "DS_EVALUE", ""))
        self.assertEqual(e.message, "unable to parse quantity's suffix")
        with self.assertRaises(DaemonSetError) as cm:
            values.parse_quantity(" 1")
        self.assertIn("regular expression", cm.exception.message)
        with self.assertRaises(DaemonSetError) as cm:
            values.parse_quantity("1" * 39)
        self.assertEqual(cm.exception.name, "DS_ELIMIT")

    def test_compare_and_add(self):
        self.assertEqual(values.compare_quantities("10000T", "100Gi"), 1)
        self.assertEqual(values.compare_quantities("1", "1000m"), 0)
        self.assertEqual(values.compare_quantities("-1", "0"), -1)
        self.assertEqual(values.add_quantities("100m", "1.9"), "2")
        self.assertEqual(values.add_quantities("0", "1Gi"), "1Gi")
        self.assertEqual(values.add_quantities("1Gi", "1"), "1073741825")
        with self.assertRaises(DaemonSetError) as cm:
            values.compare_quantities("1", "x")
        self.assertEqual(cm.exception.source, "b")
        with self.assertRaises(DaemonSetError) as cm:
            values.add_quantities("1e40", "1")
        self.assertEqual(cm.exception.name, "DS_ELIMIT")


class IntOrStringTest(unittest.TestCase):
    def test_scaled(self):
        self.assertEqual(values.scaled_value(3, 100), 3)
        self.assertEqual(values.scaled_value("90%", 95, round_up=True), 86)
        self.assertEqual(values.scaled_value("90%", 95, round_up=False), 85)
        self.assertEqual(values.scaled_value("-50%", 3, round_up=True), -1)

    def test_errors(self):
        with self.assertRaises(DaemonSetError) as cm:
            values.scaled_value("3", 10)
        self.assertEqual(cm.exception.name, "DS_EVALUE")
        self.assertEqual(cm.exception.message,
                         "invalid value for IntOrString: invalid type: string is not a percentage")
        with self.assertRaises(DaemonSetError) as cm:
            values.scaled_value("40%%", 10)
        self.assertEqual(cm.exception.message,
                         'invalid value for IntOrString: invalid value "40%%": '
                         'strconv.Atoi: parsing "40%": invalid syntax')
        with self.assertRaises(DaemonSetError) as cm:
            values.scaled_value(None, 10)
        self.assertEqual((cm.exception.name, cm.exception.message),
                         ("DS_EMISSING", "nil value for IntOrString"))
        with self.assertRaises(DaemonSetError) as cm:
            values.scaled_value(2**31, 10)
        self.assertEqual(cm.exception.name, "DS_EVALUE")


class ValidationTest(unittest.TestCase):
    def test_valid(self):
        self.assertTrue(values.validate_label_key("app.kubernetes.io/name"))
        self.assertTrue(values.validate_label_value(""))
        self.assertTrue(values.validate_dns1123_subdomain("node-1.example.com"))
        self.assertTrue(values.validate_dns1123_label("node-1"))

    def test_messages(self):
        with self.assertRaises(DaemonSetError) as cm:
            values.validate_label_key("example.com/")
        self.assertEqual(cm.exception.name, "DS_EVALUE")
        self.assertTrue(cm.exception.message.startswith("name part must be non-empty; name part must consist of"))
        with self.assertRaises(DaemonSetError) as cm:
            values.validate_label_value("a" * 64)
        self.assertEqual(cm.exception.message, "must be no more than 63 bytes")
        with self.assertRaises(DaemonSetError) as cm:
            values.validate_dns1123_subdomain("a" * 254)
        self.assertEqual(cm.exception.message, "must be no more than 253 characters")
        with self.assertRaises(DaemonSetError) as cm:
            values.validate_dns1123_label("a.b")
        self.assertEqual(cm.exception.message, "must not contain dots")


class SelectorTest(unittest.TestCase):
    def test_matches(self):
        self.assertTrue(values.selector_matches("x in (a,b),!y", {"x": "b"}))
        self.assertFalse(values.selector_matches("x in (a,b),!y", {"x": "b", "y": ""}))
        self.assertTrue(values.selector_matches("x notin (a)", {}))
        self.assertTrue(values.selector_matches("x>5", '{"x": "010"}'))
        sel = {"matchLabels": {"app": "web"},
               "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]}
        self.assertTrue(values.selector_matches(sel, {"app": "web", "tier": "a"}))
        self.assertFalse(values.selector_matches(sel, {"app": "web"}))
        self.assertTrue(values.selector_matches({}, {}))
        self.assertTrue(values.selector_matches("", {"a": "b"}))
        self.assertFalse(values.selector_matches(None, {}))
        self.assertTrue(values.selector_matches("!a", "null"))
        self.assertTrue(values.selector_matches("{matchLabels: {a: b}}", "a: b"))

    def test_string(self):
        sel = {"matchLabels": {"foo": "bar"},
               "matchExpressions": [{"key": "baz", "operator": "In", "values": ["qux", "norf"]}]}
        self.assertEqual(values.selector_string(sel), "baz in (norf,qux),foo=bar")
        self.assertEqual(values.selector_string("x notin (abc,,def),bar,z in (),w"),
                         "bar,w,x notin (,abc,def),z in ()")
        self.assertEqual(values.selector_string(None), "")

    def test_errors(self):
        sel = {"matchExpressions": [{"key": "a", "operator": "In", "values": ["x"]},
                                    {"key": "b", "operator": "Gt", "values": ["1"]}]}
        with self.assertRaises(DaemonSetError) as cm:
            values.selector_matches(sel, {})
        e = cm.exception
        self.assertEqual((e.code, e.name), (-5, "DS_EVALUE"))
        self.assertEqual(e.path, "matchExpressions[1].operator")
        self.assertEqual(e.message, '"Gt" is not a valid label selector operator')
        self.assertEqual(e.source, "selector")
        with self.assertRaises(DaemonSetError) as cm:
            values.selector_string("x<a")
        self.assertEqual(cm.exception.message,
                         "unable to parse requirement: values[0]: Invalid value: \"a\": "
                         "for 'Gt', 'Lt' operators, the value must be an integer")
        with self.assertRaises(DaemonSetError) as cm:
            values.selector_matches("x", {"x": 1})
        self.assertEqual((cm.exception.name, cm.exception.path, cm.exception.source), ("DS_ETYPE", "x", "labels"))


def _deprecated_prototypes():
    """The 1.0 names, which the package no longer binds, declared on a handle of their own."""
    own = ctypes.CDLL(values.lib._name)
    P, INT, OUT, ERR = ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p
    for name, args in [("ds_intstr_scaled", [P, INT, INT, OUT, ERR]), ("ds_selector_matches", [P, P, OUT, ERR]),
                       ("ds_selector_string", [P, OUT, ERR])]:
        getattr(own, name).argtypes = args
        getattr(own, name).restype = ctypes.c_int
    return own


class NullArgumentsTest(unittest.TestCase):
    def test_null_is_an_argument_error(self):
        lib = values.lib
        self.assertEqual(lib.ds_quantity_parse(None, None, None, None), -2)
        self.assertEqual(lib.ds_quantity_compare(b"1", None, None, None), -2)
        self.assertEqual(lib.ds_quantity_add(None, b"1", None, None), -2)
        self.assertEqual(lib.ds_label_key_validate(None, None), -2)
        self.assertEqual(lib.ds_label_value_validate(None, None), -2)
        self.assertEqual(lib.ds_dns1123_subdomain_validate(None, None), -2)
        self.assertEqual(lib.ds_dns1123_label_validate(None, None), -2)
        self.assertEqual(lib.ds_intstr_scale(b"1", 1, 1, 1, None, None), -2)  # out
        self.assertEqual(lib.ds_selector_match(b"a", 1, None, 0, None, None), -2)  # out
        self.assertEqual(lib.ds_selector_format(b"a", 1, None, None), -2)  # out
        # the 1.0 names refuse a NULL value and NULL labels, which their successors read as none
        old = _deprecated_prototypes()
        self.assertEqual(old.ds_intstr_scaled(None, 1, 1, None, None), -2)
        self.assertEqual(old.ds_selector_matches(b"a", None, None, None), -2)
        self.assertEqual(old.ds_selector_string(b"a", None, None), -2)
        out = ctypes.c_int(-1)
        self.assertEqual(lib.ds_selector_match(b"a", 1, None, 0, ctypes.byref(out), None), 0)
        self.assertEqual(out.value, 0)  # no labels: "a" does not match
        self.assertEqual(lib.ds_intstr_scale(None, 0, 1, 1, ctypes.byref(out), None), -6)  # a nil IntOrString
        # selector_matches(), scaled_value() and node_selector_matches() keep the 1.0 names' behaviour
        self.assertFalse(values.selector_matches("a", None))
        with self.assertRaises(DaemonSetError) as cm:
            values.scaled_value(None, 10)
        self.assertEqual(cm.exception.name, "DS_EMISSING")


if __name__ == "__main__":
    unittest.main()
