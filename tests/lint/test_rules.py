"""tests/lint/rules.py against planted violations: each rule of lib/README.md, broken once in a scratch copy of
the tree, must make its check fail with a finding that names it; the untouched copy must pass.

    python3 -m unittest tests/lint/test_rules.py      (make lint runs it; the library must be built)

RULES_OBJS names the object directory of lib/ (default build/obj/lib), CC the compiler for planted objects.
SPDX-License-Identifier: Apache-2.0
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OBJS = os.path.abspath(os.environ.get("RULES_OBJS", os.path.join(ROOT, "build", "obj", "lib")))
CC = os.environ.get("CC", "cc")


class PlantedViolations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rules.")
        self.root = os.path.join(self.tmp, "tree")
        os.makedirs(self.root)
        for d in ("lib", "include"):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(self.root, d))
        shutil.copy(os.path.join(ROOT, ".clang-format"), self.root)
        # the objects of the real build, linked; planted objects are added beside them
        self.objs = os.path.join(self.tmp, "obj")
        for layer in os.listdir(OBJS):
            src = os.path.join(OBJS, layer)
            if not os.path.isdir(src):
                continue
            os.makedirs(os.path.join(self.objs, layer))
            for o in os.listdir(src):
                if o.endswith(".o"):
                    os.symlink(os.path.join(src, o), os.path.join(self.objs, layer, o))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def rules(self, *checks):
        res = subprocess.run([sys.executable, os.path.join(HERE, "rules.py"), "--root", self.root, "--objs",
                              self.objs] + list(checks), capture_output=True, text=True)
        return res.returncode, res.stdout + res.stderr

    def edit_map(self, add):
        """Add lines to the newest version node of the linker script."""
        path = os.path.join(self.root, "lib/api/libdaemonset.map")
        with open(path, encoding="utf-8") as f:
            head, sep, tail = f.read().rpartition("DAEMONSET_1.2 {")
        with open(path, "w", encoding="utf-8") as f:
            f.write(head + sep + "\n\tglobal:\n\t\t" + add + tail)

    def append(self, rel, text):
        with open(os.path.join(self.root, rel), "a", encoding="utf-8") as f:
            f.write(text)

    def plant_object(self, layer, name, source):
        """A new lib/LAYER/NAME.c, compiled into the scratch object directory."""
        src = os.path.join(self.root, "lib", layer, name + ".c")
        with open(src, "w", encoding="utf-8") as f:
            f.write(source)
        obj = os.path.join(self.objs, layer, name + ".o")
        subprocess.run([CC, "-std=c11", "-c", "-I" + os.path.join(self.root, "include"), "-I" +
                        os.path.join(self.root, "lib"), src, "-o", obj], check=True)

    def assertFails(self, check, *needles):
        rc, out = self.rules(check)
        self.assertEqual(rc, 1, out)
        for n in needles:
            self.assertIn(n, out)

    def test_clean_tree_passes(self):
        rc, out = self.rules("all")
        self.assertEqual(rc, 0, out)

    def test_upward_quoted_include(self):
        self.append("lib/core/sort.c", '#include "api/lookup.h"\n')
        self.assertFails("includes", "lib/core/sort.c:", "core includes api/lookup.h")

    def test_upward_angled_include(self):
        self.append("lib/model/pod.c", "#include <daemon/syncplan.h>\n")
        self.assertFails("includes", "lib/model/pod.c:", "model includes daemon/syncplan.h")

    def test_upward_relative_include(self):
        self.append("lib/sched/fit.h", '#include "../ops/drain.h"\n')
        self.assertFails("includes", "lib/sched/fit.h:", "sched includes ../ops/drain.h, a header of ops")

    def test_public_header_below_api(self):
        self.append("lib/daemon/status.c", '#include "daemonset/plan.h"\n')
        self.assertFails("includes", "daemon includes the public header daemonset/plan.h")

    def test_umbrella_header_below_api(self):
        self.append("lib/ops/cordon.c", "#include <daemonset.h>\n")
        self.assertFails("includes", "ops includes the public header daemonset.h")

    def test_controller_header_only_in_controller(self):
        self.append("lib/ops/drain.c", '#include "daemonset/controller.h"\n')
        self.assertFails("includes", "ops includes the public header daemonset/controller.h")

    def test_include_without_folder(self):
        self.append("lib/model/pod.c", '#include "pod.h"\n')
        self.assertFails("includes", 'includes "pod.h"')

    def test_duplicate_c_name(self):
        shutil.copy(os.path.join(self.root, "lib/model/pod.c"), os.path.join(self.root, "lib/ops/pod.c"))
        self.assertFails("names", "lib/ops/pod.c: shares its name with lib/model/pod.c")

    def test_public_definition_outside_api(self):
        self.plant_object("core", "planted", "void ds_planted(void);\nvoid ds_planted(void) {}\n")
        self.assertFails("symbols", "core defines ds_planted")

    def test_static_public_name_outside_api(self):
        self.plant_object("model", "planted",
                          "static int ds_row(int x) { return x + 1; }\nint dsi_planted(int x);\n"
                          "int dsi_planted(int x) { return ds_row(x); }\n")
        self.assertFails("symbols", "model defines ds_row")

    def test_call_into_public_api_from_below(self):
        self.plant_object("controller", "planted",
                          '#include "daemonset/common.h"\nint dsi_planted(char *b);\n'
                          "int dsi_planted(char *b) { return ds_time_format(0, b, 32); }\n")
        self.assertFails("symbols", "controller refers to ds_time_format, defined in", "(api, above it)")

    def test_internal_call_up(self):
        self.plant_object("sched", "planted", "int dsi_claim_pods(void);\nint dsi_planted(void);\n"
                          "int dsi_planted(void) { return dsi_claim_pods(); }\n")
        self.assertFails("symbols", "sched refers to dsi_claim_pods", "(controller, above it)")

    def test_global_without_prefix(self):
        self.plant_object("pss", "planted", "int helper(void);\nint helper(void) { return 1; }\n")
        self.assertFails("symbols", "the global symbol helper is neither")

    def test_clock_in_pure_layer(self):
        self.plant_object("daemon", "planted", "#include <time.h>\nlong dsi_planted(void);\n"
                          "long dsi_planted(void) { return (long)time(NULL); }\n")
        self.assertFails("pure", "daemon calls time: the pure layers read no clock")

    def test_file_read_in_pure_layer(self):
        self.plant_object("sched", "planted", "#include <stdio.h>\nint dsi_planted(const char *p);\n"
                          "int dsi_planted(const char *p) { FILE *f = fopen(p, \"r\"); return f != NULL; }\n")
        self.assertFails("pure", "sched calls fopen: of the pure layers only core/files.c reads files")

    def test_global_mutable_state(self):
        self.plant_object("api", "planted", "int dsi_planted(void);\n"
                          "int dsi_planted(void) { static int calls; return ++calls; }\n")
        self.assertFails("pure", "calls.", "is writable static data (.bss)")

    def test_map_name_without_declaration(self):
        self.edit_map("ds_planted;")
        self.assertFails("exports", "exports ds_planted, which no header under include/ declares")

    def test_declaration_without_map_name(self):
        self.append("include/daemonset/values.h", "DS_EXTERN int ds_planted(const char *text, size_t size);\n")
        self.assertFails("exports", "declares ds_planted, which no version node")

    def test_wildcard_in_map(self):
        self.edit_map("ds_*;")
        self.assertFails("exports", "lists 'ds_*'")

    def edit(self, rel, old, new):
        path = os.path.join(self.root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count(old), 1, old)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))

    def test_successor_with_2_without_deprecation(self):
        # the predecessor of a "2" successor declared as a current function
        self.edit("include/daemonset/upstream.h", 'DS_EXTERN DS_DEPRECATED("ds_affinity_replace_node_name2") int',
                  "DS_EXTERN int")
        self.assertFails("exports", "ds_affinity_replace_node_name has the successor ds_affinity_replace_node_name2 "
                         "but is not declared")

    def test_deprecated_for_another_name(self):
        self.edit("include/daemonset/upstream.h", 'DS_DEPRECATED("ds_podspec_add_daemon_tolerations2")',
                  'DS_DEPRECATED("ds_podspec_add_daemon_tolerations3")')
        self.assertFails("exports", "ds_podspec_add_daemon_tolerations is deprecated for "
                         "ds_podspec_add_daemon_tolerations3, which is not a current function",
                         "ds_podspec_add_daemon_tolerations has the successor ds_podspec_add_daemon_tolerations2")

    def test_deprecated_outside_the_hiding_block(self):
        self.append("include/daemonset/values.h", 'DS_EXTERN DS_DEPRECATED("ds_selector_match") int '
                    "ds_planted(const char *text, size_t size);\n")
        self.edit_map("ds_planted;")
        self.assertFails("exports", "ds_planted is deprecated outside #ifndef DS_NO_DEPRECATED")

    def test_formatting_deviation(self):
        self.append("lib/core/sort.c", "int  dsi_planted( int x ){return x;}\n")
        self.assertFails("format", "lib/core/sort.c: differs from .clang-format")

    def test_formatting_off_is_honoured(self):
        self.append("lib/core/sort.c", "/* clang-format off */\nint  dsi_planted( int x ){return x;}\n")
        rc, out = self.rules("format")
        self.assertEqual(rc, 0, out)


if __name__ == "__main__":
    unittest.main()
