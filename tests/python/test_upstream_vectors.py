"""The pure functions of include/daemonset/upstream.h through ctypes, against
the tables of tests/vectors/pure/*.json (the same tables tests/unit/
test_upstream.c replays in C) and the upstream rows those files name in their
"upstream" member (tests/vectors/upstream/*.json). Standard library only: the
C ABI is called directly, with prototypes declared on a handle of its own.
The four functions 1.2 superseded with a 2 are called by their old names
too, on purpose: each case of theirs must give the successor's outcome."""

import ctypes
import json
import os
import unittest

from daemonset import _native

HERE = os.path.dirname(os.path.abspath(__file__))
PURE = os.path.join(HERE, "..", "vectors", "pure")
UPSTREAM = os.path.join(HERE, "..", "vectors", "upstream")

_lib = ctypes.CDLL(_native.lib._name)
_P = ctypes.c_char_p
_S = ctypes.c_size_t
_V = ctypes.c_void_p
_I = ctypes.c_int
_PI = ctypes.POINTER(ctypes.c_int)
_PV = ctypes.POINTER(ctypes.c_void_p)


def _proto(name, *args):
    fn = getattr(_lib, name)
    fn.argtypes = list(args)
    fn.restype = _I
    return fn


_lib.ds_options_free.argtypes = [_V]
_lib.ds_options_free.restype = None
_lib.ds_free.argtypes = [_V]
_lib.ds_free.restype = None
_options_create = _proto("ds_options_create", ctypes.POINTER(_V), _V)
_options_set_all = _proto("ds_options_set_all", _V, _P, _S, _V)
_time_parse = _proto("ds_time_parse", _P, ctypes.POINTER(ctypes.c_int64), _V)
_template_hash = _proto("ds_template_hash", _P, _S, ctypes.c_int32, _P, _S, _V)
FUNCTIONS = {
    "ds_toleration_tolerates_taint": _proto("ds_toleration_tolerates_taint", _P, _S, _P, _S, _V, _PI, _V),
    "ds_taints_find_untolerated2": _proto("ds_taints_find_untolerated2", _P, _S, _P, _S, _V, _V, _PI, _PV, _V),
    "ds_pod_required_node_affinity_match2": _proto("ds_pod_required_node_affinity_match2", _P, _S, _P, _S, _V, _PI,
                                                   _V),
    "ds_daemonset_node_should_run": _proto("ds_daemonset_node_should_run", _P, _S, _P, _S, _V, _PI, _PI, _PV, _V),
    "ds_daemonset_new_pod": _proto("ds_daemonset_new_pod", _P, _S, _P, _P, _V, _PV, _V),
    "ds_podspec_add_daemon_tolerations2": _proto("ds_podspec_add_daemon_tolerations2", _P, _S, _V, _PV, _V),
    "ds_affinity_replace_node_name2": _proto("ds_affinity_replace_node_name2", _P, _S, _P, _V, _PV, _V),
    "ds_daemonset_rolling_update": _proto("ds_daemonset_rolling_update", _P, _S, _P, _S, _P, ctypes.c_int64, _V, _PV,
                                          _V),
    "ds_scheduler_filter": _proto("ds_scheduler_filter", _P, _S, _P, _S, _P, _S, _V, _PV, _V),
    "ds_preemption_select_victims": _proto("ds_preemption_select_victims", _P, _S, _P, _S, _P, _S, _V, _PV, _V),
}
# the names 1.2 superseded (daemonset(7), Superseded names), by their successors
SUPERSEDED = {
    "ds_taints_find_untolerated2": _proto("ds_taints_find_untolerated", _P, _S, _P, _S, ctypes.c_uint, _V, _PI, _PV,
                                          _V),
    "ds_pod_required_node_affinity_match2": _proto("ds_pod_required_node_affinity_match", _P, _S, _P, _S, _PI, _V),
    "ds_podspec_add_daemon_tolerations2": _proto("ds_podspec_add_daemon_tolerations", _P, _S, _PV, _V),
    "ds_affinity_replace_node_name2": _proto("ds_affinity_replace_node_name", _P, _S, _P, _PV, _V),
}
EFFECT_BITS = {"NoSchedule": 0x1, "PreferNoSchedule": 0x2, "NoExecute": 0x4, "Other": 0x8}


class TaintFilter(ctypes.Structure):
    _fields_ = [("size", _S), ("effects", ctypes.POINTER(_P)), ("count", _S)]


class Outcome:
    """What one call gave: rc, the error (code, path, source, message) and outputs by name."""

    def __init__(self, rc, err, outputs):
        self.rc = rc
        self.code = _native.ERROR_CODES.get(rc, str(rc)) if rc < 0 else None
        self.path = err.path.decode()
        self.source = err.source.decode()
        self.message = err.message.decode()
        self.outputs = outputs


class Options:
    """ds_options from a JSON object of settings (None: NULL)."""

    def __init__(self, settings):
        self.h = _V()
        if settings:
            err = _native._Error()
            if _options_create(ctypes.byref(self.h), ctypes.byref(err)) < 0:
                raise AssertionError("options: %s" % err.message)
            text = json.dumps(settings).encode()
            if _options_set_all(self.h, text, len(text), ctypes.byref(err)) < 0:
                raise AssertionError("options %s: %s" % (text, err.message))

    def __enter__(self):
        return self.h if self.h else None

    def __exit__(self, *exc):
        if self.h:
            _lib.ds_options_free(self.h)


def _doc(case, name):
    """A document input as (bytes or None, size): raw text, a NULL pointer, the dumped JSON, or NULL, 0."""
    raw = case.get("raw", {})
    if name in raw:
        data = raw[name].encode()
        return data, len(data)
    if name in case.get("nullInputs", {}):
        return None, case["nullInputs"][name]
    if name not in case:
        return None, 0
    data = json.dumps(case[name]).encode()
    return data, len(data)


def _str(case, name):
    v = case.get(name)
    if name in case.get("nullInputs", {}):
        return None
    return None if v is None else v.encode()


def _take(ptr):
    if not ptr.value:
        return None
    return _native.take_json(ptr.value)


def _time(text):
    if text is None:
        return 0
    t = ctypes.c_int64()
    err = _native._Error()
    if _time_parse(text.encode(), ctypes.byref(t), ctypes.byref(err)) < 0:
        raise AssertionError("time %s: %s" % (text, err.message))
    return t.value


def _effects(names):
    bits = 0
    for n in names or []:
        bits |= int(n, 16) if n.startswith("0x") else EFFECT_BITS[n]
    return bits


def _filter(case):
    """The ds_taint_filter of the case's effect names (None: nil): Other is "" and each effect of the
    case's taints the API does not know."""
    names = case.get("effects")
    if not names:
        return None
    effects = [n.encode() for n in ("NoSchedule", "PreferNoSchedule", "NoExecute") if n in names]
    if "Other" in names:
        effects.append(b"")
        for t in case.get("taints") or []:
            e = t.get("effect") if isinstance(t, dict) else None
            if isinstance(e, str) and e and e not in EFFECT_BITS and e.encode() not in effects:
                effects.append(e.encode())
    f = TaintFilter()
    f.size = ctypes.sizeof(TaintFilter)
    f.count = len(effects)
    f._keep = (_P * max(len(effects), 1))(*effects)
    f.effects = ctypes.cast(f._keep, ctypes.POINTER(_P))
    return f


def call(fn_name, case, superseded=False):
    """Run the case through the C function of the file (superseded: through the name its function
    superseded, which reads every option at its default, or the effects as bits); outputs named as the
    vector files name them."""
    nulls = set(case.get("nullOutputs", []))
    err = _native._Error()
    if fn_name == "ds_taints_find_untolerated2" and _effects(case.get("effects")) >> 4:
        superseded = True  # bits beyond the four: an error only the old form has
    fn = SUPERSEDED[fn_name] if superseded else FUNCTIONS[fn_name]
    with Options(case.get("options")) as opts:
        if fn_name == "ds_toleration_tolerates_taint":
            out = _I(-1)
            rc = fn(*_doc(case, "toleration"), *_doc(case, "taint"), opts, None if "out" in nulls else ctypes.byref(out),
                    ctypes.byref(err))
            outputs = {"tolerates": bool(out.value)} if rc == 0 else {}
        elif fn_name == "ds_taints_find_untolerated2":
            found, js = _I(-1), _V()
            f = _filter(case)
            filt = _effects(case.get("effects")) if superseded else ctypes.byref(f) if f is not None else None
            rc = fn(*_doc(case, "taints"), *_doc(case, "tolerations"), filt, opts,
                    None if "found" in nulls else ctypes.byref(found), None if "json_out" in nulls else ctypes.byref(js),
                    ctypes.byref(err))
            outputs = {"found": bool(found.value), "taint": _take(js)} if rc == 0 else {}
        elif fn_name == "ds_pod_required_node_affinity_match2":
            out = _I(-1)
            rc = fn(*_doc(case, "pod"), *_doc(case, "node"), *([] if superseded else [opts]),
                    None if "out" in nulls else ctypes.byref(out), ctypes.byref(err))
            outputs = {"match": bool(out.value)} if out.value >= 0 else {}
        elif fn_name == "ds_daemonset_node_should_run":
            run, cont, js = _I(-1), _I(-1), _V()
            rc = fn(*_doc(case, "daemonset"), *_doc(case, "node"), opts, ctypes.byref(run), ctypes.byref(cont),
                    None if "json_out" in nulls else ctypes.byref(js), ctypes.byref(err))
            outputs = {"shouldRun": bool(run.value), "shouldContinueRunning": bool(cont.value),
                       "result": _take(js)} if rc == 0 else {}
        elif fn_name == "ds_daemonset_new_pod":
            js = _V()
            rc = fn(*_doc(case, "daemonset"), _str(case, "nodeName"), _str(case, "hash"), opts,
                    None if "json_out" in nulls else ctypes.byref(js), ctypes.byref(err))
            outputs = {"pod": _take(js)} if rc == 0 else {}
        elif fn_name == "ds_podspec_add_daemon_tolerations2":
            js = _V()
            rc = fn(*_doc(case, "podspec"), *([] if superseded else [opts]),
                    None if "json_out" in nulls else ctypes.byref(js), ctypes.byref(err))
            outputs = {"podspec": _take(js)} if rc == 0 else {}
        elif fn_name == "ds_affinity_replace_node_name2":
            js = _V()
            rc = fn(*_doc(case, "affinity"), _str(case, "nodeName"), *([] if superseded else [opts]),
                    None if "json_out" in nulls else ctypes.byref(js), ctypes.byref(err))
            outputs = {"affinity": _take(js)} if rc == 0 else {}
        elif fn_name == "ds_daemonset_rolling_update":
            js = _V()
            rc = fn(*_doc(case, "daemonset"), *_doc(case, "objects"), _str(case, "hash"), _time(case.get("now")), opts,
                    None if "json_out" in nulls else ctypes.byref(js), ctypes.byref(err))
            outputs = {"result": _take(js)} if rc == 0 else {}
        else:  # ds_scheduler_filter, ds_preemption_select_victims
            js = _V()
            rc = fn(*_doc(case, "pod"), *_doc(case, "node"), *_doc(case, "objects"), opts,
                    None if "json_out" in nulls else ctypes.byref(js), ctypes.byref(err))
            outputs = {"result": _take(js)} if rc == 0 else {}
    return Outcome(rc, err, outputs)


def template_hash(daemonset):
    """ds_template_hash of a DaemonSet's template with its collisionCount (for "{{templateHash}}")."""
    text = json.dumps(daemonset["spec"]["template"]).encode()
    count = daemonset.get("status", {}).get("collisionCount", -1)
    buf = ctypes.create_string_buffer(16)
    err = _native._Error()
    assert _template_hash(text, len(text), count, buf, 16, ctypes.byref(err)) == 0, err.message
    return buf.value.decode()


def _fill(v, hash_):
    if isinstance(v, str):
        return v.replace("{{templateHash}}", hash_)
    if isinstance(v, list):
        return [_fill(x, hash_) for x in v]
    if isinstance(v, dict):
        return {k: _fill(x, hash_) for k, x in v.items()}
    return v


def with_hash(case):
    """The case with "{{templateHash}}" (in its inputs and expectations) replaced by the hash."""
    if "{{templateHash}}" not in json.dumps(case):
        return case
    return _fill(case, template_hash(case["daemonset"]))


def check(test, fn_name, case):
    """Assert the outcome of one table case."""
    case = with_hash(case)
    got = call(fn_name, case)
    want = case["expect"]
    err = want.get("error")
    if err:
        test.assertEqual(got.code, err["code"], got.message)
        test.assertEqual(got.path, err["path"], got.message)
        if "source" in err:
            test.assertEqual(got.source, err["source"])
        test.assertTrue(got.message, "an error without a message")
    else:
        test.assertEqual(got.rc, 0, "%s at %s: %s" % (got.code, got.path, got.message))
    for k, v in want.items():
        if k != "error":
            test.assertIn(k, got.outputs)
            test.assertEqual(got.outputs[k], v, k)


def load(directory, name):
    with open(os.path.join(directory, name)) as f:
        return json.load(f)


def pure_files():
    return sorted(n for n in os.listdir(PURE) if n.endswith(".json"))


# ---- upstream rows through the pure functions (one mapping per "upstream" entry of a pure file) ----

def _named(obj, name):
    """A copy of an object whose metadata has a name when it lacks one."""
    obj = json.loads(json.dumps(obj))
    meta = obj.setdefault("metadata", {})
    if not meta.get("name"):
        meta["name"] = name
    return obj


def _gates(row):
    g = row.get("featureGates")
    if not g:
        return None
    return {"featureGates": ",".join("%s=%s" % (k, "true" if v else "false") for k, v in sorted(g.items()))}


def _node_fixture(n, name):
    """Upstream's plugin tests run one plugin: fixtures are completed so that the others stay quiet."""
    n = json.loads(json.dumps(n)) if n else {"apiVersion": "v1", "kind": "Node", "metadata": {}}
    n.setdefault("metadata", {})
    if not n["metadata"].get("name"):
        n["metadata"]["name"] = name
    st = n.setdefault("status", {})
    st.setdefault("allocatable", {"pods": "110"})
    return n


def map_row(entry, row):
    """The pure-table case for an upstream row (None: it cannot be expressed), as the C driver maps it."""
    fn = entry["function"]
    skip = entry.get("skip", {})
    if row["name"] in skip or row.get("function", fn) != fn:
        return None
    if fn == "ToleratesTaint":
        return {"toleration": row["toleration"], "taint": row["taint"], "options": _gates(row),
                "expect": {"tolerates": row["expect"]["tolerates"]}}
    if fn == "FindMatchingUntoleratedTaint":
        filt = row["filter"]
        if filt in (None, "all"):
            effects = []
        elif filt == "NoExecute":
            effects = ["NoExecute"]
        else:  # "none": a filter that keeps none of the row's taints
            have = {t.get("effect") if t.get("effect") in EFFECT_BITS else "Other" for t in row["taints"]}
            effects = [e for e in EFFECT_BITS if e not in have]
            if not effects:
                return None
        want = {"found": row["expect"]["found"]}
        if row["expect"]["found"]:
            want["taint"] = row["expect"]["taint"]
        return {"taints": row["taints"], "tolerations": row["tolerations"], "effects": effects,
                "options": _gates(row), "expect": want}
    if fn == "GetRequiredNodeAffinity(pod).Match":
        return {"pod": row["pod"], "node": row["node"], "expect": {"match": row["expect"]["match"]}}
    if fn == "MatchNodeSelectorTerms":
        if row["node"] is None:
            return None  # a nil node: the function takes a Node
        pod = {"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                                      row["nodeSelector"]}}}}
        if row["nodeSelector"] is None:
            pod = {"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                                          {"nodeSelectorTerms": None}}}}}
        return {"pod": pod, "node": row["node"], "expect": {"match": row["expect"]["match"]}}
    if fn == "NodeShouldRunDaemonPod":
        return {"daemonset": row["daemonset"], "node": row["node"], "expect": row["expect"]}
    if fn == "ReplaceDaemonSetPodNodeNameNodeAffinity":
        return {"affinity": row["affinity"], "nodeName": row["nodeName"], "expect": {"affinity": row["expect"]["affinity"]}}
    if fn == "CreatePodTemplate":
        return {"podspec": row["template"], "expect": {"tolerations": row["expect"]["tolerations"]},
                "labels": row["expect"]["labels"], "hash": row["hash"], "templateGeneration": row["templateGeneration"]}
    if fn == "PodPriority":
        return {"pod": row["pod"], "node": _node_fixture(None, "node"), "expect": row["expect"]}
    if fn.startswith("dryRunPreemption"):
        return {"row": row}
    # a scheduler plugin's Filter
    if fn.endswith("PreScore+Score+NormalizeScore") or fn == "getContainerPorts":
        return None
    if (row.get("args") or {}).get("addedAffinity"):
        return None
    want = row["expect"]
    pre = want.get("preFilter")
    if pre == "Skip" and fn.startswith("NodePorts"):
        return None
    if isinstance(pre, dict) and entry["plugin"] == "NodeResourcesFit":
        want = pre  # PreFilter refused the pod (sidecars without their gate): its status is the verdict
    # NodeAffinity's PreFilter (node-name narrowing, "pod affinity terms conflict") has no counterpart:
    # a pod is asked about one node, and the Filter's verdict is compared
    want = dict(want)
    corr = entry.get("corrections", {}).get(row["name"])
    if corr:
        assert want["code"] == corr["from"], "%s: the upstream row now says %s: drop its correction" % (
            row["name"], want["code"])
        want["code"] = corr["to"]
    existing = row.get("existingPods", [])
    name = "node"
    if existing and existing[0].get("spec", {}).get("nodeName"):
        name = existing[0]["spec"]["nodeName"]
    objects = [_named(p, "existing-%d" % i) for i, p in enumerate(existing)]
    opts = dict(_gates(row) or {})
    for k, v in (row.get("args") or {}).items():
        opts[k] = ",".join(v)
    return {"pod": row["pod"], "node": _node_fixture(row.get("node"), name), "objects": objects,
            "options": opts or None, "plugin": entry["plugin"], "expect": want}


def _plugin_view(result, plugin):
    """code, reasons and insufficientResources of one plugin in a ds_scheduler_filter result, and the others."""
    mine = [r for r in result["reasons"] if r["plugin"] == plugin]
    others = [r for r in result["reasons"] if r["plugin"] != plugin]
    code = "Success"
    if mine:
        code = mine[0]["code"]
    ir = []
    for r in mine:
        if "resource" in r:
            res = r["resource"]
            name = "pods" if r["message"] == "Too many pods" else r["message"][len("Insufficient "):]
            ir.append({"resourceName": name, "reason": r["message"], "requested": res["requested"],
                       "used": res["used"], "capacity": res["allocatable"]})
    return code, [r["message"] for r in mine], ir, others


class PureVectorsTest(unittest.TestCase):
    def test_files(self):
        names = pure_files()
        self.assertEqual(len(names), len(FUNCTIONS))
        self.assertEqual({load(PURE, n)["function"] for n in names}, set(FUNCTIONS))

    def test_cases(self):
        total = 0
        for name in pure_files():
            doc = load(PURE, name)
            for case in doc["cases"]:
                with self.subTest(file=name, case=case["name"]):
                    check(self, doc["function"], case)
                total += 1
        self.assertGreater(total, 200)

    def test_superseded_names_agree(self):
        """Each case of the four functions 1.2 superseded, through the old name: the table's expectation
        and the successor's outcome (code, path, source, message and outputs)."""
        ran = 0
        for name in pure_files():
            doc = load(PURE, name)
            fn_name = doc["function"]
            if fn_name not in SUPERSEDED:
                continue
            for case in doc["cases"]:
                if case.get("options") and fn_name != "ds_taints_find_untolerated2":
                    continue  # the old name reads every option at its default
                with self.subTest(file=name, case=case["name"]):
                    case = with_hash(case)
                    old, cur = call(fn_name, case, superseded=True), call(fn_name, case)
                    self.assertEqual((old.rc, old.path, old.source, old.message, old.outputs),
                                     (cur.rc, cur.path, cur.source, cur.message, cur.outputs))
                    check(self, fn_name, case)
                ran += 1
        self.assertGreater(ran, 120)

    def test_checker_reports_mismatches(self):
        """A flipped expectation fails: the checker compares, it does not just run."""
        doc = load(PURE, "tolerates_taint.json")
        case = json.loads(json.dumps(doc["cases"][0]))
        case["expect"]["tolerates"] = not case["expect"]["tolerates"]
        with self.assertRaises(AssertionError):
            check(self, doc["function"], case)


class UpstreamRowsTest(unittest.TestCase):
    """The upstream rows each pure file names, through its function."""

    def run_entry(self, fn_name, entry):
        doc = load(UPSTREAM, entry["file"])
        ran = skipped = 0
        for row in doc["cases"]:
            case = map_row(entry, row)
            if case is None:
                skipped += 1
                continue
            ran += 1
            with self.subTest(file=entry["file"], row=row["name"]):
                self.run_case(fn_name, entry, row, case)
        # every row the entry maps ran: a row that stops mapping fails here, not silently
        self.assertEqual(ran, entry["rows"], "%s %s: %d rows ran (%d not for this function)" % (
            entry["file"], entry["function"], ran, skipped))
        return ran

    def run_case(self, fn_name, entry, row, case):
        fn = entry["function"]
        if fn == "CreatePodTemplate":
            self.create_pod_template(case)
        elif fn == "PodPriority":
            got = call("ds_scheduler_filter", case)
            self.assertEqual(got.rc, 0, got.message)
            self.assertEqual(got.outputs["result"]["priority"], case["expect"]["priority"])
        elif fn.startswith("dryRunPreemption"):
            self.dry_run_preemption(case["row"])
        elif fn_name == "ds_pod_required_node_affinity_match2":
            # upstream asserts the bool; Match's parse errors, which come with false, are not compared
            got = call(fn_name, case)
            self.assertIn(got.code, (None, "DS_EVALUE"), got.message)
            self.assertEqual(got.outputs["match"], case["expect"]["match"])
            if got.code:
                self.assertFalse(got.outputs["match"])
        elif fn_name == "ds_scheduler_filter":
            got = call(fn_name, case)
            self.assertEqual(got.rc, 0, got.message)
            code, reasons, ir, others = _plugin_view(got.outputs["result"], case["plugin"])
            want = case["expect"]
            self.assertEqual(others, [], "other plugins failed")
            self.assertEqual(code, want["code"])
            self.assertEqual(reasons, want.get("reasons", []))
            if "insufficientResources" in want and case["plugin"] == "NodeResourcesFit":
                self.assertEqual(ir, want["insufficientResources"])
        else:
            check(self, fn_name, case)

    def create_pod_template(self, case):
        # tolerations: AddOrUpdateDaemonPodTolerations on the template
        got = call("ds_podspec_add_daemon_tolerations2", case)
        self.assertEqual(got.rc, 0, got.message)
        self.assertEqual(got.outputs["podspec"]["tolerations"], case["expect"]["tolerations"])
        # labels: the pod NewPod labels with the hash and the template generation
        ds = {"apiVersion": "apps/v1", "kind": "DaemonSet",
              "metadata": {"name": "ds", "namespace": "default", "uid": "u",
                           "annotations": {"deprecated.daemonset.template.generation":
                                           str(case["templateGeneration"])}},
              "spec": {"template": case["podspec"]}}
        got = call("ds_daemonset_new_pod", {"daemonset": ds, "nodeName": "node", "hash": case["hash"]})
        self.assertEqual(got.rc, 0, got.message)
        self.assertEqual(got.outputs["pod"]["metadata"].get("labels"), case["labels"])

    def dry_run_preemption(self, row):
        pdbs = [_named(p, "pdb-%d" % i) for i, p in enumerate(row.get("pdbs", []))]
        for pdb in pdbs:
            pdb.setdefault("apiVersion", "policy/v1")
            pdb.setdefault("kind", "PodDisruptionBudget")
        for n in row["nodes"]:
            name = n["metadata"]["name"]
            pods = [p for p in row["pods"] if p["spec"].get("nodeName") == name]
            got = call("ds_preemption_select_victims", {"pod": row["preemptor"], "node": n, "objects": pods + pdbs})
            self.assertEqual(got.rc, 0, got.message)
            res = got.outputs["result"]
            cand = row["expect"]["candidates"].get(name)
            self.assertEqual(res["possible"], cand is not None, name)
            if cand is not None:
                self.assertEqual(sorted(v["name"] for v in res["victims"]), sorted(cand["victims"]), name)
                self.assertEqual(res["pdbViolations"], cand["numPDBViolations"], name)

    def test_upstream_rows(self):
        total = 0
        for name in pure_files():
            doc = load(PURE, name)
            for entry in doc.get("upstream", []):
                total += self.run_entry(doc["function"], entry)
        self.assertGreater(total, 200)


if __name__ == "__main__":
    unittest.main()
