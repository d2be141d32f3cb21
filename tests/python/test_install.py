"""The C quick start as a user runs it: `make install PREFIX=$t`, the README's program built with
`pkg-config --cflags --libs daemonset`, and run with nothing set (no LD_LIBRARY_PATH, no ldconfig): the
installed daemonset.pc carries an rpath for a libdir the dynamic loader does not search by itself, and
none for /usr/lib.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRUB = ("DAEMONSET_LIB", "PYTHONPATH", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")


def env(**extra):
    e = {k: v for k, v in os.environ.items() if k not in SCRUB}
    e.update(extra)
    return e


def run(args, **kw):
    kw.setdefault("env", env())
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def readme_c_quick_start():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## C quick start"):]
    start = section.index("```c\n") + 5
    return section[start:section.index("\n```", start)] + "\n"


def build_dir():
    """The build directory of the library under test (make python-tests sets DAEMONSET_LIB into it)."""
    lib = os.environ.get("DAEMONSET_LIB")
    if lib:
        return os.path.relpath(os.path.dirname(os.path.dirname(os.path.realpath(lib))), ROOT)
    return "build"


@unittest.skipUnless(shutil.which("pkg-config") and shutil.which("cc"), "needs pkg-config and cc")
class InstalledQuickStart(unittest.TestCase):
    def make(self, *args):
        r = run(["make", "-s", "--no-print-directory", "-C", ROOT, "BUILD=" + build_dir(), "PYTHON=" + sys.executable]
                + list(args))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_the_readme_program_runs_after_make_install(self):
        with tempfile.TemporaryDirectory() as t:
            try:
                self.make("install", "PREFIX=" + t)
                pc = os.path.join(t, "lib", "pkgconfig")
                r = run(["pkg-config", "--cflags", "--libs", "daemonset"], env=env(PKG_CONFIG_PATH=pc))
                self.assertEqual(r.returncode, 0, r.stderr)
                flags = r.stdout.split()
                self.assertIn("-Wl,-rpath,%s/lib" % t, flags)  # a prefix of one's own: the loader needs the rpath
                demo = os.path.join(t, "demo.c")
                with open(demo, "w") as f:
                    f.write(readme_c_quick_start())
                r = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", demo, "-o", os.path.join(t, "demo")] + flags)
                self.assertEqual(r.returncode, 0, r.stderr)
                r = run([os.path.join(t, "demo")], cwd=ROOT)  # no LD_LIBRARY_PATH: the rpath finds it
                self.assertEqual((r.returncode, r.stdout), (0, "cp-1: shouldRun=0 shouldContinueRunning=1\n"),
                                 r.stderr)
                r = run(["readelf", "-d", os.path.join(t, "demo")]) if shutil.which("readelf") else None
                if r is not None:
                    self.assertRegex(r.stdout, r"R(UN)?PATH.*\[%s/lib\]" % re.escape(t))
                # the longer example too, as CI builds it
                r = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", os.path.join(ROOT, "examples", "quickstart.c"),
                         "-o", os.path.join(t, "quickstart")] + flags)
                self.assertEqual(r.returncode, 0, r.stderr)
                r = run([os.path.join(t, "quickstart"), "examples/cluster"], cwd=ROOT)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            finally:
                self.make("uninstall", "PREFIX=" + t)
                run(["make", "-s", "-C", ROOT, "BUILD=" + build_dir(), os.path.join(build_dir(), "lib", "daemonset.pc")])

    def test_no_rpath_for_the_loaders_own_directories(self):
        with tempfile.TemporaryDirectory() as d:
            for libdir, rpath in (("/usr/lib", False), ("/usr/local/lib", True), ("/opt/ds/lib", True)):
                with self.subTest(libdir=libdir):
                    r = run(["make", "-s", "--no-print-directory", "-C", ROOT, "BUILD=" + d, "libdir=" + libdir,
                             os.path.join(d, "lib", "daemonset.pc")])
                    self.assertEqual(r.returncode, 0, r.stderr)
                    with open(os.path.join(d, "lib", "daemonset.pc")) as f:
                        libs = [line for line in f.read().splitlines() if line.startswith("Libs:")][0]
                    self.assertEqual("-Wl,-rpath,${libdir}" in libs, rpath, libs)


if __name__ == "__main__":
    unittest.main()
