"""ds_node_selector_match(3) from Python (daemonset.values.node_selector_matches):
the semantics, the errors, and upstream's node affinity tables replayed through
the ABI: tests/vectors/upstream/nodeaffinity.json (NodeSelector.Match,
MatchNodeSelectorTerms) and node_affinity_plugin.json (the NodeAffinity
plugin's Filter and Score, whose node selectors are matched here one by one)."""

import ctypes
import json
import os
import unittest

import daemonset.values as values
from daemonset import DaemonSetError

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(HERE, "..", "vectors", "upstream")

NODE = {"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "n1", "labels": {"zone": "a", "gen": "02", "odd": " 1"}}}


def term(*exprs, fields=()):
    """A NodeSelectorTerm from (key, operator, values-or-None) triples."""
    def req(k, op, vals):
        r = {"key": k, "operator": op}
        if vals is not None:
            r["values"] = vals
        return r
    t = {}
    if exprs:
        t["matchExpressions"] = [req(*e) for e in exprs]
    if fields:
        t["matchFields"] = [req(*f) for f in fields]
    return t


def selector(*terms):
    return {"nodeSelectorTerms": list(terms)}


def go_value(v):
    """field.Error's rendering of a bad value: strings %q, the rest json.Marshal."""
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def field_error_text(e, field):
    """field.Error.Error() of a ported structured error, at path field."""
    if e["type"] == "NotSupported":
        detail = "supported values: " + ", ".join(json.dumps(v) for v in e["supportedValues"])
        return "%s: Unsupported value: %s: %s" % (field, go_value(e["badValue"]), detail)
    text = "%s: Invalid value: %s" % (field, go_value(e["badValue"]))
    return text + (": " + e["detail"] if e.get("detail") else "")


def aggregate(texts):
    """errors.NewAggregate(...).Error(): one error is its text, several are bracketed."""
    return texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"


class SemanticsTest(unittest.TestCase):
    def test_operators(self):
        rows = [
            (("zone", "In", ["b", "a"]), True),
            (("zone", "In", ["b"]), False),
            (("zone", "NotIn", ["a"]), False),
            (("absent", "NotIn", ["a"]), True),
            (("zone", "Exists", None), True),
            (("absent", "Exists", None), False),
            (("zone", "DoesNotExist", None), False),
            (("absent", "DoesNotExist", None), True),
            (("gen", "Gt", ["1"]), True),      # "02" parses as 2
            (("gen", "Gt", ["2"]), False),
            (("gen", "Lt", ["03"]), True),
            (("odd", "Gt", ["0"]), False),     # " 1" is not an integer: no match
            (("odd", "Lt", ["5"]), False),
            (("zone", "Gt", ["0"]), False),    # nor is "a"
            (("absent", "Lt", ["5"]), False),
        ]
        for req, want in rows:
            with self.subTest(req=req):
                self.assertIs(values.node_selector_matches(selector(term(req)), NODE), want)

    def test_fields_terms_and_forms(self):
        by_name = selector(term(fields=[("metadata.name", "In", ["n1"])]))
        self.assertTrue(values.node_selector_matches(by_name, NODE))
        self.assertFalse(values.node_selector_matches(by_name, {"metadata": {"name": "n2"}}))
        self.assertTrue(values.node_selector_matches(
            selector(term(fields=[("metadata.name", "NotIn", ["n1"])])), {"metadata": {"name": "n2"}}))
        # a node without a name has no fields: upstream skips the field part
        self.assertTrue(values.node_selector_matches(by_name, {"metadata": {}}))
        # terms ORed, requirements ANDed
        both = term(("zone", "In", ["a"]), fields=[("metadata.name", "In", ["n2"])])
        self.assertFalse(values.node_selector_matches(selector(both), NODE))
        self.assertTrue(values.node_selector_matches(selector(both, term(("gen", "Exists", None))), NODE))
        # empty terms and no terms match nothing
        self.assertFalse(values.node_selector_matches(selector({}), NODE))
        self.assertFalse(values.node_selector_matches(selector(), NODE))
        # a nil node matches nothing
        self.assertFalse(values.node_selector_matches(by_name, None))
        # text in: JSON or YAML
        self.assertTrue(values.node_selector_matches(
            "nodeSelectorTerms:\n- matchFields: [{key: metadata.name, operator: In, values: [n1]}]\n",
            "metadata:\n  name: n1\n"))
        self.assertTrue(values.node_selector_matches(json.dumps(by_name), json.dumps(NODE)))

    def test_invalid_terms(self):
        bad = term(("zone", "Bad", None))
        msg = ('nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Bad": supported values: '
               '"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"')
        # skipped when another term matches
        self.assertTrue(values.node_selector_matches(selector(bad, term(("zone", "In", ["a"]))), NODE))
        # reported when nothing matched
        with self.assertRaises(DaemonSetError) as cm:
            values.node_selector_matches(selector(bad, term(("zone", "In", ["b"]))), NODE)
        e = cm.exception
        self.assertEqual((e.name, e.path, e.source, e.message),
                         ("DS_EVALUE", "nodeSelectorTerms[0].matchExpressions[0].operator", "node_selector", msg))
        with self.assertRaises(DaemonSetError) as cm:
            values.node_selector_matches(selector(term(("gen", "Gt", ["x"]))), NODE)
        self.assertEqual(cm.exception.message,
                         'nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "x": '
                         "for 'Gt', 'Lt' operators, the value must be an integer")

    def test_input_errors(self):
        cases = [
            ("{", NODE, "DS_ESYNTAX", "", "node_selector"),
            ([], NODE, "DS_ETYPE", "", "node_selector"),
            ({"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "values": [1]}]}]}, NODE,
             "DS_ETYPE", "nodeSelectorTerms[0].matchFields[0].values[0]", "node_selector"),
            (selector(), "{\"metadata\": [", "DS_ESYNTAX", "", "node"),
            (selector(), {"metadata": {"labels": {"a": True}}}, "DS_ETYPE", "metadata.labels.a", "node"),
            (selector(), [], "DS_ETYPE", "", "node"),
        ]
        for sel, node, name, path, source in cases:
            with self.subTest(sel=sel, node=node):
                with self.assertRaises(DaemonSetError) as cm:
                    values.node_selector_matches(sel, node)
                e = cm.exception
                self.assertEqual((e.name, e.path, e.source), (name, path, source))
                self.assertTrue(e.message)

    def test_null_arguments(self):
        lib = values.lib
        self.assertEqual(lib.ds_node_selector_match(None, 0, b"{}", 2, None, None), -2)
        self.assertEqual(lib.ds_node_selector_match(b"{}", 2, None, 0, None, None), -2)
        self.assertEqual(lib.ds_node_selector_match(None, 0, None, 0, None, None), -2)
        # the 1.0 name, which the package no longer binds, on a handle of its own
        old = ctypes.CDLL(lib._name).ds_node_selector_matches
        old.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]
        old.restype = ctypes.c_int
        self.assertEqual(old(None, b"{}", None, None), -2)
        self.assertEqual(old(b"{}", None, None, None), -2)
        self.assertEqual(old(None, None, None, None), -2)

    def test_text_after_a_nul_is_not_read(self):
        """The 1.0 name read NUL-terminated text; node_selector_matches() still reads up to the NUL."""
        sel = selector(term(fields=[("metadata.name", "In", ["n1"])]))
        text = json.dumps(sel) + "\0 anything"
        self.assertTrue(values.node_selector_matches(text, NODE))
        self.assertTrue(values.node_selector_matches(text.encode(), json.dumps(NODE).encode() + b"\0{"))
        with self.assertRaises(DaemonSetError) as cm:
            values.node_selector_matches("\0" + json.dumps(sel), NODE)  # empty text
        self.assertEqual(cm.exception.name, "DS_EMISSING")


# A node that carries no label and no name: no valid term of the ported error
# rows matches it, so the lazy matcher must report the parse errors.
STAND_IN = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "vt-stand-in"}}


def lazy_match(sel, node):
    """MatchNodeSelectorTerms through the ABI: (match, error message or None)."""
    try:
        return values.node_selector_matches(sel, node), None
    except DaemonSetError as e:
        if e.name != "DS_EVALUE":
            raise
        return False, e


class UpstreamNodeAffinityTest(unittest.TestCase):
    """nodeaffinity.json: NewNodeSelector+Match and MatchNodeSelectorTerms rows."""

    SKIPS = {
        # a nil *v1.NodeSelector: the ABI takes the selector's text, and "null" is no document
        "MatchNodeSelectorTerms: nil terms": "a nil NodeSelector has no text form",
    }

    def test_rows(self):
        with open(os.path.join(UPSTREAM, "nodeaffinity.json")) as f:
            doc = json.load(f)
        seen = 0
        for cs in doc["cases"]:
            if cs["function"] not in ("NewNodeSelector+Match", "MatchNodeSelectorTerms"):
                continue
            if cs["name"] in self.SKIPS:
                continue
            seen += 1
            with self.subTest(cs["name"]):
                expect = cs["expect"]
                if "errors" in expect:
                    self.check_errors(cs["nodeSelector"], expect["errors"])
                    # with the row's own node (here nil): the lazy matcher says no, without error
                    self.assertEqual(lazy_match(cs["nodeSelector"], cs["node"]), (False, None))
                    continue
                got, err = lazy_match(cs["nodeSelector"], cs["node"])
                self.assertEqual(got, expect["match"])
                if err is not None:
                    # only MatchNodeSelectorTerms rows may carry invalid terms (upstream ignores the error)
                    self.assertEqual(cs["function"], "MatchNodeSelectorTerms", err.message)
        self.assertEqual(seen, 14)

    def check_errors(self, sel, errors):
        """Upstream's errors, as the aggregate text: the library keeps the first error of each term."""
        firsts, terms = [], set()
        for e in errors:
            t = e["field"].split("]", 1)[0]
            if t not in terms:
                terms.add(t)
                firsts.append(field_error_text(e, e["field"]))
        self.assertEqual(len(firsts), len(errors), "rows with several errors in one term are not expected here")
        got, err = lazy_match(sel, STAND_IN)
        self.assertFalse(got)
        self.assertIsNotNone(err)
        self.assertEqual(err.path, errors[0]["field"])
        want = aggregate(firsts)
        # ds_error's message buffer (DS_ERROR_MESSAGE_MAX) may cut a long aggregate
        self.assertTrue(err.message == want or (len(err.message.encode()) == 319 and want.startswith(err.message)),
                        "%r\n%r" % (err.message, want))


def required_terms(node_affinity):
    return (node_affinity or {}).get("requiredDuringSchedulingIgnoredDuringExecution")


def preferred_terms(node_affinity):
    return (node_affinity or {}).get("preferredDuringSchedulingIgnoredDuringExecution") or []


class UpstreamPluginTest(unittest.TestCase):
    """node_affinity_plugin.json: the NodeAffinity plugin's node selectors, matched through the ABI.

    Filter succeeds when the pod's nodeSelector labels are on the node, its
    required affinity matches (lazily: parse errors are no match) and the
    scheduler's added affinity matches. Score sums the weights of the
    preferred terms (each a one-term NodeSelector here) that match."""

    def setUp(self):
        with open(os.path.join(UPSTREAM, "node_affinity_plugin.json")) as f:
            self.cases = json.load(f)["cases"]

    def test_filter(self):
        n = 0
        for cs in self.cases:
            if cs["function"] != "NodeAffinity.PreFilter+Filter":
                continue
            n += 1
            with self.subTest(cs["name"]):
                spec, node = cs["pod"]["spec"], cs["node"]
                labels = (node.get("metadata") or {}).get("labels") or {}
                ok = all(labels.get(k) == v for k, v in (spec.get("nodeSelector") or {}).items())
                req = required_terms((spec.get("affinity") or {}).get("nodeAffinity"))
                if ok and req is not None:
                    ok = lazy_match(req, node)[0]
                added = required_terms((cs.get("args") or {}).get("addedAffinity"))
                if ok and added is not None:
                    ok = values.node_selector_matches(added, node)
                self.assertEqual("Success" if ok else "UnschedulableAndUnresolvable", cs["expect"]["code"])
        self.assertEqual(n, 31)

    def test_score(self):
        n = 0
        for cs in self.cases:
            if cs["function"] != "NodeAffinity.PreScore+Score+NormalizeScore":
                continue
            expect = cs["expect"]
            terms = preferred_terms((cs["pod"]["spec"].get("affinity") or {}).get("nodeAffinity")) + \
                preferred_terms((cs.get("args") or {}).get("addedAffinity"))
            pre = expect.get("preScore", {}).get("code")
            if pre == "Skip":
                self.assertEqual(terms, [])
                continue
            n += 1
            with self.subTest(cs["name"]):
                raw = []
                error = None
                for node in cs["nodes"]:
                    total = 0
                    for i, t in enumerate(terms):
                        if t.get("weight", 0) == 0:
                            continue
                        got, err = lazy_match(selector(t.get("preference") or {}), node)
                        if err is not None:
                            # upstream names the term by its index in the list, not nodeSelectorTerms[0]
                            error = error or err.message.replace("nodeSelectorTerms[0]", "[%d]" % i, 1)
                        total += t["weight"] if got else 0
                    raw.append(total)
                if pre == "Error":
                    self.assertEqual(error, expect["preScore"]["message"])
                    continue
                self.assertIsNone(error)
                top = max(raw) if raw else 0
                scores = [100 * r // top if top else 0 for r in raw]
                self.assertEqual(scores, [s["score"] for s in expect["scores"]])
        self.assertEqual(n, 8)


if __name__ == "__main__":
    unittest.main()
