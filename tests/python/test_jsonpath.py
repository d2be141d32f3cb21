"""dsctl's kubectl-style JSONPath and custom columns (examples/dsctl/jsonpath.c, columns.c).

Run through tests/support/jsonpathecho (a JSON document on standard input, a template or a
column spec as arguments). The expected outputs of the JSONPath tables come from client-go's
util/jsonpath tests (jsonpath_test.go and parser_test.go; each case names its Go test), with
the Go structs there written as JSON objects, and from the examples of kubectl's "JSONPath
Support" page; the rest pins what kubectl prints (Go's fmt and encoding/json for numbers,
strings and maps, kubectl's tabwriter for the columns), its errors, and a loop of random and
mutated templates that must never crash.

jsonpathecho is found through $JSONPATHECHO, then tests/support/jsonpathecho under the build
directory that $DAEMONSET_LIB points into, then build/. $JSONPATH_FUZZ_RUNS sets the number
of random templates (default 600), $JSONPATH_FUZZ_SEED the seed.
"""

import json
import os
import random
import subprocess
import tempfile
import unittest

import buildpaths

JSONPATHECHO = buildpaths.program("JSONPATHECHO", "tests", "support", "jsonpathecho")


def setUpModule():
    if not os.access(JSONPATHECHO, os.X_OK):
        if os.environ.get("JSONPATHECHO"):
            raise RuntimeError("JSONPATHECHO=%s is not a program" % JSONPATHECHO)
        raise unittest.SkipTest("tests/support/jsonpathecho is not built (make tests builds it): %s" % JSONPATHECHO)


def _doc_bytes(doc):
    if isinstance(doc, bytes):
        return doc
    if isinstance(doc, str):
        return doc.encode()
    return json.dumps(doc).encode()


def run(args, doc):
    """jsonpathecho ARGS < doc: (returncode, stdout bytes, stderr text)."""
    p = subprocess.run([JSONPATHECHO] + args, input=_doc_bytes(doc), capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def jsonpath(template, doc, allow_missing=True):
    args = [] if allow_missing else ["--allow-missing-template-keys=false"]
    if isinstance(template, str):
        template = template.encode()
    return run(args + ["--", template], doc)


def columns(spec, rows, headers=True):
    return run(["--columns", spec] + ([] if headers else ["--no-headers"]), rows)


class Case(unittest.TestCase):
    def assertOutput(self, template, doc, expect, allow_missing=True):
        rc, out, err = jsonpath(template, doc, allow_missing)
        self.assertEqual(rc, 0, "%r: %s" % (template, err))
        if isinstance(expect, str):
            expect = expect.encode()
        self.assertEqual(out, expect, template)
        self.assertEqual(err, "")

    def assertExecError(self, template, doc, message, allow_missing=True):
        rc, out, err = jsonpath(template, doc, allow_missing)
        self.assertEqual(rc, 1, "%r printed %r" % (template, out))
        self.assertEqual(out, b"", "nothing is printed when the template fails")
        self.assertEqual(err, 'error: error executing jsonpath "%s": Error executing template: %s\n'
                         % (template, message))

    def assertParseError(self, template, message, where=None):
        rc, out, err = jsonpath(template, {})
        self.assertEqual(rc, 1, "%r printed %r" % (template, out))
        self.assertEqual(out, b"")
        prefix = "error: error parsing jsonpath %s, %s (at " % (template, message)
        self.assertTrue(err.startswith(prefix), "%r: %r does not start with %r" % (template, err, prefix))
        if where is not None:
            self.assertEqual(err[len(prefix):], where + ")\n", template)


# client-go jsonpath_test.go TestTypesInput: the Go map as a JSON object (the Go structs there
# are left out: they print their fields in declaration order, an object prints sorted keys).
TYPES = {
    "bools": [True, False, True, False],
    "integers": [1, 2, 3, 4],
    "floats": [1.0, 2.2, 3.3, 4.0],
    "strings": ["one", "two", "three", "four"],
    "interfaces": [True, "one", 1, 1.1],
    "maps": [{"name": "one", "value": 1}, {"name": "two", "value": 2.02},
             {"name": "three", "value": 3.03}, {"name": "four", "value": 4.04}],
}

# TestStructInput's storeData, its structs as objects with the fields in declaration order.
STORE = {
    "Book": [
        {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
        {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
        {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99},
    ],
    "Bicycle": [{"Color": "red", "Price": 19.95, "IsNew": True}, {"Color": "green", "Price": 20.01, "IsNew": False}],
    "Name": "jsonpath",
    "Labels": {"engieer": 10, "web/html": 15, "k8s-app": 20},
    "Employees": {"jason": "manager", "dan": "clerk"},
}

# TestKubernetes (and kubectl's "JSONPath Support" page).
NODES = {
    "kind": "List",
    "items": [
        {"kind": "None", "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
         "status": {"capacity": {"cpu": "4"}, "ready": True,
                    "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
        {"kind": "None", "metadata": {"name": "127.0.0.2", "labels": {"kubernetes.io/hostname": "127.0.0.2"}},
         "status": {"capacity": {"cpu": "8"}, "ready": False,
                    "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.2"},
                                  {"type": "another", "address": "127.0.0.3"}]}},
    ],
    "users": [{"name": "myself", "user": {}}, {"name": "e2e", "user": {"username": "admin", "password": "secret"}}],
}

POINTS = [  # TestJSONInput
    {"id": "i1", "x": 4, "y": -5}, {"id": "i2", "x": -2, "y": -5, "z": 1}, {"id": "i3", "x": 8, "y": 3},
    {"id": "i4", "x": -6, "y": -1}, {"id": "i5", "x": 0, "y": 2, "z": 1}, {"id": "i6", "x": 1, "y": 4},
    {"id": "i7", "x": None, "y": 4},
]

NESTED = {"items": [  # TestNestedRanges
    {"metadata": {"name": "pod1"}, "spec": {"containers": [
        {"name": "foo", "another": [{"name": "value1"}, {"name": "value2"}]},
        {"name": "bar", "another": [{"name": "value1"}, {"name": "value2"}]}]}},
    {"metadata": {"name": "pod2"}, "spec": {"containers": [
        {"name": "baz", "another": [{"name": "value1"}, {"name": "value2"}]}]}},
]}

ANNOTATED = {"kind": "List", "items": [  # TestFilterPartialMatchesSometimesMissingAnnotations
    {"kind": "Pod", "metadata": {"name": "pod1", "annotations": {"color": "blue"}}},
    {"kind": "Pod", "metadata": {"name": "pod2"}},
    {"kind": "Pod", "metadata": {"name": "pod3", "annotations": {"color": "green"}}},
    {"kind": "Pod", "metadata": {"name": "pod4", "annotations": {"color": "blue"}}},
]}


def _containers(n):  # TestNegativeIndex (4), TestStep (6)
    return {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [
        {"image": "radial/busyboxplus:curl", "name": "fake%d" % i} for i in range(n)]}}


class ClientGoTest(Case):
    def test_types_input(self):
        # TestTypesInput (allow missing keys false)
        for name, template, expect in [
            ("boolSlice", "{ .bools }", "[true,false,true,false]"),
            ("boolSliceIndex", "{ .bools[0] }", "true"),
            ("boolSliceIndex", "{ .bools[-1] }", "false"),
            ("boolSubSlice", "{ .bools[0:2] }", "true false"),
            ("boolSubSliceFirst2", "{ .bools[:2] }", "true false"),
            ("boolSubSliceStep2", "{ .bools[:4:2] }", "true true"),
            ("integerSlice", "{ .integers }", "[1,2,3,4]"),
            ("integerSliceIndex", "{ .integers[0] }", "1"),
            ("integerSliceIndexReverse", "{ .integers[-2] }", "3"),
            ("integerSubSliceFirst2", "{ .integers[0:2] }", "1 2"),
            ("integerSubSliceFirst2Alt", "{ .integers[:2] }", "1 2"),
            ("integerSubSliceStep2", "{ .integers[:4:2] }", "1 3"),
            ("floatSlice", "{ .floats }", "[1,2.2,3.3,4]"),
            ("floatSliceIndex", "{ .floats[0] }", "1"),
            ("floatSliceIndexReverse", "{ .floats[-2] }", "3.3"),
            ("floatSubSliceFirst2", "{ .floats[0:2] }", "1 2.2"),
            ("floatSubSliceFirst2Alt", "{ .floats[:2] }", "1 2.2"),
            ("floatSubSliceStep2", "{ .floats[:4:2] }", "1 3.3"),
            ("stringSlice", "{ .strings }", '["one","two","three","four"]'),
            ("stringSliceIndex", "{ .strings[0] }", "one"),
            ("stringSliceIndexReverse", "{ .strings[-2] }", "three"),
            ("stringSubSliceFirst2", "{ .strings[0:2] }", "one two"),
            ("stringSubSliceFirst2Alt", "{ .strings[:2] }", "one two"),
            ("stringSubSliceStep2", "{ .strings[:4:2] }", "one three"),
            ("interfaceSlice", "{ .interfaces }", '[true,"one",1,1.1]'),
            ("interfaceSliceIndex", "{ .interfaces[0] }", "true"),
            ("interfaceSliceIndexReverse", "{ .interfaces[-2] }", "1"),
            ("interfaceSubSliceFirst2", "{ .interfaces[0:2] }", "true one"),
            ("interfaceSubSliceFirst2Alt", "{ .interfaces[:2] }", "true one"),
            ("interfaceSubSliceStep2", "{ .interfaces[:4:2] }", "true 1"),
            ("mapSlice", "{ .maps }", '[{"name":"one","value":1},{"name":"two","value":2.02},'
                                     '{"name":"three","value":3.03},{"name":"four","value":4.04}]'),
            ("mapSliceIndex", "{ .maps[0] }", '{"name":"one","value":1}'),
            ("mapSliceIndexReverse", "{ .maps[-2] }", '{"name":"three","value":3.03}'),
            ("mapSubSliceFirst2", "{ .maps[0:2] }", '{"name":"one","value":1} {"name":"two","value":2.02}'),
            ("mapSubSliceFirst2Alt", "{ .maps[:2] }", '{"name":"one","value":1} {"name":"two","value":2.02}'),
            ("mapSubSliceStepOdd", "{ .maps[::2] }", '{"name":"one","value":1} {"name":"three","value":3.03}'),
            ("mapSubSliceStepEven", "{ .maps[1::2] }", '{"name":"two","value":2.02} {"name":"four","value":4.04}'),
        ]:
            with self.subTest(name=name, template=template):
                self.assertOutput(template, TYPES, expect, allow_missing=False)

    def test_struct_input(self):
        # TestStructInput storeTests (allow missing keys false); the struct values printed as JSON
        # objects have their keys sorted here (Go prints struct fields in declaration order).
        for name, template, doc, expect in [
            ("plain", "hello jsonpath", None, "hello jsonpath"),
            ("recursive", "{..}", [1, 2, 3], "[1,2,3]"),
            ("filter", "{[?(@<5)]}", [2, 6, 3, 7], "2 3"),
            ("quote", '{"{"}', None, "{"),
            ("union", "{[1,3,4]}", [0, 1, 2, 3, 4], "1 3 4"),
            ("array", "{[0:2]}", ["Monday", "Tudesday"], "Monday Tudesday"),
            ("variable", "hello {.Name}", STORE, "hello jsonpath"),
            ("dict/", "{$.Labels.web/html}", STORE, "15"),
            ("dict/", "{$.Employees.jason}", STORE, "manager"),
            ("dict/", "{$.Employees.dan}", STORE, "clerk"),
            ("dict-", "{.Labels.k8s-app}", STORE, "20"),
            ("nest", "{.Bicycle[*].Color}", STORE, "red green"),
            ("allarray", "{.Book[*].Author}", STORE, "Nigel Rees Evelyn Waugh Herman Melville"),
            ("allfields", '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', STORE,
             "{red 19.95 true} {green 20.01 false} "),
            ("recurfields", "{..Price}", STORE, "8.95 12.99 8.99 19.95 20.01"),
            ("recurdotfields", "{...Price}", STORE, "8.95 12.99 8.99 19.95 20.01"),
            ("allstructsSlice", "{.Bicycle}", STORE,
             '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]'),
            ("allstructs", '{range .Bicycle[*]}{ @ }{ " " }{end}', STORE,
             '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} '),
            ("lastarray", "{.Book[-1:]}", STORE,
             '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'),
            ("recurarray", "{..Book[2]}", STORE,
             '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'),
            ("bool", "{.Bicycle[?(@.IsNew==true)]}", STORE, '{"Color":"red","IsNew":true,"Price":19.95}'),
        ]:
            with self.subTest(name=name, template=template):
                self.assertOutput(template, doc, expect, allow_missing=False)
        # superrecurfields: a parse error
        self.assertParseError("{" + "." * 60 + "Price}", "invalid multiple recursive descent")
        # missingKeyTests (allow missing keys true)
        self.assertOutput("{.hello}", STORE, "")
        self.assertOutput("before-{.hello}after", STORE, "before-after")
        # failStoreTests (allow missing keys false); an unstructured map is map[string]interface {}
        for template, message in [
            ("{hello}", "unrecognized identifier hello"),
            ("{.hello}", "hello is not found"),
            ("{.Labels[0]}", "map[string]interface {} is not array or slice"),
            ("{.Book[?(@.Price<>10)]}", "unrecognized filter operator <>"),
            ("{range .Labels.*}{@}{end}{end}", "not in range, nothing to end"),
        ]:
            with self.subTest(template=template):
                self.assertExecError(template, STORE, message, allow_missing=False)

    def test_json_input(self):
        # TestJSONInput
        self.assertOutput("{[?(@.z)].id}", POINTS, "i2 i5", allow_missing=False)
        self.assertOutput("{[0]['id']}", POINTS, "i1", allow_missing=False)
        self.assertOutput("{[-1]['x']}", POINTS, "null", allow_missing=False)

    def test_kubernetes(self):
        # TestKubernetes (allow missing keys false)
        for name, template, expect in [
            ("range item", "{range .items[*]}{.metadata.name}, {end}{.kind}", "127.0.0.1, 127.0.0.2, List"),
            ("range item with quote", '{range .items[*]}{.metadata.name}{"\\t"}{end}', "127.0.0.1\t127.0.0.2\t"),
            ("range addresss", "{.items[*].status.addresses[*].address}", "127.0.0.1 127.0.0.2 127.0.0.3"),
            ("double range", "{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}",
             "127.0.0.1, 127.0.0.2, 127.0.0.3, "),
            ("item name", "{.items[*].metadata.name}", "127.0.0.1 127.0.0.2"),
            ("union nodes capacity", "{.items[*]['metadata.name', 'status.capacity']}",
             '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'),
            ("range nodes capacity", "{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}",
             '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '),
            ("user password", '{.users[?(@.name=="e2e")].user.password}', "secret"),
            ("hostname", "{.items[0].metadata.labels.kubernetes\\.io/hostname}", "127.0.0.1"),
            ("hostname filter", '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', "None"),
            ("bool item", "{.items[?(@..ready==true)].metadata.name}", "127.0.0.1"),
        ]:
            with self.subTest(name=name):
                self.assertOutput(template, NODES, expect, allow_missing=False)
        # "recursive name": Go walks maps in random order, so the test sorts; here the document's order.
        self.assertOutput("{..name}", NODES, "127.0.0.1 127.0.0.2 myself e2e")

    def test_empty_range(self):
        # TestEmptyRange (allow missing keys true)
        empty = {"items": []}
        self.assertOutput("{range .items[*]}{.metadata.name}{end}", empty, "")
        self.assertOutput('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}'
                          '{"+"}{end}', empty, "")
        # client-go still walks the body of an empty range, with a nil value: without missing keys allowed
        # that is an error.
        self.assertExecError("{range .items[*]}{.metadata.name}{end}", empty, "metadata is not found",
                             allow_missing=False)

    def test_nested_ranges(self):
        # TestNestedRanges
        self.assertOutput('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}'
                          '{"+"}{end}', NESTED, "pod1:foo,bar,+pod2:baz,+", allow_missing=False)
        self.assertOutput('{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}'
                          '{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}', NESTED,
                          "pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#", allow_missing=False)
        self.assertOutput('{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}'
                          '{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}', NESTED,
                          "pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n", allow_missing=False)

    def test_filter_partial_matches(self):
        # TestFilterPartialMatchesSometimesMissingAnnotations
        template = '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}'
        self.assertOutput(template, ANNOTATED, "pod1 pod4")
        self.assertExecError(template, ANNOTATED, "annotations is not found", allow_missing=False)

    def test_negative_index(self):
        # TestNegativeIndex (allow missing keys false)
        doc = _containers(4)
        for template, expect in [
            ("{.spec.containers[0].name}", "fake0"),
            ("{.spec.containers[0:0].name}", ""),
            ("{.spec.containers[0:-1].name}", "fake0 fake1 fake2"),
            ("{.spec.containers[-1].name}", "fake3"),
            ("{.spec.containers[-1:].name}", "fake3"),
            ("{.spec.containers[-2].name}", "fake2"),
            ("{.spec.containers[-2:].name}", "fake2 fake3"),
            ("{.spec.containers[-3].name}", "fake1"),
            ("{.spec.containers[-4].name}", "fake0"),
            ("{.spec.containers[-4:].name}", "fake0 fake1 fake2 fake3"),
            ("{.spec.containers[5:5].name}", ""),
            ("{.spec.containers[-5:-5].name}", ""),
        ]:
            with self.subTest(template=template):
                self.assertOutput(template, doc, expect, allow_missing=False)
        for template, message in [
            ("{.spec.containers[-1:0].name}", "starting index 3 is greater than ending index 0"),
            ("{.spec.containers[-5].name}", "array index out of bounds: index -1, length 4"),
            ("{.spec.containers[3:1].name}", "starting index 3 is greater than ending index 1"),
            ("{.spec.containers[-1:-2].name}", "starting index 3 is greater than ending index 2"),
        ]:
            with self.subTest(template=template):
                self.assertExecError(template, doc, message, allow_missing=False)

    def test_running_pods(self):
        # TestRunningPodsJSONPathOutput (allow missing keys true): the filter's left side without @
        doc = {"kind": "List", "items": [
            {"kind": "Pod", "metadata": {"name": "pod1"}, "status": {"phase": "Running"}},
            {"kind": "Pod", "metadata": {"name": "pod2"}, "status": {"phase": "Running"}},
            {"kind": "Pod", "metadata": {"name": "pod3"}, "status": {"phase": "Running"}},
            {"resourceVersion": ""}]}
        self.assertOutput('{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}', doc,
                          "pod1 is Running\npod2 is Running\npod3 is Running\n")

    def test_step(self):
        # TestStep (allow missing keys false)
        doc = _containers(6)
        for template, expect in [
            ("{.spec.containers[0:].name}", "fake0 fake1 fake2 fake3 fake4 fake5"),
            ("{.spec.containers[0:6:].name}", "fake0 fake1 fake2 fake3 fake4 fake5"),
            ("{.spec.containers[0:6:1].name}", "fake0 fake1 fake2 fake3 fake4 fake5"),
            ("{.spec.containers[1:4:2].name}", "fake1 fake3"),
            ("{.spec.containers[1:4:3].name}", "fake1"),
            ("{.spec.containers[1:4:4].name}", "fake1"),
            ("{.spec.containers[0:6:2].name}", "fake0 fake2 fake4"),
            ("{.spec.containers[0:6:3].name}", "fake0 fake3"),
            ("{.spec.containers[0:6:5].name}", "fake0 fake5"),
            ("{.spec.containers[0:6:6].name}", "fake0"),
        ]:
            with self.subTest(template=template):
                self.assertOutput(template, doc, expect, allow_missing=False)
        for template in ["{.spec.containers[0:6:0].name}", "{.spec.containers[0:6:-1].name}"]:
            with self.subTest(template=template):
                self.assertExecError(template, doc, "step must be > 0", allow_missing=False)

    def test_fail_parser(self):
        # parser_test.go TestFailParser: client-go's messages, then where
        for template, message, where in [
            ("{.hello", "unclosed action", "the end of the template"),
            ("{*}", "unrecognized character in action: U+002A '*'", "character 2"),
            ("{+12.3.0}", "cannot parse number +12.3.0", "character 2"),
            ("{[1}", "unterminated array", "character 2"),
            ("{[?(.price]}", "unterminated filter", "character 2"),
            ("{........}", "invalid multiple recursive descent", "character 4"),
        ]:
            with self.subTest(template=template):
                self.assertParseError(template, message, where)

    def test_parser_cases(self):
        # parser_test.go TestParser, run instead of compared as nodes
        os_images = [{"status": {"nodeInfo": {"osImage": v}}, "n": i} for i, v in
                     enumerate(["()", '("")', "())(", "Linux", "{[()]}", "''", '""', "\\'"])]
        for name, template, expect in [
            ("arrayfiled", "hello {['jsonpath']}", "hello x"),
            ("paired parentheses in quotes", '{[?(@.status.nodeInfo.osImage == "()")].n}', "0"),
            ("paired parentheses in double quotes and with double quotes escape",
             '{[?(@.status.nodeInfo.osImage == "(\\"\\")")].n}', "1"),
            ("unregular parentheses in double quotes", '{[?(@.status.nodeInfo.osImage == "())(")].n}', "2"),
            ("plain text in single quotes", "{[?(@.status.nodeInfo.osImage == 'Linux')].n}", "3"),
            ("test filter suffix", '{[?(@.status.nodeInfo.osImage == "{[()]}")].n}', "4"),
            ("double inside single", "{[?(@.status.nodeInfo.osImage == \"''\")].n}", "5"),
            ("single inside double", "{[?(@.status.nodeInfo.osImage == '\"\"')].n}", "6"),
            ("single containing escaped single", "{[?(@.status.nodeInfo.osImage == '\\\\\\'')].n}", "7"),
        ]:
            with self.subTest(name=name):
                doc = {"jsonpath": "x"} if name == "arrayfiled" else os_images
                self.assertOutput(template, doc, expect)
        # "union": ['bicycle.price', 3, 'book.price'], dict keys parsed as paths
        self.assertOutput("{['bicycle.price', 3, 'book.price']}", [0, 1, 2, 3, 4], "3")
        self.assertOutput("{['bicycle.price', 'book.price']}", {"bicycle": {"price": 1}, "book": {"price": 2}},
                          "1 2")
        self.assertParseError("{\\\\\\}", "unrecognized character in action: U+005C '\\'")  # malformat input


class KubectlDocsTest(Case):
    """The table of kubectl's "JSONPath Support" page, with today's output of maps (JSON)."""

    def test_functions(self):
        for template, expect in [
            ("kind is {.kind}", "kind is List"),
            ("{.kind}", "List"),
            ("{['kind']}", "List"),
            ("{..name}", "127.0.0.1 127.0.0.2 myself e2e"),
            ("{.items[*].metadata.name}", "127.0.0.1 127.0.0.2"),
            ("{.users[0].name}", "myself"),
            ("{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'),
            ('{.users[?(@.name=="e2e")].user.password}', "secret"),
            ("{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}",
             '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '),
            ("{range .items[*]}{.metadata.name}{'\\t'}{end}", "127.0.0.1\t127.0.0.2\t"),
            ("{.items[0].metadata.labels.kubernetes\\.io/hostname}", "127.0.0.1"),
        ]:
            with self.subTest(template=template):
                self.assertOutput(template, NODES, expect)
        rc, out, _ = jsonpath("{@}", NODES)
        self.assertEqual((rc, json.loads(out)), (0, NODES))  # "the same as input"
        self.assertEqual(out, json.dumps(NODES, sort_keys=True, separators=(",", ":")).encode())

    def test_escaped_dot_key(self):
        # {['name\.type']}: a bracket key is a path, a dot in it escaped
        doc = {"name.type": "dotted", "name": {"type": "nested"}}
        self.assertOutput("{['name\\.type']}", doc, "dotted")
        self.assertOutput("{['name.type']}", doc, "nested")
        self.assertOutput("{.name\\.type}", doc, "dotted")


NUMBERS = {"i": 3, "neg": -7, "big": 9007199254740993, "r": 1.5, "r2": 2.0, "m": 1000000.0, "m2": 123456.0,
           "m3": 1234567.0, "s": 0.0001, "s2": 0.00001, "nz": -0.0, "e": 1e21, "e2": 1e20, "tiny": 1e-7,
           "b": True, "f": False, "n": None, "str": "x y"}


class OutputTest(Case):
    def test_scalars_as_go_prints_them(self):
        # strings raw, integers in decimal, a float64 with fmt's %v (shortest, %e from exponent 6 or below -4)
        for key, expect in [("i", "3"), ("neg", "-7"), ("big", "9007199254740993"), ("r", "1.5"), ("r2", "2"),
                            ("m", "1e+06"), ("m2", "123456"), ("m3", "1.234567e+06"), ("s", "0.0001"),
                            ("s2", "1e-05"), ("nz", "-0"), ("e", "1e+21"), ("e2", "1e+20"), ("tiny", "1e-07"),
                            ("b", "true"), ("f", "false"), ("n", "null"), ("str", "x y")]:
            with self.subTest(key=key):
                self.assertOutput("{.%s}" % key, NUMBERS, expect)

    def test_json_numbers_as_encoding_json(self):
        doc = {"o": {"tiny": 1e-7, "e": 1e21, "e2": 1e20, "m": 1000000.0, "r2": 2.0, "nz": -0.0, "s": 0.0001,
                     "i": -12}}
        self.assertOutput("{.o}", doc,
                          '{"e":1e+21,"e2":100000000000000000000,"i":-12,"m":1000000,"nz":-0,"r2":2,"s":0.0001,'
                          '"tiny":1e-7}')

    def test_json_strings_as_encoding_json(self):
        doc = {"o": {"h": "<a&b>", "c": "\u0001\b\f\n\r\t\"\\", "ls": "\u2028\u2029", "u": "é", "del": "\u007f",
                     "": "empty key"}}
        self.assertOutput("{.o}", doc, '{"":"empty key","c":"\\u0001\\b\\f\\n\\r\\t\\"\\\\","del":"\u007f",'
                                       '"h":"\\u003ca\\u0026b\\u003e","ls":"\\u2028\\u2029","u":"é"}')
        self.assertOutput("{.o.h} {.o.u}", doc, "<a&b> é")  # a string itself prints raw

    def test_several_results_and_actions(self):
        self.assertOutput("{.a[*]}", {"a": [1, "two", [3], {"four": 4}, None]}, '1 two [3] {"four":4} null')
        self.assertOutput("{.a}{.b}|{.a} {.b}", {"a": 1, "b": 2}, "12|1 2")
        self.assertOutput("{}", {"b": 1, "a": [True]}, '{"a":[true],"b":1}')
        self.assertOutput("{$}", [1], "[1]")

    def test_null_iterated_by_range(self):
        # client-go ranges over value.Interface(): a nil is an invalid reflect.Value, "<no value>"
        self.assertOutput("{range .a[*]}{@};{end}", {"a": [1, None, "x"]}, "1;<no value>;x;")
        self.assertOutput("{@}", None, "<no value>")

    def test_literals(self):
        for template, expect in [
            ('{"a\\tb"}', b"a\tb"), ("{'it\\'s'}", b"it's"), ('{"\\u00e9\\U0001F600"}', "é😀".encode()),
            ('{"\\x41\\101\\\\ "}', b"AA\\ "), ('{"\\xff"}', b"\xff"), ("{5}", b"5"), ("{-2.50}", b"-2.5"),
            ("{+7}", b"7"), ("{99999999999999999999}", b"1e+20"), ("{true} {false}", b"true false"),
            ('{"}"}{"{"}', b"}{"), ("a}b", b"a}b"),
        ]:
            with self.subTest(template=template):
                self.assertOutput(template, {}, expect)

    def test_client_go_quirks(self):
        doc = {"a": [5, 6, 7], "s": "ab", "m": {"x": 1}, "e": "", "k": {"a": {"b": 1}, "a.b": 2}}
        self.assertOutput("{.a[]}", doc, "5")  # [] is [0]
        self.assertOutput("{.s.*}", doc, "97 98")  # a string's bytes
        self.assertOutput("{..}", {"a": "x", "b": [1], "c": "", "d": {}},
                          '{"a":"x","b":[1],"c":"","d":{}} x [1]')  # containers and non-empty strings
        self.assertOutput("{.k['a.b']}", doc, "1")
        self.assertOutput("{.k['a\\.b']}", doc, "2")
        self.assertOutput("{.a[0,2]}{.a[ 1 , 1 ]}", doc, "5 76 6")
        self.assertOutput("{.m.*}", doc, "1")
        self.assertOutput("{.a[5:5]}", doc, "")
        self.assertOutput("{.m.x range}", doc, "")  # a range without end: the rest runs per value

    def test_filters(self):
        doc = {"items": [{"name": "a", "n": 1, "r": 1.5, "ok": True, "tags": ["x", "y"]},
                         {"name": "b", "n": 2, "r": 2.5, "ok": False, "tags": []},
                         {"name": "c", "n": 3, "r": 0.5, "ok": True}]}
        for template, expect in [
            ("{.items[?(@.n>1)].name}", "b c"), ("{.items[?(@.n>=2)].name}", "b c"),
            ("{.items[?(@.n<2)].name}", "a"), ("{.items[?(@.n<=2)].name}", "a b"),
            ("{.items[?(@.n!=2)].name}", "a c"), ("{.items[?(@.n==2)].name}", "b"),
            ("{.items[?(@.r>1.0)].name}", "a b"), ("{.items[?(@.name<'b')].n}", "1"),
            ('{.items[?(@.name>="b")].n}', "2 3"), ("{.items[?(@.ok==true)].name}", "a c"),
            ("{.items[?(@.ok!=true)].name}", "b"), ("{.items[?(@.tags)].name}", "a b"),
            ("{.items[?(@.tags[0])].name}", "a b"),  # [0] of [] fails, returning its input: "exists"
            ("{.items[?(@.n == @.n)].name}", "a b c"),
            ("{.items[?(@.missing==1)].name}", ""),
        ]:
            with self.subTest(template=template):
                self.assertOutput(template, doc, expect)


class ErrorTest(Case):
    DOC = {"items": [{"name": "a", "n": 1, "r": 1.5, "ok": True, "z": None, "l": [1, 2]}], "m": {"x": 1},
           "n": None, "s": "str"}

    def test_execution_errors(self):
        for template, message in [
            ("{.items[?(@.n>1.0)].name}", "incompatible types for comparison"),
            ("{.items[?(@.r>1)].name}", "incompatible types for comparison"),
            ("{.items[?(@.name==1)].name}", "incompatible types for comparison"),
            ("{.items[?(@.ok<true)].name}", "invalid type for comparison"),
            ("{.items[?(@.z=='a')].name}", "invalid type for comparison"),
            ("{.items[?(@.l==1)].name}", "invalid type for comparison"),
            ("{.items[?(@.l[*]==1)].name}", "can only compare one element at a time"),
            ("{.items[?(@.n==null)].name}", "unrecognized identifier null"),
            ("{.items[?(@.n=1)].name}", "unrecognized filter operator ="),
            ("{.m[?(@.x)]}", "map[x:1] is not array or slice and cannot be filtered"),
            ("{.n[?(@.x)]}", "<nil> is not array or slice and cannot be filtered"),
            ("{.s[0]}", "string is not array or slice"),
            ("{.m[*]}", "map[string]interface {} is not array or slice"),  # [*] is the slice [:]
            ("{.items[1]}", "array index out of bounds: index 1, length 1"),
            ("{.items[0:3]}", "array index out of bounds: index 2, length 1"),
            ("{end}", "not in range, nothing to end"),
            ("{nope}", "unrecognized identifier nope"),
        ]:
            with self.subTest(template=template):
                self.assertExecError(template, self.DOC, message)

    def test_missing_keys(self):
        self.assertOutput("a{.nope}b{.items[*].nope}c", self.DOC, "abc")
        self.assertExecError("a{.nope}b", self.DOC, "nope is not found", allow_missing=False)
        self.assertExecError("{.items[*].nope}", self.DOC, "nope is not found", allow_missing=False)
        self.assertOutput("{.items[0].z}", self.DOC, "null", allow_missing=False)  # null is there
        self.assertOutput("{.empty[*].nope}", {"empty": []}, "", allow_missing=False)  # nothing in, nothing out

    def test_syntax_errors(self):
        for template, message, where in [
            ("{.a", "unclosed action", "the end of the template"),
            ("{.a\n}", "unclosed action", "character 4"),
            ("ab{.x[1}", "unterminated array", "character 6"),
            ('{["a"]}', 'invalid array index "a"', "character 2"),
            ("{.a[1:2:3:4]}", "invalid array index 1:2:3:4", "character 4"),
            ("{.a[-]}", "array index - is not a number", "character 4"),
            ("{.a[1,x]}", "invalid array index x", "character 7"),
            ('{"\\q"}', 'unquote string "\\q" error invalid syntax', "character 2"),
            ('{"abc}', "unterminated quoted string", "character 2"),
            ("{[?(@.a==1)x]}", "unclosed array expect ]", "character 12"),
            ("{\t}", "unrecognized character in action: U+0009", "character 2"),
            ("{.a{}", "unrecognized character in action: U+007B '{'", "character 4"),
            ("{..a..b}", None, None),
        ]:
            with self.subTest(template=template):
                if message is None:  # two separate recursive descents are fine
                    self.assertOutput(template, {"a": {"x": {"b": 1}}}, "1")
                else:
                    self.assertParseError(template, message, where)

    def test_limits(self):
        # deep nesting does not overflow the stack: a long chain parses, 5000 nested ranges are refused
        self.assertOutput("{" + ".a" * 50000 + "}", {"a": 1}, "")
        rc, out, err = jsonpath("{range @}" * 5000 + "x", {"a": 1})
        self.assertEqual((rc, out), (1, b""))
        self.assertIn("ranges nested too deeply", err)
        self.assertOutput("{range @}" * 500 + "x" + "{end}" * 500, 1, "x")
        deep = "[" * 1500 + "]" * 1500
        rc, out, _ = jsonpath("{..}", deep)
        self.assertEqual(rc, 0)
        self.assertEqual(len(out.split(b" ")), 1499)  # every array but the innermost, empty one


ITEMS = NODES["items"]


class ColumnsTest(unittest.TestCase):
    def assertColumns(self, spec, rows, expect, headers=True):
        rc, out, err = columns(spec, rows, headers)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.decode(), expect)

    def assertColumnsError(self, args, rows, message):
        rc, out, err = run(args, rows)
        self.assertEqual((rc, out), (1, b""))
        self.assertEqual(err, "error: %s\n" % message)

    def test_table(self):
        # kubectl's tabwriter: widest cell + 3 spaces, the last column unpadded
        self.assertColumns("NAME:.metadata.name,CPU:.status.capacity.cpu,ADDRESSES:.status.addresses[*].address,"
                           "READY:.status.ready", ITEMS,
                           "NAME        CPU   ADDRESSES             READY\n"
                           "127.0.0.1   4     127.0.0.1             true\n"
                           "127.0.0.2   8     127.0.0.2,127.0.0.3   false\n")
        self.assertColumns("NAME:.metadata.name,READY:.status.ready", ITEMS,
                           "127.0.0.1   true\n127.0.0.2   false\n", headers=False)

    def test_minimum_width(self):
        # tabwriter's minwidth 6
        self.assertColumns("A:.a,B:.b", [{"a": 1, "b": 2}], "A     B\n1     2\n")
        self.assertColumns("A:.a,B:.b", [], "A     B\n")

    def test_values_as_fmt_prints_them(self):
        rows = [{"m": {"z": 1, "a": [1, "x", None]}, "f": 1000000.0, "n": None}]
        self.assertColumns("M:.m,F:.f,N:.n,X:.missing", rows,
                           "M                        F       N       X\n"
                           "map[a:[1 x <nil>] z:1]   1e+06   <nil>   <none>\n")

    def test_one_row_and_one_column(self):
        self.assertColumns("KIND:.kind,NAME:.metadata.name", ITEMS[0], "KIND   NAME\nNone   127.0.0.1\n")
        # one column: each line is a line of one cell, never padded
        self.assertColumns("NAME:.n", [{"n": "a"}, {"n": "bbbbbbbbbbbb"}], "NAME\na\nbbbbbbbbbbbb\n")

    def test_path_forms(self):
        rows = [{"a": {"b": "v"}}]
        for path in ["a.b", ".a.b", "{a.b}", "{.a.b}"]:
            with self.subTest(path=path):
                self.assertColumns("H:" + path, rows, "H\nv\n")
        self.assertColumns("H:", rows, "H\n<none>\n")
        self.assertColumns("H:..b", rows, "H\nv\n")

    def test_terminal_escapes_and_cell_breaks(self):
        self.assertColumns("A:.a", [{"a": "x\x1by\rz"}], "A\nx^[y\\rz\n")
        # a tab in a value is one more cell, as in kubectl
        self.assertColumns("A:.a,B:.b", [{"a": "x\ty", "b": "z"}], "A     B\nx     y     z\n")

    def test_line_breaks_in_values(self):
        # a line break ends the row's line there: column blocks as text/tabwriter forms them
        self.assertColumns("A:.a,B:.b,C:.c", [{"a": "x", "b": "l1\nl2", "c": "z"}, {"a": "long-value", "b": "q", "c": "w"}],
                           "A            B     C\n"
                           "x            l1\n"
                           "l2           z\n"
                           "long-value   q     w\n")
        # a line of one cell flushes the writer; RememberWidths keeps the column as wide after it
        self.assertColumns("A:.a,B:.b", [{"a": "wide-value", "b": "y"}, {"a": "p\nq", "b": "r"}],
                           "A            B\nwide-value   y\np\nq            r\n")

    def test_width_counts_runes(self):
        self.assertColumns("A:.a,B:.b", [{"a": "ééééééé", "b": 1}], "A         B\nééééééé   1\n")

    def test_file_form(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("NAME   CPU\r\n  .metadata.name\t{.status.capacity.cpu}  \r\nignored\n")
        try:
            rc, out, err = run(["--columns-file", f.name], ITEMS)
        finally:
            os.unlink(f.name)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.decode(), "NAME        CPU\n127.0.0.1   4\n127.0.0.2   8\n")

    def test_file_errors(self):
        expected = "Expected format is one line of space separated headers, one line of space separated column specs."
        for text, message in [
            ("", "invalid template, missing header line. " + expected),
            ("A B\n", "invalid template, missing spec line. " + expected),
            ("A B\n.a\n", "number of headers (2) and field specifications (1) don't match"),
        ]:
            with self.subTest(text=text):
                with tempfile.NamedTemporaryFile("w", delete=False) as f:
                    f.write(text)
                try:
                    self.assertColumnsError(["--columns-file", f.name], [], message)
                finally:
                    os.unlink(f.name)

    def test_spec_errors(self):
        for spec, message in [
            ("", "custom-columns format specified but no custom columns given"),
            ("A", "unexpected custom-columns spec: A, expected <header>:<json-path-expr>"),
            ("A:.a,B", "unexpected custom-columns spec: B, expected <header>:<json-path-expr>"),
            ("A:.a[0,1]", "unexpected custom-columns spec: 1], expected <header>:<json-path-expr>"),
            ("A:{.a}.b}", "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' "
                          "or '{.name1.name2}'"),
            ("A:.a[", "error parsing jsonpath {.a[}, unterminated array (at character 4)"),
        ]:
            with self.subTest(spec=spec):
                self.assertColumnsError(["--columns", spec], [], message)
        self.assertColumnsError(["--columns", "A:.a[?(@.x<1.0)]"], [{"a": [{"x": 1}]}],
                                "incompatible types for comparison")


class FuzzTest(unittest.TestCase):
    """Random and mutated templates and column specs: an answer or an error, never a crash."""

    TOKENS = ["{", "}", "{", "}", ".", "..", "[", "]", "*", "[?(", ")]", ")", "@", "$", "'", '"', "\\", ",", ":",
              "-", "1", "0", "-1", "2.5", "==", "<", ">=", "!=", "<>", "range ", "end", "true", " ", "\t", "\n",
              "items", "metadata", "name", "status", "a", "x", "é", "\x01", "\\n", "\\x", "\\u12", "[*]", "[0]",
              "[1:]", "[::2]", "['a.b', 0]", "{range .items[*]}", "{end}", "{.items[*].metadata.name}"]
    SEEDS = ["{range .items[*]}{.metadata.name}{\"\\t\"}{.status.capacity}{\"\\n\"}{end}",
             "{.items[?(@.status.ready==true)].metadata.labels.kubernetes\\.io/hostname}",
             "{..addresses[-1:].address} {.users[0,1]['name', 'user.password']}",
             "{.items[::2].status.addresses[?(@.type!='x')]}{'\\u00e9'}", "{@}{..}{$.kind}{.nums[1:3]}{5}{-1.5}"]

    def docs(self):
        return [NODES, {"nums": [1, 2.5, -3, None, True, "x"], "a": {"b.c": [[[]]]}, "x": None}, None, "str",
                [[1, [2, [3]]], {"": {"": 0}}]]

    def check(self, args, doc):
        p = subprocess.run([JSONPATHECHO] + args, input=json.dumps(doc).encode(), capture_output=True, timeout=60)
        self.assertGreaterEqual(p.returncode, 0, "signal %d on %r" % (-p.returncode, args))
        self.assertIn(p.returncode, (0, 1), "%r: %r" % (args, p.stderr))
        if p.returncode == 1:
            self.assertTrue(p.stderr.startswith(b"error: "), "%r: %r" % (args, p.stderr))
            self.assertEqual(p.stdout, b"")

    def mutate(self, rnd, s):
        b = bytearray(s.encode())
        for _ in range(rnd.randint(1, 4)):
            op = rnd.randrange(4)
            i = rnd.randrange(len(b) + 1)
            if op == 0 and b:
                del b[min(i, len(b) - 1)]
            elif op == 1:
                b[i:i] = rnd.choice(self.TOKENS).encode()
            elif op == 2:
                b[i:i] = bytes([rnd.randrange(1, 256)])
            elif b:
                j = rnd.randrange(len(b))
                b[i:i] = b[j:j + rnd.randint(1, 8)]
        return bytes(b.replace(b"\0", b""))

    def test_random_templates(self):
        seed = int(os.environ.get("JSONPATH_FUZZ_SEED", "20261202"))
        runs = int(os.environ.get("JSONPATH_FUZZ_RUNS", "600"))
        rnd = random.Random(seed)
        docs = self.docs()
        for n in range(runs):
            if n % 2:
                t = "".join(rnd.choice(self.TOKENS) for _ in range(rnd.randint(1, 24))).encode()
            else:
                t = self.mutate(rnd, rnd.choice(self.SEEDS))
            if t.count(b"range") > 3:  # keep the output small: every range multiplies it
                continue
            args = ([] if rnd.randrange(3) else ["--allow-missing-template-keys=false"]) + ["--", t]
            with self.subTest(seed=seed, n=n):
                self.check(args, rnd.choice(docs))

    def test_random_columns(self):
        seed = int(os.environ.get("JSONPATH_FUZZ_SEED", "20261202"))
        rnd = random.Random(seed + 1)
        base = "NAME:.metadata.name,READY:{.status.ready},ADDR:status.addresses[*].address,X:..name"
        for n in range(int(os.environ.get("JSONPATH_FUZZ_RUNS", "600")) // 3):
            spec = self.mutate(rnd, base)
            with self.subTest(seed=seed, n=n):
                self.check(["--columns", spec] + (["--no-headers"] if n % 2 else []),
                           rnd.choice([ITEMS, NODES, [None, 1, "x", []], []]))


if __name__ == "__main__":
    unittest.main()
