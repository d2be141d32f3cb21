"""The daemonset package as users install it.

- The versions agree: include/daemonset/common.h's DS_VERSION_STRING,
  examples/python/pyproject.toml, daemonset.__version__, the wheel's METADATA
  and the built library.
- The build backend (examples/python/tools/daemonset_build.py) makes a wheel
  with every module, py.typed, its own copy of libdaemonset.so.1 (built by
  `make lib`) and a RECORD that verifies; the same bytes twice; with
  libdir=DIR, no copy and the library's directory recorded. The sdist carries
  the C sources.
- `pip install --no-index ./examples/python` into a fresh virtual environment
  on a machine where nothing was installed (no `make install`), with each
  Python here (the python3 on PATH and Debian's /usr/bin/python3), then a
  unittest script run by that environment's Python with no DAEMONSET_LIB,
  PYTHONPATH, LD_LIBRARY_PATH or PKG_CONFIG_PATH: the installed package loads
  the library it carries. Then the README's Python quick start, run there, prints
  what its comments say, and `mypy --strict` accepts it against the installed
  package. The package is reinstalled with `--config-settings libdir=DIR`,
  which records the library's directory, and finds it there. `pip uninstall`
  removes it again.
- `mypy --strict` on the package itself finds nothing (Debian's mypy: sh
  tests/tools.sh typing).
- `make install DESTDIR=...` puts the package where that Python imports from for
  the prefix, with $(libdir) recorded, and `make uninstall` removes it.
"""

import base64
import csv
import platform
import hashlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

import daemonset

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PKG_SRC = os.path.join(ROOT, "examples", "python")
SAMPLE = os.path.join(ROOT, "examples", "cluster")
LIB = daemonset.library_path()[0]  # the build's (make python-tests sets DAEMONSET_LIB)
SCRUB = ("DAEMONSET_LIB", "PYTHONPATH", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "PKG_CONFIG", "PYTHONHOME",
         "VIRTUAL_ENV", "PIP_INDEX_URL", "PIP_FIND_LINKS", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")


def load_backend():
    spec = importlib.util.spec_from_file_location("daemonset_build", os.path.join(PKG_SRC, "tools",
                                                                                   "daemonset_build.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BACKEND = load_backend()


def header_version():
    with open(os.path.join(ROOT, "include", "daemonset", "common.h")) as f:
        return re.search(r'^#define DS_VERSION_STRING "([^"]+)"', f.read(), re.M).group(1)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in SCRUB}
    env.update(extra)
    return env


def run(args, **kw):
    kw.setdefault("env", clean_env())
    kw.setdefault("timeout", 300)
    return subprocess.run(args, capture_output=True, text=True, **kw)


def verify_record(test, base, info):
    """Every file RECORD lists has its hash and size; every file under the package is listed."""
    with open(os.path.join(base, info, "RECORD"), newline="") as f:
        rows = list(csv.reader(f))
    listed = set()
    for path, digest, size in rows:
        listed.add(path)
        if path == info + "/RECORD":
            continue
        with open(os.path.join(base, path), "rb") as f:
            data = f.read()
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        test.assertEqual((digest, int(size)), (want, len(data)), path)
    on_disk = set()
    for top in ("daemonset", info):
        for dirpath, dirnames, filenames in os.walk(os.path.join(base, top)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                on_disk.add(os.path.relpath(os.path.join(dirpath, name), base).replace(os.sep, "/"))
    test.assertEqual(on_disk, listed)


def source_modules():
    return sorted(n for n in os.listdir(os.path.join(PKG_SRC, "daemonset")) if n.endswith(".py") and n != "_config.py")


class VersionTest(unittest.TestCase):
    def test_versions_agree(self):
        v = header_version()
        self.assertEqual(v, "1.2.0")
        self.assertEqual(BACKEND.read_pyproject()["project"]["version"], v)
        self.assertEqual(daemonset.__version__, v)
        self.assertEqual(daemonset.version(), v)  # the library built from this tree
        with open(os.path.join(ROOT, "include", "daemonset", "common.h")) as f:
            text = f.read()
        parts = [re.search(r"^#define DS_VERSION_%s (\d+)" % p, text, re.M).group(1) for p in ("MAJOR", "MINOR",
                                                                                              "PATCH")]
        self.assertEqual(".".join(parts), v)

    def test_pyproject_reader_agrees_with_tomllib(self):
        try:
            import tomllib
        except ImportError:
            self.skipTest("tomllib is Python 3.11+")
        with open(os.path.join(PKG_SRC, "pyproject.toml"), "rb") as f:
            ref = tomllib.load(f)
        ours = BACKEND.read_pyproject()
        self.assertEqual(ours["project"], ref["project"])
        self.assertEqual(ours["build-system"], ref["build-system"])
        self.assertEqual(ours["tool.daemonset_build"], ref["tool"]["daemonset_build"])
        self.assertEqual(ref["build-system"]["requires"], [])  # nothing to fetch from an index


def readme_quick_start():
    """The ```python block of the README's "## Python quick start"."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Python quick start"):]
    return section[section.index("```python\n") + 10:section.index("\n```", section.index("```python\n"))] + "\n"


def mypy():
    """The mypy command, or None (skipped unless CI, where make check installs it)."""
    return shutil.which("mypy")


class WheelTest(unittest.TestCase):
    def test_wheel(self):
        with tempfile.TemporaryDirectory() as d:
            name = BACKEND.build_wheel(d)
            # a wheel with a C library is for this platform, not py3-none-any
            self.assertEqual(name, "daemonset-%s-py3-none-linux_%s.whl" % (header_version(), platform.machine()))
            with open(os.path.join(d, name), "rb") as f:
                first = f.read()
            os.remove(os.path.join(d, name))
            self.assertEqual(BACKEND.build_wheel(d), name)
            with open(os.path.join(d, name), "rb") as f:
                self.assertEqual(f.read(), first)  # reproducible
            info = "daemonset-%s.dist-info" % header_version()
            with zipfile.ZipFile(os.path.join(d, name)) as z:
                names = set(z.namelist())
                z.extractall(os.path.join(d, "x"))
                meta = z.read(info + "/METADATA").decode()
                wheel = z.read(info + "/WHEEL").decode()
                mode = z.getinfo("daemonset/_lib/libdaemonset.so.1").external_attr >> 16
            want = {"daemonset/" + m for m in source_modules()} | {"daemonset/py.typed", "daemonset/_lib/libdaemonset.so.1"}
            want |= {info + "/" + n for n in ("METADATA", "WHEEL", "RECORD", "top_level.txt")}
            self.assertEqual(names, want)
            self.assertIn("\nVersion: %s\n" % header_version(), meta)
            self.assertIn("\nRequires-Python: >=3.8\n", meta)
            self.assertIn("Root-Is-Purelib: false\nTag: py3-none-linux_%s\n" % platform.machine(), wheel)
            self.assertEqual(mode, 0o755)
            verify_record(self, os.path.join(d, "x"), info)
            # the library the wheel carries is the one make built from this tree, and it loads
            with open(os.path.join(d, "x", "daemonset", "_lib", "libdaemonset.so.1"), "rb") as f, \
                    open(os.path.join(ROOT, "build", "lib", "libdaemonset.so.1"), "rb") as g:
                self.assertEqual(f.read(), g.read())
            r = run([sys.executable, "-c", "import ctypes, sys; print(ctypes.CDLL(sys.argv[1]).ds_version)",
                     os.path.join(d, "x", "daemonset", "_lib", "libdaemonset.so.1")])
            self.assertEqual(r.returncode, 0, r.stderr)

            name = BACKEND.build_wheel(d, {"libdir": "/opt/ds/lib"})
            self.assertEqual(name, "daemonset-%s-py3-none-any.whl" % header_version())  # no copy: pure Python
            with zipfile.ZipFile(os.path.join(d, name)) as z:
                self.assertEqual(z.read("daemonset/_config.py").decode().splitlines()[-1], "LIBDIR = '/opt/ds/lib'")
                self.assertNotIn("daemonset/_lib/libdaemonset.so.1", z.namelist())

    def test_editable_and_sdist(self):
        with tempfile.TemporaryDirectory() as d:
            with zipfile.ZipFile(os.path.join(d, BACKEND.build_editable(d))) as z:
                self.assertEqual(z.read("__editable__.daemonset.pth").decode().strip(), PKG_SRC)
            with tarfile.open(os.path.join(d, BACKEND.build_sdist(d))) as t:
                names = set(t.getnames())
            base = "daemonset-%s/" % header_version()
            for n in ["pyproject.toml", "README.md", "PKG-INFO", "tools/daemonset_build.py", "daemonset/py.typed"] + [
                    "daemonset/" + m for m in source_modules()]:
                self.assertIn(base + n, names)
            # the C sources, so that a wheel built from the sdist carries the library too
            for n in ["Makefile", "LICENSE", "include/daemonset.h", "lib/api/libdaemonset.map", "lib/core/load.c"]:
                self.assertIn(base + "csrc/" + n, names)


def interpreters():
    """The distinct Pythons to install with: the one running the tests, and Debian's."""
    seen, out = set(), []
    for exe in (sys.executable, shutil.which("python3"), "/usr/bin/python3"):
        if not exe or not os.path.exists(exe):
            continue
        r = run([exe, "-c", "import sys; print(sys.base_prefix, sys.version_info[:2])"])
        if r.returncode == 0 and r.stdout not in seen:
            seen.add(r.stdout)
            out.append(exe)
    return out


INSTALLED_TEST = r'''
import os, sys, typing, unittest
SAMPLE, EXPECT_PATH, EXPECT_HOW, VERSION = sys.argv[1:5]

import daemonset
from daemonset import placement, plan


class Installed(unittest.TestCase):
    def test_no_variable_points_at_the_library(self):
        for name in ("DAEMONSET_LIB", "PYTHONPATH", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH"):
            self.assertNotIn(name, os.environ)

    def test_the_installed_copy_and_library(self):
        self.assertTrue(daemonset.__file__.startswith(sys.prefix + os.sep), daemonset.__file__)
        self.assertEqual(daemonset.library_path(), (EXPECT_PATH, EXPECT_HOW))
        self.assertEqual((daemonset.__version__, daemonset.version()), (VERSION, VERSION))
        self.assertTrue(os.path.isfile(os.path.join(os.path.dirname(daemonset.__file__), "py.typed")))
        self.assertIn("return", typing.get_type_hints(placement.should_run))

    def test_a_scheduling_decision(self):
        with daemonset.Cluster.from_file(SAMPLE) as c:
            self.assertEqual(placement.should_run(c, "kube-system/fluentd-logging", "cp-1"), (False, True))
            p = plan.plan(c, "kube-system/fluentd-logging", "2026-12-02T15:00:00Z", {"burstReplicas": 50})
            self.assertEqual([cr["node"] for cr in p.creates], ["worker-4"])
            with self.assertRaises(daemonset.NotFound):
                placement.explain(c, "kube-system/nope")


unittest.main(argv=[sys.argv[0]], verbosity=0)
'''


class VenvInstallTest(unittest.TestCase):
    def install_and_check(self, exe):
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            r = run([exe, "-m", "venv", venv])
            if r.returncode != 0:
                why = "%s -m venv failed (Debian: apt-get install python3-venv): %s" % (exe, r.stderr)
                if os.environ.get("CI"):
                    self.fail(why)  # make deps installs python3-venv: CI must run this test, not skip it
                self.skipTest(why)
            py = os.path.join(venv, "bin", "python")
            script = os.path.join(tmp, "test_installed.py")
            with open(script, "w") as f:
                f.write(INSTALLED_TEST)

            def pip(*args):
                r = run([py, "-m", "pip", "--disable-pip-version-check", "--no-input"] + list(args), cwd=tmp)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

            def check(path, how):
                r = run([py, script, SAMPLE, path, how, header_version()], cwd=tmp)
                self.assertEqual(r.returncode, 0, "%s: %s%s" % (exe, r.stdout, r.stderr))
                self.assertIn("OK", r.stderr)

            pip("install", "--no-index", PKG_SRC)
            r = run([py, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"])
            site = r.stdout.strip()
            check(os.path.join(site, "daemonset", "_lib", "libdaemonset.so.1"), "bundled in the package")
            self.run_quick_start(py, tmp)
            pip("install", "--no-index", "--force-reinstall", "--config-settings",
                "libdir=" + os.path.dirname(LIB), PKG_SRC)
            check(os.path.join(os.path.dirname(LIB), "libdaemonset.so.1"), "recorded at install")
            pip("uninstall", "-y", "daemonset")
            r = run([py, "-c", "import daemonset"], cwd=tmp)
            self.assertIn("No module named 'daemonset'", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["quick.py", "test_installed.py", "venv"])

    def run_quick_start(self, py, tmp):
        """The README's Python quick start, run by the environment's Python from the checkout, prints what its
        comments say; mypy --strict accepts it against the package installed there."""
        quick = os.path.join(tmp, "quick.py")
        with open(quick, "w") as f:
            f.write(readme_quick_start())
        r = run([py, quick], cwd=ROOT)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "(False, True)")
        self.assertEqual(lines[1:7], ["cp-1 not-placed", "gpu-1 not-placed", "worker-1 placed", "worker-2 placed",
                                      "worker-3 placed", "worker-4 create"])
        self.assertEqual(lines[7:], ["['worker-4']", "blocked", 'DS_ENOTFOUND daemonsets.apps "nope" not found'])
        if not mypy():
            if os.environ.get("CI"):
                self.fail("mypy is not installed (sh tests/tools.sh typing)")
            return
        r = run([mypy(), "--strict", "--cache-dir", os.devnull, "--python-executable", py, quick], cwd=tmp)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("Success: no issues found in 1 source file", r.stdout)

    def test_each_python(self):
        found = interpreters()
        self.assertGreaterEqual(len(found), 1)
        for exe in found:
            with self.subTest(python=exe):
                self.install_and_check(exe)

    def test_source_tree_stays_clean(self):
        """pip builds in the source tree: nothing may be left there (no build/, no *.egg-info)."""
        left = sorted(n for n in os.listdir(PKG_SRC) if n in ("build", "dist") or n.endswith(".egg-info"))
        self.assertEqual(left, [])


class TypingTest(unittest.TestCase):
    def test_the_package_under_mypy_strict(self):
        """Every module, with explicit re-exports (daemonset.Cluster), checks under mypy --strict."""
        if not mypy():
            if os.environ.get("CI"):
                self.fail("mypy is not installed (sh tests/tools.sh typing)")
            self.skipTest("mypy is not installed (sh tests/tools.sh typing)")
        with tempfile.TemporaryDirectory() as tmp:
            r = run([mypy(), "--strict", "--cache-dir", tmp, "-p", "daemonset"], cwd=PKG_SRC,
                    env=clean_env(MYPYPATH=PKG_SRC))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertRegex(r.stdout, r"Success: no issues found in \d+ source files")
            # and a use of each re-exported name, as a user's program has it
            use = os.path.join(tmp, "use.py")
            with open(use, "w") as f:
                f.write("import daemonset\n\ndef f(c: daemonset.Cluster) -> None:\n"
                        "    print(daemonset.library_path(), daemonset.NotFound, daemonset.Quantity, daemonset.Options,\n"
                        "          daemonset.placement.explain(c, 'gpu-agent'), daemonset.DaemonSetError)\n")
            r = run([mypy(), "--strict", "--cache-dir", tmp, use], cwd=tmp, env=clean_env(MYPYPATH=PKG_SRC))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


class SitedirTest(unittest.TestCase):
    def sitedir(self, exe, prefix):
        r = run([exe, os.path.join(PKG_SRC, "tools", "daemonset_build.py"), "sitedir", prefix])
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.strip()

    def test_debian_python(self):
        exe = "/usr/bin/python3"
        r = run([exe, "-c", "import sysconfig, sys; print('deb_system' in sysconfig.get_scheme_names()); "
                            "print('%d.%d' % sys.version_info[:2]); print(chr(10).join(sys.path))"])
        if r.returncode != 0 or r.stdout.split()[0] != "True":
            self.skipTest("no Debian python3 here")
        ver, path = r.stdout.split("\n")[1], r.stdout.split("\n")[2:]
        local = self.sitedir(exe, "/usr/local")
        self.assertEqual(local, "/usr/local/lib/python%s/dist-packages" % ver)
        self.assertIn(local, path)  # importable once make install has put it there
        self.assertEqual(self.sitedir(exe, "/usr"), "/usr/lib/python3/dist-packages")
        self.assertEqual(self.sitedir(exe, "/opt/ds"), "/opt/ds/lib/python%s/dist-packages" % ver)

    def test_venv_prefix(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run([sys.executable, "-m", "venv", "--without-pip", tmp])
            if r.returncode != 0:
                self.skipTest("no venv module")
            py = os.path.join(tmp, "bin", "python")
            site = self.sitedir(py, tmp)
            r = run([py, "-c", "import sys; print(chr(10).join(sys.path))"])
            self.assertIn(site, r.stdout.split("\n"))


class MakeInstallTest(unittest.TestCase):
    def test_install_and_uninstall(self):
        build = os.path.relpath(os.path.dirname(os.path.dirname(os.path.realpath(LIB))), ROOT)
        make = ["make", "-s", "--no-print-directory", "-C", ROOT, "BUILD=" + build, "PYTHON=" + sys.executable]
        site = run([sys.executable, os.path.join(PKG_SRC, "tools", "daemonset_build.py"), "sitedir",
                    "/usr/local"]).stdout.strip()
        with tempfile.TemporaryDirectory() as dest:
            r = run(make + ["install", "DESTDIR=" + dest])
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            base = dest + site
            info = "daemonset-%s.dist-info" % header_version()
            self.assertEqual(sorted(os.listdir(base)), ["daemonset", info])
            self.assertTrue(os.path.isfile(os.path.join(base, "daemonset", "py.typed")))
            with open(os.path.join(base, "daemonset", "_config.py")) as f:
                self.assertIn("LIBDIR = '/usr/local/lib'\n", f.read())  # where it will be, not under DESTDIR
            with open(os.path.join(base, info, "INSTALLER")) as f:
                self.assertEqual(f.read(), "make\n")
            verify_record(self, base, info)
            self.assertEqual(sorted(n for n in os.listdir(os.path.join(base, "daemonset")) if n.endswith(".py")),
                             sorted(source_modules() + ["_config.py"]))
            self.assertTrue(os.path.exists(os.path.join(dest, "usr", "local", "lib", "libdaemonset.so.1")))
            r = run(make + ["uninstall", "DESTDIR=" + dest])
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(os.listdir(base), [])


if __name__ == "__main__":
    unittest.main()
