"""The daemonset package binds no C function that the headers declare
deprecated (DS_DEPRECATED("successor") in include/daemonset/*.h; "Superseded
names" under CONVENTIONS in daemonset(7)). ctypes sees no deprecation
attribute, so nothing else would warn when a module binds an old name.

Two checks, each of which can fail:
- the source of every module: a `lib.ds_NAME` / `_lib.ds_NAME` attribute, or a
  string literal that is exactly a function name (declare("ds_NAME", ...),
  getattr(lib, "ds_NAME"), a tuple of names looped over), in code: comments
  and docstrings may still name the old functions;
- the loaded library handle after importing every module in a fresh
  interpreter: ctypes caches each function it has looked up as an attribute
  of the CDLL, so a name bound at import by any means is there.
"""

import ast
import glob
import io
import os
import re
import subprocess
import sys
import textwrap
import tokenize
import unittest

import daemonset

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HEADERS = os.path.join(ROOT, "include", "daemonset")
PACKAGE = os.path.dirname(os.path.abspath(daemonset.__file__))

# DS_DEPRECATED("successor") then the rest of the declaration up to the function's name and "("
_DEPRECATED = re.compile(r'DS_DEPRECATED\("(\w+)"\)[^;(]*?\b(ds_\w+)\s*\(')
_NAME = re.compile(r"ds_\w+\Z")


def deprecated_names(headers=HEADERS):
    """{old name: successor} from the public headers."""
    found = {}
    for path in sorted(glob.glob(os.path.join(headers, "*.h"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in _DEPRECATED.finditer(text):
            found[m.group(2)] = m.group(1)
    return found


def bound_names(source):
    """(line, name) of each C function name the Python source binds: ds_NAME
    as an attribute (lib.ds_NAME), or a string literal that is exactly
    ds_NAME, outside docstrings (a string that is a whole statement)."""
    found = []
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)]
    for i, tok in enumerate(tokens):
        prev = tokens[i - 1] if i else None
        if tok.type == tokenize.NAME and tok.string.startswith("ds_") and prev is not None and prev.string == ".":
            found.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING:
            docstring = (prev is None or prev.type in (tokenize.NEWLINE, tokenize.ENCODING)
                         or prev.string == ":") and tokens[i + 1].type == tokenize.NEWLINE
            if docstring:
                continue
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):  # an f-string
                continue
            if isinstance(value, (str, bytes)):
                text = value.decode("ascii", "replace") if isinstance(value, bytes) else value
                if _NAME.match(text):
                    found.append((tok.start[0], text))
    return found


class HeaderParseTest(unittest.TestCase):
    def test_the_headers_give_the_superseded_names(self):
        dep = deprecated_names()
        # daemonset(7) lists 24 names superseded in 1.1, 5 accessors and 4 upstream functions in 1.2,
        # and the two reply functions
        self.assertGreaterEqual(len(dep), 35, sorted(dep))
        for old, new in [("ds_options_new", "ds_options_create"), ("ds_plan_get_status", "ds_plan_status"),
                         ("ds_should_run_json", "ds_daemonset_should_run"),
                         ("ds_cluster_node_at", "ds_cluster_node_name_at"),
                         ("ds_lease_is_leader", "ds_lease_leading")]:
            self.assertEqual(dep.get(old), new, old)
        # each successor is declared without DS_DEPRECATED
        text = ""
        for path in glob.glob(os.path.join(HEADERS, "*.h")):
            with open(path, encoding="utf-8") as f:
                text += f.read()
        for new in set(dep.values()):
            self.assertRegex(text, r"DS_EXTERN [^;]*\b%s\s*\(" % new)
            self.assertNotIn(new, dep, "successor %s is deprecated itself" % new)


class ScannerTest(unittest.TestCase):
    """The source scanner finds what it must and nothing else."""

    def test_it_finds_a_binding_in_each_form(self):
        src = textwrap.dedent('''\
            """Module (ds_options_new(3))."""
            lib.ds_options_new.argtypes = []  # ds_fit in a comment
            _audit = declare("ds_audit", TEXT)
            fn = getattr(_lib, 'ds_fit', None)
            for _name in ("ds_label_key_validate",
                          "ds_selector_string"):
                pass
            def f():
                """Calls ds_drain(3) through "ds_cordon"."""
                return call(lib.ds_explain, "ds_drain is a word here")
            ''')
        self.assertEqual(bound_names(src), [
            (2, "ds_options_new"), (3, "ds_audit"), (4, "ds_fit"), (5, "ds_label_key_validate"),
            (6, "ds_selector_string"), (10, "ds_explain")])


class PackageTest(unittest.TestCase):
    maxDiff = None

    def test_no_module_binds_a_deprecated_name(self):
        dep = deprecated_names()
        modules = sorted(glob.glob(os.path.join(PACKAGE, "*.py")))
        self.assertGreater(len(modules), 10, PACKAGE)
        bad, bound = [], set()
        for path in modules:
            with open(path, encoding="utf-8") as f:
                for line, name in bound_names(f.read()):
                    bound.add(name)
                    if name in dep:
                        bad.append("%s:%d binds %s; use %s" % (os.path.basename(path), line, name, dep[name]))
        self.assertEqual(bad, [])
        # the scan saw the package's bindings (the successors among them)
        self.assertTrue({"ds_options_create", "ds_daemonset_plan", "ds_plan_create_at", "ds_selector_match",
                         "ds_lease_try_acquire_or_renew", "ds_object_audit"} <= bound, sorted(bound))

    def test_importing_the_package_looks_up_no_deprecated_name(self):
        code = textwrap.dedent("""\
            import importlib, pkgutil, daemonset
            from daemonset import _native
            for info in pkgutil.iter_modules(daemonset.__path__):
                importlib.import_module("daemonset." + info.name)
            print("\\n".join(sorted(k for k in vars(_native.lib) if k.startswith("ds_"))))
            """)
        env = dict(os.environ, PYTHONPATH=os.path.dirname(PACKAGE))
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        looked_up = set(r.stdout.split())
        self.assertIn("ds_free", looked_up)  # the check sees the lookups
        self.assertEqual(sorted(looked_up & set(deprecated_names())), [])


if __name__ == "__main__":
    unittest.main()
