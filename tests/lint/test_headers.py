"""The public headers: each compiles alone as C89, C99 and C++11 without a warning, and the superseded names
behave as daemonset(7) says (deprecated by default, quiet with DS_NO_DEPRECATION_WARNINGS, hidden with
DS_NO_DEPRECATED).

    python3 -m unittest tests/lint/test_headers.py      (make lint runs it)

CC and CXX name the compilers (default cc and c++).
SPDX-License-Identifier: Apache-2.0
"""

import os
import subprocess
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
INCLUDE = os.path.join(ROOT, "include")
CC = os.environ.get("CC", "cc")
CXX = os.environ.get("CXX", "c++")
WARN = ["-Wall", "-Wextra", "-Werror", "-pedantic"]
HEADERS = ["daemonset.h"] + sorted("daemonset/" + h for h in os.listdir(os.path.join(INCLUDE, "daemonset")))


class Headers(unittest.TestCase):
    def compile(self, source, lang, *flags):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "t." + ("cc" if lang == "c++" else "c"))
            with open(src, "w", encoding="utf-8") as f:
                f.write(source)
            cmd = [CXX if lang == "c++" else CC, "-fsyntax-only", "-I" + INCLUDE] + WARN + list(flags) + [src]
            res = subprocess.run(cmd, capture_output=True, text=True)
            return res.returncode, res.stderr

    def test_each_header_alone(self):
        for h in HEADERS:
            # jansson.h declares the entry point that takes a json_t: it needs jansson's header
            pre = "#include <jansson.h>\n" if h.endswith("jansson.h") else ""
            for lang, std in (("c", "-std=c89"), ("c", "-std=c99"), ("c++", "-std=c++11")):
                if pre and std == "-std=c89":
                    continue  # jansson's own header is C99 (inline functions)
                with self.subTest(header=h, std=std):
                    rc, err = self.compile(f'{pre}#include "{h}"\nint dsi_unused_{len(h)};\n', lang, std)
                    self.assertEqual(rc, 0, err)

    OLD_CALL = "#include <daemonset.h>\nint f(void);\nint f(void) { ds_options *o; return ds_options_new(&o); }\n"

    def test_superseded_name_warns_with_its_successor(self):
        rc, err = self.compile(self.OLD_CALL, "c", "-std=c11")
        self.assertNotEqual(rc, 0)
        self.assertIn("deprecated", err)
        self.assertIn("use ds_options_create", err)

    def test_names_superseded_by_a_2_warn(self):
        for old, args in (("ds_taints_find_untolerated", "0, 0, 0, 0, 0u, 0, 0, 0, 0"),
                          ("ds_pod_required_node_affinity_match", "0, 0, 0, 0, 0, 0"),
                          ("ds_podspec_add_daemon_tolerations", "0, 0, 0, 0"),
                          ("ds_affinity_replace_node_name", "0, 0, 0, 0, 0")):
            with self.subTest(name=old):
                call = f"#include <daemonset.h>\nint f(void);\nint f(void) {{ return {old}({args}); }}\n"
                rc, err = self.compile(call, "c", "-std=c11")
                self.assertNotEqual(rc, 0)
                self.assertIn(f"use {old}2", err)
                rc, err = self.compile("#define DS_NO_DEPRECATION_WARNINGS\n" + call, "c", "-std=c11")
                self.assertEqual(rc, 0, err)

    def test_superseded_name_quiet_on_request(self):
        rc, err = self.compile("#define DS_NO_DEPRECATION_WARNINGS\n" + self.OLD_CALL, "c", "-std=c11")
        self.assertEqual(rc, 0, err)

    def test_superseded_names_hidden_on_request(self):
        rc, err = self.compile("#define DS_NO_DEPRECATED\n" + self.OLD_CALL, "c", "-std=c11")
        self.assertNotEqual(rc, 0)
        self.assertIn("ds_options_new", err)
        self.assertNotIn("use ds_options_create", err)
        # the successors stay
        rc, err = self.compile("#define DS_NO_DEPRECATED\n#include <daemonset.h>\nint f(void);\n"
                               "int f(void) { ds_options *o; return ds_options_create(&o, 0); }\n", "c", "-std=c11")
        self.assertEqual(rc, 0, err)


if __name__ == "__main__":
    unittest.main()
