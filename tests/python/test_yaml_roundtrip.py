"""dsctl -o yaml reads back as the same JSON (examples/dsctl/yamlout.c through lib/core/yaml.c).

A property test: thousands of generated JSON documents (YAML 1.1 specials in every case form go-yaml
checks, numbers in every base, sexagesimal and timestamp look-alikes, indicators, control characters,
NEL/LS/PS, unicode, long and multi-line strings, keys that need quoting, nested arrays and objects)
are written by tests/support/yamlecho, which is dsctl's emitter, and read back with the library's
ds_objects_parse(3); every value must come back exactly (an integral JSON real may come back as the
integer: Kubernetes reads it so). Then the styles and the key order kubectl -o yaml uses, case by
case, and every dsctl command's -o yaml against its -o json.

yamlecho is found through $YAMLECHO, then tests/support/yamlecho under the build directory that
$DAEMONSET_LIB points into, then build/; dsctl as in test_dsctl.py.
"""

import ctypes
import itertools
import json
import os
import random
import re
import subprocess
import unittest

import buildpaths

ROOT = buildpaths.ROOT
CLUSTER = os.path.join(ROOT, "examples", "cluster")
NOW = "2026-12-02T15:00:00Z"


def _library():
    return os.environ.get("DAEMONSET_LIB") or os.path.join(buildpaths.build_dir(), "lib", "libdaemonset.so.1")


YAMLECHO = buildpaths.program("YAMLECHO", "tests", "support", "yamlecho")
DSCTL = buildpaths.program("DSCTL", "bin", "dsctl")

_lib = None


def setUpModule():
    global _lib
    if not os.access(YAMLECHO, os.X_OK):
        if os.environ.get("YAMLECHO"):
            raise RuntimeError("YAMLECHO=%s is not a program" % YAMLECHO)
        raise unittest.SkipTest("tests/support/yamlecho is not built (make tests builds it): %s" % YAMLECHO)
    _lib = ctypes.CDLL(_library())
    _lib.ds_objects_parse.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                                      ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
    _lib.ds_objects_parse.restype = ctypes.c_int
    _lib.ds_free.argtypes = [ctypes.c_void_p]


class ParseError(Exception):
    pass


def parse_yaml(text):
    """ds_objects_parse(3): the documents of a YAML stream as a list of objects."""
    data = text.encode("utf-8")
    out = ctypes.c_void_p()
    err = ctypes.create_string_buffer(16 + 128 + 256 + 320)  # ds_error
    if _lib.ds_objects_parse(data, len(data), None, ctypes.byref(out), err) < 0:
        raw = err.raw
        line, column = int.from_bytes(raw[4:8], "little"), int.from_bytes(raw[8:12], "little")
        message = raw[16 + 128 + 256:].split(b"\0")[0].decode("utf-8", "replace")
        raise ParseError("line %d, column %d: %s" % (line, column, message))
    try:
        return json.loads(ctypes.string_at(out.value).decode("utf-8"))
    finally:
        _lib.ds_free(out)


def yamlecho(values):
    """Each value written by dsctl's emitter; the documents separated by "---" lines."""
    lines = "".join(json.dumps(v, ensure_ascii=True) + "\n" for v in values)
    p = subprocess.run([YAMLECHO], input=lines.encode(), capture_output=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError("yamlecho failed: %s" % p.stderr.decode())
    return p.stdout.decode("utf-8")


def difference(want, got, path="$"):
    """None when got is want as JSON, else where they differ. Booleans, null, strings, arrays and
    objects must match in type and value; an integral real may come back as that integer."""
    if isinstance(want, bool) or want is None or isinstance(got, bool) or got is None:
        return None if type(want) is type(got) and want == got else "%s: %r != %r" % (path, want, got)
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        if isinstance(want, int) and not isinstance(got, int):
            return "%s: integer %r came back as %r" % (path, want, got)
        if isinstance(want, float) and isinstance(got, int) and not want.is_integer():
            return "%s: %r came back as integer %r" % (path, want, got)
        return None if want == got else "%s: %r != %r" % (path, want, got)
    if type(want) is not type(got):
        return "%s: %r != %r" % (path, want, got)
    if isinstance(want, list):
        if len(want) != len(got):
            return "%s: %d items != %d" % (path, len(want), len(got))
        for i, (a, b) in enumerate(zip(want, got)):
            d = difference(a, b, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if isinstance(want, dict):
        if set(want) != set(got):
            return "%s: keys %r != %r" % (path, sorted(want), sorted(got))
        for k in want:
            d = difference(want[k], got[k], "%s[%r]" % (path, k))
            if d:
                return d
        return None
    return None if want == got else "%s: %r != %r" % (path, want, got)


# ---- generated inputs --------------------------------------------------------------------------

def case_forms(word):
    """Every upper/lower-case spelling of word (go-yaml checks three of them; the rest are strings)."""
    pools = [(c.lower(), c.upper()) if c.isalpha() else (c,) for c in word]
    return sorted({"".join(p) for p in itertools.product(*pools)})


SPECIALS = (
    [f for w in ["y", "n", "yes", "no", "on", "off", "true", "false", "null", ".inf", "+.inf", "-.inf", ".nan"]
     for f in case_forms(w)]
    + ["", "~", "<<", "=", "<<<", "==", "!", "&", "*", "|", ">", "'", '"', "%", "@", "`", "#", ",", "[", "]",
       "{", "}", "?", ":", "-", "--", "---", "...", "- ", "? ", ": ", "-a", "?a", ":a", "a:", "a: b", "a:b",
       "a #b", "a#b", "#a", "a,b", "[a]", "{a: b}", "&anchor", "*alias", "!tag", "!!str", "%TAG", "@x", "`x",
       "'quoted'", '"quoted"', "a'b", 'a"b', "\\", "a\\nb", "-- -", "- - -", "--- x", "... x", "a: ", " :",
       "foo:", "foo: ", "x\r", "\r", "\r\n", "\n", "\n\n", "\t", "a\tb", "\ta", "a\t", " ", "  ", " a", "a ",
       "\u0085", "a\u0085b", "\u2028", "a\u2028b", "\u2029", "a\u2029b", "a\u2028 b", "a \u2029b", "\ufeff",
       "\ufeffa", "\ufffe", "\uffff", "\x7f", "\x1b[31m", "\x01", "\x08", "\x0b", "\x0c", "\x80", "\x9f",
       "\u00a0", "a\u00a0", "\u200b", "e\u0301", "\u05d0\u05d1", "\u4f60\u597d", "\U0001F600", "\U0010FFFF",
       "12:30", "12:30:45", "190:20:30.15", "1:2", "1:60", "1:5_0", "-1:30", "+1:30", "0:0:0", "1:2:3.",
       "1_0:30", "12:30:", "12::30", "1:234", "a12:30",
       "0", "-0", "+0", "00", "007", "0777", "08", "0.", ".0", "0.5", "-0.5", "+.5", ".5", "5.", "1.", ".",
       "..", "1e3", "1E3", "1e+3", "1e-3", "1e", "e3", "1e3.5", "1.5e-7", ".5e3", "._5", ".5_0", "._", "1_000",
       "1__000", "_1", "1_", "+1_0", "0x1F", "0X1f", "0x", "0x_1", "-0x10", "+0x10", "0xg", "0b101", "0B11",
       "0b2", "-0b1", "0o17", "0O17", "0o8", "1e400", "-1e400", "1e309", "1e308", "4.9e-324", "2e-400",
       "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
       "18446744073709551615", "18446744073709551616", "0xFFFFFFFFFFFFFFFF", "0x10000000000000000",
       "0x8000000000000000", "-0x8000000000000000", "-0x8000000000000001", "1,000", "1 000", "1.2.3", "v1",
       "1a", "inf", "nan", "Infinity", "+inf", "-", "+", "+-1", "--1", "0.0.0.0", "10.0.0.1/8",
       "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-14T21:59:43Z", "2002-12-14",
       "2002-1-2", "2024-02-29", "2023-02-29", "2024-02-30", "2024-13-01", "2024-00-10", "2024-1-32",
       "2024-01-02T24:00:00Z", "2024-01-02T23:59:59Z", "2024-01-02T23:60:00Z", "2024-01-02T1:2:3Z",
       "2024-01-02T01:02:03+25:00", "2024-01-02T01:02:03+24:00", "2024-01-02T01:02:03,5Z",
       "2024-01-02 01:02:03", "2024-01-02   1:2:3.123456789", "2024-01-02  ", "2024-01-02x", "20240102",
       "02024-01-02", "2024-01-02T01:02:03", "2024-01-02t01:02:03.000z",
       "true ", " true", "null ", "yes\n", "~~", "Yes!", "ON.", "y:", "n/a", "N/A",
       "a: b\nc: d", "- a\n- b", "key: |\n  x", "#!/bin/sh\necho hi\n", "a\n\n\nb", " a\nb", "a \nb", "a\n b",
       "a\n", "a\n\n", "a\n\n\n", "\na", "\n\na", "\n a", "  x\n y\n", "a\r\nb\r\n", "a\n\tb\n", "a\n\x01",
       "---\n", "...\n", "a\n---\nb", "a\n...\nb", "a\n#b", "a\n- b", "\u2028\n", "a\n\u0085b",
       "x" * 80, "x" * 200, "x " * 60, "word " * 30, " " * 100, "a" * 129, "a " * 64 + "b",
       "very long text with: colons and # hashes " * 4, "'" * 50, '"' * 50, "\\" * 20, "\n" * 10,
       "name: value # comment", "a" * 200 + "\n" + "b" * 200])

ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyz",
    "ABCXYZ0123456789",
    " ",
    "  \t",
    "-?:,[]{}#&*!|>'\"%@`",
    "./_+=~<>\\^$();",
    "0123456789._-+:eExXoObB",
    "\n",
    "\r\x00\x01\x07\x08\x0b\x0c\x1b\x1f\x7f\x80\x85\x9f",
    "\u00a0\u00e9\u00fc\u0301\u05d0\u0627\u4f60\u597d\u3042\u200b\u200d\u2028\u2029\ufeff\ufffd\ufffe\uffff",
    "\U0001F600\U0001F680\U00010000\U0010FFFD",
]


def random_string(rng):
    kind = rng.random()
    if kind < 0.2:
        return rng.choice(SPECIALS)
    if kind < 0.3:  # a special with something around it
        s = rng.choice(SPECIALS)
        a, b = random_string(rng) if rng.random() < 0.3 else "", rng.choice(["", " ", "x", ":", "#", "\n", "0"])
        return rng.choice([a + s, s + b, a + s + b])
    if kind < 0.4:  # number-like text
        parts = [rng.choice(["", "+", "-"]), rng.choice(["", "0", "0x", "0o", "0b", "."]),
                 "".join(rng.choice("0123456789_abcdefABCDEF") for _ in range(rng.randint(0, 12))),
                 rng.choice(["", ".", ".5", "e5", "e-5", "E+05", ":30", ":5:07", "_"])]
        return "".join(parts)
    if kind < 0.45:  # a date or time look-alike
        return "%04d-%d-%d%s" % (rng.randint(0, 9999), rng.randint(0, 14), rng.randint(0, 33),
                                 rng.choice(["", "T%d:%d:%d%s" % (rng.randint(0, 25), rng.randint(0, 61),
                                                                   rng.randint(0, 61), rng.choice(
                                                                       ["", "Z", "+01:00", "-24:00", "z"])),
                                             " %d:%d:%d" % (rng.randint(0, 23), rng.randint(0, 59),
                                                            rng.randint(0, 59)),
                                             ".5", "x"]))
    if kind < 0.6:  # multi-line
        lines = [random_string(rng).replace("\n", "") for _ in range(rng.randint(1, 5))]
        lines = [(" " * rng.choice([0, 0, 1, 2, 4]) + l + " " * rng.choice([0, 0, 0, 1])) for l in lines]
        return "\n".join(lines) + "\n" * rng.choice([0, 0, 1, 1, 2, 3])
    if kind < 0.65:  # long, with spaces where a line may be folded
        words = ["".join(rng.choice(rng.choice(ALPHABETS[:7])) for _ in range(rng.randint(1, 12)))
                 for _ in range(rng.randint(10, 60))]
        return rng.choice([" ", "  ", ": ", " #"]).join(words) if rng.random() < 0.2 else " ".join(words)
    n = rng.choice([1, 1, 2, 3, 5, 8, 13, 30])
    return "".join(rng.choice(rng.choice(ALPHABETS)) for _ in range(n))


def random_number(rng):
    k = rng.random()
    if k < 0.3:
        return rng.choice([0, 1, -1, 7, 10, 255, 2 ** 31, -2 ** 31, 2 ** 53 + 1, 2 ** 63 - 1, -2 ** 63,
                           rng.randint(-2 ** 63, 2 ** 63 - 1), rng.randint(-1000, 1000)])
    if k < 0.5:
        return rng.choice([0.0, -0.0, 0.5, 0.1, -0.1, 1.0, 3.0, 25.0, 1e21, 1e20, 1e-7, 1e-6, 1.5e-7, 123456.7,
                           1234567.5, 9007199254740993.0, 2.0 ** 63, 2.0 ** 64, 1.7976931348623157e308,
                           5e-324, 2.2250738585072014e-308, 100.0, 1e6, 1e16, -1e19])
    if k < 0.8:
        return rng.choice([-1, 1]) * 10 ** rng.uniform(-320, 308)
    if k < 0.9:
        return float(rng.randint(-10 ** 6, 10 ** 6))
    return rng.uniform(-1e6, 1e6)


def random_value(rng, depth=0):
    k = rng.random()
    if depth < 4 and k < 0.15:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if depth < 4 and k < 0.3:
        return {random_string(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    if k < 0.7:
        return random_string(rng)
    if k < 0.85:
        return random_number(rng)
    return rng.choice([True, False, None])


def without_nul(v):
    """The library's reader refuses NUL in strings (tested on its own below); the generator avoids it."""
    if isinstance(v, str):
        return v.replace("\x00", "\\0")
    if isinstance(v, list):
        return [without_nul(x) for x in v]
    if isinstance(v, dict):
        return {without_nul(k): without_nul(x) for k, x in v.items()}
    return v


class TestRoundTrip(unittest.TestCase):
    def check_batch(self, docs):
        """Write docs (objects) as one YAML stream, read it back, compare; on a failure, find the document."""
        text = yamlecho(docs)
        try:
            got = parse_yaml(text)
        except ParseError as e:
            for d in docs:
                one = yamlecho([d])
                try:
                    parse_yaml(one)
                except ParseError as e1:
                    self.fail("does not read back: %s\nJSON: %s\nYAML:\n%s" % (e1, json.dumps(d), one))
            self.fail("the stream does not read back (%s), each document does" % e)
        self.assertEqual(len(got), len(docs), "documents lost")
        for d, g in zip(docs, got):
            diff = difference(d, g)
            if diff:
                self.fail("%s\nJSON: %s\nYAML:\n%s" % (diff, json.dumps(d), yamlecho([d])))

    def test_every_special_as_key_and_value(self):
        docs = [{"v": s, "k": {s: [s]}} for s in without_nul(SPECIALS)]
        self.check_batch(docs)

    def test_generated_strings(self):
        rng = random.Random(20261202)
        strings = set()
        while len(strings) < 6000:
            strings.add(without_nul(random_string(rng)))
        strings = sorted(strings)
        docs = [{"v": strings[i], "k": {strings[i]: strings[-1 - i]}, "a": [strings[i], strings[(i * 7) % len(strings)]]}
                for i in range(len(strings))]
        for i in range(0, len(docs), 500):
            self.check_batch(docs[i:i + 500])

    def test_generated_documents(self):
        rng = random.Random(22)
        docs = [without_nul({"v": random_value(rng), random_string(rng): random_value(rng)}) for _ in range(2000)]
        for i in range(0, len(docs), 250):
            self.check_batch(docs[i:i + 250])

    def test_numbers(self):
        rng = random.Random(7)
        nums = [random_number(rng) for _ in range(3000)]
        self.check_batch([{"v": n} for n in nums])

    def test_deep_nesting_and_empty_containers(self):
        v = "leaf"
        for i in range(60):
            v = [v, {}] if i % 2 else {"k%d" % i: v, "e": []}
        self.check_batch([{"v": v}, {"v": [[], {}, [[]], [{}], {"a": {}}, {"b": []}]}, {}])

    def test_nul_is_refused_by_the_reader_not_by_the_writer(self):
        text = yamlecho([{"v": "a\x00b"}])
        self.assertEqual(text, 'v: "a\\0b"\n')
        with self.assertRaisesRegex(ParseError, "NUL characters"):
            parse_yaml(text)


class TestKubectlStyle(unittest.TestCase):
    """The text kubectl -o yaml (go-yaml v2.4.0) prints, case by case; the three documented
    differences ("<<", "=", LS and PS) at the end."""

    CASES = [
        ({"v": "hi"}, "v: hi\n"),
        ({"v": "true"}, 'v: "true"\n'),
        ({"v": "off"}, 'v: "off"\n'),
        ({"v": "Yes"}, 'v: "Yes"\n'),
        ({"v": "yEs"}, "v: yEs\n"),  # not a form go-yaml checks
        ({"v": "10"}, 'v: "10"\n'),
        ({"v": ""}, 'v: ""\n'),
        ({"v": "~"}, 'v: "~"\n'),
        ({"v": ".inf"}, 'v: ".inf"\n'),
        ({"v": ".NaN"}, 'v: ".NaN"\n'),
        ({"v": "0755"}, 'v: "0755"\n'),
        ({"v": "0x1F"}, 'v: "0x1F"\n'),
        ({"v": "1_000"}, 'v: "1_000"\n'),
        ({"v": "1e3"}, 'v: "1e3"\n'),
        ({"v": "1e400"}, "v: 1e400\n"),  # ParseFloat overflows: a string
        ({"v": "1:1"}, 'v: "1:1"\n'),
        ({"v": "12:30"}, 'v: "12:30"\n'),
        ({"v": "2015-02-24T18:19:39Z"}, 'v: "2015-02-24T18:19:39Z"\n'),
        ({"v": "2024-02-30"}, "v: 2024-02-30\n"),  # not a date to time.Parse
        ({"v": "1.2.3"}, "v: 1.2.3\n"),
        ({"v": "-"}, "v: '-'\n"),
        ({"v": "b: c"}, "v: 'b: c'\n"),
        ({"v": "foo:"}, "v: 'foo:'\n"),
        ({"v": "Hello #comment"}, "v: 'Hello #comment'\n"),
        ({"v": "<foo>"}, "v: <foo>\n"),
        ({"v": "*"}, "v: '*'\n"),
        ({"v": "it's: x"}, "v: 'it''s: x'\n"),
        ({"v": " lead"}, "v: ' lead'\n"),
        ({"v": "\u4f60\u597d"}, "v: \u4f60\u597d\n"),
        ({"v": "x\r"}, 'v: "x\\r"\n'),
        ({"v": "a\tb"}, 'v: "a\\tb"\n'),
        ({"v": "\x00"}, 'v: "\\0"\n'),
        ({"v": "\u0085"}, 'v: "\\N"\n'),
        ({"v": "\U0001F600"}, 'v: "\\U0001F600"\n'),
        ({"v": "B\nC"}, "v: |-\n  B\n  C\n"),
        ({"v": "B\nC\n"}, "v: |\n  B\n  C\n"),
        ({"v": "B\n\n"}, "v: |+\n  B\n\n"),
        ({"v": " B\nC"}, "v: |2-\n   B\n  C\n"),
        ({"v": "a \nb"}, 'v: "a \\nb"\n'),
        ({"a\nb": 1}, "? |-\n  a\n  b\n: 1\n"),  # not a simple key: a complex one
        ({"v": ["A", "B\nC"]}, "v:\n- A\n- |-\n  B\n  C\n"),
        ({"a": {"b": [{"c": 1, "d": 2}]}}, "a:\n  b:\n  - c: 1\n    d: 2\n"),
        ({"y": 1, "n": 2, "true": 3}, '"n": 2\n"true": 3\n"y": 1\n'),
        ({"v": [], "w": {}}, "v: []\nw: {}\n"),
        # keys in go-yaml's order (kubectl sorts every object so): digit runs by value, letters last
        ({"worker-10": 1, "worker-2": 2, "b": 3, "a10": 4, "a9": 5, "a01": 6, "a1": 7, "B": 8, "_x": 9},
         "_x: 9\nB: 8\na1: 7\na01: 6\na9: 5\na10: 4\nb: 3\nworker-2: 2\nworker-10: 1\n"),
        ({"v": None, "t": True, "f": False}, "f: false\nt: true\nv: null\n"),
        ({"v": 0.1, "w": -0.1, "x": 1.0, "y": 1e21, "z": 1.5e-07}, "v: 0.1\nw: -0.1\nx: 1\n\"y\": 1e+21\nz: 1.5e-07\n"),
        ({"v": 123456789.5, "w": 123456.5, "x": 1e19}, "v: 1.234567895e+08\nw: 123456.5\nx: 10000000000000000000\n"),
        # folded after column 80: kubernetes-sigs/yaml#62 and kubernetes/kubernetes#32335 show these
        ({"t": "this is very long line with spaces and it must be longer than 80 so we will repeat that it "
               "must be longer that 80"},
         "t: this is very long line with spaces and it must be longer than 80 so we will repeat\n"
         "  that it must be longer that 80\n"),
        ({"metadata": {"annotations": {"kubernetes.io/limit-ranger":
                                       "LimitRanger plugin set: cpu request for container hostnames"}}},
         "metadata:\n  annotations:\n    kubernetes.io/limit-ranger: 'LimitRanger plugin set: cpu request for "
         "container\n      hostnames'\n"),
        # the three differences from go-yaml, for other readers
        ({"<<": "<<"}, '"<<": "<<"\n'),
        ({"v": "="}, 'v: "="\n'),
        ({"v": "a\u2028b\u2029"}, 'v: "a\\Lb\\P"\n'),
    ]

    def test_cases(self):
        for value, want in self.CASES:
            with self.subTest(value=value):
                self.assertEqual(yamlecho([value]), want)
                if "\\u0000" not in json.dumps(value):
                    self.assertIsNone(difference(value, parse_yaml(want)[0]))

    def test_documents_separated(self):
        # a |+ scalar at a document's end: no "..." (as go-yaml), the next document starts at "---"
        self.assertEqual(yamlecho([{"v": "a\n\n"}, {"w": 1}]), "v: |+\n  a\n\n---\nw: 1\n")


def dsctl(*args):
    argv = [DSCTL, "--color=never", "--now", NOW, "-f", CLUSTER] + list(args)
    p = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout, p.stderr


class TestDsctlOutputs(unittest.TestCase):
    """Every command's -o yaml reads back as its -o json."""

    COMMANDS = [
        ["get"], ["explain", "fluentd-logging"], ["explain", "fluentd-logging", "gpu-1"],
        ["plan", "fluentd-logging"], ["status", "fluentd-logging"], ["pod", "fluentd-logging", "worker-4"],
        ["history", "fluentd-logging"], ["rollback", "fluentd-logging"], ["audit"], ["rollout", "fluentd-logging"],
        ["rollout", "node-exporter"], ["--set", "simFailNodes=worker-4", "rollout", "fluentd-logging"],
        ["fit", os.path.join(CLUSTER, "pods.yaml"), "worker-1"], ["cordon", "worker-1"],
        ["uncordon", "worker-3"], ["drain", "worker-1"], ["drain", "worker-1", "--ignore-daemonsets"],
        ["upgrade"], ["version"], ["defaults", os.path.join(CLUSTER, "daemonsets.yaml")],
        ["validate", os.path.join(CLUSTER, "daemonsets.yaml")],
    ]

    @classmethod
    def setUpClass(cls):
        if not os.access(DSCTL, os.X_OK):
            raise unittest.SkipTest("dsctl is not built: %s" % DSCTL)

    def test_yaml_reads_back_as_json(self):
        for args in self.COMMANDS:
            with self.subTest(args=args):
                rc_j, out_j, err_j = dsctl("-o", "json", *args)
                rc_y, out_y, err_y = dsctl("-o", "yaml", *args)
                self.assertEqual(rc_j, rc_y, (err_j, err_y))
                self.assertTrue(out_y, err_y)
                want = json.loads(out_j)
                if isinstance(want, dict) and want.get("kind") == "List":  # defaults: one document each
                    want = want["items"]
                    got = parse_yaml(out_y)
                elif isinstance(want, dict):
                    got = parse_yaml(out_y)
                    self.assertEqual(len(got), 1)
                    got = got[0]
                else:  # a sequence: under a key, as ds_objects_parse(3) takes objects
                    got = parse_yaml("v:\n" + re.sub(r"(?m)^(?=.)", "  ", out_y))[0]["v"]
                self.assertIsNone(difference(want, got))

    def test_readme_tour_pod(self):
        """The README shows `dsctl pod` as it prints (its YAML is what kubectl would print)."""
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        m = re.search(r"\$ dsctl -f examples/cluster pod fluentd-logging worker-4\n(.*?)```", readme, re.S)
        self.assertIsNotNone(m, "the tour's dsctl pod block is gone from README.md")
        rc, out, err = dsctl("pod", "fluentd-logging", "worker-4")
        self.assertEqual((rc, out), (0, m.group(1)), err)


if __name__ == "__main__":
    unittest.main()
